"""The Shoot action (L595-L801): the table's answers read into a :class:`~.shooting.Shot`, resolved
against the game and its exact odds.

:mod:`.shooting` holds the dice procedure itself (pools, blocks, criticals, the chart) and its exact
distribution; this module holds what the game decides around it: the weapon, cover after orders and
space, re-rolls, beam defence and shields, the defender's choices, damage dealt.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.dice import DiceSource, Dist
from core.game import Game, GameUnit
from core.pool import table
from core.systems.base import ActionOdds, ActionResult, Choice, NeedChoice, Offer, needs
from core.systems.gundam_skirmish.battle import (
    ENEMY,
    OWN,
    PICK,
    Changes,
    Units,
    ask_units,
    asked_units,
    chart_for,
    has,
    in_space,
    integrity_left,
    levels_of,
    opts,
    profile,
    trans_am,
    weather,
)
from core.systems.gundam_skirmish.catalogue import BEAM_DEFENCE, SHIELDS
from core.systems.gundam_skirmish.damage import apply_chart, mark_shield_broken, mega_damage, take_damage
from core.systems.gundam_skirmish.economy import mega_allowed, rout_due, spend
from core.systems.gundam_skirmish.gates import x_weapon
from core.systems.gundam_skirmish.mega import destroyed_chance
from core.systems.gundam_skirmish.shooting import (
    DefendGroup,
    Hits,
    Shot,
    ShotRoll,
    cancel_choices,
    hit_count,
    roll_shot,
    shield_break,
    shot_odds,
)
from core.systems.gundam_skirmish.traits import earn_bonus, free_weapon, turn_mark
from core.systems.gundam_skirmish.units import RangedWeapon, Unit, armour_of, carried_names

Cover = Literal["unobstructed", "in_cover", "obstructed"]


Range = Literal["in_band", "beyond", "closer"]


Ask = Literal["ask", "yes", "no"]


class ShotBase(BaseModel):
    """What every shot names first: who shoots at whom."""

    model_config = ConfigDict(extra="forbid")

    attacker: str = Field(description="The shooting unit.", json_schema_extra=OWN)
    target: str = Field(description="The target.", json_schema_extra=ENEMY)


class ShootInput(ShotBase):
    """A Shoot (Fast): what the table shows is answered here."""

    weapon: str = Field(
        default="",
        max_length=60,
        description="One of the shooter's weapons; empty: the equipped carried weapon, else the first "
        "mounted one.",
        json_schema_extra=PICK,
    )
    cover: Cover = Field(
        default="in_cover",
        description="How much of the target the shooter sees (L676-L703; A2).",
        # The book's default reading carries no modifier (In Cover, L685-L693); only Unobstructed takes a
        # die from the defender's pool (L677-L684): the buttons say so, so no player takes In cover for open.
        json_schema_extra={
            "flow": "choice",
            "x-labels": {
                "unobstructed": "Unobstructed (defender -1 die)",
                "in_cover": "In cover (no modifier)",
                "obstructed": "Obstructed (no modifier)",
            },
        },
    )
    range: Range = Field(
        default="in_band",
        description="Inside the range band; beyond it, up to double its top, never farther (L611-L613); or "
        "closer than its lower end (A23; never for an Explosive weapon, L613-L614).",
        json_schema_extra={
            "flow": "choice",
            "x-labels": {"in_band": "In range", "beyond": "Beyond, to 2x top", "closer": "Closer than range"},
        },
    )
    higher: bool = Field(
        default=False,
        description="The shooter stands higher than the target (L745).",
        json_schema_extra={"flow": "common"},
    )
    target_sees_shooter: bool = Field(
        default=True,
        description="The target has the shooter in sight (else Flanking; and no Shield Bonus); for a Volley "
        "too, unless the game's reading says a Volley's target never sees the shooter (L1615).",
        json_schema_extra={"flow": "common"},
    )
    volley: bool = Field(
        default=False,
        description="A Volley at a target out of sight (<V>, L1606-L1619).",
        json_schema_extra={"flow": "common", **needs("volley")},
    )
    massed_fire: int = Field(
        default=0,
        ge=0,
        le=2,
        description='Same-named units within 6" (Massed Fire, L2937-L2941): a unit with the ability only.',
        json_schema_extra=needs("massed_fire"),
    )
    heat_radiation: int = Field(
        default=0,
        ge=0,
        le=3,
        description="Dice added by Heat Radiation, 1 self-damage each (L2889-L2894): a unit with the ability "
        "only.",
        json_schema_extra=needs("heat_radiation"),
    )
    blast: Units = asked_units("Other units within 6\" of a <B> weapon's target; asked once it deals damage.")
    shield_break: Ask = Field(
        default="ask",
        description="The target breaks its shield to halve the damage and cancel the chart rolls "
        "(L1121-L1128); 'ask': its player decides once the result is known (A12).",
        json_schema_extra={"ui": "hidden"},  # answered through the question after the roll
    )
    cancel_criticals: int | None = Field(
        default=None,
        ge=0,
        le=60,
        description="How many criticals the target's player leaves standing when its blocks could take "
        "either (L713-L719; A6); None: asked when it makes a difference.",
        json_schema_extra={"ui": "hidden"},  # answered through the question after the roll
    )
    free: bool = Field(
        default=False,
        description="A free Shoot, no action spent: after a kill (Fierce, Blitzkrieg, L1964-L1966, "
        "L2788-L2793) or a Shoot with Fire Support's weapon (L2868-L2873) with that weapon, or in an "
        "enemy's turn as an enemy comes into range (Responsive, once that turn, L1992-L1994).",
        json_schema_extra=needs("free_shot"),
    )
    merciful: bool = Field(
        default=False,
        description="Merciful (once a battle, L1981-L1983): if the shot would deal damage, it deals none "
        "and the shooter regains 2 Integrity instead.",
        json_schema_extra=needs("merciful"),
    )
    weather: bool = Field(
        default=False,
        description="Bad Weather: the target's player removes one hit from the pool (3 times a game, "
        "L3321-L3327).",
        json_schema_extra={"flow": "common"},
    )


def usable_weapons(gu: GameUnit) -> list[RangedWeapon]:
    """Equipped weapons: every mounted one and the equipped carried one (L426-L444)."""
    unit = profile(gu)
    equipped = gu.state.extra.get("equipped", "")
    out = []
    for w in unit.weapons:
        if w.equip == "M" or (w.name == equipped and not has(gu, "no_carried")):
            out.append(w)
    return out


def unlearnt(gu: GameUnit, attack: str) -> str:
    """Why a Mobile Fighter's character may not make this attack: not one of its techniques."""
    p = profile(gu).character
    known = ", ".join(p.techniques or []) if p is not None else ""
    return (
        f"{gu.name}'s pilot has not learnt {attack}: a Mobile Fighter attacks only with the techniques its "
        f"character chose ({known or 'none yet'}; L1837-L1844)"
    )


