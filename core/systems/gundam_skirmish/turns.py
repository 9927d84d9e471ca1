"""Turns (L278-L308): the priority roll, Command Points and the timed effects of the Initial Upkeep,
the Final Upkeep and the next player's turn; the phase and the status lines the game screen shows.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from core.dice import DiceSource
from core.game import Game
from core.systems.base import ActionResult, CardLine, Choice, NeedChoice, PhaseStep, PhaseView
from core.systems.gundam_skirmish.battle import (
    Changes,
    SideInput,
    Units,
    ask_units,
    asked_units,
    has,
    in_space,
    mission,
    profile,
    turn_limit,
    unit_path,
)
from core.systems.gundam_skirmish.economy import NOT_BEGUN, in_upkeep
from core.systems.gundam_skirmish.game_types import (
    ZONE_PROMPT,
    alive_sides,
    score_quarters,
    score_zone,
    victory,
)
from core.systems.gundam_skirmish.teams import next_team_player, pick_player, rank_teams, teams_of
from core.systems.gundam_skirmish.units import is_command


class PriorityInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    places: list[int] = Field(
        default_factory=list,
        max_length=8,
        description="The place in the turn order (1 = first) each player chose, highest roller first "
        "(L280-L281); asked after the roll.",
        json_schema_extra={"ui": "hidden"},
    )
    first: int | None = Field(
        default=None,
        ge=0,
        le=7,
        description="Team play: the player the team with priority sends first (L115-L116); asked.",
        json_schema_extra={"ui": "hidden"},
    )


def turn_order(game: Game) -> list[int]:
    """Sides by their place from the priority roll (L278-L282); by listing order until it is rolled."""
    return sorted(range(len(game.sides)), key=lambda i: (game.sides[i].resources.get("order", 0) or 99, i))


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}.get(n, f"{n}th")


def priority(game: Game, inp: PriorityInput, dice: DiceSource) -> ActionResult:
    """Everyone rolls a D6, tied players roll again among themselves (L278-L280); the highest roller
    picks a place in the turn order, then the second highest, and so on (L280-L281); the order stays for
    the game (L281-L282).

    The player placed first then begins the first turn: its Initial Upkeep (L286-L291).
    """
    if game.state.active_side is not None:
        raise ValueError("the priority roll is made once, before the first turn (L278-L282)")
    shown: list[str] = []
    teams = teams_of(game)
    if teams:  # team play: a die per team; the team with priority sends its first player (L113-L118)
        ranked_teams = rank_teams(game, dice, shown)
        mine = [s for s, t in enumerate(teams) if t == ranked_teams[0]]
        first = pick_player(
            game, ranked_teams[0], mine, inp.first, "first", f"Team {ranked_teams[0]} has priority"
        )
        ch = Changes(game)
        ch.set(["state", "extra", "team_order"], ranked_teams)
        said = "Priority: " + "; ".join(shown) + ". Teams: " + ", ".join(str(t) for t in ranked_teams)
        began = begin_turn(ch, first)
        return ActionResult(changes=ch.list, text=f"{said}; {began}")

    def rank(contenders: list[int]) -> list[int]:
        """One roll ranks every player, highest first; only players who tie roll again, among
        themselves, for the places they share (L279-L281: "second highest roll" decides second)."""
        faces = dice.roll(len(contenders), 6, "priority")
        shown.append(", ".join(f"{game.sides[i].name} {f}" for i, f in zip(contenders, faces, strict=True)))
        out: list[int] = []
        for face in sorted(set(faces), reverse=True):
            tied = [i for i, f in zip(contenders, faces, strict=True) if f == face]
            out += tied if len(tied) == 1 else rank(tied)
        return out

    ranked = rank(list(range(len(game.sides))))
    free = list(range(1, len(ranked) + 1))
    place_of: dict[int, int] = {}
    for n, side in enumerate(ranked[:-1]):
        if n >= len(inp.places):
            name = game.sides[side].name
            rolled = "won the priority roll" if n == 0 else "rolled next highest"
            raise NeedChoice(
                "places",
                f"{name} {rolled}: which turn does {name} take? (L280-L281)",
                [Choice(value=[*inp.places, k], label=f"{_ordinal(k).capitalize()} turn") for k in free],
            )
        if inp.places[n] not in free:
            raise ValueError(f"turn {inp.places[n]} is not free to take")
        place_of[side] = inp.places[n]
        free.remove(inp.places[n])
    place_of[ranked[-1]] = free[0]
    ch = Changes(game)
    for side, place in place_of.items():
        ch.resource(side, "order", place)
    order_ = sorted(place_of, key=lambda i: place_of[i])
    texts = [
        "Priority: " + "; ".join(shown) + ". Order: " + ", ".join(game.sides[i].name for i in order_),
        begin_turn(ch, order_[0]),
    ]
    return ActionResult(changes=ch.list, text="; ".join(texts))


def command_points(game: Game, s: int) -> int:
    """Command Points gained in Upkeep: 1 per Command unit in play, 2 with Leader, 0 Routed (L1283-L1288)."""
    total = 0
    for g in game.sides[s].units:
        unit = profile(g)
        if (
            not is_command(unit)
            or g.state.destroyed
            or has(g, "reserve")
            or has(g, "withdrawn")
            or has(g, "routed")
        ):
            continue
        total += 2 if unit.pilot_has("leader") else 1
    return total


TIMED = ("no_actions", "no_carried", "acc5", "bring_them_down")


def begin_turn(ch: Changes, nxt: int) -> str:
    """A player's turn begins with its Initial Upkeep: Command Points come in (L284-L291, L1283-L1288)."""
    game = ch.game
    ch.set(["state", "active_side"], nxt)
    ch.resource(nxt, "turns", game.sides[nxt].resources.get("turns", 0) + 1)
    ch.resource(nxt, "get_to_cover", 0)  # it lasted through the opponents' turns (L1478-L1483)
    gain = command_points(game, nxt)
    ch.resource(nxt, "cp", game.sides[nxt].resources.get("cp", 0) + gain)
    return f"{game.sides[nxt].name}'s turn: +{gain} Command Point{'s' if gain != 1 else ''} (L1283-L1288)"


