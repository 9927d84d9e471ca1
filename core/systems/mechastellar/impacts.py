"""Bodies hitting things: Crash Through and Trample (L82-L87, L669-L671), a warship crashing (L960), and
the small-scale mode's Knockback, Down but not out and a Titan's Rally for an ally (L716-L728).

The app knows no positions, so each is a step the players start when it happens on the table, and the
app asks what only they can see (what a knocked-back unit hit).

* Crash Through: a Size 2+ unit that went Full Throttle or charged this turn moves through a building,
  which makes its save to stand (L84-L85): 5+, large 3+ (the weapon column of L657-L658; digest ambiguity
  27).  Outside the Destroying Terrain module too: the rule is the core's.
* Trample: the same unit tramples up to 3 targets smaller than it, one step each: each makes an Armor
  Save against PEN equal to the trampler's Size, 1000 damage if it fails (L86-L87).  A Skilled or Ace
  pilot's Momentum to pass it: not offered (the book names no skill use here).
* A warship that crashes into or through terrain makes 2 Armor Saves against PEN 5 (L960), 1000 each
  failed (L218).
* Knockback (the small-scale mode): a Super Titan's shot or melee attack that deals damage with a weapon of
  PEN below 5 and 500+ damage knocks the target back a d10 inches (L725), 5 more after a High Speed Attack
  (L726; Slow and Laborious's 5 less: the players', the app keeps no such tag); into terrain or off high
  ground 1000 damage, into another unit 1000 to both (L727-L728): asked after the roll.
* Down but not out (the small-scale mode): a destroyed Super Titan rolls a d10 as each round ends, once;
  a 10 brings it back with 100 HP (L723-L724).
* Rally an ally (the small-scale mode): a Super Titan's Focus action rallies itself or an ally, d10 x
  100 HP (L722).
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource, Dist
from core.game import Game
from core.pool import table
from core.steps import FacePool
from core.systems.base import (
    ActionOdds,
    ActionResult,
    Choice,
    Closed,
    NeedChoice,
    enemy_unit,
    needs,
    own_unit,
    read_options,
)
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.state import MsState, dice_words, ms_state
from core.systems.mechastellar.turns import begin_turn, check_turn, spend_action
from core.systems.mechastellar.units import Unit

#: A failed Armor Save, a knockback into terrain or another unit (L87, L218, L727-L728).
HURT = 1000
#: Targets one trample may reach (L86).
TRAMPLES = 3
#: A warship crashing into terrain: its saves and the PEN they face (L960).
SHIP_SAVES, SHIP_PEN = 2, 5
#: What a fallen Titan needs, and the HP it gets up with (L724).
GET_UP, GET_UP_HP = 10, 100


def _unit(game: Game, ref: str) -> tuple[int, int, Unit]:
    s, u, g = game.unit(ref)
    return s, u, Unit.model_validate(g.profile)


def big_move(game: Game, ref: str) -> str:
    """A Size 2+ unit that went Full Throttle or charged this turn (L84, L86)."""
    _, _, g = game.unit(ref)
    unit = Unit.model_validate(g.profile)
    if unit.size < 2:
        return f"{g.name} is under Size 2"
    charged = ms_state(game).turn_unit == ref and bool(ms_state(game).charge)
    if "throttle" not in g.state.conditions and not charged:
        return f"{g.name} has not gone Full Throttle or charged this turn"
    return ""


def save_pool(pen: int, save: int, dice: int) -> FacePool:
    """Armor Saves against ``pen``: a die below PEN - Sv fails and counts 1 (L223)."""
    tn = pen - save
    return FacePool(dice=dice if tn > 1 else 0, sides=10, values=tuple(int(f < tn) for f in range(1, 11)))


# --- Crash Through ---------------------------------------------------------------------------------------


class CrashThrough(Closed):
    """A Size 2+ unit at Full Throttle moves through a building: the building saves or falls (L84-L85)."""

    unit: str = own_unit("Who crashes through.")
    large: bool = Field(
        default=False,
        description="A large building: it stands on 3+ (L658).",
        json_schema_extra={"flow": "common"},
    )


def crash_odds(game: Game, inp: CrashThrough) -> ActionOdds:
    need = 3 if inp.large else 5
    return ActionOdds(
        tables={"stands": table(Dist.die(10).map(lambda f: int(f >= need)))},
        facts={"destroyed": float(Fraction(need - 1, 10))},
        summary=f"The building stands on {need}+",
    )


def crash_through(game: Game, inp: CrashThrough, dice: DiceSource) -> ActionResult:
    why = big_move(game, inp.unit)
    if why:
        raise ValueError(why)
    _, _, g = game.unit(inp.unit)
    need = 3 if inp.large else 5
    face = dice.roll(1, 10, "building save")[0]
    stands = face >= need
    text = (
        f"{g.name} crashes through a {'large ' if inp.large else ''}building: save {face} (needs {need}+), "
    )
    text += ("it stands" if stands else "it is destroyed") + " (L84-L85)"
    return ActionResult(changes=[], text=text, detail={"save": face, "stands": stands})


# --- Trample -------------------------------------------------------------------------------------------


class Trample(Closed):
    """A Size 2+ unit tramples a smaller target: an Armor Save against PEN = its Size (L86-L87)."""

    unit: str = own_unit("Who tramples.")
    target: str = enemy_unit("Whom it tramples.")


def _trample_pool(game: Game, inp: Trample) -> tuple[FacePool, str, int]:
    why = big_move(game, inp.unit)
    if why:
        raise ValueError(why)
    a_side, _, big = _unit(game, inp.unit)
    t_side, _, small = _unit(game, inp.target)
    _, _, t_g = game.unit(inp.target)
    if a_side == t_side or t_g.state.destroyed:
        raise ValueError("pick an enemy unit in play")
    if small.size >= big.size:
        raise ValueError(f"{t_g.name} is not smaller than {game.unit(inp.unit)[2].name} (L86)")
    return save_pool(big.size, small.save, 1), t_g.name, big.size


def trample_odds(game: Game, inp: Trample) -> ActionOdds:
    pool, name, pen = _trample_pool(game, inp)
    failed = pool.dist()
    return ActionOdds(
        tables={"damage": table(failed.map(lambda k: k * HURT))},
        facts={"fails": float(failed.probability(1))},
        summary=f"{name} saves against PEN {pen}",
    )


def trample(game: Game, inp: Trample, dice: DiceSource) -> ActionResult:
    pool, name, _ = _trample_pool(game, inp)
    _, _, g = game.unit(inp.unit)
    done = [r for r in ms_state(game).this_round if r.startswith(f"{inp.unit}:trample:")]
    if len(done) >= TRAMPLES:
        raise ValueError(f"{g.name} has trampled {TRAMPLES} targets (L86)")
    if f"{inp.unit}:trample:{inp.target}" in done:
        raise ValueError(f"{g.name} has trampled {name} already")
    check_turn(game, inp.unit)
    roll = pool.roll(dice, "armor save") if pool.dice else None
    failed = roll.total if roll else 0
    work = Working(game)
    begin_turn(game, work, inp.unit)
    t_side, t_i, _ = game.unit(inp.target)
    state = work.state(t_side, t_i)
    state.damage = min(state.max_damage, state.damage + failed * HURT)
    st = work.extra_as(MsState)
    st.this_round = [*st.this_round, f"{inp.unit}:trample:{inp.target}"]
    work.put_extra(st)
    save = f"save {roll.final[0]}" if roll else "no save needed"
    text = f"{g.name} tramples {name}: {save}, " + ("1000 damage" if failed else "no damage") + " (L86-L87)"
    return ActionResult(changes=work.changes(), text=text, detail={"failed": failed})


# --- a warship crashing into terrain ----------------------------------------------------------------------


class ShipCrash(Closed):
    """A warship crashes into or through terrain: 2 Armor Saves against PEN 5 (L960)."""

    unit: str = own_unit("Which warship.")


def _ship_pool(game: Game, ref: str) -> FacePool:
    _, _, unit = _unit(game, ref)
    if unit.kind != "warship":
        raise ValueError(f"{game.unit(ref)[2].name} is not a Stellar Warship")
    return save_pool(SHIP_PEN, unit.save, SHIP_SAVES)


def ship_crash_odds(game: Game, inp: ShipCrash) -> ActionOdds:
    failed = _ship_pool(game, inp.unit).dist()
    return ActionOdds(
        tables={"damage": table(failed.map(lambda k: k * HURT))}, summary="2 saves against PEN 5"
    )


def ship_crash(game: Game, inp: ShipCrash, dice: DiceSource) -> ActionResult:
    pool = _ship_pool(game, inp.unit)
    s, u, g = game.unit(inp.unit)
    roll = pool.roll(dice, "armor saves") if pool.dice else None
    failed = roll.total if roll else 0
    work = Working(game)
    state = work.state(s, u)
    state.damage = min(state.max_damage, state.damage + failed * HURT)
    saves = f"saves {dice_words(roll.final)}" if roll else "no saves needed"
    return ActionResult(
        changes=work.changes(), text=f"{g.name} crashes into terrain: {saves}, {failed * HURT} damage (L960)"
    )


# --- the small-scale mode ----------------------------------------------------------------------------------


def small_scale_on(game: Game) -> str:
    return "" if read_options(MsOptions, game.options).small_scale else "the small-scale mode is off"


def knock_entry(target: str) -> str:
    return f"knock:{target}"


def mark_knock(
    game: Game,
    work: Working,
    attacker: str,
    target: str,
    pen: int,
    damage: int,
    dealt: int,
    fast: bool = False,
) -> str:
    """After an attack: a Super Titan that dealt damage with a weapon of PEN under 5 and 500+ damage owes a
    knockback (L725); an attack by a mobile suit may Hit & Run (L717-L718).  The text for the log."""
    if small_scale_on(game):
        return ""
    kind = game.unit(attacker)[2].profile.get("kind")
    if kind == "mobile_suit":
        return (
            '; Hit & Run: it may move up to 5" (back after shooting, forward after a melee kill) (L717-L718)'
        )
    if kind != "super_titan" or not dealt or pen >= 5 or damage < 500:
        return ""
    st = work.extra_as(MsState)
    entry = knock_entry(target) + ":fast" * fast  # a High Speed Attack: 5" farther (L726)
    if entry not in st.this_round:
        st.this_round = [*st.this_round, entry]
        work.put_extra(st)
    return f"; {game.unit(target)[2].name} is knocked back: Knockback rolls the distance (L725)"


def knockback_refusal(game: Game, ref: str) -> str:
    """The requirement ``knockback``: a Super Titan whose attack this turn dealt damage with a weapon of PEN
    under 5 and 500+ damage (L725), in the small-scale mode."""
    _, _, g = game.unit(ref)
    why = small_scale_on(game)
    if why:
        return why
    st = ms_state(game)
    if st.turn_unit != ref or not any(e.startswith("knock:") for e in st.this_round):
        return f"{g.name} has not hit a unit this turn with a weapon of PEN under 5 and 500+ damage"
    return ""


class Knockback(Closed):
    """The Super Titan's hit knocks the target back a d10 inches; what it hits is asked (L725-L728)."""

    unit: str = own_unit("Which Super Titan.")
    target: str = enemy_unit("Whom it knocked back.")
    into: str | None = Field(
        default=None,
        max_length=60,
        description="What the target hit: nothing, terrain (or a fall), or a unit (L727-L728); asked then.",
        json_schema_extra={"ui": "hidden"},
    )


