"""Saved data, record by record (core/storage.py), against saves made by the first release.

tests/golden/v1_*.json are what the localStorage release (commit f570976) left in a real
browser (tests/golden/make_v1_saves.py): they must load with nothing lost.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from core import api
from core.game import upgrade
from core.storage import STORE_SCHEMA, Record, check, load

GOLDEN = Path(__file__).resolve().parent / "golden"


def golden(name: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((GOLDEN / f"{name}.json").read_text())
    return data


def legacy_store(name: str = "v1_store") -> dict[str, Any]:
    data: dict[str, Any] = json.loads(golden(name)["tc.store"])
    return data


def kept_whole(loaded: Any, raw: Any) -> bool:
    """Every value ``raw`` held is in ``loaded`` (which may add defaults the release left out)."""
    if isinstance(raw, dict):
        return isinstance(loaded, dict) and all(
            k in loaded and kept_whole(loaded[k], v) for k, v in raw.items()
        )
    if isinstance(raw, list):
        return isinstance(loaded, list) and len(loaded) == len(raw) and all(map(kept_whole, loaded, raw))
    return bool(loaded == raw)


def upgraded(store: dict[str, Any]) -> dict[str, Any]:
    """The release's store as the current format has it: its games upgraded (core.game.upgrade)."""
    return {**store, "games": [upgrade(g) for g in store["games"]]}


def records(store: dict[str, Any]) -> list[Record]:
    return [
        Record(kind=kind, id=item["id"], format=store["schema_version"], data=item)
        for kind in ("squads", "units", "games")
        for item in store[kind]
    ]


def test_the_first_releases_save_loads_whole() -> None:
    raw = legacy_store()
    loaded = load(raw)
    assert not loaded.set_aside and not loaded.readonly
    assert [s.name for s in loaded.store.squads] == ["Red Lancers", "Blue Hammers", "New squad", "New squad"]
    assert [g.system for g in loaded.store.games] == ["gunframe", "ms_battles", "gunframe"]
    assert [g.round for g in loaded.store.games] == [3, 1, 3]
    assert len(loaded.store.units) == 1
    # Nothing the release saved is lost on the way into records.
    saved = loaded.store.model_dump(mode="json")
    assert kept_whole(saved, {**upgraded(raw), "schema_version": STORE_SCHEMA})
    assert not kept_whole(saved, {**upgraded(raw), "schema_version": STORE_SCHEMA, "units": []})


def test_every_record_of_that_save_checks_back_unchanged() -> None:
    raw = legacy_store()
    out = check(records(raw))
    assert not out.set_aside and not out.newer
    assert [(r.kind, r.id) for r in out.kept] == [(r.kind, r.id) for r in records(raw)]
    wanted = records({**upgraded(raw), "schema_version": STORE_SCHEMA})
    assert all(kept_whole(a.data, b.data) for a, b in zip(out.kept, wanted, strict=True))
    assert all(r.format == STORE_SCHEMA for r in out.kept)


def test_broken_items_the_release_set_aside_are_still_there() -> None:
    left = golden("v1_broken_items")
    aside = json.loads(left["tc.store.aside"])
    assert sorted(a["raw"]["id"] for a in aside) == ["g-broken", "s-broken", "u-broken"]
    assert all(a["reason"] for a in aside)
    assert len(load(json.loads(left["tc.store"])).store.games) == 3


def test_a_broken_record_is_set_aside_with_its_id_and_reason() -> None:
    raw = legacy_store()
    recs = records(raw)
    broken = Record(
        kind="games", id="g-broken", format=1, data={"id": "g-broken", "system": "gunframe", "sides": []}
    )
    wrong_id = Record(kind="squads", id="s-other", format=1, data=raw["squads"][0])
    out = check([*recs, broken, wrong_id])
    assert len(out.kept) == len(recs)
    assert [(a.kind, a.id) for a in out.set_aside] == [("games", "g-broken"), ("squads", "s-other")]
    assert out.set_aside[0].reason.startswith("sides")
    assert out.set_aside[1].reason == "its id does not match its record"
    assert out.set_aside[0].raw == broken.data


def test_a_record_of_a_newer_format_is_left_alone() -> None:
    raw = legacy_store()
    future = Record(kind="games", id="g-new", format=STORE_SCHEMA + 1, data={"anything": [1, 2]})
    out = check([future, *records(raw)[:1]])
    assert out.newer == ["games/g-new"] and not out.set_aside and len(out.kept) == 1


def test_the_newer_release_store_is_read_only() -> None:
    loaded = load(json.loads(golden("v1_newer")["tc.store"]))
    assert loaded.readonly and not loaded.set_aside and "newer version" in loaded.notes[0]


def test_truncated_json_the_release_hid_is_kept_whole() -> None:
    """The release moved a store it could not parse to tc.store.unreadable.<ms>: the text is all there."""
    left = golden("v1_truncated")
    hidden = [k for k in left if k.startswith("tc.store.unreadable.")]
    assert len(hidden) == 1
    full = golden("v1_store")["tc.store"]
    assert left[hidden[0]] == full[: len(full) // 2]
    assert json.loads(left["tc.store"]) == {"schema_version": 1, "squads": [], "units": [], "games": []}


def test_store_check_through_the_seam() -> None:
    raw = legacy_store()
    reply = api.call(
        "store.check",
        {
            "records": [
                {"kind": "units", "id": "x", "format": 1, "data": {"id": "x"}},
                *[r.model_dump() for r in records(raw)],
            ]
        },
    )
    assert reply["ok"]
    assert len(reply["result"]["kept"]) == 8 and reply["result"]["set_aside"][0]["id"] == "x"


def test_the_browser_store_writes_the_cores_format() -> None:
    """web/store.js stamps each record with core.storage.STORE_SCHEMA: they must agree."""
    text = (Path(__file__).resolve().parent.parent / "web" / "store.js").read_text()
    (line,) = [x for x in text.splitlines() if x.startswith("const FORMAT = ")]
    assert int(line.split("=")[1].split(";")[0]) == STORE_SCHEMA
