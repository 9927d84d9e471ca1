"""What MechaStellar's gated inputs need (core.systems.base.needs): each a check of one unit in play,
answering "" when it has it, else why not in plain words.

* ``turn``: the unit may act now: the round's roll-off is made (L32), it is its side's turn and it has
  not had its own (L26, L40), no other unit is mid-turn, Return Fire is not owed by another (L41).
  Shoot, Melee, Focus, Full Throttle, Disengage and End turn need it, so before the roll-off they are
  offered greyed with the reason and the roll-off is the one step offered.
* ``melee``: a melee attack needs a melee or [CC] weapon (L183-L188); a Stellar Warship makes none
  (L954).
* ``super_titan``: Focus for +3 Power is a Super Titan's (L129-L130).
* ``shield_power``: powering a shield is for a Super Titan whose shield takes Power (L158-L160, L229-L230).
* ``focused``: "within 16 inches" changes a shot only for a unit that took Focus this turn (L123-L124):
  offered to a focused shooter only.
* ``engaged``: Disengage breaks away from units in engagement range (L68, L255-L256).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.systems.base import Requirement
from core.systems.mechastellar.turns import check_turn
from core.systems.mechastellar.units import Unit

if TYPE_CHECKING:
    from core.game import Game


def _turn(game: Game, ref: str) -> str:
    try:
        check_turn(game, ref)
    except ValueError as why:
        return str(why)
    return ""


def _melee(game: Game, ref: str) -> str:
    _, _, g = game.unit(ref)
    unit = Unit.model_validate(g.profile)
    if unit.kind == "warship":
        return f"{g.name} is a Stellar Warship: it makes no melee attacks"
    if not any(w.kind != "shooting" for w in unit.weapons):
        return f"{g.name} has no melee weapon"
    return ""


def _super_titan(game: Game, ref: str) -> str:
    _, _, g = game.unit(ref)
    return "" if Unit.model_validate(g.profile).kind == "super_titan" else f"{g.name} is not a Super Titan"


def _shield_power(game: Game, ref: str) -> str:
    _, _, g = game.unit(ref)
    unit = Unit.model_validate(g.profile)
    if unit.kind == "super_titan" and unit.shield_power:
        return ""
    return f"{g.name} has no shield that takes Power"


def _focused(game: Game, ref: str) -> str:
    _, _, g = game.unit(ref)
    return "" if "focus" in g.state.conditions else f"{g.name} has not taken Focus this turn"


def _engaged(game: Game, ref: str) -> str:
    _, _, g = game.unit(ref)
    return "" if "engaged" in g.state.conditions else f"{g.name} is not in melee"


REQUIREMENTS: dict[str, Requirement] = {
    "turn": _turn,
    "melee": _melee,
    "super_titan": _super_titan,
    "shield_power": _shield_power,
    "focused": _focused,
    "engaged": _engaged,
}
