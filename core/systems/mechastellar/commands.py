"""Influence and its Commands (L790-L850), an optional module (the reading ``influence``).

* Starting Influence by the game's size, 1 at 1000 points, 2 at 2000, 3 above (L794-L795): the size is the
  standard size the larger force fits in, as for Momentum; a 500-point game has none and a 1500-point
  game 1 (digest ambiguity 15).  A side gets it when the module is switched on (once a game).  Never above
  10 (L796).
* +1 each side at the end of every round (L798); +1 to the side that destroys an enemy Commander (L799).
* One Standard Command a side a round, at the round's start (before any unit has taken its turn); Reaction
  Commands at any time, not counted (L801).  The force's pick of two Strategic Commands (L822) is the
  players': the app offers those it applies.

Commands applied: Inspiring Speech (Standard, I-1: +3 Momentum, once a battle, by a living Commander, Round
4 on, L805-L807); Warning (Reaction, I-1: the unit is immune to Tactical Advantage this turn, L808-L809; its
90-degree turn is the players'); Advancing Bulwark (I-2: this round the side's shields block one more
against PEN 0, L839-L840; its +5" Move the players'); Overwhelming Firepower (I-3: this round +1 Shooting
Accuracy and +1 ARM PEN for the whole side, shooting and melee, L843-L844); The Valiant (I-3: this round a
unit of the side below half HP, or facing a higher Melee stat, adds 2 attack dice in the clash, L845-L846).

Not yet: Guardian (moving hits to another unit, L811-L813), Ambush! and Reinforcements (deployment,
L814-L816, L847-L850), Coordinated Attack! (L826-L829), Infantry Ambush (L830-L831), Missile Screen!
(L832-L834), the Overwatch Command (L836-L838), Lightning Raid (L841-L842); Opening Bombardment's text is
lost (L835).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game
from core.systems.base import ActionResult, Change, Closed, needs, own_unit, read_options
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.state import MsState, gain, ms_state

#: The Commands applied: (name, Influence, Standard).
COMMANDS: dict[str, tuple[str, int, bool]] = {
    "inspiring_speech": ("Inspiring Speech", 1, True),
    "warning": ("Warning", 1, False),
    "advancing_bulwark": ("Advancing Bulwark", 2, True),
    "overwhelming_firepower": ("Overwhelming Firepower", 3, True),
    "the_valiant": ("The Valiant", 3, True),
}
CommandKey = Literal[
    "inspiring_speech", "warning", "advancing_bulwark", "overwhelming_firepower", "the_valiant"
]


def influence_on(game: Game) -> bool:
    return read_options(MsOptions, game.options).influence


def starting_influence(game_size: int) -> int:
    """Influence at the start by game size (L794-L795; digest ambiguity 15).

    >>> [starting_influence(p) for p in (500, 800, 1000, 1500, 2000, 2001)]
    [0, 1, 1, 1, 2, 3]
    """
    for limit, influence in ((500, 0), (1500, 1), (2000, 2)):
        if game_size <= limit:
            return influence
    return 3


def influence_start(game: Game) -> list[Change]:
    """The module switched on for the first time: each side's starting Influence (L794-L796)."""
    st = ms_state(game)
    if not influence_on(game) or st.influence_given:
        return []
    size = max((sum(int(g.profile.get("points", 0)) for g in side.units) for side in game.sides), default=0)
    work = Working(game)
    for s in range(len(game.sides)):
        gain(work, s, "influence", starting_influence(size))
    st.influence_given = True
    work.put_extra(st)
    return work.changes()


def has_command(game: Game, side: int, key: str) -> bool:
    """The side played this Standard Command this round."""
    return f"{side}:{key}" in ms_state(game).commands


def valiant(game: Game, side: int, ref: str, foe: str) -> int:
    """The Valiant's 2 attack dice for a unit of the side below half HP or facing a higher Melee (L846)."""
    if not has_command(game, side, "the_valiant"):
        return 0
    g, o = game.unit(ref)[2], game.unit(foe)[2]
    below = (g.state.max_damage - g.state.damage) * 2 < g.state.max_damage
    return 2 if below or int(o.profile.get("melee", 0)) > int(g.profile.get("melee", 0)) else 0


