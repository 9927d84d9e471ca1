"""What MechaStellar's gated inputs need (core.systems.base.needs): each a check of one unit in play,
answering "" when it has it, else why not in plain words.

* ``turn``: the unit may act now: the round's roll-off is made (L32), it is its side's turn and it has
  not had its own (L26, L40), no other unit is mid-turn, Return Fire is not owed by another (L41).
  Melee, Focus, Full Throttle, Disengage and End turn need it, so before the roll-off they are
  offered greyed with the reason and the roll-off is the one step offered.
* ``shot``: Shoot needs ``turn`` and a shot left: a weapon not fired this turn (L153) and an action to
  spend (L26), unless the shot is free (a remote weapon for Momentum, a warship, a free skill).
* ``melee``: a melee attack needs a melee or [CC] weapon (L183-L188); a Stellar Warship makes none
  (L954).
* ``super_titan``: Focus for +3 Power is a Super Titan's (L129-L130).
* ``shield_power``: powering a shield is for a Super Titan whose shield takes Power (L158-L160, L229-L230).
* ``focused``: "within 16 inches" changes a shot only for a unit that took Focus this turn (L123-L124):
  offered to a focused shooter only.
* ``engaged``: Disengage breaks away from units in engagement range (L68, L255-L256).
* ``gunnery_expert``: the +8" of range in place of +1 hit is a Gunnery Expert's choice (L410-L412).
* ``weapon_bonus``: +100 damage in place of +1 PEN is a Mechanics Expert's or a Fearsome pilot's
  choice (L418-L420, L458-L460).
* ``energy_weapon``, ``artillery``, ``remote``: firing through small cover or underwater needs an
  energy weapon (L641-L644); standing still for -1 Accuracy needs artillery (L102-L103); firing for
  Momentum needs a remote weapon (L591-L597).  Which weapon is checked with the shot.
* ``charged``: Overwatch is fired by the unit being charged, with a weapon with Overwatch, while it is
  not already in melee and the charger is not Blindsiding it (L172-L178); one weapon per action (L174).
* ``high_speed``: a High Speed Attack needs a Full Throttle this turn and a [CC] weapon (L554-L558); the
  10" of movement is the players' to measure.
* ``persevere``: the target's Persevere needs the Expanded Pilot Skills module and a mobile suit or a
  Super Titan, whose pilots use skills (L251, L297, L327).
* ``ambusher``, ``fallen``: Ambush! brings Frame 1-2 units (L815); Reinforcements need a destroyed Frame
  1-2 unit with a Basic pilot on the side (L848-L850), which is asked.  ``overwatch_gun``: the Overwatch
  Command needs a weapon with Overwatch (L837); ``missiles``: Missile Screen! a side with missiles (L833).
* ``bonds``, ``last_shot``: Bonds that Transcend Time & Space from Round 5 with a destroyed unit on the
  side (L785-L786); Last Shooting by a unit destroyed this unit turn, its side's Event open (L747).
* ``giant_slayer``: Giant Slayer in the clash needs the Expanded Pilot Skills module, a pilot that uses
  skills, 1 Momentum and no other skill this turn (L251, L253, L314).
* ``accelerate``: Accelerate likewise, with 1 Momentum before Round 4 (L301-L303).  ``counterattack``: a
  Shooting Counterattack likewise, 2 Momentum, by a unit shot at this turn (L332-L334).  ``all_out``:
  All-Out Attack likewise, 3 Momentum, 2 for Heavy Arms (L347-L352).  ``fusillade``: splitting the first
  shooting attack is a Furious Fusillade pilot's, on its turn (L436-L438).
* ``charge``: a charge is declared by a unit that may act now and has a melee weapon (L170-L172).
* ``warship``: Ready Weapons, Target Lock, All Weapons Fire! and Reload! are a Stellar Warship's actions
  (L962-L993); ``mech_turn``: Focus is not one of them (L946), and ``turn`` holds.
* ``captain_influence``: a Renowned or Legendary Captain's ship, as it activates, with the Influence module
  on, takes its bonus as Influence (L1045, L1071).
* ``captain``: a Captain's Order needs a Skilled or Battle Hardened Captain, as the round begins (L1019);
  ``discerning``, ``steadfast``: the captain traits used as the round begins or the ship activates
  (L1049, L1057, L1077); ``main_battery``: the quadrant's +1 Accuracy needs that Order in force (L1029).
* ``board``, ``launch``: boarding a warship of the side at the end of the unit's turn or as the battle
  begins; a warship launching a unit aboard as a round begins (L869, L997, L1003).
* ``big_move``: crashing through a building or trampling is for a Size 2+ unit at Full Throttle or charging
  (L84-L86); ``knockback``, ``get_up``, ``rally_ally``, ``mobility``: the small-scale mode's Knockback after
  a Super Titan's heavy hit, a fallen Titan's roll as the round ends, a Titan's Focus to rally, a mobile
  suit's extra Move (L716-L728); ``inertia``, ``low_gravity``: turning about in space for a Basic pilot's
  unit (L883-L886), the fall check in low gravity (L897-L898).
* ``split``: a player's hidden split is for a unit in the declared clash that has dice and has not split
  (L519).
* ``m_particles``: "beyond Sensors + 10 inches" matters only once M-Particles are spread (L871-L875).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.game import profile_as
from core.systems.base import Requirement, read_options
from core.systems.mechastellar.commands import (
    ambusher,
    armed,
    commander_alive,
    fallen,
    influence_module,
    missiles,
)
from core.systems.mechastellar.events import bonds_open, events_module, last_shot
from core.systems.mechastellar.fleet import (
    board_refusal,
    captain_influence_refusal,
    discerning_refusal,
    launch_refusal,
    main_battery_refusal,
    order_refusal,
    steadfast_refusal,
    warship_refusal,
)
from core.systems.mechastellar.impacts import (
    big_move,
    fall_refusal,
    get_up_refusal,
    inertia_refusal,
    knockback_refusal,
    mobility_refusal,
    rally_ally_refusal,
)
from core.systems.mechastellar.modules import battle_damage_module, terrain_module
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.reactions import overwatch_gun
from core.systems.mechastellar.shooting import commando, shoot_picks
from core.systems.mechastellar.skills import (
    accelerate_refusal,
    all_out_refusal,
    counter_refusal,
    giant_slayer_refusal,
)
from core.systems.mechastellar.space import space_module
from core.systems.mechastellar.splits import split_refusal
from core.systems.mechastellar.state import ms_state, unit_extra
from core.systems.mechastellar.traits import (
    expert_refusal,
    fearless_refusal,
    fusillade_refusal,
    lone_wolf_refusal,
    rally_refusal,
    spirit_refusal,
    untouchable_refusal,
)
from core.systems.mechastellar.turns import actions_now, check_turn
from core.systems.mechastellar.units import Unit, captain, tier_rank

if TYPE_CHECKING:
    from core.game import Game


def _turn(game: Game, ref: str) -> str:
    try:
        check_turn(game, ref)
    except ValueError as why:
        return str(why)
    return ""


def _shot(game: Game, ref: str) -> str:
    """Shoot: the unit may act now (``turn``) and has a shot left: a weapon that has not fired this turn
    (L153) and an action to spend on it (L26); a remote weapon fires for Momentum instead (L595) and a
    warship's weapons take no action (L981).  A free shot (Fire Vulcans, Mayhem!, Tear through the Ranks,
    a Furious Fusillade's second target: L311, L323, L358, L438) keeps Shoot offered."""
    why = _turn(game, ref)
    if why:
        return why
    s, _, g = game.unit(ref)
    extra = unit_extra(g)
    picks = shoot_picks(game, ref)
    if extra.fusillade or len(extra.kills) > extra.tears:
        return ""
    if any(k.value in ("fire_vulcans", "mayhem") and not k.unavailable for k in picks["skill"]):
        return ""
    unit = profile_as(Unit, g)
    if unit.kind == "warship":  # readied, reloading, destroyed: asked weapon by weapon (L966-L993)
        return ""
    ready = [int(p.value) for p in picks["weapon"] if not p.unavailable]
    if not ready:
        why = "; ".join(f"{p.label} {p.unavailable}" for p in picks["weapon"]) or "no weapon"
        return f"{g.name} has no weapon to fire now: {why} (L153)"
    remote = any(unit.weapons[i].indirect == "remote" for i in ready)
    if remote and game.sides[s].resources.get("momentum", 0) >= 1:
        return ""
    try:
        check_turn(game, ref, spends=True)
    except ValueError as spent:
        return str(spent)
    return ""


