"""Building a GUNFRAME unit: the profile model, its cost, and the rules it must follow.

A profile accepts anything a player might type while building (within sane
bounds); breaking a construction rule is a :class:`~core.systems.base.Violation`
with the rulebook line, never a validation error.

Cost (L2194, L2166-2172, L2286-2290): frame + 1 for a 3+ pilot + 1 per upgrade
purchase, an (N) upgrade costing N.  A transforming unit (L2224-2258) costs its
dearer form (frame, frame and loadout upgrades) + 1, then pilot costs.  A
combiner's combined form (L2504-2531) is built like a unit but not paid for.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import Field

from core.systems.base import Closed, Violation
from core.systems.gunframe.catalogue import FRAME_VALUES, FRAMES, SLOTS, WEAPONS, FrameDef, Slot
from core.systems.gunframe.effects import CombinerMember
from core.systems.gunframe.pack_ids import FRAME_NUMBERS, SLOT_NUMBERS, UPGRADE_NUMBERS
from core.systems.gunframe.upgrades import UPGRADE_IDS, UPGRADES, has_effect

FrameId = Literal["scout", "light", "medium", "heavy", "super_heavy", "infantry", "tank", "flyer"]
#: Kinds of structure a game can hold (L2903-2907, L1701, L1921-1947, L1969-1973); see :mod:`.structures`.
StructureKind = Literal[
    "civilian",
    "hard_civilian",
    "military",
    "hard_military",
    "objective_building",
    "raid_target",
    "bunker",
    "gun_emplacement",
    "beacon",
]
#: A unit's structure field: empty for every unit that is not a structure.
StructureId = Literal["", StructureKind]

_GROUPS = {"pilot": "Pilot upgrades", "frame": "Frame upgrades", "loadout": "Loadout upgrades"}
_SLOT_HINT = {"frame": "Frame value", "loadout": "Weapon system"}


def _upgrade_choices() -> dict[str, Any]:
    """The upgrade ids as a closed list for the form: name, group and the fields each one needs.

    The stored value stays the id string (share links and saves unchanged).  Pilot upgrades take
    no slot (L2202); frame upgrades sit on a frame value (L2208), loadout upgrades on a weapon
    system (L2216); only (N) upgrades take a count (L2288).  Loadout upgrades may be bought again
    for another weapon system (one per system, L2216).
    """
    fields: dict[str, list[str]] = {}
    for u in UPGRADES.values():
        fields[u.id] = ([] if u.category == "pilot" else ["slot"]) + (["n"] if u.stackable else [])
    return {
        "enum": list(UPGRADE_IDS),
        "x-labels": {u.id: u.name for u in UPGRADES.values()},
        "x-groups": {u.id: _GROUPS[u.category] for u in UPGRADES.values()},
        "x-help": {u.id: u.summary for u in UPGRADES.values()},
        "x-fields": fields,
        # The frame values or weapon systems each one may sit on (L2266, L2272).
        "x-choices": {u.id: {"slot": list(u.slots)} for u in UPGRADES.values() if u.slots},
        "x-repeat": [u.id for u in UPGRADES.values() if u.category == "loadout"],
    }


#: Labels of the frame types for the form (L2137-2142, L2687-2692).
_FRAME_LABELS: dict[str, Any] = {fid: frame.name for fid, frame in FRAMES.items()}


class UpgradeRef(Closed):
    """One upgrade a unit has bought (1 point per purchase, L2194)."""

    id: str = Field(
        min_length=1,
        max_length=40,
        pattern=r"^[a-z0-9_]+$",
        title="Upgrade",
        description="An upgrade from the rulebook's lists (L2262-2466).",
        json_schema_extra=_upgrade_choices(),
    )
    slot: Slot | None = Field(
        default=None,
        title="On",
        description="Frame value (frame upgrades, L2208) or weapon system (loadout upgrades, L2216) it sits "
        "on; a frame upgrade left empty takes a free allowed value.",
    )
    n: int = Field(
        default=1, ge=1, le=9, title="N", description="Times bought, for (N) upgrades such as Ace (L2288)."
    )


def _weapon(label: str) -> Any:
    return Field(default=0, ge=0, le=20, description=f"{label} weapon system, 0-6 when built (L2150).")


def _upgrades(most: int, description: str) -> Any:
    """A list of upgrades, ticked from the catalogue's checklist."""
    return Field(
        default_factory=list,
        max_length=most,
        description=description,
        json_schema_extra={"x-checklist": "id"},
    )


