"""GUNFRAME's upgrade list as a checklist: the closed ids in the JSON Schema, and which upgrades
would not fit a unit as it stands (unit.check's ``unfit``), with the rulebook lines they follow."""

from __future__ import annotations

from typing import Any

from core import api
from core.systems.gunframe import GunframeUnit
from core.systems.gunframe.upgrades import UPGRADE_IDS, UPGRADES


def schema() -> dict[str, Any]:
    return api.call("system.describe", {"system": "gunframe"})["result"]["profile_schema"]


def check(profile: dict[str, Any]) -> dict[str, Any]:
    reply = api.call("unit.check", {"system": "gunframe", "profile": profile})
    assert reply["ok"], reply
    return reply["result"]


BASE = {"name": "Test", "frame": "medium", "speed": 5, "defense": 3, "armour": 8}
LOAD = {"close": 3, "short": 3, "medium": 3, "long": 3}  # Medium: 5/3/8, loadout 12 (L2140)


def test_upgrade_ids_are_a_closed_list_with_names_groups_and_fields() -> None:
    s = schema()
    assert s["properties"]["upgrades"]["x-checklist"] == "id"
    assert s["$defs"]["GunframeForm"]["properties"]["upgrades"]["x-checklist"] == "id"
    key = s["$defs"]["UpgradeRef"]["properties"]["id"]
    assert key["enum"] == list(UPGRADE_IDS)
    assert "examples" not in key
    assert key["x-labels"]["anger_issues"] == "Anger Issues"
    assert key["x-labels"]["extreme_range"] == "Extreme Range"
    assert key["x-groups"]["ace"] == "Pilot upgrades"
    assert key["x-groups"]["heavy"] == "Frame upgrades"
    assert key["x-groups"]["piercing"] == "Loadout upgrades"
    # Pilot upgrades take no slot (L2202); only (N) upgrades take a count (L2288).
    assert key["x-fields"]["ace"] == ["n"]
    assert key["x-fields"]["hero"] == []
    assert key["x-fields"]["heavy"] == ["slot"]
    assert "piercing" in key["x-repeat"] and "heavy" not in key["x-repeat"] and "ace" not in key["x-repeat"]
    assert set(key["x-labels"]) == set(key["x-groups"]) == set(UPGRADES)
    # Where each may sit: Heavy on Armour or Speed, Extreme Range on Long only (L2266, L2272).
    assert key["x-choices"]["heavy"] == {"slot": ["armour", "speed"]}
    assert key["x-choices"]["extreme_range"] == {"slot": ["long"]}
    assert key["x-choices"]["piercing"] == {"slot": ["close", "short", "medium", "long"]}
    assert "ace" not in key["x-choices"]


def test_frame_and_skill_choices_have_labels() -> None:
    props = schema()["properties"]
    assert props["frame"]["x-labels"]["super_heavy"] == "Super Heavy"
    assert props["skill"]["x-labels"] == {"3": "3+", "4": "4+"}


def test_the_stored_value_stays_the_id_string_and_unknown_ids_stay_a_violation() -> None:
    unit = GunframeUnit.model_validate({**BASE, **LOAD, "upgrades": [{"id": "deflect"}]})
    assert unit.model_dump(mode="json")["upgrades"] == [{"id": "deflect", "slot": None, "n": 1}]
    # An old save naming an id the lists do not know still opens; the check names it (L2262).
    r = check({**BASE, **LOAD, "upgrades": [{"id": "warp_drive"}]})
    assert [v["rule"] for v in r["violations"]] == ["unknown-upgrade"]


def test_a_taken_frame_value_greys_what_would_go_there() -> None:
    r = check({**BASE, **LOAD, "upgrades": [{"id": "deflect", "slot": "defense"}]})
    unfit = r["unfit"]["upgrades"]
    # One upgrade per frame value (L2210): Chaff is Defense only.
    assert unfit["chaff"] == "Defense already has an upgrade"
    assert "deflect" not in unfit  # it is ticked
    assert "agile" not in unfit and "heavy" not in unfit  # Speed and Armour are free
    r = check({**BASE, **LOAD, "upgrades": [{"id": "agile", "slot": "speed"}, {"id": "stabilised"}]})
    assert r["unfit"]["upgrades"]["heavy"] == "Armour and Speed already have an upgrade"


def test_loadout_upgrades_grey_only_when_their_systems_are_full() -> None:
    full = [{"id": "piercing", "slot": w} for w in ("close", "short", "medium")]
    r = check({**BASE, **LOAD, "upgrades": [*full, {"id": "blast", "slot": "long"}]})
    unfit = r["unfit"]["upgrades"]
    assert unfit["piercing"] == "Every weapon system already has an upgrade"  # L2216
    assert unfit["extreme_range"] == "Long only, and long already has an upgrade"  # L2272
    r = check({**BASE, **LOAD, "upgrades": full})
    assert "piercing" not in r["unfit"]["upgrades"]  # Long is free: it may be bought again there
    assert "extreme_range" not in r["unfit"]["upgrades"]
    assert r["unfit"]["upgrades"]["parry"] == "Close only, and close already has an upgrade"


def test_conventional_units_and_further_forms_take_no_pilot_upgrades() -> None:
    tank = check({"name": "T", "frame": "tank", "speed": 5, "defense": 2, "armour": 3, "short": 3})
    assert tank["violations"] == []
    assert tank["unfit"]["upgrades"]["ace"] == "Conventional units take no pilot upgrades"  # L2683
    form = {"speed": 5, "defense": 3, **LOAD}
    r = check({**BASE, **LOAD, "forms": [form]})
    assert r["unfit"]["forms.0.upgrades"]["ace"] == "Pilot upgrades go with the first form"  # L2258
    assert "ace" not in r["unfit"]["upgrades"]
    assert "agile" not in r["unfit"]["forms.0.upgrades"]


def test_a_combined_form_holds_two_upgrades_per_value() -> None:
    # L2512: two per system on a combined form.
    from core.systems.gunframe.building import unfit_choices

    one = GunframeUnit.model_validate({**BASE, **LOAD, "combined_members": 2, "upgrades": [{"id": "agile"}]})
    assert "fast" not in unfit_choices(one)["upgrades"]
    two = GunframeUnit.model_validate(
        {**BASE, **LOAD, "combined_members": 2, "upgrades": [{"id": "agile"}, {"id": "fast"}]}
    )
    assert unfit_choices(two)["upgrades"]["all_terrain"] == "Speed already has two upgrades"
