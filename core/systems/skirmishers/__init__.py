"""Skirmishers v0.4 (004_63417322d25a2f10.txt): the rule system as the shared layer sees it.

The package reads in the order the book plays: :mod:`.catalogue` (every weapon, armor, suit and
vehicle table as data), :mod:`.units` (the unit card a player fills in, its slots and PV),
:mod:`.samples` (a sample squad for each side of the app's own making: the book's cards are
blank), :mod:`.tracks` (the three cards' HP rows and the card walk), :mod:`.walk` (a shot, a
burst and their exact odds), :mod:`.fire` (the target number and its modifier tables),
:mod:`.damage` (what marks do at once), :mod:`.turn` (the IGOUGO loop, AP, arcs, moves) and
:mod:`.options` (a toggle for each optional rule and the readings of unclear rules),
:mod:`.vehicles` (riders, driving, control checks, wipe-outs, rams, melee from a vehicle),
:mod:`.crew` (crew-served weapons), :mod:`.clouds` (smoke and fire over the turns) and
:mod:`.terrain` (advanced terrain, structures), :mod:`.gear` (exchanging weapons and jet packs).

Rule-by-rule checklist
======================

``T`` implemented and tested (tests/test_skirmishers*.py; the name of the test carries the line),
``R`` a named reading (an option of the game, :mod:`.options`, digest section 9), ``P`` left to the
players (the app takes their word: it does not model the map), ``-`` not in the app yet.

System and infantry (L57-L131)
  T  IGOUGO, who goes first by a die or the players (L71-L73); arcs removed as the side's turn starts (L76)
  T  activations, then the side's explosives, then the turn passes (L77-L84)
  P  the map, dots and distances, levels (L63-L69); no win conditions in the book (AMB-63)
  T  the trooper card: HP row, AP row as offsets from 8, Mods row, armor row (L94-L129, AMB-3, AMB-4)
  T  current HP right of the right-most crossed cell (L123); AP and mods from that column (L125-L127)
Weapons and equipment (L133-L207)
  T  every weapon row as data with its line: primary, secondary, melee, explosive, crew-served,
     launchers, incendiaries, power armor (L141-L188, L358-L363, L403-L431, L867-L871, L902)
  T  loadout slots, fists and knife always (L131-L194)
  T  melee with the active weapon: fists always, the knife as a bayonet from an active gun that has
     one, the active gun as a club (Club row), other melee weapons after the 3 AP change (L131, L320,
     AMB-60)  R  ``bayonets`` (every rifle- and SMG-class gun, or only Rifle and SMG, AMB-59)
  T  body armor 2/4/6 cells, -1/-2/-3 AP, taken before HP, stops bludgeoning (L196-L207, AMB-8)
  T  PV shown as a total, information only (AMB-1)
Movement and special actions (L209-L253)
  T  AP budget and the 8 AP cap on movement (L211-L215, L553); the move's AP is the player's (P)
  T  prone 1 AP, stand 2 AP (L237-L238); change weapon 3 AP, grenade launcher switch free (L246, L417)
  T  taking a weapon from a friend or the fallen (6 AP) into a free slot of the card, dropping it
     (0 AP), picking it up (6 AP: the book gives no price), rounds go with it (L247, L253)
  T  hand grenades taken from a trooper, as many as fit in the 4 it carries (L131, L253, L419)
  T  body armor and a sneak suit taken (6 AP), taken off (0 AP) or picked up (6 AP), one of each
     worn, the armor's cells or marks and its AP cost going with it; grenades dropped (0 AP) and
     picked up as many as fit (L198, L200-L207, L253, L384, L517)
  T  power armor exchanges only its secondary, a standard infantry weapon (L877, L889, L253): not
     its suit, primaries or jet pack (L839, L855, L861), and no grenades (L857, L908)
     R  ``power_armor_gear`` (off: power armor exchanges nothing; the book is silent)
Combat (L255-L344)
  T  firing arcs 30/60/150 degrees, shots times the multiplier, removed at the last shot (L259-L274, L314)
  T  reaction fire offered as a unit moves (L263-L267, L286); the players judge the arc (AMB-17, P)
  P  line of sight and the count of obstructions (L276-L282, AMB-14, AMB-15)
  T  the TN: base 6, long +2, cover +1 each, prone rows, damage modifier (L290-L304)
  T  the card walk: first cell by 2D6, crossed cells skipped, bludgeoning after lethal (L306-L310,
     AMB-5-AMB-7); exact odds against brute force
  T  collapse when spent AP reaches the new max (L312, AMB-9)  R  ``collapse_literal`` (as printed)
  T  one reaction attack (one shot) per firer per target for each dot it activates on, enters or
     stands up on; standing up lets only firers that have not attacked it there fire (L267, L288,
     AMB-16, AMB-62); a flyer once a dot flown (L596, AMB-42); a vehicle and its rider together once
     an AP of a segment (L734)
  T  combat actions after movement within the AP, no arc after an explosive (L78, L257, L328)
     R  ``one_combat_action`` (one a turn, AMB-19)
  T  melee: 5 AP, resolved when the target activates, base 4, no cover (L316-L324, AMB-60, AMB-61)
  T  fists half the max AP in bludgeoning, rounded down (L318, AMB-58)
  T  explosives: token at the end of the turn, TN the AP paid, doubled prone, stairs 3 AP, satchel
     planted for 3 AP (L326-L340, AMB-20, AMB-21); scatter 1 dot in a 1D6 direction (L344, AMB-22)
     R  ``scatter_distance`` (1D6 dots for thrown grenades)
  P  who stands in each ring, shielding, extra level distance (L342): marked with Take damage
Advanced combat (L348-L573), each a toggle
  T  crew-served: crew count (the book's example: a semi-portable laser needs one more trooper),
     4 AP each to set up or break down, 60-degree burst arc, turned for
     4 AP, kept while set up (L356-L380, AMB-29-AMB-31); taken over for 6 AP once its gunner dies
     or leaves it (L374, L378)
  T  advanced body armor: chosen columns, lethal half- then fully crosses the armor cell, bludgeoning
     ignored only there (L382-L393, AMB-66, AMB-71); toggle ``advanced_armor``
  T  launchers base 6, ammunition, extra ammunition doubles explosives (L399-L421)
  T  incendiaries; ranged ones do not scatter (L423-L441); fires tracked until the end of the next
     full round (AMB-26) R ``fire_lasts``; 1X entering, 8X ending on a burning dot offered (L439)
  T  smoke: 1 dot around, 2 at the end of the side's next turn, lifts after 12 turns of its side
     (L443-L452, AMB-27, AMB-28) R ``smoke_lasts``; +3 a smoky dot on the line (P: the count)
  T  advanced terrain: wire 6 AP, 1D6 bludgeoning, entangled on 4-6 and again each turn, +1 to its
     attacks (L479, L489, AMB-37); deep water with one weapon, no fire, +1 to hit (L483-L491);
     trench counts as prone (L481, AMB-36); tunnel hides from outside, +2 inside (L481, L490)
  P  rough, swamp (and as cover), walls, contours, shallow water: their AP in Move (L462-L477, AMB-35)
  T  +2X to swimmers in every ring of an explosion, added by Take damage (L485)
     R  ``water_blast`` (also troopers the players say stand in shallow water, AMB-34)
  T  movement fire 2 AP and +2 (L494-L509); the target's free drop prone right after it (L498)
  T  sneak suit +1 at long range (L515-L522, AMB-67); large targets -2 for explosives (L524-L531,
     AMB-45: the player says the target is large)
  T  structures: toughness per dot, breached above it, rough terrain (L533-L545, AMB-64)
  T  experience -1/0/+1/+2 AP (L551-L561, AMB-40)
  T  morale: 4 dead, experience TN, +1 a death beyond 4, leader's leadership (L563-L573); the result
     is recorded, the players apply it (AMB-38) R ``morale_counts_out`` (AMB-4)
  T  morale falls due at the 4th death and each later one, offered then (AMB-38)
     R  ``morale_when`` (once in each of the squad's turns while 4 or more are dead)
Advanced mobility (L577-L807)
  T  jet pack: -2 AP, 3 AP (0 in power armor), once a turn, 6-16 dots, +2 to hit a flyer, falls
     prone when hit (L583-L596, L881, AMB-41, AMB-42)
  T  a hand grenade dropped from the jet pack at base 5, resolved with the side's explosives (L598)
  T  removing or fitting a jet pack 5 AP, taking another's 6 AP, its -2 AP with the wearer (L600-L605)
  T  vehicle card: HP row 12-0 and DX, best mode by column, mods on control checks and mounted
     weapons, armor, speed, handling, signature (L613-L662, AMB-43)
  T  mount or dismount 2 AP, switch on or off 1 AP; one rider, passengers on an assault vehicle
     (L676-L682, L803)
  T  movement modes from the driver's AP and the vehicle's column; segments: start 1, move 1, stop
     2, turns 0/1/2 AP; 8 AP of movement with the rider's (L684-L709, AMB-51)
  T  control checks: 120 and 180 degree turns 6/9, stops 4/4/6/8, both damage mods and handling
     (L711-L728, AMB-49)
  T  reaction fire once a segment, at the vehicle or its rider, signature on the vehicle
     (L730-L734, L656); the players say whether the segment starts or ends in the arc (P)
  T  wipe-out on a failed check, on damage ruling out the mode, on the driver's death, on a mode
     left short; skid 1 or 2 AP of dots, prone, damage 0/1/2 or the ram's if it hits (L736-L759,
     AMB-46, AMB-47), marked on the vehicle and its riders in one action once the players say where
     the skid ended (P); crawl out 3 AP, lift 3 AP (L765-L771)
  T  vehicle damage: armor first, no bludgeoning, 2D6 first cell (L740-L742); not hurt by fire (L738)
  T  ramming 1X/3X/5X, the rammer too once its armor is gone, control check 6; a rider is never
     rammed (L775-L786)
  T  melee from a moving vehicle: +2, +0/1/2X by mode, then a control check 6 (L788-L797, AMB-48)
  T  riders fire as movement fire; a driver only secondary, SMG or explosives; passenger +1 with
     primaries; mounted weapons add the vehicle's modifier (L799-L803, L648, AMB-50); a free 30-degree
     arc for mounted weapons after moving (L807, AMB-52)
Power armor (L811-L908)
  T  its 18-cell track with starred cells, AP and mods, experience (L817-L853, AMB-10, AMB-11, AMB-55)
  T  suits 4/6/8 armor cells, primaries 1 or 2, jet pack but the heavy (L839, L855, L861)
  T  bludgeoning counts only to a knockdown at 9 in a turn (L841, AMB-53, AMB-57)
  T  starred cells: the opponent disables a weapon, two stop the jet pack (L845-L847, AMB-54)
  T  one arc per weapon (L895); machine gun burst; flamethrower and missile at the end of the turn
     (L875, AMB-56); power-armor fists (L902); no hand or smoke grenades (L857, L908)
  T  wire costs it 1 AP and never entangles (L883-L885)
Sample unit cards (L910-L996): blank in the book; the app's own sample squads, labelled (AMB-65),
  a sample battle of the two in one tap (``sample_forces``).
At the table: an action a unit lacks is greyed with the reason and refused (a vehicle's own moves
  are its driver's Drive, L684; Resolve melee only with an attack waiting, L318; Disable only on
  power armor with a starred cell crossed for it, L845; Crew-served weapon only with one to work,
  L356, L378; Control check only on a vehicle, L711).
  The side's explosives go off in the order the players choose, from the thrower's card; the End of
  turn step offers the first thrown (AMB-25).
Not in the app: line of sight, distances and who stands in a blast stay the players'.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from core.game import Game
from core.systems.base import (
    ActionSpec,
    CatalogueUnit,
    CellGrid,
    Change,
    EditorInfo,
    GridCell,
    GridRow,
    PhaseView,
    RuleSystem,
    SampleForce,
    UnitCard,
    UnitState,
    UnitView,
    Viewer,
    Violation,
    as_profile,
)
from core.systems.data import Samples, load
from core.systems.skirmishers.catalogue import CAT, WEAPONS
from core.systems.skirmishers.checks import control, control_odds, morale, morale_odds, morale_why
from core.systems.skirmishers.common import bonus, soldier
from core.systems.skirmishers.crew import crew, crew_need, crew_picks
from core.systems.skirmishers.explosives import explode, explode_odds, explosive_waiting, throw, throw_picks
from core.systems.skirmishers.fire import drop_need, drop_prone, fire, fire_need, fire_odds, fire_picks
from core.systems.skirmishers.gear import gear, gear_need, gear_picks, jet_need
from core.systems.skirmishers.melee import (
    melee,
    melee_picks,
    melee_waiting,
    resolve_melee,
    resolve_melee_odds,
    shallow_need,
    take_damage,
    take_damage_odds,
)
from core.systems.skirmishers.options import SkOptions
from core.systems.skirmishers.state import SkGame, SkUnit
from core.systems.skirmishers.terrain import structure, terrain, terrain_odds
from core.systems.skirmishers.tracks import TRACKS
from core.systems.skirmishers.turn import (
    acting_need,
    ap_need,
    arc_picks,
    change_picks,
    change_weapon,
    disable,
    disable_picks,
    end_turn,
    first_side,
    jet,
    move,
    move_picks,
    phase_view,
    set_arc,
    stance,
    stars_need,
)
from core.systems.skirmishers.units import Soldier, armor_cells, card, carried, grenades, pv, violations
from core.systems.skirmishers.vehicles import (
    REQUIREMENTS,
    drive,
    drive_odds,
    ram,
    ram_odds,
    ride,
    ride_melee,
    ride_melee_odds,
    ride_melee_picks,
    ride_picks,
    wipe_damage,
)

__all__ = ["SYSTEM", "Skirmishers", "Soldier"]

_SAMPLES = load(__package__, "samples.json", Samples)
SAMPLES: dict[str, Soldier] = {k: Soldier.model_validate(v) for k, v in _SAMPLES.units.items()}


def _s(profile: BaseModel) -> Soldier:
    return as_profile(Soldier, profile)


class Skirmishers(RuleSystem):
    def catalogue(self) -> list[CatalogueUnit]:
        """A sample squad for each side, of the app's own making (the book's cards are blank, L910)."""
        return self.samples_catalogue(SAMPLES, _SAMPLES.note, "L910-L996")

    def sample_forces(self) -> list[SampleForce]:
        """The two sample squads, Red and Blue, of the app's own making: a sample battle starts at once."""
        return [SampleForce(name=name, units=list(keys)) for name, keys in _SAMPLES.forces.items()]

    def unit_cost(self, profile: BaseModel) -> int:
        """The PV total of the card's weapons, information only (digest AMB-1)."""
        return pv(_s(profile))

    def unit_violations(self, profile: BaseModel) -> list[Violation]:
        return violations(_s(profile))

    def card(self, profile: BaseModel) -> UnitCard:
        return card(_s(profile))

    def initial_state(self, profile: BaseModel) -> UnitState:
        """A clean HP row, the armor cells the card leaves unmarked, ammunition as the tables give
        (doubled by extra ammunition for an explosive weapon, L419), the primary active."""
        u = _s(profile)
        trk = TRACKS[u.kind]
        ammo: dict[str, int] = dict(grenades(u))
        for key in carried(u):
            w = WEAPONS[key]
            if w.ammo and key not in ammo:
                ammo[key] = w.ammo * (2 if u.extra_ammo == key and w.explosive else 1)
        if u.extra_ammo in ammo and u.extra_ammo in grenades(u):
            ammo[u.extra_ammo] *= 2
        active = next(iter(carried(u)), "")
        st = SkUnit(cells=[0] * trk.cells, armor=armor_cells(u), ammo=ammo, active=active)
        return UnitState(max_damage=trk.cells, extra=st.model_dump(mode="json"))

    def unit_view(self, game: Game, side: int, index: int, viewer: Viewer = None) -> UnitView:
        """The card's HP, AP, Mods and Armor rows with their marks, as the book prints them."""
        unit = game.sides[side].units[index]
        u = soldier(unit)
        trk = TRACKS[u.kind]
        st = SkUnit.of(unit)
        col = trk.column(tuple(st.cells))
        marks = {0: "", 1: "half", 2: "full"}
        hp = [
            GridCell(text=trk.labels[i] or "", mark=marks[c], star=i in trk.stars, current=i == col)
            for i, c in enumerate(st.cells)
        ] + [GridCell(text=trk.end, current=col >= trk.cells)]
        rows = [GridRow(label="HP", cells=hp)]
        if u.kind == "vehicle":
            short = {"max": "Max", "cruise": "Crs", "min": "Min", "none": "0"}
            rows.append(GridRow(label="AP", cells=[GridCell(text=short[m]) for m in trk.modes]))
        else:
            b = bonus(game, u)
            rows.append(
                GridRow(
                    label="AP", cells=[GridCell(text=str(trk.max_ap(i, b))) for i in range(trk.cells + 1)]
                )
            )
        rows.append(
            GridRow(
                label="Mods",
                cells=[GridCell(text="-" if m is None else (f"+{m}" if m else "")) for m in trk.mods],
            )
        )
        total = armor_cells(u)
        if st.guard:  # advanced body armor: its marks under the columns it protects (L384)
            armor = [GridCell(mark=("off", "", "half", "full")[g + 1]) for g in st.guard]
            armor.append(GridCell(mark="off"))
        else:
            armor = [
                GridCell(mark="" if i < st.armor else ("full" if i < total else "off"))
                for i in range(trk.cells + 1)
            ]
        rows.append(GridRow(label="Armor", cells=armor))
        if col >= trk.cells:
            note = "Destroyed" if trk.end == "DX" else "Dead"
        elif u.kind == "vehicle":
            note = f"HP {trk.hp_label(col)}: best mode {trk.modes[col]}, +{trk.mod(col) or 0} to its checks"
        else:
            top = trk.max_ap(col, bonus(game, u))
            note = f"HP {trk.hp_label(col)}: {max(0, top - st.ap_spent)} of {top} AP left"
            note += f", +{trk.mod(col) or 0} to rolls"
        if col < trk.cells:  # the card's damage box: the HP row's cells crossed, of all it has (L123)
            note += f"; damage {col}/{trk.cells}: HP cells crossed, {trk.end} at {trk.cells} (L123)"
        if st.armor:
            note += f"; armor {st.armor}"
        elif st.guard and (left := sum(g in (0, 1) for g in st.guard)):
            note += f"; armor over {left} column{'s' if left != 1 else ''}"
        if st.kit.primary is not None or st.kit.secondary is not None:  # gear exchanged in play (L253)
            now = [WEAPONS[k].name for k in (u.primary, u.secondary) if k]
            note += "; now carries " + (" and ".join(now) or "no primary or secondary weapon")
        if st.kit.body_armor is not None:  # body armor taken or taken off in play (L253)
            worn = CAT.body_armor[u.body_armor].name
            note += f"; now wears {worn} body armor" if u.body_armor != "none" else "; body armor taken off"
        if st.kit.sneak_suit is not None:
            note += "; now wears a sneak suit" if st.kit.sneak_suit else "; sneak suit taken off"
        if st.kit.jet_pack is not None:  # a jet pack fitted, removed or taken (L600-L605)
            note += "; wears a jet pack" if st.kit.jet_pack else "; jet pack taken off"
        if st.arcs:
            note += "; " + ", ".join(
                f"{a.size}° arc {WEAPONS[a.weapon].name} "
                + ("(burst)" if a.shots == -1 else f"({a.shots} shots)")
                for a in st.arcs
            )
        return UnitView(grids=[CellGrid(title=f"{unit.name}'s card", rows=rows, note=note)])

    def game_violations(self, sides: Sequence[tuple[str, Sequence[BaseModel]]]) -> list[Violation]:
        """Two sides take turns (L71-L73)."""
        if len(sides) != 2:
            return [Violation(rule="two-sides", message="Skirmishers is played by two sides", ref="L71-L73")]
        return []

    def start_round(self, game: Game) -> list[Change]:
        raise ValueError("play passes by ending each side's turn: use End turn (L71-L84)")

    def phase(self, game: Game) -> PhaseView:
        return phase_view(game)

    def settle(self, game: Game) -> list[Change]:
        return []


