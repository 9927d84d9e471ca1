"""MechaStellar (003_9a8631fd8c2279be.txt): the rule system as the shared layer sees it.

The package reads in the order the book plays: :mod:`.units` (the profile players enter: the book prints
no units, digest section 0), :mod:`.samples` (units and two forces of our own, from the worked examples'
numbers), :mod:`.options` (readings of unclear rules, digest section 10), :mod:`.state` (what a game
keeps), :mod:`.turns` (the roll-off, alternating turns, Return Fire, Momentum), :mod:`.shooting` (the
d10 evade, blocks, Armor Saves, exact odds), :mod:`.traits` (pilot traits that change a roll),
:mod:`.skills` (skills used on a shot), :mod:`.reactions` (Charge and Overwatch), :mod:`.melee` (the
Melee Clash and its exact odds), :mod:`.modules` (Gritty Battles, Destroying Terrain, Battle Damage),
:mod:`.events` (Climactic Events), :mod:`.commands` (Influence and its Commands), :mod:`.space`
(Outmaneuver, the Bridge Attack), :mod:`.fleet` (Stellar Warships' actions, weapons and captains),
:mod:`.impacts` (crashes, tramples, the small-scale mode's Knockback and fallen Titans) and
:mod:`.actions` (Focus, Full Throttle, Disengage, the traits used on activation, the list).

Checklist, rule by rule (lines of the rulebook; tests in tests/test_mechastellar.py [M],
tests/test_mechastellar_rules.py [R], tests/test_mechastellar_traits.py [T],
tests/test_mechastellar_commands.py [C], tests/test_mechastellar_fleet.py [F] and
tests/test_mechastellar_impacts.py [I]).  "Done" = implemented and tested; "reading" = a named option or a
reading documented where it is applied; "players" = left to the players (the app knows no positions, distances
or facing); "not yet" = not implemented.

* L3-L5 Rule Zero: players may change any tracked value by hand (the shared game.adjust, logged).
* L8-L20 deployment, alternate deployment: players.
* L23-L28 one activation a round, actions, melee once a turn: done [M actions_run_out, melee_once].
* L32 roll-off, ties again: done [M roll_off]; it is the first step offered (gates) [M
  before_the_roll_off].
* L34-L36 Challenge: players (not tracked).
* L40-L43 alternating activations, Return Fire: done [M alternating]; L42's exemption of Snipers,
  Skilled and Ace pilots waives only the forced attack, which players make (digest ambiguity 17); one
  side out of units: the other activates the rest (ambiguity 33).
* L46-L74 movement, facing, engagement range: players; "in melee" is a condition the clash sets and
  Disengage clears.
* L68, L255-L258 Disengage [M-1], and [M-1] more to attack afterwards: done [M henry_clashes_with_kara].
* L76-L80 Full Throttle once a turn: done; Titans' Power for Move (L79: 1 Power an inch, at most +5", out
  of the Power free until its next turn) done [C titan_power, I titan_puts_power]. L82-L87 Crash Through
  (a building's save, 5+ or large 3+: ambiguity 27) and Trample (up to 3 smaller targets, each a save
  against PEN = Size, 1000 failed), for a Size 2+ unit at Full Throttle or charging: done [I
  trample_and_crash_through]; which building or unit lies in the path: players.
* L91-L93 range, Rapid Fire: the band is the player's choice; done [M rapid_fire].
* L99-L106 LOS: players. Artillery ACC -2 / -1 still, no traits or skills: done [R artillery]; its range
  limits and no artillery in space: players. Remote indirect fire: players.
* L111-L115 front arc, closest target: players (not enforced).
* L117-L130 Focus: +1 shot / +1 hit within 16" / PEN 0 +2: done [M focus_adds]; several Focus a turn
  (its own and a trait's) add up: reading focus_once for one (ambiguity 19) [T heroic_spirit]; Titan +3
  Power, never doubled: done [M power_4_focus]; Basic pilot targets any model: players; a Skilled/Ace
  pilot's Focus picks one shooting weapon (asked) that fires in melee this turn with +1 PEN, in place of
  the extra shot (L122, L127-L128), and a unit in melee ("engaged") fires no other weapon (L155; Fire
  Vulcans! and Mayhem! excepted, L311, L323): done, refused and greyed with the reason [I
  focus_picks_a_weapon_to_fire_in_melee]; the +1 PEN holds for the turn whether or not the shot is made
  in melee (the app knows no distances).  A trait's free Focus (Lone Wolf...) gives the extra shot only.
* L132-L149 the d10 evade, 10-dice cap, Evade bonus cap +3, natural 1 and 10: done [M evade_target,
  argonaut_shoots_dervish, ten_dice_cap]; natural 1 at target 1: reading natural_one_evades.
* L153 a weapon fires once a turn: done [M a_weapon_fires_once].
* L157-L167 Super Titan Power: done, its three examples [M power_5, power_4, power_on_the_great_shield].
* L170-L181 Charge and Overwatch (one weapon per action, N shots, not in melee, not Blindsided, no
  action spent: ambiguity 34): done [R zodiac_charges, green_viking, overwatch_refused, melee_shield].
* L183-L214 the Melee Clash: done [M blue_djinn_clashes, henry_clashes]; +2 attacker dice: reading
  attacker_one_each; splits entered by each player: done [M the_clash_splits]. The post-clash Disengage
  and the Finishing Blow (lost text, ambiguity 3): not yet; the result no longer says one may follow
  (it offered none), players resolve it.
* L216-L225 Armor Saves, at most 3, 1000 a failure, TN = PEN - Sv: done [M laughing_joker, failed_save];
  natural 10 at 11+: reading save_ten_passes; 1000 in place of DMG: reading save_replaces_damage; buying
  a failed save [M-1] (L220): done [M a_skilled_pilot_buys].
* L228-L234 shields, no stacking with cover, Light and Melee Shields: done [M cover_and_shield, R
  melee_shield]; front 180 degrees only: players (a Blindside drops them). Barrier: not defined.
* L237-L247 Momentum: starting pool, cap 10, +1 a round, +1 melee on your turn, +1 for a kill once a
  turn (and once for an AOE attack, L586): done [M starting_momentum, kill_momentum]. A defender that
  destroys its attacker in the clash gains the kill's +1 too (reading of "this turn", L247).
* L251-L253 one skill a unit turn, on its own turn or the enemy's (Skill Defense and Flawless Evasion
  repeat, a Prodigy uses two, L469): done [R one_skill_a_unit_turn]; a unit that has used another skill
  is not offered Skill Defense. Skills after the roll: Defense and Flawless Evasion are asked after the
  dice. Buying a failed save (L220) is not counted as a skill (the book does not call it one).
* L260-L270 Defense: done [M skill_defense_three_of_four, R foe_5_hits_to_3_blocks].
* L276-L284 Make it Count!: the +1 critical with Dogfight done [M make_it_count]; its bonus action (an
  action for Skilled and Ace pilots) done [T make_it_count_bonus_action]. +1 critical even on a full
  miss: reading bonus_crit_needs_a_hit.
* L286-L293 Flawless Evasion, cost = round: done [M flawless_evasion, R flawless_evasion_machine_gun].
* L295-L364 Expanded Pilot Skills: a game setting (expanded_skills, off by default) offering Bullseye,
  Fire Vulcans!, Giant Slayer (+1 PEN; in the clash +1 more against a larger unit [C giant_slayer]), Take
  the Shot! (PEN 3+ ignores blocks; its range and targeting options: players) and the target's Persevere
  [R bullseye, fire_vulcans, persevere, expanded_skills_are_offered]; the force's pick of two (L297):
  players.  Done [C]: Accelerate (a Full Throttle with no action spent) [titan_power_and_accelerate];
  Improvise (a shot's evade dice, either side's clash defense dice; asked after the roll, then free for
  the turn) [improvise, improvise_in_the_clash]; Mayhem! (a Shoot skill after its melee: 3 shots, +1 PEN
  at the unit it fought) [mayhem]; Shooting Counterattack (offered on the result of a shot the unit
  survives) [shooting_counterattack]; All-Out Attack (3 actions for shooting or Power; a Titan's +5 Power
  and the d10 as its turn ends, the L354 example) [all_out_attack]; Tear through the Ranks (offered on a
  kill, shooting or melee; only the first melee attack's Momentum) [tear_through_the_ranks,
  tear_through_the_ranks_in_melee].  Unbeaten: text lost (L343-L345), not built.
* L366-L475 pilot traits: tiers checked [M pilot_traits_by_tier]; done: Renowned, Legendary [M
  pilot_traits_on_activation], Seasoned Veteran, Headhunter [R seasoned_veteran], Defiant (+1 Momentum for
  melee, +1 hit on Return Fire) [R defiant], Gunnery Expert [R gunnery_expert], Close Combat Expert and
  Master [M close_combat_master], Mechanics Expert / Fearsome (+1 PEN or +100 DMG, Fearsome +1 Momentum a
  kill) [R mechanics_expert, noble_fearsome], Noble's +3 [R], Immortal's Round 2+ Momentum [R],
  Untouchable's and Killer Instinct's 2-for-1 Skill Defense and Killer Instinct's +1 hit [R untouchable,
  killer_instinct], Immortal's 2-for-1 against a shooter within 16" (asked) [C immortal], Merciless Melee's
  +2 hits, Prodigy's and Legendary's Round 1/3/5 action; Fighting Spirit, Heroic Spirit and Lone Wolf,
  actions offered as the unit activates (Momentum or free Focus; Lone Wolf's "allies 16 inches away" the
  players' answer) [T fighting_spirit, heroic_spirit, lone_wolf]; Untouchable's once-a-game d10 blocks, an
  action [T untouchable]. Furious Fusillade's split first attack (its +16": players), Merciless Melee's
  second clash, at a new target: done [C furious_fusillade, merciless_melee]. Prodigy's two different skills
  a turn: done (skills.skill_blocked, L469). Lost texts (Noble's first half, Elusive, three trait names,
  L394, L408, L426-L451): not implemented, no effect invented (ambiguity 25).
* L477-L501 Commander traits: Vigilant Leader, Bold Leader, Impressive Skill, Resourceful done [M
  commander_traits]; Unyielding's rerolled failed saves, Galvanizing Display, Rallying Leader done [R
  unyielding, galvanizing_display]; Three Times as Fast! (3 evade dice again a weapon, worst first; its
  Move +5" on the card), Commando (a shot at it asks whether it is the closest model), Decimator (a
  second turn against 10+ units) done [T three_times_as_fast, commando, decimator]; Unyielding's
  once-a-game last stand on 1 HP (the odds say 0% destroyed until it is spent) [T unyielding]; Fleet
  Commander (L499-L501: a warship given the Commander's trait): Vigilant Leader's +1 Accuracy for the
  warships only, a Commander's for the rest (L480) done [C fleet_commander]; the other traits read the
  unit that carries them (Resourceful and Rallying Leader do not double, L495-L496).
* L504-L535 Henry and Kara: done, every number [M henry_machine_gun, henry_clashes_with_kara].
* L538-L571 Tactical Advantage (+1 critical, never stacked): the attacker's choice, done [M
  tactical_advantage, R blindside_and_high_ground, revenge]; Shutdown automatic [M shut_down]; High
  Speed Attack gated on a Full Throttle and a [CC] weapon [R fire_cricket]; High Ground's ACC bonus
  (L550), Outnumber, Revenge's once-a-game declaration: players (the Accuracy modifier field).
* L573-L579 Stun: done [M arc_whip_stuns].
* L581-L589 AOE: players fire at each unit in the template (one shot each); the Momentum cap holds.
* L591-L600 remote weapons: fired for 1 Momentum (ambiguity 21), a Blindside, an Ace's 10s shoot them
  down: done [R remote_weapons].
* L602-L635 cover: a choice, 1 block (2 vs PEN 0), not with shields: done [M cover_and_shield].
* L639-L645 energy weapons through small cover -3 PEN, underwater PEN 0: done [R beam_cannon];
  underwater cover and surfacing: players.
* L647-L671 Destroying Terrain: a game setting; "Hit terrain" rolls the cover's one save (5+, 7+ melee
  or AOE, 9+ anti-cover, large +2), every example [T destroying_terrain]; which piece, where an AOE
  stops: players. L694-L700 Gritty Battles: a game setting, double HP and a mobile suit's Shield broken
  on its 5th use [T gritty_battles]. L673-L692 Battle Damage: a game setting; the action "Battle damage"
  rolls d10 + Sv once a failed save: cockpit, a Titan's explosion (1000, or 500 x Frame by the reading
  explosion_by_frame, ambiguity 23; or 5 Power), the attacker's pick on a mobile suit's critical, Head
  (ACC -1), Propulsion (Evade -1), Disable (the Shield first, else a shooting weapon the attacker picks;
  a trait: players), 10+ nothing [T battle_damage: L689, L691]; Head's Blindside within 16", Move -4",
  Flight/Transform: players. L734-L788 Climactic Events: a game setting, one a side once a game (the
  first used is the pick): Narrow Escape (offered after a shot's dice and with the defender's split),
  It's Gone Berserk!!!, Moment of Clarity done [T climactic_events]; a warship, splitting no dice, offered
  its Narrow Escape as it answers a clash (hidden or asked) [F a_warship_makes_its_narrow_escape]; Last
  Shooting (offered on the result that destroys the unit, until that unit turn ends), Pyrrhic Victory
  (asked of the clash's defender: hits taken after blocks and Skill Defense), Bonds that Transcend Time
  & Space, The Will to Power! (a shot's: asked after the dice; up to 3 plain hits made criticals) done [C
  last_shooting, pyrrhic_victory, bonds, will_to_power]; the self-destruct Event (name lost): players.
  L702-L732 the small-scale mode (heading lost): a game setting: Fearless (an action as a Frame
  3+ unit activates; out of cover: the players' say), Expert Evasion in place of Flawless Evasion (an
  Ace's action, Skill Defense still offered), the mobile suit Shield's 5th use, Mobility's evade die
  rolled again, Flagship's round-end Momentum [T small_scale_mode]; Rally's d10 x 100 HP as a Titan's
  turn starts [T small_scale_rally]; Mobility's extra Move for 1 Momentum, a Titan's Focus action to
  Rally itself or an ally, Down but not out (a d10 as the round ends, once), Knockback (d10", then what it
  hit: 1000 into terrain, 1000 to both into a unit; High Speed Attack +5" and Slow and Laborious -5":
  players; Slow and Laborious is named only at L726, never defined, so no unit carries it), Hit & Run's
  5" named in the log [I knockback, down_but_not_out]; Charged & Ready (three free
  Ready Weapons in Round 1) [F charged_and_ready]; the 5-unit limit named under the title [F
  board_launch_and_repairs].
* L790-L850 Influence: a game setting; starting Influence by size (none at 500 points, 1500 as 1000:
  ambiguity 15), +1 a round end, +1 for the enemy Commander, cap 10 [T influence]; one Standard Command
  a round at its start; Inspiring Speech, Warning, Advancing Bulwark, Overwhelming Firepower, The
  Valiant done [T commands]; Lightning Raid (+1 Evade within 16", asked), Infantry Ambush, Ambush! (the
  Influence; arrival: players), Reinforcements (100 points an Influence), the Overwatch Command done [C
  lightning_raid, infantry_ambush, ambush_and_reinforcements, overwatch_command]; Guardian (offered with
  Skill Defense; the ally's own saves; its reach: players), Coordinated Attack! (given as a unit's turn
  ends: one or two more act at once, shooting or melee, Return Fire held until they are done) done [C
  guardian, coordinated_attack], Missile Screen! (a weapon's missile mark; Overwatch V, then used up)
  done [C missile_screen]; Opening Bombardment: text lost.
* L852-L1086 Stellar Warfare: a warship is a unit kind: no melee attacks, AA DEF defends (L954), every hit
  makes a save (L1009-L1011) [M musarl_warship], each failed save destroys a weapon system of the attacker's
  pick (L1009) [F musarl_loses_two_cannons, T green_viking]. A battle in space is a game setting (space)
  offering Outmaneuver / Bridge Attack (L906-L932): the dice by roles, Move and escort, successes by tier, a
  tie ends it (ambiguity 29), TA or Blindside on the attacks this turn, the defender's Overwatch with +3
  shots, +3 PEN and the ship's ACC -2, 500 a die of AA DEF [T green_viking, outmaneuver; the example's 9
  saves omit the Blindside's critical, which the app adds]; the 10" and the target's range: players. The
  warship phase (L949-L951): warships act after every other unit, the roll-off's winner first; a warship
  attacked before its phase owes no Return Fire (ambiguity 40) [T warships_act]. Warship actions
  (L962-L993): Ready Weapons (missiles and [AA] start readied, a stun hit un-readies: read as every weapon;
  the reading stun_unreadies_one: one a hit), All Weapons Fire! once a turn then each readied weapon with no
  action, Target Lock (+16" to the round's end; a unit that is not a warship beyond Sensors needs it:
  asked), Reload!, a weapon's reload rounds, [AA] only near an ally (asked), All Ahead Full! = Full
  Throttle's +3" (ambiguity 30) [F saronic_cruiser, aa_weapons, missiles_reload, warship_actions]; range and
  arcs: players. M-Particles, a game setting: beyond Sensors + 10" no criticals, any evade die again, no
  Battle Damage [F m_particles]. The sortie tags (L862): a profile's [G] or [S], on its card; the units a
  battle bars ([G] in space, [S] on the ground, low gravity included, L893) named in the status, the players
  leave them out [F sortie_tags]. Hangars (2 x Size, 1 for Size 0-1: ambiguity 28; shown in space), boarding
  at a turn's end or as the battle begins, a launch a warship as a round begins, repairs at the round's end
  (three units, 200 x Frame HP and one Battle Damage, first of head, propulsion, shield, weapon) [F
  board_launch]; a warship crashing into terrain (L960) [I warship_crashing]. Captains (L1017-L1086): traits
  by tier [F captain_traits_by_tier]; Orders as the round begins, once, Sharp Witted's new one (Evasive: an
  evade die again a weapon; Main Battery: +1 Accuracy in the named quadrant, asked on the shot; Close Range:
  +1 block in the clash; Battle Hardened: Target Lock +32", [AA] +1 Accuracy; AA DEF (Melee) +1 Accuracy,
  read as a warship's AA DEF dice blocking on 4+ (L1035) [F battle_hardened_close_range]) [F
  captains_orders, battle_hardened]; falling back, turning, +5" Move: players. Renowned, Legendary
  (Momentum, Round 1/3/5 action), Discerning, Daring (asked), Determined and Fearless (+1 Momentum or
  Accuracy), Expert Gunnery, Expert Engineering, Fearsome (PEN or damage, Momentum a kill), Fearless's free
  Ready, Sharp Witted in the first phase [F captain_traits, discerning, fearless_captain]; a Renowned or
  Legendary captain's Influence in place of Momentum, taken as the ship activates with the Influence module
  on (L1045, L1071): done [F a_captains_bonus_as_influence]. A warship's failed saves in a clash destroy
  weapon systems too [F clash_too]. Ships ignore engagement range and disengage freely (L955) [F clash_too].
  Deployment (the table's length, its edge, 6" from the hull, L864-L869), a ship's forward moves and
  45-degree turns (L958-L959), sunken ships as cover (L1013-L1015): players. Space inertia: a Basic pilot's
  unit pays 1 Momentum to turn about, once a turn; Skilled and Ace free; warships never backwards
  (L883-L886, L958) [I argonaut_hit_and_run]. Low Gravity, a game setting: the fall check on 1-4, no fall
  damage (L897-L898) [I low_gravity_fall]. Skilled and Ace pilots' Move +5" in space and low gravity (L882,
  L895): their mobile suits and Super Titans named in the game's status [I
  skilled_and_ace_pilots_move_5_more]; climbing, a warship's High Ground immunity and Move -5" to attack one
  (L896-L897): players.

Worked examples as tests: L93, L146-L149, L163, L165, L167, L181, L199-L214, L225, L266, L270, L284, L293,
L354 (All-Out Attack: Dangerbear's extra weapons, +3 Power, the d10 as its turn ends), L492, L504-L534, L552,
L560, L571, L579, L642 (PEN 5 to 2; the building's value is lost), L662-L667 (the six cover saves), L861 (a
Colossal Size 3 unit takes 6 hangar slots), L689, L691 (Battle Damage), L838 (a Machine Gun's Overwatch III: 3
shots, in Overwatch and the Overwatch Command), L877 (M-Particles: [2,4] rolled again to [1,9], one hit, 1000
by save_replaces_damage), L936-L940 (the Bridge Attack: the rolls, PEN 3, a save for every hit, weapon systems
lost), L986-L989 (the Saronic Cruiser's readies, lock, volley and All Ahead Full!), L888-L889 (the Argonaut's
1 Momentum to move back), L1011 (three saves, two failed, two cannons lost).
Not tests: L364 (Tear through the Ranks: no numbers to check), L585 (AOE geometry), L626 (cover height):
their modules are not built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from core.game import Game
from core.systems.base import (
    ActionSpec,
    CardLine,
    CatalogueUnit,
    Change,
    Gates,
    PhaseStep,
    PhaseView,
    RuleSystem,
    SampleForce,
    UnitCard,
    UnitState,
    UnitView,
    Viewer,
    Violation,
    as_profile,
    read_options,
    role_fields,
)
from core.systems.mechastellar.actions import ACTIONS
from core.systems.mechastellar.commands import influence_on, influence_start
from core.systems.mechastellar.fleet import hangar_note, repairs
from core.systems.mechastellar.gates import REQUIREMENTS
from core.systems.mechastellar.modules import gritty_hp
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.samples import FORCES, SAMPLE_NOTE, SAMPLES
from core.systems.mechastellar.splits import split_view
from core.systems.mechastellar.state import MsState, MsUnitState, ms_state
from core.systems.mechastellar.turns import force_points, new_round_changes, round_refusal, starting_momentum
from core.systems.mechastellar.units import (
    CAPTAIN_TRAITS,
    KIND_LABELS,
    SHIELD_LABELS,
    SORTIE_LABELS,
    TIER_LABELS,
    TRAITS,
    Unit,
    tier_rank,
    total_actions,
    unit_violations,
)

__all__ = ["SYSTEM", "MechaStellar", "Unit"]

#: A warship's captain by tier (L1019).
CAPTAIN_LABELS = {"basic": "Basic", "skilled": "Skilled (Tier 1)", "ace": "Battle Hardened (Tier 2)"}

#: The small-scale mode's most units a side (L705).
SMALL_SCALE_UNITS = 5


def _unit(profile: BaseModel) -> Unit:
    return as_profile(Unit, profile)


def fast(u: Unit) -> bool:
    """Three Times as Fast!: Move +5" for a Commander that is not a warship (L486-L487)."""
    return u.commander == "three_times_as_fast" and u.kind != "warship"


