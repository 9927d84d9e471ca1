"""Charge into melee and the defender's Overwatch (L170-L181).

A unit that moves into engagement range of an enemy charges it (L172): the charged unit may fire one
weapon with Overwatch N per action it has, N shots each (Overwatch II twice, III three times, L174-L175;
the L181 example: three actions and three Overwatch III weapons make 9 shots).  The charger rolls its
evade dice and its shield blocks as against any shot (L176); a Melee Shield blocks one Overwatch shot
(L233).  No Overwatch from a unit already in melee or Blindsided by a charger that began its turn behind
it (L177-L178).  Overwatch is a reaction: it spends none of the defender's actions (digest ambiguity
34) and the weapon may still fire on its own turn.  Then the clash (:mod:`.melee`) is fought with the
charged unit.

The Overwatch Command (Influence, a Reaction, L836-L838): one unit fires a weapon's Overwatch N shots at
an enemy in range (the range is the players'), at any time, for 1 Influence; the L838 example: a machine
gun with Overwatch III makes 3 shots.  It spends no action and is no charge's Overwatch.

Last Shooting (Climactic Events, L745-L750): a unit just destroyed makes one shooting attack, no action
spent, with any shooting weapon Battle Damage has not disabled, at a unit not in melee (L750); offered on
the result that destroyed it, open until that unit turn ends.

A Shooting Counterattack (Expanded Pilot Skills, 2 Momentum, L332-L334): a unit that survives a shot
fires one shooting weapon back at the shooter at once, on the shooter's turn, no action spent.

Declaring the charge is optional: a melee attack without one is a unit already in engagement range, or
a charge whose defender let its Overwatch go.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game
from core.systems.base import ActionOdds, ActionResult, Closed, FieldPick, enemy_unit, own_unit
from core.systems.mechastellar.commands import armed, influence_on, screened
from core.systems.mechastellar.events import last_offer, last_shot, note_event
from core.systems.mechastellar.shooting import (
    Shoot,
    apply_hits,
    describe,
    detail,
    land,
    momentum_asked,
    near_asked,
    plan,
    plan_odds,
)
from core.systems.mechastellar.skills import COUNTER_COST, counter_refusal, note_skill
from core.systems.mechastellar.state import MsState, gain, ms_state, put_unit_extra, unit_extra
from core.systems.mechastellar.turns import actions_now, begin_turn
from core.systems.mechastellar.units import Unit


class Charge(Closed):
    """Charge into melee: move into the enemy's engagement range; it may answer with Overwatch (L170-L181)."""

    attacker: str = own_unit("Who charges.")
    target: str = enemy_unit("Whom it charges.")
    blindside: bool = Field(
        default=False,
        description="It began its turn behind the target's front 180 degrees: a Blindside, so no "
        "Overwatch (L177-L178, L545).",
        json_schema_extra={"flow": "common"},
    )


def use_up(game: Game, work: Working, ref: str, weapon: int) -> None:
    """A missile fired as Overwatch under Missile Screen! is used up for the battle (L834)."""
    if screened(game, ref, weapon):
        s, u, g = game.unit(ref)
        mine = unit_extra(g)
        mine.spent = [*mine.spent, weapon]
        put_unit_extra(work, s, u, mine)


def overwatch_weapons(unit: Unit) -> list[tuple[int, str, int]]:
    """The unit's weapons with Overwatch: (index, name, shots)."""
    return [
        (i, w.name, w.overwatch) for i, w in enumerate(unit.weapons) if w.overwatch and w.kind == "shooting"
    ]