class NextTurnInput(SideInput):
    """The Final Upkeep's questions, asked when the game type needs them (L304-L306)."""

    zone: Units = asked_units("Objective: the units in the Objective Zone as the turn ends; asked.")
    next_side: int | None = Field(
        default=None,
        ge=0,
        le=7,
        description="Team play: the player the next team sends (L116-L118); asked.",
        json_schema_extra={"ui": "hidden"},
    )
    quarter_1: Units = asked_units("Territory: the units in quarter 1 after the last round; asked.")
    quarter_2: Units = asked_units("Territory: the units in quarter 2 after the last round; asked.")
    quarter_3: Units = asked_units("Territory: the units in quarter 3 after the last round; asked.")
    quarter_4: Units = asked_units("Territory: the units in quarter 4 after the last round; asked.")


def next_turn(game: Game, inp: NextTurnInput, dice: DiceSource) -> ActionResult:
    """End the current player's turn with its Final Upkeep: the Objective Zone is counted (L192-L203; A33),
    victory checked (L304-L306), the quarters counted after the last round of Territory (L205-L218);
    then the next player's Initial Upkeep begins (L284-L308)."""
    if game.state.ended:
        raise ValueError("the game is over")
    current = game.state.active_side
    if current is None:
        raise ValueError(NOT_BEGUN)
    kind = mission(game)
    if kind == "objective" and inp.zone is None:
        ask_units(game, "zone", ZONE_PROMPT)
    ch = Changes(game)
    order_ = turn_order(game)
    texts = []
    ch.resource(current, "concentrate_fire", 0)
    for u in range(len(game.sides[current].units)):
        for cond in TIMED:  # effects on a unit "in its next turn" end with that turn (A46)
            ch.condition(current, u, cond, False)
        ch.counter(current, u, "actions", 0)
        ch.set(unit_path(current, u, "activated"), False)
        if game.sides[current].units[u].state.extra.get("rout_rolled"):
            ch.extra(current, u, "rout_rolled", False)  # rolled again when next selected (L1554-L1558)
    texts.append(f"{game.sides[current].name} ends the turn")
    if kind == "objective" and inp.zone is not None:
        texts.append(score_zone(ch, inp.zone))
        if ch.game.state.ended:
            return ActionResult(changes=ch.list, text="; ".join(texts))
    if teams_of(game):  # the teams alternate, each sending a player who has not had a turn (L116-L118)
        nxt, new_round = next_team_player(game, current, alive_sides(game), inp.next_side)
    else:
        nxt = order_[(order_.index(current) + 1) % len(order_)]
        new_round = order_.index(nxt) == 0
    if new_round:
        ch.set(["round"], game.round + 1)
        texts.append(f"round {game.round + 1}")
    limit = turn_limit(game)
    if kind == "territory" and limit and ch.game.round > limit:
        quarters = [inp.quarter_1, inp.quarter_2, inp.quarter_3, inp.quarter_4]
        for n, refs in enumerate(quarters, start=1):
            if refs is None:
                ask_units(
                    game, f"quarter_{n}", f"All rounds are played: which units stand in quarter {n} of 4?"
                )
        texts.append(score_quarters(ch, [q or [] for q in quarters]))
        return ActionResult(changes=ch.list, text="; ".join(texts))
    over = victory(game, ch)
    if over:
        return ActionResult(changes=ch.list, text="; ".join([*texts, over]))
    texts.append(begin_turn(ch, nxt))
    return ActionResult(changes=ch.list, text="; ".join(texts))