def _zero_g_moves(game: Game) -> list[CardLine]:
    """In space and in low gravity, Skilled and Ace pilots' mobile suits and Super Titans gain Move +5"
    (L878-L882, L895): named for each side, the move itself the players'."""
    lines = []
    for side in game.sides:
        names = [
            g.name
            for g in side.units
            if not g.state.destroyed
            and (u := _unit_of(g.profile)).kind in ("mobile_suit", "super_titan")
            and tier_rank(u)
        ]
        if names:
            lines.append(CardLine(label=f'{side.name}: Move +5"', value=", ".join(names)))
    return lines


def _sortie_lines(game: Game) -> list[CardLine]:
    """Units whose sortie tag keeps them out of this battle (L862): [G] in space, [S] on the ground (a low
    gravity battle is a ground battle, L893).  Flagged for the players, who leave them out."""
    space = read_options(MsOptions, game.options).space
    barred = "ground" if space else "space"
    where = "in space" if space else "on the ground"
    lines = []
    for side in game.sides:
        names = [g.name for g in side.units if _unit_of(g.profile).sortie == barred]
        if names:
            tag = "[G]" if space else "[S]"
            value = f"{', '.join(names)} ({tag}: not {where})"
            lines.append(CardLine(label=f"{side.name}: cannot sortie", value=value))
    return lines


