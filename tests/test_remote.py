"""Secret choices on another phone (core.remote), with Mobile Suit Battles' planning (L71).

The host's game asks for side 1's two face-down cards; the other phone sees
only side 1's hand, picks, and answers; the host applies the answer only if it
fits the game as it is, all of it or nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_ms_battles import act, game, set_deck

from core import api, remote, share
from core.dice import RandomDice
from core.game import Game
from core.systems.ms_battles.sample import DECK_A, DECK_B


def drawn() -> Game:
    """Both suits have drawn: side 0 from a stacked deck, side 1 (the remote player) too."""
    g = act(game(DECK_A, DECK_B), "setup", priority_side=0)
    g = set_deck(g, 0, ["SB-1", "TR-3"])
    g = set_deck(g, 1, ["HB-2", "HB-3"])
    return act(g, "draw")


def pick(req: remote.Request, items: list[str]) -> remote.Answer:
    return remote.answer(req, [remote.Chosen(pick=0, items=items)])


def test_a_request_holds_only_that_sides_hand() -> None:
    g = drawn()
    req = remote.request(g, 1)
    assert [p.unit for p in req.picks] == ["1/u"]
    section = req.picks[0].section
    assert section.title == "Hand" and section.bind is not None and section.bind.count == 2
    assert [i.id for i in section.items][:2] == ["HB-2", "HB-3"]
    text = json.dumps(req.model_dump(mode="json"))
    assert "SB-1" not in text and "TR-3" not in text  # nothing of side 0's hand goes out


def test_the_answer_is_applied_as_the_plan_action_and_stays_face_down() -> None:
    g = drawn()
    ans = pick(remote.request(g, 1), ["HB-2", "HB-3"])
    after = remote.apply(g, ans, RandomDice(3))
    assert after.cursor == g.cursor + 1
    assert after.log[-1].text.endswith("places two cards face down")  # the log keeps the secret
    cards = after.sides[1].units[0].profile["cards"]
    planned = [cards[p]["id"] for p in after.sides[1].units[0].state.extra["planned"]]
    assert planned == ["HB-2", "HB-3"]
    assert remote.request(after, 1).picks == []  # nothing left to choose


def test_the_other_phone_checks_count_and_items() -> None:
    req = remote.request(drawn(), 1)
    with pytest.raises(ValueError, match="pick exactly 2, not 1"):
        pick(req, ["HB-2"])
    with pytest.raises(ValueError, match="not among the cards offered"):
        pick(req, ["HB-2", "SB-1"])
    with pytest.raises(ValueError, match="nothing picked yet"):
        remote.answer(req, [])


def test_a_stale_or_foreign_answer_changes_nothing() -> None:
    g = drawn()
    ans = pick(remote.request(g, 1), ["HB-2", "HB-3"])
    with pytest.raises(ValueError, match="another game"):
        remote.apply(g.model_copy(update={"id": "other"}), ans, RandomDice(1))
    planned_here = act(g, "plan", unit="1/u", keep=["HB-2", "HB-3"])  # chosen on the table meanwhile
    with pytest.raises(ValueError, match="earlier moment"):
        remote.apply(planned_here, ans, RandomDice(1))


def test_an_edited_answer_cannot_act_beyond_what_was_asked() -> None:
    g = drawn()
    ans = pick(remote.request(g, 1), ["HB-2", "HB-3"])
    for entry in (
        {"action": "plan", "input": {"unit": "0/u", "keep": ["SB-1", "TR-3"]}},  # the other side's suit
        {"action": "reveal", "input": {}},
        {"action": "plan", "input": {"unit": "1/u", "keep": ["HB-2", "HB-2"]}},
    ):
        forged = ans.model_copy(update={"entries": [remote.Entry.model_validate(entry)]})
        with pytest.raises(ValueError):
            remote.apply(g, forged, RandomDice(1))


def test_request_and_answer_travel_as_share_tokens() -> None:
    g = drawn()
    req = remote.request(g, 1)
    opened = share.decode(share.encode_request(req))
    assert opened.kind == "request" and opened.request == req
    ans = pick(req, ["HB-3", "HB-2"])
    back = share.decode(share.encode_answer(ans, g.system))
    assert back.kind == "answer" and back.answer == ans
    with pytest.raises(share.ShareError, match="damaged"):
        share.decode(share.encode_answer(ans, g.system)[:-4])


def call(op: str, **args: Any) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(api.handle(json.dumps({"op": op, "args": args})))
    return reply


def test_the_round_trip_through_the_api() -> None:
    g = drawn().model_dump(mode="json")
    out = call("remote.request", game=g, side=1)
    assert out["ok"] and out["result"]["length"] < 2500  # fits a QR code
    opened = call("share.decode", token=out["result"]["token"])["result"]
    back = call("remote.answer", request=opened["request"], chosen=[{"pick": 0, "items": ["HB-2", "HB-3"]}])
    answer = call("share.decode", token=back["result"]["token"])["result"]["answer"]
    applied = call("remote.apply", game=g, answer=answer)
    assert applied["ok"] and applied["result"]["cursor"] == g["cursor"] + 1
    nothing = call("remote.request", game=applied["result"], side=1)
    assert not nothing["ok"] and "nothing secret" in nothing["error"]["message"]
