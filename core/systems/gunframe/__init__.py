"""GUNFRAME (Peril Planet, 2018): the rule system as the shared layer sees it.

The package reads in the order the rulebook plays: :mod:`.catalogue` (frames),
:mod:`.upgrades`, :mod:`.power_attacks`, :mod:`.examples` (the book's example
units), :mod:`.building` (profile model,
costs, construction rules, share-link packing), the game state defined here
and in :mod:`.state`, :mod:`.turn` (Focus Points, initiative, Target Lock,
Evade, reboot), :mod:`.attack` (the attack action and its exact odds),
:mod:`.power` (spending power points) and :mod:`.missions` (missions, the End
phase, game length).  :mod:`.options` holds the readings of unclear rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from core.systems.base import (
    CardLine,
    CatalogueUnit,
    Change,
    PhaseView,
    RuleSystem,
    UnitCard,
    UnitState,
    Violation,
    as_profile,
)
from core.systems.gunframe.attack import ATTACK, AttackInput, attack_odds, plan, resolve
from core.systems.gunframe.building import (
    GAME_SIZES,
    GunframeForm,
    GunframeUnit,
    UpgradeRef,
    assign_slots,
    build_cost,
    game_size,
    pack,
    squad_violations,
    unfit_choices,
    unit_cost,
    unit_violations,
    unpack,
)
from core.systems.gunframe.card import card
from core.systems.gunframe.catalogue import FRAMES
from core.systems.gunframe.combine import COMBINE_ACTIONS
from core.systems.gunframe.effects import Flies
from core.systems.gunframe.environment import ENVIRONMENT_ACTIONS, ENVIRONMENTS, environment_of
from core.systems.gunframe.examples import EXAMPLE_UNITS, PRINTED_POINTS
from core.systems.gunframe.falls import FALL
from core.systems.gunframe.gates import REQUIREMENTS
from core.systems.gunframe.links import LINK_ACTIONS
from core.systems.gunframe.missions import DEACTIVATE, END_PHASE, INVESTIGATE, MISSION, MISSIONS
from core.systems.gunframe.options import GunframeOptions
from core.systems.gunframe.phases import phase
from core.systems.gunframe.power import POWER, PowerInput
from core.systems.gunframe.power_attacks import POWER_ATTACKS
from core.systems.gunframe.special import SPECIAL_ACTIONS, settle_crippled, with_crippled
from core.systems.gunframe.structures import STRUCTURE_ACTIONS, STRUCTURES
from core.systems.gunframe.turn import (
    ACTIVATE,
    EVADE,
    INITIATIVE,
    LEADER,
    REBOOT,
    RESERVES,
    SPEND_FP,
    TARGET_LOCK,
    WELL_READ,
    start_round,
)
from core.systems.gunframe.unit_state import GfUnitState
from core.systems.gunframe.upgrades import UPGRADES, has_effect
from core.systems.gunframe.wide import GunframeState, game_value, upgrade_state

if TYPE_CHECKING:
    from core.game import Game

__all__ = [
    "ACTIONS",
    "ATTACK",
    "ENVIRONMENTS",
    "EXAMPLE_UNITS",
    "FRAMES",
    "GAME_SIZES",
    "MISSIONS",
    "POWER_ATTACKS",
    "PRINTED_POINTS",
    "STRUCTURES",
    "SYSTEM",
    "UPGRADES",
    "UPGRADE_ACTIONS",
    "AttackInput",
    "Gunframe",
    "GunframeForm",
    "GunframeOptions",
    "GunframeUnit",
    "PowerInput",
    "UpgradeRef",
    "attack_odds",
    "build_cost",
    "game_size",
    "plan",
    "resolve",
]


class Gunframe(RuleSystem):
    """GUNFRAME's contribution to the shared squad and game layer."""

    def card(self, profile: BaseModel) -> UnitCard:
        """The unit card as the book lays it out (L569-613); a structure's shows its kind (L2903)."""
        unit = _unit(profile)
        shown = card(unit)
        if unit.structure:
            d = STRUCTURES[unit.structure]
            shown = shown.model_copy(
                update={
                    "kind": f"Structure: {d.name}",
                    "notes": [f"{d.summary} ({d.ref})", *shown.notes],
                }
            )
        return shown

    def catalogue(self) -> list[CatalogueUnit]:
        """The book's example units, with every upgrade's slot filled in."""
        out = []
        for unit in EXAMPLE_UNITS:
            profile = dict(unit.profile)
            profile["upgrades"] = _with_slots(profile["upgrades"])
            if "forms" in profile:
                profile["forms"] = [{**f, "upgrades": _with_slots(f["upgrades"])} for f in profile["forms"]]
            out.append(unit.model_copy(update={"profile": profile}))
        return out

    def unit_cost(self, profile: BaseModel) -> int:
        return unit_cost(_unit(profile))

    def unit_violations(self, profile: BaseModel) -> list[Violation]:
        return unit_violations(_unit(profile))

    def squad_violations(self, units: Sequence[tuple[str, BaseModel]], limit: int | None) -> list[Violation]:
        return squad_violations([(k, _unit(p)) for k, p in units], limit)

    def initial_state(self, profile: BaseModel) -> UnitState:
        """Fresh and undamaged: Armour is the damage that destroys it (L1174-1182)."""
        unit = _unit(profile)
        flying = unit.frame == "flyer" or has_effect([r.id for r in unit.upgrades], Flies)
        if unit.combined_members:  # only comes into play by combining (L2537)
            counters = {"target_lock": 0, "evade": 0}
            return UnitState(max_damage=unit.armour, counters=counters, conditions=["off_table"])
        return UnitState(
            max_damage=unit.armour,
            counters={"target_lock": 0, "evade": 0},
            # Fliers start airborne; a Fast Flyer may start grounded (L2625): players adjust.
            conditions=["flying"] if flying else [],
            extra={"form": 0} if unit.forms else {},
        )

    def status(self, game: Game) -> list[CardLine]:
        """Mission and roles, environment, and the counts that end a game (clock, hull breaches)."""
        lines = []

        def side(key: str) -> str | None:
            n = game_value(game, key)
            return game.sides[n].name if isinstance(n, int) and 0 <= n < len(game.sides) else None

        mission = MISSIONS.get(str(game_value(game, "mission") or ""))
        if mission:
            lines.append(CardLine(label="Mission", value=mission.name, note=mission.ref))
        if side("attacker_side"):
            lines.append(CardLine(label="Attacker", value=str(side("attacker_side"))))
        if side("initiative_side"):
            lines.append(CardLine(label="Initiative", value=str(side("initiative_side"))))
        env = environment_of(game)
        if env and env in ENVIRONMENTS:
            storm = str(game_value(game, "storm_type") or "")
            name = ENVIRONMENTS[env].name + (f" ({storm})" if env == "storm" and storm else "")
            if env == "darkness" and game_value(game, "dark_over"):
                name += ", now over"
            lines.append(CardLine(label="Environment", value=name, note=ENVIRONMENTS[env].summary))
        if game_value(game, "hull_breaches"):
            lines.append(
                CardLine(label="Hull breaches", value=str(game_value(game, "hull_breaches")), note="L2085")
            )
        if mission and mission.id == "doomsday":
            lines.append(
                CardLine(label="Doomsday clock", value=str(game_value(game, "clock", 0)), note="L1853-1872")
            )
        if game_value(game, "last_turn"):
            lines.append(CardLine(label="Last turn", value=str(game_value(game, "last_turn"))))
        if game.state.ended:  # the shared line says who won; this one how (L1614-1637)
            lines.append(CardLine(label="Game over", value=str(game_value(game, "result") or "yes")))
        return lines

    def upgrade_game(self, data: dict[str, Any], schema: int) -> dict[str, Any]:
        """Schema 2 -> 3: the game-wide values kept among the options move to ``Game.state``
        (:func:`.wide.upgrade_state`); the options keep the readings of unclear rules."""
        return upgrade_state(data) if schema == 2 else data

    def settle(self, game: Game) -> list[Change]:
        """After a manual adjustment: the optional crippled condition of any unit whose damage or Armour
        was edited, brought in step with it (L2700-2733; see :func:`.special.settle_crippled`)."""
        return settle_crippled(game)

    def phase(self, game: Game) -> PhaseView:
        """Initiative, activation, End phase (L674-678); see :mod:`.phases`."""
        return phase(game)

    def start_round(self, game: Game) -> list[Change]:
        """A new turn: Focus Points, ready units, per-turn flags cleared (see :func:`.turn.start_round`)."""
        return start_round(game)

    def unfit_choices(self, profile: BaseModel) -> dict[str, dict[str, str]]:
        """Upgrades that would not fit the unit now, with the reason (see :func:`.building.unfit_choices`)."""
        return unfit_choices(_unit(profile))

    def pack_profile(self, profile: BaseModel) -> Any:
        return pack(_unit(profile))

    def unpack_profile(self, packed: Any) -> BaseModel:
        return unpack(packed)