def knockback(game: Game, inp: Knockback, dice: DiceSource) -> ActionResult:
    why = knockback_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    st = ms_state(game)
    _, _, t_g = game.unit(inp.target)
    entry = next((e for e in st.this_round if e.split(":fast")[0] == knock_entry(inp.target)), "")
    if not entry:
        raise ValueError(f"{t_g.name} was not hit that way this turn (L725)")
    face = dice.roll(1, 10, "knockback")[0] + 5 * entry.endswith(":fast")  # High Speed Attack +5" (L726)
    if inp.into is None:
        others = [
            Choice(value=f"{s}/{g.key}", label=f"Into {g.name}: 1000 each")
            for s, side in enumerate(game.sides)
            for g in side.units
            if not g.state.destroyed and f"{s}/{g.key}" != inp.target
        ]
        raise NeedChoice(
            "into",
            f'{t_g.name} is knocked back {face}" (Slow and Laborious: 5" less): into what?',
            [
                Choice(value="", label="Nothing", assumed=True),
                Choice(value="terrain", label="Terrain, or off high ground: 1000"),
                *others,
            ],
        )
    refs = {f"{s}/{g.key}" for s, side in enumerate(game.sides) for g in side.units}
    if inp.into not in ("", "terrain") and (inp.into not in refs or inp.into == inp.target):
        raise ValueError("pick what the unit was knocked into: nothing, terrain or another unit")
    hurt = [inp.target] if inp.into == "terrain" else [inp.target, inp.into] if inp.into else []
    work = Working(game)
    for ref in hurt:
        s, u, _ = game.unit(ref)
        state = work.state(s, u)
        state.damage = min(state.max_damage, state.damage + HURT)
    st2 = work.extra_as(MsState)
    st2.this_round = [e for e in st2.this_round if e != entry]
    work.put_extra(st2)
    names = " and ".join(game.unit(r)[2].name for r in hurt)
    text = f'{t_g.name} is knocked back {face}"' + (f": {names} take 1000 damage" if hurt else "")
    return ActionResult(changes=work.changes(), text=text + " (L725-L728)", detail={"inches": face})