def phase_view(game: Game) -> PhaseView:
    """The turn's steps (L276-L308): the priority roll once, then each player's Initial Upkeep, actions and
    Final Upkeep; the step the game is at is marked and "Next turn" passes play on."""
    s = game.state.active_side
    name = game.sides[s].name if s is not None else "the player in turn"
    live = (
        []
        if s is None
        else [g for g in game.sides[s].units if not g.state.destroyed and not has(g, "withdrawn")]
    )
    steps = [
        PhaseStep(
            key="priority",
            label="Priority roll",
            action="priority",
            sheet=True,
            gate=True,  # L278-L282: nothing happens before the priority roll
            hint="Everyone rolls a die; the highest picks their place in the turn order (L278-L282).",
        ),
        PhaseStep(
            key="upkeep",
            label="Initial Upkeep",
            action="next_turn",
            hint=f"{name}: Command Points are in; give orders and roll for units waiting to Ambush, "
            "then act (L286-L291).",
        ),
        PhaseStep(
            key="actions",
            label="Actions",
            action="next_turn",
            hint=f"{name}'s units act one at a time: two Fast actions or one Slow each (L294-L297).",
        ),
        PhaseStep(
            key="final",
            label="Final Upkeep",
            action=None if game.state.ended else "next_turn",
            hint="The game is over."
            if game.state.ended
            else f"{name}'s units have acted: Next turn checks victory and passes play on (L304-L308).",
        ),
    ]
    alive = alive_sides(game)
    last = mission(game) in ("deathmatch", "battle_royale") and len(alive) <= 1 and not game.state.ended
    if last:  # the sole player with units left wins, declared in the Final Upkeep (L176-L177, L304-L306)
        who = game.sides[alive[0]].name if alive else "nobody"
        steps[3].hint = (
            f"Only {who} has units left: Next turn checks victory and declares {who} the winner "
            "(L176-L177, L304-L306)."
            if alive
            else "No player has units left: Next turn ends the game with no winner (L171-L190, L304-L306)."
        )
    if s is None:
        current = 0
    elif game.state.ended or last or all(g.state.activated for g in live):
        current = 3
    else:
        current = 1 if in_upkeep(game) else 2
    return PhaseView(steps=steps, current=current, round_button=False)


def status_lines(game: Game) -> list[CardLine]:
    """The game type, the round and the score by the game type's own measure (L169-L229).

    The shared lines under it show the environment, the game length and whose turn it is.
    Deathmatch and Battle Royale: players with units left (L176-L177, L228-L229); Skirmish: enemy points
    destroyed (L187-L190); Objective: turns holding the zone (L200-L203); Territory: quarters held,
    counted after the last round (L214-L218).
    """
    kind = mission(game)
    lines = [
        CardLine(
            label="Game type",
            value=kind.replace("_", " ").capitalize() + (" in space" if in_space(game) else ""),
        )
    ]
    limit = turn_limit(game)
    shown = f" of {limit}" if limit and kind in ("skirmish", "territory") else ""
    # The round count stops at the last one played: the game ends as it is over (L181, L207).
    played = min(game.round, limit) if shown and game.state.ended else game.round
    lines.append(CardLine(label="Round", value=f"{played}{shown}"))
    if game.state.active_side is None:
        lines.append(CardLine(label="Turn", value="not started: roll for priority"))
    alive = alive_sides(game)
    if kind in ("deathmatch", "battle_royale"):
        lines.append(CardLine(label="Players with units", value=str(len(alive))))
    elif kind == "skirmish":
        score = ", ".join(f"{s.name} {s.resources.get('destroyed', 0)}" for s in game.sides)
        lines.append(CardLine(label="Enemy points destroyed", value=score))
    elif kind == "objective":
        score = ", ".join(f"{s.name} {s.resources.get('held', 0)}" for s in game.sides)
        lines.append(CardLine(label="Turns holding", value=score + (f" of {limit}" if limit else "")))
    elif game.state.ended:
        score = ", ".join(f"{s.name} {s.resources.get('quarters', 0)}" for s in game.sides)
        lines.append(CardLine(label="Quarters held", value=score))
    else:  # the quarters are counted once, after the last round (L214-L218)
        when = f"when round {limit} ends" if limit else "after the last round: roll the game length"
        lines.append(CardLine(label="Quarters held", value=f"counted {when}"))
    return lines
