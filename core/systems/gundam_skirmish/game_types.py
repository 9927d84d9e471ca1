"""The battle's set-up and game types (L163-L229): game type, space (L1367) and weather
(L3301-L3397), the game length, the Objective Zone and the quarters scored, and victory.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from core.dice import DiceSource
from core.game import Game
from core.systems.base import ActionResult
from core.systems.gundam_skirmish.battle import (
    Changes,
    SideInput,
    has,
    in_space,
    mission,
    opts,
    profile,
    turn_limit,
)
from core.systems.gundam_skirmish.teams import check_teams
from core.systems.gundam_skirmish.units import unit_cost

Mission = Literal["deathmatch", "skirmish", "objective", "territory", "battle_royale"]


class SetupInput(BaseModel):
    """The battle the table plays (L163-L229, L1367)."""

    model_config = ConfigDict(extra="forbid")

    mission: Mission = Field(
        default="deathmatch",
        description="Game type (L169-L229): deathmatch or battle royale (last player with units), skirmish "
        "(most enemy points destroyed), objective (points in the zone), territory (points per quarter).",
    )
    space: bool = Field(
        default=False,
        description="A battle in space: cover one step worse, no height bonus, no Volley or Ambush "
        "(L1367-L1405).",
    )
    environment: Literal["normal", "dense_minovsky", "bad_weather"] = Field(
        default="normal",
        description="Earth weather (L3306-L3333): Dense Minovsky Particles (Ambush fails on 1-3; no Scout, "
        "Panoramic Cockpit or Volley) or Bad Weather (a target's player removes one hit, 3 times a game).",
    )
    teams: list[int] = Field(
        default_factory=list,
        max_length=8,
        description="Team play (L113-L118): a team number for each player, in the order of the players "
        "(e.g. 1, 2, 1, 2); the teams alternate, each choosing which of its players goes next. Empty: every "
        "player for itself.",
    )


def setup(game: Game, inp: SetupInput, dice: DiceSource) -> ActionResult:
    """Choose the game type, space or not and the weather; <S> units stay home in space (L1372)."""
    ch = Changes(game)
    if inp.space:
        barred = [g.name for side in game.sides for g in side.units if profile(g).no_space]
        if barred:
            raise ValueError("<S> units cannot fight in space (L1372): " + ", ".join(barred))
    ch.set(["state", "mission"], inp.mission)
    ch.set(["state", "environment"], "" if inp.environment == "normal" else inp.environment)
    ch.set(["state", "extra", "space"], inp.space)
    where = " in space" if inp.space else ""
    text = f"{inp.mission.replace('_', ' ').capitalize()}{where}"
    if inp.teams:
        if game.state.active_side is not None:
            raise ValueError("teams are set before the priority roll (L113-L118)")
        check_teams(game, inp.teams)
        ch.set(["state", "extra", "teams"], list(inp.teams))
        groups = {
            t: [game.sides[i].name for i, x in enumerate(inp.teams) if x == t] for t in sorted(set(inp.teams))
        }
        text += "; teams: " + "; ".join(f"{t}: {', '.join(names)}" for t, names in groups.items())
    elif game.state.extra.get("teams"):
        ch.set(["state", "extra", "teams"], [])
    return ActionResult(changes=ch.list, text=text)


def game_length(game: Game, inp: SideInput, dice: DiceSource) -> ActionResult:
    """Skirmish and Territory last D6+4 rounds (L181, L207); the Objective must be held D6+2 turns (L197)."""
    kind = mission(game)
    if kind in ("deathmatch", "battle_royale"):
        raise ValueError("this game type lasts until one player is left (L171-L177, L220-L229)")
    face = dice.roll(1, 6, "game length")[0]
    value = face + (2 if kind == "objective" else 4)
    ch = Changes(game)
    ch.set(["state", "clocks", "turn_limit"], value)
    what = "turns to hold the objective" if kind == "objective" else "rounds"
    return ActionResult(changes=ch.list, text=f"Game length {face}: {value} {what}")


def environment(game: Game, inp: SideInput, dice: DiceSource) -> ActionResult:
    """Roll the weather before the game: 1-2 Dense Minovsky, 3-4 Bad Weather, 5-6 normal (L3306-L3333).

    In space the book's own table (debris, atmosphere) needs the board: its result is told, not applied.
    """
    face = dice.roll(1, 6, "environment")[0]
    ch = Changes(game)
    if in_space(game):
        result = {1: "Debris Showers", 2: "Debris Showers", 3: "Atmospheric Danger", 4: "Atmospheric Danger"}
        text = result.get(face, "nothing special")
        return ActionResult(
            changes=ch.list, text=f"Space environment {face}: {text} (L3337-L3362, on the table)"
        )
    value = "dense_minovsky" if face <= 2 else "bad_weather" if face <= 4 else "normal"
    ch.set(["state", "environment"], "" if value == "normal" else value)
    return ActionResult(changes=ch.list, text=f"Environment {face}: {value.replace('_', ' ')}")


ZONE_PROMPT = 'The turn ends: which units stand in the Objective Zone (within 10" of the Objective)?'


def zone_points(game: Game, refs: list[str]) -> dict[int, int]:
    """Points value of each side's units among ``refs`` (destroyed ones count nothing)."""
    points: dict[int, int] = {}
    for ref in refs:
        s, _, g = game.unit(ref)
        if not g.state.destroyed:
            points[s] = points.get(s, 0) + unit_cost(profile(g))
    return points