def _melee(game: Game, ref: str) -> str:
    _, _, g = game.unit(ref)
    unit = profile_as(Unit, g)
    if unit.kind == "warship":
        return f"{g.name} is a Stellar Warship: it makes no melee attacks"
    if not any(w.kind != "shooting" for w in unit.weapons):
        return f"{g.name} has no melee weapon"
    return ""


def _super_titan(game: Game, ref: str) -> str:
    _, _, g = game.unit(ref)
    return "" if profile_as(Unit, g).kind == "super_titan" else f"{g.name} is not a Super Titan"


def _shield_power(game: Game, ref: str) -> str:
    _, _, g = game.unit(ref)
    unit = profile_as(Unit, g)
    if unit.kind == "super_titan" and unit.shield_power:
        return ""
    return f"{g.name} has no shield that takes Power"


def _focused(game: Game, ref: str) -> str:
    _, _, g = game.unit(ref)
    return "" if "focus" in g.state.conditions else f"{g.name} has not taken Focus this turn"


def _engaged(game: Game, ref: str) -> str:
    _, _, g = game.unit(ref)
    return "" if "engaged" in g.state.conditions else f"{g.name} is not in melee"


def _trait(keys: tuple[str, ...], what: str) -> Requirement:
    def check(game: Game, ref: str) -> str:
        _, _, g = game.unit(ref)
        has = any(t in keys for t in profile_as(Unit, g).pilot.traits)
        return "" if has else f"{g.name}'s pilot is not {what}"

    return check