class GunframeForm(Closed):
    """A further form of a transforming unit (L2224-2234): same frame and Armour, own values."""

    speed: int = Field(ge=0, le=20, description="Speed in this form.")
    defense: int = Field(ge=0, le=20, description="Defense in this form.")
    close: int = _weapon("Close")
    short: int = _weapon("Short")
    medium: int = _weapon("Medium")
    long: int = _weapon("Long")
    upgrades: list[UpgradeRef] = _upgrades(20, "Frame and loadout upgrades of this form.")


class GunframeUnit(Closed):
    """One GUNFRAME unit as its record sheet shows it (L569-628): frame, loadout, pilot, upgrades.

    Speed, Defense, the weapon values and the frame/loadout upgrades here are the
    first form; ``forms`` holds any others.
    """

    name: str = Field(min_length=1, max_length=60, description="The unit's name, e.g. 'Praetorian'.")
    frame: FrameId = Field(
        description="Frame type (L2137-2142) or conventional type (L2687-2692).",
        json_schema_extra={"x-labels": _FRAME_LABELS},
    )
    pilot: str = Field(default="", max_length=60, description="The pilot's name (L2164).")
    skill: Literal[3, 4] = Field(
        default=4,
        description="Pilot Skill target: 4+, or 3+ for a point (L2168-2172).",
        json_schema_extra={"x-labels": {"3": "3+", "4": "4+"}},
    )
    speed: int = Field(ge=0, le=20, description="Inches per move action, after customising (L2133).")
    defense: int = Field(ge=0, le=20, description="Dice rolled to defend, after customising (L2133).")
    armour: int = Field(ge=1, le=40, description="Damage it can take; customised from the frame (L2133).")
    close: int = _weapon("Close")
    short: int = _weapon("Short")
    medium: int = _weapon("Medium")
    long: int = _weapon("Long")
    upgrades: list[UpgradeRef] = _upgrades(
        30, "Pilot upgrades and the first form's frame and loadout upgrades."
    )
    partner: str = Field(
        default="", max_length=60, description="Name of the squad unit sharing its linked upgrades (L2278)."
    )
    forms: list[GunframeForm] = Field(
        default_factory=list, max_length=2, description="Further forms of a transforming unit (L2224)."
    )
    combined_members: int = Field(
        default=0,
        ge=0,
        le=8,
        description="For a combiner's combined form: how many units form it (L2517); 0 for any other unit.",
    )
    structure: StructureId = Field(
        default="",
        description="Only for a structure put into a game (a building, a Raid target, a bunker...): its kind "
        "(L2884-2955). Empty for every unit of a squad.",
        json_schema_extra={"ui": "hidden"},
    )


#: Either the unit itself (its first form) or one of its further forms.
FormLike = GunframeForm | GunframeUnit


# --- reading a profile ------------------------------------------------------------------


def frame_of(profile: GunframeUnit) -> FrameDef:
    return FRAMES[profile.frame]


def all_forms(profile: GunframeUnit) -> list[FormLike]:
    """Every form, the first (the profile's own values) included."""
    return [profile, *profile.forms]


def weapons_of(form: FormLike) -> dict[str, int]:
    return {w: getattr(form, w) for w in WEAPONS}