def pick_weapon(gu: GameUnit, name: str) -> RangedWeapon:
    """The named weapon, checked; empty: the equipped carried weapon if ready, else a ready mounted one."""
    unit = profile(gu)
    if name:
        w = next((w for w in unit.weapons if w.name == name), None)
        if w is None:
            raise ValueError(f"{gu.name} has no weapon '{name}'")
        if w.equip == "C" and w.name not in carried_names(unit):
            raise ValueError(f"'{name}' was not taken into this battle")
        if not unit.knows(w.name):
            raise ValueError(unlearnt(gu, w.name))
        if w not in usable_weapons(gu):
            raise ValueError(f"'{name}' is not equipped: use Switch Weapon first (L424-L444)")
        return w
    ready = [
        w
        for w in usable_weapons(gu)
        if not gu.state.extra.get("reload", {}).get(w.name) and unit.knows(w.name)
    ]
    if not ready:
        raise ValueError(f"{gu.name} has no equipped weapon ready to fire")
    return sorted(ready, key=lambda w: w.equip != "C")[0]


def beam_defence(unit: Unit) -> tuple[int, int] | None:
    """Dice and success of an I-field, GN field or beam shield (L666-L674; heroic I-Field, L3226-L3230)."""
    if unit.beam_defence != "none":
        return BEAM_DEFENCE[unit.beam_defence]
    if unit.character is not None and "i_field" in unit.character.heroic_mods:
        value = armour_of(unit)[0]
        grade = (
            "light" if value <= 1 else "medium" if value <= 3 else "heavy" if value == 4 else "super_heavy"
        )
        return BEAM_DEFENCE[grade]
    return None