def get_up_refusal(game: Game, ref: str) -> str:
    """The requirement ``get_up``: a destroyed Super Titan, the small-scale mode, the round over, once."""
    _, _, g = game.unit(ref)
    why = small_scale_on(game)
    if why:
        return why
    if Unit.model_validate(g.profile).kind != "super_titan" or not g.state.destroyed:
        return f"{g.name} is not a fallen Super Titan"
    st = ms_state(game)
    if not st.rolled_off or st.turn_unit or game.state.active_side is not None:
        return "only as the round ends, once every unit has had its turn (L724)"
    return f"{g.name} has rolled this round" if f"{ref}:get_up" in st.this_round else ""


class GetUp(Closed):
    """Down but not out: a fallen Super Titan rolls a d10 as the round ends; on 10 it is back with 100 HP
    (L723-L724)."""

    unit: str = own_unit("Which fallen Super Titan.")


def get_up(game: Game, inp: GetUp, dice: DiceSource) -> ActionResult:
    why = get_up_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g = game.unit(inp.unit)
    face = dice.roll(1, 10, "down but not out")[0]
    work = Working(game)
    st = work.extra_as(MsState)
    st.this_round = [*st.this_round, f"{inp.unit}:get_up"]
    work.put_extra(st)
    if face < GET_UP:
        return ActionResult(changes=work.changes(), text=f"{g.name} stays down: {face} (needs 10, L724)")
    state = work.state(s, u)
    state.destroyed, state.damage = False, state.max_damage - GET_UP_HP
    return ActionResult(changes=work.changes(), text=f"{g.name} gets back up with 100 HP: {face} (L724)")