def assign_slots(refs: Sequence[UpgradeRef]) -> list[Slot | None]:
    """The slot of each upgrade: as given, else a free allowed one (L2270).

    Upgrades with fewer choices pick first, so Heavy (Armour/Speed) makes way for
    Stabilised (Armour only).  Pilot upgrades get None; unknown ids keep what they were given.
    """
    taken = {r.slot for r in refs if r.slot is not None}
    out: list[Slot | None] = [r.slot if _category(r.id) != "pilot" else None for r in refs]
    open_refs = [i for i, r in enumerate(refs) if r.slot is None and _category(r.id) in ("frame", "loadout")]
    for i in sorted(open_refs, key=lambda i: len(UPGRADES[refs[i].id].slots)):
        allowed = UPGRADES[refs[i].id].slots
        if allowed[0] in FRAME_VALUES:
            free = [s for s in allowed if s not in taken]
            slot: Slot | None = free[0] if free else allowed[0]  # a full value shows as over the limit
        else:
            slot = allowed[0] if len(allowed) == 1 else None  # the builder names the system (L2216)
        if slot is not None:
            taken.add(slot)
        out[i] = slot
    return out


def form_upgrades(profile: GunframeUnit, form: int = 0) -> list[str]:
    """Ids of the upgrades a unit has in one form: its pilot's, plus that form's own."""
    pilot = [r.id for r in profile.upgrades if _category(r.id) == "pilot"]
    own = all_forms(profile)[form].upgrades
    return pilot + [r.id for r in own if _category(r.id) != "pilot"]


def weapon_upgrades(profile: GunframeUnit, form: int = 0) -> dict[str, set[str]]:
    """Loadout upgrade ids on each weapon system in one form."""
    refs = all_forms(profile)[form].upgrades
    out: dict[str, set[str]] = {w: set() for w in WEAPONS}
    for r, slot in zip(refs, assign_slots(refs), strict=True):
        if _category(r.id) == "loadout" and slot in out:
            out[slot].add(r.id)
    return out


def _category(uid: str) -> str | None:
    up = UPGRADES.get(uid)
    return up.category if up else None


# --- cost ---------------------------------------------------------------------------------


def _purchases(refs: Sequence[UpgradeRef], free: tuple[str, ...]) -> int:
    """Points for upgrades: 1 per purchase (L2194), N for (N) ones (L2288); one free choice (L2618, L2624)."""
    total = sum(r.n for r in refs)
    if any(r.id in free for r in refs):
        total -= 1  # the conventional frame's free upgrade still takes its slot (L2685)
    return total


def build_cost(profile: GunframeUnit) -> int:
    """The unit's points value by the construction rules.

    Transforming (L2236-2238): dearer form + 1, then pilot skill and pilot upgrades.
    Example: Eagle VF forms cost 13 and 14, so the unit costs 15 (L2254-2256).
    """
    frame = frame_of(profile)
    pilot_refs = [r for r in profile.upgrades if _category(r.id) == "pilot"]
    form_costs = [
        frame.cost + _purchases([r for r in f.upgrades if _category(r.id) != "pilot"], frame.free_choice)
        for f in all_forms(profile)
    ]
    body = max(form_costs) + (1 if profile.forms else 0)
    return body + (1 if profile.skill == 3 else 0) + sum(r.n for r in pilot_refs)


def unit_cost(profile: GunframeUnit) -> int:
    """Points the unit costs a squad: its build cost, or 0 for a combined form (L2531)."""
    return 0 if profile.combined_members else build_cost(profile)


# --- single-unit rules ------------------------------------------------------------------


def _v(rule: str, message: str, ref: str) -> Violation:
    return Violation(rule=rule, message=message, ref=ref)


