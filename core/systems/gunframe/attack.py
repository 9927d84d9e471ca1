"""The GUNFRAME attack (L974-1200): firepower pool against defense pool.

One plan (:func:`plan`) gathers both pools from the units, their upgrades, their
state and the situational modifiers the players tick; :func:`resolve` rolls it
with :func:`core.pool.roll_pool` and :func:`attack_odds` computes its exact
distribution from the same :class:`~core.pool.PoolSpec` objects.

* Firepower: the weapon system's value (L1062) + 1D per attack modifier
  (L1074-1088) + Focus Fire 2D (L1375; +1D Extra Ammo, L2436) + Anti-Aircraft
  2D against a flying target (L2428).  4+ hits, each 6 is a power point
  (L1092-1100).
* Defense: Defense, or the Close value against a Close attack (L1111, L1146);
  flat bonuses, then halved if shut down or climbing (L958, L896), then dice
  modifiers (L1129-1132 and upgrades).  4+ cancels a hit (L1156).
* Damage = hits not cancelled (L1176); power points may be spent only when the
  attack rolled a 6 and did damage (L1188).  Each die is rerolled at most once
  (L353).

The power points are reported in the result's detail and kept on the attacker
(``state.extra["power"]``) for the ``power`` action (:mod:`.power`) to spend.
A reaction attack (L1414-1434) or a rapid fire (L1052-1058) pays its Focus
Point here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, model_validator

from core.dice import DiceSource, Dist
from core.pool import MAX_DICE, PoolRoll, PoolSpec, cancel, reroll_chosen, roll_pool, table
from core.systems.base import (
    ActionOdds,
    ActionResult,
    Change,
    Choice,
    Closed,
    NeedChoice,
    action_texts,
    enemy_unit,
    needs,
    own_unit,
)
from core.systems.gunframe.building import GunframeUnit, all_forms, form_upgrades, weapon_upgrades
from core.systems.gunframe.burn import KEY as BURN_KEY
from core.systems.gunframe.burn import burn_through
from core.systems.gunframe.effects import (
    WHEN_ORDER,
    AttackDice,
    CountsObscured,
    CoverAs,
    DefenseDice,
    DefenseValue,
    DodgePerSix,
    ExtraPowerPoints,
    FocusFireDice,
    FreeRapidFire,
    IgnoresCover,
    IgnoresCrippled,
    IgnoresObscured,
    IndirectFire,
    LuckyReroll,
    Parry,
    Rerolls,
    SoaksForFriend,
    SplitFire,
    WeaponValue,
    When,
)
from core.systems.gunframe.environment import environment_of, storm_active
from core.systems.gunframe.groups import followers
from core.systems.gunframe.links import TRIGGERS, Trigger, nemesis_kill, pay_trigger
from core.systems.gunframe.options import GunframeOptions, options_of
from core.systems.gunframe.reactions import ReactionTrigger, check_trigger, off_log_field, trigger_field
from core.systems.gunframe.state import Edits, react, spend_fp
from core.systems.gunframe.structures import bury, kind_of
from core.systems.gunframe.upgrades import effects_by, effects_of, has_effect

if TYPE_CHECKING:
    from core.game import Game, GameUnit

_TEXTS = action_texts(__package__)

Weapon = Literal["close", "short", "medium", "long"]


def _flag(
    ref: str, text: str, common: bool = False, need: dict[str, Any] | None = None, same_odds: str = ""
) -> Any:
    # common: a modifier the game screen shows first (core.systems.base.ActionSpec); need: what a
    # unit must have for it (core.systems.base.needs, checked in gates.py); same_odds: why it changes
    # no odds, when it does not (tests/test_contract.py)
    hints = {**({"flow": "common"} if common else {}), **(need or {})}
    if same_odds:
        hints["same_odds"] = same_odds
    return Field(default=False, description=f"{text} ({ref})", json_schema_extra=hints or None)


class AttackInput(Closed):
    """What the players tell the app about one attack; the units' upgrades and state add the rest."""

    attacker: str = own_unit("The attacking unit, as 'side/key'.")
    target: str = enemy_unit("The unit attacked, as 'side/key'.")
    weapon: Weapon = Field(
        default="short",
        description="Range band, and so the weapon system used (L1036-1040).",
        json_schema_extra={"flow": "choice"},
    )
    charge: bool = _flag(
        "L1076",
        "+1D: the attacker's first action this turn moved it into contact with the target",
        common=True,
    )
    crossfire: bool = _flag(
        "L1080", '+1D: an unactivated friend within 8" sees the target from its other arc', common=True
    )
    elevated: bool = _flag(
        "L1084", "+1D: attacker on high ground, target not (automatic for a flyer vs a walker)", common=True
    )
    rear: bool = _flag(
        "L1086",
        "+1D: line of sight enters the target's back arc (automatic if it is knocked down)",
        common=True,
    )
    focus_fire: bool = _flag(
        "L1375",
        "Spend the target's Target Lock for +2D (+3D with Extra Ammo, L2436)",
        need=needs("target_lock", "target"),
    )
    precise_strike: bool = _flag(
        "L1377",
        "Spend the target's Target Lock to reroll firepower dice showing 1-3",
        need=needs("target_lock", "target"),
    )
    indirect_fire: bool = _flag(
        "L2440",
        "Fire without line of sight with an Indirect Fire system: spends the Target Lock; the target "
        "is obscured and never in cover",
        need=needs("indirect_fire"),
    )
    split_dice: int = Field(
        default=0,
        ge=0,
        le=20,
        description="Split Fire (L2462): the weapon's dice sent at this target, before modifiers; the rest "
        "go at other targets, one attack entry each, and the shares must add up to the system's value "
        "(0: the whole system fires here).",
        json_schema_extra=needs("split_fire"),
    )
    followers: list[str] = Field(
        default_factory=list,
        max_length=11,
        description="Group attack (L2635-2661): conventional units of the attacker's side, not activated "
        "yet, within 2 inches of it and seeing the target, as 'side/key'. Each adds its value in the same "
        "weapon system; all of them count as activated afterwards (L2641).",
    )
    bonus_attack_dice: int = Field(
        default=0,
        ge=0,
        le=12,
        description="Other firepower dice the players agree on, e.g. a swung object (L3013).",
    )
    obscured: bool = _flag("L1134", "+1D defense: the attacker cannot see all of the target", common=True)
    cover: bool = _flag(
        "L1136", "+1D defense: the target touches solid terrain between it and the attacker", common=True
    )
    hard_cover: bool = _flag("L1138", "+2D defense instead: the cover is dense or fortified")
    defend_with_close: bool = _flag(
        "L1146", "Close attacks only: the target rolls its Close value, not Defense"
    )
    evade: bool = _flag(
        "L1400",
        "Spend the target's Evade counter to reroll defense dice showing 1-3",
        need=needs("evade", "target"),
    )
    shield_wall: bool = _flag(
        "L2414",
        "+1 Defense: the target touches a friendly unit that also has Shield Wall",
        need=needs("shield_wall", "target"),
    )
    in_building: bool = _flag("L2948", "+1 Defense: the target is infantry inside a building")
    climbing: bool = _flag("L896", "The target stopped part-way up a climb: its Defense is halved")
    underwater: bool = _flag(
        "L2093",
        "Underwater environment: +1D defense against Long attacks (on by itself when the game's environment "
        "is underwater)",
    )
    bonus_defense_dice: int = Field(
        default=0, ge=0, le=12, description="Other defense dice the players agree on (L1127)."
    )
    parry: bool = _flag(
        "L2448",
        "The target uses its Parry: 1 damage to the attacker per defensive 6, no dodge",
        need=needs("parry", "target"),
    )
    reaction: bool = _flag(
        "L1414-1434",
        "The attacker reacts to this target: 1 FP, once a turn, only before it activates",
        same_odds="it costs a Focus Point; the attack's dice are the same",
    )
    quick_reflexes: bool = _flag(
        "L2338",
        "The reaction is free: the attacker's once-a-game Quick Reflexes",
        need=needs("quick_reflexes"),
        same_odds="it spares the reaction's Focus Point; the attack's dice are the same",
    )
    rapid_fire: bool = _flag(
        "L1052-1058",
        "Second use of this weapon system this activation: 1 FP (none with Rapid Reload, L2458)",
        same_odds="it costs a Focus Point; the attack's dice are the same",
    )
    trigger: Trigger = Field(
        default="none",
        description="A linked upgrade's attack, not an activation (L2276-2280): Buddies reacts to the "
        "enemy that attacked the partner (L2302); Rivals after the partner destroyed an enemy (L2342), "
        "Well-Oiled on the enemy the partner just locked (L2356), Wingman after the partner's attack "
        "(L2358), each for 1 FP.",
        json_schema_extra={
            "same_odds": "it costs a Focus Point; the attack's dice are the same",
            "x-labels": {"none": "None", **{k: v[1] for k, v in TRIGGERS.items()}},
        },
    )
    lucky: Literal["none", "attacker", "defender"] = Field(
        default="none",
        description="Once per battle, a Lucky unit rerolls one of its rolls (L2330): after seeing its pool, "
        "the player picks which dice to roll again (each die once, L353). The odds assume it rerolls "
        "every die that missed.",
        json_schema_extra={
            "needs": [
                *needs("lucky", "actor", ["attacker"])["needs"],
                *needs("lucky", "target", ["defender"])["needs"],
            ]
        },
    )
    lucky_dice: list[int] = Field(
        default_factory=list,
        max_length=MAX_DICE,
        description="The dice the Lucky unit rolls again, by their place in its pool (1 = first), picked "
        "after the roll; asked when left empty; [0] keeps Lucky for later (L2330).",
        json_schema_extra={"ui": "hidden"},  # answered through the question after the roll
    )
    reaction_trigger: ReactionTrigger | None = trigger_field()
    trigger_off_log: bool = off_log_field()
    target_engaged_with: Literal["unknown", "attacker_side", "another_side"] = Field(
        default="unknown",
        description="Whom an engaged target is in base contact with (L992): with two sides it can only be "
        "the attacker's side; with more the app asks.",
        json_schema_extra={"ui": "hidden"},  # answered through the question before the roll
    )
    guardian: str | None = enemy_unit(
        'A friendly unit with Guardian within 3" of the target (L2316): if the attack does '
        "damage, it pays 1 Focus Point and takes the damage, and the power attacks, instead.",
        default=None,
    )

    @model_validator(mode="after")
    def _one_use_of_the_lock(self) -> AttackInput:
        if self.focus_fire + self.precise_strike + self.indirect_fire > 1:
            raise ValueError(
                "a Target Lock is spent once: choose Focus Fire, Precise Strike or Indirect Fire"
            )
        if self.reaction and self.rapid_fire:
            raise ValueError(
                "a reaction attack never counts against its system, so needs no rapid fire (L1434)"
            )
        if self.quick_reflexes and not self.reaction:
            raise ValueError("Quick Reflexes pays for a reaction (L2338)")
        if self.trigger_off_log and not self.reaction:
            raise ValueError("a trigger is confirmed only for an attack made as a reaction (L1424-1426)")
        if self.reaction_trigger is not None and not self.reaction:
            raise ValueError("a trigger is only for an attack made as a reaction (L1424-1426)")
        if self.lucky_dice and self.lucky == "none":
            raise ValueError("dice to reroll are picked only for a Lucky unit (L2330)")
        return self


