"""A battle: player turns, actions, shooting, close combat, morale, orders (L278-L1619).

Every action reads the game, takes each face from the dice source and returns
the changes; the shared layer records them as one event, so undo and redo are
exact.  What a unit keeps (UnitState):

* ``damage`` / ``max_damage``: Integrity lost and the unit's Integrity (L1094-L1098);
* counters ``leg``, ``arm``, ``head`` (Damage Chart levels; Engine and Weapons for
  other units, L1147-L1239), ``shield`` (shield integrity, L654), ``actions``
  (action points used this turn: a Fast action 1, a Slow one 2, L384-L387);
* conditions ``wavering``, ``routed`` (L1536-L1559), ``morale_due`` (a trigger
  happened, L1582-L1602), ``reserve`` (waiting to Ambush), ``shield_broken``,
  ``dig_in``, ``flight_mode``, ``no_actions``, ``no_carried``, ``acc5`` (timed
  effects of Grapple Hook, Heat Rod, Smoke), ``bring_them_down``, ``withdrawn``;
* ``extra``: the equipped carried weapon (or ``"cc"``), which weapons need a
  reload, once-per-battle uses, the pilot's Health and Mind: every key described
  by :class:`~core.systems.gundam_skirmish.unit_state.GsUnitState`.

Geometry (sight, range, cover, height, facing) stays on the table: the
player answers it in the action's form.
"""

from __future__ import annotations

import math
from collections.abc import Sequence, Set
from fractions import Fraction
from typing import Any, Literal, NoReturn

from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from core.changes import Working
from core.dice import DiceSource, Dist
from core.game import Game, GameUnit
from core.pool import table
from core.systems.base import (
    ActionOdds,
    ActionResult,
    ActionSpec,
    CardLine,
    Change,
    Choice,
    FieldPick,
    NeedChoice,
    PhaseStep,
    PhaseView,
    read_options,
)
from core.systems.gundam_skirmish.catalogue import ALL_ENTRIES, BEAM_DEFENCE, SHIELDS, UNARMED
from core.systems.gundam_skirmish.mega import (
    LEVEL_COUNTER,
    LOCATION,
    PARTS,
    MegaParts,
    Part,
    counter,
    destroyed_chance,
    location_odds,
    lost,
    part_level,
)
from core.systems.gundam_skirmish.options import GsOptions
from core.systems.gundam_skirmish.shooting import (
    CATEGORIES,
    CHART_MAX,
    MS_CHART,
    OTHER_CHART,
    DefendGroup,
    Hits,
    Levels,
    Shot,
    ShotRoll,
    after_pool,
    cancel_choices,
    chart_dist,
    hit_count,
    roll_chart,
    roll_shot,
    shield_break,
    shot_odds,
)
from core.systems.gundam_skirmish.units import (
    RangedWeapon,
    Unit,
    armour_of,
    carried_names,
    is_command,
    unit_cost,
    weapon_kind,
    weapon_numbers,
)

OWN: JsonDict = {"ui": "own-unit"}
ENEMY: JsonDict = {"ui": "enemy-unit"}
#: A value the acting unit offers from its own sheet (its weapons): see :func:`shot_picks`.
PICK: JsonDict = {"flow": "pick"}


def profile(gu: GameUnit) -> Unit:
    return Unit.model_validate(gu.profile)


def opts(game: Game) -> GsOptions:
    return read_options(GsOptions, game.options)


def mission(game: Game) -> str:
    """The game type (L169-L229), deathmatch until the players choose (``Game.state.mission``)."""
    return game.state.mission or "deathmatch"


def weather(game: Game) -> str:
    """Earth weather (L3306-L3333): normal, dense_minovsky or bad_weather (``Game.state.environment``)."""
    return game.state.environment or "normal"


def in_space(game: Game) -> bool:
    return bool(game.state.extra.get("space", False))


def turn_limit(game: Game) -> int:
    return int(game.state.clocks.get("turn_limit", 0))


def _p(s: int, u: int, *rest: str) -> list[str | int]:
    return ["sides", s, "units", u, "state", *rest]


class Changes(Working):
    """Changes collected while an action resolves: edits of the shared working copy
    (:class:`core.changes.Working`), logged by the shared diff."""

    #: The side whose attack is dealing damage now (a kill scores for it alone, L179-L190); None for
    #: damage no enemy dealt (a unit's own Heat Radiation, terrain).
    by: int | None = None

    @property
    def list(self) -> list[Change]:
        return self.changes()

    def counter(self, s: int, u: int, key: str, value: int) -> None:
        self.set(_p(s, u, "counters", key), value)

    def condition(self, s: int, u: int, key: str, on: bool) -> None:
        conds = list(self.unit(s, u).state.conditions)
        if on and key not in conds:
            self.set(_p(s, u, "conditions"), [*conds, key])
        elif not on and key in conds:
            self.set(_p(s, u, "conditions"), [c for c in conds if c != key])

    def extra(self, s: int, u: int, key: str, value: Any) -> None:
        self.set(_p(s, u, "extra", key), value)

    def resource(self, s: int, key: str, value: int) -> None:
        self.set(["sides", s, "resources", key], value)


#: Units named by their reference ("side/key"), or None while not asked.
Units = list[str] | None


def asked_units(description: str) -> Any:
    """A field of units the app asks for when the rules need them (hidden from the form)."""
    return Field(default=None, max_length=120, description=description, json_schema_extra={"ui": "hidden"})


def has(gu: GameUnit, cond: str) -> bool:
    return cond in gu.state.conditions


def levels_of(gu: GameUnit) -> Levels:
    c = gu.state.counters
    return (c.get("leg", 0), c.get("arm", 0), c.get("head", 0), 0)


def chart_for(unit: Unit) -> dict[int, str]:
    """The Mobile Suit chart for suits, armours and fighters; the Other Units chart for the rest (A45)."""
    return MS_CHART if unit.kind in ("mobile_suit", "mobile_armour", "mobile_fighter") else OTHER_CHART


def trans_am(game: Game, s: int, gu: GameUnit) -> bool:
    """Trans-Am is on in its player's first 3 turns: double Move and Boost, +2 DAM (L3218-L3224; A39)."""
    return profile(gu).has("trans_am") and game.sides[s].resources.get("turns", 0) <= 3


def integrity_left(gu: GameUnit) -> int:
    return gu.state.max_damage - gu.state.damage


# --- the action economy (L384-L387, L1323-L1325) ------------------------------------------


def budget(unit: Unit) -> int:
    """Action points a turn: 2 (two Fast or one Slow); a mobile fighter 3 (L1323-L1325)."""
    return 3 if unit.kind == "mobile_fighter" else 2


#: Why nothing is done before the first turn (L278-L282).
NOT_BEGUN = (
    "the battle has not begun: roll for priority first; the player placed first takes the first turn "
    "(L278-L282)"
)


def in_upkeep(game: Game) -> bool:
    """The player in turn is still in its Initial Upkeep: none of its units has acted yet (L286-L297)."""
    s = game.state.active_side
    return s is not None and not any(g.state.counters.get("actions", 0) for g in game.sides[s].units)


def mega_allowed(game: Game, *units: GameUnit) -> None:
    """Mega Units play in casual games only: the game's reading ``mega_units`` lets them (L1309-L1311)."""
    for gu in units:
        if profile(gu).parts is not None and not opts(game).mega_units:
            raise ValueError(
                f"{gu.name} is a Mega Unit, for casual games: allow Mega Units in the game's readings "
                "(L1309-L1311)"
            )


def mega_damage(gu: GameUnit) -> dict[Part, int]:
    """A Mega Unit's damage, part by part, as the game keeps it (``state.counters['mega_<part>']``)."""
    return {p: gu.state.counters.get(counter(p), 0) for p in PARTS}


def spend(ch: Changes, s: int, u: int, cost: int, what: str, dice: DiceSource | None = None) -> str:
    """Spend a Fast (1) or Slow (2) action; the unit is Used when its actions are done (L384-L387).

    Returns why the action fails when it does (Obsolete: a 6 before any action, L2958-L2962), else "".
    """
    gu = ch.unit(s, u)
    if gu.state.destroyed or has(gu, "withdrawn"):
        raise ValueError(f"{gu.name} is out of the battle")
    mega_allowed(ch.game, gu)
    if has(gu, "reserve"):
        raise ValueError(f"{gu.name} is waiting to Ambush; it acts once it has arrived (L1267)")
    active = ch.game.state.active_side
    if active is None:
        raise ValueError(NOT_BEGUN)
    if cost and active != s:
        raise ValueError(
            f"it is {ch.game.sides[active].name}'s turn: {ch.game.sides[s].name}'s units act in their own "
            "turn (L294-L297)"
        )
    if has(gu, "no_actions"):
        raise ValueError(f"{gu.name} can take no actions this turn")
    if has(gu, "dig_in") and what != "dig_in":
        raise ValueError(f"{gu.name} is dug in: it can only switch Dig in! off (L2851-L2854)")
    used = gu.state.counters.get("actions", 0)
    if cost == 0:
        return ""
    if used + cost > budget(profile(gu)):
        raise ValueError(
            f"{gu.name} has no {'Slow' if cost == 2 else 'Fast'} action left this turn (L384-L387)"
        )
    ch.counter(s, u, "actions", used + cost)
    if used + cost >= budget(profile(gu)):
        ch.set(_p(s, u, "activated"), True)
    if dice is not None and profile(gu).has("obsolete"):
        face = dice.roll(1, 6, "Obsolete")[0]
        if face == 6:
            return f"{gu.name} is Obsolete: a 6, the action fails (L2958-L2962)"
    return ""


