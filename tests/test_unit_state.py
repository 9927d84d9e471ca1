"""A unit's own values in play (``UnitState.extra``) are typed by its system's ``unit_state_model``.

Every game read (a save, a link, an engine call) has each unit's values checked against the model;
saves and links of games in play made by the current release (``tests/golden/v0.1.0-unit-states``,
written by main's code before these models existed) load, read to exact values and play on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

import core.systems
from core import api, share, storage
from core.dice import TypedDice
from core.game import Game, act, adjust
from core.systems import implementation
from core.systems.base import Change
from core.systems.gundam_skirmish.unit_state import GsUnitState, Pilot
from core.systems.gunframe.state import form_of, is_convoy
from core.systems.gunframe.unit_state import GfUnitState, HeldPower, SplitShare
from core.systems.ms_battles.board import Resolved, SuitPlay

GOLDEN = Path(__file__).parent / "golden"
IN_PLAY = GOLDEN / "v0.1.0-unit-states"


def _read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def saved_games() -> dict[str, Game]:
    """The games of the saved store, as this build loads them (nothing set aside; a later format's
    migration may note that it updated them)."""
    loaded = storage.load(_read(IN_PLAY / "store.json")["saved"])
    assert loaded.set_aside == [] and not loaded.readonly
    return {g.system: g for g in loaded.store.games}


def extra(g: Game, ref: str) -> dict[str, Any]:
    return g.unit(ref)[2].state.extra


# --- saves and links of games in play, made by the current release ------------------------------


def test_a_saved_gunframe_game_in_play_reads_every_value_exactly() -> None:
    g = saved_games()["gunframe"]
    a = GfUnitState.of(g.unit("0/a")[2])
    assert a.nemesis == "1/t" and a.systems_used == ["short"]
    assert a.split == SplitShare(weapon="short", value=3, sent=1, targets=["1/t"])  # L2462: 2 dice owed
    b = GfUnitState.of(g.unit("0/b")[2])
    assert (b.reacted, b.fp_spent, b.links_used) == (True, 1, {"buddies": 7})
    assert GfUnitState.of(g.unit("0/c")[2]).reboot == 1
    assert GfUnitState.of(g.unit("0/d")[2]).form == 1 and form_of(g.unit("0/d")[2]) == 1
    e = GfUnitState.of(g.unit("0/e")[2])
    assert (e.inside, e.entered_building) == ("1/st1", 1)
    assert [GfUnitState.of(g.unit(r)[2]).combined_into for r in ("0/f", "0/g")] == ["0/h", "0/h"]
    h = GfUnitState.of(g.unit("0/h")[2])
    assert (h.used, h.team) == (["combine"], ["0/f", "0/g"])
    t = GfUnitState.of(g.unit("1/t")[2])
    assert (t.locked, t.evaded) == (True, True)
    assert GfUnitState.of(g.unit("1/w")[2]).power == HeldPower(
        points=3, target="0/b", weapon="short", close=False, damage=3, destroyed=False
    )
    assert [is_convoy(g.unit(f"1/cv{n}")[2]) for n in (1, 2, 3)] == [True, True, True]
    assert not is_convoy(g.unit("1/t")[2])


def test_the_gunframe_golden_game_holds_every_kind_of_value_the_model_names() -> None:
    """So a later change of any field's shape is caught by a file players could have kept."""
    g = saved_games()["gunframe"]
    held = {key for side in g.sides for u in side.units for key in u.state.extra}
    # left_building needs a unit out of a building a turn after it went in (L2938): not in the file
    assert held == set(GfUnitState.model_fields) - {"left_building"}


def test_a_saved_gundam_skirmish_battle_reads_its_pilot_and_reloads() -> None:
    g = saved_games()["gundam_skirmish"]
    lancer = GsUnitState.of(g.unit("0/l")[2])
    assert lancer.pilot == Pilot(health=2, mind=3)  # Destruction Table 2: -4 Health, -3 Mind (L1137-L1145)
    assert lancer.equipped == "Beam rifle" and lancer.reload == {} and lancer.once == []
    gunner = GsUnitState.of(g.unit("1/h")[2])
    assert gunner.reload == {"Rotary cannon": True}  # fired: reload first (L730-L731)
    assert GsUnitState.of(g.unit("0/g")[2]).pilot is None