@dataclass
class Plan:
    """Both pools of one attack and everything needed to read the result."""

    attack: PoolSpec
    defense: PoolSpec | None
    attack_notes: list[str]
    defense_notes: list[str]
    attacker: tuple[int, int, GameUnit]
    target: tuple[int, int, GameUnit]
    armour_left: int
    #: Power points added once damage is settled (Powerful, L2454).
    extra_power: int
    options: GunframeOptions
    spent: list[str] = field(default_factory=list)
    can_dodge: bool = True
    #: Inches a defensive 6 dodges (Agile's 2, L2370).
    dodge_per_six: int = 1
    parry: bool = False
    guardian: tuple[int, int, GameUnit] | None = None
    structure: bool = False
    group: list[tuple[int, int, GameUnit, int]] = field(default_factory=list)
    split_value: int = 0
    #: The pool rolled before a Lucky unit picks dice to reroll; ``attack`` or ``defense`` then holds the
    #: pool the odds use, with every missed die not yet rerolled rolled again (L2330).
    lucky_base: PoolSpec | None = None
    #: The weapon system counted against one attack per system this activation (L1046-1050), if any.
    counts_system: bool = False
    #: The target is engaged and the app must ask with whom before rolling (more than two sides, L992).
    ask_engaged: bool = False


