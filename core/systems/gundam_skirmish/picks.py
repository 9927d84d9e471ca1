"""What a unit offers for an action's pick fields (``ActionSpec.picks``): its own weapons for a Shoot,
an Aimed Shot, a Reload or a Switch Weapon (L415-L451, L879) and its active abilities (L402-L407),
each greyed with the reason when it cannot be used now.
"""

from __future__ import annotations

from core.game import Game, GameUnit
from core.systems.base import FieldPick
from core.systems.gundam_skirmish.battle import has, profile
from core.systems.gundam_skirmish.catalogue import ALL_ENTRIES
from core.systems.gundam_skirmish.shoot import usable_weapons
from core.systems.gundam_skirmish.units import RangedWeapon, carried_names, weapon_kind, weapon_numbers


def _reload_reason(g: GameUnit, w: RangedWeapon) -> str:
    """Why a fired weapon cannot shoot yet: it waits for its reload (L415-L422, L925-L929)."""
    if not g.state.extra.get("reload", {}).get(w.name):
        return ""
    slow = w.reload == "RS" or g.state.counters.get("arm", 0) >= 2
    return f"needs a {'Slow' if slow else 'Quick'} Reload first (L415-L422)"


def _weapons_in_battle(g: GameUnit) -> list[RangedWeapon]:
    """The equipped carried weapon first, the mounted ones, then the other carried ones taken (L426-L444)."""
    unit = profile(g)
    taken = carried_names(unit)
    equipped = g.state.extra.get("equipped", "")
    order = {"equipped": 0, "M": 1, "C": 2}
    weapons = [w for w in unit.weapons if w.equip == "M" or w.name in taken]
    return sorted(weapons, key=lambda w: order["equipped" if w.name == equipped else w.equip])


def _shot_pick(g: GameUnit, w: RangedWeapon, aimed: bool) -> FieldPick:
    why = ""
    if not profile(g).knows(w.name):
        why = "a technique its pilot has not learnt (L1837-L1844)"
    elif w.equip == "C" and has(g, "no_carried"):
        why = "no carried weapon can be used this turn (Heat Rod)"
    elif w not in usable_weapons(g):
        why = "not equipped: Switch Weapon first (L424-L444)"
    elif reason := _reload_reason(g, w):
        why = reason
    elif aimed and (w.weapon_class == "explosive" or "B" in w.tags):
        why = "no Aimed Shot with an Explosive or Blast weapon (L879)"
    return FieldPick(
        value=w.name, label=w.name, detail=f"{weapon_kind(w)}; {weapon_numbers(w)}", unavailable=why
    )


def shot_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """The shooter's own weapons for a Shoot, greyed with the reason when one cannot fire now."""
    _, _, g = game.unit(actor)
    return {"weapon": [_shot_pick(g, w, False) for w in _weapons_in_battle(g)]}


def aimed_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """The shooter's own weapons for an Aimed Shot (none Explosive or Blast, L879)."""
    _, _, g = game.unit(actor)
    return {"weapon": [_shot_pick(g, w, True) for w in _weapons_in_battle(g)]}


def reload_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """Weapons with a reload tag (L415-L422): the ones fired wait for it, the others are loaded."""
    _, _, g = game.unit(actor)
    out = []
    for w in _weapons_in_battle(g):
        if not w.reload:
            continue
        slow = w.reload == "RS" or g.state.counters.get("arm", 0) >= 2
        detail = "Slow Reload (a Slow action)" if slow else "Quick Reload (a Fast action)"
        waiting = bool(g.state.extra.get("reload", {}).get(w.name))
        out.append(
            FieldPick(value=w.name, label=w.name, detail=detail, unavailable="" if waiting else "loaded")
        )
    return {"weapon": out}


def switch_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """Carried weapons taken into battle and the close combat weapon; the equipped one greyed (L424-L451)."""
    _, _, g = game.unit(actor)
    unit = profile(g)
    current = g.state.extra.get("equipped", "")
    out = []
    for w in _weapons_in_battle(g):
        if w.equip == "C":
            why = "equipped now" if w.name == current else ""
            out.append(FieldPick(value=w.name, label=w.name, detail=weapon_numbers(w), unavailable=why))
    if unit.cc:
        c = unit.cc
        out.append(
            FieldPick(
                value="cc",
                label=c.name,
                detail=f"close combat, {c.attack}D6, ACC {c.acc}+, {c.dam} DAM",
                unavailable="equipped now" if current == "cc" else "",
            )
        )
    return {"weapon": out}


def ability_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """Its Active abilities (L402-L407) and its pilot's Mechanic (L1978-L1979); once-used ones greyed."""
    _, _, g = game.unit(actor)
    unit = profile(g)
    once = g.state.extra.get("once", [])
    out = []
    for a in unit.abilities:
        e = ALL_ENTRIES["ability"][a.key]
        if e.kind != "active" and a.key != "deploy_funnels":
            continue
        why = "used once already this battle (L2866)" if a.key == "extra_tank" and a.key in once else ""
        out.append(
            FieldPick(
                value=a.key, label=e.name + (f" ({a.x})" if a.x else ""), detail=e.help, unavailable=why
            )
        )
    if unit.pilot_has("mechanic"):
        e = ALL_ENTRIES["trait"]["mechanic"]
        why = "used once already this battle (L1978-L1979)" if "mechanic" in once else ""
        out.append(FieldPick(value="mechanic", label=e.name, detail=e.help, unavailable=why))
    return {"ability": out}
