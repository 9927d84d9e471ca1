"""MechaStellar's optional modules played as game settings (:class:`~.options.MsOptions`).

* Gritty Battles (L694-L700), ``gritty_battles``: every unit has double HP (the HP a card shows and the
  damage that destroys it); a mobile suit's Shield keeps a tally and breaks on its 5th use (L699).  A use
  is an attack in which the Shield blocks at least one hit; that 5th use still blocks, then the Shield is
  broken (the condition ``shield_broken``, which the players may also set or clear by hand).  At most 5
  units a side, Frame 1-3 preferred (L698), and repairs between games (L700): the players'.
* Battle Damage (L673-L692), ``battle_damage``: after a failed Armor Save the unit's player taps "Battle
  damage" once a failed save: d10 + ARM Sv on the table (L679-L687; 10 or more, whose label is lost: no
  effect, digest ambiguity 23).  1: a critical, rolled again: 10 the cockpit (destroyed); a Super Titan's
  1-9 an explosion, 1000 damage or 5 Power lost (its player's choice; the reading explosion_by_frame
  makes it 500 x Frame, as the L691 example does); another unit's 1-9 Head, Propulsion or Disable, the
  attacker's pick (asked).  2 Head: Accuracy -1 (its Blindside for enemies within 16" is the players'
  Blindside choice).  3 Propulsion: Evade -1 (Move -4" and the movement traits: players).  4-9 Disable:
  the Shield first, else a shooting weapon the attacker picks (it fires no more) or a trait (noted by the
  players).
* Destroying Terrain (L647-L671), ``destroying_terrain``: a piece of cover hit by a weapon, targeted or
  used to block, makes one save however many hits struck it (L655): 5+ (L657), 7+ against a melee or AOE
  weapon (L659), 9+ against a weapon with extra PEN against cover or on criticals (L660); large cover
  +2 (L658).  The action "Hit terrain" rolls it for the unit whose weapon hit; which piece, whether it is
  indestructible and where an AOE line stops are the players' (L649-L655).  A Crash Through (L669-L671)
  rolls the same save (digest ambiguity 27: the weapon column).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource, Dist
from core.game import Game, GameUnit
from core.pool import table
from core.systems.base import (
    ActionOdds,
    ActionResult,
    Change,
    Choice,
    Closed,
    FieldPick,
    NeedChoice,
    own_unit,
    read_options,
)
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.state import MsUnitState, ms_state
from core.systems.mechastellar.units import Unit

#: A mobile suit's Shield breaks on this use in Gritty Battles (L699).
SHIELD_USES = 5


def gritty(game: Game) -> bool:
    return read_options(MsOptions, game.options).gritty_battles


def shield_broken(g: GameUnit) -> bool:
    """The unit's shield is broken (Gritty Battles' tally, L699): it blocks nothing."""
    return "shield_broken" in g.state.conditions


def tally_shield(game: Game, work: Working, s: int, u: int) -> None:
    """Gritty Battles: one more use of a mobile suit's Shield; the 5th breaks it (L699)."""
    g = game.sides[s].units[u]
    tally = gritty(game) or read_options(MsOptions, game.options).small_scale  # L699, L714
    if not tally or g.profile.get("kind") != "mobile_suit" or shield_broken(g):
        return
    state = work.state(s, u)
    mine = MsUnitState.model_validate(state.extra)
    mine.shield_uses = min(SHIELD_USES, mine.shield_uses + 1)
    state.extra = mine.model_dump(mode="json")
    if mine.shield_uses >= SHIELD_USES:
        state.conditions = [*state.conditions, "shield_broken"]


