"""Linked pilot upgrades, Nemesis and the optional panic rule.

* Linked upgrades (L2276-2280) are bought by two units of a force; the profile's
  ``partner`` names the other one.  Their triggers read the game log: the
  *window* is the events since the current activation began (the latest
  ``activate`` or End phase, or a new turn).

  - Buddies (L2302): when the partner is attacked, this unit may react too; an
    attack with ``trigger="buddies"`` and ``reaction`` on, aimed at the enemy
    that attacked the partner.
  - Rivals (L2342): after the partner destroys an enemy, 1 FP for an attack.
  - Well-Oiled (L2356): after the partner locks an enemy, 1 FP for an attack
    on that enemy.
  - Wingman (L2358): after the partner's attack, 1 FP for an attack
    (``trigger="wingman"``); after its move, 1 FP for a move (``wingman_move``).
  - Lovers (L2328): the partner destroyed in sight gives a free activation of
    two actions (``lovers``).

  A triggered attack is not an activation; each triggering event serves once
  (``state.extra["links_used"]`` keeps the log index it used).
* Nemesis (L2336): ``nemesis`` nominates an enemy (``state.extra["nemesis"]``);
  the attack scores +1VP when it destroys it, the End phase that ends the game
  gives its side +1VP if it survived.
* Panic (L2767-2794, optional): ``panic`` is the Pilot Skill roll of a friend
  of a destroyed gunframe; Fearless passes (L2314), Inspiring re-rolls a
  failure (L2324); a failure costs 1 FP (dramatic cry) or D6" of running for
  cover.  An upgrade trigger such as Lovers goes first (L2776).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from core.dice import DiceSource
from core.systems.base import ActionOdds, ActionResult, Closed, action_texts, enemy_unit, own_unit
from core.systems.gunframe.effects import LendsPanicReroll, Link, PanicOnCharge, PassesPanic, SpecialAction
from core.systems.gunframe.state import (
    Edits,
    Pos,
    can_act,
    check_lucky,
    is_conventional,
    pass_chance,
    pilot_roll,
    profile_of,
    skill_of,
    spend_fp,
    upgrades_of,
)
from core.systems.gunframe.upgrades import effects_of, has_effect

if TYPE_CHECKING:
    from core.game import Event, Game, GameUnit

_TEXTS = action_texts(__package__)

Trigger = Literal["none", "buddies", "rivals", "well_oiled", "wingman"]

#: Upgrade id and rulebook line of each trigger.
TRIGGERS: dict[str, tuple[str, str, str]] = {
    "buddies": ("buddies", "Buddies", "L2302"),
    "rivals": ("rivals", "Rivals", "L2342"),
    "well_oiled": ("well_oiled", "Well-Oiled", "L2356"),
    "wingman": ("wingman", "Wingman", "L2358"),
    "lovers": ("lovers", "Lovers", "L2328"),
}


# --- the partner and the log ------------------------------------------------------------------


def partner_of(edits: Edits, pos: Pos, upgrade: str) -> Pos:
    """The linked partner sharing ``upgrade`` (L2278); ValueError when there is none."""
    _, label, ref = TRIGGERS[upgrade]
    unit = edits.unit(pos)
    if not _linked(unit, upgrade):
        raise ValueError(f"{unit.name} has no {label} ({ref})")
    name = profile_of(unit).partner
    if not name:
        raise ValueError(f"{unit.name} names no partner for its {label} (L2278)")
    side = edits.game.sides[pos[0]]
    for i, other in enumerate(side.units):
        if i != pos[1] and (other.name == name or other.profile.get("name") == name):
            if not _linked(other, upgrade):
                raise ValueError(f"{other.name} does not share {label} with {unit.name} (L2278)")
            return pos[0], i
    raise ValueError(f"{unit.name}'s partner '{name}' is not in its force (L2278)")


def _linked(unit: GameUnit, link: str) -> bool:
    """Whether the unit holds the linked upgrade that carries ``link`` (L2278)."""
    return any(e.link == link for e in effects_of(upgrades_of(unit), Link))


def _ref(edits: Edits, pos: Pos) -> str:
    return f"{pos[0]}/{edits.unit(pos).key}"


def window(game: Game) -> list[tuple[int, Event]]:
    """Events of the current activation, latest first: back to the latest activate, End phase or turn."""
    out: list[tuple[int, Event]] = []
    for i in range(game.cursor - 1, -1, -1):
        event = game.log[i]
        if event.kind in ("round", "start"):
            break
        if event.kind != "action":
            continue
        if event.detail.get("action") in ("activate", "end_phase"):
            break
        out.append((i, event))
    return out


def _actor(event: Event) -> str | None:
    raw = event.detail.get("input", {})
    actor = raw.get("attacker") or raw.get("unit")
    return str(actor) if actor else None


def _destroys_enemy(event: Event, side: int) -> bool:
    for change in event.changes:
        p = change.path
        if len(p) == 6 and p[0] == "sides" and p[1] != side and p[5] == "destroyed" and change.value is True:
            return True
    return False


def _locks(event: Event, target: str, game: Game) -> bool:
    t_side, t_idx, _ = game.unit(target)
    for change in event.changes:
        p = change.path
        if p == ["sides", t_side, "units", t_idx, "state", "counters"] and isinstance(change.value, dict):
            return bool(change.value.get("target_lock"))
    return False


def _destroys(event: Event, pos: Pos) -> bool:
    path = ["sides", pos[0], "units", pos[1], "state", "destroyed"]
    return any(c.path == path and c.value is True for c in event.changes)


def find_trigger(edits: Edits, pos: Pos, trigger: str, target: str | None) -> int:
    """The log index of the event that lets ``pos`` use ``trigger``; ValueError when there is none."""
    partner = partner_of(edits, pos, trigger)
    p_ref = _ref(edits, partner)
    game = edits.game
    used = edits.extra(pos, "links_used", {}) or {}
    _, label, ref = TRIGGERS[trigger]
    for i, event in window(game):
        action = event.detail.get("action")
        raw = event.detail.get("input", {})
        if trigger == "buddies":
            ok = action == "attack" and raw.get("target") == p_ref and raw.get("attacker") == target
        elif trigger == "rivals":
            ok = _actor(event) == p_ref and _destroys_enemy(event, pos[0])
        elif trigger == "well_oiled":
            ok = (
                action == "target_lock"
                and _actor(event) == p_ref
                and raw.get("target") == target
                and target is not None
                and _locks(event, target, game)
            )
        elif trigger == "wingman":
            ok = action == "attack" and _actor(event) == p_ref
        else:  # lovers
            ok = _destroys(event, partner)
        if ok:
            if used.get(trigger) == i:
                raise ValueError(
                    f"{edits.name(pos)} has already answered that event with its {label} ({ref})"
                )
            return i
    needs = {
        "buddies": f"the enemy {target} attacking {edits.name(partner)}",
        "rivals": f"{edits.name(partner)} destroying an enemy",
        "well_oiled": f"{edits.name(partner)} placing a Target Lock on {target}",
        "wingman": f"{edits.name(partner)} completing an attack",
        "lovers": f"{edits.name(partner)} being destroyed",
    }[trigger]
    raise ValueError(f"{label} needs {needs} just now, in this activation ({ref})")


def _mark(edits: Edits, pos: Pos, trigger: str, index: int) -> None:
    edits.set_extra(pos, "links_used", {**(edits.extra(pos, "links_used", {}) or {}), trigger: index})


def pay_trigger(edits: Edits, pos: Pos, trigger: str, target: str, reaction: bool) -> str:
    """Check a triggered attack's condition and pay for it (the reaction pays its own FP for Buddies)."""
    if trigger == "none":
        return ""
    _, label, ref = TRIGGERS[trigger]
    if trigger == "buddies" and not reaction:
        raise ValueError(f"a {label} attack is a reaction: tick reaction too ({ref}, L1414-1428)")
    if trigger != "buddies" and reaction:
        raise ValueError(f"a {label} attack is not a reaction: it costs its own Focus Point ({ref})")
    index = find_trigger(edits, pos, trigger, target)
    _mark(edits, pos, trigger, index)
    if trigger != "buddies":
        spend_fp(edits, pos)  # L2342, L2356, L2358: one Focus Point, under the usual cap (L778)
    return f"{label}, 1 FP"