def _first(*checks: Any) -> Any:
    """One requirement made of several: the first reason any of them gives ("" when none does)."""

    def check(game: Game, ref: str) -> str:
        for one in checks:
            if why := one(game, ref):
                return str(why)
        return ""

    return check


def _spec(name: str, label: str, resolve: Any, help: str, **more: Any) -> ActionSpec:
    return ActionSpec.of(name, label, resolve, help, **more)


ACTIONS = {
    "fire": _spec(
        "fire",
        "Fire",
        fire,
        "2D6 against the target number; a hit marks the target's card (L284-L314).",
        odds=fire_odds,
        picks=fire_picks,
        primary=True,
        headline=("damage", "hit_per_shot", "dead"),
        needs=("fire",),
    ),
    "drop_prone": _spec(
        "drop_prone",
        "Drop prone (free)",
        drop_prone,
        "Right after movement fire at it, its target may drop prone for 0 AP (L498).",
        rolls=False,
        needs=("drop_window",),
    ),
    "first_side": _spec(
        "first_side", "Who goes first", first_side, "One side is chosen at random to start (L73)."
    ),
    "end_turn": _spec(
        "end_turn",
        "End turn",
        end_turn,
        "The other side removes its arcs and activates (L76-L84).",
        rolls=False,
    ),
    "move": _spec(
        "move",
        "Move",
        move,
        "Pay the AP of the dots crossed; at most 8 AP on movement (L211-L239).",
        picks=move_picks,
        primary=True,
        rolls=False,
        needs=("move_ap",),
    ),
    "set_arc": _spec(
        "set_arc",
        "Set firing arc",
        set_arc,
        "30° 2 AP, 60° 4 AP, 150° 6 AP (L259-L274).",
        picks=arc_picks,
        rolls=False,
        needs=("acting",),
    ),
    "stance": _spec(
        "stance",
        "Go prone / stand",
        stance,
        "Prone 1 AP, stand 2 AP (L237-L238).",
        rolls=False,
        needs=("foot_acting",),
    ),
    "melee": _spec(
        "melee",
        "Melee",
        melee,
        "5 AP; resolved when the target activates (L316-L324).",
        picks=melee_picks,
        rolls=False,
        needs=("melee_ap",),
    ),
    "resolve_melee": _spec(
        "resolve_melee",
        "Resolve melee on it",
        resolve_melee,
        "Base 4, no cover, before the unit acts (L318, L324).",
        odds=resolve_melee_odds,
        needs=("melee_waiting",),
    ),
    "throw": _spec(
        "throw",
        "Throw or fire explosive",
        throw,
        "A token, resolved at the end of the turn (L326-L344).",
        picks=throw_picks,
        rolls=False,
        needs=("foot_acting",),
    ),
    "explode": _spec(
        "explode",
        "Resolve explosive",
        explode,
        "2D6 against its TN; a miss scatters (L336-L344).",
        odds=explode_odds,
        headline=("on_target",),
        needs=("explosive_waiting",),
    ),
    "take_damage": _spec(
        "take_damage",
        "Take damage",
        take_damage,
        "A blast ring, a ram, a wipe-out, fire or wire, from a 2D6 first cell.",
        odds=take_damage_odds,
        headline=("damage", "dead", "out_of_action"),  # no roll to hit: no chance of a hit to show
    ),
    "morale": _spec(
        "morale",
        "Morale check",
        morale,
        "Once 4 of the squad are dead, at that death and each later one (L565).",
        odds=morale_odds,
        needs=("morale_due",),
    ),
    "control": _spec(
        "control",
        "Control check",
        control,
        "A failure wipes the vehicle out (L711-L759).",
        odds=control_odds,
        needs=("vehicle",),
    ),
    "jet": _spec(
        "jet",
        "Jet pack",
        jet,
        "6-16 dots once a turn; 3 AP, 0 in power armor (L583-L607, L881).",
        rolls=False,
        needs=("jet_pack",),
    ),
    "disable": _spec(
        "disable",
        "Disable a weapon",
        disable,
        "A starred cell crossed: the opponent picks (L845).",
        picks=disable_picks,
        rolls=False,
        needs=("stars",),
    ),
    "crew": _spec(
        "crew",
        "Crew-served weapon",
        crew,
        "Set up, break down, turn: 4 AP each; take over one left or whose gunner died: 6 AP (L369-L380).",
        picks=crew_picks,
        rolls=False,
        needs=("crew_weapon",),
    ),
    "ride": _spec(
        "ride",
        "Vehicle: mount, switch on...",
        ride,
        "Mount or dismount 2 AP, switch on or off 1 AP (L676-L682); crawl out or lift it 3 AP (L765-L771).",
        picks=ride_picks,
        rolls=False,
        needs=("on_foot",),
    ),
    "drive": _spec(
        "drive",
        "Drive",
        drive,
        "A segment of the vehicle's movement, from its driver's AP; turns and stops may need a control "
        "check (L684-L728).",
        odds=drive_odds,
        needs=("vehicle", "driven"),
    ),
    "ram": _spec(
        "ram",
        "Ram",
        ram,
        "No roll to hit: 1X/3X/5X by mode, then a control check at 6 (L775-L786).",
        odds=ram_odds,
        needs=("vehicle", "driven"),
    ),
    "wipe_damage": _spec(
        "wipe_damage",
        "Mark a wipe-out",
        wipe_damage,
        "0/1/2X by mode to the vehicle and its rider, or the ram's 1/3/5X if the skid hit something "
        "(L752-L759).",
        needs=("vehicle",),
    ),
    "ride_melee": _spec(
        "ride_melee",
        "Melee from the vehicle",
        ride_melee,
        "At an enemy next to the rear dot: +2, +0X/+1X/+2X by mode, then a control check at 6 (L788-L797).",
        odds=ride_melee_odds,
        picks=ride_melee_picks,
        needs=("riding_moving",),
    ),
    "terrain": _spec(
        "terrain",
        "Wire, water, trench...",
        terrain,
        "Barbed wire 6 AP, 1D6 bludgeoning, entangled on 4-6 (L479); deep water 4 AP; trench 3; tunnel 2 "
        "(L462-L485).",
        odds=terrain_odds,
        needs=("not_vehicle",),
    ),
    "structure": _spec(
        "structure",
        "Damage a structure",
        structure,
        "A wall, building or tree dot is breached above its toughness (L533-L545).",
        rolls=False,
    ),
    "change_weapon": _spec(
        "change_weapon",
        "Change weapon",
        change_weapon,
        "3 AP (L246, L251).",
        picks=change_picks,
        rolls=False,
        needs=("not_vehicle",),
    ),
    "gear": _spec(
        "gear",
        "Exchange equipment",
        gear,
        "Take a weapon, grenades, body armor or a sneak suit from a friend or the fallen, or pick it up: "
        "6 AP; drop it or take it off: 0 AP (L247, L253). "
        "Jet pack: take off or fit 5 AP, take another's 6 AP (L600-L605).",
        picks=gear_picks,
        rolls=False,
        needs=("gear",),
    ),
}

