"""Pilot skills a shooter uses before the roll: Make it Count! (L276-L284) and, with the Expanded Pilot
Skills module on (L295-L299), those of its list that change a shot's dice:

* Bullseye [M-X]: +1 Shooting Accuracy a Momentum, at most +3 (L305-L307; digest ambiguity 20);
* Fire Vulcans! [M-1]: a free attack, even in engagement range: 8", 3 + Frame Level shots, 200 damage
  (L309-L312; the book gives no PEN: 0);
* Giant Slayer [M-1]: +1 ARM PEN (L314-L316); in the Melee Clash (:mod:`.melee`) +1 more against a unit
  of a larger Size (L316), not with a [CC] weapon, which has no PEN (L557);
* Take the Shot! [M-2]: with ARM PEN 3+, shields and cover block nothing (L336-L340; its other three
  options are range and targeting, the players' to apply);
* Accelerate [M-1, M-0 from Round 4]: a Full Throttle on its turn with no action spent; its benefit is
  still once a turn (L80, L301-L303) (:mod:`.actions`);
* Shooting Counterattack [M-2]: a unit that survives a shooting attack fires one shooting weapon back at
  the shooter at once, no action spent (L332-L334): offered on the shot's result (:mod:`.reactions`);
* Mayhem! [M-1]: after its melee attack this turn, a free Overwatch III attack (3 shots) with a shooting
  weapon, +1 ARM PEN point-blank, at a unit it clashed with this turn (L322-L325);
* Tear through the Ranks [M-3, M-2 for an Assault unit]: once a weapon has destroyed an enemy on the
  unit's turn, it fires again at a new target, no action spent; a third target after a second kill; paid
  once (L356-L362); offered on the result of the kill.  In melee (:mod:`.melee`) the clash's weapon
  clashes with a new unit, Move +5" (the players'), and only the first melee attack gains Momentum
  (L359-L360);
* All-Out Attack [M-3, M-2 for Heavy Arms]: 3 more actions this turn, for shooting or Power only; a Super
  Titan may also take +5 Power, then rolls a d10 as its turn ends: 1-4, 3 Momentum lost or a shutdown
  until its next turn (L347-L354) (:mod:`.actions`, :func:`.turns.surge_check`);
* Improvise [M-1]: the target rolls again the evade dice that let shots through, or a side of a clash its
  defense dice that blocked nothing, asked after the roll; paid once, it lasts the turn (L318-L320)
  (:mod:`.shooting`, :mod:`.melee`);
* Persevere [M-1], the target's: -100 damage a hit, -200 from Round 4, never under 100 (L327-L330).

The book has each force pick two skills of the list (L297): the app offers them all once the module is
on and leaves the pick to the players.  One skill a unit turn (L253): :func:`skill_blocked`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.changes import Working
from core.game import Game, GameUnit
from core.systems.base import FieldPick, Offer, read_options
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.state import MsUnitState, ms_state
from core.systems.mechastellar.units import Unit, Weapon, tier_rank

#: The skills a shot may use, by value: (label, what it does, Momentum).
SHOT_SKILLS: dict[str, tuple[str, str, int]] = {
    "none": ("No skill", "", 0),
    "make_it_count": ("Make it Count!", "+1 critical", 1),
    "bullseye_1": ("Bullseye +1", "+1 Accuracy", 1),
    "bullseye_2": ("Bullseye +2", "+2 Accuracy", 2),
    "bullseye_3": ("Bullseye +3", "+3 Accuracy", 3),
    "fire_vulcans": ("Fire Vulcans!", 'free: 8", 3 + Frame shots, 200 dmg', 1),
    "giant_slayer": ("Giant Slayer", "+1 PEN", 1),
    "take_the_shot": ("Take the Shot!", "PEN 3+: no shield or cover blocks", 2),
    "mayhem": ("Mayhem!", "after its melee: Overwatch III, +1 PEN point-blank", 1),
}
#: Mayhem!'s attack: an Overwatch III, 3 shots (L323).
MAYHEM_SHOTS = 3
EXPANDED = frozenset(SHOT_SKILLS) - {"none", "make_it_count"}


@dataclass(frozen=True)
class SkillEffect:
    accuracy: int = 0
    pen: int = 0
    ignore_blocks: bool = False
    crit: bool = False


def module_on(game: Game) -> bool:
    return read_options(MsOptions, game.options).expanded_skills


def skill_cost(skill: str, target: Unit) -> int:
    """Its Momentum: Make it Count! is free against a Skilled or Ace pilot (Dogfight, L281)."""
    if skill == "make_it_count" and tier_rank(target):
        return 0
    return SHOT_SKILLS[skill][2]


def skill_refusal(game: Game, skill: str, shooter: Unit, momentum: int, target: Unit | None) -> str:
    """Why this shooter may not use the skill now ("" when it may)."""
    if skill not in SHOT_SKILLS:
        return "no such skill"
    if skill == "make_it_count" and tier_rank(shooter) == 0:
        return "Skilled or Ace pilots only"
    if skill in EXPANDED and not module_on(game):
        return "the Expanded Pilot Skills module is off"
    if target is None and skill == "make_it_count":
        return ""  # free against a Skilled or Ace target: the shot's target decides (L281)
    cost = skill_cost(skill, target) if target is not None else SHOT_SKILLS[skill][2]
    if momentum < cost:
        return f"needs {cost} Momentum"
    return ""


def effect(skill: str) -> SkillEffect:
    """What the skill changes in the shot."""
    if skill.startswith("bullseye_"):
        return SkillEffect(accuracy=int(skill[-1]))
    return SkillEffect(
        pen=int(skill == "giant_slayer"),
        ignore_blocks=skill == "take_the_shot",
        crit=skill == "make_it_count",
    )


def vulcans(shooter: Unit) -> Weapon:
    """Fire Vulcans!'s profile (L312)."""
    return Weapon(name="Fire Vulcans!", range=8, shots=min(10, 3 + shooter.frame), damage=200, pen=0)