# --- Lovers and Wingman moves --------------------------------------------------------------------


class LinkInput(Closed):
    unit: str = own_unit("The unit using its linked upgrade.")


def resolve_lovers(game: Game, inp: LinkInput, dice: DiceSource) -> ActionResult:
    """The survivor of a destroyed lover takes a free two-action activation at once (L2328)."""
    edits = Edits(game)
    pos = edits.find(inp.unit)
    can_act(edits, pos, "take its free activation")
    index = find_trigger(edits, pos, "lovers", None)
    _mark(edits, pos, "lovers", index)
    partner = partner_of(edits, pos, "lovers")
    edits.drop_extra(pos, "systems_used")  # a fresh activation: each weapon system once more (L1046-1050)
    text = (
        f"{edits.name(pos)} sees {edits.name(partner)} fall and takes a free activation: two actions, "
        "not counted as its own activation"
    )
    return ActionResult(changes=edits.changes(), text=text, detail={"trigger_event": index})


LOVERS = _TEXTS.spec("lovers", resolve_lovers)


def resolve_wingman_move(game: Game, inp: LinkInput, dice: DiceSource) -> ActionResult:
    """After the partner completes a move, 1 FP for a move of its own (L2358); the app cannot see moves,
    so the players vouch for the partner's move."""
    edits = Edits(game)
    pos = edits.find(inp.unit)
    can_act(edits, pos, "move")
    partner = partner_of(edits, pos, "wingman")
    spend_fp(edits, pos)
    text = f"{edits.name(pos)} follows {edits.name(partner)}'s move for 1 FP (Wingman): one move action"
    return ActionResult(changes=edits.changes(), text=text)