def _customise(profile: GunframeUnit, form: FormLike, label: str) -> list[Violation]:
    frame = frame_of(profile)
    out: list[Violation] = []
    loadout = sum(weapons_of(form).values())
    d_speed, d_def = form.speed - frame.speed, form.defense - frame.defense
    d_arm, d_load = profile.armour - frame.armour, loadout - frame.loadout
    if profile.combined_members:
        # Combined form: no normal customising; +1 per member to Armour and Loadout (L2517).
        if d_speed or d_def:
            out.append(
                _v(
                    "combiner-customise",
                    f"{label}a combined form keeps the frame's Speed and Defense "
                    f"({frame.speed} and {frame.defense})",
                    "L2517",
                )
            )
        if d_arm < 0 or d_load < 0 or d_arm + d_load != profile.combined_members:
            out.append(
                _v(
                    "combiner-customise",
                    f"{label}a combined form of {profile.combined_members} units "
                    f"adds exactly {profile.combined_members} to Armour and Loadout together "
                    f"(here {d_arm:+d} and {d_load:+d})",
                    "L2517",
                )
            )
        return out
    if frame.conventional:
        # One point moved between any two of Speed, Defense, Armour and Loadout (L2673).
        deltas = (d_speed, d_def, d_arm, d_load)
        if sum(deltas) != 0 or sum(abs(d) for d in deltas) > 2:
            out.append(
                _v(
                    "conventional-customise",
                    f"{label}a {frame.name.lower()} may move only one point "
                    f"from one value to another (Speed {d_speed:+d}, Defense {d_def:+d}, Armour "
                    f"{d_arm:+d}, Loadout {d_load:+d})",
                    "L2673",
                )
            )
        return out
    # One point between Speed and Defense; up to two between Armour and Loadout (L2133).
    if d_speed + d_def != 0 or abs(d_speed) > 1:
        out.append(
            _v(
                "speed-defense",
                f"{label}Speed and Defense may trade one point: {frame.name} is "
                f"{frame.speed}/{frame.defense}, this is {form.speed}/{form.defense}",
                "L2133",
            )
        )
    if abs(d_arm) > 2:
        out.append(
            _v(
                "armour-loadout",
                f"{label}Armour may move at most 2 points from the frame's "
                f"{frame.armour} (here {profile.armour})",
                "L2133",
            )
        )
    if d_load != -d_arm:
        budget = frame.loadout - d_arm
        out.append(
            _v(
                "loadout-total",
                f"{label}weapon systems add up to {loadout}; with Armour "
                f"{profile.armour} the loadout to share out is {budget}",
                "L2148",
            )
        )
    return out


def _slots(profile: GunframeUnit, form: FormLike, label: str) -> list[Violation]:
    out: list[Violation] = []
    per_slot = 2 if profile.combined_members else 1  # combined forms: two per system (L2512)
    refs = form.upgrades
    used: Counter[str] = Counter()
    for r, slot in zip(refs, assign_slots(refs), strict=True):
        up = UPGRADES.get(r.id)
        if up is None or up.category == "pilot":
            continue
        if slot is None:
            out.append(_v("upgrade-slot", f"{label}{up.name}: choose the weapon system it fits", "L2216"))
            continue
        if slot not in up.slots:
            allowed = " or ".join(s.capitalize() for s in up.slots)
            out.append(
                _v(
                    "upgrade-slot",
                    f"{label}{up.name} cannot go on {slot.capitalize()}; it fits {allowed}",
                    "L2272" if up.category == "loadout" else "L2266",
                )
            )
        used[slot] += 1
    for slot in SLOTS:
        if used[slot] > per_slot:
            kind = "frame value" if slot in FRAME_VALUES else "weapon system"
            ref = "L2512" if profile.combined_members else "L2210" if slot in FRAME_VALUES else "L2216"
            out.append(
                _v(
                    "slot-limit",
                    f"{label}{used[slot]} upgrades on {slot.capitalize()}; a {kind} holds {per_slot}",
                    ref,
                )
            )
    return out