def shield_usable(gu: GameUnit, sees: bool) -> bool:
    """Shield Bonus: shield integrity left, the shooter in sight, no Arm Damage or Flight Mode (L649-L654)."""
    unit = profile(gu)
    return (
        unit.shield != "none"
        and gu.state.counters.get("shield", 0) > 0
        and sees
        and gu.state.counters.get("arm", 0) == 0
        and not has(gu, "flight_mode")
    )


def cover_after(game: Game, target_side: int, cover: Cover, penetration: bool) -> Cover:
    """Cover after Get to cover! (L1478-L1483), <P> (L1342-L1344) and space (L1398-L1399; A22)."""
    o = opts(game)
    if cover == "unobstructed" and game.sides[target_side].resources.get("get_to_cover", 0):
        cover = "in_cover"
    step = {"unobstructed": 0, "in_cover": 1, "obstructed": 2}[cover]
    shifts = int(penetration) + int(in_space(game))
    if not o.space_p_stack:
        shifts = min(shifts, 1)
    order: list[Cover] = ["unobstructed", "in_cover", "obstructed"]
    return order[max(0, step - shifts)]


def panoramic(game: Game, unit: Unit) -> bool:
    """Panoramic Cockpit cancels Flanking (L2964-L2965), except in Dense Minovsky Particles (L3311-L3312)."""
    return unit.has("panoramic_cockpit") and weather(game) != "dense_minovsky"


def attack_rerolls(game: Game, s: int, a: GameUnit, t: GameUnit, higher: bool, sees: bool) -> int:
    """Height (not in space) and Flanking each re-roll one failed hit; Veteran only alone (L745-L781; A42)."""
    unit, target = profile(a), profile(t)
    n = int(higher and not in_space(game))
    flank = not sees or bool(game.sides[s].resources.get("concentrate_fire", 0)) or unit.pilot_has("flanker")
    if flank and not panoramic(game, target):
        n += 1
    if n == 0 and unit.pilot_has("veteran"):
        n = 1
    return n