def persevered(damage: int, game_round: int) -> int:
    """A hit's damage under Persevere: -100, -200 from Round 4, never under 100 (L329-L330).

    >>> persevered(500, 1), persevered(500, 4), persevered(200, 4), persevered(100, 1)
    (400, 300, 100, 100)
    """
    return max(min(damage, 100), damage - (200 if game_round >= 4 else 100))


def skill_picks(game: Game, shooter: Unit, momentum: int) -> list[FieldPick]:
    """One button a skill; greyed with the reason when the pilot or the game does not allow it."""
    out = []
    for value, (label, detail, cost) in SHOT_SKILLS.items():
        if value in EXPANDED and not module_on(game):
            continue  # the module is off: its skills are not shown at all
        why = "" if value == "none" else skill_refusal(game, value, shooter, momentum, None)
        more = f", {cost} Momentum" if cost else ""
        out.append(FieldPick(value=value, label=label, detail=detail + more, unavailable=why))
    return out


#: Skills a unit may use again in the same turn (L263, L290).
REPEATABLE = ("defense", "flawless")


def used_skills(g: GameUnit) -> list[str]:
    """The skills the unit has used this unit turn (whoever's turn it is)."""
    return MsUnitState.model_validate(g.state.extra).skills


def skill_blocked(unit: Unit, used: Sequence[str], skill: str) -> str:
    """Why the unit may not use ``skill`` now ("" when it may): one skill a unit turn, on its own turn or
    the enemy's (L253); Skill Defense and Flawless Evasion may repeat (L263, L290); a Prodigy uses two
    different skills (L469).

    >>> u = Unit(name="U")
    >>> skill_blocked(u, [], "defense"), skill_blocked(u, ["defense"], "defense")
    ('', '')
    >>> skill_blocked(u, ["make_it_count"], "defense")
    'it has used a skill this turn'
    """
    kinds = set(used)
    if skill in kinds:
        return "" if skill in REPEATABLE else "it has used that skill this turn"
    if len(kinds) >= (2 if "prodigy" in unit.pilot.traits else 1):
        return "it has used a skill this turn"
    return ""


