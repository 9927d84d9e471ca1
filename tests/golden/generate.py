"""Write the golden files of the formats players keep, as the code of today makes them.

Run once per change of a kept format (``.venv/bin/python -m tests.golden.generate``): it writes
a NEW folder named after the engine version and the store schema and refuses to overwrite one,
because the files of an old build are the point: ``tests/test_golden.py`` checks that every
later build opens them with the same meaning.  Each file holds what was kept (a share token or
a saved store) and what it meant when it was made (the decoded squad, game or store, as JSON).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from core import __version__, remote, share, storage
from core.dice import RandomDice, TypedDice
from core.game import Game, act, adjust, new_game, step_back
from core.squad import Squad, SquadUnit
from core.systems import implementation
from core.systems.base import Change

HERE = Path(__file__).parent


def _catalogue(system_id: str, ids: list[str]) -> list[dict[str, Any]]:
    units = {u.id: u.profile for u in implementation(system_id).catalogue()}
    return [units[i] for i in ids]


def gunframe_squad() -> Squad:
    """Printed units (upgrades by catalogue position, forms, a combined unit) and an own unit."""
    profiles = _catalogue(
        "gunframe", ["blood_hound", "bison", "mustang_fury", "alpha_guardian", "eagle", "carrus"]
    )
    own = {
        "name": "Golden Own",
        "frame": "medium",
        "armour": 8,
        "speed": 5,
        "defense": 3,
        "close": 3,
        "short": 3,
        "medium": 3,
        "long": 3,
        "pilot": "Ada",
        "skill": 3,
        "upgrades": [{"id": "armour_plating", "n": 2}],
    }
    units = [SquadUnit(key=f"u{i + 1}", profile=p) for i, p in enumerate([*profiles, own])]
    units.append(SquadUnit(key="mine", profile=profiles[0]))
    return Squad(id="gf", name="Golden GUNFRAME", system="gunframe", limit=400, units=units)


def msb_squad() -> Squad:
    from core.systems.ms_battles import sample

    own = sample.DECK_B.model_copy(deep=True)
    cards = list(own.cards)
    cards[0] = cards[0].model_copy(update={"name": "Golden Strike", "id": "OWN-1"})
    own = own.model_copy(update={"name": "Golden Own Suit", "cards": cards})
    units = [
        SquadUnit(key="u1", profile=sample.DECK_A.model_dump(mode="json")),
        SquadUnit(key="u2", profile=own.model_dump(mode="json")),
    ]
    return Squad(id="msb", name="Golden MSB", system="ms_battles", units=units)


def gunframe_game() -> Game:
    sq = gunframe_squad()
    red = sq.model_copy(update={"units": sq.units[:2]})
    blue = sq.model_copy(update={"units": sq.units[4:6]})
    g = new_game("gf-game", "Golden game", [("Red", red), ("Blue", blue)])
    g = act(g, "initiative", {"attacker_side": 0}, TypedDice([5, 2]))
    g = act(g, "attack", {"attacker": "0/u1", "target": "1/u5"}, RandomDice(11))
    g = adjust(g, [Change(path=["sides", 1, "resources", "victory_points"], value=1)], "by hand")
    g = act(g, "attack", {"attacker": "0/u2", "target": "1/u6"}, RandomDice(12))
    return step_back(g)  # the last attack undone: kept in the log for redo


def msb_game() -> Game:
    sq = msb_squad()
    a = sq.model_copy(update={"units": sq.units[:1]})
    b = sq.model_copy(update={"units": sq.units[1:]})
    g = new_game("msb-game", "Golden duel", [("Ann", a), ("Ben", b)])
    g = act(g, "setup", {}, RandomDice(3))
    g = act(g, "draw", {"unit": "0/u1"}, RandomDice(4))
    g = act(g, "draw", {"unit": "1/u2"}, RandomDice(5))
    return g


def cases() -> dict[str, dict[str, Any]]:
    gf, msb = gunframe_squad(), msb_squad()
    gfg, msbg = gunframe_game(), msb_game()
    out: dict[str, dict[str, Any]] = {}
    for name, token in {
        "token-squad-gunframe": share.encode_squad(gf),
        "token-squad-msb": share.encode_squad(msb),
        "token-game-gunframe": share.encode_game(gfg),
        "token-game-msb": share.encode_game(msbg),
    }.items():
        out[name] = {"token": token, "means": share.decode(token).model_dump(mode="json")}
    req = remote.request(msbg, 0)
    token = share.encode_request(req)
    out["token-request-msb"] = {"token": token, "means": share.decode(token).model_dump(mode="json")}
    saved = {
        "schema_version": storage.STORE_SCHEMA,
        "squads": [gf.model_dump(mode="json"), msb.model_dump(mode="json")],
        "units": [{"id": "own1", "system": "gunframe", "profile": gf.units[6].profile}],
        "games": [gfg.model_dump(mode="json"), msbg.model_dump(mode="json")],
    }
    out["store"] = {"saved": saved, "means": storage.load(saved).model_dump(mode="json")}
    return out


def main() -> None:
    folder = HERE / f"v{__version__}-store{storage.STORE_SCHEMA}"
    if folder.exists():
        sys.exit(f"{folder} exists: golden files of a released build are never rewritten")
    folder.mkdir()
    for name, data in cases().items():
        (folder / f"{name}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(list(folder.iterdir()))} files to {folder}")


if __name__ == "__main__":
    main()