def build_shot(game: Game, inp: ShootInput) -> tuple[Shot, RangedWeapon, dict[str, Any]]:
    """Every number of the Shoot, from the two units, their state and the answers about the table."""
    s, _, a = game.unit(inp.attacker)
    ts, _, t = game.unit(inp.target)
    if s == ts:
        raise ValueError("a unit shoots at an enemy")
    if t.state.destroyed or has(t, "withdrawn") or has(t, "reserve"):
        raise ValueError(f"{t.name} is not on the table")
    if has(t, "dig_in"):
        raise ValueError(f"{t.name} is dug in and cannot be shot (L2851)")
    mega_allowed(game, a, t)
    w = pick_weapon(a, inp.weapon)
    if a.state.extra.get("reload", {}).get(w.name):
        raise ValueError(f"'{w.name}' must be reloaded first (L415-L422, L730-L731)")
    if inp.range == "closer" and w.weapon_class == "explosive":
        raise ValueError("an Explosive weapon cannot fire closer than its lower range (L611-L614)")
    if inp.weather and (weather(game) != "bad_weather" or game.sides[ts].resources.get("weather", 0) >= 3):
        raise ValueError("hits are removed only in Bad Weather, 3 times a game per player (L3321-L3327)")
    for key, n in (("massed_fire", inp.massed_fire), ("heat_radiation", inp.heat_radiation)):
        if n and (why := x_weapon(game, inp.attacker, key, w.name)):
            raise ValueError(why)  # the ability's X WEAPON only (L2937-L2941, L2889-L2894)
    if inp.volley and weather(game) == "dense_minovsky":
        raise ValueError("no Volley in Dense Minovsky Particles (L3312-L3313)")
    if inp.volley and ("V" not in w.tags or in_space(game)):
        raise ValueError("a Volley needs a <V> weapon and cannot be made in space (L1606, L1401)")
    unit, target = profile(a), profile(t)
    penetration = "P" in w.tags or has(a, "bring_them_down")
    cover = cover_after(game, ts, inp.cover, penetration)
    # L1615 leaves open whether a Volley's target sees the shooter: the players say, or never (a reading)
    sees = inp.target_sees_shooter and not (inp.volley and opts(game).volley_target_sees == "never")
    acc = w.acc
    if a.state.counters.get("arm", 0) or has(a, "acc5"):
        acc = max(acc, 5)  # Arm Damage, Smoke: accuracy 5+ (L743, L1184-L1199, L2987-L2993; A7)
    crit = w.crit
    if target.sd:  # an SD target: 1 more to hit and to crit, 2 for a Mega Unit shooting (L1362-L1363)
        bump = 2 if unit.parts is not None else 1
        acc, crit = min(6, acc + bump), None if crit is None else min(6, crit + bump)
    if target.parts is not None:
        crit = None  # a Mega Unit takes no Critical Hits (L1318-L1319)
    groups: list[DefendGroup] = []
    bd = beam_defence(target)
    if w.weapon_class == "beam" and bd is not None:
        groups.append(DefendGroup("beam", bd[0], bd[1], beam=True))
    dice, success = armour_of(target)
    dice += (-1 if cover == "unobstructed" else 0) + (0 if inp.range == "in_band" else 1)
    groups.append(DefendGroup("armour", max(0, dice), success))
    shield_check = False
    if shield_usable(t, sees):
        grade = SHIELDS[target.shield]
        if not (penetration and opts(game).shield_against_p == "ignored"):
            groups.append(
                DefendGroup("shield", grade.dice, grade.success, own_reroll=target.has("solid_defence"))
            )
            shield_check = penetration
    defend_rerolls = int(a.state.counters.get("head", 0) > 0)
    if defend_rerolls == 0 and target.pilot_has("impenetrable"):
        defend_rerolls = 1
    coating = int(
        (w.weapon_class == "beam" and target.has("anti_beam_coating"))
        or (w.weapon_class in ("low_calibre", "medium_calibre") and target.has("heavy_plating"))
        or (w.weapon_class == "explosive" and target.has("reactive_armour"))
    )
    shot = Shot(
        shots=w.shots,
        acc=acc,
        crit=crit,
        dam=w.dam + (2 if trans_am(game, s, a) else 0),
        penetration=penetration,
        extra_shots=inp.massed_fire + inp.heat_radiation,
        attack_rerolls=attack_rerolls(game, s, a, t, inp.higher, sees),
        groups=tuple(groups),
        shield_check=shield_check,
        defend_rerolls=defend_rerolls,
        coating=coating,
        movable_frame=target.has("movable_frame"),
        chart=chart_for(target),
        levels=levels_of(t),
        chart_per_crit=2 if unit.pilot_has("controlled_aim") else 1,
        integrity_left=integrity_left(t),
        elusive=target.pilot_has("elusive"),
        fortunate=target.pilot_has("fortunate"),
        remove_hit=inp.weather,
    )
    return shot, w, {"cover": cover}


def can_shield_break(gu: GameUnit) -> bool:
    """A Shield Break needs a shield still on the model, any integrity, in sight or not (L1121-L1128; A37)."""
    return profile(gu).shield != "none" and not has(gu, "shield_broken")