def unit_violations(profile: GunframeUnit) -> list[Violation]:
    """Construction rules one unit breaks on its own."""
    out: list[Violation] = []
    frame = frame_of(profile)
    forms = all_forms(profile)
    for i, form in enumerate(forms):
        label = f"Form {i + 1}: " if profile.forms else ""
        out += _customise(profile, form, label)
        for w, value in weapons_of(form).items():
            if value > 6:
                out.append(
                    _v(
                        "weapon-range",
                        f"{label}{w.capitalize()} is {value}; a weapon system holds 0 to 6 points",
                        "L2150",
                    )
                )
        out += _slots(profile, form, label)
        if i > 0:
            for r in form.upgrades:
                if _category(r.id) == "pilot":
                    out.append(
                        _v(
                            "form-pilot-upgrade",
                            f"{label}{UPGRADES[r.id].name} is a pilot upgrade; list it with the first form",
                            "L2258",
                        )
                    )
    if profile.structure:  # its values are the structure table's, not a build (L2903)
        return [
            _v(
                "structure-in-squad",
                "A structure is terrain the players agree on, placed in a game, not a unit to buy",
                "L2888",
            )
        ]
    seen: Counter[tuple[int, str, str | None]] = Counter()
    for i, form in enumerate(forms):
        for r in form.upgrades:
            up = UPGRADES.get(r.id)
            if up is None:
                out.append(_v("unknown-upgrade", f"No upgrade called '{r.id}' in the rulebook", "L2262"))
                continue
            if r.n > 1 and not up.stackable:
                out.append(
                    _v("not-stackable", f"{up.name} is bought once; only (N) upgrades take a count", "L2288")
                )
            if up.category == "pilot" and r.slot is not None:
                out.append(_v("upgrade-slot", f"{up.name} is a pilot upgrade and takes no slot", "L2202"))
            key = (i, r.id, r.slot if up.category == "loadout" else None)
            seen[key] += 1
            if seen[key] == 2:
                again = "use its count instead" if up.stackable else "it is bought once"
                out.append(_v("repeat-upgrade", f"{up.name} is listed twice; {again}", "L2288"))
            if frame.conventional and up.category == "pilot":
                out.append(
                    _v(
                        "conventional-pilot",
                        f"Conventional units take no pilot upgrades ({up.name})",
                        "L2683",
                    )
                )
    return out


def _names(slots: Sequence[str]) -> str:
    words = [s.capitalize() for s in slots]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def unfit_choices(profile: GunframeUnit) -> dict[str, dict[str, str]]:
    """Upgrades not on a form's list that would break a construction rule if ticked now.

    Keyed by the list's path in the profile, then the upgrade id: conventional units take no pilot
    upgrades (L2683); pilot upgrades go with the first form (L2258); one upgrade per frame value
    (L2210) and per weapon system (L2216), two on a combined form (L2512); a loadout upgrade for
    some weapon systems only (L2272).
    """
    frame = frame_of(profile)
    per_slot = 2 if profile.combined_members else 1
    out: dict[str, dict[str, str]] = {}
    for i, form in enumerate(all_forms(profile)):
        path = "upgrades" if i == 0 else f"forms.{i - 1}.upgrades"
        refs = form.upgrades
        have = {r.id for r in refs}
        used: Counter[str] = Counter(s for s in assign_slots(refs) if s is not None)
        reasons: dict[str, str] = {}
        for up in UPGRADES.values():
            if up.id in have and up.category != "loadout":
                continue
            if up.category == "pilot":
                if frame.conventional:
                    reasons[up.id] = "Conventional units take no pilot upgrades"
                elif i > 0:
                    reasons[up.id] = "Pilot upgrades go with the first form"
                continue
            free = [s for s in up.slots if used[s] < per_slot]
            if free:
                continue
            held = "an upgrade" if per_slot == 1 else "two upgrades"
            full = f"{_names(up.slots)} already {'has' if len(up.slots) == 1 else 'have'} {held}"
            if up.category == "frame":
                reasons[up.id] = full
            elif up.restricted:
                reasons[up.id] = f"{_names(up.slots)} only, and {full[0].lower()}{full[1:]}"
            else:
                reasons[up.id] = "Every weapon system already has an upgrade"
        out[path] = reasons
    return out


# --- squad rules ---------------------------------------------------------------------------

#: Game sizes and their points (L1482-1490): (name, lowest, highest).
GAME_SIZES: tuple[tuple[str, int, int], ...] = (
    ("Skirmish", 50, 75),
    ("Clash", 100, 100),
    ("Battle", 200, 200),
)