WINGMAN_MOVE = _TEXTS.spec("wingman_move", resolve_wingman_move)


# --- Nemesis (L2336) -----------------------------------------------------------------------------


class NemesisInput(Closed):
    unit: str = own_unit("The unit with Nemesis.")
    target: str = enemy_unit("The enemy it nominates.")


def resolve_nemesis(game: Game, inp: NemesisInput, dice: DiceSource) -> ActionResult:
    edits = Edits(game)
    pos, t_pos = edits.find(inp.unit), edits.find(inp.target)
    name = edits.name(pos)
    if not any(e.action == "nemesis" for e in effects_of(upgrades_of(edits.unit(pos)), SpecialAction)):
        raise ValueError(f"{name} has no Nemesis (L2336)")
    if pos[0] == t_pos[0]:
        raise ValueError("a nemesis is an enemy unit (L2336)")
    if edits.extra(pos, "nemesis"):
        raise ValueError(f"{name} has nominated its nemesis already (L2336)")
    if edits.get(t_pos, "destroyed"):
        raise ValueError(f"{edits.name(t_pos)} is destroyed")
    edits.set_extra(pos, "nemesis", inp.target)
    foe = edits.name(t_pos)
    text = f"{name} names {foe} its nemesis: +1VP if {name} destroys it, +1VP to the foe if it lives"
    return ActionResult(changes=edits.changes(), text=text)


NEMESIS = _TEXTS.spec("nemesis", resolve_nemesis)


def nemesis_kill(edits: Edits, attacker: Pos, victim: Pos) -> str:
    """+1VP at once when the attacker destroys its own nemesis (L2336)."""
    if edits.extra(attacker, "nemesis") != _ref(edits, victim):
        return ""
    side = attacker[0]
    edits.set_resource(side, "victory_points", edits.resource(side, "victory_points") + 1)
    return f"; nemesis destroyed, {edits.game.sides[side].name} +1VP"


def nemesis_by_power(edits: Edits, attacker: Pos) -> str:
    """A power attack (Explode, Blast...) that finishes the attacker's nemesis scores too (L2336)."""
    ref = edits.extra(attacker, "nemesis")
    if not ref:
        return ""
    victim = edits.find(str(ref))
    if edits.get(victim, "destroyed") and not edits.unit(victim).state.destroyed:
        return nemesis_kill(edits, attacker, victim)
    return ""


def nemesis_end(game: Game, vp: dict[int, int]) -> list[str]:
    """At the game's end each nemesis still standing gives its own side +1VP (L2336)."""
    lines = []
    for side in game.sides:
        for unit in side.units:
            ref = unit.state.extra.get("nemesis")
            if not ref:
                continue
            t_side, _, target = game.unit(str(ref))
            if not target.state.destroyed:
                vp[t_side] += 1
                lines.append(
                    f"{game.sides[t_side].name} +1VP: {target.name} survived its nemesis {unit.name}"
                )
    return lines


# --- Panic (L2767-2794) --------------------------------------------------------------------------


class PanicInput(Closed):
    unit: str = own_unit("The unit that must roll.")
    fallen: str = own_unit('The friendly gunframe destroyed within 8" and in its sight (L2771).')
    inspiring: str | None = own_unit(
        'A friendly Inspiring unit within 8": a failed roll is re-rolled (L2324).', default=None
    )
    lucky: bool = Field(
        default=False,
        description="A Lucky unit rolls a failed panic roll again, once per battle (L2330); not on top of "
        "Inspiring's re-roll of the same die (L353).",
    )
    response: Literal["dramatic_cry", "run_for_cover"] = Field(
        default="dramatic_cry",
        description='If it panics: 1 FP to keep control (L2786), or drop what it carries and move D6" '
        "toward its deployment zone (L2790). Without a Focus Point to pay, it runs.",
        json_schema_extra={"same_odds": "what a panicking unit does; the panic roll's odds are the same"},
    )


