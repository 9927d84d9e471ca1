"""Pilot traits that change a roll (L370-L475), read the same way by a shot, an Overwatch attack and the
Melee Clash.

Bonus hits an attacker's pilot brings (each added after the dice, then blockable, digest ambiguity 5):

* Seasoned Veteran / Practiced Professional: +1 hit (+2 with a PEN 0 weapon) against a lower-tier pilot,
  a Kaiju or a warship's Captain (L376-L378; digest ambiguity 31: Kaiju and Captains of any tier).
* Headhunter / Hunting for a Rival: +1 hit (+2 PEN 0) against a Skilled or Ace pilot, a Kaiju or a
  Captain (L380-L382).
* Defiant / Driven / Hot Blooded: +1 hit on Return Fire at the aggressor (L386).
* Gunnery Expert / Marksman: +1 hit when shooting, unless the player took its +8" of range instead
  (L410-L412).
* Killer Instinct: +1 hit on every attack once its unit is below half HP or an allied Skilled or Ace pilot
  has been destroyed (L453-L456).

Skill Defense worth two hits a Momentum (L399, L404, L456): Untouchable against a lower-tier pilot, a
Kaiju or a Captain; Killer Instinct once it has taken effect; both against shots only (digest section
5.4: the traits say "Shots"); Immortal against a shooter within 16" (L399: the players answer whether it
is, asked when a shot hits an Immortal pilot's unit).

Momentum from kills: Noble's +3 when its unit is destroyed (L394), Fearsome's +1 per enemy it destroys
(L461), a Rallying Leader's +1 per ally lost, +2 for a Frame 3+ unit or a Skilled or Ace pilot (L495).
Indirect fire gets no trait (L106): the callers leave these out for artillery.

Furious Fusillade: its first shooting attack on its turn may split one weapon's shots over two targets
(L436-L438; its +16" of range: the players'), the rest offered after the first (:mod:`.shooting`).

Traits used as the unit activates, each an action offered only to a unit whose pilot has it, before it
has done anything else this turn (:func:`activating`): Fighting Spirit (+1 Momentum or a Focus when below
half HP or with its side at 0 Momentum, L388-L390), Heroic Spirit (+2 or two Focus, L463-L465) and Lone
Wolf (a Focus, and +1 Momentum when every ally is 16" or more away: the players say so, L422-L424).
A Focus a trait gives spends no action; it adds to the unit's own (digest ambiguity 19).
"""

from __future__ import annotations

from core.changes import Working
from core.game import Game, GameUnit
from core.systems.base import Choice, NeedChoice, read_options
from core.systems.mechastellar.commands import commander_killed, has_command
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.state import MsUnitState, gain, ms_state, unit_extra
from core.systems.mechastellar.turns import check_turn
from core.systems.mechastellar.units import Unit, Weapon, tier_rank

#: Who is "lower tier" or a Kaiju / Captain for Seasoned Veteran, Headhunter and Untouchable (L378).
CAPTAIN_KINDS = ("kaiju", "warship")


def below_half(g: GameUnit) -> bool:
    """HP under 50% (L390, L455)."""
    return (g.state.max_damage - g.state.damage) * 2 < g.state.max_damage


def killer_active(game: Game, ref: str) -> bool:
    """Killer Instinct has taken effect: HP under half, or an allied Skilled or Ace pilot destroyed (L455)."""
    s, _, g = game.unit(ref)
    if "killer_instinct" not in Unit.model_validate(g.profile).pilot.traits:
        return False
    if below_half(g):
        return True
    return any(
        o.state.destroyed and tier_rank(Unit.model_validate(o.profile)) > 0 for o in game.sides[s].units
    )


def lower_or_captain(attacker: Unit, target: Unit) -> bool:
    """The target is a lower-tier pilot, a Kaiju or a Captain (L378, L404; digest ambiguity 31)."""
    return target.kind in CAPTAIN_KINDS or tier_rank(target) < tier_rank(attacker)


def trait_hits(game: Game, a_ref: str, t_ref: str, weapon: Weapon, shooting: bool, long_range: bool) -> int:
    """Bonus hits from the attacker's pilot traits against this target with this weapon."""
    _, _, a_g = game.unit(a_ref)
    _, _, t_g = game.unit(t_ref)
    att, tgt = Unit.model_validate(a_g.profile), Unit.model_validate(t_g.profile)
    traits = att.pilot.traits
    bonus = 2 if weapon.pen == 0 else 1
    n = 0
    if "seasoned_veteran" in traits and lower_or_captain(att, tgt):
        n += bonus  # L378
    if "headhunter" in traits and (tgt.kind in CAPTAIN_KINDS or tier_rank(tgt) > 0):
        n += bonus  # L382
    if "defiant" in traits and ms_state(game).avenging == t_ref and ms_state(game).turn_unit == a_ref:
        n += 1  # L386: Return Fire at the aggressor
    if shooting and "gunnery_expert" in traits and not long_range:
        n += 1  # L412
    if killer_active(game, a_ref):
        n += 1  # L456
    return n