def note_skill(game: Game, work: Working, ref: str, skill: str) -> None:
    """Record that the unit used ``skill`` this unit turn (cleared when the turn ends)."""
    s, u, _ = game.unit(ref)
    state = work.state(s, u)
    mine = MsUnitState.model_validate(state.extra)
    if skill not in mine.skills:
        mine.skills = [*mine.skills, skill]
        state.extra = mine.model_dump(mode="json")


def _pilot_skill_refusal(game: Game, ref: str, skill: str, cost: int, short: str) -> str:
    """An expanded skill used from a unit's action: the module on, a pilot that uses skills (L251),
    ``cost`` Momentum (``short`` says what it lacks), no other skill this turn (L253)."""
    s, _, g = game.unit(ref)
    unit = Unit.model_validate(g.profile)
    if not module_on(game):
        return "the Expanded Pilot Skills module is off"
    if unit.kind not in ("mobile_suit", "super_titan"):
        return f"{g.name} has no pilot skills (L251)"
    if game.sides[s].resources.get("momentum", 0) < cost:
        return short
    why = skill_blocked(unit, used_skills(g), skill)
    return f"{g.name}: {why}" if why else ""


def giant_slayer_refusal(game: Game, ref: str) -> str:
    """Giant Slayer in the Melee Clash: 1 Momentum."""
    return _pilot_skill_refusal(game, ref, "giant_slayer", 1, "needs 1 Momentum")


def accelerate_cost(game: Game) -> int:
    """Accelerate's Momentum: 1, none from Round 4 (L303)."""
    return 0 if game.round >= 4 else 1


def accelerate_refusal(game: Game, ref: str) -> str:
    """Accelerate: 1 Momentum before Round 4 (L303)."""
    return _pilot_skill_refusal(
        game, ref, "accelerate", accelerate_cost(game), "needs 1 Momentum before Round 4 (L303)"
    )


#: Shooting Counterattack's Momentum (L332).
COUNTER_COST = 2


def counter_refusal(
    game: Game, ref: str, spent: int = 0, shot: bool = False, used: Sequence[str] = ()
) -> str:
    """Shooting Counterattack: the module on, a pilot that uses skills with a shooting weapon, 2 Momentum, no
    other skill this turn (L253), and the unit shot at this turn by the unit taking its turn (L334).
    ``spent``, ``shot``, ``used``: as the shot being resolved leaves it (Momentum and skills spent)."""
    s, _, g = game.unit(ref)
    unit = Unit.model_validate(g.profile)
    if not module_on(game):
        return "the Expanded Pilot Skills module is off"
    if unit.kind not in ("mobile_suit", "super_titan"):
        return f"{g.name} has no pilot skills (L251)"
    if g.state.destroyed:
        return f"{g.name} is destroyed"
    if not any(w.kind == "shooting" for w in unit.weapons) or "berserk" in g.state.conditions:
        return f"{g.name} has no shooting weapon"
    if ref not in ms_state(game).shot_at and not shot:
        return f"{g.name} has not been shot at this turn (L334)"
    if game.sides[s].resources.get("momentum", 0) - spent < COUNTER_COST:
        return f"needs {COUNTER_COST} Momentum"
    why = skill_blocked(unit, [*used_skills(g), *used], "counterattack")
    return f"{g.name}: {why}" if why else ""