def charge(game: Game, inp: Charge, dice: DiceSource) -> ActionResult:
    a_side, _, a_g = game.unit(inp.attacker)
    d_side, _, d_g = game.unit(inp.target)
    if a_side == d_side:
        raise ValueError("pick an enemy unit to charge")
    if d_g.state.destroyed:
        raise ValueError(f"{d_g.name} is already destroyed")
    st = ms_state(game)
    if st.turn_unit == inp.attacker and st.charge and not unit_extra(a_g).meleed:
        raise ValueError(f"{a_g.name} has charged {game.unit(st.charge)[2].name} this turn")
    work = Working(game)
    begin_turn(game, work, inp.attacker)
    now = work.extra_as(MsState)
    now.charge, now.charge_blindside, now.overwatch = inp.target, inp.blindside, []
    work.put_extra(now)
    defender = armed(game, inp.target)  # Missile Screen!'s Overwatch V (L833)
    guns = overwatch_weapons(defender)
    text = f"{a_g.name} charges {d_g.name}"
    if not guns:
        text += f"; {d_g.name} has no Overwatch weapon"
    elif inp.blindside:
        text += ": a Blindside, no Overwatch (L177)"
    elif "engaged" in d_g.state.conditions:
        text += f"; {d_g.name} is already in melee: no Overwatch (L177)"
    else:
        n = actions_now(game, d_g)
        names = ", ".join(f"{name} ({shots} shots)" for _, name, shots in guns)
        text += f"; {d_g.name} may fire Overwatch with {n} weapon{'s' * (n != 1)}: {names}"
    return ActionResult(changes=work.changes(), text=text)


class Overwatch(Closed):
    """The charged unit fires one weapon's Overwatch at the charger (L174-L176)."""

    unit: str = own_unit("Who fires Overwatch.")
    weapon: int = Field(
        default=0, ge=0, le=11, description="Which Overwatch weapon.", json_schema_extra={"flow": "pick"}
    )
    defense: int | None = momentum_asked(
        "Momentum the charger spends on Skill Defense after the roll (L260-L264); asked then."
    )
    bought: int | None = momentum_asked("Failed Armor Saves the charger passes for 1 Momentum each (L220).")
    flawless: bool = Field(
        default=False,
        description="The charger's Ace negates every hit (Flawless Evasion, L290-L291); asked then.",
        json_schema_extra={"ui": "hidden"},
    )
    escape: bool = Field(
        default=False,
        description="The charger's Narrow Escape: every shot evaded, once a game (L742); asked then.",
        json_schema_extra={"ui": "hidden"},
    )


def _shot(game: Game, inp: Overwatch) -> Shoot:
    st = ms_state(game)
    if not st.turn_unit or st.charge != inp.unit:
        _, _, g = game.unit(inp.unit)
        raise ValueError(f"{g.name} is not being charged")
    _, _, g = game.unit(inp.unit)
    unit = armed(game, inp.unit)
    if st.overwatch_bonus:  # a won Outmaneuver: one attack, any shooting weapon (L925-L926)
        if inp.weapon >= len(unit.weapons) or unit.weapons[inp.weapon].kind != "shooting":
            raise ValueError(f"{g.name} has no such shooting weapon")
        if st.overwatch:
            raise ValueError(f"{g.name} has fired its Overwatch attack (L925)")
    elif inp.weapon >= len(unit.weapons) or not unit.weapons[inp.weapon].overwatch:
        raise ValueError(f"{g.name} has no Overwatch on that weapon (L174)")
    if inp.weapon in st.overwatch:
        raise ValueError(f"{unit.weapons[inp.weapon].name} has fired Overwatch at this charge (L153)")
    return Shoot(
        attacker=inp.unit,
        target=st.turn_unit,
        weapon=inp.weapon,
        defense=inp.defense,
        bought=inp.bought,
        flawless=inp.flawless,
        escape=inp.escape,
        near=True,  # the charger is in engagement range (L172): within 16" (L399, L842)
        will_to_power=False,  # a shot's, asked with Shoot (L781)
    )


