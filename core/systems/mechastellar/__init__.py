"""MechaStellar (003_9a8631fd8c2279be.txt): the rule system as the shared layer sees it.

The package reads in the order the book plays: :mod:`.units` (the profile players enter: the
book prints no units, digest section 0), :mod:`.samples` (units and two forces of our own, from
the worked examples' numbers), :mod:`.options` (readings of unclear rules, digest section 10),
:mod:`.state` (what a game keeps), :mod:`.turns` (the roll-off, alternating turns, Return Fire,
Momentum), :mod:`.shooting` (the d10 evade, blocks, Armor Saves, exact odds), :mod:`.melee` (the
Melee Clash and its exact odds) and :mod:`.actions` (Focus, Full Throttle, Disengage, the list).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from core.game import Game
from core.systems.base import (
    CardLine,
    CatalogueUnit,
    Change,
    PhaseStep,
    PhaseView,
    RuleSystem,
    SampleForce,
    UnitCard,
    UnitState,
    Violation,
    as_profile,
)
from core.systems.mechastellar.actions import ACTIONS
from core.systems.mechastellar.gates import REQUIREMENTS
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.samples import FORCES, SAMPLE_NOTE, SAMPLES
from core.systems.mechastellar.state import MsState, MsUnitState, ms_state
from core.systems.mechastellar.turns import force_points, new_round_changes, starting_momentum
from core.systems.mechastellar.units import (
    KIND_LABELS,
    SHIELD_LABELS,
    TIER_LABELS,
    TRAITS,
    Unit,
    total_actions,
    unit_violations,
)

__all__ = ["SYSTEM", "MechaStellar", "Unit"]


def _unit(profile: BaseModel) -> Unit:
    return as_profile(Unit, profile)


class MechaStellar(RuleSystem):
    """MechaStellar's contribution to the shared squad and game layer."""

    def catalogue(self) -> list[CatalogueUnit]:
        """Units of the app's own making (the book prints none)."""
        return self.samples_catalogue(SAMPLES, SAMPLE_NOTE, "L146-L1011")

    def sample_forces(self) -> list[SampleForce]:
        """Two 500-point forces of the sample units: a sample battle starts at once."""
        return [SampleForce(name=name, units=keys) for name, keys in FORCES.items()]

    def unit_cost(self, profile: BaseModel) -> int:
        """The points the players gave it (the book prints no costs, digest section 3)."""
        return _unit(profile).points

    def unit_violations(self, profile: BaseModel) -> list[Violation]:
        return unit_violations(_unit(profile))

    def card(self, profile: BaseModel) -> UnitCard:
        u = _unit(profile)
        lines = [
            CardLine(label="Move / Sensors", value=f'{u.move}" / {u.sensors}"'),
            CardLine(label="Accuracy / Evade", value=f"{u.accuracy} / +{u.evade}"),
            CardLine(label="Melee", value=f"{u.melee}d10"),
            CardLine(label="HP / ARM Sv", value=f"{u.hp} / +{u.save}"),
            CardLine(label="Actions", value=str(total_actions(u))),
            CardLine(label="Frame / Size", value=f"{u.frame} / {u.size}"),
        ]
        if u.power:
            lines.append(CardLine(label="Power", value=str(u.power)))
        if u.kind == "warship":
            lines.append(CardLine(label="Hangar / AA DEF", value=f"{u.hangar} / {u.aa_def}d10"))
        if u.shield != "none":
            lines.append(CardLine(label="Shield", value=SHIELD_LABELS[u.shield]))
        for w in u.weapons:
            if w.kind == "shooting":
                rf = f" RF+{w.rapid_fire}" if w.rapid_fire else ""
                value = f'R {w.range}" | {w.shots} shots{rf} | DMG {w.damage} | PEN {w.pen}'
            else:
                dice = f" | ATK +{w.atk_dice}d10" if w.atk_dice else ""
                value = f"{'[CC]' if w.kind == 'cc' else 'Melee'} | DMG {w.damage} | PEN {w.pen}{dice}"
            lines.append(CardLine(label=w.name, value=value))
        pilot = TIER_LABELS[u.pilot.tier] + (f" ({u.pilot.name})" if u.pilot.name else "")
        notes = [f"Pilot: {pilot}"] + [TRAITS[t][0] for t in u.pilot.traits]
        if u.roles:
            notes.append("Roles: " + ", ".join(r.replace("_", " ").capitalize() for r in u.roles))
        if u.commander != "none":
            notes.append("Commander: " + u.commander.replace("_", " ").capitalize())
        return UnitCard(title=u.name, kind=KIND_LABELS[u.kind], lines=lines, notes=notes)

    def initial_state(self, profile: BaseModel) -> UnitState:
        u = _unit(profile)
        return UnitState(
            max_damage=u.hp,
            counters={"actions": 0, "stun": 0},
            extra=MsUnitState().model_dump(mode="json"),
        )

    def starting_resources(self, forces: Sequence[Sequence[BaseModel]], side: int) -> dict[str, int]:
        """Momentum by the game's size (L240-L242; Resourceful +1, L496), Influence 0 (the module is not
        played yet)."""
        size = max((force_points(f) for f in forces), default=0)
        bonus = any(_unit(p).commander == "resourceful" for p in forces[side])
        return {"momentum": min(10, starting_momentum(size) + bonus), "influence": 0}

    def start_round(self, game: Game) -> list[Change]:
        """Round end: +1 Momentum each side (L245; a living Resourceful Commander +2, L496); roll-off due."""
        resourceful = [
            s
            for s, side in enumerate(game.sides)
            if any(not g.state.destroyed and g.profile.get("commander") == "resourceful" for g in side.units)
        ]
        return new_round_changes(game, resourceful)

    def phase(self, game: Game) -> PhaseView:
        """The round: the roll-off, then alternating unit turns, then the next round (L30-L43)."""
        st = ms_state(game)
        turn = game.state.active_side
        who = game.sides[turn].name if turn is not None else ""
        steps = [
            PhaseStep(
                key="roll_off",
                label="Roll off",
                action="roll_off",
                sheet=True,
                hint="Both sides roll a d10: the higher goes first (L32).",
            ),
            PhaseStep(
                key="turns",
                label=f"{who} activates a unit" if who else "Unit turns",
                hint="Pick a unit of the side in turn; end its turn when it is done (L40-L41).",
            ),
            PhaseStep(key="round_end", label="Next round", hint="+1 Momentum each side (L245)."),
        ]
        if not st.rolled_off:
            current = 0
        elif turn is not None or st.turn_unit:
            current = 1
        else:
            current = 2
        return PhaseView(steps=steps, current=current)

    def status(self, game: Game) -> list[CardLine]:
        st = ms_state(game)
        lines = [CardLine(label="Round", value=str(game.round))]
        lines.append(
            CardLine(
                label="Momentum",
                value=", ".join(f"{s.name} {s.resources.get('momentum', 0)}" for s in game.sides),
            )
        )
        if not st.rolled_off:
            lines.append(CardLine(label="Next", value="roll off for the round"))
        elif st.return_fire:
            names = " or ".join(game.unit(r)[2].name for r in st.return_fire)
            lines.append(CardLine(label="Return Fire", value=names))
        return lines

    def settle(self, game: Game) -> list[Change]:
        """HP at or past the total destroys; under half marks the unit for the traits that read it (L390)."""
        out: list[Change] = []
        for s, side in enumerate(game.sides):
            for u, g in enumerate(side.units):
                st = g.state
                path = ["sides", s, "units", u, "state"]
                if st.damage >= st.max_damage and not st.destroyed:
                    out.append(Change(path=[*path, "destroyed"], value=True))
                below = (st.max_damage - st.damage) * 2 < st.max_damage
                if below != ("below_half" in st.conditions):
                    conds = [c for c in st.conditions if c != "below_half"] + (
                        ["below_half"] if below else []
                    )
                    out.append(Change(path=[*path, "conditions"], value=conds))
        return out


SYSTEM = MechaStellar.of_package(
    __name__,
    Unit,
    actions=ACTIONS,
    options=MsOptions,
    state_model=MsState,
    unit_state_model=MsUnitState,
    requirements=REQUIREMENTS,
)
