"""Golden GUNFRAME games of game schema 2, whose game-wide values sit in ``Game.options``.

Run once, with the code of commit "golden: GUNFRAME games of schema 2" (before GUNFRAME's game-wide
values moved to ``Game.state``), to write ``tests/golden/v0.1.0-store2-gf/``: saved games and share
links of games with a mission, an environment, the Doomsday clock, the eye of the storm, suppression
zones, hull breaches, a darkness that lifts and a game that ended.  tests/test_golden.py opens them
with every later build (and tests/test_game_state.py plays them on).  Kept as a record: run against
a later build it would write other files, so it refuses to overwrite the folder.

    .venv/bin/python -m tests.golden.make_gf_options
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from core import share, storage
from core.dice import RandomDice, TypedDice
from core.game import Game, act, adjust, next_round
from core.systems.base import Change
from tests.gunframe_table import mech, start

HERE = Path(__file__).parent
FOLDER = HERE / "v0.1.0-store2-gf"


def _run(g: Game, action: str, faces: list[int], **raw: Any) -> Game:
    typed = TypedDice(faces)
    out = act(g, action, raw, typed)
    assert typed.left == 0
    return out


def doomsday_storm() -> Game:
    """Doomsday in a lightning storm with an eye: the clock, the calm, initiative, a suppression zone."""
    red = [mech("Ada", ("target_painting", "short")), mech("Bo")]
    g = start(red, [mech("Cy"), mech("Di")])
    g = g.model_copy(update={"id": "gf-doom", "name": "Doomsday storm"})
    g = _run(g, "mission", [], mission="doomsday", attacker_side=0)
    g = _run(g, "environment", [], environment="storm", storm_type="lightning", eye_of_the_storm=True)
    g = _run(g, "initiative", [4, 3, 3])  # clock +2; matching dice calm the storm (L2027); level: FP decide
    g = act(g, "attack", {"attacker": "0/a", "target": "1/t"}, TypedDice([6, 6, 6, 1, 1, 1]))
    g = act(
        g,
        "power",
        {"attacker": "0/a", "spend": [{"power": "suppression", "points": 1}]},
        TypedDice([]),
    )
    return g


def breach_ended() -> Game:
    """A space structure torn twice: the next turn is the last, and the game ends (L2081-2085)."""
    g = start([mech("Ada"), mech("Bo")], [mech("Cy")])
    g = g.model_copy(update={"id": "gf-breach", "name": "Hull breach"})
    g = _run(g, "mission", [], mission="carnage", attacker_side=1)
    g = _run(g, "environment", [], environment="space_structure", flying_allowed=False)
    g = act(g, "initiative", {}, RandomDice(7))
    g = _run(g, "hull_breach", [1], unit="1/t")
    g = _run(g, "hull_breach", [2], unit="1/t")
    g = _run(g, "end_phase", [])
    g = act(next_round(g), "initiative", {}, RandomDice(8))
    return _run(g, "end_phase", [])


def dawn_investigate() -> Game:
    """Investigate before sunrise: a point of interest searched, the dark lifting, a manual clock."""
    g = start([mech("Ada"), mech("Bo")], [mech("Cy")], crippled_rules=True)
    g = g.model_copy(update={"id": "gf-dawn", "name": "Dawn search"})
    g = _run(g, "mission", [], mission="investigate", variant=True)
    g = _run(g, "environment", [], environment="darkness", darkness_variant="sunrise")
    g = act(g, "initiative", {}, RandomDice(9))
    g = _run(g, "investigate", [6], unit="0/a")
    g = adjust(g, [Change(path=["options", "dark_over"], value=True)], "the sun is up")
    return g


def main() -> None:
    if FOLDER.exists():
        sys.exit(f"{FOLDER} exists: golden files of a released build are never rewritten")
    games = [doomsday_storm(), breach_ended(), dawn_investigate()]
    FOLDER.mkdir()
    out: dict[str, dict[str, Any]] = {}
    for g in games[:2]:
        token = share.encode_game(g)
        out[f"token-game-{g.id}"] = {"token": token, "means": share.decode(token).model_dump(mode="json")}
    saved = {"schema_version": storage.STORE_SCHEMA, "games": [g.model_dump(mode="json") for g in games]}
    out["store-gunframe-options"] = {"saved": saved, "means": storage.load(saved).model_dump(mode="json")}
    for name, data in out.items():
        (FOLDER / f"{name}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} files to {FOLDER}")


if __name__ == "__main__":
    main()
