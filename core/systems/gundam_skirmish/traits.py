"""Pilot traits whose effect in battle hangs on what happened in the battle (L1956-L2003), and the free
Shoot they and two abilities earn.

* Fierce (L1964-L1966) and Blitzkrieg / Hunter (L2788-L2793): a Shoot whose attack destroys an enemy
  unit earns one free Shoot with the same weapon (one, not one each: "not cumulative").  Our reading:
  the free Shoot is taken in the same turn, and a free Shoot that destroys earns another (it is a
  Shoot action too).
* Fire Support (L2868-L2873): its second Shoot at another target is a free Shoot with weapon X, after
  a Shoot with X.
* Responsive (L1992-L1994): one free Shoot in an opposing player's turn, once per such turn, with a
  loaded weapon; the enemy moving into range is for the players to see (digest A44).
* Merciful (L1981-L1983): once per battle, the pilot's unit deals no damage with one successful
  action and regains 2 Integrity instead.
* Terrifying (L2002-L2003): an enemy unit in the Terrifying pilot's sight for the first time makes a
  Morale check, once per Terrifying unit; a Stoic (L1996-L1997) or Terrifying unit is immune.  Sight
  is for the players to say (digest A52): the check is a step on the Terrifying unit's card.

Each is offered only to a unit that has it (``gates``), with the reason otherwise, and refused by the
engine when sent anyway.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from core.dice import DiceSource
from core.game import Game, GameUnit
from core.systems.base import ActionOdds, ActionResult, Change
from core.systems.gundam_skirmish.battle import ENEMY, OWN, has, profile, unit_path
from core.systems.gundam_skirmish.morale import MoraleInput, morale, morale_odds
from core.systems.gundam_skirmish.teams import teams_of
from core.systems.gundam_skirmish.unit_state import GsUnitState

#: The sources of a free Shoot a unit may have: (kind, key, name).
SOURCES = (
    ("trait", "fierce", "Fierce"),
    ("trait", "responsive", "Responsive"),
    ("ability", "blitzkrieg", "Blitzkrieg"),
    ("ability", "fire_support", "Fire Support"),
)


def turn_mark(game: Game) -> str:
    """Which player's turn of which round it is: a free Shoot earned is for this turn only."""
    return f"{game.round}/{game.state.active_side}"


def _has(gu: GameUnit, kind: str, key: str) -> bool:
    unit = profile(gu)
    return unit.pilot_has(key) if kind == "trait" else unit.has(key)


def due_bonus(game: Game, gu: GameUnit) -> str:
    """The weapon of the free Shoot the unit has earned this turn (a kill, Fire Support), or ""."""
    bonus = GsUnitState.of(gu).bonus_shot
    return bonus[0] if len(bonus) >= 2 and bonus[1] == turn_mark(game) else ""


def free_shot_reason(game: Game, ref: str) -> str:
    """Why the unit may not take a free Shoot now (empty when it may): in its own turn one earned by a
    kill (Fierce, Blitzkrieg) or by Fire Support; in an enemy's turn Responsive's, once a turn."""
    s, _, gu = game.unit(ref)
    if not any(_has(gu, kind, key) for kind, key, _ in SOURCES):
        return f"{gu.name} has no free Shoot: only Fierce, Responsive, Blitzkrieg or Fire Support give one"
    active = game.state.active_side
    if active is not None and active != s:
        teams = teams_of(game)
        if teams and teams[active] == teams[s]:
            return f"{gu.name} shoots free only in an opposing player's turn, not its team's (L1992-L1994)"
        if not profile(gu).pilot_has("responsive"):
            return f"{gu.name} shoots in an enemy's turn only with a Responsive pilot (L1992-L1994)"
        if GsUnitState.of(gu).responsive == turn_mark(game):
            return f"{gu.name} has taken its Responsive shot in this turn already (L1992-L1994)"
        return ""
    if not due_bonus(game, gu):
        if not any(_has(gu, kind, key) for kind, key, _ in SOURCES if key != "responsive"):
            return f"{gu.name}'s Responsive shot is taken in an enemy's turn (L1992-L1994)"
        return (
            f"{gu.name} has no free Shoot due: Fierce and Blitzkrieg earn one by destroying an enemy "
            "unit with a Shoot (L1964-L1966, L2788-L2793), Fire Support by a Shoot with its weapon "
            "(L2868-L2873)"
        )
    return ""


def free_weapon(game: Game, ref: str, weapon: str, target: str = "") -> str:
    """The weapon of a free Shoot, checked: the one the kill or Fire Support earned it with (in the
    unit's own turn; Fire Support's second Shoot at another target, L2871-L2873), or any loaded one for
    Responsive."""
    s, _, gu = game.unit(ref)
    if why := free_shot_reason(game, ref):
        raise ValueError(why)
    if game.state.active_side != s:
        return weapon
    earned = due_bonus(game, gu)
    if weapon and weapon != earned:
        raise ValueError(f"{gu.name}'s free Shoot is with {earned}, the weapon that earned it (L1964-L1966)")
    bonus = GsUnitState.of(gu).bonus_shot
    if target and len(bonus) == 3 and bonus[2] == target:
        raise ValueError("Fire Support's second Shoot is at another target (L2871-L2873)")
    return earned


