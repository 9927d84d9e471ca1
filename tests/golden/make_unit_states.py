"""Write golden saves and links of games in play, whose units hold their systems' own values.

``tests/golden/generate.py`` keeps games just begun; these are games part-way through, so that every
kind of value a unit keeps in ``UnitState.extra`` (power held, a Split Fire owed, a nominated Nemesis,
a combined team, a building occupied, a convoy vehicle, a rebooting unit, a transformed unit, a Gundam
Skirmish pilot and reload, a Mobile Suit Battles hand...) is in a file made by the build of the day.
Run once from the build to freeze (``.venv/bin/python -m tests.golden.make_unit_states``); it refuses
to overwrite: ``tests/test_golden.py`` and ``tests/test_unit_state.py`` read the files.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from core import share, storage
from core.dice import RandomDice, TypedDice
from core.game import Game, act, adjust, new_game
from core.squad import Squad, SquadUnit
from core.systems.base import Change, NeedChoice

HERE = Path(__file__).parent
FOLDER = HERE / "v0.1.0-unit-states"

BASE: dict[str, Any] = {"frame": "medium", "speed": 5, "defense": 3, "armour": 8}
BASE.update({"close": 3, "short": 3, "medium": 3, "long": 3})
INFANTRY = {"frame": "infantry", "speed": 4, "defense": 2, "armour": 1, "close": 0, "short": 1, "medium": 1}
JET = {"speed": 8, "defense": 3, "close": 0, "short": 5, "medium": 2, "long": 0, "upgrades": [{"id": "fly"}]}


def mech(name: str, *upgrades: str | tuple[str, str], **fields: Any) -> dict[str, Any]:
    refs = [{"id": u} if isinstance(u, str) else {"id": u[0], "slot": u[1]} for u in upgrades]
    return {**BASE, "name": name, "upgrades": refs, **fields}


def squad(system: str, profiles: list[dict[str, Any]], keys: str) -> Squad:
    units = [SquadUnit(key=k, profile=p) for k, p in zip(keys, profiles, strict=False)]
    return Squad(id=f"{system}-{keys[0]}", name="Golden", system=system, units=units)


def run(g: Game, action: str, faces: list[int], **raw: Any) -> Game:
    typed = TypedDice(faces)
    out = act(g, action, raw, typed)
    assert typed.left == 0, f"{action}: every typed face is used"
    return out


def gunframe_game() -> Game:
    """Two turns' worth of GUNFRAME values on the units of one game."""
    red = [
        mech("Ann", ("split_fire", "short"), "nemesis"),
        mech("Bea", "buddies", partner="Cid"),
        mech("Cid", "buddies", partner="Bea"),
        mech("Eagle", forms=[JET]),
        {**INFANTRY, "name": "Grunts"},
        mech("Dan", "combiner"),
        mech("Eve", "combiner"),
        mech("Titan", armour=10, close=4, combined_members=2),
    ]
    blue = [mech("Tom"), mech("Uli"), mech("Vic"), mech("Wes")]
    g = new_game(
        "gf-units",
        "Golden units",
        [("Red", squad("gunframe", red, "abcdefgh")), ("Blue", squad("gunframe", blue, "tuvw"))],
    )
    g = adjust(g, [Change(path=["sides", 0, "resources", "focus_points"], value=6)], "by hand")
    g = run(g, "mission", [], mission="escort")  # Blue gets three convoy vehicles (L1886-1899)
    g = run(g, "place_structure", [], side=1, kind="civilian", count=1)
    g = run(g, "occupy", [], unit="0/e", building="1/st1")
    g = run(g, "nemesis", [], unit="0/a", target="1/t")
    g = run(g, "attack", [1, 1, 1, 1], attacker="0/a", target="1/t", split_dice=1)  # 2 dice still owed
    g = run(g, "attack", [1, 1, 1, 1, 1, 1], attacker="1/u", target="0/c")
    g = run(
        g,
        "attack",
        [1, 1, 1, 1, 1, 1],
        attacker="0/b",
        target="1/u",
        trigger="buddies",
        reaction=True,
        reaction_trigger="attacked",
    )
    g = run(g, "transform", [], unit="0/d", flight="take_off")
    g = run(g, "combine", [], leader="0/f", members=["0/g"], combined="0/h")
    g = run(g, "attack", [6, 6, 6, 1, 1, 1], attacker="1/v", target="0/c")
    g = run(g, "power", [], attacker="1/v", spend=[{"power": "shut_down"}])
    g = run(g, "reboot", [], unit="0/c")
    g = run(g, "attack", [6, 6, 6, 1, 1, 1], attacker="1/w", target="0/b")  # Wes holds power points
    g = run(g, "target_lock", [], unit="1/t", target="0/a")
    g = run(g, "evade", [], unit="1/t")
    return g


