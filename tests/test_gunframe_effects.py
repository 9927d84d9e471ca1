"""GUNFRAME's upgrades and power attacks are data: each entry carries effects of a closed set of kinds
(core/systems/gunframe/effects.py) or says why players apply it by hand, every kind is read by the
engine somewhere, and ids are a closed type checked at import."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import get_args

import pytest

from core import api
from core.systems.gunframe import effects
from core.systems.gunframe.effects import (
    KINDS,
    DefenseDice,
    GrantsPowerAttack,
    HaloDrop,
    Link,
    Rerolls,
    SpecialAction,
    UpgradeId,
)
from core.systems.gunframe.pack_ids import UPGRADE_NUMBERS
from core.systems.gunframe.power_attacks import POWER_ATTACKS, PowerAttackDef
from core.systems.gunframe.upgrades import (
    UPGRADE_IDS,
    UPGRADES,
    UpgradeDef,
    effects_by,
    effects_of,
    granted_by,
    has_effect,
)

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "core" / "systems" / "gunframe"
#: The modules that hold the data, not the mechanics.
DATA = {"effects.py", "catalogue.py", "upgrades.py", "power_attacks.py", "examples.py", "pack_ids.py"}


def _mechanics() -> dict[str, ast.Module]:
    return {p.name: ast.parse(p.read_text()) for p in sorted(PACKAGE.glob("*.py")) if p.name not in DATA}


def _names_read(tree: ast.Module) -> set[str]:
    """Names used in code (imports left out: importing a kind is not reading it)."""
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def _strings(tree: ast.Module) -> set[str]:
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def test_every_upgrade_has_effects_or_a_by_hand_reason() -> None:
    missing = [u.id for u in UPGRADES.values() if not u.effects and not u.by_hand.strip()]
    assert missing == []
    for u in UPGRADES.values():
        assert all(isinstance(e, effects.Effect) for e in u.effects), u.id
        assert u.by_hand == "" or (u.by_hand.endswith(".") and len(u.by_hand) > 20), u.id


def test_every_power_attack_has_effects_or_a_by_hand_reason() -> None:
    missing = [p.id for p in POWER_ATTACKS.values() if not p.effects and not p.by_hand.strip()]
    assert missing == []


def test_the_split_between_engine_and_players() -> None:
    by_hand_only = sorted(u.id for u in UPGRADES.values() if not u.effects)
    assert by_hand_only == [
        "all_terrain",
        "aquatic",
        "climb",
        "extreme_range",
        "hands",
        "impulsive",
        "turreted",
    ]
    both = sorted(u.id for u in UPGRADES.values() if u.effects and u.by_hand)
    assert both == ["fast_flyer", "guerrilla", "heavy", "recon"]
    assert sum(1 for u in UPGRADES.values() if u.effects) == 69


def test_every_effect_kind_is_read_by_the_mechanics_and_carried_by_an_entry() -> None:
    read = set().union(*(_names_read(t) for t in _mechanics().values()))
    unread = sorted(name for name in KINDS if name not in read)
    assert unread == [], f"effect kinds no hook point interprets: {unread}"
    carried = {type(e).__name__ for d in [*UPGRADES.values(), *POWER_ATTACKS.values()] for e in d.effects}
    assert sorted(set(KINDS) - carried) == [], "a kind no entry uses is dead code"
    assert carried <= set(KINDS), "an entry carries an effect that is not a registered kind"


def test_every_named_procedure_and_condition_is_read_by_the_mechanics() -> None:
    strings = set().union(*(_strings(t) for t in _mechanics().values()))
    for closed in (effects.When, effects.SpecialActionId, effects.TransformId, effects.LinkId):
        values = set(get_args(closed)) - {"always"}
        assert values - strings == set(), closed


def test_every_effect_kind_names_its_hook_and_rulebook_line() -> None:
    for name, cls in KINDS.items():
        assert cls.hook, name
        assert cls.__doc__ and re.search(r"\(L\d{2,4}", cls.__doc__), name


def test_upgrade_ids_are_a_closed_type_matching_the_catalogue_and_the_share_link_table() -> None:
    assert get_args(UpgradeId) == UPGRADE_IDS == UPGRADE_NUMBERS
    assert get_args(effects.PowerAttackId) == tuple(POWER_ATTACKS)
    assert all(p.unlocked_by is None or p.unlocked_by in UPGRADES for p in POWER_ATTACKS.values())


def test_a_misspelt_id_in_an_effect_or_an_entry_is_rejected() -> None:
    with pytest.raises(ValueError, match="'blats' is not one of"):
        GrantsPowerAttack("blats")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'lover' is not one of"):
        Link("lover")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'clse' is not one of"):
        Rerolls((1,), weapon="clse")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'infront' is not one of"):
        DefenseDice(1, when="infront")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown upgrade id 'warior'"):
        UpgradeDef("warior", "Warrior", "pilot", "L2354", "Rerolls 1s.")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown upgrade id 'warior'"):
        PowerAttackDef("run_and_gun", "Run and Gun", None, "special", "L1298", "x", unlocked_by="warior")  # type: ignore[arg-type]


def test_a_module_with_a_misspelt_effect_fails_at_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bad_upgrades.py").write_text(
        "from core.systems.gunframe.effects import SpecialAction\nLEAD = (SpecialAction('leeder'),)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match=r"SpecialAction\.action: 'leeder'"):
        importlib.import_module("bad_upgrades")


@pytest.mark.xdist_group("mypy")  # one .mypy_cache/: never two mypy runs at once (tests/test_lint.py)
def test_mypy_sees_a_misspelt_upgrade_id(tmp_path: Path) -> None:
    bad = tmp_path / "bad_ids.py"
    bad.write_text(
        textwrap.dedent(
            """
            from core.systems.gunframe.effects import GrantsPowerAttack, UpgradeId

            good: UpgradeId = "warrior"
            wrong: UpgradeId = "warior"
            power = GrantsPowerAttack("blats")
            """
        )
    )
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--follow-imports=silent", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    assert "bad_ids.py:5: error" in out and "warior" in out
    assert "bad_ids.py:6: error" in out and "blats" in out
    assert "bad_ids.py:4" not in out


def test_queries_answer_in_catalogue_order_whatever_the_order_asked() -> None:
    # Deflect sits after Dogfighter and Chaff in the catalogue (L2310, L2376, L2388).
    got = effects_by(["deflect", "chaff", "dogfighter", "unknown"], DefenseDice)
    assert [(u.id, e.when) for u, e in got] == [
        ("dogfighter", "both_flying"),
        ("chaff", "flying_vs_long"),
        ("deflect", "from_front"),
    ]
    assert effects_of(["jump", "halo"], HaloDrop) == [HaloDrop("D3"), HaloDrop("D6")]
    assert has_effect({"mechanic"}, SpecialAction) and not has_effect({"warrior"}, SpecialAction)
    assert effects_of(["warrior"], Rerolls) == [Rerolls((1,), weapon="close")]


def test_special_power_attacks_are_unlocked_by_the_upgrade_that_grants_them() -> None:
    for p in POWER_ATTACKS.values():
        grant = granted_by(p.id)
        assert (grant.id if grant else None) == p.unlocked_by, p.id
        assert (p.kind == "special") == (grant is not None), p.id


def test_the_unit_card_tells_players_what_they_apply_by_hand() -> None:
    base = {"name": "Diver", "frame": "medium", "speed": 5, "defense": 3, "armour": 8}
    profile = {**base, "close": 3, "short": 3, "medium": 3, "long": 3}
    reply = api.call(
        "unit.check",
        {"system": "gunframe", "profile": {**profile, "upgrades": [{"id": "aquatic"}, {"id": "warrior"}]}},
    )
    assert reply["ok"], reply
    assert reply["result"]["card"]["notes"] == [
        "Aquatic: Water is open ground, hides it when fully submerged. (L2368) "
        "By hand: Water as open ground, and hiding when fully under it, are terrain on the table.",
        "Warrior: Rerolls 1s in Close attacks. (L2354)",
    ]
