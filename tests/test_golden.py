"""Formats players keep: share links and saves made by an older build open with the same meaning.

``tests/golden/v<version>/`` holds files written by ``tests/golden/generate.py`` with the code of
that version (never rewritten): each is what a player kept (a token in a link, a saved store) and
what it meant then.  Every later build must read it to exactly that meaning.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core import share, storage

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("v*/*.json"))
TOKENS = [f for f in FILES if f.name.startswith("token-")]
STORES = [f for f in FILES if f.name.startswith("store")]


def _read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


# --- the format's history: each change of a kept format adds a step here, written out, so that a
# meaning can change only on purpose (the code's own migration is never used to compute these).

#: Game schema 2 (build 0.1.0+): the typed game-wide state, at its defaults for an older game.
STATE_DEFAULTS = {
    "mission": "",
    "environment": "",
    "clocks": {},
    "active_side": None,
    "ended": False,
    "winners": [],
    "extra": {},
}


#: Game schema 3 (store 3): GUNFRAME's game-wide values leave its options for the state: the mission,
#: environment and end to the shared fields, the Doomsday clock to ``clocks``, the rest to ``extra``.
GUNFRAME_EXTRA = {
    "variant": False,
    "basic_mission": None,
    "attacker_side": None,
    "initiative_side": None,
    "interest_left": 6,
    "prize_found": False,
    "result": "",
    "suppression": [],
    "storm_type": None,
    "eye_of_the_storm": False,
    "storm_calm": False,
    "darkness_variant": None,
    "dark_over": False,
    "flying_allowed": True,
    "hull_breaches": 0,
    "last_turn": None,
}


def _gf_where(key: str, value: Any) -> tuple[list[Any], Any] | None:
    """Where a GUNFRAME option of schema 2 lives in schema 3, and its value there (None: a reading)."""
    if key in ("mission", "environment"):
        return ["state", key], value or ""
    if key == "clock":
        return ["state", "clocks"], {} if value is None else {"doomsday_clock": value}
    if key == "ended":
        return ["state", "ended"], bool(value)
    if key in GUNFRAME_EXTRA:
        return ["state", "extra", key], GUNFRAME_EXTRA[key] if value is None else value
    return None


def _gf_winners(result: str, names: list[str]) -> list[int]:
    return [n for n, name in enumerate(names) if result.startswith(f"{name} wins")]


def _gf_step(new: dict[str, Any], old: dict[str, Any], names: list[str]) -> list[tuple[Any, Any, Any]]:
    """One logged change of options, as (path, value, before) in schema 3."""
    out: list[tuple[Any, Any, Any]] = []
    for key in sorted({*new, *old}):
        where = _gf_where(key, new.get(key))
        if where is None:
            continue
        path, value = where
        before = _gf_where(key, old.get(key))[1]  # type: ignore[index]
        if value != before:
            out.append((path, value, before))
        if key == "ended":
            won = _gf_winners(new.get("result") or "", names) if value else []
            was = _gf_winners(old.get("result") or "", names) if before else []
            if won != was:
                out.append((["state", "winners"], won, was))
    return out


def _gf_event(event: dict[str, Any], names: list[str]) -> dict[str, Any]:
    changes, before = [], []
    for change, was in zip(event["changes"], event["before"], strict=True):
        path = change["path"]
        if path == ["options"]:
            kept = [{k: v for k, v in d.items() if _gf_where(k, v) is None} for d in (change["value"], was)]
            steps = [(["options"], kept[0], kept[1])] if kept[0] != kept[1] else []
            steps += _gf_step(change["value"], was, names)
        elif path[0] == "options" and _gf_where(path[1], None) is not None:
            steps = _gf_step({path[1]: change["value"]}, {} if was is None else {path[1]: was}, names)
        else:
            steps = [(path, change["value"], was)]
        for p, v, b in steps:
            changes.append({"path": p, "value": v})
            before.append(b)
    return {**event, "changes": changes, "before": before}


def gunframe_3(game: dict[str, Any]) -> dict[str, Any]:
    options, state = dict(game["options"]), dict(game["state"])
    extra = {**GUNFRAME_EXTRA, **state["extra"]}
    for key in list(options):
        if key in ("mission", "environment"):
            state[key] = options.pop(key) or ""
        elif key == "clock":
            state["clocks"] = {**state["clocks"], "doomsday_clock": options.pop(key)}
        elif key == "ended":
            state["ended"] = bool(options.pop(key))
        elif key in GUNFRAME_EXTRA:
            extra[key] = options.pop(key)
    names = [side["name"] for side in game["sides"]]
    if state["ended"]:
        state["winners"] = _gf_winners(extra["result"], names)
    log = [_gf_event(e, names) for e in game["log"]]
    return {**game, "options": options, "state": {**state, "extra": extra}, "log": log}


def game_today(game: dict[str, Any]) -> dict[str, Any]:
    """An old game's meaning in today's format."""
    if game["schema_version"] < 2:
        game = {**game, "schema_version": 2, "state": STATE_DEFAULTS}
    if game["schema_version"] < 3:
        game = {**(gunframe_3(game) if game["system"] == "gunframe" else game), "schema_version": 3}
    return game


def shared_today(means: dict[str, Any]) -> dict[str, Any]:
    """An old token's meaning in today's format (no notes: nothing had to be shortened to open it; no
    campaign or battle result, kinds that came later)."""
    means = {"campaign": None, "result": None, **means, "notes": means.get("notes", [])}
    if means.get("request"):
        # a binding gained "auto" (act once enough are picked), False unless a system sets it
        picks = [
            {**p, "section": {**p["section"], "bind": {"auto": False, **p["section"]["bind"]}}}
            if p["section"].get("bind")
            else p
            for p in means["request"]["picks"]
        ]
        means = {**means, "request": {**means["request"], "picks": picks}}
    if means["game"] is not None:
        return {**means, "game": game_today(means["game"])}
    return means


def test_there_are_golden_files_of_every_kind_players_keep() -> None:
    kinds = {_read(f)["means"]["kind"] for f in TOKENS}
    assert kinds == {"squad", "game", "request"}
    assert {f.name for f in TOKENS if "squad" in f.name} == {
        "token-squad-gunframe.json",
        "token-squad-msb.json",
    }
    assert STORES


@pytest.mark.parametrize("path", TOKENS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_an_old_share_link_opens_with_the_same_meaning(path: Path) -> None:
    data = _read(path)
    assert share.decode(data["token"]).model_dump(mode="json") == shared_today(data["means"])


@pytest.mark.parametrize("path", TOKENS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_what_an_old_link_held_shares_again_to_the_same_meaning(path: Path) -> None:
    """Today's encoder may pack differently, but what it packs still means the same."""
    means = share.Shared.model_validate(_read(path)["means"])
    if means.squad is not None:
        token = share.encode_squad(means.squad)
    elif means.game is not None:
        token = share.encode_game(means.game)
    else:
        assert means.request is not None
        token = share.encode_request(means.request)
    assert share.decode(token).model_dump(mode="json") == shared_today(_read(path)["means"])


