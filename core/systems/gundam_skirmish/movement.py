"""Movement (L452-L550, L902-L922) and the other Fast and Slow actions of a unit: Reload
(L415-L422, L925-L929), Switch Weapon (L424-L451) and Idle (L409-L413).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field

from core.dice import DiceSource
from core.game import Game, GameUnit
from core.systems.base import ActionResult, Choice, NeedChoice
from core.systems.gundam_skirmish.battle import PICK, Changes, UnitInput, has, in_space, profile, trans_am
from core.systems.gundam_skirmish.damage import take_damage
from core.systems.gundam_skirmish.economy import spend
from core.systems.gundam_skirmish.units import carried_names


class MoveInput(UnitInput):
    boost: bool = Field(default=False, description="A Boost (Slow) instead of a Move (Fast) (L902-L922).")
    terrain: Literal["normal", "difficult", "dangerous", "sheer"] = Field(
        default="normal",
        description="The worst terrain it moves into, through or out of (L521-L550): difficult and "
        "dangerous halve a Move; sheer is crossed by Boost only.",
    )
    turn: Literal["ahead", "up_to_90", "over_90"] = Field(
        default="ahead",
        description='Moving outside its sight: up to 90 degrees costs 2" (vehicles 3"), 90-180 costs 4" '
        '(vehicles 6") (L465-L474).',
    )
    ends_in_dangerous: bool = Field(
        default=False, description="It ends in dangerous terrain: 1 damage (L538-L540)."
    )
    distance: int = Field(
        default=0, ge=0, le=60, description="Inches moved, for the log (measured on the table)."
    )
    free: bool = Field(
        default=False, description="A free Boost (Extra Tank, Red Comet, Hit & Run): no action spent."
    )


def move_limit(game: Game, s: int, g: GameUnit, inp: MoveInput) -> tuple[Fraction, list[str]]:
    """How far this Move or Boost may go, and why (L464-L550, L902-L922, L1159-L1177; A26).

    Terrain halves a Move's base Movement; Leg Damage 1 makes Normal terrain Difficult, Leg Damage 2
    makes the Difficult cut 3/4 of the base; a turn out of sight costs 2" or 4" (vehicles 3" or 6",
    doubled by Unwieldly, none with Magnetic Coating or in space).  Together they never leave less than
    1" (L516-L518), but a turn alone that eats the whole Move leaves only the turn (L475-L478).
    """
    from core.systems.gundam_skirmish.units import movement_of

    unit = profile(g)
    mv, bst = movement_of(unit)
    if trans_am(game, s, g):
        mv, bst = 2 * mv, None if bst is None else 2 * bst
    space = in_space(game)
    notes: list[str] = []
    if inp.boost:
        if bst is None:
            raise ValueError(f"{g.name} cannot Boost (L904)")
        if inp.terrain == "sheer" and unit.kind == "ground_vehicle" and not unit.has("amphibious"):
            raise ValueError("vehicles cannot enter sheer terrain (L545-L550)")
        return Fraction(bst), notes  # no halving, no turning penalty (L909-L922)
    if inp.terrain == "sheer" and unit.kind != "air_unit":
        raise ValueError("sheer terrain is crossed by Boost only (L545-L550)")
    base = Fraction(mv)
    terrain = inp.terrain
    air = unit.kind == "air_unit" or has(g, "flight_mode")
    leg = 0 if space else g.state.counters.get("leg", 0)  # no Leg Damage effect in space (L1393)
    if air:
        terrain = "normal"  # Air Units ignore terrain (L1245)
    elif leg and terrain == "normal":
        terrain = "difficult"
        notes.append("Leg Damage: Normal terrain counts as Difficult (L1161-L1164)")
    cut = Fraction(0)
    if terrain in ("difficult", "dangerous"):
        cut = base * (Fraction(3, 4) if leg >= 2 else Fraction(1, 2))
        notes.append(f'{terrain} terrain: -{float(cut):g}"')
    turn = 0
    if inp.turn != "ahead" and not space and not unit.has("magnetic_coating"):
        vehicle = unit.kind == "ground_vehicle"
        turn = (3 if vehicle else 2) * (2 if inp.turn == "over_90" else 1)
        if unit.has("unwieldly") and not vehicle:
            turn *= 2
        notes.append(f'turning out of sight: -{turn}"')
    if turn >= base:
        notes.append("it only turns (L475-L478)")
        return Fraction(0), notes
    return max(Fraction(1), base - cut - turn), notes


def move(game: Game, inp: MoveInput, dice: DiceSource) -> ActionResult:
    """Move (Fast, up to Movement) or Boost (Slow, up to Boost; '/' cannot) (L452-L550, L902-L922)."""
    s, u, g = game.unit(inp.unit)
    unit = profile(g)
    limit, notes = move_limit(game, s, g, inp)
    ch = Changes(game)
    if fail := spend(ch, s, u, 0 if inp.free else 2 if inp.boost else 1, "move", dice):
        return ActionResult(changes=ch.list, text=fail)
    if inp.distance > limit:
        raise ValueError(
            f'{g.name} moves at most {float(limit):g}" with this {"Boost" if inp.boost else "Move"}'
        )
    how = "boosts" if inp.boost else "moves"
    texts = [f'{g.name} {how} {inp.distance or "up to " + format(float(limit), "g")}"', *notes]
    if unit.has("afterburner") and "afterburner" in g.state.extra.get("once", []):
        face = dice.roll(1, 6, "Afterburner")[0]
        texts.append(f"Afterburner {face}" + (": 2 damage (L2775)" if face >= 3 else ""))
        if face >= 3:
            take_damage(ch, s, u, 2, dice, texts)
    if inp.ends_in_dangerous:
        texts.append("ends in dangerous terrain: 1 damage (L538-L540)")
        take_damage(ch, s, u, 1, dice, texts)
    if inp.boost and unit.has("red_comet"):
        face = dice.roll(1, 6, "Red Comet")[0]
        texts.append(f"Red Comet {face}" + (": one more Boost, free (L2981-L2985)" if face >= 5 else ""))
    return ActionResult(changes=ch.list, text="; ".join(texts))


class WeaponInput(UnitInput):
    weapon: str = Field(
        default="",
        max_length=60,
        description="One of the unit's weapons, or its close combat weapon; empty: the app asks.",
        json_schema_extra=PICK,
    )


def reload(game: Game, inp: WeaponInput, dice: DiceSource) -> ActionResult:
    """Quick Reload (Fast) or Slow Reload (Slow); Arm Damage 2 makes them all slow (L415-L422, L925-L929)."""
    s, u, g = game.unit(inp.unit)
    pending = [k for k, v in g.state.extra.get("reload", {}).items() if v]
    name = inp.weapon
    if not name:
        if len(pending) != 1:
            if not pending:
                raise ValueError(f"{g.name} has no weapon to reload")
            raise NeedChoice("weapon", "Reload which weapon?", [Choice(value=n, label=n) for n in pending])
        name = pending[0]
    if name not in pending:
        raise ValueError(f"'{name}' does not need a reload")
    w = next(w for w in profile(g).weapons if w.name == name)
    slow = w.reload == "RS" or g.state.counters.get("arm", 0) >= 2
    ch = Changes(game)
    if fail := spend(ch, s, u, 2 if slow else 1, "reload", dice):
        return ActionResult(changes=ch.list, text=fail)
    ch.extra(s, u, "reload", {**g.state.extra.get("reload", {}), name: False})
    return ActionResult(changes=ch.list, text=f"{g.name}: {'Slow' if slow else 'Quick'} Reload of {name}")


def switch(game: Game, inp: WeaponInput, dice: DiceSource) -> ActionResult:
    """Switch Weapon (Fast): equip another carried weapon or the close combat weapon (L424-L451)."""
    s, u, g = game.unit(inp.unit)
    unit = profile(g)
    options = [*carried_names(unit), *(["cc"] if unit.cc else [])]
    current = g.state.extra.get("equipped", "")
    choice = inp.weapon or ""
    if not choice:
        others = [o for o in options if o != current]
        if not others:
            raise ValueError(f"{g.name} has no other weapon to switch to")
        if len(others) != 1:
            label = {"cc": unit.cc.name if unit.cc else "cc"}
            raise NeedChoice(
                "weapon", "Equip which weapon?", [Choice(value=o, label=label.get(o, o)) for o in others]
            )
        choice = others[0]
    if choice not in options:
        raise ValueError(f"{g.name} cannot equip '{choice}'")
    if choice == current:
        shown = unit.cc.name if choice == "cc" and unit.cc else choice
        raise ValueError(f"{g.name} has {shown} equipped already")
    ch = Changes(game)
    if fail := spend(ch, s, u, 1, "switch", dice):
        return ActionResult(changes=ch.list, text=fail)
    ch.extra(s, u, "equipped", choice)
    shown = unit.cc.name if choice == "cc" and unit.cc else choice
    return ActionResult(changes=ch.list, text=f"{g.name} equips {shown}")


def idle(game: Game, inp: UnitInput, dice: DiceSource) -> ActionResult:
    """Idle (Fast): nothing (L409-L413)."""
    s, u, g = game.unit(inp.unit)
    ch = Changes(game)
    if fail := spend(ch, s, u, 1, "idle", dice):
        return ActionResult(changes=ch.list, text=fail)
    return ActionResult(changes=ch.list, text=f"{g.name} waits")


def withdraw_reason(game: Game, ref: str) -> str:
    """Why a unit may not withdraw yet, or at all, in plain words (L2139-L2140); empty when it may now:
    a campaign battle whose round has reached the one its campaign allows (from round 5 by default, A51)."""
    _, _, g = game.unit(ref)
    start = int(game.state.extra.get("withdraw_from", 0))
    if not start:
        return "only in a campaign battle may a unit withdraw into its deployment zone (L2139-L2140)"
    if g.state.destroyed or has(g, "withdrawn"):
        return f"{g.name} is out of the battle"
    if game.round < start:
        passed = start - 1
        return (
            f"a team may withdraw once {passed} turns have passed: from round {start}, "
            f"this is round {game.round} (L2139-L2140)"
        )
    return ""


def withdraw(game: Game, inp: UnitInput, dice: DiceSource) -> ActionResult:
    """Voluntary withdrawal in a campaign battle (L2139-L2140): the unit moves back into its deployment
    zone (a Move, Fast) and leaves the battle; only once four turns have passed (A51).  When every unit
    of a team has left, the team steps back on the campaign map (L2140-L2143)."""
    s, u, g = game.unit(inp.unit)
    if why := withdraw_reason(game, inp.unit):
        raise ValueError(why)
    ch = Changes(game)
    if fail := spend(ch, s, u, 1, "move", dice):
        return ActionResult(changes=ch.list, text=fail)
    ch.condition(s, u, "withdrawn", True)
    return ActionResult(
        changes=ch.list, text=f"{g.name} moves back into its deployment zone and withdraws from the battle"
    )
