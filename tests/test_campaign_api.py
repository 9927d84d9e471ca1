"""The campaign operations of the seam (core/campaign_api.py): JSON in, JSON out, errors as data.

Played with Mobile Suit Gundam: Skirmish, the one system with a campaign: a set-up, a turn, a battle
started as a game and its result taken back once, undo, and the screen's view of it all.
"""

from __future__ import annotations

import json
from typing import Any

from test_gundam_campaign import setup

from core import api


def call(op: str, **args: Any) -> Any:
    reply = json.loads(api.handle(json.dumps({"op": op, "args": args})))
    return reply


def ok(op: str, **args: Any) -> Any:
    reply = call(op, **args)
    assert reply["ok"], reply
    return reply["result"]


def test_a_system_declares_its_campaign() -> None:
    assert ok("system.describe", system="gundam_skirmish")["campaign"] is True
    assert ok("system.describe", system="gunframe")["campaign"] is False
    described = ok("campaign.describe", system="gundam_skirmish")
    assert {s["name"] for s in described["steps"]} >= {
        "begin_turn",
        "event_die",
        "move",
        "enter_base",
        "end_turn",
    }
    assert set(described["data"]["maps"]) == {
        "australia",
        "south_east_asia",
        "ukraine",
        "solar_one_year_war",
        "solar_gryps",
    }
    refused = call("campaign.describe", system="gunframe")
    assert not refused["ok"] and refused["error"]["message"] == "GUNFRAME has no campaign"


def test_a_turn_a_battle_and_its_result_through_the_seam() -> None:
    started = ok("campaign.new", id="c1", system="gundam_skirmish", name="Down Under", setup=setup())
    c = started["campaign"]
    c = ok("campaign.act", campaign=c, action="begin_turn")["campaign"]
    need = ok("campaign.act", campaign=c, action="event_die", input={"team": "t1"}, faces=[])
    assert need["complete"] is False and need["need"] == {
        "count": 1,
        "sides": 6,
        "purpose": "Event Die: Blue 1",
    }
    view = ok("campaign.view", campaign=c)
    assert len(view["cells"]) == 64 and view["note"].startswith("The book lists each map's bases")
    assert next(s["label"] for s in view["steps"] if s["action"] == "event_die") == "Event Die: Blue 1"
    for team in ("t1", "t4", "t6", "t8"):
        c = ok("campaign.act", campaign=c, action="event_die", input={"team": team}, faces=[3])["campaign"]
    odds = ok("campaign.odds", campaign=c, action="event_die", input={"team": "t1"})
    assert odds["facts"]["Nothing of note"] == 2 / 3
    # Red 1 comes next to Blue 1 (a manual change), then Blue 1 starts a battle
    red = [t["key"] for t in c["state"]["teams"]].index("t10")
    c = ok(
        "campaign.adjust",
        campaign=c,
        changes=[
            {"path": ["state", "teams", red, "y"], "value": 1},
            {"path": ["state", "teams", red, "x"], "value": 2},
        ],
    )
    begun = ok("campaign.battle", campaign=c, input={"team": "t1", "game_type": "skirmish"}, game_id="g1")
    c, g = begun["campaign"], begun["game"]
    assert g["state"]["mission"] == "skirmish" and [s["name"] for s in g["sides"]] == ["EFF", "ZEON"]
    refused = call("campaign.act", campaign=c, action="end_turn")
    assert refused["error"]["message"].startswith("a battle is being played")
    early = call("campaign.result", campaign=c, game=g)
    assert early["error"]["message"].startswith("this battle is not over yet")
    g = ok(
        "game.adjust",
        game=g,
        changes=[{"path": ["state", "ended"], "value": True}, {"path": ["state", "winners"], "value": [1]}],
    )
    after = ok("campaign.result", campaign=c, game=g)
    assert after["battle"] is None and after["log"][-1]["text"].startswith("Battle result: ZEON won")
    again = call("campaign.result", campaign=after, game=g)
    assert again["error"]["message"] == (
        "this campaign is not waiting for a battle: this result was applied already or undone"
    )
    back = ok("campaign.undo", campaign=after)
    assert back["battle"] is not None
    assert ok("campaign.redo", campaign=back) == after
