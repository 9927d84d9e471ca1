"""Sample set: app original, NOT from the rulebook.

The rulebook (002_c5caa4b4fc3fd928.txt) prints no cards, frames or pilots (L9
promises default decks that never appear; L129-L135 only names an example).
So that two players can start at once, this module is a small content set
invented for this app (digest section 12): two frames, two pilots, four
weapons, six boosters and the two generic cards the example names (L135), with
two legal twenty-card decks.  Every name and number here is ours and untested
in play; players may copy and change them.
"""

from __future__ import annotations

from typing import Any

from core.systems.ms_battles.cards import (
    Armor,
    AttackMark,
    Card,
    CardType,
    Effect,
    Frame,
    MobileSuit,
    Pilot,
    Weapon,
    Zone,
)

LABEL = "Sample set (app original, not from the rulebook)"


def _melee(zone: Zone, count: int = 1) -> AttackMark:
    return AttackMark(zone=zone, form="melee", count=count)


def _ranged(rng: int, zone: Zone, count: int = 1) -> AttackMark:
    return AttackMark(zone=zone, form="ranged", count=count, range=rng)


def _card(
    cid: str,
    name: str,
    kind: CardType,
    group: str,
    init: int,
    move: int,
    attacks: tuple[AttackMark, ...] = (),
    blocks: tuple[Zone, ...] = (),
    **more: Any,
) -> Card:
    number = int(cid.rsplit("-", 1)[1]) if kind in ("pilot", "weapon") else None
    return Card(
        id=cid,
        name=name,
        type=kind,
        group=group,
        number=number,
        initiative=init,
        movement=move,
        attacks=list(attacks),
        blocks=list(blocks),
        **more,
    )


FRAMES: dict[str, Frame] = {
    "vessik": Frame(
        id="vessik",
        name="Vessik",
        base_movement=4,
        armor=Armor(high=4, mid=4, low=4),
        weapon_slots=2,
        booster_slots=6,
        ability="Afterburn: a card moving this suit at +2 or better (after effects) gives one more step.",
        rule="afterburn",
    ),
    "oruun": Frame(
        id="oruun",
        name="Oruun",
        base_movement=3,
        armor=Armor(high=4, mid=5, low=4),
        weapon_slots=3,
        booster_slots=3,
    ),
}

_TR, _HB = "Tamsin Reyl", "Hollis Brack"
PILOTS: dict[str, Pilot] = {
    _TR: Pilot(
        name=_TR,
        cards=[
            _card(
                "TR-1",
                "Ace Instinct",
                "pilot",
                _TR,
                10,
                1,
                ability="The other card this suit chose this turn gains 1 initiative.",
                effects=[Effect(kind="partner_initiative", amount=1)],
            ),
            _card("TR-2", "Close the Gap", "pilot", _TR, 7, 3),
            _card("TR-3", "Killing Blow", "pilot", _TR, 4, 1, (_melee("mid", 2),), keywords=["guard_break"]),
            _card("TR-4", "Read the Feint", "pilot", _TR, 2, 0, blocks=("high", "mid")),
        ],
    ),
    _HB: Pilot(
        name=_HB,
        cards=[
            _card(
                "HB-1",
                "Steady Hands",
                "pilot",
                _HB,
                9,
                0,
                ability="Ranged marks on this suit's other chosen card reach 2 steps further.",
                effects=[Effect(kind="partner_range", amount=2)],
            ),
            _card("HB-2", "Suppressing Fire", "pilot", _HB, 8, -1, (_ranged(6, "mid"),)),
            _card("HB-3", "Dig In", "pilot", _HB, 1, -1, blocks=("mid", "low")),
            _card(
                "HB-4",
                "Field Repair",
                "pilot",
                _HB,
                3,
                0,
                single_use=True,
                ability="Take 1 damage off one zone of this suit (never below 0).",
                effects=[Effect(kind="repair", amount=1)],
            ),
        ],
    ),
}

