"""Upgrade-driven actions and the optional crippled rule.

* Crippled (optional module, L2700-2733): whenever an action changes a unit's
  damage, :func:`with_crippled` sets or clears the ``crippled`` condition, if the
  game's ``crippled_rules`` option is on.  The threshold is a quarter of the
  starting Armour, rounded up (L2706, L355-357); a unit starting at Armour 3 or
  less never becomes crippled (L2719).  Anger Issues and Reinforced units are
  still marked, they only skip the halving (L2300, L2410, digest 11.36); the
  attack reads that.
* Special actions (L1402-1406): ``mechanic`` (L2334), ``repair_systems``
  (L2412) and ``spiteful`` (L2346).
* ``transform`` (L962-966): a move action made in place, or a Focus Point with
  Swift Transform (L2422), or free after a dodge with Maverick (L2332).

Lucky (L2330) and Guardian (L2316) are inputs of the attack (:mod:`.attack`).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from core.dice import DiceSource
from core.systems.base import ActionResult, ActionSpec, Change, Closed, action_texts, enemy_unit, own_unit
from core.systems.gunframe.building import all_forms, form_upgrades
from core.systems.gunframe.effects import Flies, SpecialAction, SpecialActionId, Transform, TransformId
from core.systems.gunframe.state import Edits, Pos, can_act, halve, profile_of, spend_fp, upgrades_of
from core.systems.gunframe.upgrades import effects_of, has_effect

if TYPE_CHECKING:
    from core.game import Game

_TEXTS = action_texts(__package__)


# --- crippled (L2700-2733) -------------------------------------------------------------------


def crippled_at(starting_armour: int) -> int | None:
    """Armour left at which a unit is crippled: a quarter of its start, rounded up (L2706);
    None for a unit starting at 3 or less, which never is (L2719)."""
    if starting_armour <= 3:
        return None
    return math.ceil(starting_armour / 4)


def _crippled_changes(game: Game, changes: list[Change]) -> list[Change]:
    """Conditions changes that follow damage changes: crippled on at or below the critical point,
    off again once repaired above it (L2723)."""
    final: dict[Pos, dict[str, Any]] = {}
    for c in changes:
        p = c.path
        shape = len(p) == 6 and p[0] == "sides" and p[2] == "units" and p[4] == "state"
        if shape and isinstance(p[1], int) and isinstance(p[3], int) and isinstance(p[5], str):
            final.setdefault((p[1], p[3]), {})[p[5]] = c.value
    out: list[Change] = []
    for (s, u), fields in final.items():
        if "damage" not in fields:
            continue
        state = game.sides[s].units[u].state
        conditions = list(fields.get("conditions", state.conditions))
        at = crippled_at(state.max_damage)
        left = state.max_damage - int(fields["damage"])
        crippled = at is not None and left <= at
        if crippled == ("crippled" in conditions):
            continue
        new = [*conditions, "crippled"] if crippled else [c for c in conditions if c != "crippled"]
        out.append(Change(path=["sides", s, "units", u, "state", "conditions"], value=new))
    return out


def _logged(game: Game, path: list[str | int], default: Any) -> Any:
    """The value ``path`` had before the change being settled: the last one the applied log set (a change
    to the path itself or to a list or dict holding it), else ``default``, the value it starts with."""
    for event in reversed(game.log[: game.cursor]):
        for change in reversed(event.changes):
            n = len(change.path)
            if change.path == path[:n]:
                value: Any = change.value
                try:
                    for step in path[n:]:
                        value = value[step]
                except (KeyError, IndexError, TypeError):
                    continue
                return value
    return default


def settle_crippled(game: Game) -> list[Change]:
    """After a manual adjustment, the crippled condition of every unit whose damage or Armour was just
    changed by hand, put in step with it (L2706, L2719, L2723), when the optional rule is on.

    A unit whose damage and Armour are what the log last set keeps its conditions as they are, so a
    condition the players set or cleared by hand stays (the app never stands in their way).  Turning the
    option on part-way through a game does not mark anyone until their damage changes."""
    if not game.options.get("crippled_rules"):
        return []
    out: list[Change] = []
    for s, side in enumerate(game.sides):
        for u, unit in enumerate(side.units):
            state = unit.state
            base: list[str | int] = ["sides", s, "units", u, "state"]
            start = int(unit.profile.get("armour", state.max_damage))  # Armour at the start (L1174)
            before = (_logged(game, [*base, "damage"], 0), _logged(game, [*base, "max_damage"], start))
            if before == (state.damage, state.max_damage) or state.destroyed:
                continue
            at = crippled_at(state.max_damage)
            crippled = at is not None and state.max_damage - state.damage <= at
            if crippled == ("crippled" in state.conditions):
                continue
            conditions = list(state.conditions)
            new = [*conditions, "crippled"] if crippled else [c for c in conditions if c != "crippled"]
            out.append(Change(path=[*base, "conditions"], value=new))
    return out


def with_crippled(spec: ActionSpec) -> ActionSpec:
    """The same action, with the crippled condition kept in step with damage when the option is on."""
    inner = spec.resolve

    def resolve(game: Game, inp: Any, dice: DiceSource) -> ActionResult:
        result = inner(game, inp, dice)
        if not game.options.get("crippled_rules"):
            return result
        extra = _crippled_changes(game, result.changes)
        if not extra:
            return result
        return result.model_copy(update={"changes": [*result.changes, *extra]})

    return replace(spec, resolve=resolve)


# --- special actions (L1402-1406) ------------------------------------------------------------


def _needs(edits: Edits, pos: Pos, how: SpecialActionId | TransformId, label: str, ref: str) -> None:
    """The unit has an upgrade granting this special action or way of transforming."""
    ups = upgrades_of(edits.unit(pos))
    if not any(e.action == how for e in effects_of(ups, SpecialAction)) and not any(
        e.how == how for e in effects_of(ups, Transform)
    ):
        raise ValueError(f"{edits.name(pos)} has no {label} ({ref})")


def _acting(
    game: Game, unit: str, what: str, how: SpecialActionId, label: str, ref: str
) -> tuple[Edits, Pos]:
    """The edits of a special action and the position of the unit taking it: a unit able to act (L952,
    L956) with the upgrade that grants the action (``ref``)."""
    edits = Edits(game)
    pos = edits.find(unit)
    can_act(edits, pos, what)
    _needs(edits, pos, how, label, ref)
    return edits, pos


class MechanicInput(Closed):
    unit: str = own_unit("The unit with Mechanic, as 'side/key'.")
    target: str | None = own_unit(
        "The friendly unit repaired, in base contact with the mechanic; empty for itself.", default=None
    )


def resolve_mechanic(game: Game, inp: MechanicInput, dice: DiceSource) -> ActionResult:
    """A special action that takes 1 damage off the mechanic or a friend it touches (L2334)."""
    edits, pos = _acting(game, inp.unit, "repair", "mechanic", "Mechanic", "L2334")
    tpos = edits.find(inp.target) if inp.target else pos
    if tpos[0] != pos[0]:
        raise ValueError(f"{edits.name(tpos)} is not a friendly unit (L2334)")
    if edits.get(tpos, "destroyed"):
        raise ValueError(f"{edits.name(tpos)} is destroyed")
    if int(edits.get(tpos, "damage")) < 1:
        raise ValueError(f"{edits.name(tpos)} has no damage to repair")
    edits.set(tpos, "damage", int(edits.get(tpos, "damage")) - 1)
    who = "itself" if tpos == pos else edits.name(tpos)
    text = f"{edits.name(pos)} repairs 1 damage on {who} (Armour {edits.armour_left(tpos)})"
    return ActionResult(changes=edits.changes(), text=text)


MECHANIC = _TEXTS.spec("mechanic", resolve_mechanic)


class RepairInput(Closed):
    unit: str = own_unit("The unit with Repair Systems, as 'side/key'.")


def resolve_repair(game: Game, inp: RepairInput, dice: DiceSource) -> ActionResult:
    """A special action that wins back D3 lost Armour (L2412); a D3 is a halved D6 (L351)."""
    edits, pos = _acting(game, inp.unit, "repair", "repair_systems", "Repair Systems", "L2412")
    damage = int(edits.get(pos, "damage"))
    if damage < 1:
        raise ValueError(f"{edits.name(pos)} has lost no Armour")
    face = dice.roll(1, 6, "Repair Systems (D3)")[0]
    d3 = halve(face)
    regained = min(d3, damage)
    edits.set(pos, "damage", damage - regained)
    left = edits.armour_left(pos)
    text = f"{edits.name(pos)} repairs itself: D3 = {d3}, {regained} Armour back (Armour {left})"
    return ActionResult(
        changes=edits.changes(), text=text, detail={"d6": face, "d3": d3, "regained": regained}
    )


REPAIR_SYSTEMS = _TEXTS.spec("repair_systems", resolve_repair)


class SpitefulInput(Closed):
    unit: str = own_unit("The unit with Spiteful, as 'side/key'.")
    target: str = enemy_unit("A knocked-down or shut-down enemy in base contact.")


def resolve_spiteful(game: Game, inp: SpitefulInput, dice: DiceSource) -> ActionResult:
    """A special action dealing 1 damage to a downed enemy in base contact (L2346)."""
    edits, pos = _acting(game, inp.unit, "strike", "spiteful", "Spiteful", "L2346")
    tpos = edits.find(inp.target)
    if tpos[0] == pos[0]:
        raise ValueError(f"{edits.name(tpos)} is not an enemy (L2346)")
    if edits.get(tpos, "destroyed"):
        raise ValueError(f"{edits.name(tpos)} is destroyed")
    if not (edits.has(tpos, "knocked_down") or edits.has(tpos, "shut_down")):
        raise ValueError(f"{edits.name(tpos)} is neither knocked down nor shut down (L2346)")
    destroyed = edits.damage(tpos, 1)
    text = f"{edits.name(pos)} spitefully deals 1 damage to {edits.name(tpos)}"
    return ActionResult(changes=edits.changes(), text=text + (", destroyed" if destroyed else ""))


SPITEFUL = _TEXTS.spec("spiteful", resolve_spiteful)


# --- transforming (L962-966, L2332, L2422) ----------------------------------------------------


class TransformInput(Closed):
    unit: str = own_unit("The transforming unit, as 'side/key'.")
    form: int | None = Field(
        default=None, ge=0, le=2, description="The form to take (0 is the first); empty for the next one."
    )
    how: Literal["move", "swift_transform", "maverick"] = Field(
        default="move",
        description="A move action in place (L962); 1 FP at the start or end of a move or attack with "
        'Swift Transform (L2422); free after dodging 1" or more with Maverick (L2332).',
    )
    flight: Literal["keep", "take_off", "land"] = Field(
        default="keep", description="Take off or land while transforming, if either form can fly (L966)."
    )


def _can_fly(ups: list[str]) -> bool:
    return has_effect(ups, Flies)  # Fly or Fast Flyer (L2394, L2396)


def resolve_transform(game: Game, inp: TransformInput, dice: DiceSource) -> ActionResult:
    """Change form; attacks then use the new form's values and upgrades (``extra["form"]``)."""
    edits = Edits(game)
    pos = edits.find(inp.unit)
    name = edits.name(pos)
    profile = profile_of(edits.unit(pos))
    forms = all_forms(profile)
    if len(forms) < 2:
        raise ValueError(f"{name} is not a transforming unit (L2224)")
    can_act(edits, pos, "transform")
    current = edits.extra(pos, "form", 0)
    current = current if isinstance(current, int) and 0 <= current < len(forms) else 0
    new = (current + 1) % len(forms) if inp.form is None else inp.form
    if new >= len(forms):
        raise ValueError(f"{name} has only {len(forms)} forms")
    if new == current:
        raise ValueError(f"{name} is already in that form")
    how = "with a move action"
    if inp.how == "swift_transform":
        _needs(edits, pos, "swift_transform", "Swift Transform", "L2422")
        spend_fp(edits, pos)
        how = "with Swift Transform for 1 FP"
    elif inp.how == "maverick":
        _needs(edits, pos, "maverick", "Maverick", "L2332")
        how = "for free after its dodge (Maverick)"
    flies = _can_fly(form_upgrades(profile, current)) or _can_fly(form_upgrades(profile, new))
    if inp.flight != "keep" and not flies:
        raise ValueError(f"neither of {name}'s forms can fly (L966)")
    if inp.flight == "take_off":
        edits.add_condition(pos, "flying")
        how += ", taking off"
    elif inp.flight == "land":
        edits.remove_condition(pos, "flying")
        how += ", landing"
    edits.set_extra(pos, "form", new)
    text = f"{name} transforms into form {new + 1} {how}"
    return ActionResult(changes=edits.changes(), text=text, detail={"form": new})


TRANSFORM = _TEXTS.spec("transform", resolve_transform)

SPECIAL_ACTIONS = (MECHANIC, REPAIR_SYSTEMS, SPITEFUL, TRANSFORM)