def counter_offer(game: Game, target: str, shooter: str, spent: int, used: Sequence[str]) -> list[Offer]:
    """A Shooting Counterattack offered on the result of a shot the target survived (L334), when it may
    (``spent``, ``used``: the Momentum and the skills the shot's defense took)."""
    if counter_refusal(game, target, spent, shot=True, used=used):
        return []
    name = game.unit(target)[2].name
    return [
        Offer(
            action="counterattack",
            input={"unit": target, "target": shooter},
            label=f"Shooting Counterattack: {name} fires back ({COUNTER_COST} Momentum)",
        )
    ]


def tear_cost(unit: Unit) -> int:
    """Tear through the Ranks' Momentum: 3, 2 for an Assault unit (L356, L362)."""
    return 3 - ("assault" in unit.roles)


def tear_refusal(game: Game, ref: str, weapon: int, target: str) -> str:
    """Why the unit may not fire ``weapon`` again through the ranks at ``target`` ("" when it may): the
    module on, its turn, the weapon destroyed an enemy this turn, at most a third target, a new one; the
    first time, its Momentum and no other skill this turn (L253, L356-L361)."""
    s, _, g = game.unit(ref)
    unit = Unit.model_validate(g.profile)
    mine = MsUnitState.model_validate(g.state.extra)
    if not module_on(game):
        return "the Expanded Pilot Skills module is off"
    if unit.kind not in ("mobile_suit", "super_titan"):
        return f"{g.name} has no pilot skills (L251)"
    if mine.tears >= 2:
        return "a third target at most (L361)"
    if ms_state(game).turn_unit != ref or mine.kills.count(weapon) <= mine.tears:
        return "the weapon has not destroyed an enemy since (L358-L361)"
    if target in ms_state(game).shot_at or target in mine.clashed:
        return "at a new target (L358)"
    if not mine.tears:
        if game.sides[s].resources.get("momentum", 0) < tear_cost(unit):
            return f"needs {tear_cost(unit)} Momentum"
        if why := skill_blocked(unit, mine.skills, "tear"):
            return why
    return ""


def tear_offer(
    game: Game, ref: str, weapon: int, name: str, first: bool, action: str = "shoot"
) -> list[Offer]:
    """Tear through the Ranks offered on the result of a kill on the unit's own turn (L358): a shot, or a
    clash (``action`` "melee", Move +5", L359)."""
    _, _, g = game.unit(ref)
    unit = Unit.model_validate(g.profile)
    if not module_on(game) or unit.kind not in ("mobile_suit", "super_titan"):
        return []
    cost = f"{tear_cost(unit)} Momentum" if first else "paid"
    return [
        Offer(
            action=action,
            input={"attacker": ref, "weapon": weapon, "tear": True},
            label=f"Tear through the Ranks: the {name} at a new target ({cost})"
            + (', Move +5"' if action == "melee" else ""),
        )
    ]


def all_out_cost(unit: Unit) -> int:
    """All-Out Attack's Momentum: 3, 2 for a Heavy Arms unit (L347, L352)."""
    return 3 - ("heavy_arms" in unit.roles)


def all_out_refusal(game: Game, ref: str) -> str:
    """All-Out Attack: 3 Momentum, 2 for Heavy Arms."""
    _, _, g = game.unit(ref)
    cost = all_out_cost(Unit.model_validate(g.profile))
    return _pilot_skill_refusal(game, ref, "all_out", cost, f"needs {cost} Momentum")


def improvise_refusal(game: Game, ref: str, used: Sequence[str], momentum: int) -> str:
    """Improvise for this unit's evade dice now: the module on, a pilot that uses skills (L251); paid this
    turn already, or 1 Momentum and no other skill this turn (L253, L320)."""
    _, _, g = game.unit(ref)
    unit = Unit.model_validate(g.profile)
    if not module_on(game):
        return "the Expanded Pilot Skills module is off"
    if unit.kind not in ("mobile_suit", "super_titan"):
        return f"{g.name} has no pilot skills (L251)"
    if "improvise" in used:
        return ""
    if momentum < 1:
        return "needs 1 Momentum"
    why = skill_blocked(unit, used, "improvise")
    return f"{g.name}: {why}" if why else ""