_SB, _HC, _RM, _PS = "Shear Blade", "Harl Carbine", "Ridge Mortar", "Pavise Shield"
WEAPONS: dict[str, Weapon] = {
    _SB: Weapon(
        name=_SB,
        cards=[
            _card("SB-1", "Rising Cut", "weapon", _SB, 7, 1, (_melee("high"),)),
            _card("SB-2", "Low Sweep", "weapon", _SB, 6, 1, (_melee("low", 2),)),
            _card("SB-3", "Lunge", "weapon", _SB, 5, 2, (_melee("mid"),)),
            _card("SB-4", "Riposte", "weapon", _SB, 3, 0, (_melee("mid"),), ("high",)),
        ],
    ),
    _HC: Weapon(
        name=_HC,
        cards=[
            _card("HC-1", "Snap Shot", "weapon", _HC, 8, 0, (_ranged(5, "mid"),)),
            _card("HC-2", "Aimed Shot", "weapon", _HC, 4, -1, (_ranged(7, "high"),)),
            _card("HC-3", "Leg Shot", "weapon", _HC, 6, 0, (_ranged(5, "low"),)),
            _card("HC-4", "Burst Fire", "weapon", _HC, 5, -1, (_ranged(4, "mid", 2),)),
        ],
    ),
    _RM: Weapon(
        name=_RM,
        cards=[
            _card("RM-1", "Heavy Shell", "weapon", _RM, 3, -1, (_ranged(8, "mid", 2),)),
            _card("RM-2", "Airburst", "weapon", _RM, 2, -1, (_ranged(8, "high"),)),
            _card("RM-3", "Ground Shell", "weapon", _RM, 2, -1, (_ranged(8, "low"),)),
            _card(
                "RM-4",
                "Siege Round",
                "weapon",
                _RM,
                1,
                -2,
                (_ranged(9, "mid", 2),),
                single_use=True,
                keywords=["guard_break"],
            ),
        ],
    ),
    _PS: Weapon(
        name=_PS,
        cards=[
            _card("PS-1", "Shield Bash", "weapon", _PS, 6, 1, (_melee("mid"),), ("mid",)),
            _card("PS-2", "Braced Guard", "weapon", _PS, 3, -1, (_melee("low"),), ("high", "mid")),
            _card("PS-3", "Rim Strike", "weapon", _PS, 5, 0, (_melee("high"),)),
            _card("PS-4", "Hold the Line", "weapon", _PS, 1, 0, (_melee("mid"),), ("mid", "low")),
        ],
    ),
}

BOOSTERS: dict[str, Card] = {
    c.id: c
    for c in (
        _card("BO-1", "Thrust Pack", "booster", "", 7, 3),
        _card("BO-2", "Side Jets", "booster", "", 8, 1, blocks=("low",)),
        _card("BO-3", "Reactive Plating", "booster", "", 2, 0, blocks=("mid", "low")),
        _card("BO-4", "Smoke Canister", "booster", "", 6, 0, blocks=("high", "mid", "low"), single_use=True),
        _card("BO-5", "Rocket Pod", "booster", "", 7, 0, (_ranged(4, "high"),), single_use=True),
        _card(
            "BO-6",
            "Overcharge",
            "booster",
            "",
            5,
            0,
            ability="This suit's other chosen card moves 2 steps further.",
            effects=[Effect(kind="partner_movement", amount=2)],
        ),
    )
}

#: The generic cards: the example deck names block and dodge (L135); their contents are ours.
GENERICS: dict[str, Card] = {
    "GN-1": _card("GN-1", "Block", "generic", "", 1, 0, blocks=("high", "mid", "low")),
    "GN-2": _card("GN-2", "Dodge", "generic", "", 9, 2),
}

#: Every sample card design by id (each deck holds its own copies).
CARDS: dict[str, Card] = {
    c.id: c
    for c in (
        *(c for p in PILOTS.values() for c in p.cards),
        *(c for w in WEAPONS.values() for c in w.cards),
        *BOOSTERS.values(),
        *GENERICS.values(),
    )
}


def _ids(*ids: str) -> list[Card]:
    return [CARDS[i] for i in ids]


#: Deck A: Vessik flown by Tamsin Reyl (digest 12.7).
DECK_A = MobileSuit(
    name="Vessik / Tamsin Reyl",
    frame=FRAMES["vessik"],
    weapons=[_SB, _HC],
    cards=[
        *PILOTS[_TR].cards,
        *WEAPONS[_SB].cards,
        *WEAPONS[_HC].cards,
        *BOOSTERS.values(),
        *GENERICS.values(),
    ],
    note=LABEL,
)

#: Deck B: Oruun flown by Hollis Brack; one Harl Carbine card is left out, as a weapon may be (L132).
DECK_B = MobileSuit(
    name="Oruun / Hollis Brack",
    frame=FRAMES["oruun"],
    weapons=[_RM, _PS, _HC],
    cards=[
        *PILOTS[_HB].cards,
        *WEAPONS[_RM].cards,
        *WEAPONS[_PS].cards,
        *_ids("HC-1", "HC-2", "HC-4", "BO-1", "BO-2", "BO-6"),
        *GENERICS.values(),
    ],
    note=LABEL,
)

SAMPLE_SUITS: dict[str, MobileSuit] = {"sample-a": DECK_A, "sample-b": DECK_B}