def game_size(points: int) -> str | None:
    """The book's game size a points limit matches, if any (L1482-1490)."""
    for name, low, high in GAME_SIZES:
        if low <= points <= high:
            return name
    return None


def _unit_upgrade_ids(profile: GunframeUnit) -> set[str]:
    return {r.id for f in all_forms(profile) for r in f.upgrades}


def squad_violations(units: Sequence[tuple[str, GunframeUnit]], limit: int | None) -> list[Violation]:
    """Rules of the squadron as a whole: points, unique, linked, combiner cap."""
    out: list[Violation] = []
    total = sum(unit_cost(p) for _, p in units)
    if limit is not None and total > limit:
        out.append(_v("points-limit", f"{total} points is over the {limit}-point limit", "L1494"))
    holders: dict[str, list[str]] = {}
    for key, p in units:
        for uid in _unit_upgrade_ids(p):
            holders.setdefault(uid, []).append(key)
    for uid, keys in holders.items():
        up = UPGRADES.get(uid)
        if up is None:
            continue
        if up.unique and len(keys) > 1:
            out.append(_v("unique", f"{up.name} is unique: {len(keys)} units have it, one may", "L2284"))
        if up.linked and len(keys) != 2:
            if len(keys) == 1:
                msg = f"{up.name} is linked: a second unit must buy it too"
            else:
                msg = f"{up.name} is linked: only one pair may have it, {len(keys)} units do"
            out.append(
                Violation(
                    unit=keys[0] if len(keys) == 1 else None, rule="linked", message=msg, ref="L2278-2280"
                )
            )
    names = {p.name: key for key, p in units}
    for key, p in units:
        if not p.partner:
            continue
        other_key = names.get(p.partner)
        linked = {u for u in _unit_upgrade_ids(p) if u in UPGRADES and UPGRADES[u].linked}
        other = next((q for k, q in units if k == other_key), None)
        if other is None or not linked & _unit_upgrade_ids(other):
            out.append(
                Violation(
                    unit=key,
                    rule="linked-partner",
                    message=f"Partner '{p.partner}' is not a squad unit sharing a linked upgrade with it",
                    ref="L2278",
                )
            )
    # A combined form may cost at most the dearest member + the number of members (L2527).
    combined = [(k, p) for k, p in units if p.combined_members]
    members = [
        p for _, p in units if not p.combined_members and has_effect(_unit_upgrade_ids(p), CombinerMember)
    ]
    if len(combined) == 1 and members:
        key, form = combined[0]
        cap = max(build_cost(p) for p in members) + form.combined_members
        if build_cost(form) > cap:
            out.append(
                Violation(
                    unit=key,
                    rule="combiner-cap",
                    message=f"The combined form is built for {build_cost(form)} points; the cap is {cap}",
                    ref="L2527",
                )
            )
        largest = max(members, key=lambda p: frame_of(p).cost)
        if frame_of(form).cost < frame_of(largest).cost and not frame_of(form).conventional:
            out.append(
                Violation(
                    unit=key,
                    rule="combiner-frame",
                    message=f"The combined form must be at least as big as {largest.name}",
                    ref="L2508",
                )
            )
    return out


# --- share-link packing ---------------------------------------------------------------------


def _pack_refs(refs: Sequence[UpgradeRef]) -> list[Any]:
    out: list[Any] = []
    for r in refs:
        base: Any = UPGRADE_NUMBERS.index(r.id) if r.id in UPGRADE_NUMBERS else r.id
        slot = 0 if r.slot is None else SLOT_NUMBERS.index(r.slot) + 1
        if isinstance(base, int) and r.n == 1:
            out.append(base * 8 + slot)
        else:
            out.append([base, slot, r.n])
    return out