def _unit(profile: BaseModel) -> GunframeUnit:
    return as_profile(GunframeUnit, profile)


def _with_slots(refs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    models = [UpgradeRef.model_validate(r) for r in refs]
    return [
        {**r, "slot": slot} if slot is not None else r
        for r, slot in zip(refs, assign_slots(models), strict=True)
    ]


#: Actions in the order a turn uses them (L670-750, L784-792, L1184); each keeps the optional
#: crippled condition in step with the damage it deals or repairs (L2700-2733).
ACTIONS = {
    a.name: with_crippled(a)
    for a in (
        MISSION,
        INITIATIVE,
        WELL_READ,
        ACTIVATE,
        TARGET_LOCK,
        EVADE,
        ATTACK,
        POWER,
        FALL,
        REBOOT,
        LEADER,
        SPEND_FP,
        INVESTIGATE,
        DEACTIVATE,
        RESERVES,
        END_PHASE,
    )
}

#: Special actions of upgrades and transforming (:mod:`.special`).
UPGRADE_ACTIONS = {a.name: with_crippled(a) for a in SPECIAL_ACTIONS}
ACTIONS |= UPGRADE_ACTIONS

#: Linked upgrades, Nemesis and the optional panic rule (:mod:`.links`).
ACTIONS |= {a.name: with_crippled(a) for a in LINK_ACTIONS}

#: Jump charges and combiner teams (:mod:`.combine`).
ACTIONS |= {a.name: with_crippled(a) for a in COMBINE_ACTIONS}

#: The battle's environment and hull breaches (:mod:`.environment`), structures and buildings
#: (:mod:`.structures`).
ACTIONS |= {a.name: with_crippled(a) for a in (*ENVIRONMENT_ACTIONS, *STRUCTURE_ACTIONS)}

SYSTEM = Gunframe.of_package(
    __name__,
    GunframeUnit,
    actions=ACTIONS,
    options=GunframeOptions,
    state_model=GunframeState,
    unit_state_model=GfUnitState,
    requirements=REQUIREMENTS,
)