def overwatch(game: Game, inp: Overwatch, dice: DiceSource) -> ActionResult:
    shot = _shot(game, inp)
    p = plan(game, shot, overwatch=True)
    out = land(game, p, shot, dice)
    work = Working(game)
    killed = apply_hits(game, work, p, shot, out)
    st = work.extra_as(MsState)
    st.overwatch = [*st.overwatch, inp.weapon]
    work.put_extra(st)
    use_up(game, work, inp.unit, inp.weapon)
    if killed:
        gain(work, game.unit(inp.unit)[0], "momentum", 1)  # an enemy destroyed this turn (L247)
    a_name, t_name = game.unit(inp.unit)[2].name, game.unit(shot.target)[2].name
    text = "Overwatch: " + describe(a_name, t_name, p, out, killed)
    offers = last_offer(game, shot.target) if killed else []
    return ActionResult(changes=work.changes(), text=text, detail=detail(out), offers=offers)


def overwatch_odds(game: Game, inp: Overwatch) -> ActionOdds:
    """Hits, failed saves, damage and the chance to destroy the charger, before Skill Defense."""
    return plan_odds(plan(game, _shot(game, inp), overwatch=True), "Overwatch shots", "the charger")


def overwatch_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """Its weapons with Overwatch offered; the rest greyed, as are those fired at this charge."""
    _, _, g = game.unit(actor)
    fired = ms_state(game).overwatch
    out = []
    for i, w in enumerate(armed(game, actor).weapons):
        why = "no Overwatch" if not w.overwatch or w.kind != "shooting" else ""
        why = why or ("fired at this charge" if i in fired else "")
        why = why or ("used up" if i in unit_extra(g).spent else "")
        out.append(FieldPick(value=i, label=w.name, detail=f"Overwatch {w.overwatch}", unavailable=why))
    return {"weapon": out}


class OverwatchCommand(Closed):
    """The Overwatch Command: 1 Influence, one unit's Overwatch attack at an enemy in range (L836-L838)."""

    unit: str = own_unit("Who fires Overwatch.")
    target: str = enemy_unit("At whom (within the weapon's range).")
    weapon: int = Field(
        default=0, ge=0, le=11, description="Which Overwatch weapon.", json_schema_extra={"flow": "pick"}
    )
    defense: int | None = momentum_asked("Momentum the target spends on Skill Defense after the roll.")
    bought: int | None = momentum_asked("Failed Armor Saves the target passes for 1 Momentum each (L220).")
    flawless: bool = Field(
        default=False,
        description="The target's Ace negates every hit (Flawless Evasion, L290-L291); asked then.",
        json_schema_extra={"ui": "hidden"},
    )
    escape: bool = Field(
        default=False,
        description="The target's Narrow Escape: every shot evaded, once a game (L742); asked then.",
        json_schema_extra={"ui": "hidden"},
    )
    near: bool | None = Field(
        default=None,
        description='The firer is within 16" of the target (Immortal, L399; Lightning Raid, L842); asked.',
        json_schema_extra={"ui": "hidden"},
    )


def _command_shot(game: Game, inp: OverwatchCommand) -> Shoot:
    side, _, g = game.unit(inp.unit)
    if not influence_on(game):
        raise ValueError("the Influence module is off")
    if game.sides[side].resources.get("influence", 0) < 1:
        raise ValueError("the Overwatch Command costs 1 Influence (L836)")
    if g.state.destroyed:
        raise ValueError(f"{g.name} is destroyed")
    unit = armed(game, inp.unit)
    if inp.weapon >= len(unit.weapons) or not unit.weapons[inp.weapon].overwatch:
        raise ValueError(f"{g.name} has no Overwatch on that weapon (L837)")
    return Shoot(
        attacker=inp.unit,
        target=inp.target,
        weapon=inp.weapon,
        defense=inp.defense,
        bought=inp.bought,
        flawless=inp.flawless,
        escape=inp.escape,
        near=inp.near,
        will_to_power=False,
    )


