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
    teams = {m["key"]: m for cell in view["cells"] for m in cell["marks"] if m["kind"] == "team"}
    assert (teams["t1"]["label"], teams["t1"]["short"], teams["t1"]["side"]) == ("Blue 1", "E1", "EFF")
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
    assert g["state"]["mission"] == "skirmish"
    assert [s["name"] for s in g["sides"]] == ["Earth Federation Forces", "Principality of Zeon"]
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


def battle_over() -> tuple[Any, Any]:
    """A campaign whose Blue 1 fought Red 1, and the finished game (ZEON won)."""
    c = ok("campaign.new", id="c1", system="gundam_skirmish", name="Down Under", setup=setup(), seed=1)[
        "campaign"
    ]
    c = ok("campaign.act", campaign=c, action="begin_turn")["campaign"]
    for team in ("t1", "t4", "t6", "t8"):
        c = ok("campaign.act", campaign=c, action="event_die", input={"team": team}, faces=[3])["campaign"]
    red = [t["key"] for t in c["state"]["teams"]].index("t10")
    c = ok("campaign.adjust", campaign=c, changes=[{"path": ["state", "teams", red, "x"], "value": 2}])
    c = ok("campaign.adjust", campaign=c, changes=[{"path": ["state", "teams", red, "y"], "value": 1}])
    begun = ok("campaign.battle", campaign=c, input={"team": "t1"}, game_id="g1")
    g = ok(
        "game.adjust",
        game=begun["game"],
        changes=[{"path": ["state", "ended"], "value": True}, {"path": ["state", "winners"], "value": [1]}],
    )
    return begun["campaign"], g


def test_the_whole_campaign_as_a_link() -> None:
    c, _ = battle_over()
    token = ok("campaign.share", campaign=c)["token"]
    opened = ok("share.decode", token=token)
    assert opened["kind"] == "campaign" and opened["campaign"] == c


def test_one_battles_result_by_link_only_to_the_same_campaign_at_the_same_point() -> None:
    """The result goes to the other phone's copy of the campaign (made when the battle began); a second
    application, a copy where the battle was undone, or another campaign, is refused with a message."""
    c, g = battle_over()
    copy = ok("share.decode", token=ok("campaign.share", campaign=c)["token"])["campaign"]
    early = call("campaign.share_result", campaign=c, game=ok("game.undo", game=g))
    assert early["error"]["message"].startswith("this battle is not over yet")
    token = ok("campaign.share_result", campaign=c, game=g)["token"]
    received = ok("share.decode", token=token)
    assert received["kind"] == "result"
    applied = ok("campaign.apply_result", campaign=copy, result=received["result"])
    assert applied == ok("campaign.result", campaign=c, game=g)
    twice = call("campaign.apply_result", campaign=applied, result=received["result"])
    assert twice["error"]["message"].startswith("this campaign is not waiting for this battle")
    undone = ok("campaign.undo", campaign=copy)
    stale = call("campaign.apply_result", campaign=undone, result=received["result"])
    assert stale["error"]["message"].startswith("this campaign is not waiting for this battle")
    other = {**copy, "id": "c2"}
    foreign = call("campaign.apply_result", campaign=other, result=received["result"])
    assert foreign["error"]["message"] == "this battle result is for another campaign"


def test_a_campaign_is_saved_as_a_record_and_a_damaged_one_set_aside() -> None:
    c, _ = battle_over()
    good = {"kind": "campaigns", "id": "c1", "format": 3, "data": c}
    bad = {
        "kind": "campaigns",
        "id": "c9",
        "format": 3,
        "data": {**c, "id": "c9", "state": {"map": "atlantis"}},
    }
    checked = ok("store.check", records=[good, bad])
    assert [r["id"] for r in checked["kept"]] == ["c1"] and checked["kept"][0]["data"] == c
    assert [(s["kind"], s["id"]) for s in checked["set_aside"]] == [("campaigns", "c9")]


def test_the_set_up_screen_through_the_seam() -> None:
    """campaign.setup_form fills every value in; campaign.new starts from the screen's draft; a draft
    with a problem is refused in words, nothing started."""
    form = ok("campaign.setup_form", system="gundam_skirmish")
    assert form["problems"] == [] and len(form["sides"]) == 2
    made = ok("campaign.new", id="c7", system="gundam_skirmish", name="Night", draft=form["draft"], seed=4)
    assert made["complete"] and len(made["campaign"]["state"]["teams"]) == 8
    bad = form["draft"]
    side = next(iter(bad["teams"]))
    bad["teams"][side][1]["place"] = bad["teams"][side][0]["place"]
    reply = call("campaign.new", id="c8", system="gundam_skirmish", draft=bad, seed=4)
    assert not reply["ok"] and "two teams on" in reply["error"]["message"]
    assert not call("campaign.setup_form", system="gunframe")["ok"]
