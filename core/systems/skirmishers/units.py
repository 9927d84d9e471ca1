"""A Skirmishers unit card as a player fills it in: trooper, power-armor trooper or vehicle.

The book's sample cards are blank (L910-L996), so every unit is the player's own, in the
card's format: name, number, skill (the experience level, digest AMB-2), squad leader and
leadership, the loadout slots and the armor.  What may go in each slot:

* a trooper: one primary (a rifle-class weapon, a launcher other than the light anti-tank
  weapon, a flamethrower, or a crew-served weapon, L137, L356, L415), one secondary (a ranged
  secondary, a melee weapon, a satchel charge, the light anti-tank weapon or a grenade
  launcher mounted under a rifle or SMG, L150-L180, L194, L415-L417), 4 hand grenades of
  which any may be smoke or incendiary (L131, L445, AMB-33), fists and a knife always;
* a power-armor trooper: one primary (basic suit) or two (standard, heavy) from the power
  armor table, one secondary from any infantry weapon, no hand or smoke grenades (L861-L877,
  L906-L908);
* a vehicle: the scout or assault profile (L650-L662) or numbers of the player's own.

**PV.** Each weapon row prints a PV that the book never explains (AMB-1).  The app adds the
PVs of the weapons a unit carries (hand grenades once, for the four) and shows the total as
information; armor, suits, jet packs and vehicles carry none and get none invented.  A squad
is held to a budget only when its players set one (the squad's points limit).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from core.systems.base import CardLine, Closed, UnitCard, Violation
from core.systems.skirmishers.catalogue import CAT, WEAPONS, Weapon

Kind = Literal["trooper", "power_armor", "vehicle"]
ExperienceKey = Literal["green", "regular", "veteran", "elite"]
ArmorKey = Literal["none", "basic", "standard", "heavy"]
SuitKey = Literal["basic", "standard", "heavy"]

KIND_LABELS: dict[str, Any] = {
    "trooper": "Trooper",
    "power_armor": "Power-armor trooper",
    "vehicle": "Vehicle",
}

#: What may fill each slot, by group (see the module's notes).
PRIMARY_GROUPS = ("primary", "crew", "launcher", "incendiary")
SECONDARY_GROUPS = ("secondary", "melee")
SECONDARY_EXTRA = ("satchel", "law", "grenade_launcher")
PA_PRIMARY = tuple(k for k, w in WEAPONS.items() if w.group == "pa")


def _choices(keys: list[str]) -> dict[str, Any]:
    labels: dict[str, Any] = {"": "None", **{k: WEAPONS[k].name for k in keys}}
    return {"enum": ["", *keys], "x-labels": labels}


PRIMARY_KEYS = [
    k for k, w in WEAPONS.items() if w.group in PRIMARY_GROUPS and not w.thrown and w.slot != "secondary"
] + list(PA_PRIMARY)
SECONDARY_KEYS = [
    k for k, w in WEAPONS.items() if (w.group in SECONDARY_GROUPS and not w.always) or k in SECONDARY_EXTRA
]


class Soldier(Closed):
    """One unit card (L90-L131; power armor L817-L861; vehicle L613-L662)."""

    name: str = Field(min_length=1, max_length=40, description="Trooper's or vehicle's name.")
    kind: Kind = Field(
        default="trooper",
        description="Which card: a trooper, a trooper in power armor, or a vehicle.",
        json_schema_extra={"x-labels": KIND_LABELS},
    )
    number: str = Field(default="", max_length=8, description="Squad position number.")
    experience: ExperienceKey = Field(
        default="regular",
        description="Skill: Green -1 AP, Regular, Veteran +1 AP, Elite +2 AP (L555-L559).",
        json_schema_extra={"x-labels": {k: e.name for k, e in CAT.experience.items()}},
    )
    squad_leader: bool = Field(default=False, description="This trooper leads the squad (morale, L565).")
    leadership: int = Field(default=2, ge=0, le=6, description="Leadership of a squad leader; 2 is standard.")
    primary: str = Field(
        default="rifle",
        description="Primary weapon (power armor: from its own table).",
        json_schema_extra=_choices(PRIMARY_KEYS),
    )
    primary2: str = Field(
        default="",
        description="Second primary weapon: standard and heavy power armor only (L861).",
        json_schema_extra=_choices(list(PA_PRIMARY)),
    )
    secondary: str = Field(
        default="pistol",
        description="Secondary weapon: ranged, melee, satchel charge, light anti-tank weapon, or a "
        "grenade launcher under a rifle or SMG.",
        json_schema_extra=_choices(SECONDARY_KEYS),
    )
    body_armor: ArmorKey = Field(
        default="none",
        description="Body armor of a trooper: basic 2 cells -1 AP, standard 4 -2, heavy 6 -3 (L200-L207).",
        json_schema_extra={"x-labels": {k: a.name for k, a in CAT.body_armor.items()}},
    )
    suit: SuitKey = Field(
        default="standard",
        description="Power armor: basic 4 armor cells, standard 6, heavy 8 (L839).",
        json_schema_extra={"x-labels": {k: a.name for k, a in CAT.suits.items()}},
    )
    smoke_grenades: int = Field(
        default=0, ge=0, le=4, description="Of the 4 hand grenades, how many are smoke."
    )
    incendiary_grenades: int = Field(
        default=0, ge=0, le=4, description="Of the 4 hand grenades, how many are incendiary."
    )
    extra_ammo: str = Field(
        default="",
        description="Extra ammunition for one weapon: doubles an explosive weapon's rounds (L419).",
        json_schema_extra=_choices([k for k, w in WEAPONS.items() if w.ammo]),
    )
    jet_pack: bool = Field(default=False, description="A trooper's jet pack: -2 max AP (L585).")
    sneak_suit: bool = Field(default=False, description="Sneak suit: +1 against long-range shots (L517).")
    armor_from: int = Field(
        default=10,
        ge=0,
        le=10,
        description="Advanced body armor: the HP column its protected cells start at; they run right from "
        "it, as many as the armor covers (L384, L393).",
    )
    vehicle: Literal["scout", "assault"] = Field(
        default="scout",
        description="Vehicle profile: scout (armor 4, 3x, +0, -1) or assault (8, 2x, +1, -2) (L650-L662).",
        json_schema_extra={"x-labels": {k: v.name for k, v in CAT.vehicles.items()}},
    )
    vehicle_armor: int | None = Field(
        default=None, ge=0, le=13, description="Vehicle armor cells, if not the profile's."
    )
    vehicle_weapons: list[str] = Field(
        default_factory=list,
        max_length=2,
        description="Weapons mounted on the vehicle (usually light machine guns, L660-L662).",
    )

    @field_validator("primary", "primary2", "secondary", "extra_ammo")
    @classmethod
    def _known(cls, v: str) -> str:
        if v and v not in WEAPONS:
            raise ValueError("not a weapon of the book's tables")
        return v

    @field_validator("vehicle_weapons")
    @classmethod
    def _known_list(cls, v: list[str]) -> list[str]:
        for k in v:
            if k not in WEAPONS:
                raise ValueError("not a weapon of the book's tables")
        return v


def armor_cells(u: Soldier) -> int:
    """Armor cells left unmarked before the game (L207, L839, L650)."""
    if u.kind == "power_armor":
        return CAT.suits[u.suit].cells
    if u.kind == "vehicle":
        return u.vehicle_armor if u.vehicle_armor is not None else CAT.vehicles[u.vehicle].armor
    return CAT.body_armor[u.body_armor].cells


def guard_row(u: Soldier) -> list[int]:
    """The armor row under advanced body armor: the card's protected columns clear, the rest -1
    (L384, L393); empty for a trooper without body armor, power armor and vehicles."""
    cover = CAT.body_armor[u.body_armor].cells if u.kind == "trooper" else 0
    if not cover:
        return []
    first = 10 - u.armor_from  # HP column 10 is the first cell
    return [0 if first <= i < first + cover else -1 for i in range(11)]


def has_jet_pack(u: Soldier) -> bool:
    """A trooper's own jet pack, or the one basic and standard suits come with (L855)."""
    if u.kind == "power_armor":
        return CAT.suits[u.suit].jet_pack
    return u.kind == "trooper" and u.jet_pack