#: Captain traits that do what a pilot trait does (L1061, L1065, L1086).
_CAPTAIN_LIKE = {
    "gunnery_expert": ("expert_gunnery",),
    "mechanics_expert": ("expert_engineering", "fearsome_captain"),
}


def _crew(keys: tuple[str, ...], what: str) -> Requirement:
    """A pilot trait, or on a warship the captain trait that gives the same choice (L1061, L1065, L1086)."""
    pilot = _trait(keys, what)
    crew = tuple(c for k in keys for c in _CAPTAIN_LIKE.get(k, ()))

    def check(game: Game, ref: str) -> str:
        _, _, g = game.unit(ref)
        unit = profile_as(Unit, g)
        return "" if any(captain(unit, c) for c in crew) else pilot(game, ref)

    return check


def _mech(game: Game, ref: str) -> str:
    _, _, g = game.unit(ref)
    if profile_as(Unit, g).kind == "warship":
        return f"{g.name} is a Stellar Warship: it has its own actions (L946)"
    return ""


def _mech_turn(game: Game, ref: str) -> str:
    """Focus: not a warship's action (L946), and the unit may act now."""
    return _mech(game, ref) or _turn(game, ref)


def _m_particles(game: Game, ref: str) -> str:
    return (
        ""
        if read_options(MsOptions, game.options).m_particles
        else "no M-Particles are spread in this battle"
    )


def _weapon_kind(test: str, what: str) -> Requirement:
    def check(game: Game, ref: str) -> str:
        _, _, g = game.unit(ref)
        weapons = profile_as(Unit, g).weapons
        has = any(w.energy if test == "energy" else w.indirect == test for w in weapons)
        return "" if has else f"{g.name} has no {what}"

    return check


def _charged(game: Game, ref: str) -> str:
    st = ms_state(game)
    _, _, g = game.unit(ref)
    unit = armed(game, ref)  # Missile Screen!'s Overwatch V (L833)
    if st.charge != ref:
        return f"{g.name} is not being charged"
    if st.overwatch_bonus:  # a won Outmaneuver: one attack, any shooting weapon (L925-L926)
        if not any(w.kind == "shooting" for w in unit.weapons):
            return f"{g.name} has no shooting weapon"
        return f"{g.name} has fired its Overwatch attack" if st.overwatch else ""
    if not any(w.overwatch for w in unit.weapons):
        return f"{g.name} has no weapon with Overwatch"
    if st.charge_blindside:
        return f"{g.name} is Blindsided: no Overwatch"
    if "engaged" in g.state.conditions:
        return f"{g.name} is already in melee: no Overwatch"
    if len(st.overwatch) >= actions_now(game, g):
        return f"{g.name} has fired Overwatch with each of its actions"
    return ""


