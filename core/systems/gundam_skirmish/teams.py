"""Team play with more than two players (L113-L118), a game setting.

With teams (``GsState.teams``: each side's team number), each team rolls a single die for
priority (ties roll again among themselves, as players do, L278-L280).  The team with priority
picks which of its players takes the first turn; when that turn ends, the next team picks one of
its players who has not had a turn this round, and so on in the teams' priority order until every
player has had a turn (L114-L118); then a new round begins with the team with priority.  A team
whose players have all had their turn, or have no units left, is passed over.
"""

from __future__ import annotations

from core.dice import DiceSource
from core.game import Game
from core.systems.base import Choice, NeedChoice


def teams_of(game: Game) -> list[int]:
    """Each side's team number, or [] when every player plays for itself."""
    teams = game.state.extra.get("teams") or []
    return [int(t) for t in teams] if len(teams) == len(game.sides) else []


def check_teams(game: Game, teams: list[int]) -> None:
    """A team setting the table can play: one number per player, at least two teams, one with two or
    more players (else it is the ordinary game)."""
    if len(teams) != len(game.sides):
        raise ValueError(f"name a team for each of the {len(game.sides)} players")
    if len(set(teams)) < 2:
        raise ValueError("team play needs at least two teams")
    if len(set(teams)) == len(teams):
        raise ValueError("every team has one player: that is the ordinary game, with no teams")


def rank_teams(game: Game, dice: DiceSource, shown: list[str]) -> list[int]:
    """One die per team, highest first; tied teams roll again among themselves (L115, L278-L280)."""

    def rank(contenders: list[int]) -> list[int]:
        faces = dice.roll(len(contenders), 6, "team priority")
        shown.append(", ".join(f"team {t} {f}" for t, f in zip(contenders, faces, strict=True)))
        out: list[int] = []
        for face in sorted(set(faces), reverse=True):
            tied = [t for t, f in zip(contenders, faces, strict=True) if f == face]
            out += tied if len(tied) == 1 else rank(tied)
        return out

    return rank(sorted(set(teams_of(game))))


def pick_player(game: Game, team: int, waiting: list[int], picked: int | None, field: str, why: str) -> int:
    """The player of ``team`` who takes the next turn: the team's choice among ``waiting`` (asked when
    more than one may go)."""
    if len(waiting) == 1:
        return waiting[0]
    if picked is None:
        raise NeedChoice(
            field,
            f"{why}: team {team} chooses which of its players takes the next turn (L114-L118).",
            [Choice(value=s, label=game.sides[s].name) for s in waiting],
        )
    if picked not in waiting:
        raise ValueError(
            f"{game.sides[picked].name} cannot take the next turn: pick one of team {team}'s waiting players"
        )
    return picked


def next_team_player(game: Game, current: int, alive: list[int], picked: int | None) -> tuple[int, bool]:
    """After ``current``'s turn: the next player, and whether a new round begins (L116-L118)."""
    teams = teams_of(game)
    order: list[int] = list(game.state.extra.get("team_order") or sorted(set(teams)))
    played = {s for s in alive if game.sides[s].resources.get("turns", 0) >= game.round} | {current}
    waiting = [s for s in alive if s not in played]
    new_round = not waiting
    if new_round:
        waiting = list(alive)
        start = 0
    else:
        start = (order.index(teams[current]) + 1) % len(order)
    for step in range(len(order)):
        team = order[(start + step) % len(order)]
        mine = [s for s in waiting if teams[s] == team]
        if mine:
            why = "A new round" if new_round else f"{game.sides[current].name}'s turn is over"
            return pick_player(game, team, mine, picked, "next_side", why), new_round
    raise ValueError("no player is left to take a turn")