def defense_ratio(game: Game, t_ref: str, a_ref: str, near: bool = False) -> int:
    """Hits one Momentum of Skill Defense cancels against a shot: 2 with Untouchable against a lower-tier
    pilot, a Kaiju or a Captain (L404), with Immortal against a shooter within 16" (``near``, the players'
    answer, L399), or with Killer Instinct in effect (L456); else 1 (L262)."""
    _, _, t_g = game.unit(t_ref)
    _, _, a_g = game.unit(a_ref)
    tgt, att = Unit.model_validate(t_g.profile), Unit.model_validate(a_g.profile)
    if "untouchable" in tgt.pilot.traits and lower_or_captain(tgt, att):
        return 2
    if "immortal" in tgt.pilot.traits and near:
        return 2
    return 2 if killer_active(game, t_ref) else 1


def near_question(game: Game, a_ref: str, t_ref: str) -> NeedChoice | None:
    """The question "within 16 inches?" when its answer changes a shot: the target's pilot is Immortal
    (L399) or its side is on a Lightning Raid (L842); None when it does not."""
    t_side, _, t_g = game.unit(t_ref)
    immortal = "immortal" in Unit.model_validate(t_g.profile).pilot.traits
    if not immortal and not has_command(game, t_side, "lightning_raid"):
        return None
    why = "Immortal: Skill Defense stops 2 hits a Momentum" if immortal else "Lightning Raid: +1 Evade"
    return NeedChoice(
        "near",
        f'Is {game.unit(a_ref)[2].name} within 16" of {t_g.name}? ({why})',
        [
            Choice(value=True, label='Yes: within 16"'),
            Choice(value=False, label='No: 16" or more', assumed=True),
        ],
    )


def on_kill(game: Game, work: Working, killer: str, victim: str) -> None:
    """Momentum a kill brings beyond the turn's +1 (L247): Fearsome +1 to the killer's side (L461), and
    what the loss brings (:func:`unit_lost`)."""
    k_side, _, k_g = game.unit(killer)
    if "fearsome" in Unit.model_validate(k_g.profile).pilot.traits:
        gain(work, k_side, "momentum", 1)
    unit_lost(game, work, k_side, victim)


def unit_lost(game: Game, work: Working, k_side: int, victim: str) -> None:
    """A unit destroyed by the side ``k_side``: +1 Influence for the enemy Commander (L799), Noble +3 to
    the side that lost it (L394), a Rallying Leader's +1, +2 for a Frame 3+ unit or a Skilled or Ace pilot
    (L495)."""
    v_side, _, v_g = game.unit(victim)
    lost = Unit.model_validate(v_g.profile)
    commander_killed(game, work, k_side, v_g.profile)  # +1 Influence for the enemy Commander (L799)
    if "noble" in lost.pilot.traits:
        gain(work, v_side, "momentum", 3)
    rallying = [
        g
        for g in game.sides[v_side].units
        if g is not v_g and not g.state.destroyed and g.profile.get("commander") == "rallying_leader"
    ]
    if rallying:  # +1 an ally lost, +1 more for a Frame 3+ unit or a Skilled or Ace pilot (L495)
        gain(work, v_side, "momentum", 1 + (lost.frame >= 3 or tier_rank(lost) > 0))


def activating(game: Game, ref: str, used: str) -> str:
    """Why a trait that works "when this unit activates" cannot be used now ("" when it can): the unit may
    act, and has done nothing yet this turn (no action, weapon, melee or skill) nor used this trait."""
    _, _, g = game.unit(ref)
    try:
        check_turn(game, ref)
    except ValueError as why:
        return str(why)
    mine = unit_extra(g)
    if used in mine.choices:
        return f"{g.name}'s pilot has used it this turn"
    if ms_state(game).turn_unit == ref and (
        g.state.counters.get("actions", 0) or mine.fired or mine.meleed or mine.skills
    ):
        return f"{g.name} has begun its turn: the trait works as it activates"
    return ""


def spirit_refusal(game: Game, ref: str) -> str:
    """Fighting Spirit / Heroic Spirit: its pilot has it, the unit is activating, and it is below half HP
    or its side has no Momentum (L390, L465)."""
    s, _, g = game.unit(ref)
    traits = Unit.model_validate(g.profile).pilot.traits
    if not ({"fighting_spirit", "heroic_spirit"} & set(traits)):
        return f"{g.name}'s pilot has neither Fighting Spirit nor Heroic Spirit"
    why = activating(game, ref, "spirit")
    if not why and not below_half(g) and game.sides[s].resources.get("momentum", 0) > 0:
        why = f"{g.name} is at half HP or more and its side has Momentum (L390)"
    return why