def _high_speed(game: Game, ref: str) -> str:
    _, _, g = game.unit(ref)
    if not any(w.kind == "cc" for w in profile_as(Unit, g).weapons):
        return f"{g.name} has no [CC] weapon"
    return "" if "throttle" in g.state.conditions else f"{g.name} has not gone full throttle this turn"


def _persevere(game: Game, ref: str) -> str:
    _, _, g = game.unit(ref)
    if not read_options(MsOptions, game.options).expanded_skills:
        return "the Expanded Pilot Skills module is off"
    return (
        "" if profile_as(Unit, g).kind in ("mobile_suit", "super_titan") else f"{g.name} has no pilot skills"
    )


def _commando(game: Game, ref: str) -> str:
    _, _, g = game.unit(ref)
    return "" if commando(profile_as(Unit, g)) else f"{g.name} is not a Commando Commander"


def _exceptional(game: Game, ref: str) -> str:
    """A Skilled or Ace pilot: Make it Count! (L274, L282); a warship's captain gives Orders instead of
    using skills (L1019)."""
    _, _, g = game.unit(ref)
    unit = profile_as(Unit, g)
    if unit.kind == "warship":
        return f"{g.name}'s captain gives Orders instead of using skills (L1019)"
    return "" if tier_rank(unit) else f"{g.name}'s pilot is not Skilled or Ace"


def _charge(game: Game, ref: str) -> str:
    return _turn(game, ref) or _melee(game, ref)


REQUIREMENTS: dict[str, Requirement] = {
    "gunnery_expert": _crew(("gunnery_expert",), "a Gunnery Expert"),
    "warship": warship_refusal,
    "mech_turn": _mech_turn,
    "captain": order_refusal,
    "discerning": discerning_refusal,
    "steadfast": steadfast_refusal,
    "captain_influence": captain_influence_refusal,
    "main_battery": main_battery_refusal,
    "m_particles": _m_particles,
    "board": board_refusal,
    "split": split_refusal,
    "big_move": big_move,
    "knockback": knockback_refusal,
    "get_up": get_up_refusal,
    "rally_ally": rally_ally_refusal,
    "mobility": mobility_refusal,
    "inertia": inertia_refusal,
    "low_gravity": fall_refusal,
    "launch": launch_refusal,
    "weapon_bonus": _crew(("mechanics_expert", "fearsome"), "a Mechanics Expert or Fearsome"),
    "energy_weapon": _weapon_kind("energy", "energy weapon"),
    "artillery": _weapon_kind("artillery", "artillery"),
    "remote": _weapon_kind("remote", "remote weapon"),
    "charged": _charged,
    "charge": _charge,
    "commando": _commando,
    "spirit": spirit_refusal,
    "lone_wolf": lone_wolf_refusal,
    "terrain": terrain_module,
    "battle_damage": battle_damage_module,
    "events": events_module,
    "space": space_module,
    "exceptional": _exceptional,
    "untouchable": untouchable_refusal,
    "fearless": fearless_refusal,
    "expert": expert_refusal,
    "rally": rally_refusal,
    "influence": influence_module,
    "commander": commander_alive,
    "ambusher": ambusher,
    "fallen": fallen,
    "missiles": missiles,
    "overwatch_gun": overwatch_gun,
    "giant_slayer": giant_slayer_refusal,
    "accelerate": accelerate_refusal,
    "counterattack": counter_refusal,
    "all_out": all_out_refusal,
    "fusillade": fusillade_refusal,
    "bonds": bonds_open,
    "last_shot": last_shot,
    "persevere": _persevere,
    "high_speed": _high_speed,
    "turn": _turn,
    "shot": _shot,
    "melee": _melee,
    "super_titan": _super_titan,
    "shield_power": _shield_power,
    "focused": _focused,
    "engaged": _engaged,
}