def earn_bonus(game: Game, gu: GameUnit, weapon: str, killed: bool, free: bool) -> tuple[str, str] | None:
    """After a Shoot: the free Shoot it earns (the weapon, why), if any: a kill's (Fierce, Blitzkrieg),
    else Fire Support's second Shoot after one that was not free."""
    unit = profile(gu)
    blitz = unit.has("blitzkrieg") and unit.ability_x("blitzkrieg") in ("", weapon)
    if killed and (unit.pilot_has("fierce") or blitz):
        return weapon, "Fierce" if unit.pilot_has("fierce") else "Blitzkrieg"
    support = unit.has("fire_support") and unit.ability_x("fire_support") in ("", weapon)
    if support and not free:
        return weapon, "Fire Support"
    return None


def merciful_reason(game: Game, ref: str) -> str:
    """Why the unit may not use Merciful now (empty when it may): its pilot's trait, once a battle."""
    _, _, gu = game.unit(ref)
    if not profile(gu).pilot_has("merciful"):
        return f"{gu.name}'s pilot is not Merciful"
    if "merciful" in GsUnitState.of(gu).once:
        return f"{gu.name} has used Merciful once this battle already (L1981-L1983)"
    return ""


def terrifying_reason(game: Game, ref: str) -> str:
    """Why the unit is no Terrifying source (empty when its pilot has the trait, L2002-L2003)."""
    _, _, gu = game.unit(ref)
    return "" if profile(gu).pilot_has("terrifying") else f"{gu.name}'s pilot is not Terrifying"


def terror_subject_reason(game: Game, ref: str) -> str:
    """Why the unit never checks morale for a Terrifying enemy (empty when it must): Stoic ignores it
    (L1996-L1997), and a Terrifying pilot is not moved by another (L2002-L2003)."""
    _, _, gu = game.unit(ref)
    unit = profile(gu)
    if unit.pilot_has("stoic"):
        return f"{gu.name}'s pilot is Stoic: Terrifying enemies do not shake it (L1996-L1997)"
    if unit.pilot_has("terrifying"):
        return f"{gu.name}'s pilot is Terrifying itself (L2002-L2003)"
    return ""


class TerrorInput(BaseModel):
    """A Terrifying pilot has an enemy unit in sight for the first time: that unit checks morale
    (L2002-L2003).  Offered on the Terrifying unit's card."""

    model_config = ConfigDict(extra="forbid")

    unit: str = Field(description="The unit whose Terrifying pilot sees the enemy.", json_schema_extra=OWN)
    target: str = Field(
        description="The enemy unit in its sight for the first time: it makes the Morale check.",
        json_schema_extra=ENEMY,
    )
    near_command: bool = Field(
        default=False,
        description="The enemy unit is in sight of its own Command unit that is not Routed (L1544-L1546).",
    )


def _checked(game: Game, inp: TerrorInput) -> tuple[int, int, GameUnit]:
    s, _, src = game.unit(inp.unit)
    ts, tu, gu = game.unit(inp.target)
    teams = teams_of(game)
    if ts == s or (teams and teams[ts] == teams[s]):
        raise ValueError("a Terrifying pilot shakes enemy units only")
    if why := terrifying_reason(game, inp.unit) or terror_subject_reason(game, inp.target):
        raise ValueError(why)
    if has(gu, "withdrawn") or gu.state.destroyed:
        raise ValueError(f"{gu.name} is out of the battle")
    if inp.unit in GsUnitState.of(gu).terrified_by:
        raise ValueError(f"{gu.name} has checked for {src.name} once this battle already (L2002-L2003)")
    return ts, tu, gu


def _morale(inp: TerrorInput) -> MoraleInput:
    return MoraleInput(unit=inp.target, near_command=inp.near_command)


def terror(game: Game, inp: TerrorInput, dice: DiceSource) -> ActionResult:
    """The Morale check a Terrifying pilot forces, once per enemy unit per battle (L2002-L2003)."""
    s, u, gu = _checked(game, inp)
    _, _, src = game.unit(inp.unit)
    done = morale(game, _morale(inp), dice)
    seen = [*GsUnitState.of(gu).terrified_by, inp.unit]
    done.changes.append(Change(path=unit_path(s, u, "extra", "terrified_by"), value=seen))
    done.text = f"{src.name} is Terrifying (L2002-L2003): {done.text}"
    return done


def terror_odds(game: Game, inp: TerrorInput) -> ActionOdds:
    _checked(game, inp)
    return morale_odds(game, _morale(inp))