def test_a_saved_msb_duel_reads_its_piles() -> None:
    g = saved_games()["ms_battles"]
    ann = SuitPlay.model_validate(extra(g, "0/a"))
    assert (ann.planned, ann.revealed, ann.hand) == ([8, 3], True, [])
    assert ann.resolved == [Resolved(card=8, init=8, by=0, step=1)]
    assert SuitPlay.model_validate(extra(g, "1/t")).discard == [11]


@pytest.mark.parametrize("name", ["gunframe", "gundam_skirmish", "msb"])
def test_a_link_to_a_game_in_play_opens_with_the_values_it_held(name: str) -> None:
    data = _read(IN_PLAY / f"token-game-{name}.json")
    game = share.decode(data["token"]).game
    assert game is not None
    model = implementation(game.system).unit_state_model
    assert model is not None
    want = data["means"]["game"]
    for s, side in enumerate(game.sides):
        for u, unit in enumerate(side.units):
            assert unit.state.extra == want["sides"][s]["units"][u]["state"]["extra"]
            model.model_validate(unit.state.extra)


def test_saved_games_in_play_play_on() -> None:
    games = saved_games()
    # Wes spends 2 of the 3 power points it held against Bea on Knock Down (L1188-1196, L1282)
    spend = {"attacker": "1/w", "spend": [{"power": "knock_down"}]}
    gf = act(games["gunframe"], "power", spend, TypedDice([]))
    assert (
        gf.log[-1].text == "Wes spends power on Knock Down; Bea is knocked down (drops anything it carries)"
    )
    assert gf.unit("0/b")[2].state.conditions == ["knocked_down"]
    assert extra(gf, "1/w") == {"systems_used": ["short"]}  # the points are spent
    # the Heavy Gunner reloads its Rotary cannon (L730-L731)
    gs = act(games["gundam_skirmish"], "reload", {"unit": "1/h"}, TypedDice([]))
    assert GsUnitState.of(gs.unit("1/h")[2]).reload == {"Rotary cannon": False}


def test_every_unit_of_every_golden_file_fits_its_model() -> None:
    """Saves and links of every release (games just begun too) read under today's models."""
    checked = 0
    for path in sorted(GOLDEN.glob("v*/*.json")):
        means = _read(path)["means"]
        games = means.get("store", {}).get("games", []) + ([means["game"]] if means.get("game") else [])
        for g in games:
            model = implementation(g["system"]).unit_state_model
            assert model is not None
            for side in g["sides"]:
                for unit in side["units"]:
                    model.model_validate(unit["state"]["extra"])
                    checked += 1
    assert checked >= 40


# --- what is tolerated, each case on its own --------------------------------------------------------


def test_an_msb_suit_saved_before_drawn_and_seen_below_reads_them_as_not_yet() -> None:
    """The store of build 0.1.0 has no ``drawn`` nor ``seen_below``: their defaults are what it meant."""
    old = _read(GOLDEN / "v0.1.0" / "store.json")["saved"]["games"][1]["sides"][0]["units"][0]["state"]
    assert "drawn" not in old["extra"] and "seen_below" not in old["extra"]
    play = SuitPlay.model_validate(old["extra"])
    assert (play.drawn, play.seen_below, play.hand) == (False, [], [8, 3, 6, 5, 15])


def test_a_gunframe_unit_with_no_values_yet_reads_the_defaults() -> None:
    """A unit keeps only what a rule has set: an empty dict means nothing held, spent or used."""
    fresh = GfUnitState.model_validate({})
    assert (fresh.form, fresh.fp_spent, fresh.reacted, fresh.power, fresh.used, fresh.split) == (
        0,
        0,
        False,
        None,
        [],
        None,
    )


def test_a_gunframe_form_beyond_the_units_forms_reads_as_the_first() -> None:
    """As before the model: a form number the unit does not have (a profile edited) is its first form."""
    g = saved_games()["gunframe"]
    s, u, _ = g.unit("0/a")
    g = adjust(g, [Change(path=["sides", s, "units", u, "state", "extra", "form"], value=3)])
    assert form_of(g.unit("0/a")[2]) == 0