def _form(unit: GameUnit) -> tuple[GunframeUnit, int]:
    profile = GunframeUnit.model_validate(unit.profile)
    form = unit.state.extra.get("form", 0)
    if not isinstance(form, int) or not 0 <= form < len(all_forms(profile)):
        form = 0
    return profile, form


def plan(game: Game, inp: AttackInput) -> Plan:
    """Gather both pools; ValueError when the attack cannot be made as described."""
    opts = options_of(game)
    a_side, a_idx, attacker = game.unit(inp.attacker)
    t_side, t_idx, target = game.unit(inp.target)
    if a_side == t_side and a_idx == t_idx:
        raise ValueError("a unit cannot attack itself")
    if attacker.state.destroyed or target.state.destroyed:
        raise ValueError(f"{attacker.name if attacker.state.destroyed else target.name} is destroyed")
    if "shut_down" in attacker.state.conditions:
        raise ValueError(f"{attacker.name} is shut down: it can only reboot (L956)")
    if kind_of(attacker) is not None and not inp.reaction:
        raise ValueError(
            f"{attacker.name} is a structure: only a gun emplacement fires, and only as a reaction paid "
            "with a Focus Point (L1943)"
        )
    env = environment_of(game)
    t_struct = kind_of(target) is not None
    if "knocked_down" in attacker.state.conditions:
        raise ValueError(f"{attacker.name} must stand up with a move action before attacking (L952)")
    a_prof, a_form = _form(attacker)
    t_prof, t_form = _form(target)
    a_ups = set(form_upgrades(a_prof, a_form))
    t_ups = set(form_upgrades(t_prof, t_form))
    w_ups = weapon_upgrades(a_prof, a_form)[inp.weapon]
    t_weapons = weapon_upgrades(t_prof, t_form)
    a_cond, t_cond = set(attacker.state.conditions), set(target.state.conditions)
    close = inp.weapon == "close"
    flying_t, flying_a = "flying" in t_cond, "flying" in a_cond
    knocked = "knocked_down" in t_cond
    from_front = not (inp.rear or (knocked and not opts.deflect_vs_knocked_down))
    # The closed conditions of effects.When, as this attack has them.
    a_facts: dict[When, bool] = {"crippled": "crippled" in a_cond, "target_flying": flying_t}
    t_facts: dict[When, bool] = {
        "crippled": "crippled" in t_cond,
        "shield_wall": inp.shield_wall,
        "from_front": from_front,
        "both_flying": flying_t and flying_a,
        "flying_vs_long": flying_t and inp.weapon == "long",
    }
    ask_engaged = _check_engagement(game, inp, attacker, target, a_cond, t_cond)

    # Firepower (L1062-1088).
    value = getattr(all_forms(a_prof)[a_form], inp.weapon)
    notes = [f"{inp.weapon.capitalize()} {value}"]
    if "crippled" in a_cond and not has_effect(a_ups, IgnoresCrippled):
        value = math.ceil(value / 2)  # crippled halves weapons, rounding up (L2733, L357)
        notes.append(f"crippled: halved to {value}")
    for label, bonus in _weapon_bonuses(a_ups, inp.weapon, a_facts):
        value += bonus  # Anger Issues' +2 Close (L2300)
        notes.append(f"{label} +{bonus}")
    if value < 1:
        raise ValueError(f"{attacker.name} has no {inp.weapon} weapon system to attack with (L1064)")
    split_value = value
    _check_split(attacker, inp, value, w_ups)
    if inp.split_dice:
        value = inp.split_dice
        notes.append(f"split fire: {value} of them at this target")
    dice = value
    group = followers(game, inp.followers, (a_side, a_idx, attacker), inp.weapon, inp.trigger != "none")
    for _s, _i, member, extra_dice in group:
        dice += extra_dice  # L2657
        notes.append(f"{member.name} +{extra_dice}")
    spent: list[str] = []
    bonuses = [
        (inp.charge, "charge", "L1076"),
        (inp.crossfire, "crossfire", "L1080"),
        (inp.elevated or (flying_a and not flying_t), "elevated", "L1084"),
        (inp.rear or "knocked_down" in t_cond, "rear", "L1086, L950"),
        ("shut_down" in t_cond, "target shut down", "L1088"),
    ]
    for on, label, _ref in bonuses:
        if on and t_struct:
            notes.append(f"no {label} against a structure (L2925)")
        elif on:
            dice += 1
            notes.append(f"{label} +1")
    lock_spent = inp.focus_fire or inp.precise_strike or inp.indirect_fire
    if lock_spent and target.state.counters.get("target_lock", 0) < 1:
        raise ValueError(f"{target.name} has no Target Lock to spend (L1373)")
    if inp.indirect_fire and not has_effect(w_ups, IndirectFire):
        raise ValueError(f"{attacker.name}'s {inp.weapon} system has no Indirect Fire (L2440)")
    if inp.indirect_fire and env == "space_structure":
        raise ValueError("Indirect Fire cannot be used inside a space structure (L2077)")
    if lock_spent:
        spent.append("target_lock")
    if inp.focus_fire:
        extra = 2 + sum(e.n for e in effects_of(w_ups, FocusFireDice))  # L1375, Extra Ammo's +1 (L2436)
        dice += extra
        notes.append(f"focus fire +{extra}")
    for up, more in effects_by(w_ups, AttackDice):
        if _holds(more.when, a_facts):
            dice += more.n  # Anti-Aircraft's +2 against airborne targets (L2428)
            notes.append(f"{up.name.lower()} +{more.n}")
    if inp.bonus_attack_dice:
        dice += inp.bonus_attack_dice
        notes.append(f"other +{inp.bonus_attack_dice}")
    # Rerolls, each die once (L353): Precise Strike's 1-3 include Warrior's 1s (digest 11.3).
    if inp.lucky == "attacker":
        _check_lucky(attacker, a_ups, inp.precise_strike)
    if inp.lucky == "defender":
        _check_lucky(target, t_ups, inp.evade)
    if inp.precise_strike:
        attack = PoolSpec(dice=dice, success_on=4, crit_on=6, reroll="faces", reroll_faces=(1, 2, 3))
        notes.append("precise strike: reroll 1-3")
    elif rerolls := [(up, e) for up, e in effects_by(a_ups, Rerolls) if e.weapon in (None, inp.weapon)]:
        faces = tuple(sorted({f for _, e in rerolls for f in e.faces}))  # Warrior's 1s in Close (L2354)
        attack = PoolSpec(dice=dice, success_on=4, crit_on=6, reroll="faces", reroll_faces=faces)
        notes.append(f"{rerolls[0][0].name}: reroll {_faces(faces)}")
    else:
        attack = PoolSpec(dice=dice, success_on=4, crit_on=6)
    lucky_base: PoolSpec | None = None
    if inp.lucky == "attacker":
        lucky_base, attack = attack, lucky_policy(attack)
        notes.append("Lucky: picks dice to reroll (odds: every miss)")

    # Defense (L1111-1152): base, flat bonuses, halving, then dice (digest 11.5).
    shut = "shut_down" in t_cond
    d_notes: list[str] = []
    if inp.defend_with_close and not close:
        raise ValueError("the Close value defends only against Close attacks (L1146)")
    if inp.defend_with_close and not shut:
        base = all_forms(t_prof)[t_form].close
        d_notes.append(f"Close {base}")
        # The Close system is a weapon system: crippled halves it (L2733) when defending too (L1146);
        # Anger Issues and Reinforced skip the halving and Anger Issues adds +2 Close (L2300, L2410).
        if "crippled" in t_cond and not has_effect(t_ups, IgnoresCrippled):
            base = math.ceil(base / 2)
            d_notes.append(f"crippled: halved to {base}")
        for label, bonus in _weapon_bonuses(t_ups, "close", t_facts):
            base += bonus
            d_notes.append(f"{label} +{bonus}")
    else:
        base = all_forms(t_prof)[t_form].defense
        d_notes.append(f"Defense {base}")
    for wall, plus in effects_by(t_ups, DefenseValue):
        if _holds(plus.when, t_facts):
            base += plus.bonus  # Shield Wall's +1 touching a friend with it (L2414)
            d_notes.append(f"{wall.name.lower()} +{plus.bonus}")
    if inp.in_building or target.state.extra.get("inside"):
        base += 1  # infantry in a building (L2948)
        d_notes.append("in a building +1")
    if shut or inp.climbing:
        base = math.ceil(base / 2)
        d_notes.append(f"{'shut down' if shut else 'climbing'}: halved to {base}")
    d_dice = base
    stealthy = any(inp.weapon in e.weapons for e in effects_of(t_ups, CountsObscured))  # Stealth (L2420)
    obscured = inp.obscured or inp.indirect_fire or stealthy
    storm = storm_active(game) and inp.weapon in ("medium", "long")  # L2025
    obscured = obscured or storm
    if obscured and (eyes := effects_by(a_ups, IgnoresObscured)):
        d_notes.append(f"obscured ignored ({eyes[0][0].name})")  # Eagle Eyes (L2312)
    elif obscured:
        d_dice += 1
        d_notes.append("obscured +1" + (" (storm)" if storm and not inp.obscured else ""))
    hard = inp.hard_cover or (inp.cover and any(e.cover == "hard" for e in effects_of(t_ups, CoverAs)))
    if (inp.cover or hard) and t_struct:
        d_notes.append("a structure is never in cover (L2927)")
    elif (inp.cover or hard) and (
        flying_t or inp.indirect_fire or (pierce := effects_by(w_ups, IgnoresCover))
    ):
        why = "flying" if flying_t else "indirect fire" if inp.indirect_fire else pierce[0][0].name  # L2452
        d_notes.append(f"cover ignored ({why})")
    elif hard and opts.hard_cover_adds_to_cover and inp.cover:
        d_dice += 3  # the named reading: hard cover's 2D on top of cover's 1D (L1132)
        d_notes.extend(["cover +1", "hard cover +2"])
    elif hard:
        d_dice += 2
        d_notes.append("hard cover +2")
    elif inp.cover:
        d_dice += 1
        d_notes.append("cover +1")
    # Deflect, Dogfighter and Chaff (L2388, L2310, L2376), in the order of effects.When.
    for source, die in sorted(effects_by(t_ups, DefenseDice), key=lambda ue: WHEN_ORDER.index(ue[1].when)):
        if _holds(die.when, t_facts):
            d_dice += die.n
            d_notes.append(f"{source.name.lower()} +{die.n}")
    if (inp.underwater or env == "underwater") and inp.weapon == "long":
        d_dice += 1
        d_notes.append("underwater +1")
    if inp.bonus_defense_dice:
        d_dice += inp.bonus_defense_dice
        d_notes.append(f"other +{inp.bonus_defense_dice}")
    if inp.evade:
        if shut:
            raise ValueError(f"{target.name} is shut down and cannot use its Evade (L958)")
        if target.state.counters.get("evade", 0) < 1:
            raise ValueError(f"{target.name} has no Evade counter to spend (L1400)")
        spent.append("evade")
        d_notes.append("evade: reroll 1-3")
    if inp.parry and not (close and has_effect(t_weapons["close"], Parry)):
        raise ValueError(f"{target.name} has no Parry to use against this attack (L2448)")
    defense = None
    if d_dice > 0:
        reroll: Literal["none", "faces"] = "faces" if inp.evade else "none"
        defense = PoolSpec(
            dice=d_dice, success_on=4, crit_on=6, reroll=reroll, reroll_faces=(1, 2, 3) if inp.evade else ()
        )
        if inp.lucky == "defender":
            lucky_base, defense = defense, lucky_policy(defense)
            d_notes.append("Lucky: picks dice to reroll (odds: every miss)")
    elif inp.lucky == "defender":
        raise ValueError(f"{target.name} rolls no defense dice for Lucky to reroll (L2330)")
    guardian = _guardian(game, inp, t_side, t_idx)
    return Plan(
        attack=attack,
        defense=defense,
        attack_notes=notes,
        defense_notes=d_notes,
        attacker=(a_side, a_idx, attacker),
        target=(t_side, t_idx, target),
        armour_left=_armour_left(guardian[2] if guardian else target),
        extra_power=sum(e.n for e in effects_of(w_ups, ExtraPowerPoints)),
        options=opts,
        spent=spent,
        can_dodge=not (knocked or shut or t_struct),  # a structure never dodges (L2928)
        dodge_per_six=max([1, *(e.inches for e in effects_of(t_ups, DodgePerSix))]),
        parry=inp.parry,
        guardian=guardian,
        structure=t_struct,
        group=group,
        split_value=split_value,
        lucky_base=lucky_base,
        counts_system=_check_system_use(attacker, inp),
        ask_engaged=ask_engaged,
    )