def lone_wolf_refusal(game: Game, ref: str) -> str:
    """Lone Wolf: its pilot has it and the unit is activating (L424)."""
    _, _, g = game.unit(ref)
    if "lone_wolf" not in Unit.model_validate(g.profile).pilot.traits:
        return f"{g.name}'s pilot is not a Lone Wolf"
    return activating(game, ref, "lone_wolf")


def extra_blocks(g: GameUnit) -> int:
    """Untouchable's blocks this turn (L403): added to any shield or cover."""
    return max(0, MsUnitState.model_validate(g.state.extra).untouchable)


def small_scale(game: Game) -> bool:
    return read_options(MsOptions, game.options).small_scale


def fearless_refusal(game: Game, ref: str) -> str:
    """Fearless (the small-scale mode): a Frame 3+ unit as it activates (L706)."""
    _, _, g = game.unit(ref)
    if not small_scale(game):
        return "the small-scale mode is off"
    if Unit.model_validate(g.profile).frame < 3:
        return f"{g.name} is below Frame 3"
    return activating(game, ref, "fearless")


def rally_refusal(game: Game, ref: str) -> str:
    """Rally (the small-scale mode): a Super Titan, at the start of its turn (L721)."""
    _, _, g = game.unit(ref)
    if not small_scale(game):
        return "the small-scale mode is off"
    if g.profile.get("kind") != "super_titan":
        return f"{g.name} is not a Super Titan"
    return activating(game, ref, "rally")


def expert_refusal(game: Game, ref: str) -> str:
    """Expert Evasion (the small-scale mode): an Ace, 1 Momentum, once a turn (L709-L711)."""
    s, _, g = game.unit(ref)
    if not small_scale(game):
        return "the small-scale mode is off"
    if tier_rank(Unit.model_validate(g.profile)) < 2 or g.profile.get("kind") == "warship":
        return f"{g.name}'s pilot is not an Ace"
    if g.state.destroyed:
        return f"{g.name} is destroyed"
    if "expert_evasion" in g.state.conditions:
        return f"{g.name} has its Expert Evasion this turn"
    return "" if game.sides[s].resources.get("momentum", 0) >= 1 else "Expert Evasion costs 1 Momentum (L709)"


#: What a unit that could still make its Unyielding last stand has left, for the odds (L485).
UNYIELDING_LEFT = 10**9


def last_stand(g: GameUnit) -> bool:
    """An Unyielding Commander that has not yet survived on 1 HP this game (L485)."""
    return (
        g.profile.get("commander") == "unyielding"
        and not g.state.destroyed
        and not MsUnitState.model_validate(g.state.extra).last_stand
    )


def hp_left(g: GameUnit) -> int:
    """The damage that destroys the unit, for the odds: none while an Unyielding last stand is unused."""
    return UNYIELDING_LEFT if last_stand(g) else g.state.max_damage - g.state.damage


def take_damage(game: Game, work: Working, s: int, u: int, amount: int) -> bool:
    """Deal ``amount`` to the unit; True when it is destroyed.  Once a game an Unyielding Commander is
    left with 1 HP instead (L485)."""
    state = work.state(s, u)
    state.damage = min(state.max_damage, state.damage + amount)
    if state.damage >= state.max_damage and last_stand(game.sides[s].units[u]):
        state.damage = state.max_damage - 1
        mine = MsUnitState.model_validate(state.extra)
        mine.last_stand = True
        state.extra = mine.model_dump(mode="json")
    return state.damage >= state.max_damage


def note_choice(work: Working, s: int, u: int, what: str) -> None:
    """Record a trait used as the unit activated (once a turn)."""
    state = work.state(s, u)
    mine = MsUnitState.model_validate(state.extra)
    mine.choices = [*mine.choices, what]
    state.extra = mine.model_dump(mode="json")


def untouchable_refusal(game: Game, ref: str) -> str:
    """Untouchable's once-a-game roll: its pilot has the trait and has not used it (L403)."""
    _, _, g = game.unit(ref)
    if "untouchable" not in Unit.model_validate(g.profile).pilot.traits:
        return f"{g.name}'s pilot is not Untouchable"
    if g.state.destroyed:
        return f"{g.name} is destroyed"
    used = MsUnitState.model_validate(g.state.extra).untouchable >= 0
    return f"{g.name}'s pilot has used it this game (L403)" if used else ""


def fusillade_refusal(game: Game, ref: str) -> str:
    """Furious Fusillade's split: its pilot has the trait, on its own turn, for its first shooting attack
    (L436-L438)."""
    _, _, g = game.unit(ref)
    if "furious_fusillade" not in Unit.model_validate(g.profile).pilot.traits:
        return f"{g.name}'s pilot has no Furious Fusillade"
    try:
        check_turn(game, ref)
    except ValueError as why:
        return str(why)
    if ms_state(game).turn_unit == ref and (unit_extra(g).fired or unit_extra(g).fusillade):
        return f"{g.name} has made its first shooting attack this turn (L438)"
    return ""
