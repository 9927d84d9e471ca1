"""What the rules read from a unit in play: its card, its track, its current column, AP and modifier."""

from __future__ import annotations

from core.game import Game, GameUnit, profile_as
from core.systems.base import read_options
from core.systems.skirmishers.catalogue import CAT
from core.systems.skirmishers.options import SkOptions
from core.systems.skirmishers.state import Kit, SkUnit
from core.systems.skirmishers.tracks import TRACKS, Track
from core.systems.skirmishers.units import Soldier, ap_bonus
from core.systems.skirmishers.walk import Card


def soldier(unit: GameUnit) -> Soldier:
    """The unit's card as it plays now: the card, with the gear it took, dropped, fitted or removed in
    play (``SkUnit.kit``, L253, L600-L605); read once a pure request (not to be changed in place)."""
    s = profile_as(Soldier, unit)
    kit = unit.state.extra.get("kit")
    if kit:
        changed = {k: v for k, v in Kit.model_validate(kit).model_dump().items() if v is not None}
        if changed:
            s = s.model_copy(update=changed)
    return s


def track(unit: GameUnit | Soldier) -> Track:
    s = unit if isinstance(unit, Soldier) else soldier(unit)
    return TRACKS[s.kind]


def options(game: Game) -> SkOptions:
    return read_options(SkOptions, game.options)


def card_of(unit: GameUnit) -> Card:
    st = SkUnit.of(unit)
    return Card(tuple(st.cells), st.armor, st.blunt_turn, tuple(st.guard))


def column(unit: GameUnit) -> int:
    return track(unit).column(tuple(SkUnit.of(unit).cells))


def bonus(game: Game, s: Soldier) -> int:
    """The AP row's shift; experience counts only with that rule on (L551-L559)."""
    b = ap_bonus(s)
    if not options(game).experience:
        b -= CAT.experience[s.experience].ap
    return b


def max_ap(game: Game, unit: GameUnit) -> int:
    """The unit's max AP now: the AP row under its current column, shifted (L125, L207, L849-L851)."""
    s = soldier(unit)
    if s.kind == "vehicle":
        return 0
    return track(s).max_ap(column(unit), bonus(game, s))


def mod(unit: GameUnit) -> int | None:
    """Its damage modifier on every target number it rolls (L127, L648, L853)."""
    return track(unit).mod(column(unit))


def combat_action(game: Game, st: SkUnit, who: str) -> None:
    """Record a combat action (an arc, a melee attack, an explosive, L78); with the reading
    ``one_combat_action`` a second one in the turn is refused (digest AMB-19)."""
    if st.combat_done and options(game).one_combat_action:
        raise ValueError(f"{who} has taken its combat action this turn (one a turn in this game, L78)")
    st.combat_done = True


def name(game: Game, ref: str) -> str:
    return game.unit(ref)[2].name


def counted(game: Game, target: str) -> str:
    """Whose dot reaction fire counts on: the target's, or for a rider its vehicle's, since the vehicle
    and its rider together may be attacked once an AP of movement (L734)."""
    riding = SkUnit.of(game.unit(target)[2]).riding
    return riding or target


def attacks_left(game: Game, shooter: str, target: str) -> int:
    """Reaction shots the firer may still make at the target where it is now: one for each dot it
    entered with its last move, activated or stood up on (L267, L288; digest AMB-16, AMB-62); a
    flight's dots (AMB-42), a vehicle segment's AP (L734).  Standing up keeps the count: only firers
    that have not attacked it on this dot may shoot."""
    st = SkUnit.of(game.unit(counted(game, target))[2])
    return max(0, st.dots - st.shot_by.count(shooter))