def get_up_odds(game: Game, inp: GetUp) -> ActionOdds:
    return ActionOdds(
        tables={"back": table(Dist.die(10).map(lambda f: int(f >= GET_UP)))}, summary="10: back up"
    )


def rally_ally_refusal(game: Game, ref: str) -> str:
    """The requirement ``rally_ally``: a Super Titan that may act, in the small-scale mode (L722)."""
    _, _, g = game.unit(ref)
    why = small_scale_on(game)
    if why:
        return why
    if Unit.model_validate(g.profile).kind != "super_titan":
        return f"{g.name} is not a Super Titan"
    try:
        check_turn(game, ref)
    except ValueError as err:
        return str(err)
    return ""


class RallyAlly(Closed):
    """A Super Titan's Focus action rallies itself or an ally: d10 x 100 HP (L722)."""

    unit: str = own_unit("Which Super Titan.")
    ally: str = own_unit("Whom it rallies (itself or an ally).")


def rally_ally(game: Game, inp: RallyAlly, dice: DiceSource) -> ActionResult:
    why = rally_ally_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, _, g = game.unit(inp.unit)
    a_side, a_i, a_g = game.unit(inp.ally)
    if a_side != s or a_g.state.destroyed:
        raise ValueError("pick a unit of its own side still in play")
    face = dice.roll(1, 10, "rally")[0]
    work = Working(game)
    begin_turn(game, work, inp.unit)
    spend_action(game, work, inp.unit)
    state = work.state(a_side, a_i)
    healed = min(state.damage, 100 * face)
    state.damage -= healed
    return ActionResult(
        changes=work.changes(),
        text=f"{g.name} rallies {a_g.name} with a Focus action: {face} x 100, {healed} HP recovered (L722)",
    )


