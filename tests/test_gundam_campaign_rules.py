"""Mobile Suit Gundam: Skirmish: campaign rules played inside a campaign battle, through ``core.api``.

Rulebook 000_3e12d4cbd0c8f6da.txt: the voluntary withdrawal after 4 turns (L2139-L2140, digest A51),
the battle effects of the traits Fierce (L1964-L1966), Merciful (L1981-L1983), Responsive
(L1992-L1994) and Terrifying (L2002-L2003, with Stoic L1996-L1997), a Mobile Fighter's techniques as
the only attacks it may make (L1837-L1844) and the map tiles' terrain names (L1717-L1718).  Every
case goes through the seam as the app does (JSON in, JSON out) with typed dice.
"""

from __future__ import annotations

import json
from typing import Any

from test_gundam_campaign import setup

from core import api


def call(op: str, **args: Any) -> Any:
    reply: Any = json.loads(api.handle(json.dumps({"op": op, "args": args})))
    return reply


def ok(op: str, **args: Any) -> Any:
    reply = call(op, **args)
    assert reply["ok"], reply
    return reply["result"]


def refused(op: str, **args: Any) -> str:
    reply = call(op, **args)
    assert not reply["ok"], reply
    message: str = reply["error"]["message"]
    return message


def campaign(**options: str) -> Any:
    """Blue 1 (Amuro's Lancer, a Gun Tank) next to Red 1 (Char's Trooper, a Heavy Gunner), Blue's turn
    with its three actions; ``options`` are the campaign's readings."""
    c = ok("campaign.new", id="c1", system="gundam_skirmish", name="Down Under", setup=setup(), seed=1)[
        "campaign"
    ]
    changes = [{"path": ["options", k], "value": v} for k, v in options.items()]
    red = [t["key"] for t in c["state"]["teams"]].index("t10")
    changes += [
        {"path": ["state", "teams", red, "x"], "value": 2},
        {"path": ["state", "teams", red, "y"], "value": 1},
    ]
    c = ok("campaign.adjust", campaign=c, changes=changes)
    c = ok("campaign.act", campaign=c, action="begin_turn")["campaign"]
    for team in ("t1", "t4", "t6", "t8"):
        c = ok("campaign.act", campaign=c, action="event_die", input={"team": team}, faces=[3])["campaign"]
    return c


def battle(c: Any) -> Any:
    """Blue 1 starts a Battle; priority 5-2, the Feds first: the game as the app receives it."""
    g = ok("campaign.battle", campaign=c, input={"team": "t1"}, game_id="g1")["game"]
    return ok("game.act", game=g, action="priority", input={"places": [1]}, faces=[5, 2])["game"]


def ref(g: Any, side: int, n: int) -> str:
    return f"{side}/{g['sides'][side]['units'][n]['key']}"


def at_round(g: Any, n: int) -> Any:
    return ok("game.adjust", game=g, changes=[{"path": ["round"], "value": n}])


# --- voluntary withdrawal (L2139-L2140, A51) ----------------------------------------------------


def test_withdrawal_refused_before_4_turns_have_passed_offered_after_l2139_l2140() -> None:
    """A unit of a campaign battle may move back into its deployment zone and leave once 4 or more
    turns have passed: by the digest's reading (A51) from round 5; the option 'from_4' from round 4.
    Before, the action is greyed with the reason and refused if sent; in a battle outside a campaign it
    is never offered.  A unit that withdrew counts as withdrawn in the campaign's result."""
    g = battle(campaign())
    lancer = ref(g, 0, 0)
    for n in (1, 4):
        g = at_round(g, n)
        why = ok("game.views", game=g)["gated"][lancer]["withdraw"]
        assert why == (
            f"a team may withdraw once 4 turns have passed: from round 5, this is round {n} (L2139-L2140)"
        )
        assert refused("game.act", game=g, action="withdraw", input={"unit": lancer}) == why
    g = at_round(g, 5)
    assert "withdraw" not in ok("game.views", game=g)["gated"].get(lancer, {})
    done = ok("game.act", game=g, action="withdraw", input={"unit": lancer})
    unit = done["game"]["sides"][0]["units"][0]["state"]
    assert "withdrawn" in unit["conditions"] and unit["counters"]["actions"] == 1  # the Move back (Fast)
    assert done["event"]["text"].endswith("withdraws from the battle")
    again = refused("game.act", game=done["game"], action="withdraw", input={"unit": lancer})
    assert "out of the battle" in again
    # the named option: from round 4
    early = at_round(battle(campaign(withdrawal="from_4")), 4)
    assert ok("game.act", game=early, action="withdraw", input={"unit": ref(early, 0, 0)})["complete"]
    # outside a campaign the rule does not exist
    plain = at_round({**g, "state": {**g["state"], "extra": {}}}, 9)
    why = ok("game.views", game=plain)["gated"][lancer]["withdraw"]
    assert why.startswith("only in a campaign battle")