def lucky_policy(spec: PoolSpec) -> PoolSpec:
    """The pool the odds assume for a Lucky reroll (L2330): every die that missed and was not rerolled
    already is rolled again (each die once, L353), which is the pick :func:`resolve` gets when the player
    ticks every missed die.

    >>> warrior = PoolSpec(dice=2, success_on=4, crit_on=6, reroll="faces", reroll_faces=(1,))
    >>> lucky_policy(warrior).reroll_faces
    (1, 2, 3)
    """
    faces = set(range(1, spec.success_on))
    if spec.reroll == "faces":
        faces |= set(spec.reroll_faces)
    return spec.model_copy(update={"reroll": "faces", "reroll_faces": tuple(sorted(faces))})


def _check_engagement(
    game: Game, inp: AttackInput, attacker: GameUnit, target: GameUnit, a_cond: set[str], t_cond: set[str]
) -> bool:
    """Who may attack whom at which range, from the Engaged and Flying conditions the players set.

    * Close attacks pass between two flyers or two ground units only (L924); a ground unit touching a
      flyer uses its Short system on it (L924).
    * An engaged unit attacks only at Close (L990); an enemy engaged with the attacker's side is attacked
      only at Close (L992).  With more than two sides the app asks whom the target is engaged with
      (True: :func:`resolve` asks before rolling; the odds are shown meanwhile).
    """
    flying_a, flying_t = "flying" in a_cond, "flying" in t_cond
    if inp.weapon == "close" and flying_a != flying_t:
        who = attacker.name if flying_a else target.name
        raise ValueError(
            f"{who} is flying: close attacks pass only between two flyers or two ground units; a ground unit "
            "in base contact with a flyer uses its Short system (L924)"
        )
    if inp.weapon == "close":
        return False
    ground_on_flyer = inp.weapon == "short" and flying_t and not flying_a
    if "engaged" in a_cond and not ground_on_flyer:
        raise ValueError(f"{attacker.name} is engaged: it can only make close attacks (L990)")
    if "engaged" not in t_cond or ground_on_flyer:
        return False
    engaged_with = inp.target_engaged_with
    if len(game.sides) == 2:
        if engaged_with == "another_side":
            raise ValueError("with two sides an engaged target can only be in contact with your side")
        engaged_with = "attacker_side"
    if engaged_with == "attacker_side":
        raise ValueError(
            f"{target.name} is engaged with a unit of your side: it can only be attacked at Close (L992)"
        )
    return engaged_with == "unknown"