@pytest.mark.parametrize("path", STORES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_an_old_save_loads_with_the_same_meaning_and_nothing_set_aside(path: Path) -> None:
    data = _read(path)
    loaded = storage.load(data["saved"])
    assert loaded.set_aside == []
    assert loaded.readonly is False
    # the store keeps the same squads, units and games (a newer schema number only)
    got = loaded.model_dump(mode="json")["store"]
    want = data["means"]["store"]
    saved_as = data["saved"]["schema_version"]
    want = {**want, "schema_version": 3, "games": [game_today(g) for g in want["games"]], "campaigns": []}
    assert got == want
    assert loaded.notes == [f"Saved data was updated to format {n}." for n in range(saved_as + 1, 4)]


def test_reordering_a_catalogue_does_not_change_what_an_old_link_means(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Packing may number catalogue entries, but by a frozen table, not by catalogue position."""
    from core.systems.gunframe import building, catalogue, upgrades

    for module in (building, upgrades):
        monkeypatch.setattr(module, "UPGRADE_IDS", tuple(reversed(upgrades.UPGRADE_IDS)))
    for module in (building, catalogue):
        monkeypatch.setattr(module, "SLOTS", tuple(reversed(catalogue.SLOTS)))
    for path in TOKENS:
        data = _read(path)
        assert share.decode(data["token"]).model_dump(mode="json") == shared_today(data["means"]), path.name


def test_the_frozen_packing_tables_cover_the_catalogue_and_only_grow() -> None:
    """A new frame, slot or upgrade is appended to the tables; the first entries never move."""
    from core.systems.gunframe import catalogue, pack_ids, upgrades

    assert set(catalogue.FRAMES) <= set(pack_ids.FRAME_NUMBERS)
    assert set(catalogue.SLOTS) <= set(pack_ids.SLOT_NUMBERS)
    assert set(upgrades.UPGRADE_IDS) <= set(pack_ids.UPGRADE_NUMBERS)
    assert pack_ids.FRAME_NUMBERS[:3] == ("scout", "light", "medium")
    assert pack_ids.SLOT_NUMBERS == ("speed", "defense", "armour", "close", "short", "medium", "long")
    assert len(pack_ids.UPGRADE_NUMBERS) == len(set(pack_ids.UPGRADE_NUMBERS)) >= 76