def _unpack_refs(data: Any) -> list[UpgradeRef]:
    if not isinstance(data, list):
        raise ValueError("upgrades must be a list")
    out = []
    for item in data:
        if isinstance(item, int) and not isinstance(item, bool):
            base, slot, n = item // 8, item % 8, 1
        elif isinstance(item, list) and len(item) == 3:
            base, slot, n = item
        else:
            raise ValueError(f"bad upgrade {item!r}")
        if isinstance(base, int) and not isinstance(base, bool):
            if not 0 <= base < len(UPGRADE_NUMBERS):
                raise ValueError(f"no upgrade number {base}")
            uid = UPGRADE_NUMBERS[base]
        elif isinstance(base, str):
            uid = base
        else:
            raise ValueError(f"bad upgrade {item!r}")
        if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot <= len(SLOT_NUMBERS):
            raise ValueError(f"bad slot in {item!r}")
        out.append(
            UpgradeRef.model_validate({"id": uid, "slot": SLOT_NUMBERS[slot - 1] if slot else None, "n": n})
        )
    return out


def _pack_form(form: FormLike) -> list[Any]:
    return [
        form.speed,
        form.defense,
        [form.close, form.short, form.medium, form.long],
        _pack_refs(form.upgrades),
    ]


def _unpack_form(data: Any) -> dict[str, Any]:
    if not isinstance(data, list) or len(data) != 4 or not isinstance(data[2], list) or len(data[2]) != 4:
        raise ValueError("a form is [speed, defense, [close, short, medium, long], upgrades]")
    return {
        "speed": data[0],
        "defense": data[1],
        **dict(zip(WEAPONS, data[2], strict=True)),
        "upgrades": _unpack_refs(data[3]),
    }


def pack(profile: GunframeUnit) -> list[Any]:
    """Compact positional form for share links.

    ``[name, frame#, armour, [speed, defense, [c, s, m, l], upgrades], pilot, skill, partner, forms,
    members, structure]`` with trailing defaults dropped; an upgrade is ``index*8 + slot#`` (slot# 0 for
    none), or ``[index or id, slot#, n]`` when bought N times or unknown to the catalogue.
    """
    out: list[Any] = [
        profile.name,
        FRAME_NUMBERS.index(profile.frame),
        profile.armour,
        _pack_form(profile),
        profile.pilot,
        profile.skill,
        profile.partner,
        [_pack_form(f) for f in profile.forms],
        profile.combined_members,
        profile.structure,
    ]
    defaults: list[Any] = ["", 4, "", [], 0, ""]
    while len(out) > 4 and out[-1] == defaults[len(out) - 5]:
        out.pop()
    return out


def unpack(data: Any) -> GunframeUnit:
    """Inverse of :func:`pack`; ValueError on anything malformed."""
    if not isinstance(data, list) or not 4 <= len(data) <= 10:
        raise ValueError("a packed GUNFRAME unit is a list of 4 to 10 items")
    try:
        name, frame, armour, first, *rest = data
        if not isinstance(frame, int) or isinstance(frame, bool) or not 0 <= frame < len(FRAME_NUMBERS):
            raise ValueError(f"no frame number {frame!r}")
        fields: dict[str, Any] = {
            "name": name,
            "frame": FRAME_NUMBERS[frame],
            "armour": armour,
            **_unpack_form(first),
        }
        keys = ("pilot", "skill", "partner", "forms", "combined_members", "structure")
        fields.update(zip(keys, rest, strict=False))
        if "forms" in fields:
            if not isinstance(fields["forms"], list):
                raise ValueError("forms must be a list")
            fields["forms"] = [_unpack_form(f) for f in fields["forms"]]
        return GunframeUnit.model_validate(fields, strict=True)
    except (TypeError, IndexError, KeyError, AttributeError) as bad:
        raise ValueError(f"not a packed GUNFRAME unit: {bad}") from bad


def crippled_at(starting_armour: int) -> int | None:
    """Armour at which a unit counts as crippled (optional rule, L2706-2719); None if it never does."""
    if starting_armour <= 3:
        return None
    return math.ceil(starting_armour / 4)