def _check_system_use(attacker: GameUnit, inp: AttackInput) -> bool:
    """One attack per weapon system each activation (L1046-1050) unless it is a rapid fire (L1052-1058).
    A reaction does not count (L1434), nor a linked upgrade's attack, which is no activation (L2276-2280),
    nor the later shares of a Split Fire, which are the same attack (L2462).  The systems used are kept
    in ``extra["systems_used"]`` until the unit's next activation or the next turn.  True when this
    attack counts."""
    if inp.reaction or inp.trigger != "none":
        return False
    pending = attacker.state.extra.get("split")
    if isinstance(pending, dict) and pending.get("weapon") == inp.weapon and inp.split_dice:
        return False
    used = attacker.state.extra.get("systems_used") or []
    if inp.weapon in used and not inp.rapid_fire:
        raise ValueError(
            f"{attacker.name} has attacked with its {inp.weapon.capitalize()} system this activation: "
            "using it again is a rapid fire for 1 Focus Point (L1046-1058)"
        )
    return True


def _check_split(attacker: GameUnit, inp: AttackInput, value: int, w_ups: set[str]) -> None:
    """Split Fire (L2462): the shares, one attack entry per target, add up to the system's value; the
    share still owed is kept on the attacker (``extra["split"]``) until the last one is sent."""
    pending = attacker.state.extra.get("split")
    left = int(pending["value"]) - int(pending["sent"]) if isinstance(pending, dict) else 0
    if left > 0 and isinstance(pending, dict):
        if not inp.split_dice or pending["weapon"] != inp.weapon:
            raise ValueError(
                f"{attacker.name} still has {left} {pending['weapon']} dice of its Split Fire to send at "
                "another target first: the shares add up to the system's value (L2462)"
            )
        if inp.target in pending["targets"]:
            raise ValueError("each share of a Split Fire goes at a different target (L2462)")
        if inp.split_dice > left:
            raise ValueError(
                f"only {left} of the {pending['value']} dice of {attacker.name}'s {inp.weapon} system are "
                "left to split: the shares add up to the system's value (L2462)"
            )
        return
    if not inp.split_dice:
        return
    if not has_effect(w_ups, SplitFire):
        raise ValueError(f"{attacker.name}'s {inp.weapon} system has no Split Fire (L2462)")
    if inp.split_dice > value:
        raise ValueError(f"{attacker.name}'s {inp.weapon} system has only {value} dice to split (L2462)")
    if inp.split_dice == value:
        raise ValueError(
            f"a Split Fire sends part of the {value} dice here and the rest at other targets; to fire all "
            "of them at this one, do not split (L2462)"
        )


