"""A GUNFRAME unit as its card lays it out (L569-613, the Praetorian's card).

Name and type label, points, the pilot's skill and name with the pilot
upgrades, then Speed, Defense and Armour each with the frame upgrade on it, then
Close to Long each with its loadout upgrade; a transforming unit shows each form.
The notes say what every upgrade on the card does, in short.

The book's sample card (L591-613):

>>> sample = GunframeUnit(name="Praetorian", frame="heavy", pilot="Juno Deveraux", skill=3, speed=5,
...     defense=3, armour=10, close=4, short=4, medium=4, long=2, upgrades=[{"id": "ace"},
...     {"id": "fly"}, {"id": "deflect"}, {"id": "parry"}, {"id": "piercing", "slot": "short"}])
>>> c = card(sample)
>>> c.kind
'Heavy Gunframe'
>>> for line in c.lines:
...     print(line.label, line.value, line.note or "-")
Pilot 3+ Juno Deveraux Ace (1)
Speed 5 Fly
Defense 3 Deflect
Armour 10 -
Close 4 Parry
Short 4 Piercing
Medium 4 -
Long 2 -
"""

from __future__ import annotations

from core.systems.base import CardLine, UnitCard
from core.systems.gunframe.building import GunframeUnit, all_forms, assign_slots, frame_of
from core.systems.gunframe.catalogue import FRAME_VALUES, WEAPONS
from core.systems.gunframe.upgrades import UPGRADES


def _name(uid: str, n: int) -> str:
    upgrade = UPGRADES.get(uid)
    label = upgrade.name if upgrade else f"{uid} (unknown)"
    return f"{label} ({n})" if upgrade and upgrade.stackable else label


def card(profile: GunframeUnit) -> UnitCard:
    """The card of a unit, every form included."""
    frame = frame_of(profile)
    kind = f"{frame.name} Gunframe" if not frame.conventional else frame.name
    if profile.forms:
        kind += f", transforms ({len(profile.forms) + 1} forms)"
    pilot_upgrades = [
        _name(r.id, r.n) for r in profile.upgrades if r.id in UPGRADES and not UPGRADES[r.id].slots
    ]
    pilot = f"{profile.skill}+ {profile.pilot}".strip()
    lines = [CardLine(label="Pilot", value=pilot, note=", ".join(pilot_upgrades))]
    forms = all_forms(profile)
    for value in (*FRAME_VALUES, *WEAPONS):
        shown: list[str] = []
        notes: list[str] = []
        for form in forms:
            number = profile.armour if value == "armour" else getattr(form, value)
            shown.append(str(number))
            on = [
                _name(r.id, r.n)
                for r, slot in zip(form.upgrades, assign_slots(form.upgrades), strict=True)
                if slot == value
            ]
            notes.append(", ".join(on))
        lines.append(
            CardLine(
                label=value.capitalize(),
                value="/".join(shown),
                note=" / ".join(notes) if any(notes) else "",
            )
        )
    ids: list[str] = []
    for form in forms:
        ids += [r.id for r in form.upgrades]
    seen = sorted(
        set(ids) | {r.id for r in profile.upgrades}, key=lambda uid: ids.index(uid) if uid in ids else -1
    )
    notes = [
        f"{UPGRADES[uid].name}: {UPGRADES[uid].summary} ({UPGRADES[uid].ref})"
        + (f" By hand: {UPGRADES[uid].by_hand}" if UPGRADES[uid].by_hand else "")
        for uid in seen
        if uid in UPGRADES
    ]
    return UnitCard(title=profile.name, kind=kind, lines=lines, notes=notes)