SYSTEM = Skirmishers.of_package(
    __name__,
    Soldier,
    actions=ACTIONS,
    options=SkOptions,
    # The book's weapon tables price each weapon in a "PV" column (L141, L156, L167, L186, L358,
    # L403, L427, L867) and nothing else, so a card's PV is its weapons' (AMB-1) and a card with
    # none is worth 0 PV.
    editor=EditorInfo(
        data={
            "cost_word": "PV",
            "cost_short": "PV",
            "zero_cost": "no weapons: the book gives PV to weapons only",
        }
    ),
    state_model=SkGame,
    unit_state_model=SkUnit,
    requirements={
        **REQUIREMENTS,
        "drop_window": drop_need,
        "shallow_reading": shallow_need,
        "morale_due": morale_why,
        "gear": gear_need,
        "jet_pack": jet_need,
        "melee_waiting": melee_waiting,
        "fire": fire_need,
        "acting": acting_need,
        # a trooper's own-turn actions: not a vehicle's (it drives), then its turn and its AP, one reason
        "foot_acting": _first(REQUIREMENTS["not_vehicle"], acting_need),
        "move_ap": _first(REQUIREMENTS["not_vehicle"], ap_need(1, "Moving a dot", "L230", moving=True)),
        "melee_ap": _first(REQUIREMENTS["not_vehicle"], ap_need(5, "A melee attack", "L318")),
        "explosive_waiting": explosive_waiting,
        "stars": stars_need,
        "crew_weapon": crew_need,
    },
)