def _holds(when: When, facts: dict[When, bool]) -> bool:
    """Whether a pool modifier's condition holds in this attack."""
    return when == "always" or facts.get(when, False)


def _weapon_bonuses(ups: set[str], weapon: str, facts: dict[When, bool]) -> list[tuple[str, int]]:
    """Bonuses to one weapon system's value that hold now, with the upgrade's name (L2300)."""
    return [
        (up.name, e.bonus)
        for up, e in effects_by(ups, WeaponValue)
        if e.weapon == weapon and _holds(e.when, facts)
    ]


def _faces(faces: tuple[int, ...]) -> str:
    """Faces as a note says them: "1s", "1-3"."""
    if len(faces) == 1:
        return f"{faces[0]}s"
    return f"{faces[0]}-{faces[-1]}"


def _armour_left(unit: GameUnit) -> int:
    return max(0, unit.state.max_damage - unit.state.damage)


def _check_lucky(unit: GameUnit, ups: set[str], rerolled: bool) -> None:
    """Lucky: once per battle (L2330), on dice not rerolled yet (digest 11.3)."""
    if not has_effect(ups, LuckyReroll):
        raise ValueError(f"{unit.name} is not Lucky (L2330)")
    if "lucky" in unit.state.extra.get("used", []):
        raise ValueError(f"{unit.name} has used its Lucky reroll already (L2330)")
    if rerolled:
        raise ValueError(
            f"{unit.name}'s dice showing 1-3 are rerolled already: Lucky would add nothing (L353)"
        )


def _guardian(game: Game, inp: AttackInput, t_side: int, t_idx: int) -> tuple[int, int, GameUnit] | None:
    """The friendly unit that takes the target's damage (L2316), checked before any die is rolled."""
    if inp.guardian is None:
        return None
    g_side, g_idx, guard = game.unit(inp.guardian)
    if g_side != t_side or g_idx == t_idx:
        raise ValueError(f"{guard.name} is not a friend of the target, so cannot guard it (L2316)")
    if guard.state.destroyed:
        raise ValueError(f"{guard.name} is destroyed")
    profile, form = _form(guard)
    if not has_effect(form_upgrades(profile, form), SoaksForFriend):
        raise ValueError(f"{guard.name} has no Guardian (L2316)")
    spend_fp(Edits(game), (g_side, g_idx))  # the Focus Point must be there before the roll (L774-778)
    return g_side, g_idx, guard


def power_points(p: Plan, damage: int, sixes: int) -> int:
    """Points to spend on power attacks (L1188-1190), Powerful's +1 after damage (L2454-2456); none
    against a structure, which power attacks do not affect (L2926)."""
    if damage < 1 or p.structure:
        return 0
    if p.extra_power and (sixes or not p.options.powerful_needs_six):
        return sixes + p.extra_power
    return sixes


def _state_path(side: int, idx: int) -> list[str | int]:
    return ["sides", side, "units", idx, "state"]