def defender_decides(
    inp: ShootInput, t: GameUnit, roll: ShotRoll, hits: int, choices: dict[int, Hits], per_crit: int
) -> tuple[int, Literal["yes", "no"]]:
    """The target's player's two decisions once the dice are down: which hits its blocks cancel
    (L713-L719; A6), which only changes how many criticals stay, and whether to break its shield
    (L1121-L1128; A12: after seeing the result).  Asked together, once, when either is open.

    Returns (criticals left, "yes" when the shield breaks).  The odds before the roll assume the
    fewest criticals and no Shield Break.
    """
    damage = roll.damage
    pick = inp.cancel_criticals
    if pick is not None and pick not in choices:
        allowed = " or ".join(map(str, choices))
        raise ValueError(f"the blocks can leave {allowed} critical(s) standing, not {pick} (L713-L719)")
    crit_options = list(choices) if pick is None else [pick]
    breakable = can_shield_break(t) and (damage > 0 or any(k * per_crit for k in crit_options))
    if inp.shield_break == "ask" and breakable:
        breaks: list[Literal["yes", "no"]] = ["no", "yes"]
    else:
        breaks = ["yes" if inp.shield_break == "yes" and breakable else "no"]
    if breaks == ["yes"] or len(crit_options) == len(breaks) == 1:
        return crit_options[0], breaks[0]  # a broken shield cancels every chart roll: nothing else to pick
    mighty = profile(t).has("mighty_shield") and "mighty_shield" not in t.state.extra.get("once", [])
    options: list[Choice] = []
    for k in crit_options:
        rolls = k * per_crit
        parts = ["Keep the shield"] if len(breaks) > 1 else []
        if len(crit_options) > 1:
            parts.append(f"{k} critical{'s' if k != 1 else ''} left")
        parts += [
            f"{damage} damage",
            f"{rolls} chart roll{'s' if rolls != 1 else ''}" if rolls else "no chart roll",
        ]
        label = ", ".join(parts)
        label = label[0].upper() + label[1:]
        assumed = k == crit_options[0]  # the odds: the fewest criticals, the shield kept
        if len(breaks) > 1:
            also = {"cancel_criticals": k} if len(crit_options) > 1 else {}
            options.append(Choice(value="no", label=label, also=also, assumed=assumed))
        else:
            options.append(Choice(value=k, label=label, assumed=assumed))
    if len(breaks) > 1:
        keeps = " (Mighty Shield keeps it once)" if mighty and any(k * per_crit for k in crit_options) else ""
        also = {"cancel_criticals": crit_options[0]} if len(crit_options) > 1 else {}
        label = f"Break the shield{keeps}: {shield_break(damage)} damage, no chart roll"
        options.append(Choice(value="yes", label=label, also=also))
    faces = ", ".join(str(roll.attack_rerolled.get(i, f)) for i, f in enumerate(roll.attack))
    blocks = ", ".join(str(f) for group in roll.defend.values() for f in group) or "none"
    question = (
        f"{t.name}'s player decides. Attack {faces}, defence {blocks}: "
        f"{hits} hit{'s' if hits != 1 else ''} through for {damage} damage"
    )
    if len(crit_options) > 1:
        question += f"; the blocks may leave {crit_options[0]} to {crit_options[-1]} of its criticals"
    field = "shield_break" if len(breaks) > 1 else "cancel_criticals"
    raise NeedChoice(field, question + ".", options)


def with_free_weapon(game: Game, inp: ShootInput) -> ShootInput:
    """A free Shoot fires the weapon that earned it (Fierce, Blitzkrieg, Fire Support): checked, and
    filled in when the input names none (:mod:`.traits`)."""
    if not inp.free:
        return inp
    return inp.model_copy(update={"weapon": free_weapon(game, inp.attacker, inp.weapon, inp.target)})


def shoot(game: Game, inp: ShootInput, dice: DiceSource) -> ActionResult:
    """Shoot (L595-L801), Volley (L1606-L1619), Blast (L1271-L1275), Shield Break (L1121-L1128); the
    free Shoots of Fierce, Blitzkrieg, Fire Support and Responsive and Merciful (:mod:`.traits`)."""
    inp = with_free_weapon(game, inp)
    shot, w, info = build_shot(game, inp)
    s, u, a = game.unit(inp.attacker)
    ch = Changes(game)
    result = _shoot(game, inp, dice, ch, shot, w, info)
    if game.state.active_side != s:  # Responsive: once per opposing player's turn (L1992-L1994)
        ch.extra(s, u, "responsive", turn_mark(game))
        return result.model_copy(update={"changes": ch.list})
    killed = any(
        ch.unit(n, i).state.destroyed and not g.state.destroyed
        for n, side in enumerate(game.sides)
        if n != s
        for i, g in enumerate(side.units)
    )
    earned = earn_bonus(game, a, w.name, killed, inp.free)
    if earned is not None:
        other = [inp.target] if earned[1] == "Fire Support" else []  # at another target (L2871-L2873)
        ch.extra(s, u, "bonus_shot", [earned[0], turn_mark(game), *other])
        text = f"{result.text}; {earned[1]}: one free Shoot with {earned[0]}"
        # offered at once on the result: the sheet opens with the free Shoot filled in
        offer = Offer(
            action="shoot",
            input={"attacker": inp.attacker, "weapon": earned[0], "free": True},
            label=f"Free Shoot with {earned[0]} ({earned[1]})"[:120],
        )
        return result.model_copy(update={"changes": ch.list, "text": text, "offers": [offer]})
    if inp.free:
        ch.extra(s, u, "bonus_shot", [])
    return result.model_copy(update={"changes": ch.list})


