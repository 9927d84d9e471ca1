"""Gundam Skirmish's campaign as the shared campaign layer sees it (core.campaign), and its set-up.

Set-up (L1705-L1731): an era and one of its maps, the players' factions, the priority roll, four MS
Teams per player on bases of their own starting zone, each team at most the agreed points (and at
most 1,000, L1740), War Effort 10 and Requisition 10 each.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from core.campaign import BattlePlan, Campaign, CampaignRules, CampaignView, SetupDraft, SetupForm, Step
from core.dice import DiceSource
from core.game import Game
from core.squad import Squad
from core.systems.base import Closed
from core.systems.gundam_skirmish import campaign_battle, campaign_setup, campaign_view
from core.systems.gundam_skirmish.campaign_data import MAPS, TABLES, Faction
from core.systems.gundam_skirmish.campaign_state import CampaignState, CBase, CPilot, CUnit, Player, Team
from core.systems.gundam_skirmish.campaign_turn import ACTIONS, CampaignReadings
from core.systems.gundam_skirmish.samples import SAMPLES
from core.systems.gundam_skirmish.units import Unit, unit_cost, unit_violations


class SetupUnit(Closed):
    sample: str = Field(default="", max_length=40, description="A ready-made unit, by its key.")
    profile: dict[str, Any] | None = Field(
        default=None, description="Or a unit's sheet (its own pilot ignored)."
    )
    pilot: str = Field(default="", max_length=60, description="Its pilot's name ('' for a nameless pilot).")
    character: bool = Field(default=False, description="The pilot is a character, who earns EXP (L1791).")

    def unit(self) -> Unit:
        if self.sample:
            if self.sample not in SAMPLES:
                raise ValueError(f"no ready-made unit {self.sample!r}")
            return SAMPLES[self.sample]
        if self.profile is None:
            raise ValueError("a unit needs a ready-made unit or a sheet")
        return Unit.model_validate({**self.profile, "pilot": []})


class SetupTeam(Closed):
    name: str = Field(min_length=1, max_length=60)
    base: str = Field(min_length=1, max_length=60, description="The base it starts on, in its own zone.")
    units: list[SetupUnit] = Field(min_length=1, max_length=20)


class SetupPlayer(Closed):
    faction: Faction
    teams: list[SetupTeam] = Field(min_length=1, max_length=TABLES.start.max_teams)


class Setup(Closed):
    map: str = Field(description="One of the five maps (L1770-L1785).")
    points: int = Field(default=500, ge=1, le=TABLES.start.max_points, description="Agreed team points.")
    players: list[SetupPlayer] = Field(min_length=2, max_length=3)
    priority: list[Faction] = Field(
        default_factory=list,
        description="Priority order if already rolled at the table; empty: the app rolls.",
    )

    @model_validator(mode="after")
    def _era(self) -> Setup:
        if self.map not in MAPS.maps:
            raise ValueError(f"no map {self.map!r}")
        era = TABLES.eras[MAPS.maps[self.map].era]
        if sorted(p.faction for p in self.players) != sorted(era.factions):
            raise ValueError(f"the {era.name} is played by " + ", ".join(era.factions) + f" ({era.ref})")
        for p in self.players:
            if len(p.teams) != TABLES.start.teams:
                raise ValueError(f"each player places {TABLES.start.teams} MS Teams (L1728-L1729)")
        return self


def _priority(setup: Setup, dice: DiceSource) -> tuple[list[str], list[str]]:
    """Players in priority order: one D6 each, tied players roll again among themselves (L1725)."""
    if setup.priority:
        if sorted(setup.priority) != sorted(p.faction for p in setup.players):
            raise ValueError("the priority order must name every player once")
        return list(setup.priority), ["priority as rolled at the table"]
    texts: list[str] = []

    def rank(group: list[str]) -> list[str]:
        if len(group) == 1:
            return group
        faces = dict(zip(group, dice.roll(len(group), 6, "Priority: " + ", ".join(group)), strict=True))
        texts.append("priority " + ", ".join(f"{f} {v}" for f, v in faces.items()))
        out: list[str] = []
        for v in sorted(set(faces.values()), reverse=True):
            out += rank([f for f in group if faces[f] == v])
        return out

    return rank([p.faction for p in setup.players]), texts


class GsCampaign(CampaignRules):
    state_model = CampaignState
    setup_model = Setup
    battle_model = campaign_battle.BattleInput
    options_model = CampaignReadings
    actions = ACTIONS

    def start(self, setup: Setup, dice: DiceSource) -> Step:
        m = MAPS.maps[setup.map]
        bases = [
            CBase(name=b.name, x=b.x, y=b.y, victory=b.victory, owner=m.zone_of(b.x, b.y)) for b in m.bases
        ]
        order, texts = _priority(setup, dice)
        st = CampaignState(
            era=m.era,
            map=setup.map,
            players=[Player.model_validate({"faction": f}) for f in order],
            bases=bases,
            teams=[],
        )
        used: set[str] = set()
        for p in sorted(setup.players, key=lambda p: order.index(p.faction)):
            for t in p.teams:
                base = next((b for b in bases if b.name == t.base), None)
                if base is None or base.owner != p.faction:
                    raise ValueError(
                        f"{t.name}: {t.base} is not a base of {p.faction}'s starting zone (L1723-L1725)"
                    )
                if base.name in used:
                    raise ValueError(f"only one MS Team may stand on {base.name} (L1743)")
                used.add(base.name)
                tkey = st.new_key("t")
                units = []
                for su in t.units:
                    unit = su.unit()
                    if p.faction not in unit.factions:
                        raise ValueError(f"{unit.name} is not a {p.faction} unit")
                    bad = unit_violations(unit)
                    if bad:
                        raise ValueError(f"{unit.name}: {bad[0].message}")
                    profile = unit.model_dump(mode="json")
                    profile["pilot"] = []
                    name = su.pilot or f"Pilot of {unit.name}"
                    piloted = CUnit(
                        key="u0", profile=profile, pilot=CPilot(name=name, character=su.character)
                    )
                    bad = unit_violations(piloted.unit())  # a character flies a mobile suit (L1802-L1803)
                    if bad:
                        raise ValueError(f"{unit.name}: {bad[0].message}")
                    units.append(
                        CUnit(
                            key=st.new_key("u"),
                            profile=profile,
                            pilot=CPilot(name=name, character=su.character),
                        )
                    )
                team = Team(key=tkey, name=t.name, faction=p.faction, x=base.x, y=base.y, units=units)
                points = sum(unit_cost(u.unit()) for u in units)
                if points > setup.points:
                    raise ValueError(
                        f"{t.name} has {points} points, over the agreed {setup.points} (L1727-L1740)"
                    )
                st.teams.append(team)
        texts.insert(0, f"Campaign on {m.name} (our layout): " + ", ".join(order))
        return Step(st, "; ".join(texts))

    def battle(self, campaign: Campaign, args: campaign_battle.BattleInput) -> BattlePlan:
        return campaign_battle.plan(campaign, args)

    def result(self, campaign: Campaign, plan: dict[str, Any], game: Game) -> Step:
        return campaign_battle.result(campaign, plan, game)

    def view(self, campaign: Campaign) -> CampaignView:
        return campaign_view.view(campaign)

    def setup_form(self, draft: SetupDraft, squads: list[Squad]) -> SetupForm:
        return campaign_setup.form(draft, squads)

    def setup_from(self, draft: SetupDraft, squads: list[Squad]) -> Setup:
        return Setup.model_validate(campaign_setup.setup_of(draft, squads))

    def setup_data(self) -> dict[str, Any]:
        """Eras, maps (with their bases and zones; our layout) and the ready-made units."""
        return {
            "eras": {k: e.model_dump(mode="json") for k, e in TABLES.eras.items()},
            "maps": {k: m.model_dump(mode="json") for k, m in MAPS.maps.items()},
            "note": MAPS.note,
            "teams": TABLES.start.teams,
            "max_points": TABLES.start.max_points,
            "presets": campaign_setup.presets(),
            "samples": {
                k: {"name": u.name, "factions": list(u.factions), "points": unit_cost(u)}
                for k, u in SAMPLES.items()
            },
        }


CAMPAIGN = GsCampaign()