def commander_alive(game: Game, ref: str) -> str:
    """The requirement ``commander``: the unit is its force's Commander ("" when it is)."""
    _, _, g = game.unit(ref)
    if g.profile.get("commander", "none") == "none":
        return f"{g.name} is not the Commander"
    return f"{g.name} is destroyed" if g.state.destroyed else ""


def influence_module(game: Game, ref: str) -> str:
    return "" if influence_on(game) else "the Influence module is off"


class Command(Closed):
    """Spend Influence on a Command (L800-L850)."""

    unit: str = own_unit("The unit it is for (Inspiring Speech: the Commander).")
    command: CommandKey = Field(
        default="warning",
        description="Which Command.",
        json_schema_extra={
            "flow": "choice",
            "x-labels": {k: f"{name} ({cost} Influence)" for k, (name, cost, _) in COMMANDS.items()},
            **needs("commander", values=["inspiring_speech"]),
        },
    )


def _refusal(game: Game, inp: Command) -> str:
    st = ms_state(game)
    side, _, g = game.unit(inp.unit)
    name, cost, standard = COMMANDS[inp.command]
    if not influence_on(game):
        return "the Influence module is off"
    if game.sides[side].resources.get("influence", 0) < cost:
        return f"{name} costs {cost} Influence (L805-L846)"
    if standard:
        if side in st.standard_used:
            return "one Standard Command a round (L801)"
        started = st.turn_unit or any(u.state.activated for s in game.sides for u in s.units)
        if started:
            return "a Standard Command is given at the start of the round, before any unit's turn (L801)"
    if inp.command == "inspiring_speech":
        why = commander_alive(game, inp.unit)
        if why:
            return why
        if game.round < 4:
            return "Inspiring Speech is given from Round 4 (L807)"
        if f"{side}:inspiring_speech" in st.once:
            return "Inspiring Speech is given once a battle (L806)"
    if inp.command == "warning" and g.state.destroyed:
        return f"{g.name} is destroyed"
    return ""


def command(game: Game, inp: Command, dice: DiceSource) -> ActionResult:
    why = _refusal(game, inp)
    if why:
        raise ValueError(why)
    side, u, g = game.unit(inp.unit)
    name, cost, standard = COMMANDS[inp.command]
    work = Working(game)
    gain(work, side, "influence", -cost)
    st = work.extra_as(MsState)
    if standard:
        st.standard_used = [*st.standard_used, side]
        st.commands = [*st.commands, f"{side}:{inp.command}"]
    text = f"{game.sides[side].name} gives {name} ({cost} Influence)"
    if inp.command == "inspiring_speech":
        st.once = [*st.once, f"{side}:inspiring_speech"]
        gain(work, side, "momentum", 3)
        text += ": +3 Momentum"
    elif inp.command == "warning":
        state = work.state(side, u)
        state.conditions = [*state.conditions, "warned"]
        text += f": {g.name} is immune to Tactical Advantage this turn"
    else:
        text += (
            ": "
            + {
                "advancing_bulwark": 'Move +5" and shields +1 block against PEN 0 this round',
                "overwhelming_firepower": "+1 Shooting Accuracy and +1 ARM PEN this round",
                "the_valiant": "+2 melee attack dice this round below half HP or against a higher Melee",
            }[inp.command]
        )
    work.put_extra(st)
    return ActionResult(changes=work.changes(), text=text)


def round_end_influence(game: Game, work: Working) -> None:
    """+1 Influence each side at the round's end (L798)."""
    if influence_on(game):
        for s in range(len(game.sides)):
            gain(work, s, "influence", 1)


def commander_killed(game: Game, work: Working, killer_side: int, profile: dict[str, object]) -> None:
    """+1 Influence for destroying the enemy Commander (L799)."""
    if influence_on(game) and profile.get("commander", "none") != "none":
        gain(work, killer_side, "influence", 1)


def warned(game: Game, ref: str) -> bool:
    """Warning: immune to Tactical Advantage this turn (L809)."""
    return "warned" in game.unit(ref)[2].state.conditions