def ap_bonus(u: Soldier) -> int:
    """What shifts the whole AP row: experience, body armor, a trooper's jet pack (L207, L553-L559,
    L585, L851; no jet-pack penalty on power armor, AMB-41)."""
    bonus = CAT.experience[u.experience].ap
    if u.kind == "trooper":
        bonus -= CAT.body_armor[u.body_armor].ap
        bonus -= 2 if u.jet_pack else 0
    return bonus


def carried(u: Soldier) -> list[str]:
    """The weapons on the card, in its order: primary (primaries), secondary, grenades, fists, knife."""
    if u.kind == "vehicle":
        return list(u.vehicle_weapons or CAT.vehicles[u.vehicle].weapons)
    out = [w for w in (u.primary, u.primary2 if u.kind == "power_armor" else "", u.secondary) if w]
    if u.kind == "trooper":
        frag = 4 - u.smoke_grenades - u.incendiary_grenades
        if frag > 0:
            out.append("hand_grenade")
        if u.smoke_grenades:
            out.append("smoke_grenade")
        if u.incendiary_grenades:
            out.append("incendiary_grenade")
        out += ["fists", "knife"]
    else:
        out.append("pa_fists")
    return out


def grenades(u: Soldier) -> dict[str, int]:
    """Thrown grenades a trooper starts with, by kind (L131, L445, AMB-33)."""
    if u.kind != "trooper":
        return {}
    frag = 4 - u.smoke_grenades - u.incendiary_grenades
    return {
        k: n
        for k, n in (
            ("hand_grenade", frag),
            ("smoke_grenade", u.smoke_grenades),
            ("incendiary_grenade", u.incendiary_grenades),
        )
        if n > 0
    }