def _shoot(
    game: Game,
    inp: ShootInput,
    dice: DiceSource,
    ch: Changes,
    shot: Shot,
    w: RangedWeapon,
    info: dict[str, Any],
) -> ActionResult:
    s, u, a = game.unit(inp.attacker)
    ts, tu, t = game.unit(inp.target)
    if fail := spend(ch, s, u, 0 if inp.free else 1, "shoot", dice):
        return ActionResult(changes=ch.list, text=fail)
    texts = [f"{a.name} shoots {t.name} with {w.name}"]
    if w.reload:
        ch.extra(s, u, "reload", {**a.state.extra.get("reload", {}), w.name: True})
    if inp.heat_radiation:
        take_damage(ch, s, u, inp.heat_radiation, dice, texts)
    unit = profile(a)
    if unit.has("poor_balance") and unit.ability_x("poor_balance") in ("", w.name):
        face = dice.roll(1, 6, "Poor Balance")[0]
        texts.append(f"Poor Balance {face}" + (": 1 damage to itself (L2978-L2979)" if face >= 5 else ""))
        if face >= 5 and take_damage(ch, s, u, 1, dice, texts):
            return ActionResult(changes=ch.list, text="; ".join(texts), detail={})
    detail: dict[str, Any] = {"cover": info["cover"]}
    if inp.volley:
        gate = dice.roll(1, 6, "Volley")[0]
        detail["volley"] = gate
        if gate <= 3:
            texts.append(f"Volley {gate}: the shot fails (L1613)")
            return ActionResult(changes=ch.list, text="; ".join(texts), detail=detail)
    roll = roll_shot(shot, dice)
    if roll.removed:
        ch.resource(ts, "weather", game.sides[ts].resources.get("weather", 0) + 1)
        texts.append("Bad Weather: one hit removed (L3321-L3327)")
    if roll.elusive == 6:
        texts.append(f'Elusive 6: {t.name} moves 4" and ignores the attack (L3277-L3283)')
        return ActionResult(changes=ch.list, text="; ".join(texts), detail={"attack": roll.attack})
    hits = hit_count(roll.left)[0]
    choices = cancel_choices(roll.hits, roll.blocks)
    damage = roll.damage  # every choice cancels as many hits, so the damage is the same (A6)
    target = profile(t)
    crits, answer = defender_decides(inp, t, roll, hits, choices, shot.chart_per_crit)
    detail.update(
        attack=roll.attack,
        attack_rerolled=roll.attack_rerolled,
        defend=roll.defend,
        defend_rerolled=roll.defend_rerolled,
        shield_check=roll.shield_check,
        hits=hits,
        crits=crits,
    )
    if roll.shield_check is not None and roll.shield_check >= 4:
        ch.counter(ts, tu, "shield", t.state.counters.get("shield", 0) - 1)
    rolls = crits * shot.chart_per_crit
    texts.append(f"{hits} hit{'s' if hits != 1 else ''} through, {damage} damage, {crits} critical")
    if len(choices) > 1 and crits != min(choices):
        texts.append(f"{t.name}'s blocks left {crits} critical standing by its player's choice (L713-L719)")
    if answer == "yes":
        damage = shield_break(damage)
        keep = (
            rolls > 0 and target.has("mighty_shield") and "mighty_shield" not in t.state.extra.get("once", [])
        )
        rolls = 0
        if keep:
            ch.extra(ts, tu, "once", [*t.state.extra.get("once", []), "mighty_shield"])
            texts.append(
                f"Shield Break: {damage} damage, no chart roll; Mighty Shield keeps the shield (L2948)"
            )
        else:
            mark_shield_broken(ch, ts, tu)
            texts.append(f"Shield Break: {damage} damage, no chart roll, the shield is gone (L1123-L1128)")
    if inp.merciful and (damage or rolls):  # Merciful: no damage dealt, 2 Integrity back (L1981-L1983)
        ch.extra(s, u, "once", [*a.state.extra.get("once", []), "merciful"])
        ch.set(["sides", s, "units", u, "state", "damage"], max(0, ch.unit(s, u).state.damage - 2))
        texts.append(f"Merciful: {t.name} is spared, {a.name} regains 2 Integrity (L1981-L1983)")
        return ActionResult(changes=ch.list, text="; ".join(texts), detail=detail)
    ch.by = s if s != ts else None
    destroyed = take_damage(ch, ts, tu, damage, dice, texts)
    if not destroyed and rolls:
        apply_chart(ch, ts, tu, rolls, dice, texts)
    if "B" in w.tags and damage:
        if inp.blast is None:  # who stands near is for the players to say (L1271-L1275)
            ask_units(
                game,
                "blast",
                f'{w.name} blasts {damage} damage: which other units are within 6" of {t.name}? '
                "(L1271-L1275)",
                leave_out={f"{s}/{a.key}", f"{ts}/{t.key}"},
            )
        for ref in inp.blast:
            bs, bu, bg = game.unit(ref)
            if (bs, bu) == (ts, tu) or (bs, bu) == (s, u):
                continue
            texts.append(f"Blast: {bg.name} takes {damage}")
            ch.by = s if s != bs else None
            take_damage(ch, bs, bu, damage, dice, texts)
    return ActionResult(changes=ch.list, text="; ".join(texts), detail=detail)