def overwatch_command(game: Game, inp: OverwatchCommand, dice: DiceSource) -> ActionResult:
    shot = _command_shot(game, inp)
    p = plan(game, shot, overwatch=True)
    if asked := near_asked(game, shot):
        raise asked
    out = land(game, p, shot, dice)
    work = Working(game)
    side = game.unit(inp.unit)[0]
    gain(work, side, "influence", -1)
    use_up(game, work, inp.unit, inp.weapon)
    killed = apply_hits(game, work, p, shot, out)
    if killed:
        gain(work, side, "momentum", 1)  # an enemy destroyed (L247)
    a_name, t_name = game.unit(inp.unit)[2].name, game.unit(shot.target)[2].name
    text = f"{game.sides[side].name} gives Overwatch (1 Influence): "
    text += describe(a_name, t_name, p, out, killed)
    offers = last_offer(game, shot.target) if killed else []
    return ActionResult(changes=work.changes(), text=text, detail=detail(out), offers=offers)


def overwatch_command_odds(game: Game, inp: OverwatchCommand) -> ActionOdds:
    """Hits, failed saves, damage and the chance to destroy the target, before Skill Defense."""
    return plan_odds(plan(game, _command_shot(game, inp), overwatch=True), "Overwatch shots", "the target")


def command_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """Its weapons with Overwatch offered; the rest greyed."""
    _, _, g = game.unit(actor)
    out = []
    for i, w in enumerate(armed(game, actor).weapons):
        why = "no Overwatch" if not w.overwatch or w.kind != "shooting" else ""
        why = why or ("used up" if i in unit_extra(g).spent else "")
        out.append(FieldPick(value=i, label=w.name, detail=f"Overwatch {w.overwatch}", unavailable=why))
    return {"weapon": out}


def overwatch_gun(game: Game, ref: str) -> str:
    """The requirement ``overwatch_gun``: the unit, in play, has a shooting weapon with Overwatch (L837)."""
    _, _, g = game.unit(ref)
    if g.state.destroyed:
        return f"{g.name} is destroyed"
    has = overwatch_weapons(armed(game, ref))
    return "" if has else f"{g.name} has no weapon with Overwatch"


class LastShooting(Closed):
    """Last Shooting: the unit just destroyed fires one weapon once more (Climactic Events, L745-L750)."""

    unit: str = own_unit("The destroyed unit that fires.")
    target: str = enemy_unit("At whom (within range, not in melee).")
    weapon: int = Field(
        default=0, ge=0, le=11, description="Which shooting weapon.", json_schema_extra={"flow": "pick"}
    )
    band: Literal["long", "rapid"] = Field(
        default="long",
        description="Within half its range the weapon adds its Rapid Fire shots (L92-L93).",
        json_schema_extra={
            "flow": "choice",
            "x-labels": {"long": "Beyond half range", "rapid": "Rapid fire range"},
        },
    )
    defense: int | None = momentum_asked("Momentum the target spends on Skill Defense after the roll.")
    bought: int | None = momentum_asked("Failed Armor Saves the target passes for 1 Momentum each (L220).")
    flawless: bool = Field(
        default=False,
        description="The target's Ace negates every hit (Flawless Evasion, L290-L291); asked then.",
        json_schema_extra={"ui": "hidden"},
    )
    near: bool | None = Field(
        default=None,
        description='The firer is within 16" of the target (Immortal, L399; Lightning Raid, L842); asked.',
        json_schema_extra={"ui": "hidden"},
    )


def _shot_of(inp: LastShooting) -> Shoot:
    """The shot a Last Shooting or a Shooting Counterattack fires (no Will to Power on either)."""
    return Shoot(
        attacker=inp.unit,
        target=inp.target,
        weapon=inp.weapon,
        band=inp.band,
        defense=inp.defense,
        bought=inp.bought,
        flawless=inp.flawless,
        near=inp.near,
        will_to_power=False,
    )