def destroy(ch: Changes, s: int, u: int, dice: DiceSource, texts: list[str]) -> None:
    """A unit at 0 Integrity or hit in the Torso: Core Block, then the Destruction Table (L1132-L1145)."""
    gu = ch.unit(s, u)
    unit = profile(gu)
    if unit.has("exam"):
        face = dice.roll(1, 6, "EXAM System")[0]
        if face >= 5:  # back to half Integrity, rounded down, at least 1 (L3261-L3263; A40)
            ch.set(_p(s, u, "damage"), gu.state.max_damage - max(1, gu.state.max_damage // 2))
            texts.append(f"EXAM System {face}: {gu.name} comes back at half Integrity (L3261-L3263)")
            return
        texts.append(f"EXAM System {face}: no effect")
    ch.set(_p(s, u, "destroyed"), True)
    if unit.has("core_block"):
        face = dice.roll(1, 6, "Core Block System")[0]
        if face >= 4:
            texts.append(f"{gu.name} is destroyed; Core Block System {face}: the pilot escapes (L2836-L2838)")
            score_kill(ch, s, u, texts)
            return
    face = dice.roll(1, 6, "Destruction Table")[0]
    if face <= 3 and unit.pilot_has("fortunate"):
        # Fortunate re-rolls the Destruction roll once (L1968-L1969); the app spends it on 1-3.
        texts.append(f"Destruction Table {face}, re-rolled (Fortunate)")
        face = dice.roll(1, 6, "Destruction Table (Fortunate)")[0]
    result = {1: "Instant Death", 2: "Major Injuries", 3: "Major Injuries", 4: "Minor Injuries"}.get(
        face, "Minor Injuries" if face == 5 else "Lucky Escape"
    )
    texts.append(f"{gu.name} is destroyed; Destruction Table {face}: {result} (L1137-L1145)")
    pilot = dict(gu.state.extra.get("pilot") or {})
    if pilot:
        if face == 1:
            pilot = {**pilot, "health": 0, "mind": 0}
        elif face <= 3:
            pilot = {**pilot, "health": pilot["health"] - 4, "mind": pilot["mind"] - 3}
        elif face <= 5:
            pilot = {**pilot, "health": pilot["health"] - 2, "mind": pilot["mind"] - 2}
        else:
            pilot = {**pilot, "mind": pilot["mind"] - 1}
        ch.extra(s, u, "pilot", pilot)
    score_kill(ch, s, u, texts)


def score_kill(ch: Changes, s: int, u: int, texts: list[str]) -> None:
    """Points destroyed go to the tally of the side whose attack destroyed the unit (Skirmish counts
    them, L179-L190); a unit lost to no enemy's attack (its own Heat Radiation, terrain) counts for every
    other side, as with two players it is the opponent's gain.

    A friend killed in sight is a morale trigger (L1590-L1591): the killed unit checks nothing any more,
    and its friends on the table are marked as due, for their players to clear on those that did not
    have it in sight (the app does not know the table's sight lines; digest A52).
    When a force is down to half its units or fewer, every unit left in it checks morale, once (L1602; A34).
    """
    ch.condition(s, u, "morale_due", False)
    friends = [
        i
        for i, g in enumerate(ch.game.sides[s].units)
        if i != u and not g.state.destroyed and not has(g, "withdrawn") and not has(g, "reserve")
    ]
    for i in friends:
        ch.condition(s, i, "morale_due", True)
    if friends:
        texts.append(
            "its friends that saw it check morale (L1590-L1591): marked on all of them, clear the mark "
            "on those out of sight"
        )
    points = unit_cost(profile(ch.unit(s, u)))
    for other, side in enumerate(ch.game.sides):
        if other != s and ch.by in (None, other):
            ch.resource(other, "destroyed", side.resources.get("destroyed", 0) + points)
    units = ch.game.sides[s].units
    left = [i for i, g in enumerate(units) if not g.state.destroyed and not has(g, "withdrawn")]
    if 2 * len(left) <= len(units) and not ch.game.sides[s].resources.get("halved", 0):
        ch.resource(s, "halved", 1)
        for i in left:
            ch.condition(s, i, "morale_due", True)


def striker_side(order: Sequence[tuple[Any, ...]], s: int, u: int) -> int | None:
    """In a close combat, the side of the unit fighting the one at ``(s, u)`` (None if the same side)."""
    other = order[0] if (s, u) == (order[1][0], order[1][1]) else order[1]
    return other[0] if other[0] != s else None


def take_damage(ch: Changes, s: int, u: int, amount: int, dice: DiceSource, texts: list[str]) -> bool:
    """Integrity loss; destroyed at 0 or less (L1094-L1098).  Morale is due at 1 Integrity (L1599)."""
    gu = ch.unit(s, u)
    if amount <= 0 or gu.state.destroyed:
        return False
    parts = profile(gu).parts
    if parts is not None:
        return mega_hit(ch, s, u, parts, amount, dice, texts)
    left = gu.state.max_damage - gu.state.damage - amount
    ch.set(_p(s, u, "damage"), gu.state.damage + amount)
    if left <= 0:
        destroy(ch, s, u, dice, texts)
        return True
    if left == 1:
        ch.condition(s, u, "morale_due", True)
    return False


def mega_hit(
    ch: Changes, s: int, u: int, parts: MegaParts, amount: int, dice: DiceSource, texts: list[str]
) -> bool:
    """Damage to a Mega Unit (L1312-L1318): a D6 picks the part; a third of the part's Integrity or more
    lost gives its Level 1 effect, two thirds its Level 2; the Torso at 0 destroys the unit.  Morale is
    due when the Torso is down to 1 (the app's reading of L1599 for a unit with parts)."""
    gu = ch.unit(s, u)
    face = dice.roll(1, 6, "Mega Unit hit location")[0]
    part = LOCATION[face]
    damage = mega_damage(gu)
    damage[part] += amount
    ch.counter(s, u, counter(part), damage[part])
    ch.set(_p(s, u, "damage"), lost(damage))
    texts.append(
        f"Hit location {face}: {part.capitalize()} takes {amount} ({damage[part]} of {parts.of(part)})"
    )
    if part == "torso":
        if damage["torso"] >= parts.torso:
            destroy(ch, s, u, dice, texts)
            return True
        if parts.torso - damage["torso"] == 1:
            ch.condition(s, u, "morale_due", True)
        return False
    level = part_level(damage[part], parts.of(part), part)
    key = LEVEL_COUNTER[part]
    if level > gu.state.counters.get(key, 0):
        ch.counter(s, u, key, level)
        texts.append(f"{part.capitalize()} at Level {level} (L1314-L1317)")
    return False


def apply_chart(ch: Changes, s: int, u: int, rolls: int, dice: DiceSource, texts: list[str]) -> None:
    """Damage Chart rolls, each rolled again onto a category with room (L1108-L1119); morale (L1595)."""
    gu = ch.unit(s, u)
    chart = chart_for(profile(gu))
    levels = levels_of(gu)
    names = {"leg": "Leg", "arm": "Arm", "head": "Head", "torso": "Torso"}
    if chart is OTHER_CHART:
        names = {"leg": "Engine", "arm": "Weapons", "head": "Head", "torso": "Cockpit"}
    fortunate = profile(gu).pilot_has("fortunate")
    for _ in range(rolls):
        before = levels
        levels, faces = roll_chart(chart, levels, dice, "Damage Chart")
        if fortunate and faces and levels[3]:
            # Fortunate: the pilot re-rolls a chart roll once (L1968); it is used against a Torso result.
            levels, more = roll_chart(chart, before, dice, "Damage Chart (Fortunate)")
            faces = [*faces, *more]
        if not faces:
            break
        changed = next(c for c, a, b in zip(CATEGORIES, before, levels, strict=True) if a != b)
        texts.append(
            f"Damage Chart {'/'.join(map(str, faces))}: {names[changed]} "
            f"Level {levels[CATEGORIES.index(changed)]}"
        )
        if changed == "torso":
            destroy(ch, s, u, dice, texts)
            return
        ch.counter(s, u, changed, levels[CATEGORIES.index(changed)])
    if rolls:
        ch.condition(s, u, "morale_due", True)


def ask_shield_break(field: str, question: str) -> NoReturn:
    """Ask the target's player whether it breaks its shield (Shield Break, L1121-L1128; A12)."""
    raise NeedChoice(
        field,
        question,
        [Choice(value="yes", label="Break the shield"), Choice(value="no", label="Keep it", assumed=True)],
    )


def mark_shield_broken(ch: Changes, s: int, u: int) -> None:
    """A broken shield is gone for the rest of the battle (L1126)."""
    ch.condition(s, u, "shield_broken", True)
    ch.counter(s, u, "shield", 0)


# --- Shoot (L595-L801) -------------------------------------------------------------------

Cover = Literal["unobstructed", "in_cover", "obstructed"]
Range = Literal["in_band", "beyond", "closer"]
Ask = Literal["ask", "yes", "no"]


class _ShotInput(BaseModel):
    """What every shot names first: who shoots at whom."""

    model_config = ConfigDict(extra="forbid")

    attacker: str = Field(description="The shooting unit.", json_schema_extra=OWN)
    target: str = Field(description="The target.", json_schema_extra=ENEMY)


class ShootInput(_ShotInput):
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
        json_schema_extra={"flow": "choice"},
    )
    range: Range = Field(
        default="in_band",
        description="Inside the range band; beyond it (up to double the top); or closer than its lower "
        "end (A23).",
        json_schema_extra={"flow": "choice"},
    )
    higher: bool = Field(
        default=False,
        description="The shooter stands higher than the target (L745).",
        json_schema_extra={"flow": "common"},
    )
    target_sees_shooter: bool = Field(
        default=True,
        description="The target has the shooter in sight (else Flanking; and no Shield Bonus).",
        json_schema_extra={"flow": "common"},
    )
    volley: bool = Field(
        default=False,
        description="A Volley at a target out of sight (<V>, L1606-L1619).",
        json_schema_extra={"flow": "common"},
    )
    massed_fire: int = Field(
        default=0, ge=0, le=2, description='Same-named units within 6" (Massed Fire, L2937).'
    )
    heat_radiation: int = Field(
        default=0, ge=0, le=3, description="Dice added by Heat Radiation (1 self-damage each)."
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
        default=False, description="A free Shoot (Fierce, Blitzkrieg, Responsive): no action spent."
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


def pick_weapon(gu: GameUnit, name: str) -> RangedWeapon:
    """The named weapon, checked; empty: the equipped carried weapon if ready, else a ready mounted one."""
    unit = profile(gu)
    if name:
        w = next((w for w in unit.weapons if w.name == name), None)
        if w is None:
            raise ValueError(f"{gu.name} has no weapon '{name}'")
        if w.equip == "C" and w.name not in carried_names(unit):
            raise ValueError(f"'{name}' was not taken into this battle")
        if w not in usable_weapons(gu):
            raise ValueError(f"'{name}' is not equipped: use Switch Weapon first (L424-L444)")
        return w
    ready = [w for w in usable_weapons(gu) if not gu.state.extra.get("reload", {}).get(w.name)]
    if not ready:
        raise ValueError(f"{gu.name} has no equipped weapon ready to fire")
    return sorted(ready, key=lambda w: w.equip != "C")[0]


# --- what a unit offers for an action's pick fields (ActionSpec.picks) ----------------------------


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
    if w.equip == "C" and has(g, "no_carried"):
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
    if inp.volley and weather(game) == "dense_minovsky":
        raise ValueError("no Volley in Dense Minovsky Particles (L3312-L3313)")
    if inp.volley and ("V" not in w.tags or in_space(game)):
        raise ValueError("a Volley needs a <V> weapon and cannot be made in space (L1606, L1401)")
    unit, target = profile(a), profile(t)
    penetration = "P" in w.tags or has(a, "bring_them_down")
    cover = cover_after(game, ts, inp.cover, penetration)
    sees = inp.target_sees_shooter and not inp.volley
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


def shoot(game: Game, inp: ShootInput, dice: DiceSource) -> ActionResult:
    """Shoot (L595-L801), Volley (L1606-L1619), Blast (L1271-L1275), Shield Break (L1121-L1128)."""
    shot, w, info = build_shot(game, inp)
    s, u, a = game.unit(inp.attacker)
    ts, tu, t = game.unit(inp.target)
    ch = Changes(game)
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
    return odds_tables(
        damage,
        crits,
        destroyed,
        f"{w.name}: hits on {shot.acc}+, target {info['cover'].replace('_', ' ')}, "
        f"{' + '.join(f'{g.dice} {g.name} on {g.success}+' for g in shot.groups)}{mega}. "
        "Assumes the target's blocks cancel the most hits, then the most criticals, and it keeps its "
        "shield: its player decides both after the roll",
    )


# --- Aimed Shot (L875-L899) ----------------------------------------------------------------


class AimedInput(_ShotInput):
    """An Aimed Shot (Slow): one die for a Damage Chart result the shooter picks, no damage."""

    weapon: str = Field(
        default="",
        max_length=60,
        description="One of the shooter's weapons; empty: the equipped carried weapon, else a mounted one.",
        json_schema_extra=PICK,
    )
    cover: Cover = Field(
        default="unobstructed", description="Must be Unobstructed after <P> and space (L890-L892)."
    )
    range: Literal["in_band", "beyond"] = Field(
        default="in_band", description="The target must be in range (L880)."
    )
    result: Literal["ask", "leg", "arm", "head"] = Field(
        default="ask",
        description="The chart result the shooter picks once the die has hit (L882-L884).",
        json_schema_extra={"ui": "hidden"},  # answered through the question after the roll
    )
    shield_break: Ask = Field(
        default="ask",
        description="The target breaks its shield to cancel the result (L1121-L1128; A12).",
        json_schema_extra={"ui": "hidden"},  # answered through the question after the roll
    )


def aimed_need(game: Game, inp: AimedInput) -> tuple[int, RangedWeapon, bool]:
    s, _, a = game.unit(inp.attacker)
    ts, _, t = game.unit(inp.target)
    if s == ts or t.state.destroyed or has(t, "reserve") or has(t, "dig_in"):
        raise ValueError(f"{t.name} cannot be the target")
    mega_allowed(game, a, t)
    if profile(t).parts is not None:
        raise ValueError("no Aimed Shot at a Mega Unit (L1318)")
    w = pick_weapon(a, inp.weapon)
    if a.state.extra.get("reload", {}).get(w.name):
        raise ValueError(f"'{w.name}' must be reloaded first (L894)")
    if w.weapon_class == "explosive" or "B" in w.tags:
        raise ValueError("no Aimed Shot with an Explosive or Blast weapon (L879)")
    if inp.range != "in_band":
        raise ValueError("the target must be in range (L880)")
    if w.weapon_class == "beam" and beam_defence(profile(t)) is not None:
        raise ValueError("no Aimed Shot with a Beam weapon against an I-field or beam shield (L896-L897)")
    penetration = "P" in w.tags or has(a, "bring_them_down")
    if cover_after(game, ts, inp.cover, penetration) != "unobstructed":
        raise ValueError("the target must count as Unobstructed (L890-L892)")
    acc = w.acc
    if a.state.counters.get("arm", 0) or has(a, "acc5"):
        acc = max(acc, 5)
    if profile(t).sd:
        acc = min(6, acc + (2 if profile(a).parts is not None else 1))  # +2 for a Mega Unit (L1362-L1363)
    reroll = bool(game.sides[s].resources.get("concentrate_fire", 0))
    return max(2, acc - 1), w, reroll


def aimed_forced(game: Game, a: GameUnit, t: GameUnit) -> int:
    """Re-rolls of a successful Aimed Shot the target may force: Head Damage (A28), an SD target (L1363)."""
    head = bool(a.state.counters.get("head", 0)) and opts(game).head_damage_aimed
    return int(head) + int(profile(t).sd)


def aimed_success(need: int, reroll_fail: bool, forced: int) -> Fraction:
    """P(success): one die at ``need``+; a failure re-rolled (Concentrate Fire), then forced re-rolls."""
    p = Fraction(7 - need, 6)
    if reroll_fail:
        p = p + (1 - p) * p
    return p * Fraction(7 - need, 6) ** forced


def aimed(game: Game, inp: AimedInput, dice: DiceSource) -> ActionResult:
    need, w, reroll = aimed_need(game, inp)
    s, u, a = game.unit(inp.attacker)
    ts, tu, t = game.unit(inp.target)
    ch = Changes(game)
    if fail := spend(ch, s, u, 2, "aimed", dice):
        return ActionResult(changes=ch.list, text=fail)
    if w.reload:
        ch.extra(s, u, "reload", {**a.state.extra.get("reload", {}), w.name: True})
    faces = dice.roll(1, 6, "Aimed Shot")
    if faces[-1] < need and reroll:
        faces += dice.roll(1, 6, "Aimed Shot re-roll (Concentrate Fire)")
    for _ in range(aimed_forced(game, a, t)):
        if faces[-1] >= need:
            faces += dice.roll(1, 6, "Aimed Shot re-roll forced by the target")
    texts = [f"{a.name} aims at {t.name} with {w.name}: {'/'.join(map(str, faces))} against {need}+"]
    if faces[-1] < need:
        texts.append("no result")
        return ActionResult(changes=ch.list, text="; ".join(texts), detail={"faces": faces})
    levels = levels_of(t)
    room = [c for c in ("leg", "arm", "head") if levels[CATEGORIES.index(c)] < CHART_MAX[c]]
    if not room:
        texts.append("no chart result is left to apply")
        return ActionResult(changes=ch.list, text="; ".join(texts), detail={"faces": faces})
    rolled = f"{'/'.join(map(str, faces))} against {need}+"
    if inp.result == "ask" or inp.result not in room:
        raise NeedChoice(
            "result",
            f"The Aimed Shot hits ({rolled}). {a.name}'s player picks the Damage Chart result:",
            [
                Choice(value=c, label=f"{c.capitalize()} Level {levels[CATEGORIES.index(c)] + 1}")
                for c in room
            ],
        )
    if can_shield_break(t):
        if inp.shield_break == "ask":
            level = levels[CATEGORIES.index(inp.result)] + 1
            ask_shield_break(
                "shield_break",
                f"The Aimed Shot hits ({rolled}) for {inp.result.capitalize()} Level {level}. "
                f"{t.name}'s player decides: break its shield to cancel it?",
            )
        if inp.shield_break == "yes":
            mark_shield_broken(ch, ts, tu)
            texts.append("Shield Break cancels it")
            return ActionResult(changes=ch.list, text="; ".join(texts), detail={"faces": faces})
    i = CATEGORIES.index(inp.result)
    ch.counter(ts, tu, inp.result, levels[i] + 1)
    ch.condition(ts, tu, "morale_due", True)
    texts.append(f"{inp.result.capitalize()} Level {levels[i] + 1}")
    return ActionResult(changes=ch.list, text="; ".join(texts), detail={"faces": faces})


def aimed_odds(game: Game, inp: AimedInput) -> ActionOdds:
    need, _, reroll = aimed_need(game, inp)
    _, _, a = game.unit(inp.attacker)
    _, _, t = game.unit(inp.target)
    p = aimed_success(need, reroll, aimed_forced(game, a, t))
    d = Dist({0: p.denominator - p.numerator, 1: p.numerator}, p.denominator)
    return ActionOdds(
        tables={"chart results": table(d)}, facts={"success": float(p)}, summary=f"{need}+ on one die"
    )


# --- Close combat (L945-L1070) ---------------------------------------------------------------

#: Hits of a close combat attack, counted by face 2..6 (which hit the defender strips depends on it).
Faces = tuple[int, int, int, int, int]


class CloseInput(BaseModel):
    """Close combat between two units that came within range of each other (L953-L957)."""

    model_config = ConfigDict(extra="forbid")

    attacker: str = Field(
        description="The unit that came into range (usually by a Charge).", json_schema_extra=OWN
    )
    defender: str = Field(description="The enemy it fights.", json_schema_extra=ENEMY)
    charged: bool = Field(
        default=True,
        description="It entered range with a Move or Boost: a Charge (L959-L961).",
        json_schema_extra={"flow": "common"},  # changes the odds a lot: shown first, not behind "more"
    )
    defender_charged: bool = Field(default=False, description="The defender charged instead.")
    flank: bool = Field(
        default=False, description="The defender did not see it when the combat began (+1 die)."
    )
    defender_flank: bool = Field(
        default=False, description="It did not see the defender when the combat began."
    )
    piercing_strike: bool = Field(default=False, description="A Piercing Strike (Slow, <PS>, L931-L939).")
    pursuit: bool = Field(
        default=False, description="A mobile fighter's Pursuit (+1 die, free, L1331-L1339)."
    )
    shield_break: Ask = Field(
        default="ask",
        description="The unit breaks its shield when struck; 'ask': its player decides once the damage is "
        "known (L1121-L1128; A12).",
        json_schema_extra={"ui": "hidden"},  # answered through the question after the strike
    )
    defender_shield_break: Ask = Field(
        default="ask",
        description="The defender breaks its shield when struck; 'ask': its player decides once the damage "
        "is known (L1121-L1128; A12).",
        json_schema_extra={"ui": "hidden"},  # answered through the question after the strike
    )


class Striker(BaseModel):
    """One side's strike, every number settled (L978-L994, L1012-L1049)."""

    dice: int
    acc: int
    crit: int | None
    dam: int
    rerolls: int
    flayer: bool
    armour: int  # the target's Armour number: a hit showing this or less can be stripped
    shield_dice: int
    shield_success: int
    shield_rerolls: int
    unarmed: bool
    elusive: bool = False  # the target ignores the strike on a 6, rolled before its defence (L3277-L3283)
    movable_frame: bool = False  # the target's Movable Frame against 3 or more damage (L2952-L2956)


def cc_weapon(unit: Unit) -> tuple[str, int, int, int, int | None, int, bool]:
    w = unit.cc
    if w is None:
        u = UNARMED
        return "Unarmed", u.dex, u.attack, u.acc, u.crit, u.dam, True
    return w.name, w.dex, w.attack, w.acc, w.crit, w.dam, False


def striker(
    game: Game, xs: int, x: GameUnit, y: GameUnit, charged: bool, flank: bool, inp: CloseInput, first: bool
) -> Striker:
    """The strike of ``x`` (of side ``xs``) on ``y``; ``first``: x is the unit that made the action."""
    ux, uy = profile(x), profile(y)
    _, _, attack, acc, crit, dam, unarmed = cc_weapon(ux)
    if uy.has("beam_jitte"):
        attack = 1  # L2813-L2814
    dice = attack
    if (flank or ux.pilot_has("flanker")) and not panoramic(game, uy):
        dice += 1  # L1028-L1034, L3294-L3298; A13
    if ux.kind == "mobile_fighter":
        dice += 1
        acc, crit = max(2, acc - 1), None if crit is None else max(2, crit - 1)  # L1328-L1330
    if first and inp.pursuit:
        dice += 1
    if ux.pilot_has("rash") and charged:
        dice += 1  # L1990
    if ux.pilot_has("reckless"):
        dice += 2  # L3291-L3292
    if x.state.counters.get("arm", 0):
        acc = max(acc, 5)  # L1016-L1020
    rerolls = int(charged)
    if rerolls == 0 and ux.pilot_has("veteran"):
        rerolls = 1
    armour = armour_of(uy)[0]
    piercing = first and inp.piercing_strike
    if piercing:
        armour = max(1, armour - 1)  # L936-L938
    shield_dice = shield_success = 0
    if uy.shield != "none" and shield_usable(y, True):
        grade = SHIELDS[uy.shield]
        shield_dice = max(1, grade.dice - 1) if piercing else grade.dice
        shield_success = grade.success
    shield_rerolls = int(x.state.counters.get("head", 0) > 0) + int(uy.has("solid_defence"))
    if shield_rerolls == 0 and uy.pilot_has("impenetrable"):
        shield_rerolls = 1
    if uy.parts is not None:
        crit = None  # a Mega Unit takes no Critical Hits (L1318-L1319)
    return Striker(
        dice=dice,
        acc=acc,
        crit=crit,
        dam=dam,
        rerolls=rerolls,
        flayer=ux.has("beam_flayer"),
        armour=armour,
        shield_dice=shield_dice,
        shield_success=shield_success,
        shield_rerolls=shield_rerolls,
        unarmed=unarmed,
        elusive=uy.pilot_has("elusive"),
        movable_frame=uy.has("movable_frame"),
    )


def _add_face(hits: Faces, face: int, acc: int) -> Faces:
    if face < acc:
        return hits
    out = list(hits)
    out[face - 2] += 1
    return (out[0], out[1], out[2], out[3], out[4])


def strip(hits: Faces, st: Striker, shield_ok: bool) -> tuple[int, int]:
    """(hits, criticals) left: one hit up to the Armour number goes, one more on a Shield Bonus (L984-L986).

    The defender strips criticals first.

    >>> st = Striker(dice=2, acc=3, crit=5, dam=3, rerolls=0, flayer=False, armour=3, shield_dice=0,
    ...              shield_success=0, shield_rerolls=0, unarmed=False)
    >>> strip((0, 1, 0, 1, 0), st, True)  # a 3 and a 5: the 3 goes by armour, the 5 by the shield
    (0, 0)
    >>> strip((0, 0, 0, 1, 1), st, False)  # a 5 and a 6 are above Armour 3: both stay
    (2, 2)
    """
    left = list(hits)

    def is_crit(face: int) -> bool:
        return st.crit is not None and face >= st.crit

    def remove(faces: list[int]) -> None:
        order = sorted(faces, key=lambda f: (not is_crit(f), -f))
        for f in order:
            if left[f - 2]:
                left[f - 2] -= 1
                return

    remove([f for f in range(2, 7) if f <= st.armour])
    if shield_ok:
        remove(list(range(2, 7)))
    total = sum(left)
    crits = sum(n for f, n in zip(range(2, 7), left, strict=True) if is_crit(f))
    return total, crits


def _flayer_die(hits: Faces, acc: int) -> Dist[Faces]:
    return Dist.die(6).map(lambda f: _add_face(hits, f, acc))


def strike_hits(st: Striker) -> Dist[Faces]:
    """Hits by face, failed dice re-rolled, Beam Flayer's dice for sixes (L2801-L2805); total 36**(dice+2)."""
    states: dict[tuple[int, Faces], int] = {(st.rerolls, (0, 0, 0, 0, 0)): 1}
    for _ in range(st.dice):
        nxt: dict[tuple[int, Faces], int] = {}
        for (r, hits), w in states.items():
            for face in range(1, 7):
                if face >= st.acc or r == 0:
                    key = (r, _add_face(hits, face, st.acc))
                    nxt[key] = nxt.get(key, 0) + 6 * w
                else:
                    for again in range(1, 7):
                        key = (r - 1, _add_face(hits, again, st.acc))
                        nxt[key] = nxt.get(key, 0) + w
        states = nxt
    out: dict[Faces, int] = {}
    for (_, hits), w in states.items():
        extra = min(2, hits[4]) if st.flayer else 0
        d = Dist({hits: 1}, 1)
        for _ in range(extra):
            d = d.bind(lambda h: _flayer_die(h, st.acc))
        scale = 36 ** (2) // 6**extra
        for k, v in d.weights.items():
            out[k] = out.get(k, 0) + w * v * scale
    return Dist(out, 36 ** (st.dice + 2))


def shield_weights(st: Striker) -> tuple[int, int]:
    """(weight of at least one shield success, total 36**dice); failed dice re-rolled while re-rolls last."""
    if st.shield_dice == 0:
        return 0, 1
    fail = st.shield_success - 1
    again = min(st.shield_rerolls, st.shield_dice)
    all_fail = (6 * fail) ** (st.shield_dice - again) * (fail * fail) ** again
    total = 36**st.shield_dice
    return total - all_fail, total


def strike_dist(st: Striker) -> Dist[tuple[int, int]]:
    """(damage, criticals) of one strike, exactly."""
    hits = strike_hits(st)
    ok, total = shield_weights(st)
    out: dict[tuple[int, int], int] = {}
    for h, w in hits.weights.items():
        for shield, q in ((True, ok), (False, total - ok)):
            if q:
                n, c = strip(h, st, shield)
                pool = n * st.dam
                faces = range(1, 7) if st.movable_frame and pool >= 3 else [None]
                for face in faces:
                    key = (after_pool(pool, 0, face), c)
                    out[key] = out.get(key, 0) + w * q * (6 // len(faces))
    d = Dist(out, hits.total * total * 6)
    if not st.elusive:
        return d
    weights = {k: 5 * w for k, w in d.weights.items()}
    weights[(0, 0)] = weights.get((0, 0), 0) + d.total
    return Dist(weights, 6 * d.total)


def roll_strike(st: Striker, dice: DiceSource, who: str) -> tuple[int, int, dict[str, Any]]:
    """Roll a strike by the same rules: dice, re-rolls of the earliest failed, Beam Flayer, the defence."""
    faces = dice.roll(st.dice, 6, f"{who}: attack")
    failed = [i for i, f in enumerate(faces) if f < st.acc][: st.rerolls]
    again = dice.roll(len(failed), 6, f"{who}: re-rolls") if failed else []
    final = list(faces)
    for i, f in zip(failed, again, strict=True):
        final[i] = f
    hits: Faces = (0, 0, 0, 0, 0)
    for f in final:
        hits = _add_face(hits, f, st.acc)
    flayer: list[int] = []
    if st.flayer and hits[4]:
        flayer = dice.roll(min(2, hits[4]), 6, f"{who}: Beam Flayer")
        for f in flayer:
            hits = _add_face(hits, f, st.acc)
    shield: list[int] = []
    ok = False
    if st.elusive:
        face = dice.roll(1, 6, f"{who}: Elusive")[0]
        if face == 6:
            return 0, 0, {"attack": faces, "rerolled": again, "flayer": flayer, "elusive": face}
    if st.shield_dice:
        shield = dice.roll(st.shield_dice, 6, f"{who}: Shield Bonus")
        ok = any(f >= st.shield_success for f in shield)
        fails = [f for f in shield if f < st.shield_success][: st.shield_rerolls]
        if not ok and fails:
            more = dice.roll(len(fails), 6, f"{who}: Shield Bonus re-roll")
            shield += more
            ok = any(f >= st.shield_success for f in more)
    n, c = strip(hits, st, ok)
    damage = n * st.dam
    frame: list[int] = []
    if st.movable_frame and damage >= 3:
        frame = dice.roll(1, 6, f"{who}: Movable Frame")
        damage = after_pool(damage, 0, frame[0])
    return damage, c, {"attack": faces, "rerolled": again, "flayer": flayer, "shield": shield, "frame": frame}


def advantage_auto(game: Game, x: GameUnit, y: GameUnit, x_charged: bool, y_charged: bool) -> int:
    """+1: x wins Advantage outright, -1: y does, 0: roll (L1036-L1040, L1988-L1990, L1999-L2000; A43)."""

    def auto(u: GameUnit, charged: bool) -> bool:
        p = profile(u)
        rash = p.pilot_has("rash") or (p.has("exam") and integrity_left(u) * 2 <= u.state.max_damage)
        return p.pilot_has("swift") or (rash and charged)

    def drawn(u: GameUnit) -> bool:
        return profile(u).cc is None or u.state.extra.get("equipped") == "cc"

    ax, ay = auto(x, x_charged), auto(y, y_charged)
    if ax != ay:
        return 1 if ax else -1
    dx, dy = drawn(x), drawn(y)
    if dx != dy:
        return 1 if dx else -1
    return 0


def advantage_totals(
    x: GameUnit, y: GameUnit, x_charged: bool, y_charged: bool
) -> tuple[Dist[int], Dist[int]]:
    """Each side's Advantage: 1D6 (2D6 after a Charge) + DEX; Beam Jitte: the other DEX is 0 (L970-L977)."""
    ux, uy = profile(x), profile(y)
    dex_x = 0 if uy.has("beam_jitte") else cc_weapon(ux)[1]
    dex_y = 0 if ux.has("beam_jitte") else cc_weapon(uy)[1]
    tx = (Dist.die(6).repeat(2) if x_charged else Dist.die(6)).map(lambda v: v + dex_x)
    ty = (Dist.die(6).repeat(2) if y_charged else Dist.die(6)).map(lambda v: v + dex_y)
    return tx, ty


def advantage_p(tx: Dist[int], ty: Dist[int]) -> Fraction:
    """P(x wins), ties rolled again: P(x > y) / (1 - P(tie)).

    >>> advantage_p(Dist.die(6).map(lambda v: v + 2), Dist.die(6).map(lambda v: v + 3))
    Fraction(10, 31)
    >>> advantage_p(Dist.die(6).repeat(2).map(lambda v: v + 2), Dist.die(6).map(lambda v: v + 3))
    Fraction(32, 39)
    """
    d = tx.combine(ty, lambda a, b: (a > b) - (a < b))
    win, tie = d.probability(1), d.probability(0)
    return win / (1 - tie)


def close_setup(game: Game, inp: CloseInput) -> tuple[int, int, GameUnit, int, int, GameUnit]:
    s, u, x = game.unit(inp.attacker)
    ts, tu, y = game.unit(inp.defender)
    if s == ts:
        raise ValueError("close combat is fought against an enemy")
    mega_allowed(game, x, y)
    for g in (x, y):
        if g.state.destroyed or has(g, "reserve") or has(g, "withdrawn"):
            raise ValueError(f"{g.name} is not on the table")
        if has(g, "dig_in") or profile(g).kind == "air_unit" or has(g, "flight_mode"):
            raise ValueError(f"{g.name} is never within close combat range (L1245, L2852)")
    if inp.pursuit and profile(x).kind != "mobile_fighter":
        raise ValueError("only a mobile fighter makes a Pursuit (L1331-L1339)")
    if inp.piercing_strike:
        w = profile(x).cc
        if w is None or not w.piercing_strike or x.state.extra.get("equipped") != "cc":
            raise ValueError("a Piercing Strike needs a <PS> weapon equipped (L931-L934)")
    return s, u, x, ts, tu, y


def close_combat(game: Game, inp: CloseInput, dice: DiceSource) -> ActionResult:
    """Advantage, strike, counter-attack, result and Fall Back (L945-L1070).

    In any player's turn, whichever unit came into range (L299-L301); not before the first turn.
    """
    if game.state.active_side is None:
        raise ValueError(NOT_BEGUN)
    s, u, x, ts, tu, y = close_setup(game, inp)
    ch = Changes(game)
    o = opts(game)
    charged = inp.charged or (inp.piercing_strike and o.piercing_is_charge)
    texts: list[str] = []
    if inp.piercing_strike and (fail := spend(ch, s, u, 2, "piercing", dice)):
        return ActionResult(changes=ch.list, text=fail)
    if charged and (has(x, "wavering") or has(x, "routed")):
        gate = dice.roll(1, 6, "charge check (morale)")[0]
        if gate <= 3:  # L1549-L1550
            return ActionResult(
                changes=ch.list, text=f"{x.name} wavers ({gate}): it may not charge (L1549-L1550)", detail={}
            )
        texts.append(f"charge check {gate}: it charges")
    auto = advantage_auto(game, x, y, charged, inp.defender_charged)
    rolls: list[tuple[int, int]] = []
    if auto == 0:
        tx, ty = advantage_totals(x, y, charged, inp.defender_charged)
        dex_x = min(tx.weights) - (2 if charged else 1)
        dex_y = min(ty.weights) - (2 if inp.defender_charged else 1)
        while True:
            a = sum(dice.roll(2 if charged else 1, 6, f"{x.name}: Advantage")) + dex_x
            b = sum(dice.roll(2 if inp.defender_charged else 1, 6, f"{y.name}: Advantage")) + dex_y
            rolls.append((a, b))
            if a != b:
                break
        x_first = a > b
        texts.append("Advantage " + ", ".join(f"{a}-{b}" for a, b in rolls))
    else:
        x_first = auto > 0
        texts.append(f"{(x if x_first else y).name} has Advantage outright")
    order = [
        (s, u, x, ts, tu, y, charged, inp.flank, "shield_break"),
        (ts, tu, y, s, u, x, inp.defender_charged, inp.defender_flank, "defender_shield_break"),
    ]
    if not x_first:
        order.reverse()
    dealt = {0: 0, 1: 0}
    pending: list[tuple[int, int, int, int]] = []
    detail: dict[str, Any] = {"advantage": rolls}
    for step, (as_, au, ag, ds, du, dg, chg, flank, break_field) in enumerate(order):
        ag, dg = ch.unit(as_, au), ch.unit(ds, du)
        if ag.state.destroyed:
            texts.append(f"{ag.name} is destroyed and cannot strike back (A14)")
            break
        st = striker(ch.game, as_, ag, dg, chg, flank, inp, ag.key == x.key and as_ == s)
        damage, crits, faces = roll_strike(st, dice, ag.name)
        detail[f"strike{step}"] = faces
        rolls_chart = crits * (2 if profile(ag).pilot_has("controlled_aim") else 1)
        defender = profile(dg)
        dealt[step] = damage
        text = f"{ag.name} strikes: {damage} damage, {crits} critical"
        if (damage or rolls_chart) and defender.shield != "none" and not has(dg, "shield_broken"):
            field = "defender_shield_break" if break_field == "shield_break" else "shield_break"
            answer = getattr(inp, field)
            if answer == "ask":
                ask_shield_break(
                    field,
                    f"{dg.name} takes {damage} damage and {rolls_chart} chart roll(s): break its "
                    "shield to halve the damage and cancel the rolls?",
                )
            if answer == "yes":
                damage, rolls_chart = shield_break(damage), 0
                dealt[step] = damage
                mark_shield_broken(ch, ds, du)
                text += f"; Shield Break: {damage} damage"
        texts.append(text)
        if st.unarmed:
            pending.append((ds, du, damage, rolls_chart))  # applied only if this unit does not win (A15)
            continue
        ch.by = striker_side(order, ds, du)
        if not take_damage(ch, ds, du, damage, dice, texts) and rolls_chart:
            apply_chart(ch, ds, du, rolls_chart, dice, texts)
    first_unit = order[0][2]
    first_wins = dealt[0] > dealt[1]
    tie = dealt[0] == dealt[1]
    for ds, du, damage, rolls_chart in pending:
        striker_unit = order[0][2] if (ds, du) == (order[1][0], order[1][1]) else order[1][2]
        won = (striker_unit.key == first_unit.key and first_wins) or (
            striker_unit.key != first_unit.key and not first_wins and not tie
        )
        if won:
            texts.append(f"{striker_unit.name} fought unarmed and won: no damage is dealt (L1069-L1070)")
            continue
        ch.by = striker_side(order, ds, du)
        if not take_damage(ch, ds, du, damage, dice, texts) and rolls_chart:
            apply_chart(ch, ds, du, rolls_chart, dice, texts)
    names = [order[0][2], order[1][2]]
    gallant = [profile(g).pilot_has("gallant") for g in names]
    if tie or (gallant[0] and gallant[1]):
        back = [g.name for i, g in enumerate(names) if not (gallant[i] and not all(gallant))]
    else:
        loser = 1 if first_wins else 0
        if gallant[loser]:
            loser = 1 - loser  # L1971-L1973
        back = [names[loser].name]
    alive = [
        n
        for n in back
        if not any(
            ch.unit(si, ui).state.destroyed and ch.unit(si, ui).name == n for si, ui in ((s, u), (ts, tu))
        )
    ]
    if alive:
        texts.append(" and ".join(alive) + " fall" + ("s" if len(alive) == 1 else "") + " back (L1006-L1009)")
    for side, idx, g in ((s, u, x), (ts, tu, y)):
        if profile(g).cc is not None and not ch.unit(side, idx).state.destroyed:
            ch.extra(side, idx, "equipped", "cc")  # L1058-L1060
    return ActionResult(
        changes=ch.list, text=f"{x.name} and {y.name} fight: " + "; ".join(texts), detail=detail
    )


CombatOutcome = tuple[int, int, bool, bool]  # damage to the first and the second striker, destroyed


def _chart_after(gu: GameUnit, rolls: int) -> list[tuple[Levels, Fraction]]:
    """Chart levels of ``gu`` after ``rolls`` rolls (its own levels when none)."""
    if not rolls:
        return [(levels_of(gu), Fraction(1))]
    unit = profile(gu)
    return list(
        chart_dist(chart_for(unit), levels_of(gu), rolls, unit.pilot_has("fortunate")).probabilities()
    )


def _struck(gu: GameUnit, damage: int, left: int, rolls: int) -> list[tuple[int, bool, Fraction]]:
    """(damage, destroyed, chance) after a strike: destroyed outright by the damage (L1094-L1098),
    else by a Torso result of its chart rolls (L1108-L1119); a Mega Unit when the location die picks
    its Torso and the Torso reaches 0 (L1312-L1318)."""
    parts = profile(gu).parts
    if parts is not None:
        dead = destroyed_chance(parts, mega_damage(gu)["torso"], damage)
        return [(damage, True, dead), (damage, False, 1 - dead)]
    if damage >= left:
        return [(damage, True, Fraction(1))]
    t = sum((q for lv, q in _chart_after(gu, rolls) if lv[3]), Fraction(0))
    return [(damage, True, t), (damage, False, 1 - t)]


def _mega_after(gu: GameUnit, parts: MegaParts, amount: int) -> list[tuple[GameUnit, bool, Fraction]]:
    """A Mega Unit after ``amount`` damage, for each part the location die may pick: the unit with that
    part's damage and Level, whether it is destroyed, and the chance (L1312-L1318), as :func:`mega_hit`."""
    if amount <= 0:
        return [(gu, False, Fraction(1))]
    out = []
    for part, q in location_odds().items():
        damage = mega_damage(gu)
        damage[part] += amount
        counters = {**gu.state.counters, counter(part): damage[part]}
        if part == "torso":
            dead = damage[part] >= parts.torso
        else:
            dead = False
            key = LEVEL_COUNTER[part]
            counters[key] = max(counters.get(key, 0), part_level(damage[part], parts.of(part), part))
        after = gu.model_copy(update={"state": gu.state.model_copy(update={"counters": counters})})
        out.append((after, dead, q))
    return out


def _with_levels(gu: GameUnit, lv: Levels) -> GameUnit:
    counters = {**gu.state.counters, "leg": lv[0], "arm": lv[1], "head": lv[2]}
    return gu.model_copy(update={"state": gu.state.model_copy(update={"counters": counters})})


def combat_outcomes(
    game: Game,
    order: tuple[tuple[int, GameUnit, bool, bool, bool], tuple[int, GameUnit, bool, bool, bool]],
    inp: CloseInput,
) -> dict[CombatOutcome, Fraction]:
    """Exact outcomes of both strikes in this order, as :func:`close_combat` resolves them.

    ``order`` holds, for the first and the second striker: side, unit, charged, flank, made the action.
    The first strike's Damage Chart results change the second striker (A14: a destroyed unit does not
    strike back); an Unarmed striker's damage is applied only if it does not win (L1069-L1070; A15).
    """
    (fs, f, f_chg, f_flank, f_act), (ss, s_, s_chg, s_flank, s_act) = order
    out: dict[CombatOutcome, Fraction] = {}

    def add(key: CombatOutcome, p: Fraction) -> None:
        if p:
            out[key] = out.get(key, Fraction(0)) + p

    st1 = striker(game, fs, f, s_, f_chg, f_flank, inp, f_act)
    ca_f = 2 if profile(f).pilot_has("controlled_aim") else 1
    ca_s = 2 if profile(s_).pilot_has("controlled_aim") else 1
    left_f, left_s = integrity_left(f), integrity_left(s_)
    for (d1, c1), p1 in strike_dist(st1).probabilities():
        r1 = c1 * ca_f
        parts_s = profile(s_).parts
        if st1.unarmed:
            seconds = [(s_, p1)]
        elif parts_s is not None:  # the location die: which part, and its Level, before it strikes back
            seconds = []
            for after, dead, q in _mega_after(s_, parts_s, d1):
                if dead:
                    add((0, d1, False, True), p1 * q)
                else:
                    seconds.append((after, p1 * q))
        elif d1 >= left_s:
            add((0, d1, False, True), p1)
            continue
        else:
            seconds = []
            for lv, q in _chart_after(s_, r1):
                if lv[3]:
                    add((0, d1, False, True), p1 * q)
                else:
                    seconds.append((_with_levels(s_, lv), p1 * q))
        for s2, p in seconds:
            st2 = striker(game, ss, s2, f, s_chg, s_flank, inp, s_act)
            for (d2, c2), p2 in strike_dist(st2).probabilities():
                r2 = c2 * ca_s
                f_wins, s_wins = d1 > d2, d2 > d1
                # damage on the first striker
                if st2.unarmed and s_wins:
                    f_branches = [(0, False, Fraction(1))]
                else:
                    f_branches = _struck(f, d2, left_f, r2)
                # an Unarmed first striker's damage, applied at the end unless it won
                if not st1.unarmed:
                    s_branches = [(d1, False, Fraction(1))]
                elif f_wins:
                    s_branches = [(0, False, Fraction(1))]
                else:
                    s_branches = _struck(s_, d1, left_s, r1)
                for df, dead_f, pf in f_branches:
                    for ds, dead_s, ps in s_branches:
                        add((df, ds, dead_f, dead_s), p * p2 * pf * ps)
    return out


def _as_dist(weights: dict[Any, Fraction]) -> Dist[Any]:
    den = 1
    for v in weights.values():
        den = den * v.denominator // math.gcd(den, v.denominator)
    return Dist({k: int(v * den) for k, v in weights.items() if v}, den)


def close_odds(game: Game, inp: CloseInput) -> ActionOdds:
    """Exact odds of the whole combat: Advantage, both strikes in their order, destruction, the winner."""
    s, _, x, ts, _, y = close_setup(game, inp)
    charged = inp.charged or (inp.piercing_strike and opts(game).piercing_is_charge)
    auto = advantage_auto(game, x, y, charged, inp.defender_charged)
    if auto:
        p = Fraction(1 if auto > 0 else 0)
    else:
        p = advantage_p(*advantage_totals(x, y, charged, inp.defender_charged))
    xs_ = (s, x, charged, inp.flank, True)
    ys_ = (ts, y, inp.defender_charged, inp.defender_flank, False)
    # (damage to x, damage to y, x destroyed, y destroyed)
    total: dict[CombatOutcome, Fraction] = {}
    if p:
        for (dx, dy, kx, ky), q in combat_outcomes(game, (xs_, ys_), inp).items():
            total[(dx, dy, kx, ky)] = total.get((dx, dy, kx, ky), Fraction(0)) + p * q
    if p != 1:
        for (dy, dx, ky, kx), q in combat_outcomes(game, (ys_, xs_), inp).items():
            total[(dx, dy, kx, ky)] = total.get((dx, dy, kx, ky), Fraction(0)) + (1 - p) * q
    gate = charged and (has(x, "wavering") or has(x, "routed"))
    if gate:  # a D6 of 1-3 and the charge does not happen (L1549-L1550)
        total = {k: v / 2 for k, v in total.items()}
        total[(0, 0, False, False)] = total.get((0, 0, False, False), Fraction(0)) + Fraction(1, 2)
    joint = _as_dist(total)
    # What decides a charge first: the target's damage and destruction, then the counter-strike's.
    return ActionOdds(
        tables={
            "damage to the target": table(joint.map(lambda k: k[1])),
            "damage to the attacker": table(joint.map(lambda k: k[0])),
            "damage": table(joint.map(lambda k: k[0] + k[1])),
        },
        facts={
            "destroyed": float(sum((v for k, v in total.items() if k[3]), Fraction(0))),
            "attacker destroyed": float(sum((v for k, v in total.items() if k[2]), Fraction(0))),
            "advantage": float(p),
        },
        summary=f"Target {y.name}, attacker {x.name}; both strikes in Advantage order, "
        f"{'after a Charge' if charged else 'no Charge'}; assumes no Shield Break (asked after each strike).",
    )


# --- Movement and the other Fast and Slow actions (L402-L550, L902-L929) ------------------------


class UnitInput(BaseModel):
    """An action of one unit."""

    model_config = ConfigDict(extra="forbid")

    unit: str = Field(description="The unit acting.", json_schema_extra=OWN)


class MoveInput(UnitInput):
    boost: bool = Field(default=False, description="A Boost (Slow) instead of a Move (Fast) (L902-L922).")
    terrain: Literal["normal", "difficult", "dangerous", "sheer"] = Field(
        default="normal",
        description="The worst terrain it moves into, through or out of (L521-L550): difficult and "
        "dangerous halve a Move; sheer is crossed by Boost only.",
    )
    turn: Literal["ahead", "up_to_90", "over_90"] = Field(
        default="ahead",
        description='Moving outside its sight: up to 90 degrees costs 2" (vehicles 3"), 90-180 costs 4" '
        '(vehicles 6") (L465-L474).',
    )
    ends_in_dangerous: bool = Field(
        default=False, description="It ends in dangerous terrain: 1 damage (L538-L540)."
    )
    distance: int = Field(
        default=0, ge=0, le=60, description="Inches moved, for the log (measured on the table)."
    )
    free: bool = Field(
        default=False, description="A free Boost (Extra Tank, Red Comet, Hit & Run): no action spent."
    )


def move_limit(game: Game, s: int, g: GameUnit, inp: MoveInput) -> tuple[Fraction, list[str]]:
    """How far this Move or Boost may go, and why (L464-L550, L902-L922, L1159-L1177; A26).

    Terrain halves a Move's base Movement; Leg Damage 1 makes Normal terrain Difficult, Leg Damage 2
    makes the Difficult cut 3/4 of the base; a turn out of sight costs 2" or 4" (vehicles 3" or 6",
    doubled by Unwieldly, none with Magnetic Coating or in space).  Together they never leave less than
    1" (L516-L518), but a turn alone that eats the whole Move leaves only the turn (L475-L478).
    """
    from core.systems.gundam_skirmish.units import movement_of

    unit = profile(g)
    mv, bst = movement_of(unit)
    if trans_am(game, s, g):
        mv, bst = 2 * mv, None if bst is None else 2 * bst
    space = in_space(game)
    notes: list[str] = []
    if inp.boost:
        if bst is None:
            raise ValueError(f"{g.name} cannot Boost (L904)")
        if inp.terrain == "sheer" and unit.kind == "ground_vehicle" and not unit.has("amphibious"):
            raise ValueError("vehicles cannot enter sheer terrain (L545-L550)")
        return Fraction(bst), notes  # no halving, no turning penalty (L909-L922)
    if inp.terrain == "sheer" and unit.kind != "air_unit":
        raise ValueError("sheer terrain is crossed by Boost only (L545-L550)")
    base = Fraction(mv)
    terrain = inp.terrain
    air = unit.kind == "air_unit" or has(g, "flight_mode")
    leg = 0 if space else g.state.counters.get("leg", 0)  # no Leg Damage effect in space (L1393)
    if air:
        terrain = "normal"  # Air Units ignore terrain (L1245)
    elif leg and terrain == "normal":
        terrain = "difficult"
        notes.append("Leg Damage: Normal terrain counts as Difficult (L1161-L1164)")
    cut = Fraction(0)
    if terrain in ("difficult", "dangerous"):
        cut = base * (Fraction(3, 4) if leg >= 2 else Fraction(1, 2))
        notes.append(f'{terrain} terrain: -{float(cut):g}"')
    turn = 0
    if inp.turn != "ahead" and not space and not unit.has("magnetic_coating"):
        vehicle = unit.kind == "ground_vehicle"
        turn = (3 if vehicle else 2) * (2 if inp.turn == "over_90" else 1)
        if unit.has("unwieldly") and not vehicle:
            turn *= 2
        notes.append(f'turning out of sight: -{turn}"')
    if turn >= base:
        notes.append("it only turns (L475-L478)")
        return Fraction(0), notes
    return max(Fraction(1), base - cut - turn), notes


def move(game: Game, inp: MoveInput, dice: DiceSource) -> ActionResult:
    """Move (Fast, up to Movement) or Boost (Slow, up to Boost; '/' cannot) (L452-L550, L902-L922)."""
    s, u, g = game.unit(inp.unit)
    unit = profile(g)
    limit, notes = move_limit(game, s, g, inp)
    ch = Changes(game)
    if fail := spend(ch, s, u, 0 if inp.free else 2 if inp.boost else 1, "move", dice):
        return ActionResult(changes=ch.list, text=fail)
    if inp.distance > limit:
        raise ValueError(
            f'{g.name} moves at most {float(limit):g}" with this {"Boost" if inp.boost else "Move"}'
        )
    how = "boosts" if inp.boost else "moves"
    texts = [f'{g.name} {how} {inp.distance or "up to " + format(float(limit), "g")}"', *notes]
    if unit.has("afterburner") and "afterburner" in g.state.extra.get("once", []):
        face = dice.roll(1, 6, "Afterburner")[0]
        texts.append(f"Afterburner {face}" + (": 2 damage (L2775)" if face >= 3 else ""))
        if face >= 3:
            take_damage(ch, s, u, 2, dice, texts)
    if inp.ends_in_dangerous:
        texts.append("ends in dangerous terrain: 1 damage (L538-L540)")
        take_damage(ch, s, u, 1, dice, texts)
    if inp.boost and unit.has("red_comet"):
        face = dice.roll(1, 6, "Red Comet")[0]
        texts.append(f"Red Comet {face}" + (": one more Boost, free (L2981-L2985)" if face >= 5 else ""))
    return ActionResult(changes=ch.list, text="; ".join(texts))


class WeaponInput(UnitInput):
    weapon: str = Field(
        default="",
        max_length=60,
        description="One of the unit's weapons, or its close combat weapon; empty: the app asks.",
        json_schema_extra=PICK,
    )


def reload(game: Game, inp: WeaponInput, dice: DiceSource) -> ActionResult:
    """Quick Reload (Fast) or Slow Reload (Slow); Arm Damage 2 makes them all slow (L415-L422, L925-L929)."""
    s, u, g = game.unit(inp.unit)
    pending = [k for k, v in g.state.extra.get("reload", {}).items() if v]
    name = inp.weapon
    if not name:
        if len(pending) != 1:
            if not pending:
                raise ValueError(f"{g.name} has no weapon to reload")
            raise NeedChoice("weapon", "Reload which weapon?", [Choice(value=n, label=n) for n in pending])
        name = pending[0]
    if name not in pending:
        raise ValueError(f"'{name}' does not need a reload")
    w = next(w for w in profile(g).weapons if w.name == name)
    slow = w.reload == "RS" or g.state.counters.get("arm", 0) >= 2
    ch = Changes(game)
    if fail := spend(ch, s, u, 2 if slow else 1, "reload", dice):
        return ActionResult(changes=ch.list, text=fail)
    ch.extra(s, u, "reload", {**g.state.extra.get("reload", {}), name: False})
    return ActionResult(changes=ch.list, text=f"{g.name}: {'Slow' if slow else 'Quick'} Reload of {name}")


def switch(game: Game, inp: WeaponInput, dice: DiceSource) -> ActionResult:
    """Switch Weapon (Fast): equip another carried weapon or the close combat weapon (L424-L451)."""
    s, u, g = game.unit(inp.unit)
    unit = profile(g)
    options = [*carried_names(unit), *(["cc"] if unit.cc else [])]
    current = g.state.extra.get("equipped", "")
    choice = inp.weapon or ""
    if not choice:
        others = [o for o in options if o != current]
        if len(others) != 1:
            label = {"cc": unit.cc.name if unit.cc else "cc"}
            raise NeedChoice(
                "weapon", "Equip which weapon?", [Choice(value=o, label=label.get(o, o)) for o in others]
            )
        choice = others[0]
    if choice not in options:
        raise ValueError(f"{g.name} cannot equip '{choice}'")
    ch = Changes(game)
    if fail := spend(ch, s, u, 1, "switch", dice):
        return ActionResult(changes=ch.list, text=fail)
    ch.extra(s, u, "equipped", choice)
    shown = unit.cc.name if choice == "cc" and unit.cc else choice
    return ActionResult(changes=ch.list, text=f"{g.name} equips {shown}")


def idle(game: Game, inp: UnitInput, dice: DiceSource) -> ActionResult:
    """Idle (Fast): nothing (L409-L413)."""
    s, u, g = game.unit(inp.unit)
    ch = Changes(game)
    if fail := spend(ch, s, u, 1, "idle", dice):
        return ActionResult(changes=ch.list, text=fail)
    return ActionResult(changes=ch.list, text=f"{g.name} waits")


# --- Abilities as actions (L402-L407, L2766-L3030) -------------------------------------------

ROLLED = {
    "grapple_hook": (5, "no_actions"),
    "heat_wire": (5, "no_actions"),
    "heat_rod": (5, "no_carried"),
    "scatter_beam": (4, "acc5"),
}


class AbilityInput(UnitInput):
    ability: str = Field(
        description="One of the unit's active abilities, or its pilot's Mechanic trait.",
        json_schema_extra=PICK,
    )
    target: str = Field(default="", description="Its target, where it has one.", json_schema_extra=ENEMY)
    category: Literal["", "leg", "arm", "head"] = Field(
        default="", description="Mechanic: the level removed."
    )


def ability(game: Game, inp: AbilityInput, dice: DiceSource) -> ActionResult:
    """An Active ability as a Fast action, or the Mechanic trait (Slow, once per battle)."""
    s, u, g = game.unit(inp.unit)
    unit = profile(g)
    ch = Changes(game)
    once = list(g.state.extra.get("once", []))
    key = inp.ability
    if key == "mechanic":
        if not unit.pilot_has("mechanic") or "mechanic" in once:
            raise ValueError("Mechanic: a pilot with the trait, once per battle (L1978-L1979)")
        if fail := spend(ch, s, u, 2, key, dice):
            return ActionResult(changes=ch.list, text=fail)
        levels = [c for c in ("leg", "arm", "head") if g.state.counters.get(c, 0)]
        cat = inp.category or (levels[0] if len(levels) == 1 else "")
        if not cat:
            raise NeedChoice(
                "category", "Remove which damage level?", [Choice(value=c, label=c) for c in levels]
            )
        ch.counter(s, u, cat, max(0, g.state.counters.get(cat, 0) - 1))
        ch.extra(s, u, "once", [*once, "mechanic"])
        return ActionResult(changes=ch.list, text=f"{g.name}'s pilot repairs one level of {cat} damage")
    entry = ALL_ENTRIES["ability"].get(key)
    if entry is None or not unit.has(key):
        raise ValueError(f"{g.name} has no ability '{key}'")
    if entry.kind != "active" and key not in ("deploy_funnels",):
        raise ValueError(f"{entry.name} is passive: it works by itself (L402-L407)")
    if fail := spend(ch, s, u, 0 if key == "dig_in" and has(g, "dig_in") else 1, key, dice):
        return ActionResult(changes=ch.list, text=fail)
    if key in ("dig_in", "flight_mode"):
        on = not has(g, key)
        ch.condition(s, u, key, on)
        return ActionResult(changes=ch.list, text=f"{g.name}: {entry.name} {'on' if on else 'off'}")
    if key in ("extra_tank", "afterburner"):
        if key == "extra_tank" and "extra_tank" in once:
            raise ValueError("Extra Tank is used once per battle (L2866)")
        ch.extra(s, u, "once", [*once, key])
        return ActionResult(changes=ch.list, text=f"{g.name}: {entry.name} ({entry.help})")
    if key in ROLLED:
        need, effect = ROLLED[key]
        ts, tu, t = game.unit(inp.target) if inp.target else (-1, -1, None)
        if t is None or ts == s:
            raise ValueError(f'{entry.name} needs an enemy target within 12"')
        face = dice.roll(1, 6, entry.name)[0]
        if face >= need:
            ch.condition(ts, tu, effect, True)
        return ActionResult(
            changes=ch.list,
            text=f"{g.name}: {entry.name} on {t.name}, {face} ({need}+): "
            + ("it works" if face >= need else "no effect"),
        )
    return ActionResult(changes=ch.list, text=f"{g.name} uses {entry.name}: {entry.by_hand or entry.help}")


def ability_odds(game: Game, inp: AbilityInput) -> ActionOdds:
    need = ROLLED.get(inp.ability, (0, ""))[0]
    if not need:
        raise ValueError("this ability rolls no dice")
    d = Dist.die(6).map(lambda f: int(f >= need))
    return ActionOdds(tables={"works": table(d)}, facts={"success": float(d.probability(1))})


# --- Morale (L1536-L1602) -------------------------------------------------------------------


class MoraleInput(UnitInput):
    unit: str = Field(description="The unit checking morale.", json_schema_extra=OWN)
    near_command: bool = Field(
        default=False, description="In sight of a friendly Command unit that is not Routed (L1544-L1546)."
    )


def morale_need(game: Game, inp: MoraleInput) -> int | None:
    """2D6 needed (12 - Integrity, L1570), or None for an automatic pass (Stoic, the Command aura)."""
    _, _, g = game.unit(inp.unit)
    unit = profile(g)
    if g.state.destroyed:
        raise ValueError(f"{g.name} is destroyed")
    if unit.pilot_has("stoic") or (inp.near_command and not is_command(unit)):
        return None
    return 12 - integrity_left(g)


def morale(game: Game, inp: MoraleInput, dice: DiceSource) -> ActionResult:
    """A Morale check: pass one step up, fail one step down (L1561-L1579)."""
    s, u, g = game.unit(inp.unit)
    need = morale_need(game, inp)
    ch = Changes(game)
    state = 2 if has(g, "routed") else 1 if has(g, "wavering") else 0
    if need is None:
        passed, text = True, "passes automatically"
    else:
        faces = dice.roll(2, 6, "Morale check")
        passed = sum(faces) >= need
        text = f"{faces[0]}+{faces[1]}={sum(faces)} against {need}: {'pass' if passed else 'fail'}"
    new = max(0, state - 1) if passed else min(2, state + 1)
    ch.condition(s, u, "wavering", new == 1)
    ch.condition(s, u, "routed", new == 2)
    ch.condition(s, u, "morale_due", False)
    label = ("Steady", "Wavering", "Routed")[new]
    return ActionResult(changes=ch.list, text=f"{g.name} checks morale: {text}; now {label}")


def morale_odds(game: Game, inp: MoraleInput) -> ActionOdds:
    """P(pass) = P(2D6 >= 12 - Integrity): Integrity 5 needs 7, 21/36."""
    need = morale_need(game, inp)
    d = Dist.die(6).repeat(2).map(lambda v: int(need is None or v >= need))
    return ActionOdds(tables={"pass": table(d)}, facts={"pass": float(d.probability(1))})


def rout_roll(game: Game, inp: UnitInput, dice: DiceSource) -> ActionResult:
    """A Routed unit selected to act rolls a D6: on 1-3 it runs home and does nothing else (L1554-L1558)."""
    s, u, g = game.unit(inp.unit)
    if not has(g, "routed"):
        raise ValueError(f"{g.name} is not Routed")
    ch = Changes(game)
    face = dice.roll(1, 6, "Routed")[0]
    if face <= 3:
        spend(ch, s, u, budget(profile(g)) - g.state.counters.get("actions", 0), "rout")
        return ActionResult(
            changes=ch.list, text=f"{g.name} is Routed ({face}): it runs toward its deployment zone"
        )
    return ActionResult(changes=ch.list, text=f"{g.name} is Routed but holds ({face}): it acts as normal")


# --- Orders (L1283-L1293, L1415-L1534) ----------------------------------------------------------


class OrderInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    side: int = Field(
        default=-1,
        ge=-1,
        le=7,
        description="The side giving the order (0 = first); -1: the player in turn, the only one who may "
        "(L286-L291).",
        json_schema_extra={"ui": "hidden"},
    )
    order: Literal[tuple(e.key for e in ALL_ENTRIES["order"].values())] = Field(  # type: ignore[valid-type]
        description="Which order."
    )
    unit: str = Field(
        default="", description="The unit it concerns, where it has one.", json_schema_extra=OWN
    )


def order_cost(game: Game, inp: OrderInput) -> int:
    entry = ALL_ENTRIES["order"][inp.order]
    if inp.order == "withdraw":
        _, _, g = game.unit(inp.unit)
        return -(-g.state.max_damage // 2)  # half the base Integrity, rounded up (L1528-L1529; A40)
    return entry.cp


def order(game: Game, inp: OrderInput, dice: DiceSource) -> ActionResult:
    """Spend Command Points on an order in the Initial Upkeep (L1283-L1293)."""
    entry = ALL_ENTRIES["order"][inp.order]
    if game.state.active_side is None:
        raise ValueError(NOT_BEGUN)
    if inp.side < 0:
        inp = inp.model_copy(update={"side": game.state.active_side})
    side = game.sides[inp.side]
    if game.state.active_side != inp.side:
        raise ValueError(f"orders are given in {side.name}'s own turn, in its Initial Upkeep (L286-L291)")
    if not in_upkeep(game):
        raise ValueError("orders are given in the Initial Upkeep, before any unit of yours acts (L1290)")
    commanders = [
        g for g in side.units if is_command(profile(g)) and not g.state.destroyed and not has(g, "withdrawn")
    ]
    if not commanders:
        raise ValueError("orders need a Command unit still under your control (L1292-L1293)")
    cost = order_cost(game, inp) if inp.unit or inp.order != "withdraw" else 0
    cp = side.resources.get("cp", 0)
    if cp < cost:
        raise ValueError(f"{entry.name} costs {cost} Command Points; {cp} left")
    ch = Changes(game)
    ch.resource(inp.side, "cp", cp - cost)
    text = f"{side.name} orders {entry.name} ({cost} CP)"
    needs_unit = inp.order in (
        "bring_them_down",
        "field_repair",
        "infiltrate",
        "resupply",
        "we_have_reserves",
        "withdraw",
        "double_time",
    )
    if needs_unit:
        s, u, g = game.unit(inp.unit)
        if s != inp.side:
            raise ValueError("an order concerns one of your own units")
        if inp.order in ("bring_them_down", "field_repair", "resupply"):
            text += f" for {g.name}"
        if inp.order == "bring_them_down":
            ch.condition(s, u, "bring_them_down", True)
        elif inp.order == "field_repair":
            ch.set(_p(s, u, "damage"), max(0, g.state.damage - 2))
            ch.set(_p(s, u, "activated"), True)
            ch.condition(s, u, "no_actions", True)
        elif inp.order == "infiltrate":
            if not has(g, "reserve"):
                raise ValueError(f"{g.name} is not waiting to Ambush")
            ch.condition(s, u, "reserve", False)
            text += f": {g.name} arrives where its player chose, no roll (L1491-L1500)"
        elif inp.order == "resupply":
            ch.extra(s, u, "reload", {})
        elif inp.order == "we_have_reserves":
            if not g.state.destroyed or unit_cost(profile(g)) > 200:
                raise ValueError("only a destroyed unit of 200 points or less returns (L1515-L1523)")
            ch.set(_p(s, u, "destroyed"), False)
            ch.set(_p(s, u, "damage"), 0)
            for key in ("leg", "arm", "head"):
                ch.counter(s, u, key, 0)
            text += f": {g.name} returns in the deployment zone"
        elif inp.order == "withdraw":
            ch.condition(s, u, "withdrawn", True)
            text += f": {g.name} leaves the battle"
        else:
            text += f" for {g.name}"
    if inp.order == "concentrate_fire":
        ch.resource(inp.side, "concentrate_fire", 1)
    if inp.order == "get_to_cover":
        ch.resource(inp.side, "get_to_cover", 1)
    if inp.order == "colony_laser":
        factions = {f for g in side.units for f in profile(g).factions}
        if not factions & {"TITANS", "ZEON"}:
            raise ValueError(
                "only the Titans and the Principality of Zeon may fire the Colony Laser (L1446-L1447)"
            )
    if entry.by_hand:
        text += f" ({entry.by_hand})"
    return ActionResult(changes=ch.list, text=text)


# --- Ambush (L1253-L1269) ---------------------------------------------------------------------


def ambush(game: Game, inp: UnitInput, dice: DiceSource) -> ActionResult:
    """A unit in reserve tries to arrive: 1 fails, 2-3 the opponent places it, 4+ exact (L1258-L1264)."""
    s, u, g = game.unit(inp.unit)
    if not has(g, "reserve"):
        raise ValueError(f"{g.name} is not waiting to Ambush")
    if game.state.active_side is None:
        raise ValueError(NOT_BEGUN)
    if not in_upkeep(game):  # either player's Initial Upkeep (L1258; A29)
        raise ValueError("an Ambush is rolled in an Initial Upkeep, before the player in turn acts (L1258)")
    if in_space(game):
        raise ValueError("no Ambush in space (L1375)")
    unit = profile(g)
    ch = Changes(game)
    if unit.pilot_has("ambusher") or unit.has("hydrojets"):
        ch.condition(s, u, "reserve", False)
        return ActionResult(
            changes=ch.list, text=f"{g.name} arrives exactly where chosen, no roll (L1960, L2917)"
        )
    face = dice.roll(1, 6, "Ambush")[0]
    if weather(game) == "dense_minovsky":  # 1-3 fail, 4-5 within 12", 6 exact (L3310-L3311)
        face = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 6}[face]
    if face == 1:
        return ActionResult(changes=ch.list, text=f"{g.name}'s ambush fails (1): try again in a later Upkeep")
    ch.condition(s, u, "reserve", False)
    where = 'the opponent places it within 12" of the spot' if face <= 3 else "it arrives exactly on the spot"
    return ActionResult(changes=ch.list, text=f"{g.name} ambushes ({face}): {where}")


def ambush_odds(game: Game, inp: UnitInput) -> ActionOdds:
    if weather(game) == "dense_minovsky":
        d = Dist.die(6).map(lambda f: 0 if f <= 3 else 1 if f <= 5 else 2)
    else:
        d = Dist.die(6).map(lambda f: 0 if f == 1 else 1 if f <= 3 else 2)
    return ActionOdds(
        tables={"0 fails, 1 moved by the opponent, 2 exact": table(d)},
        facts={"arrives": float(1 - d.probability(0))},
    )


# --- Turns (L278-L308) -------------------------------------------------------------------------


class SideInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    side: int = Field(
        default=-1,
        ge=-1,
        le=7,
        description="Unused: the turn passes in the fixed order.",
        json_schema_extra={"ui": "hidden"},
    )


class PriorityInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    places: list[int] = Field(
        default_factory=list,
        max_length=8,
        description="The place in the turn order (1 = first) each player chose, highest roller first "
        "(L280-L281); asked after the roll.",
        json_schema_extra={"ui": "hidden"},
    )


def turn_order(game: Game) -> list[int]:
    """Sides by their place from the priority roll (L278-L282); by listing order until it is rolled."""
    return sorted(range(len(game.sides)), key=lambda i: (game.sides[i].resources.get("order", 0) or 99, i))


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}.get(n, f"{n}th")


def priority(game: Game, inp: PriorityInput, dice: DiceSource) -> ActionResult:
    """Everyone rolls a D6, tied players roll again among themselves (L278-L280); the highest roller
    picks a place in the turn order, then the second highest, and so on (L280-L281); the order stays for
    the game (L281-L282).

    The player placed first then begins the first turn: its Initial Upkeep (L286-L291).
    """
    if game.state.active_side is not None:
        raise ValueError("the priority roll is made once, before the first turn (L278-L282)")
    shown: list[str] = []

    def rank(contenders: list[int]) -> list[int]:
        """One roll ranks every player, highest first; only players who tie roll again, among
        themselves, for the places they share (L279-L281: "second highest roll" decides second)."""
        faces = dice.roll(len(contenders), 6, "priority")
        shown.append(", ".join(f"{game.sides[i].name} {f}" for i, f in zip(contenders, faces, strict=True)))
        out: list[int] = []
        for face in sorted(set(faces), reverse=True):
            tied = [i for i, f in zip(contenders, faces, strict=True) if f == face]
            out += tied if len(tied) == 1 else rank(tied)
        return out

    ranked = rank(list(range(len(game.sides))))
    free = list(range(1, len(ranked) + 1))
    place_of: dict[int, int] = {}
    for n, side in enumerate(ranked[:-1]):
        if n >= len(inp.places):
            name = game.sides[side].name
            rolled = "won the priority roll" if n == 0 else "rolled next highest"
            raise NeedChoice(
                "places",
                f"{name} {rolled}: which turn does {name} take? (L280-L281)",
                [Choice(value=[*inp.places, k], label=f"{_ordinal(k).capitalize()} turn") for k in free],
            )
        if inp.places[n] not in free:
            raise ValueError(f"turn {inp.places[n]} is not free to take")
        place_of[side] = inp.places[n]
        free.remove(inp.places[n])
    place_of[ranked[-1]] = free[0]
    ch = Changes(game)
    for side, place in place_of.items():
        ch.resource(side, "order", place)
    order_ = sorted(place_of, key=lambda i: place_of[i])
    texts = [
        "Priority: " + "; ".join(shown) + ". Order: " + ", ".join(game.sides[i].name for i in order_),
        begin_turn(ch, order_[0]),
    ]
    return ActionResult(changes=ch.list, text="; ".join(texts))


def command_points(game: Game, s: int) -> int:
    """Command Points gained in Upkeep: 1 per Command unit in play, 2 with Leader, 0 Routed (L1283-L1288)."""
    total = 0
    for g in game.sides[s].units:
        unit = profile(g)
        if (
            not is_command(unit)
            or g.state.destroyed
            or has(g, "reserve")
            or has(g, "withdrawn")
            or has(g, "routed")
        ):
            continue
        total += 2 if unit.pilot_has("leader") else 1
    return total


TIMED = ("no_actions", "no_carried", "acc5", "bring_them_down")


def begin_turn(ch: Changes, nxt: int) -> str:
    """A player's turn begins with its Initial Upkeep: Command Points come in (L284-L291, L1283-L1288)."""
    game = ch.game
    ch.set(["state", "active_side"], nxt)
    ch.resource(nxt, "turns", game.sides[nxt].resources.get("turns", 0) + 1)
    ch.resource(nxt, "get_to_cover", 0)  # it lasted through the opponents' turns (L1478-L1483)
    gain = command_points(game, nxt)
    ch.resource(nxt, "cp", game.sides[nxt].resources.get("cp", 0) + gain)
    return f"{game.sides[nxt].name}'s turn: +{gain} Command Point{'s' if gain != 1 else ''} (L1283-L1288)"


class NextTurnInput(SideInput):
    """The Final Upkeep's questions, asked when the game type needs them (L304-L306)."""

    zone: Units = asked_units("Objective: the units in the Objective Zone as the turn ends; asked.")
    quarter_1: Units = asked_units("Territory: the units in quarter 1 after the last round; asked.")
    quarter_2: Units = asked_units("Territory: the units in quarter 2 after the last round; asked.")
    quarter_3: Units = asked_units("Territory: the units in quarter 3 after the last round; asked.")
    quarter_4: Units = asked_units("Territory: the units in quarter 4 after the last round; asked.")


def ask_units(game: Game, field: str, prompt: str, leave_out: Set[str] = frozenset()) -> NoReturn:
    """Ask which units stand somewhere on the table (a zone, a quarter, a blast): none ticked is an answer
    too; ``leave_out`` names units that cannot be among them."""
    live = [
        (f"{s}/{g.key}", f"{side.name}: {g.name}")
        for s, side in enumerate(game.sides)
        for g in side.units
        if not g.state.destroyed
        and not has(g, "withdrawn")
        and not has(g, "reserve")
        and f"{s}/{g.key}" not in leave_out
    ]
    raise NeedChoice(field, prompt, [Choice(value=ref, label=label) for ref, label in live], many=True)


def next_turn(game: Game, inp: NextTurnInput, dice: DiceSource) -> ActionResult:
    """End the current player's turn with its Final Upkeep: the Objective Zone is counted (L192-L203; A33),
    victory checked (L304-L306), the quarters counted after the last round of Territory (L205-L218);
    then the next player's Initial Upkeep begins (L284-L308)."""
    if game.state.ended:
        raise ValueError("the game is over")
    current = game.state.active_side
    if current is None:
        raise ValueError(NOT_BEGUN)
    kind = mission(game)
    if kind == "objective" and inp.zone is None:
        ask_units(game, "zone", ZONE_PROMPT)
    ch = Changes(game)
    order_ = turn_order(game)
    texts = []
    ch.resource(current, "concentrate_fire", 0)
    for u in range(len(game.sides[current].units)):
        for cond in TIMED:  # effects on a unit "in its next turn" end with that turn (A46)
            ch.condition(current, u, cond, False)
        ch.counter(current, u, "actions", 0)
        ch.set(_p(current, u, "activated"), False)
    texts.append(f"{game.sides[current].name} ends the turn")
    if kind == "objective" and inp.zone is not None:
        texts.append(score_zone(ch, inp.zone))
        if ch.game.state.ended:
            return ActionResult(changes=ch.list, text="; ".join(texts))
    nxt = order_[(order_.index(current) + 1) % len(order_)]
    if order_.index(nxt) == 0:
        ch.set(["round"], game.round + 1)
        texts.append(f"round {game.round + 1}")
    limit = turn_limit(game)
    if kind == "territory" and limit and ch.game.round > limit:
        quarters = [inp.quarter_1, inp.quarter_2, inp.quarter_3, inp.quarter_4]
        for n, refs in enumerate(quarters, start=1):
            if refs is None:
                ask_units(
                    game, f"quarter_{n}", f"All rounds are played: which units stand in quarter {n} of 4?"
                )
        texts.append(score_quarters(ch, [q or [] for q in quarters]))
        return ActionResult(changes=ch.list, text="; ".join(texts))
    over = victory(game, ch)
    if over:
        return ActionResult(changes=ch.list, text="; ".join([*texts, over]))
    texts.append(begin_turn(ch, nxt))
    return ActionResult(changes=ch.list, text="; ".join(texts))


Mission = Literal["deathmatch", "skirmish", "objective", "territory", "battle_royale"]


class SetupInput(BaseModel):
    """The battle the table plays (L163-L229, L1367)."""

    model_config = ConfigDict(extra="forbid")

    mission: Mission = Field(
        default="deathmatch",
        description="Game type (L169-L229): deathmatch or battle royale (last player with units), skirmish "
        "(most enemy points destroyed), objective (points in the zone), territory (points per quarter).",
    )
    space: bool = Field(
        default=False,
        description="A battle in space: cover one step worse, no height bonus, no Volley or Ambush "
        "(L1367-L1405).",
    )
    environment: Literal["normal", "dense_minovsky", "bad_weather"] = Field(
        default="normal",
        description="Earth weather (L3306-L3333): Dense Minovsky Particles (Ambush fails on 1-3; no Scout, "
        "Panoramic Cockpit or Volley) or Bad Weather (a target's player removes one hit, 3 times a game).",
    )


def setup(game: Game, inp: SetupInput, dice: DiceSource) -> ActionResult:
    """Choose the game type, space or not and the weather; <S> units stay home in space (L1372)."""
    ch = Changes(game)
    if inp.space:
        barred = [g.name for side in game.sides for g in side.units if profile(g).no_space]
        if barred:
            raise ValueError("<S> units cannot fight in space (L1372): " + ", ".join(barred))
    ch.set(["state", "mission"], inp.mission)
    ch.set(["state", "environment"], "" if inp.environment == "normal" else inp.environment)
    ch.set(["state", "extra", "space"], inp.space)
    where = " in space" if inp.space else ""
    return ActionResult(changes=ch.list, text=f"{inp.mission.replace('_', ' ').capitalize()}{where}")


def game_length(game: Game, inp: SideInput, dice: DiceSource) -> ActionResult:
    """Skirmish and Territory last D6+4 rounds (L181, L207); the Objective must be held D6+2 turns (L197)."""
    kind = mission(game)
    if kind in ("deathmatch", "battle_royale"):
        raise ValueError("this game type lasts until one player is left (L171-L177, L220-L229)")
    face = dice.roll(1, 6, "game length")[0]
    value = face + (2 if kind == "objective" else 4)
    ch = Changes(game)
    ch.set(["state", "clocks", "turn_limit"], value)
    what = "turns to hold the objective" if kind == "objective" else "rounds"
    return ActionResult(changes=ch.list, text=f"Game length {face}: {value} {what}")


def environment(game: Game, inp: SideInput, dice: DiceSource) -> ActionResult:
    """Roll the weather before the game: 1-2 Dense Minovsky, 3-4 Bad Weather, 5-6 normal (L3306-L3333).

    In space the book's own table (debris, atmosphere) needs the board: its result is told, not applied.
    """
    face = dice.roll(1, 6, "environment")[0]
    ch = Changes(game)
    if in_space(game):
        result = {1: "Debris Showers", 2: "Debris Showers", 3: "Atmospheric Danger", 4: "Atmospheric Danger"}
        text = result.get(face, "nothing special")
        return ActionResult(
            changes=ch.list, text=f"Space environment {face}: {text} (L3337-L3362, on the table)"
        )
    value = "dense_minovsky" if face <= 2 else "bad_weather" if face <= 4 else "normal"
    ch.set(["state", "environment"], "" if value == "normal" else value)
    return ActionResult(changes=ch.list, text=f"Environment {face}: {value.replace('_', ' ')}")


ZONE_PROMPT = 'The turn ends: which units stand in the Objective Zone (within 10" of the Objective)?'


def zone_points(game: Game, refs: list[str]) -> dict[int, int]:
    """Points value of each side's units among ``refs`` (destroyed ones count nothing)."""
    points: dict[int, int] = {}
    for ref in refs:
        s, _, g = game.unit(ref)
        if not g.state.destroyed:
            points[s] = points.get(s, 0) + unit_cost(profile(g))
    return points


def score_zone(ch: Changes, refs: list[str]) -> str:
    """Objective: as a turn ends, the side with the highest points value in the zone holds it (L192-L203);
    the first to hold it for the rolled number of turns wins (A33; consecutive turns with
    ``objective_consecutive``)."""
    game = ch.game
    points = zone_points(game, refs)
    best = max(points.values(), default=0)
    leaders = [s for s, p in points.items() if p == best and p > 0]
    text = "Objective: " + (", ".join(f"{game.sides[s].name} {p} pts" for s, p in points.items()) or "empty")
    for s, side in enumerate(game.sides):
        held = side.resources.get("held", 0)
        if len(leaders) == 1 and s == leaders[0]:
            ch.resource(s, "held", held + 1)
            text += f"; {side.name} holds it ({held + 1})"
            if turn_limit(game) and held + 1 >= turn_limit(game):
                ch.set(["state", "ended"], True)
                ch.set(["state", "winners"], [s])
                text += f": {side.name} wins (L192-L203)"
        elif opts(game).objective_consecutive and held:
            ch.resource(s, "held", 0)
    return text


def score_quarters(ch: Changes, quarters: list[list[str]]) -> str:
    """Territory: each quarter goes to the side with the highest points value of units in it; the side
    holding the most quarters wins, a tie shares the win (L205-L218)."""
    game = ch.game
    held = [0] * len(game.sides)
    shown = []
    for n, refs in enumerate(quarters, start=1):
        points = zone_points(game, refs)
        best = max(points.values(), default=0)
        leaders = [s for s, p in points.items() if p == best and p > 0]
        if len(leaders) == 1:
            held[leaders[0]] += 1
            shown.append(f"quarter {n}: {game.sides[leaders[0]].name}")
        else:
            shown.append(f"quarter {n}: nobody")
    for s in range(len(game.sides)):
        ch.resource(s, "quarters", held[s])
    top = max(held)
    winners = [s for s, h in enumerate(held) if h == top and h > 0]
    ch.set(["state", "ended"], True)
    ch.set(["state", "winners"], winners)
    names = " and ".join(game.sides[s].name for s in winners) or "nobody"
    verb = "wins" if len(winners) == 1 else "win"
    return "Territory: " + ", ".join(shown) + f"; game over: {names} {verb} (L214-L218)"


def alive_sides(game: Game) -> list[int]:
    return [
        i
        for i, side in enumerate(game.sides)
        if any(not g.state.destroyed and not has(g, "withdrawn") for g in side.units)
    ]


def victory(game: Game, ch: Changes) -> str:
    """Victory checked in the Final Upkeep (L304-L306): last player standing, or the Skirmish tally."""
    kind, st = mission(game), ch.game.state
    if st.ended:
        return ""
    winners: list[int] = []
    alive = alive_sides(ch.game)
    if kind in ("deathmatch", "battle_royale") and len(alive) <= 1:
        winners = alive
    elif kind == "skirmish" and turn_limit(game) and ch.game.round > turn_limit(game):
        best = max(side.resources.get("destroyed", 0) for side in ch.game.sides)
        winners = [i for i, side in enumerate(ch.game.sides) if side.resources.get("destroyed", 0) == best]
    else:
        return ""
    ch.set(["state", "ended"], True)
    ch.set(["state", "winners"], winners)
    names = " and ".join(ch.game.sides[i].name for i in winners) or "nobody"
    return f"game over: {names} win{'s' if len(winners) == 1 else ''} (L171-L190)"


def phase_view(game: Game) -> PhaseView:
    """The turn's steps (L276-L308): the priority roll once, then each player's Initial Upkeep, actions and
    Final Upkeep; the step the game is at is marked and "Next turn" passes play on."""
    s = game.state.active_side
    name = game.sides[s].name if s is not None else "the player in turn"
    live = (
        []
        if s is None
        else [g for g in game.sides[s].units if not g.state.destroyed and not has(g, "withdrawn")]
    )
    steps = [
        PhaseStep(
            key="priority",
            label="Priority roll",
            action="priority",
            sheet=True,
            hint="Everyone rolls a die; the highest picks their place in the turn order (L278-L282).",
        ),
        PhaseStep(
            key="upkeep",
            label="Initial Upkeep",
            action="next_turn",
            hint=f"{name}: Command Points are in; give orders and roll for units waiting to Ambush, "
            "then act (L286-L291).",
        ),
        PhaseStep(
            key="actions",
            label="Actions",
            action="next_turn",
            hint=f"{name}'s units act one at a time: two Fast actions or one Slow each (L294-L297).",
        ),
        PhaseStep(
            key="final",
            label="Final Upkeep",
            action=None if game.state.ended else "next_turn",
            hint="The game is over."
            if game.state.ended
            else f"{name}'s units have acted: Next turn checks victory and passes play on (L304-L308).",
        ),
    ]
    if s is None:
        current = 0
    elif game.state.ended or all(g.state.activated for g in live):
        current = 3
    else:
        current = 1 if in_upkeep(game) else 2
    return PhaseView(steps=steps, current=current, round_button=False)


def status_lines(game: Game) -> list[CardLine]:
    """The game type, the round and the score by the game type's own measure (L169-L229).

    The shared lines under it show the environment, the game length and whose turn it is.
    Deathmatch and Battle Royale: players with units left (L176-L177, L228-L229); Skirmish: enemy points
    destroyed (L187-L190); Objective: turns holding the zone (L200-L203); Territory: quarters held,
    counted after the last round (L214-L218).
    """
    kind = mission(game)
    lines = [
        CardLine(
            label="Game type",
            value=kind.replace("_", " ").capitalize() + (" in space" if in_space(game) else ""),
        )
    ]
    limit = turn_limit(game)
    shown = f" of {limit}" if limit and kind in ("skirmish", "territory") else ""
    # The round count stops at the last one played: the game ends as it is over (L181, L207).
    played = min(game.round, limit) if shown and game.state.ended else game.round
    lines.append(CardLine(label="Round", value=f"{played}{shown}"))
    if game.state.active_side is None:
        lines.append(CardLine(label="Turn", value="not started: roll for priority"))
    alive = alive_sides(game)
    if kind in ("deathmatch", "battle_royale"):
        lines.append(CardLine(label="Players with units", value=str(len(alive))))
    elif kind == "skirmish":
        score = ", ".join(f"{s.name} {s.resources.get('destroyed', 0)}" for s in game.sides)
        lines.append(CardLine(label="Enemy points destroyed", value=score))
    elif kind == "objective":
        score = ", ".join(f"{s.name} {s.resources.get('held', 0)}" for s in game.sides)
        lines.append(CardLine(label="Turns holding", value=score + (f" of {limit}" if limit else "")))
    elif game.state.ended:
        score = ", ".join(f"{s.name} {s.resources.get('quarters', 0)}" for s in game.sides)
        lines.append(CardLine(label="Quarters held", value=score))
    else:  # the quarters are counted once, after the last round (L214-L218)
        when = f"when round {limit} ends" if limit else "after the last round: roll the game length"
        lines.append(CardLine(label="Quarters held", value=f"counted {when}"))
    return lines


ACTIONS: dict[str, ActionSpec] = {
    "shoot": ActionSpec(
        "shoot",
        "Shoot",
        ShootInput,
        shoot,
        shoot_odds,
        help="Fast (L595-L801).",
        headline=("damage", "destroyed"),
        primary=True,
        picks=shot_picks,
    ),
    "aimed_shot": ActionSpec(
        "aimed_shot",
        "Aimed Shot",
        AimedInput,
        aimed,
        aimed_odds,
        help="Slow (L875-L899).",
        picks=aimed_picks,
    ),
    "close_combat": ActionSpec(
        "close_combat",
        "Close combat",
        CloseInput,
        close_combat,
        close_odds,
        help="When units meet (L945-L1070).",
        headline=("damage to the target", "destroyed", "attacker destroyed", "advantage"),
        primary=True,
    ),
    "move": ActionSpec(
        "move",
        "Move or Boost",
        MoveInput,
        move,
        help="Fast Move or Slow Boost (L452-L550, L902).",
        primary=True,
    ),
    "reload": ActionSpec(
        "reload",
        "Reload",
        WeaponInput,
        reload,
        help="Quick (Fast) or Slow (L415-L422, L925).",
        picks=reload_picks,
        rolls=False,  # only an Obsolete unit's die (L2958-L2962), which the app rolls
    ),
    "switch_weapon": ActionSpec(
        "switch_weapon",
        "Switch Weapon",
        WeaponInput,
        switch,
        help="Fast (L424-L451).",
        picks=switch_picks,
        rolls=False,
    ),
    "idle": ActionSpec("idle", "Idle", UnitInput, idle, help="Fast (L409-L413).", rolls=False),
    "ability": ActionSpec(
        "ability",
        "Use an ability",
        AbilityInput,
        ability,
        ability_odds,
        help="Fast (L402-L407).",
        picks=ability_picks,
    ),
    "morale": ActionSpec(
        "morale", "Morale check", MoraleInput, morale, morale_odds, help="2D6 (L1561-L1602)."
    ),
    "rout": ActionSpec(
        "rout", "Routed roll", UnitInput, rout_roll, help="When a Routed unit acts (L1554-L1558)."
    ),
    "order": ActionSpec(
        "order", "Give an order", OrderInput, order, help="Command Points (L1415-L1534).", rolls=False
    ),
    "ambush": ActionSpec(
        "ambush", "Ambush", UnitInput, ambush, ambush_odds, help="In an Upkeep (L1253-L1269)."
    ),
    "priority": ActionSpec(
        "priority", "Priority roll", PriorityInput, priority, help="Turn order (L278-L282)."
    ),
    "next_turn": ActionSpec(
        "next_turn",
        "Next turn",
        NextTurnInput,
        next_turn,
        help="Final Upkeep, then the next player's turn.",
        rolls=False,
    ),
    "setup": ActionSpec(
        "setup", "Set up the battle", SetupInput, setup, help="Game type, space, weather.", rolls=False
    ),
    "game_length": ActionSpec(
        "game_length", "Roll game length", SideInput, game_length, help="L181, L197, L207."
    ),
    "environment": ActionSpec(
        "environment", "Roll the environment", SideInput, environment, help="Before the game (L3301-L3397)."
    ),
}
