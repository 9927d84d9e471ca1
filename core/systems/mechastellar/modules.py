"""MechaStellar's optional modules played as game settings (:class:`~.options.MsOptions`).

* Gritty Battles (L694-L700), ``gritty_battles``: every unit has double HP (the HP a card shows and the
  damage that destroys it); a mobile suit's Shield keeps a tally and breaks on its 5th use (L699).  A use
  is an attack in which the Shield blocks at least one hit; that 5th use still blocks, then the Shield is
  broken (the condition ``shield_broken``, which the players may also set or clear by hand).  At most 5
  units a side, Frame 1-3 preferred (L698), and repairs between games (L700): the players'.
"""

from __future__ import annotations

from core.changes import Working
from core.game import Game, GameUnit
from core.systems.base import Change, read_options
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.state import MsUnitState, ms_state

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
