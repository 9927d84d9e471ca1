"""Jump charges and combiner teams.

* ``jump_charge`` (L940): a jump that ends touching an enemy.  The jumper makes
  a Pilot Skill roll; it always takes 1 damage, the target takes 1 on a pass
  and none on a fail.  With Death From Above (L2308) the target takes D3 on a
  pass and 1 on a fail.  Both are then in base contact, so both are marked
  ``engaged``.  In high gravity the jump costs 1 FP (L2055); in low gravity a
  unit without Jump may make it for 1 FP (L2069).
* ``combine`` (L2533-2541) and ``split`` (L2543-2551): the shared layer has a
  fixed list of units per side and no positions, so the combined form is a
  unit of the squad (``combined_members`` > 0) that starts the game with the
  ``off_table`` condition; combining puts the members ``off_table`` instead and
  brings the combined form in.  Distances ("more than 8 inches from the
  leader", "within 2 inches") are the players' to measure: the far members are
  an input, and placement is left to them.

What the members keep while combined (``extra["combined_into"]`` names the
combined form): their damage, so they come back with the Armour they had
(L2549), and shut down or crippled.  Their counters, held power points and
the conditions of the figure on the table (knocked down, engaged, flying) go
with the figure (L2539).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from core.dice import DiceSource, Dist
from core.pool import table
from core.systems.base import ActionOdds, ActionResult, Closed, action_texts, enemy_unit, own_unit
from core.systems.gunframe.building import all_forms
from core.systems.gunframe.effects import CombinerMember, Flies, JumpChargeDamage, Jumps
from core.systems.gunframe.environment import environment_of
from core.systems.gunframe.state import (
    Edits,
    Pos,
    can_act,
    check_lucky,
    halve,
    lucky_pass_dist,
    lucky_pilot_roll,
    pilot_roll,
    profile_of,
    skill_of,
    spend_fp,
    upgrades_of,
)
from core.systems.gunframe.upgrades import has_effect

if TYPE_CHECKING:
    from core.game import Game

_TEXTS = action_texts(__package__)

#: Conditions of the figure itself, removed with it when a team combines (L2539).
FIGURE_CONDITIONS = ("knocked_down", "engaged", "flying", "distracted")


# --- jump charge (L940, L2308) ---------------------------------------------------------------


class JumpChargeInput(Closed):
    unit: str = own_unit("The jumping unit, as 'side/key'.")
    target: str = enemy_unit("The enemy it lands in base contact with.")
    lucky: bool = Field(
        default=False,
        description="A Lucky jumper rolls a failed Pilot Skill roll again, once per battle (L2330).",
    )


def _charge_checks(edits: Edits, inp: JumpChargeInput) -> tuple[Pos, Pos, bool]:
    pos = edits.find(inp.unit)
    can_act(edits, pos, "jump")
    env = environment_of(edits.game)
    has_jump = has_effect(upgrades_of(edits.unit(pos)), Jumps)
    if not has_jump and env != "low_gravity":
        raise ValueError(f"{edits.name(pos)} has no Jump (L2404)")
    if env == "high_gravity" or not has_jump:
        spend_fp(edits, pos)  # the jump costs 1 FP in high gravity (L2055), or without Jump in low (L2069)
    tpos = edits.find(inp.target)
    if tpos[0] == pos[0]:
        raise ValueError(f"{edits.name(tpos)} is not an enemy (L940)")
    if edits.get(tpos, "destroyed") or edits.has(tpos, "off_table") or edits.has(tpos, "in_reserve"):
        raise ValueError(f"{edits.name(tpos)} is not on the table")
    return pos, tpos, has_effect(upgrades_of(edits.unit(pos)), JumpChargeDamage)


def resolve_jump_charge(game: Game, inp: JumpChargeInput, dice: DiceSource) -> ActionResult:
    """Pilot Skill roll; the jumper takes 1, the target 1 or nothing (D3 or 1 with Death From Above)."""
    edits = Edits(game)
    pos, tpos, dfa = _charge_checks(edits, inp)
    name, tname = edits.name(pos), edits.name(tpos)
    if inp.lucky:
        check_lucky(edits, pos)
    ok, face, luck = lucky_pilot_roll(edits, pos, dice, f"{name} jump charge", inp.lucky)
    detail: dict[str, object] = {"pilot_roll": face, "passed": ok}
    if dfa and ok:
        d6 = dice.roll(1, 6, "Death From Above (D3)")[0]
        hit = halve(d6)
        detail["d3"] = hit
    elif dfa:
        hit = 1
    else:
        hit = 1 if ok else 0
    detail["target_damage"] = hit
    t_dead = edits.damage(tpos, hit)
    j_dead = edits.damage(pos, 1)
    for p in (pos, tpos):
        if not edits.get(p, "destroyed"):
            edits.add_condition(p, "engaged")
    verdict = "passes" if ok else "fails"
    text = f"{name} jump charges {tname} and {verdict} its Pilot Skill roll ({face}{luck}): "
    text += f"{tname} takes {hit} damage" + (" and is destroyed" if t_dead else "")
    text += f", {name} takes 1" + (" and is destroyed" if j_dead else "")
    if dfa:
        text += " (Death From Above)"
    return ActionResult(changes=edits.changes(), text=text, detail=detail)


def _capped(dist: Dist[int], left: int) -> Dist[int]:
    return dist.map(lambda d: min(d, left))


def jump_charge_odds(game: Game, inp: JumpChargeInput) -> ActionOdds:
    edits = Edits(game)
    pos, tpos, dfa = _charge_checks(edits, inp)
    skill = skill_of(edits.unit(pos))
    die = Dist.die(6)

    def target(face: int) -> Dist[int]:
        if dfa:
            return die.map(halve) if face >= skill else Dist.constant(1).scale(6)
        return Dist.constant(1 if face >= skill else 0).scale(6)

    first = die.bind(target)
    if inp.lucky:  # a failed roll is rolled again (L2330): the same branches one die later
        first = die.bind(lambda face: target(face).scale(6) if face >= skill else die.bind(target))
    dist = _capped(first, edits.armour_left(tpos))
    t_left = edits.armour_left(tpos)
    facts = {
        "pilot roll passes": float(lucky_pass_dist(skill, inp.lucky).probability(1)),
        "target destroyed": float(sum(w for k, w in dist.weights.items() if k >= t_left) / dist.total),
        "jumper destroyed": 1.0 if edits.armour_left(pos) <= 1 else 0.0,
    }
    summary = f"Pilot Skill {skill}+; the jumper always takes 1" + (", Death From Above" if dfa else "")
    return ActionOdds(tables={"target damage": table(dist)}, facts=facts, summary=summary)


JUMP_CHARGE = _TEXTS.spec("jump_charge", resolve_jump_charge, odds=jump_charge_odds)


# --- combining (L2533-2541) ------------------------------------------------------------------


class CombineInput(Closed):
    leader: str = Field(description="The team member taking the action, as 'side/key'.")
    members: list[str] = Field(
        default_factory=list, description="The other team members (destroyed ones included), as 'side/key'."
    )
    combined: str = Field(description="The combined form: a squad unit built as one (L2504-2531).")
    far: list[str] = Field(
        default_factory=list, description='Members more than 8" from the leader (1 FP each, L2535).'
    )
    flying: bool = Field(
        default=False, description="With Fly or Fast Flyer, whether the combiner starts airborne (L2539)."
    )


def _has_combiner(edits: Edits, pos: Pos) -> bool:
    return any(
        has_effect([r.id], CombinerMember) for f in all_forms(profile_of(edits.unit(pos))) for r in f.upgrades
    )


def resolve_combine(game: Game, inp: CombineInput, dice: DiceSource) -> ActionResult:
    """Members leave the table, the combined form comes in undamaged and activated."""
    edits = Edits(game)
    lead = edits.find(inp.leader)
    cpos = edits.find(inp.combined)
    team = [lead, *(edits.find(r) for r in inp.members)]
    if len(set(team)) != len(team):
        raise ValueError("each team member is named once")
    cname = edits.name(cpos)
    size = profile_of(edits.unit(cpos)).combined_members
    if not size or cpos[0] != lead[0]:
        raise ValueError(f"{cname} is not a combined form of the leader's side (L2517)")
    if "combine" in edits.extra(cpos, "used", []):
        raise ValueError(f"{cname} has formed once this battle already (L2535)")
    if not edits.has(cpos, "off_table"):
        raise ValueError(f"{cname} is already on the table")
    if len(team) != size:
        raise ValueError(f"{cname} is formed by {size} units, {len(team)} named (L2517)")
    for p in team:
        if p[0] != lead[0] or not _has_combiner(edits, p):
            raise ValueError(f"{edits.name(p)} is not a Combiner of the same side (L2378)")
        if edits.has(p, "off_table") or edits.has(p, "in_reserve"):
            raise ValueError(f"{edits.name(p)} is not on the table")
    if edits.get(lead, "destroyed") or edits.has(lead, "shut_down"):
        raise ValueError(f"{edits.name(lead)} cannot take an action to combine (L956)")
    far = {edits.find(r) for r in inp.far}
    if not far <= set(team) or lead in far:
        raise ValueError("far members are team members other than the leader")
    cost = sum(1 for p in team if p in far or edits.has(p, "shut_down") or edits.get(p, "destroyed"))
    if cost:
        spend_fp(edits, lead, cost, outside_cap=True)
    for p in team:
        edits.set_counter(p, "target_lock", 0)
        edits.set_counter(p, "evade", 0)
        edits.drop_extra(p, "power")
        for c in FIGURE_CONDITIONS:
            edits.remove_condition(p, c)
        edits.set_extra(p, "combined_into", inp.combined)
        if not edits.get(p, "destroyed"):
            edits.add_condition(p, "off_table")
    edits.set(lead, "activated", True)
    edits.remove_condition(cpos, "off_table")
    edits.set(cpos, "damage", 0)
    edits.set(cpos, "activated", True)
    edits.set_extra(cpos, "used", [*edits.extra(cpos, "used", []), "combine"])
    edits.set_extra(cpos, "team", [inp.leader, *inp.members])
    can_fly = has_effect(upgrades_of(edits.unit(cpos)), Flies)
    if inp.flying and not can_fly:
        raise ValueError(f"{cname} has neither Fly nor Fast Flyer (L2539)")
    if inp.flying:
        edits.add_condition(cpos, "flying")
    text = f"{edits.name(lead)} leads the team into {cname}, which counts as activated"
    text += f"; {cost} FP spent (outside the per-unit limit)" if cost else ""
    return ActionResult(changes=edits.changes(), text=text, detail={"fp": cost})


COMBINE = _TEXTS.spec("combine", resolve_combine)


# --- splitting (L2543-2551) ------------------------------------------------------------------


class SplitInput(Closed):
    combined: str = Field(description="The combined form, as 'side/key'.")


def _split_checks(edits: Edits, inp: SplitInput) -> tuple[Pos, list[Pos]]:
    cpos = edits.find(inp.combined)
    team = edits.extra(cpos, "team", [])
    if edits.has(cpos, "off_table") or not team:
        raise ValueError(f"{edits.name(cpos)} is not a formed combiner")
    return cpos, [edits.find(r) for r in team]


def resolve_split(game: Game, inp: SplitInput, dice: DiceSource) -> ActionResult:
    """A special action, or after its destruction: members return with the Armour they had."""
    edits = Edits(game)
    cpos, team = _split_checks(edits, inp)
    cname = edits.name(cpos)
    wrecked = bool(edits.get(cpos, "destroyed"))
    if not wrecked:
        can_act(edits, cpos, "split")
    lines: list[str] = []
    detail: dict[str, object] = {}
    for p in team:
        edits.drop_extra(p, "combined_into")
        edits.remove_condition(p, "off_table")
        if edits.get(p, "destroyed"):
            continue
        name = edits.name(p)
        if wrecked:
            ok, face = pilot_roll(edits.unit(p), dice, f"{name} escapes {cname}")
            detail[name] = face
            dead = False if ok else edits.damage(p, face)
            edits.set(p, "activated", True)
            if ok:
                lines.append(f"{name} rolls {face} and escapes unharmed")
            else:
                lines.append(f"{name} rolls {face} and takes {face} damage" + (", destroyed" if dead else ""))
        else:
            edits.set(p, "activated", False)
    edits.set_extra(cpos, "team", [])
    edits.set_counter(cpos, "target_lock", 0)
    edits.set_counter(cpos, "evade", 0)
    edits.drop_extra(cpos, "power")
    if wrecked:
        text = f"{cname} is destroyed and breaks apart: " + "; ".join(lines)
        text += "; survivors count as activated"
    else:
        edits.add_condition(cpos, "off_table")
        edits.set(cpos, "activated", True)
        text = f'{cname} splits; its team is placed within 2" and may activate as normal'
    return ActionResult(changes=edits.changes(), text=text, detail=detail)


def _escape(skill: int, left: int) -> Dist[int]:
    """A member's damage when its combiner is destroyed: 0 on a pass, the die on a fail (L2551)."""
    return Dist.die(6).map(lambda face: 0 if face >= skill else min(face, left))


def split_odds(game: Game, inp: SplitInput) -> ActionOdds:
    """Only a destroyed combiner rolls: each living member's damage (0 on a pass, the die on a fail)."""
    edits = Edits(game)
    cpos, team = _split_checks(edits, inp)
    if not edits.get(cpos, "destroyed"):
        return ActionOdds(tables={}, summary="a split by choice rolls no dice")
    tables = {}
    facts = {}
    for p in team:
        if edits.get(p, "destroyed"):
            continue
        skill, left = skill_of(edits.unit(p)), edits.armour_left(p)
        dist = _escape(skill, left)
        tables[f"{edits.name(p)} damage"] = table(dist)
        facts[f"{edits.name(p)} destroyed"] = sum(w for k, w in dist.weights.items() if k >= left) / 6
    return ActionOdds(tables=tables, facts=facts, summary="each member makes a Pilot Skill roll (L2551)")


SPLIT = _TEXTS.spec("split", resolve_split, odds=split_odds)

COMBINE_ACTIONS = (JUMP_CHARGE, COMBINE, SPLIT)
