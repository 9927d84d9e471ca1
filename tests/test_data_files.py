"""Game content kept as JSON beside the modules (core/systems/data.py): read, validated, described."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from core.systems import implementation
from core.systems.base import Sheet
from core.systems.data import load
from core.systems.gundam_skirmish.catalogue import RANGED
from core.systems.gundam_skirmish.samples import SAMPLES
from core.systems.gunframe.examples import EXAMPLE_UNITS, PRINTED_POINTS
from core.systems.gunframe.structures import STRUCTURES


@pytest.fixture
def package(tmp_path: Path) -> Iterator[Path]:
    """An importable package ``datapkg`` in a temporary folder, removed from sys.modules afterwards."""
    folder = tmp_path / "datapkg"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    sys.path.insert(0, str(tmp_path))
    yield folder
    sys.path.remove(str(tmp_path))
    for name in [m for m in sys.modules if m == "datapkg" or m.startswith("datapkg.")]:
        del sys.modules[name]


READINGS = """
from core.systems.base import Readings

class House(Readings):
    strict: bool = False
    reach: int = 1
"""


def test_readings_take_their_texts_from_options_json(package: Path) -> None:
    (package / "options.json").write_text(json.dumps({"strict": "Only a six counts.", "reach": "Steps."}))
    (package / "options.py").write_text(READINGS)
    house = importlib.import_module("datapkg.options").House
    schema = house.model_json_schema()["properties"]
    assert schema["strict"] == {
        "default": False,
        "description": "Only a six counts.",
        "title": "Strict",
        "type": "boolean",
    }
    assert schema["reach"]["description"] == "Steps."
    with pytest.raises(ValidationError):
        house(other=True)


@pytest.mark.parametrize(
    "texts", [{"strict": "Only a six counts."}, {"strict": "a", "reach": "b", "gone": "a reading removed"}]
)
def test_a_reading_and_its_text_must_match_one_to_one(package: Path, texts: dict[str, str]) -> None:
    (package / "options.json").write_text(json.dumps(texts))
    (package / "options.py").write_text(READINGS)
    with pytest.raises(ValueError, match=r"House: options\.json does not describe exactly its fields"):
        importlib.import_module("datapkg.options")


def test_a_mistyped_data_file_stops_the_load(package: Path) -> None:
    (package / "sheet.json").write_text(json.dumps({"tracked": [{"key": "x", "label": "X", "kind": "dial"}]}))
    with pytest.raises(ValidationError, match="kind"):
        load("datapkg", "sheet.json", Sheet)
    (package / "sheet.json").write_text(json.dumps({"tracked": [], "extra_table": []}))
    with pytest.raises(ValidationError, match="extra_table"):
        load("datapkg", "sheet.json", Sheet)


def test_each_system_reads_its_sheet_from_its_package() -> None:
    gunframe = implementation("gunframe")
    assert gunframe.info.id == "gunframe"
    assert [r.key for r in gunframe.resources][:2] == ["focus_points", "victory_points"]
    msb = implementation("ms_battles")
    assert [t.key for t in msb.tracked] == [
        "high",
        "mid",
        "low",
        "high_penalty",
        "mid_penalty",
        "low_penalty",
    ]
    assert implementation("gundam_skirmish").tracked[0].label == "Leg/Engine damage"


def test_gundam_samples_build_their_weapons_from_the_guideline_rows() -> None:
    """samples.json names rows: the Lancer's beam rifle has the beam rifle row's numbers (L2568-L2569)."""
    rifle = next(r for r in RANGED if r.key == "beam_rifle")
    weapon = SAMPLES["lancer"].weapons[0]
    assert (weapon.name, weapon.acc, weapon.crit, weapon.dam, weapon.range_min, weapon.range_max) == (
        "Beam rifle",
        rifle.acc,
        rifle.crit,
        rifle.dam,
        12,
        36,
    )
    assert (weapon.tags, weapon.equip) == (["P"], "C")
    assert SAMPLES["gun_tank"].weapons[0].equip == "M"


def test_gunframe_example_units_come_from_the_data_file_in_book_order() -> None:
    """58 units, the first and last of the lists (L3076, L3193), with their printed points."""
    assert len(EXAMPLE_UNITS) == 58
    assert (EXAMPLE_UNITS[0].id, EXAMPLE_UNITS[0].ref, PRINTED_POINTS["lynx"]) == ("lynx", "L3076", 9)
    assert (EXAMPLE_UNITS[-1].name, EXAMPLE_UNITS[-1].ref, PRINTED_POINTS["rogue_drone"]) == (
        "Rogue Drone",
        "L3193",
        5,
    )


def test_gunframe_structures_come_from_the_data_file() -> None:
    """The gun emplacement (L1941-1947): Defense 3, Armour 8, a turreted Short 3 gun."""
    gun = STRUCTURES["gun_emplacement"]
    assert (gun.defense, gun.armour, gun.short, gun.upgrades, gun.building) == (
        3,
        8,
        3,
        (("turreted", "short"),),
        False,
    )
    assert list(STRUCTURES)[:4] == ["civilian", "hard_civilian", "military", "hard_military"]
    assert (STRUCTURES["hard_military"].armour, STRUCTURES["hard_military"].ref) == (12, "L2907, L2915")