def rally_ally_odds(game: Game, inp: RallyAlly) -> ActionOdds:
    _, _, a_g = game.unit(inp.ally)
    hurt = a_g.state.damage
    return ActionOdds(
        tables={"recovered": table(Dist.die(10).map(lambda f: min(hurt, 100 * f)))}, summary="d10 x 100 HP"
    )


def mobility_refusal(game: Game, ref: str) -> str:
    """The requirement ``mobility``: a mobile suit in the small-scale mode (L716)."""
    _, _, g = game.unit(ref)
    why = small_scale_on(game)
    if why:
        return why
    return "" if Unit.model_validate(g.profile).kind == "mobile_suit" else f"{g.name} is not a mobile suit"


#: The Throttle input's field for Mobility's extra Move (L716).
MOBILITY_FIELD = Field(
    default=False,
    description="1 Momentum: a mobile suit's Full Throttle gives Move +5\" more (the small-scale mode, "
    "L716).",
    json_schema_extra={"flow": "common", **needs("mobility")},
)


# --- moving in space and in low gravity (L880-L898) ------------------------------------------------------

#: A Low Gravity fall off high ground: a d10 of this or less (L898).
FALLS_ON = 4


def inertia_refusal(game: Game, ref: str) -> str:
    """The requirement ``inertia``: in space, a Basic pilot's unit that is not a warship pays to reverse
    (L883-L886); warships never move backwards (L958)."""
    _, _, g = game.unit(ref)
    if not read_options(MsOptions, game.options).space:
        return "the battle is not in space"
    unit = Unit.model_validate(g.profile)
    if unit.kind == "warship":
        return f"{g.name} is a warship: it never moves backwards (L958)"
    if unit.pilot.tier != "basic":
        return f"{g.name}'s pilot is Skilled or Ace: it turns about freely (L886)"
    if "reversed" in g.state.conditions:
        return f"{g.name} has reversed this turn"
    try:
        check_turn(game, ref)
    except ValueError as err:
        return str(err)
    return ""


class Reverse(Closed):
    """Space inertia: moving against the turn's first direction costs 1 Momentum (L883-L886)."""

    unit: str = own_unit("Who turns about.")


def reverse(game: Game, inp: Reverse, dice: DiceSource) -> ActionResult:
    why = inertia_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g = game.unit(inp.unit)
    if game.sides[s].resources.get("momentum", 0) < 1:
        raise ValueError("turning about against inertia costs 1 Momentum (L883)")
    work = Working(game)
    begin_turn(game, work, inp.unit)
    res = work.resources(s)
    res["momentum"] = res.get("momentum", 0) - 1
    state = work.state(s, u)
    state.conditions = [*state.conditions, "reversed"]
    return ActionResult(
        changes=work.changes(), text=f"{g.name} fights its inertia: 1 Momentum to move the other way (L883)"
    )


def fall_refusal(game: Game, ref: str) -> str:
    """The requirement ``low_gravity``: the Low Gravity module is on and the unit in play (L891-L898)."""
    _, _, g = game.unit(ref)
    if not read_options(MsOptions, game.options).low_gravity:
        return "the battle is not in low gravity"
    return f"{g.name} is destroyed" if g.state.destroyed else ""


class Fall(Closed):
    """Low Gravity: a unit on high ground that takes damage rolls a d10, falling off on 1-4; a fall deals no
    damage there (L897-L898)."""

    unit: str = own_unit("Which unit took damage on high ground.")


def fall(game: Game, inp: Fall, dice: DiceSource) -> ActionResult:
    why = fall_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    _, _, g = game.unit(inp.unit)
    face = dice.roll(1, 10, "fall")[0]
    falls = face <= FALLS_ON
    text = f"{g.name} on high ground: {face}, " + (
        "it falls off, unharmed" if falls else "it keeps its footing"
    )
    return ActionResult(changes=[], text=text + " (L897-L898)", detail={"roll": face, "falls": falls})


def fall_odds(game: Game, inp: Fall) -> ActionOdds:
    return ActionOdds(
        tables={"falls": table(Dist.die(10).map(lambda f: int(f <= FALLS_ON)))}, summary="Falls off on 1-4"
    )