def pv(u: Soldier) -> int:
    """The PV total of the weapons on the card (information only, AMB-1)."""
    total = 0
    for key in carried(u):
        w = WEAPONS[key]
        if key in ("smoke_grenade", "incendiary_grenade") and "hand_grenade" in carried(u):
            continue  # the four grenades are priced once, as the hand grenade row (L187)
        total += w.pv
    return total


def _v(rule: str, message: str, ref: str) -> Violation:
    return Violation(rule=rule, message=message, ref=ref)


def violations(u: Soldier) -> list[Violation]:
    """The slot rules one card breaks (L131-L194, L356, L415-L419, L855-L877)."""
    out: list[Violation] = []
    p, s = WEAPONS.get(u.primary), WEAPONS.get(u.secondary)
    if u.kind == "vehicle":
        return out
    if u.kind == "power_armor":
        if p is not None and p.group != "pa":
            out.append(_v("pa-primary", "power armor takes its primaries from its own table", "L861-L871"))
        if u.primary2:
            if CAT.suits[u.suit].primaries < 2:
                out.append(_v("pa-second", "basic power armor carries one primary weapon", "L861"))
            elif WEAPONS[u.primary2].group != "pa":
                out.append(
                    _v("pa-primary", "power armor takes its primaries from its own table", "L861-L871")
                )
        if u.body_armor != "none" or u.jet_pack:
            out.append(
                _v("pa-armor", "the suit is the armor (and the jet pack where it has one)", "L839, L855")
            )
        if u.smoke_grenades or u.incendiary_grenades:
            out.append(_v("pa-grenades", "power armor cannot use hand or smoke grenades", "L857, L908"))
        if s is not None and s.group == "pa":
            out.append(_v("pa-secondary", "the secondary is a standard infantry weapon", "L877"))
        return out
    if p is not None and p.group == "pa":
        out.append(_v("trooper-primary", f"{p.name} is a power-armor weapon", "L867"))
    if p is not None and p.group not in PRIMARY_GROUPS:
        out.append(_v("trooper-primary", f"{p.name} is not a primary weapon", "L137, L415"))
    if u.secondary == "grenade_launcher" and u.primary not in ("rifle", "smg"):
        out.append(
            _v(
                "mounted-gl",
                "a grenade launcher in the secondary slot is mounted under a rifle or SMG",
                "L417",
            )
        )
    if u.primary2:
        out.append(_v("one-primary", "a trooper carries one primary weapon", "L137"))
    if u.smoke_grenades + u.incendiary_grenades > 4:
        out.append(_v("grenades", "smoke and incendiary grenades come out of the 4 hand grenades", "L445"))
    cover = CAT.body_armor[u.body_armor].cells
    if cover and u.armor_from + 1 < cover:
        out.append(
            _v("armor-columns", f"{cover} protected columns from HP {u.armor_from} run past the card", "L393")
        )
    if u.extra_ammo and u.extra_ammo not in carried(u):
        out.append(_v("extra-ammo", "extra ammunition is for a weapon the trooper carries", "L419"))
    return out


