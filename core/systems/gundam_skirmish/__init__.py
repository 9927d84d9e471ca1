"""Mobile Suit Gundam: Skirmish (000_3e12d4cbd0c8f6da.txt): the rule system as the shared layer sees it.

The package reads in the order of the book.  Before the battle: :mod:`.catalogue` (the guideline
tables and every ability, trait, modification and order as data), :mod:`.units` (the unit statistics
sheet, costs, building rules), :mod:`.mega` (Mega Unit parts), :mod:`.samples` (units of the app's own
making: the book prints none, digest A1), :mod:`.options` (game type and house readings) and
:mod:`.unit_state` (what a unit keeps in play).

The battle (L163-L1619), one module per chapter: :mod:`.battle` (what every chapter shares: the
game's readings, the changes an action collects, the inputs of one unit's or one side's action),
:mod:`.economy` (Fast and Slow actions), :mod:`.damage` (Integrity, the Damage Chart, Shield Break,
destruction), :mod:`.shooting` (the Shoot dice procedure and its exact odds), :mod:`.shoot` (the Shoot
action), :mod:`.picks` (what a unit offers for an action's pick fields), :mod:`.aimed_shot`,
:mod:`.close_combat`, :mod:`.movement` (Move, Boost, Reload, Switch Weapon, Idle, a campaign battle's
withdrawal), :mod:`.abilities`,
:mod:`.morale`, :mod:`.traits` (the pilot traits that hang on the battle's events: Fierce, Responsive,
Merciful, Terrifying), :mod:`.orders`, :mod:`.ambush`, :mod:`.game_types` (set-up, scoring, victory),
:mod:`.turns` (priority, the Upkeeps, the phase view) and :mod:`.actions` (the action list the game
screen offers).  :mod:`.tools` holds the system's own tools.

Campaign mode (L1620-L2228) is in the ``campaign_*`` modules: its tables and maps
(:mod:`.campaign_data`), its state (:mod:`.campaign_state`), the campaign turn (:mod:`.campaign_turn`),
battles (:mod:`.campaign_battle`) and its set-up (:mod:`.campaign_rules`), plugged into the shared
campaign layer of ``core.campaign`` (``SYSTEM.campaign``): its steps are campaign steps, not game actions.
The chapter's rule-by-rule checklist is :mod:`.campaign_checklist`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from core.game import Game
from core.systems.base import (
    CardLine,
    CatalogueUnit,
    Change,
    PhaseView,
    RuleSystem,
    SampleForce,
    UnitCard,
    UnitState,
    UnitView,
    Viewer,
    ViewItem,
    ViewSection,
    Violation,
    as_profile,
)
from core.systems.gundam_skirmish.actions import ACTIONS
from core.systems.gundam_skirmish.campaign_rules import CAMPAIGN
from core.systems.gundam_skirmish.catalogue import ALL_ENTRIES, BEAM_DEFENCE, SHIELDS
from core.systems.gundam_skirmish.gates import REQUIREMENTS
from core.systems.gundam_skirmish.mega import PARTS, counter
from core.systems.gundam_skirmish.options import GsOptions, GsState
from core.systems.gundam_skirmish.samples import FORCES, SAMPLE_NOTE, SAMPLES
from core.systems.gundam_skirmish.tools import TOOLS
from core.systems.gundam_skirmish.turns import phase_view, status_lines
from core.systems.gundam_skirmish.unit_state import GsUnitState
from core.systems.gundam_skirmish.units import (
    Unit,
    armour_of,
    integrity_of,
    is_command,
    movement_of,
    starting_weapon,
    unit_cost,
    unit_violations,
    weapon_kind,
    weapon_numbers,
)

__all__ = ["SYSTEM", "GundamSkirmish", "Unit"]


def _unit(profile: BaseModel) -> Unit:
    return as_profile(Unit, profile)


def _faction_violations(units: Sequence[Unit], army: str = "") -> list[Violation]:
    """An army takes units of one faction only (L2339-L2342): some faction all its units share."""
    if not units or set(units[0].factions).intersection(*(u.factions for u in units[1:])):
        return []
    return [
        Violation(
            rule="one-faction", message=f"{army}an army takes units of one faction only", ref="L2339-L2342"
        )
    ]


def _w(v: int | None, none: str = "None") -> str:
    return none if v is None else f"{v}+"


class GundamSkirmish(RuleSystem):
    """Mobile Suit Gundam: Skirmish's contribution to the shared squad and game layer."""

    def catalogue(self) -> list[CatalogueUnit]:
        """Units of the app's own making, built from the book's guideline tables (the book has no roster)."""
        return self.samples_catalogue(SAMPLES, SAMPLE_NOTE, "L2425-L2765")

    def sample_forces(self) -> list[SampleForce]:
        """Two armies of the sample units, one faction each (L2339-L2342): a sample battle starts at once."""
        return [SampleForce(name=name, units=keys) for name, keys in FORCES.items()]

    def unit_cost(self, profile: BaseModel) -> int:
        return unit_cost(_unit(profile))

    def unit_violations(self, profile: BaseModel) -> list[Violation]:
        return unit_violations(_unit(profile))

    def squad_violations(self, units: Sequence[tuple[str, BaseModel]], limit: int | None) -> list[Violation]:
        """Points limit, one faction (L2339-L2342), Command units per 500 points (L1279-L1281; A18)."""
        out = super().squad_violations(units, limit)
        shown = [(k, _unit(p)) for k, p in units]
        out += _faction_violations([u for _, u in shown])
        commanders = [(k, u) for k, u in shown if is_command(u)]
        others = sum(unit_cost(u) for _, u in shown) - sum(unit_cost(u) for _, u in commanders)
        allowed = max(0, others // 500)
        if len(commanders) > allowed:
            out.append(
                Violation(
                    rule="command-count",
                    message=f"{len(commanders)} Command units; {others} points of other units allow "
                    f"{allowed}",
                    ref="L1279-L1281",
                )
            )
        return out

    def card(self, profile: BaseModel) -> UnitCard:
        """The sheet in the book's order (L2321-L2423)."""
        u = _unit(profile)
        tags = "".join(t for t, on in (("<S>", u.no_space), ("<C>", u.command_tag)) if on)
        move, boost = movement_of(u)
        dice, success = armour_of(u)
        lines = [
            CardLine(label="Faction", value=", ".join(u.factions)),
            CardLine(label="Points", value=str(unit_cost(u))),
            CardLine(
                label="Movement / Boost", value=f'{move}" / {"/" if boost is None else str(boost) + chr(34)}'
            ),
            CardLine(
                label="Integrity",
                value=str(integrity_of(u)),
                note=""
                if u.parts is None
                else "Mega Unit: " + ", ".join(f"{p.capitalize()} {u.parts.of(p)}" for p in PARTS),
            ),
            CardLine(label="Armour", value=f"{dice} <{success}+>"),
        ]
        start = starting_weapon(u)
        for w in u.weapons:
            # Codes in the book's words: Carried/Mounted, Penetration... (L2369-L2379).
            lines.append(
                CardLine(
                    label=w.name,
                    value=f"{weapon_kind(w)}; {weapon_numbers(w)}",
                    note="equipped at the start" if w.name == start else "",
                )
            )
        for c in u.close_attacks:  # a Mobile Fighter's techniques too, its pilot's learnt ones (L1837)
            lines.append(
                CardLine(
                    label=c.name,
                    value=f"DEX {c.dex:+d} {c.attack}D6 ACC {c.acc}+ CRIT {_w(c.crit)} "
                    f"{c.dam} DAM" + (" <PS>" if c.piercing_strike else ""),
                    note="" if u.knows(c.name) else "a technique its pilot has not learnt (L1837-L1844)",
                )
            )
        if u.shield != "none":
            g = SHIELDS[u.shield]
            lines.append(
                CardLine(
                    label="Shield",
                    value=f"{u.shield.replace('_', ' ')}: +{g.dice} die "
                    f"<{g.success}+>, integrity {g.integrity}",
                )
            )
        if u.beam_defence != "none":
            d, s = BEAM_DEFENCE[u.beam_defence]
            lines.append(CardLine(label="Beam defence", value=f"+{d} die <{s}+> vs Beam"))
        notes = []
        for a in u.abilities:
            e = ALL_ENTRIES["ability"][a.key]
            x = f" ({a.x})" if a.x else ""
            notes.append(f"{e.name}{x}: {e.help}" + (f" Players apply it: {e.by_hand}." if e.by_hand else ""))
        if u.character:
            p = u.character
            notes.append(
                f"Pilot {p.name}, rank {p.rank}: " + ", ".join(ALL_ENTRIES["trait"][t].name for t in p.traits)
                if p.traits
                else f"Pilot {p.name}, rank {p.rank}"
            )
        return UnitCard(
            title=u.name + (f" {tags}" if tags else ""),
            kind=u.kind.replace("_", " "),
            lines=lines,
            notes=notes,
        )

    def initial_state(self, profile: BaseModel) -> UnitState:
        """Full Integrity, Steady, shield whole, the starting weapon equipped (L434, L1538)."""
        u = _unit(profile)
        counters = {
            "leg": 0,
            "arm": 0,
            "head": 0,
            "actions": 0,
            "shield": SHIELDS[u.shield].integrity if u.shield != "none" else 0,
        }
        # A unit with no carried weapon holds its close combat weapon from the start (L434, L1036-L1040).
        equipped = starting_weapon(u) or ("cc" if u.cc else "")
        extra: dict[str, Any] = {"equipped": equipped, "reload": {}, "once": []}
        if u.character:
            extra["pilot"] = {"health": u.character.health, "mind": u.character.mind}
        return UnitState(
            max_damage=integrity_of(u),
            counters=counters,
            conditions=["reserve"] if u.ambush else [],
            extra=extra,
        )

    def unit_view(self, game: Game, side: int, index: int, viewer: Viewer = None) -> UnitView | None:
        """A Mega Unit's parts: damage taken of each part's Integrity (L1309-L1319)."""
        gu = game.sides[side].units[index]
        parts = _unit(Unit.model_validate(gu.profile)).parts
        if parts is None:
            return None
        items = [
            ViewItem(
                id=p,
                label=f"{p.capitalize()}: {gu.state.counters.get(counter(p), 0)} of {parts.of(p)} lost",
                detail="hit on " + {"head": "1", "arms": "2", "torso": "3-5", "legs": "6"}[p],
            )
            for p in PARTS
        ]
        return UnitView(sections=[ViewSection(title="Mega Unit parts", items=items)])

    def start_round(self, game: Game) -> list[Change]:
        """A round ends when its last player ends their turn: use the Next turn action (L294-L308)."""
        raise ValueError("a round ends when its last player ends their turn: use 'Next turn' (L294-L308)")

    def phase(self, game: Game) -> PhaseView:
        """Priority roll, then each player's Initial Upkeep, actions, Final Upkeep (L276-L308)."""
        return phase_view(game)

    def settle(self, game: Game) -> list[Change]:
        """A unit adjusted by hand to 0 Integrity or less is destroyed (L1094-L1098)."""
        return [
            Change(path=["sides", s, "units", u, "state", "destroyed"], value=True)
            for s, side in enumerate(game.sides)
            for u, g in enumerate(side.units)
            if g.state.damage >= g.state.max_damage and not g.state.destroyed
        ]

    def status(self, game: Game) -> list[CardLine]:
        return status_lines(game)

    def game_violations(self, sides: Sequence[tuple[str, Sequence[BaseModel]]]) -> list[Violation]:
        """Every army of one faction (L2339-L2342)."""
        return [
            v for name, units in sides for v in _faction_violations([_unit(p) for p in units], f"{name}: ")
        ]


SYSTEM = GundamSkirmish.of_package(
    __name__,
    Unit,
    actions=ACTIONS,
    options=GsOptions,
    state_model=GsState,
    unit_state_model=GsUnitState,
    tools=TOOLS,
    requirements=REQUIREMENTS,
    campaign=CAMPAIGN,
)