def resolve(game: Game, inp: AttackInput, dice: DiceSource) -> ActionResult:
    """Roll the attack, then the defense, and apply the damage."""
    p = plan(game, inp)
    if p.ask_engaged:
        t, a = p.target[2], p.attacker[2]
        raise NeedChoice(
            "target_engaged_with",
            f"Is {t.name} in base contact with a unit of {a.name}'s side?",
            [
                Choice(value="attacker_side", label="Yes"),
                Choice(value="another_side", label="No, with another side's unit"),
            ],
        )
    paid = _pay(game, inp, p)
    a_spec = p.lucky_base if inp.lucky == "attacker" and p.lucky_base else p.attack
    a_roll = roll_pool(a_spec, dice, "attack")
    if inp.lucky == "attacker":
        a_roll = _lucky(paid, inp, p.attacker, a_spec, a_roll, dice, "attack")
    d_roll: PoolRoll | None = None
    if p.defense:
        d_spec = p.lucky_base if inp.lucky == "defender" and p.lucky_base else p.defense
        d_roll = roll_pool(d_spec, dice, "defense")
        if inp.lucky == "defender":
            d_roll = _lucky(paid, inp, p.target, d_spec, d_roll, dice, "defense")
    hits, cancels = a_roll.successes, d_roll.successes if d_roll else 0
    d_sixes = d_roll.crits if d_roll else 0
    damage = cancel(hits, cancels)
    power = power_points(p, damage, a_roll.crits)
    t_side, t_idx, target = p.target
    a_side, a_idx, attacker = p.attacker
    hurt_side, hurt_idx, hurt = p.guardian if p.guardian and damage else p.target
    if p.guardian and damage:
        spend_fp(paid, (hurt_side, hurt_idx))  # L2316
    path = _state_path(t_side, t_idx)
    h_path = _state_path(hurt_side, hurt_idx)
    changes: list[Change] = []
    destroyed = False
    if damage:
        new = min(hurt.state.max_damage, hurt.state.damage + damage)
        changes.append(Change(path=[*h_path, "damage"], value=new))
        if new >= hurt.state.max_damage:  # Armour 0: destroyed (L1182)
            destroyed = True
            changes.append(Change(path=[*h_path, "destroyed"], value=True))
    for counter in p.spent:
        changes.append(Change(path=[*path, "counters", counter], value=0))
    parry_damage = 0
    if p.parry and d_sixes and (damage == 0 or not p.options.parry_only_when_all_cancelled):
        parry_damage = d_sixes  # L2448: 1 damage per defensive 6, and no dodge
        a_path = _state_path(a_side, a_idx)
        a_new = min(attacker.state.max_damage, attacker.state.damage + parry_damage)
        changes.append(Change(path=[*a_path, "damage"], value=a_new))
        if a_new >= attacker.state.max_damage:
            changes.append(Change(path=[*a_path, "destroyed"], value=True))
    # Dodge when every hit is cancelled (L1164), 2" per 6 with Agile (L2370); never when down (L950, L958).
    dodge = 0
    if damage == 0 and p.can_dodge and not parry_damage:
        dodge = d_sixes * p.dodge_per_six
    _hold(paid, inp, p, power, damage, destroyed, hurt_side, hurt_idx)
    nemesis = nemesis_kill(paid, (a_side, a_idx), (hurt_side, hurt_idx)) if destroyed else ""
    if destroyed and kind_of(hurt) is not None:
        paid.notes += bury(paid, (hurt_side, hurt_idx))
    _after_group_and_split(paid, inp, p)
    changes += paid.changes()
    band = inp.weapon.capitalize()
    if damage:
        text = f"{attacker.name} hits {target.name} with {band}: {damage} damage"
        text += f", taken by {hurt.name} (Guardian, 1 FP)" if hurt is not target else ""
        text += f", {power} power point{'s' if power != 1 else ''}" if power else ""
        text += ", destroyed" if destroyed else ""
    else:
        text = f"{attacker.name} attacks {target.name} with {band}: no damage"
        text += f', dodge {dodge}"' if dodge else ""
    if parry_damage:
        text += f"; Parry deals {parry_damage} back"
    text += "".join(f" ({note})" for note in paid.notes) + nemesis
    detail = {
        "attack_pool": {"dice": p.attack.dice, "from": p.attack_notes},
        "defense_pool": {"dice": p.defense.dice if p.defense else 0, "from": p.defense_notes},
        "attack": a_roll.model_dump(mode="json"),
        "defense": d_roll.model_dump(mode="json") if d_roll else None,
        "hits": hits,
        "cancelled": min(hits, cancels),
        "damage": damage,
        "power_points": power,
        "sixes": a_roll.crits,
        "dodge_inches": dodge,
        "parry_damage": parry_damage,
        "destroyed": destroyed,
        "spent": p.spent,
        "damaged": f"{hurt_side}/{hurt.key}" if damage else None,
    }
    return ActionResult(changes=changes, text=text, detail=detail)


def _pay(game: Game, inp: AttackInput, p: Plan) -> Edits:
    """Focus Points for a reaction (L1414-1428) or a rapid fire (L1052-1058), checked before any roll."""
    edits = Edits(game)
    pos = (p.attacker[0], p.attacker[1])
    if inp.reaction:
        edits.notes.append(
            check_trigger(
                game,
                p.attacker[2],
                inp.reaction_trigger,
                p.target[2],
                # Buddies reacts to an attack on its partner (L2302), checked by the link itself
                ref=None if inp.trigger == "buddies" else inp.attacker,
                enemy_ref=inp.target,
                off_log=inp.trigger_off_log,
            )
        )
        react(edits, pos, inp.quick_reflexes, p.options.react_more_than_once)
    trigger = pay_trigger(edits, pos, inp.trigger, inp.target, inp.reaction)
    if trigger:
        edits.notes.append(trigger)
    if inp.rapid_fire and not has_effect(weapon_upgrades(*_form(p.attacker[2]))[inp.weapon], FreeRapidFire):
        spend_fp(edits, pos)  # Rapid Reload fires again for free (L2458)
    if p.counts_system:  # L1046-1050
        used = edits.extra(pos, "systems_used", []) or []
        edits.set_extra(pos, "systems_used", [*used, inp.weapon])
    return edits