def test_a_game_of_a_system_this_build_does_not_play_keeps_its_units_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A newer build's system (or a planned one): its values are its own, kept as they are."""
    monkeypatch.delitem(core.systems.IMPLEMENTATIONS, "skirmishers")  # as a build before it was built
    raw = _read(IN_PLAY / "store.json")["saved"]["games"][0]
    raw = {**raw, "id": "later", "system": "skirmishers"}
    raw["sides"][0]["units"][0]["state"]["extra"] = {"evade_chain": [3, 7], "momentum": 2}
    out = storage.load({"schema_version": storage.STORE_SCHEMA, "games": [raw]})
    assert out.set_aside == []
    assert out.store.games[0].sides[0].units[0].state.extra == {"evade_chain": [3, 7], "momentum": 2}


# --- what is refused: short messages, never the value, nothing lost ------------------------------------

SECRET = "Z" * 300


def _broken(path: list[str], value: Any) -> dict[str, Any]:
    raw = _read(IN_PLAY / "store.json")["saved"]["games"][0]
    unit = raw["sides"][1]["units"][3]["state"]["extra"]  # Wes, holding power
    target = unit
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return raw


@pytest.mark.parametrize(
    ("path", "value", "reason"),
    [
        (
            ["power", "points"],
            SECRET,
            "power.points: Input should be a valid integer, unable to parse string as an integer",
        ),
        ([SECRET], 1, "a key it does not know"),
        (["power", SECRET], 1, "power: a key it does not know"),
        (["systems_used"], [SECRET], "systems_used.0: Input should be 'close', 'short', 'medium' or 'long'"),
    ],
)
def test_a_saved_game_whose_unit_values_do_not_fit_is_set_aside_whole(
    path: list[str], value: Any, reason: str
) -> None:
    raw = _broken(path, value)
    out = storage.check([storage.Record(kind="games", id=raw["id"], format=storage.STORE_SCHEMA, data=raw)])
    assert out.kept == []
    (aside,) = out.set_aside
    assert aside.raw == raw and aside.id == raw["id"]  # kept verbatim, for the player to export
    assert aside.reason == f"Value error, side 2, unit 4 has a state GUNFRAME cannot read ({reason})"
    assert SECRET not in aside.reason


def test_the_engine_refuses_a_game_whose_unit_values_do_not_fit_without_echoing_them() -> None:
    raw = _broken(["power", "points"], SECRET)
    reply = json.loads(api.handle(json.dumps({"op": "game.undo", "args": {"game": raw}})))
    assert reply["ok"] is False and reply["error"]["code"] == "invalid"
    assert reply["error"]["message"] == (
        "side 2, unit 4 has a state GUNFRAME cannot read "
        "(power.points: Input should be a valid integer, unable to parse string as an integer)"
    )
    assert SECRET not in json.dumps(reply)


def test_a_link_whose_unit_values_do_not_fit_is_refused_as_damaged() -> None:
    g = saved_games()["gunframe"]
    g.sides[1].units[3].state.extra["power"]["points"] = SECRET  # past the checks, as a forged link would be
    with pytest.raises(share.ShareError) as refused:
        share.decode(share.encode_game(g))
    assert str(refused.value) == "This link is damaged: its game cannot be read."


def test_a_manual_change_cannot_give_a_unit_a_value_its_system_cannot_read() -> None:
    g = saved_games()["gunframe"]
    s, u, _ = g.unit("0/a")
    for path, value in ((["form"], "jet"), (["power"], {"points": 1}), (["speed"], 5)):
        with pytest.raises(ValueError, match="side 1, unit 1 has a state GUNFRAME cannot read"):
            adjust(g, [Change(path=["sides", s, "units", u, "state", "extra", *path], value=value)])
    assert (
        adjust(g, [Change(path=["sides", s, "units", u, "state", "extra", "fp_spent"], value=2)])
        .unit("0/a")[2]
        .state.extra["fp_spent"]
        == 2
    )


# --- the models ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        (GfUnitState, 18),
        (GsUnitState, 8),
        (SuitPlay, 11),
    ],
)
def test_each_model_describes_every_field(model: type[BaseModel], fields: int) -> None:
    schema = model.model_json_schema()
    assert len(schema["properties"]) == fields
    assert all(p.get("description") for p in schema["properties"].values())
    assert schema.get("additionalProperties") is False  # an unknown key is refused, not kept silently