def _panic_checks(edits: Edits, inp: PanicInput) -> tuple[Pos, Pos, Pos | None]:
    pos, fallen = edits.find(inp.unit), edits.find(inp.fallen)
    name = edits.name(pos)
    if pos[0] != fallen[0] or pos == fallen:
        raise ValueError("panic comes from a friendly unit's loss (L2771)")
    if not edits.get(fallen, "destroyed"):
        raise ValueError(f"{edits.name(fallen)} is not destroyed")
    if is_conventional(edits.unit(fallen)):
        raise ValueError("only the loss of a gunframe, not a conventional unit, causes panic (L2771)")
    if edits.get(pos, "destroyed") or edits.has(pos, "in_reserve"):
        raise ValueError(f"{name} is not on the table")
    lover = _linked(edits.unit(pos), "lovers")
    if lover and profile_of(edits.unit(pos)).partner in (
        edits.name(fallen),
        edits.unit(fallen).profile.get("name"),
    ):
        used = (edits.extra(pos, "links_used", {}) or {}).get("lovers")
        if used is None or not any(i == used for i, _ in window(edits.game)):
            raise ValueError(f"{name} takes its Lovers free activation before any panic (L2776, L2328)")
    return pos, fallen, _inspirer(edits, pos, inp.inspiring)


def _inspirer(edits: Edits, pos: Pos, ref: str | None) -> Pos | None:
    """The friendly Inspiring unit that lets a failed panic roll be re-rolled (L2324)."""
    if ref is None:
        return None
    inspirer = edits.find(ref)
    if inspirer[0] != pos[0] or inspirer == pos:
        raise ValueError("Inspiring helps friendly units around it, not itself (L2324)")
    if not has_effect(upgrades_of(edits.unit(inspirer)), LendsPanicReroll) or edits.get(
        inspirer, "destroyed"
    ):
        raise ValueError(f"{edits.name(inspirer)} has no Inspiring to lend (L2324)")
    return inspirer


def panic_roll(
    edits: Edits, pos: Pos, inspirer: Pos | None, dice: DiceSource, rolls: list[int], lucky: bool = False
) -> tuple[bool, str]:
    """A panic roll: a Pilot Skill roll (L563), always passed with Fearless (L2314), a failure re-rolled
    once with a friendly Inspiring unit near (L2324), or by the unit's own Lucky, spent only when used
    (L2330; never both on one die, L353).  The faces go in ``rolls``."""
    unit = edits.unit(pos)
    if has_effect(upgrades_of(unit), PassesPanic):
        return True, "Fearless, it always passes (L2314)"
    if lucky and inspirer is not None:
        raise ValueError("Inspiring already re-rolls a failed panic roll: Lucky would add nothing (L353)")
    if lucky:
        check_lucky(edits, pos)
    ok, face = pilot_roll(unit, dice, f"{unit.name} panic roll")
    rolls.append(face)
    how = f"rolled {face}"
    if not ok and (inspirer is not None or lucky):
        why = "Inspiring" if inspirer is not None else "Lucky"
        ok, face = pilot_roll(unit, dice, f"{unit.name} panic re-roll ({why})")
        rolls.append(face)
        how += f", re-rolled {face} ({why})"
        if lucky:
            edits.set_extra(pos, "used", [*(edits.extra(pos, "used", []) or []), "lucky"])
    return ok, how


def keep_chance(unit: GameUnit, inspired: bool) -> float:
    """The chance a panic roll passes, from the same reading as :func:`panic_roll`."""
    if has_effect(upgrades_of(unit), PassesPanic):
        return 1.0
    p = pass_chance(skill_of(unit))
    return p + (1 - p) * p if inspired else p