def score_zone(ch: Changes, refs: list[str]) -> str:
    """Objective: as a turn ends, the side with the highest points value in the zone holds it (L192-L203);
    the first to hold it for the rolled number of turns wins (A33; consecutive turns with
    ``objective_consecutive``)."""
    game = ch.game
    points = zone_points(game, refs)
    best = max(points.values(), default=0)
    leaders = [s for s, p in points.items() if p == best and p > 0]
    text = "Objective: " + (", ".join(f"{game.sides[s].name} {p} pts" for s, p in points.items()) or "empty")
    for s, side in enumerate(game.sides):
        held = side.resources.get("held", 0)
        if len(leaders) == 1 and s == leaders[0]:
            ch.resource(s, "held", held + 1)
            text += f"; {side.name} holds it ({held + 1})"
            if turn_limit(game) and held + 1 >= turn_limit(game):
                ch.set(["state", "ended"], True)
                ch.set(["state", "winners"], [s])
                text += f": {side.name} wins (L192-L203)"
        elif opts(game).objective_consecutive and held:
            ch.resource(s, "held", 0)
    return text


def score_quarters(ch: Changes, quarters: list[list[str]]) -> str:
    """Territory: each quarter goes to the side with the highest points value of units in it; the side
    holding the most quarters wins, a tie shares the win (L205-L218)."""
    game = ch.game
    held = [0] * len(game.sides)
    shown = []
    for n, refs in enumerate(quarters, start=1):
        points = zone_points(game, refs)
        best = max(points.values(), default=0)
        leaders = [s for s, p in points.items() if p == best and p > 0]
        if len(leaders) == 1:
            held[leaders[0]] += 1
            shown.append(f"quarter {n}: {game.sides[leaders[0]].name}")
        else:
            shown.append(f"quarter {n}: nobody")
    for s in range(len(game.sides)):
        ch.resource(s, "quarters", held[s])
    top = max(held)
    winners = [s for s, h in enumerate(held) if h == top and h > 0]
    ch.set(["state", "ended"], True)
    ch.set(["state", "winners"], winners)
    names = " and ".join(game.sides[s].name for s in winners) or "nobody"
    verb = "wins" if len(winners) <= 1 else "win"
    return "Territory: " + ", ".join(shown) + f"; game over: {names} {verb} (L214-L218)"


def alive_sides(game: Game) -> list[int]:
    return [
        i
        for i, side in enumerate(game.sides)
        if any(not g.state.destroyed and not has(g, "withdrawn") for g in side.units)
    ]


def victory(game: Game, ch: Changes) -> str:
    """Victory checked in the Final Upkeep (L304-L306): last player standing, or the Skirmish tally."""
    kind, st = mission(game), ch.game.state
    if st.ended:
        return ""
    winners: list[int] = []
    alive = alive_sides(ch.game)
    if kind in ("deathmatch", "battle_royale") and len(alive) <= 1:
        winners = alive
    elif kind == "skirmish" and turn_limit(game) and ch.game.round > turn_limit(game):
        best = max(side.resources.get("destroyed", 0) for side in ch.game.sides)
        winners = [i for i, side in enumerate(ch.game.sides) if side.resources.get("destroyed", 0) == best]
    else:
        return ""
    ch.set(["state", "ended"], True)
    ch.set(["state", "winners"], winners)
    names = " and ".join(ch.game.sides[i].name for i in winners) or "nobody"
    if not winners:
        return "game over: nobody wins (L171-L190)"
    return f"game over: {names} win{'s' if len(winners) == 1 else ''} (L171-L190)"