def card(u: Soldier) -> UnitCard:
    """The card's lines in the book's order (L90-L119, L617-L640, L817-L835)."""
    exp = CAT.experience[u.experience].name
    lines = [CardLine(label="Number", value=u.number or "-"), CardLine(label="Skill", value=exp)]
    if u.kind != "vehicle" and u.squad_leader:
        lines.append(CardLine(label="Squad leader", value=f"leadership {u.leadership}"))
    if u.kind == "vehicle":
        v = CAT.vehicles[u.vehicle]
        lines += [
            CardLine(label="Armor", value=str(armor_cells(u))),
            CardLine(label="SPD Mult.", value=f"{v.speed}x"),
            CardLine(label="Handling", value=f"{v.handling:+d}"),
            CardLine(label="Signature", value=f"{v.signature:+d}"),
        ]
    else:
        armor = CAT.suits[u.suit].name if u.kind == "power_armor" else CAT.body_armor[u.body_armor].name
        # a trooper without body armour reads so, not as an armour named "None" of 0 cells
        cells = armor_cells(u)
        lines.append(CardLine(label="Armor", value=f"{armor} ({cells} cells)" if cells else "no body armor"))
    for key in carried(u):
        w = WEAPONS[key]
        lines.append(CardLine(label=w.name, value=weapon_line(w, u)))
    if has_jet_pack(u):
        lines.append(CardLine(label="Jet pack", value="fitted"))
    if u.sneak_suit:
        lines.append(CardLine(label="Sneak suit", value="worn"))
    lines.append(
        CardLine(label="PV", value=str(pv(u)), note="the book prints PV without saying what it is for")
    )
    return UnitCard(title=u.name, kind=KIND_LABELS[u.kind], lines=lines)


def weapon_line(w: Weapon, u: Soldier | None = None) -> str:
    """Damage, shots, AP, ranges and ammo in a few words."""
    bits = [w.ring_text]
    if w.shots == 0:
        bits.append("burst")
    elif w.shots:
        bits.append(f"x{w.shots}")
    if w.ap_per_dot:
        bits.append(f"{w.ap_per_dot} AP a dot")
    elif w.ap:
        bits.append(f"{w.ap} AP")
    if w.short is not None:
        bits.append(f"short {w.short}" + (f", long {w.long}" if w.long else ""))
    if u is not None and w.thrown and u.kind == "trooper":
        bits.append(f"{grenades(u).get(_key_of(w), 0)} carried" if _key_of(w) in grenades(u) else "")
    elif w.ammo:
        extra = 2 if u is not None and u.extra_ammo == _key_of(w) and w.explosive else 1
        bits.append(f"ammo {w.ammo * extra}")
    return "; ".join(b for b in bits if b)


def _key_of(w: Weapon) -> str:
    return next(k for k, x in WEAPONS.items() if x is w)