def odds_tables(damage: Dist[int], crits: Dist[int], destroyed: Fraction, summary: str) -> ActionOdds:
    return ActionOdds(
        tables={"damage": table(damage), "critical hits": table(crits)},
        facts={"destroyed": float(destroyed)},
        summary=summary,
    )


def half_nothing(d: Dist[int]) -> Dist[int]:
    """``d`` half the time, 0 the other half."""
    weights = dict(d.weights)
    weights[0] = weights.get(0, 0) + d.total
    return Dist(weights, 2 * d.total)


def shoot_odds(game: Game, inp: ShootInput) -> ActionOdds:
    """Exact damage, Damage Chart rolls and the chance to destroy (before any Shield Break)."""
    inp = with_free_weapon(game, inp)
    shot, w, info = build_shot(game, inp)
    o = shot_odds(shot)
    damage, crits, destroyed = o.damage, o.crits, o.destroyed
    _, _, t = game.unit(inp.target)
    parts = profile(t).parts
    mega = ""
    if parts is not None:  # the location die decides: only damage to the Torso destroys (L1312-L1318)
        torso = mega_damage(t)["torso"]
        destroyed = sum(
            (p * destroyed_chance(parts, torso, d) for d, p in damage.probabilities()), Fraction(0)
        )
        mega = "; a Mega Unit: a D6 picks the part hit (Torso on 3-5), no criticals"
    if inp.volley:  # a Volley goes through on 4+ (L1613): half the time nothing happens
        damage, crits, destroyed = half_nothing(damage), half_nothing(crits), destroyed / 2
    _, _, a = game.unit(inp.attacker)
    if not inp.free and rout_due(a):  # a Routed unit's first action waits on a D6 of 4+ (L1554-L1558)
        damage, crits, destroyed = half_nothing(damage), half_nothing(crits), destroyed / 2
        mega += "; Routed: a D6 first, the unit runs on 1-3"
    spared = Fraction(0)
    if inp.merciful:  # L1981-L1983: a shot that would deal damage deals none; 2 Integrity back instead
        mega += f"; Merciful: whatever damage it would deal, {a.name} regains 2 Integrity instead"
        spared = 1 - damage.probability(0)  # a critical is a hit through: never without damage
        damage, crits, destroyed = Dist.constant(0), Dist.constant(0), Fraction(0)
    out = odds_tables(
        damage,
        crits,
        destroyed,
        f"{w.name}: hits on {shot.acc}+, target {info['cover'].replace('_', ' ')}, "
        f"{' + '.join(f'{g.dice} {g.name} on {g.success}+' for g in shot.groups)}{mega}. "
        "Assumes the target's blocks cancel the most hits, then the most criticals, and it keeps its "
        "shield: its player decides both after the roll",
    )
    if inp.merciful:
        out.facts[MERCIFUL_KEY] = float(spared)
    return out


#: The odds' fact of a Merciful shot: the chance the shooter spares its target and regains 2 Integrity.
MERCIFUL_KEY = "regains 2 Integrity (Merciful)"