def _lucky(
    edits: Edits,
    inp: AttackInput,
    who: tuple[int, int, GameUnit],
    spec: PoolSpec,
    roll: PoolRoll,
    dice: DiceSource,
    purpose: str,
) -> PoolRoll:
    """Lucky (L2330): the player sees the pool, then picks any of its dice to roll again; a die rerolled
    already keeps its face (L353).  Spent once per battle when at least one die is picked."""
    unit = who[2]
    if not inp.lucky_dice:
        faces = ", ".join(str(d.final) for d in roll.dice)
        options = [
            Choice(value=i + 1, label=f"Die {i + 1}: {d.final}")
            for i, d in enumerate(roll.dice)
            if d.rerolled is None
        ]
        options.append(Choice(value=0, label="None: keep Lucky for later"))
        raise NeedChoice(
            "lucky_dice",
            f"{unit.name} rolled {faces}. Which dice does its Lucky roll again?",
            options,
            many=True,
        )
    picked = set(inp.lucky_dice) - {0}
    if picked and 0 in inp.lucky_dice:
        raise ValueError("pick dice to roll again, or none to keep Lucky, not both")
    bad = sorted(i for i in picked if not 1 <= i <= len(roll.dice))
    if bad:
        raise ValueError(f"{unit.name}'s {purpose} pool has {len(roll.dice)} dice: there is no die {bad[0]}")
    again = sorted(i - 1 for i in picked if roll.dice[i - 1].rerolled is None)
    if len(again) < len(picked):
        raise ValueError("a die already rolled again keeps its face: each die is rerolled once (L353)")
    if not again:
        edits.notes.append(f"{unit.name} keeps its Lucky for later")
        return roll
    pos = (who[0], who[1])
    edits.set_extra(pos, "used", [*edits.extra(pos, "used", []), "lucky"])  # once per battle (L2330)
    edits.notes.append(
        f"Lucky: {unit.name} rolls {len(again)} {purpose} {'die' if len(again) == 1 else 'dice'} again"
    )
    return reroll_chosen(spec, roll, again, dice, purpose)


def _after_group_and_split(edits: Edits, inp: AttackInput, p: Plan) -> None:
    """Every group member counts as activated after a group attack (L2641); a Split Fire share is added
    to what the attacker has sent (L2462)."""
    pos = (p.attacker[0], p.attacker[1])
    if p.group:
        for side, idx, _unit, _dice in p.group:
            edits.set((side, idx), "activated", True)
        if not (inp.reaction and p.options.group_reaction_spares_leader):
            edits.set(pos, "activated", True)
    if inp.split_dice:
        pending = edits.extra(pos, "split")
        total, sent, targets = p.split_value, inp.split_dice, [inp.target]
        if (
            isinstance(pending, dict)
            and pending["weapon"] == inp.weapon
            and pending["sent"] < pending["value"]
        ):
            total, sent = int(pending["value"]), sent + int(pending["sent"])
            targets = [*pending["targets"], inp.target]
        left = total - sent
        if left > 0:
            share = {"weapon": inp.weapon, "value": total, "sent": sent, "targets": targets}
            edits.set_extra(pos, "split", share)
            edits.notes.append(f"split fire: {left} dice still to send at other targets")
        else:
            edits.drop_extra(pos, "split")


def _hold(
    edits: Edits, inp: AttackInput, p: Plan, power: int, damage: int, destroyed: bool, side: int, idx: int
) -> None:
    """The power points the attack leaves the attacker holding until it spends them (L1188-1196), against
    the unit that took the damage (a Guardian, L2316)."""
    pos = (p.attacker[0], p.attacker[1])
    if power:
        held = {
            "points": power,
            "target": inp.target
            if (side, idx) == (p.target[0], p.target[1])
            else f"{side}/{edits.unit((side, idx)).key}",
            "weapon": inp.weapon,
            "close": inp.weapon == "close",
            "damage": damage,
            "destroyed": destroyed,
        }
        edits.set_extra(pos, "power", held)
    else:
        edits.drop_extra(pos, "power")  # points not spent after an earlier attack are gone (L1196)


def outcome_dist(p: Plan) -> Dist[tuple[int, int]]:
    """Exact joint distribution of (damage, power points) for a plan."""
    a = p.attack.dist()
    d: Dist[int] = p.defense.dist().map(lambda k: k[0]) if p.defense else Dist.constant(0)

    def read(att: tuple[int, int], cancels: int) -> tuple[int, int]:
        damage = cancel(att[0], cancels)
        return damage, power_points(p, damage, att[1])

    return a.combine(d, read)


def attack_odds(game: Game, inp: AttackInput) -> ActionOdds:
    """Damage and power point tables, and the chance to destroy the target."""
    p = plan(game, inp)
    joint = outcome_dist(p)
    damage = joint.map(lambda k: k[0])
    power = joint.map(lambda k: k[1])
    left = p.armour_left
    kill = sum(w for k, w in damage.weights.items() if k >= left) / damage.total
    summary = f"{p.attack.dice} firepower dice against {p.defense.dice if p.defense else 0} defense dice"
    facts = {"destroyed": kill}
    burn, said = burn_through(game, p, inp.weapon, joint)  # a Burn spend after the roll (L1240-1246)
    if burn is not None:
        facts[BURN_KEY] = burn
    if said:
        summary += f"; {said}"
    tables = {"damage": table(damage), "power": table(power)}
    if p.parry and p.defense:  # L2448: 1 damage back to the attacker per defensive 6, as resolve deals it
        only_all = p.options.parry_only_when_all_cancelled

        def back(hits: int, d: tuple[int, int]) -> int:
            return d[1] if d[1] and not (only_all and cancel(hits, d[0])) else 0

        tables[PARRY_KEY] = table(p.attack.dist().map(lambda k: k[0]).combine(p.defense.dist(), back))
    return ActionOdds(tables=tables, facts=facts, summary=summary)


#: The odds' table of the damage a Parry deals back to the attacker (L2448).
PARRY_KEY = "damage to the attacker (Parry)"


ATTACK = _TEXTS.spec(
    "attack", resolve, odds=attack_odds, headline=("damage", "destroyed", BURN_KEY, "power"), primary=True
)