def gundam_game() -> Game:
    """Gundam Skirmish samples part-way through a battle: a character pilot hurt by the Destruction
    Table, a weapon fired that needs reloading (L730-L731)."""
    from core.systems.gundam_skirmish.samples import SAMPLES

    def sample(key: str, **changes: Any) -> dict[str, Any]:
        return SAMPLES[key].model_copy(update=changes).model_dump(mode="json")

    from core.systems.gundam_skirmish.units import Pilot

    ace = Pilot(name="Ace", health=6, mind=6)
    feds = squad("gundam_skirmish", [sample("lancer", pilot=[ace]), sample("gun_tank")], "lg")
    zeon = squad("gundam_skirmish", [sample("trooper"), sample("heavy_gunner")], "th")
    g = new_game("gs-units", "Golden battle", [("Feds", feds), ("Zeon", zeon)])
    g = run(g, "priority", [5, 2])
    g = run(g, "next_turn", [])
    g = run(g, "next_turn", [])  # Zeon to play
    fire = {"attacker": "1/h", "target": "0/g", "weapon": "Rotary cannon", "shield_break": "no"}
    g = act(g, "shoot", fire, TypedDice([1, 1, 1, 1, 1, 1, 1, 1, 1]))
    g = adjust(g, [Change(path=["sides", 0, "units", 0, "state", "damage"], value=5)], "by hand")
    shot = {"attacker": "1/t", "target": "0/l", "weapon": "Machine gun", "shield_break": "no"}
    return act(g, "shoot", {**shot, "cover": "obstructed"}, TypedDice([4, 1, 1, 1, 1, 1, 1, 1, 2]))


def msb_game() -> Game:
    """Two sample suits after setup, draws, plans and the reveal, and the first card resolved."""
    from core.systems.ms_battles import sample

    a = squad("ms_battles", [sample.DECK_A.model_dump(mode="json")], "a")
    b = squad("ms_battles", [sample.DECK_B.model_dump(mode="json")], "t")
    g = new_game("msb-units", "Golden duel", [("Ann", a), ("Ben", b)])
    g = act(g, "setup", {}, RandomDice(3))
    for side, ref in enumerate(("0/a", "1/t")):
        g = act(g, "draw", {"unit": ref}, RandomDice(4 + side))
        unit = g.sides[side].units[0]
        hand = [unit.profile["cards"][p]["id"] for p in unit.state.extra["hand"]]
        g = act(g, "plan", {"unit": ref, "keep": hand[:2]}, RandomDice(0))
    g = act(g, "reveal", {}, RandomDice(0))
    for side, ref in enumerate(("0/a", "1/t")):  # the first card whose resolution asks nothing more
        unit = g.sides[side].units[0]
        for pos in unit.state.extra["planned"]:
            try:
                raw = {"unit": ref, "card": unit.profile["cards"][pos]["id"]}
                return act(g, "resolve_card", raw, RandomDice(1))
            except NeedChoice as need:  # the first option offered (a target, a zone...)
                pick = need.options[0]
                raw = {**raw, need.field: pick.value, **pick.also}
                try:
                    return act(g, "resolve_card", raw, RandomDice(1))
                except (ValueError, NeedChoice):
                    continue
            except ValueError:
                continue
    raise AssertionError("no card could resolve")


def cases() -> dict[str, dict[str, Any]]:
    games = {"gunframe": gunframe_game(), "gundam_skirmish": gundam_game(), "msb": msb_game()}
    out: dict[str, dict[str, Any]] = {}
    for name, g in games.items():
        token = share.encode_game(g)
        out[f"token-game-{name}"] = {"token": token, "means": share.decode(token).model_dump(mode="json")}
    saved = {
        "schema_version": storage.STORE_SCHEMA,
        "squads": [],
        "units": [],
        "games": [g.model_dump(mode="json") for g in games.values()],
    }
    out["store"] = {"saved": saved, "means": storage.load(saved).model_dump(mode="json")}
    return out


def main() -> None:
    if FOLDER.exists():
        sys.exit(f"{FOLDER} exists: golden files of a released build are never rewritten")
    made = cases()
    FOLDER.mkdir()
    for name, data in made.items():
        (FOLDER / f"{name}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(made)} files to {FOLDER}")


if __name__ == "__main__":
    main()
