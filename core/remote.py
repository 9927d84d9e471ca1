"""Secret choices on another phone: a request link out, an answer link back.

A game lives on one phone (the table's).  Some choices are secret, such as
the two cards each mobile suit keeps face down in Mobile Suit Battles
(002_c5caa4b4fc3fd928.txt L71).  On a shared phone the app hides them behind a
"Show" tap; with two phones a player makes them on their own:

1. :func:`request` takes, for one side, every private section of its units
   that is bound to an action (a hand to pick from): those items and nothing
   else of the game.  The host phone shares it as a link (QR code).
2. The other phone opens it, the player picks, and :func:`answer` turns the
   picks into the actions' inputs, checked against the request (how many, which
   items).  That phone shares the answer back as a link.
3. The host opens the answer: :func:`apply` checks that it answers this game,
   this side and the game as it still is (a fingerprint of the request), then
   resolves every input as a normal action (one log event each, texts that keep
   the choice hidden as on a shared phone).  If any one fails, none is applied.

The host never shows the picks until the system reveals them, exactly as on a
shared phone: the app hides them, it does not encrypt them.

>>> from core.game import Game, GameUnit, Side
>>> from core.systems.base import UnitState
>>> g = Game(id="g1", system="gunframe", sides=[Side(name="Red", units=[])])
>>> request(g, 0).picks
[]
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.dice import DiceSource
from core.game import Game, act
from core.systems import implementation
from core.systems.base import ViewSection

#: The most items one secret choice offers (a hand of cards is far fewer).
MAX_ITEMS = 100


class Pick(BaseModel):
    """One secret choice: a unit's private section and the action its picks feed."""

    model_config = ConfigDict(extra="forbid")

    unit: str = Field(description="The unit, as 'side/key'.")
    unit_name: str
    section: ViewSection

    @model_validator(mode="after")
    def _bound(self) -> Pick:
        """What :func:`request` makes: a section bound to an action, a hand's worth of items."""
        if self.section.bind is None:
            raise ValueError("a choice must say which action it feeds")
        if len(self.section.items) > MAX_ITEMS:
            raise ValueError(f"a choice offers at most {MAX_ITEMS} items")
        return self


class Request(BaseModel):
    """What the other phone needs to make one side's secret choices."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(description="Id of the host's game.")
    game_name: str
    system: str
    side: int
    side_name: str
    at: str = Field(description="Fingerprint of these choices as the game has them now.")
    picks: list[Pick] = Field(max_length=64)


class Chosen(BaseModel):
    """The items picked in one section of a request, by position in ``Request.picks``."""

    model_config = ConfigDict(extra="forbid")

    pick: int = Field(ge=0)
    items: list[str] = Field(max_length=40)


class Entry(BaseModel):
    """One action to resolve on the host: its name and input."""

    model_config = ConfigDict(extra="forbid")

    action: str
    input: dict[str, Any]


class Answer(BaseModel):
    """The other phone's choices, to be applied by the host."""

    model_config = ConfigDict(extra="forbid")

    game: str
    side: int
    at: str
    entries: list[Entry] = Field(min_length=1, max_length=20)


def _fingerprint(game: Game, side: int, picks: list[Pick]) -> str:
    data = json.dumps(
        [game.id, side, [p.model_dump(mode="json") for p in picks]], sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def request(game: Game, side: int) -> Request:
    """The secret choices one side has to make now (none: an empty list)."""
    if not 0 <= side < len(game.sides):
        raise ValueError(f"there is no side {side}")
    system = implementation(game.system)
    picks = []
    for u, unit in enumerate(game.sides[side].units):
        view = system.unit_view(game, side, u)
        for section in view.sections if view else []:
            if section.private and section.bind is not None and section.bind.mode == "act":
                picks.append(Pick(unit=f"{side}/{unit.key}", unit_name=unit.name, section=section))
    return Request(
        game=game.id,
        game_name=game.name,
        system=game.system,
        side=side,
        side_name=game.sides[side].name,
        at=_fingerprint(game, side, picks),
        picks=picks,
    )


def answer(req: Request, chosen: list[Chosen]) -> Answer:
    """The actions that carry out the picks; every section answered once, with the right count."""
    if not req.picks:
        raise ValueError("there is nothing to choose")
    by_pick: dict[int, list[str]] = {}
    for c in chosen:
        if c.pick >= len(req.picks):
            raise ValueError(f"there is no choice {c.pick + 1}")
        if c.pick in by_pick:
            raise ValueError(f"choice {c.pick + 1} is answered twice")
        by_pick[c.pick] = c.items
    entries = []
    for i, pick in enumerate(req.picks):
        bind = pick.section.bind
        assert bind is not None  # request() keeps bound sections only
        items = by_pick.get(i)
        if items is None:
            raise ValueError(f"{pick.unit_name}: nothing picked yet")
        known = {item.id for item in pick.section.items}
        stray = [x for x in items if x not in known]
        if stray:
            raise ValueError(f"{pick.unit_name}: {stray[0]!r} is not among the cards offered")
        if bind.count and len(items) != bind.count:
            raise ValueError(f"{pick.unit_name}: pick exactly {bind.count}, not {len(items)}")
        entries.append(Entry(action=bind.action, input={**bind.fixed, bind.field: items}))
    return Answer(game=req.game, side=req.side, at=req.at, entries=entries)


def apply(game: Game, ans: Answer, dice: DiceSource) -> Game:
    """The host's game with the answer's actions resolved, all of them or (raising) none."""
    if ans.game != game.id:
        raise ValueError("this answer is for another game")
    now = request(game, ans.side)
    if ans.at != now.at:
        raise ValueError(
            f"this answer is for an earlier moment of the game: {now.side_name}'s choices have changed "
            "since the request was sent; send a new request"
        )
    if len(ans.entries) != len(now.picks):
        raise ValueError(f"this answer makes {len(ans.entries)} choices where {len(now.picks)} are asked")
    chosen = []
    for i, (entry, pick) in enumerate(zip(ans.entries, now.picks, strict=True)):
        assert pick.section.bind is not None
        items = entry.input.get(pick.section.bind.field)
        if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
            raise ValueError(f"{pick.unit_name}: the answer holds no picks")
        chosen.append(Chosen(pick=i, items=items))
    # only what the request offered, for the units it named: the same entries answer() makes
    if answer(now, chosen).entries != ans.entries:
        raise ValueError("this answer does not match the choices that were asked")
    for entry in ans.entries:
        game = act(game, entry.action, entry.input, dice)
    return game