def _unit_of(profile: dict[str, object]) -> Unit:
    return Unit.model_validate(profile)


class MechaStellar(RuleSystem):
    """MechaStellar's contribution to the shared squad and game layer."""

    def catalogue(self) -> list[CatalogueUnit]:
        """Units of the app's own making (the book prints none)."""
        return self.samples_catalogue(SAMPLES, SAMPLE_NOTE, "L146-L1011")

    def sample_forces(self) -> list[SampleForce]:
        """Two 500-point forces of the sample units: a sample battle starts at once."""
        return [SampleForce(name=name, units=keys) for name, keys in FORCES.items()]

    def unit_cost(self, profile: BaseModel) -> int:
        """The points the players gave it (the book prints no costs, digest section 3)."""
        return _unit(profile).points

    def unit_violations(self, profile: BaseModel) -> list[Violation]:
        return unit_violations(_unit(profile))

    def card(self, profile: BaseModel) -> UnitCard:
        u = _unit(profile)
        lines = [
            CardLine(label="Move / Sensors", value=f'{u.move + 5 * fast(u)}" / {u.sensors}"'),
            CardLine(label="Accuracy / Evade", value=f"{u.accuracy} / +{u.evade}"),
            CardLine(label="Melee", value=f"{u.melee}d10"),
            CardLine(label="HP / ARM Sv", value=f"{u.hp} / +{u.save}"),
            CardLine(label="Actions", value=str(total_actions(u))),
            CardLine(label="Frame / Size", value=f"{u.frame} / {u.size}"),
        ]
        if u.power:
            lines.append(CardLine(label="Power", value=str(u.power)))
        if u.kind == "warship":
            lines.append(CardLine(label="Hangar / AA DEF", value=f"{u.hangar} / {u.aa_def}d10"))
        if u.shield != "none":
            lines.append(CardLine(label="Shield", value=SHIELD_LABELS[u.shield]))
        for w in u.weapons:
            if w.kind == "shooting":
                rf = f" RF+{w.rapid_fire}" if w.rapid_fire else ""
                value = f'R {w.range}" | {w.shots} shots{rf} | DMG {w.damage} | PEN {w.pen}'
                value += (
                    " | [AA]" * w.aa + " | missiles" * w.missile + f" | reload {w.reload}" * bool(w.reload)
                )
            else:
                dice = f" | ATK +{w.atk_dice}d10" if w.atk_dice else ""
                value = f"{'[CC]' if w.kind == 'cc' else 'Melee'} | DMG {w.damage} | PEN {w.pen}{dice}"
            lines.append(CardLine(label=w.name, value=value))
        pilot = TIER_LABELS[u.pilot.tier] + (f" ({u.pilot.name})" if u.pilot.name else "")
        if u.kind == "warship":  # Skilled and Battle Hardened Captains (L1019)
            pilot = CAPTAIN_LABELS[u.pilot.tier] + (f" ({u.pilot.name})" if u.pilot.name else "")
        notes = [f"{'Captain' if u.kind == 'warship' else 'Pilot'}: {pilot}"] + [
            TRAITS[t][0] for t in u.pilot.traits
        ]
        notes += [CAPTAIN_TRAITS[t][0] for t in u.captain]
        if u.roles:
            notes.append("Roles: " + ", ".join(r.replace("_", " ").capitalize() for r in u.roles))
        if u.commander != "none":
            notes.append("Commander: " + u.commander.replace("_", " ").capitalize())
        if u.sortie != "any":  # L862
            notes.append(SORTIE_LABELS[u.sortie])
        return UnitCard(title=u.name, kind=KIND_LABELS[u.kind], lines=lines, notes=notes)

    def unit_view(self, game: Game, side: int, index: int, viewer: Viewer = None) -> UnitView | None:
        """A unit's split for a clash declared with hidden splits: private to its player (L519)."""
        return split_view(game, side, index, viewer)

    def initial_state(self, profile: BaseModel) -> UnitState:
        u = _unit(profile)
        return UnitState(
            max_damage=u.hp,
            counters={"actions": 0, "stun": 0},
            extra=MsUnitState().model_dump(mode="json"),
        )

    def starting_resources(self, forces: Sequence[Sequence[BaseModel]], side: int) -> dict[str, int]:
        """Momentum by the game's size (L240-L242; Resourceful +1, L496); Influence 0 until the Influence
        module is switched on, which gives the starting Influence (:mod:`.commands`)."""
        size = max((force_points(f) for f in forces), default=0)
        bonus = any(_unit(p).commander == "resourceful" for p in forces[side])
        return {"momentum": min(10, starting_momentum(size) + bonus), "influence": 0}

    def start_round(self, game: Game) -> list[Change]:
        """Round end: +1 Momentum each side (L245; a living Resourceful Commander +2, L496); roll-off due."""
        resourceful = [
            s
            for s, side in enumerate(game.sides)
            if any(not g.state.destroyed and g.profile.get("commander") == "resourceful" for g in side.units)
        ]
        return new_round_changes(game, resourceful, repairs)  # a warship's repairs (L1004)

    def gates(self, game: Game, spec: ActionSpec, raw: Mapping[str, Any]) -> Gates:
        """The requirements' gates, and "Rapid fire range" for a weapon with no Rapid Fire bonus: it adds
        the weapon's RF+X shots within half its range (L91-L93), so without one it is greyed with the
        reason (and refused when sent), for the weapon the input names."""
        out = super().gates(game, spec, raw)
        fields = spec.input.model_fields
        actor = role_fields(spec.input)["actor"]
        if "band" not in fields or "weapon" not in fields or actor is None:
            return out
        ref, weapon = raw.get(actor), raw.get("weapon", 0)
        if not isinstance(ref, str) or not isinstance(weapon, int) or isinstance(weapon, bool):
            return out
        try:
            unit = Unit.model_validate(game.unit(ref)[2].profile)
        except ValueError:
            return out
        if 0 <= weapon < len(unit.weapons) and not unit.weapons[weapon].rapid_fire:
            why = f"{unit.weapons[weapon].name} has no Rapid Fire bonus (RF+X, L91-L93)"
            out.values.setdefault("band", {}).setdefault("rapid", why)
        return out

    def phase(self, game: Game) -> PhaseView:
        """The round: the roll-off, then alternating unit turns, then the next round (L30-L43)."""
        st = ms_state(game)
        turn = game.state.active_side
        who = game.sides[turn].name if turn is not None else ""
        steps = [
            PhaseStep(
                key="roll_off",
                label="Roll off",
                action="roll_off",
                sheet=True,
                hint="Both sides roll a d10: the higher goes first (L32).",
            ),
            PhaseStep(
                key="turns",
                label=f"{who} activates a unit" if who else "Unit turns",
                hint="Pick a unit of the side in turn; end its turn when it is done (L40-L41).",
            ),
            PhaseStep(key="round_end", label="Next round", hint="+1 Momentum each side (L245)."),
        ]
        if not st.rolled_off:
            current = 0
        elif turn is not None or st.turn_unit:
            current = 1
        else:
            current = 2
        return PhaseView(steps=steps, current=current, round_refusal=self.round_refusal(game))

    def round_refusal(self, game: Game) -> str:
        """A round ends only when every unit has activated (L26): Next round is refused until then."""
        return round_refusal(game)

    def status(self, game: Game) -> list[CardLine]:
        st = ms_state(game)
        lines = [CardLine(label="Round", value=str(game.round))]
        lines.append(
            CardLine(
                label="Momentum",
                value=", ".join(f"{s.name} {s.resources.get('momentum', 0)}" for s in game.sides),
            )
        )
        if influence_on(game):
            lines.append(
                CardLine(
                    label="Influence",
                    value=", ".join(f"{s.name} {s.resources.get('influence', 0)}" for s in game.sides),
                )
            )
        if read_options(MsOptions, game.options).space:  # L859-L861
            lines += [
                CardLine(label=f"{side.name}'s hangars", value=note)
                for i, side in enumerate(game.sides)
                if (note := hangar_note(game, i))
            ]
        if read_options(MsOptions, game.options).space or read_options(MsOptions, game.options).low_gravity:
            lines += _zero_g_moves(game)
        lines += _sortie_lines(game)
        if read_options(MsOptions, game.options).small_scale:  # at most 5 units a side (L705)
            lines += [
                CardLine(
                    label=f"{side.name}'s force",
                    value=f"{len(side.units)} units: the small-scale mode allows 5",
                )
                for side in game.sides
                if len(side.units) > SMALL_SCALE_UNITS
            ]
        if not st.rolled_off:
            lines.append(CardLine(label="Next", value="roll off for the round"))
        elif st.return_fire:
            names = " or ".join(game.unit(r)[2].name for r in st.return_fire)
            lines.append(CardLine(label="Return Fire", value=names))
        return lines

    def settle(self, game: Game) -> list[Change]:
        """HP at or past the total destroys; under half marks the unit for the traits that read it (L390).
        Gritty Battles switched on or off doubles or halves every unit's HP (L699)."""
        out: list[Change] = gritty_hp(game) + influence_start(game)
        if out:
            return out
        for s, side in enumerate(game.sides):
            for u, g in enumerate(side.units):
                st = g.state
                path = ["sides", s, "units", u, "state"]
                if st.damage >= st.max_damage and not st.destroyed:
                    out.append(Change(path=[*path, "destroyed"], value=True))
                below = (st.max_damage - st.damage) * 2 < st.max_damage
                if below != ("below_half" in st.conditions):
                    conds = [c for c in st.conditions if c != "below_half"] + (
                        ["below_half"] if below else []
                    )
                    out.append(Change(path=[*path, "conditions"], value=conds))
        return out


SYSTEM = MechaStellar.of_package(
    __name__,
    Unit,
    actions=ACTIONS,
    options=MsOptions,
    state_model=MsState,
    unit_state_model=MsUnitState,
    requirements=REQUIREMENTS,
)