def gritty_hp(game: Game) -> list[Change]:
    """When Gritty Battles is switched on, every unit's HP doubles; switched off, it halves back (L699).
    The game keeps which it has applied, so HP the players set by hand in between is left alone."""
    on = gritty(game)
    st = ms_state(game)
    if st.gritty_hp == on:
        return []
    work = Working(game)
    for s, side in enumerate(game.sides):
        for u in range(len(side.units)):
            state = work.state(s, u)
            state.max_damage = state.max_damage * 2 if on else max(100, state.max_damage // 2)
    st.gritty_hp = on
    work.put_extra(st)
    return work.changes()


# --- Destroying Terrain (L647-L671) ------------------------------------------------------------------


def terrain_module(game: Game, ref: str) -> str:
    """The requirement of "Hit terrain": the module is on ("" when it is)."""
    on = read_options(MsOptions, game.options).destroying_terrain
    return "" if on else "the Destroying Terrain module is off"


class TerrainHit(Closed):
    """A piece of cover hit by one weapon makes one save (L655-L660)."""

    unit: str = own_unit("Whose weapon hit the cover.")
    weapon: int = Field(
        default=0, ge=0, le=11, description="Which weapon.", json_schema_extra={"flow": "pick"}
    )
    large: bool = Field(
        default=False,
        description="Large cover: +2 to its save (L658).",
        json_schema_extra={"flow": "common"},
    )
    anti_cover: bool = Field(
        default=False,
        description="The weapon has extra PEN against cover, or +1 PEN on criticals: 9+ (L660).",
        json_schema_extra={"flow": "common"},
    )


def terrain_target(game: Game, inp: TerrainHit) -> int:
    """What the cover needs to survive: 5+, 7+ against melee or AOE, 9+ against anti-cover; large -2."""
    _, _, g = game.unit(inp.unit)
    unit = Unit.model_validate(g.profile)
    if inp.weapon >= len(unit.weapons):
        raise ValueError(f"{g.name} has no such weapon")
    weapon = unit.weapons[inp.weapon]
    base = 9 if inp.anti_cover else 7 if weapon.kind != "shooting" or weapon.aoe else 5  # L657-L660
    return base - 2 * inp.large  # L658


def terrain_odds(game: Game, inp: TerrainHit) -> ActionOdds:
    need = terrain_target(game, inp)
    survives = Dist.die(10).map(lambda f: int(f >= need))
    return ActionOdds(
        tables={"survives": table(survives)},
        facts={"destroyed": float(Fraction(need - 1, 10))},
        summary=f"The cover survives on {need}+",
    )


def terrain_hit(game: Game, inp: TerrainHit, dice: DiceSource) -> ActionResult:
    why = terrain_module(game, inp.unit)
    if why:
        raise ValueError(why)
    need = terrain_target(game, inp)
    _, _, g = game.unit(inp.unit)
    weapon = Unit.model_validate(g.profile).weapons[inp.weapon]
    face = dice.roll(1, 10, "cover save")[0]
    kept = face >= need
    text = f"{weapon.name} hits {'large ' if inp.large else ''}cover: save {face} (needs {need}+), "
    text += "it stands" if kept else "it is destroyed"
    return ActionResult(changes=[], text=text, detail={"save": face, "needs": need, "survives": kept})


def terrain_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    _, _, g = game.unit(actor)
    weapons = Unit.model_validate(g.profile).weapons
    return {
        "weapon": [
            FieldPick(value=i, label=w.name, detail="melee" if w.kind != "shooting" else f'{w.range}"')
            for i, w in enumerate(weapons)
        ]
    }


# --- Battle Damage (L673-L692) -------------------------------------------------------------------------

#: What a Battle Damage roll (d10 + ARM Sv) does, by its total (L679-L687; digest ambiguity 23: 10 or more
#: is no effect).
BD_LABELS = {
    "critical": "Critical",
    "head": "Head / Main Camera",
    "propulsion": "Propulsion",
    "disable": "Disable",
    "none": "No effect",
}
#: A Super Titan's explosion, or the Power it loses instead (L681).
EXPLOSION, POWER_LOST = 1000, 5


def bd_result(total: int) -> str:
    """The row of the table a total reads (L679-L687).

    >>> [bd_result(t) for t in (1, 2, 3, 4, 9, 10, 12)]
    ['critical', 'head', 'propulsion', 'disable', 'disable', 'none', 'none']
    """
    if total <= 1:
        return "critical"
    if total <= 3:
        return "head" if total == 2 else "propulsion"
    return "disable" if total <= 9 else "none"


def battle_damage_module(game: Game, ref: str) -> str:
    """The requirement of "Battle damage": the module is on and the unit still in play."""
    if not read_options(MsOptions, game.options).battle_damage:
        return "the Battle Damage module is off"
    _, _, g = game.unit(ref)
    return f"{g.name} is destroyed" if g.state.destroyed else ""


class BattleDamage(Closed):
    """After a failed Armor Save the unit rolls a d10 and adds its ARM Sv (L677): one roll a failed save."""

    unit: str = own_unit("Which unit failed an Armor Save.")
    pick: Literal["ask", "head", "propulsion", "disable"] = Field(
        default="ask",
        description="A mobile suit's critical: the attacker picks Head, Propulsion or Disable (L680); "
        "asked then.",
        json_schema_extra={"ui": "hidden"},
    )
    disable: int | None = Field(
        default=None,
        ge=-1,
        le=11,
        description="Disable with no Shield left: the attacker's pick of a shooting weapon (L685-L686); "
        "asked then.",
        json_schema_extra={"ui": "hidden"},
    )
    power: bool | None = Field(
        default=None,
        description="A Super Titan's explosion: lose 5 Power instead of taking 1000 damage (L681); "
        "asked then.",
        json_schema_extra={"ui": "hidden"},
    )


def explosion_damage(game: Game, unit: Unit) -> int:
    """A Super Titan's explosion: 1000 (L681), or 500 x Frame with the reading explosion_by_frame (L691)."""
    if read_options(MsOptions, game.options).explosion_by_frame:
        return 500 * unit.frame
    return EXPLOSION


def battle_damage_odds(game: Game, inp: BattleDamage) -> ActionOdds:
    """The chance of each row, and of the unit being destroyed (a cockpit hit; a Titan's explosion when
    its 1000 damage would finish it and it does not give Power instead)."""
    _, _, g = game.unit(inp.unit)
    unit = Unit.model_validate(g.profile)
    rows = Dist.die(10).map(lambda f: bd_result(f + unit.save))
    crit = rows.probability("critical")
    left = g.state.max_damage - g.state.damage
    blast = unit.kind == "super_titan" and not inp.power and explosion_damage(game, unit) >= left
    destroyed = crit * (Fraction(1, 10) + (Fraction(9, 10) if blast else 0))
    shares = ", ".join(
        f"{BD_LABELS[k]} {float(rows.probability(k)):.0%}" for k in BD_LABELS if rows.probability(k)
    )
    return ActionOdds(
        tables={"cockpit": table(Dist.die(10).map(lambda f: int(f == 10)))},
        facts={"destroyed": float(destroyed)},
        summary=f"d10 + {unit.save}: {shares}",
    )


def _bd_pick(g: GameUnit, unit: Unit, attacker: str) -> NeedChoice:
    options = [Choice(value=k, label=BD_LABELS[k]) for k in ("head", "propulsion", "disable")]
    return NeedChoice("pick", f"Critical on {g.name}: {attacker} picks the damage (L680)", options)


def _disable_pick(g: GameUnit, unit: Unit) -> NeedChoice:
    options = [
        Choice(value=i, label=w.name)
        for i, w in enumerate(unit.weapons)
        if w.kind == "shooting" and i not in MsUnitState.model_validate(g.state.extra).disabled
    ]
    options.append(Choice(value=-1, label="A trait (the players note it)", assumed=True))
    return NeedChoice("disable", f"Disable on {g.name}: the attacker picks a shooting weapon (L686)", options)


def battle_damage(game: Game, inp: BattleDamage, dice: DiceSource) -> ActionResult:
    why = battle_damage_module(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g = game.unit(inp.unit)
    unit = Unit.model_validate(g.profile)
    pick = inp.disable if inp.disable is not None else -1
    if pick >= 0 and (pick >= len(unit.weapons) or unit.weapons[pick].kind != "shooting"):
        raise ValueError(f"{g.name} has no such shooting weapon")
    if inp.power and unit.kind != "super_titan":
        raise ValueError(f"{g.name} is not a Super Titan: it has no Power to lose")
    face = dice.roll(1, 10, "battle damage")[0]
    row = bd_result(face + unit.save)
    text = f"{g.name}'s Battle Damage: {face} + {unit.save}, {BD_LABELS[row]}"
    work = Working(game)
    state = work.state(s, u)
    mine = MsUnitState.model_validate(state.extra)
    if row == "critical":
        again = dice.roll(1, 10, "critical")[0]
        text += f"; critical roll {again}"
        if again == 10:
            state.destroyed, state.damage = True, state.max_damage
            return ActionResult(changes=work.changes(), text=text + ": cockpit hit, the unit is lost (L682)")
        if unit.kind == "super_titan":
            if inp.power is None:
                blast = explosion_damage(game, unit)
                raise NeedChoice(
                    "power",
                    f"Explosion in {g.name}: {blast} damage or {POWER_LOST} Power lost? (L681)",
                    [
                        Choice(value=False, label=f"Take {blast} damage", assumed=True),
                        Choice(value=True, label=f"Lose {POWER_LOST} Power"),
                    ],
                )
            if inp.power:
                mine.power_lost = min(30, mine.power_lost + POWER_LOST)
                text += f": explosion, {POWER_LOST} Power lost (L681)"
            else:
                blast = explosion_damage(game, unit)
                state.damage = min(state.max_damage, state.damage + blast)
                state.destroyed = state.damage >= state.max_damage
                text += f": explosion, {blast} damage (L681)"
            state.extra = mine.model_dump(mode="json")
            return ActionResult(changes=work.changes(), text=text)
        if inp.pick == "ask":
            raise _bd_pick(g, unit, "the attacker")
        row = inp.pick
        text += f": the attacker picks {BD_LABELS[row]}"
    if row in ("head", "propulsion"):
        key = f"bd_{row}"
        if key not in state.conditions:
            state.conditions = [*state.conditions, key]
        text += ": Accuracy -1 (L683)" if row == "head" else ': Evade -1, Move -4" (L684)'
    elif row == "disable":
        if unit.shield != "none" and "shield_broken" not in state.conditions:
            state.conditions = [*state.conditions, "shield_broken"]
            text += ": its Shield is broken first (L686)"
        elif inp.disable is not None and inp.disable >= 0:
            mine.disabled = sorted({*mine.disabled, inp.disable})
            text += f": {unit.weapons[inp.disable].name} is disabled (L685)"
        else:
            left = [i for i, w in enumerate(unit.weapons) if w.kind == "shooting" and i not in mine.disabled]
            if left and inp.disable is None:
                raise _disable_pick(g, unit)
            text += ": a trait of the attacker's choice is disabled (the players note it, L685)"
    state.extra = mine.model_dump(mode="json")
    return ActionResult(changes=work.changes(), text=text, detail={"roll": face, "result": row})