def _fire_back(
    game: Game, shot: Shoot, dice: DiceSource, label: str, before: Callable[[Working, int], None]
) -> tuple[Working, bool, str, Any]:
    """Fire ``shot`` outside the unit's own turn: the roll, ``before`` (what it costs or notes) and the
    hits; an enemy destroyed gains 1 Momentum (L247). Returns the work, whether it destroyed, the text
    and the dice shown."""
    p = plan(game, shot)
    if asked := near_asked(game, shot):
        raise asked
    out = land(game, p, shot, dice)
    work = Working(game)
    side = game.unit(shot.attacker)[0]
    before(work, side)
    killed = apply_hits(game, work, p, shot, out)
    if killed:
        gain(work, side, "momentum", 1)  # an enemy destroyed (L247)
    a_name, t_name = game.unit(shot.attacker)[2].name, game.unit(shot.target)[2].name
    return work, killed, f"{label}: " + describe(a_name, t_name, p, out, killed), detail(out)


def _last_shot(game: Game, inp: LastShooting) -> Shoot:
    why = last_shot(game, inp.unit)
    if why:
        raise ValueError(why)
    _, _, g = game.unit(inp.unit)
    _, _, t = game.unit(inp.target)
    if "engaged" in t.state.conditions:
        raise ValueError(f"{t.name} is in melee: Last Shooting may not target it (L750)")
    if inp.weapon in unit_extra(g).disabled:
        raise ValueError("that weapon was disabled by Battle Damage (L685)")
    return _shot_of(inp)


def last_shooting(game: Game, inp: LastShooting, dice: DiceSource) -> ActionResult:
    work, _, text, shown = _fire_back(
        game,
        _last_shot(game, inp),
        dice,
        "Last Shooting",
        lambda w, side: note_event(w, side, "last_shooting"),
    )
    return ActionResult(changes=work.changes(), text=text, detail=shown)


def last_shooting_odds(game: Game, inp: LastShooting) -> ActionOdds:
    """Hits, failed saves, damage and the chance to destroy the target, before Skill Defense."""
    return plan_odds(plan(game, _last_shot(game, inp)), "shots", "the target")


def last_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """Its shooting weapons offered; melee weapons and those Battle Damage disabled greyed."""
    _, _, g = game.unit(actor)
    disabled = unit_extra(g).disabled
    out = []
    for i, w in enumerate(Unit.model_validate(g.profile).weapons):
        why = "a melee weapon" if w.kind != "shooting" else ("disabled" if i in disabled else "")
        out.append(
            FieldPick(value=i, label=w.name, detail=f"{w.shots} shots {w.damage} dmg", unavailable=why)
        )
    return {"weapon": out}


class Counterattack(LastShooting):
    """A Shooting Counterattack: the unit just shot fires back at the shooter (L332-L334)."""

    unit: str = own_unit("The unit that survived the shot.")
    target: str = enemy_unit("The unit that shot at it.")


def _counter_shot(game: Game, inp: Counterattack) -> Shoot:
    why = counter_refusal(game, inp.unit)
    if why:
        raise ValueError(f"Shooting Counterattack: {why}")
    if ms_state(game).turn_unit != inp.target:
        raise ValueError(
            f"a Shooting Counterattack answers {game.unit(ms_state(game).turn_unit)[2].name} (L334)"
        )
    return _shot_of(inp)


def counterattack(game: Game, inp: Counterattack, dice: DiceSource) -> ActionResult:
    shot = _counter_shot(game, inp)

    def pay(work: Working, side: int) -> None:
        gain(work, side, "momentum", -COUNTER_COST)
        note_skill(game, work, inp.unit, "counterattack")

    work, killed, text, shown = _fire_back(game, shot, dice, "Shooting Counterattack", pay)
    offers = last_offer(game, shot.target) if killed else []
    return ActionResult(changes=work.changes(), text=text, detail=shown, offers=offers)


def counterattack_odds(game: Game, inp: Counterattack) -> ActionOdds:
    """Hits, failed saves, damage and the chance to destroy the shooter, before Skill Defense."""
    return plan_odds(plan(game, _counter_shot(game, inp)), "shots", "the shooter")
