"""MechaStellar's optional modules played as game settings (:class:`~.options.MsOptions`).

* Gritty Battles (L694-L700), ``gritty_battles``: every unit has double HP (the HP a card shows and the
  damage that destroys it); a mobile suit's Shield keeps a tally and breaks on its 5th use (L699).  A use
  is an attack in which the Shield blocks at least one hit; that 5th use still blocks, then the Shield is
  broken (the condition ``shield_broken``, which the players may also set or clear by hand).  At most 5
  units a side, Frame 1-3 preferred (L698), and repairs between games (L700): the players'.
* Destroying Terrain (L647-L671), ``destroying_terrain``: a piece of cover hit by a weapon, targeted or
  used to block, makes one save however many hits struck it (L655): 5+ (L657), 7+ against a melee or AOE
  weapon (L659), 9+ against a weapon with extra PEN against cover or on criticals (L660); large cover
  +2 (L658).  The action "Hit terrain" rolls it for the unit whose weapon hit; which piece, whether it is
  indestructible and where an AOE line stops are the players' (L649-L655).  A Crash Through (L669-L671)
  rolls the same save (digest ambiguity 27: the weapon column).
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource, Dist
from core.game import Game, GameUnit
from core.pool import table
from core.systems.base import (
    ActionOdds,
    ActionResult,
    Change,
    Closed,
    FieldPick,
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
    if not gritty(game) or g.profile.get("kind") != "mobile_suit" or shield_broken(g):
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