def resolve_panic(game: Game, inp: PanicInput, dice: DiceSource) -> ActionResult:
    edits = Edits(game)
    pos, fallen, inspirer = _panic_checks(edits, inp)
    unit = edits.unit(pos)
    name = unit.name
    detail: dict[str, Any] = {"rolls": [], "panicked": False}
    if has_effect(upgrades_of(unit), PassesPanic):
        text = f"{name} is Fearless and keeps its nerve (L2314)"
        return ActionResult(changes=edits.changes(), text=text, detail=detail)
    ok, how = panic_roll(edits, pos, inspirer, dice, detail["rolls"], inp.lucky)
    if ok:
        return ActionResult(
            changes=edits.changes(),
            text=f"{name} keeps control after {edits.name(fallen)} falls ({how})",
            detail=detail,
        )
    detail["panicked"] = True
    cry = False
    if inp.response == "dramatic_cry":
        try:
            spend_fp(edits, pos)
            cry = True
        except ValueError as short:
            how += f"; no dramatic cry ({short})"
    if cry:
        text = f"{name} panics ({how}) but regains control with a dramatic cry for 1 FP (L2786)"
    elif edits.has(pos, "knocked_down") or edits.has(pos, "shut_down"):
        text = f"{name} panics ({how}) but is down and stays where it is (L2790)"
    else:
        inches = dice.roll(1, 6, f"{name} runs for cover")[0]
        detail["run_inches"] = inches
        text = (
            f'{name} panics ({how}): it drops anything it carries and runs {inches}" straight toward '
            "its own deployment zone, going round blocking terrain (L2790)"
        )
        if edits.extra(pos, "inside"):  # a run for cover leaves the building (L2951)
            edits.drop_extra(pos, "inside")
            edits.set_extra(pos, "left_building", game.round)
            text += "; it leaves its building from the side away from the fallen unit (L2951)"
    return ActionResult(changes=edits.changes(), text=text, detail=detail)


def _nerve_odds(unit: GameUnit, inspired: bool, passed: str, failed: str) -> ActionOdds:
    """The chance a panic-type Pilot Skill roll passes (Fearless, Inspiring: L2314, L2324)."""
    keep = keep_chance(unit, inspired)
    return ActionOdds(
        tables={},
        facts={passed: keep, failed: 1 - keep},
        summary=f"Pilot Skill {skill_of(unit)}+" + (", a failure re-rolled" if inspired else ""),
    )


def panic_odds(game: Game, inp: PanicInput) -> ActionOdds:
    edits = Edits(game)
    pos, _, inspirer = _panic_checks(edits, inp)
    return _nerve_odds(edits.unit(pos), inspirer is not None or inp.lucky, "keeps control", "panics")


PANIC = _TEXTS.spec("panic", resolve_panic, odds=panic_odds)

# --- Terrifying (L2350) ----------------------------------------------------------------------------


class TerrifyingInput(Closed):
    unit: str = own_unit("The unit moving into base contact with the terrifying enemy.")
    terrifying: str = enemy_unit("The enemy unit with Terrifying it moves up to.")
    inspiring: str | None = own_unit(
        'A friendly Inspiring unit within 8" of the mover: a failed roll is re-rolled (L2324).', default=None
    )


def _terror_checks(edits: Edits, inp: TerrifyingInput) -> tuple[Pos, Pos, Pos | None]:
    pos, t_pos = edits.find(inp.unit), edits.find(inp.terrifying)
    if pos[0] == t_pos[0]:
        raise ValueError("only an enemy's Terrifying calls for the roll (L2350)")
    if not has_effect(upgrades_of(edits.unit(t_pos)), PanicOnCharge):
        raise ValueError(f"{edits.name(t_pos)} is not Terrifying (L2350)")
    for p in (pos, t_pos):
        if edits.get(p, "destroyed"):
            raise ValueError(f"{edits.name(p)} is destroyed")
    return pos, t_pos, _inspirer(edits, pos, inp.inspiring)


def resolve_terrifying(game: Game, inp: TerrifyingInput, dice: DiceSource) -> ActionResult:
    """A panic roll for the mover (L2350): passed, it makes contact; failed, it stops just outside close
    range instead.  Fearless passes, Inspiring re-rolls, as for panic (L2314, L2324)."""
    edits = Edits(game)
    pos, t_pos, inspirer = _terror_checks(edits, inp)
    rolls: list[int] = []
    ok, how = panic_roll(edits, pos, inspirer, dice, rolls)
    name, foe = edits.name(pos), edits.name(t_pos)
    if ok:
        text = f"{name} faces down the terrifying {foe} ({how}) and moves into contact"
    else:
        text = (
            f"{name} loses its nerve before the terrifying {foe} ({how}): it stops just outside close range"
        )
    return ActionResult(changes=edits.changes(), text=text, detail={"rolls": rolls, "passed": ok})


def terrifying_odds(game: Game, inp: TerrifyingInput) -> ActionOdds:
    edits = Edits(game)
    pos, _, inspirer = _terror_checks(edits, inp)
    return _nerve_odds(edits.unit(pos), inspirer is not None, "makes contact", "stops short")


TERRIFYING = _TEXTS.spec("terrifying", resolve_terrifying, odds=terrifying_odds)

LINK_ACTIONS = (LOVERS, WINGMAN_MOVE, NEMESIS, PANIC, TERRIFYING)
