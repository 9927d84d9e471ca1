"""Skirmishers v0.4 (004_63417322d25a2f10.txt): the rule system as the shared layer sees it.

The package reads in the order the book plays: :mod:`.catalogue` (every weapon, armor, suit and
vehicle table as data), :mod:`.units` (the unit card a player fills in, its slots and PV),
:mod:`.samples` (a sample squad for each side of the app's own making: the book's cards are
blank), :mod:`.tracks` (the three cards' HP rows and the card walk), :mod:`.walk` (a shot, a
burst and their exact odds), :mod:`.fire` (the target number and its modifier tables),
:mod:`.damage` (what marks do at once), :mod:`.turn` (the IGOUGO loop, AP, arcs, moves) and
:mod:`.options` (a toggle for each optional rule and the readings of unclear rules).
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
    GridCell,
    GridRow,
    PhaseView,
    RuleSystem,
    UnitCard,
    UnitState,
    UnitView,
    Viewer,
    Violation,
    as_profile,
)
from core.systems.data import Samples, load
from core.systems.skirmishers.catalogue import WEAPONS
from core.systems.skirmishers.checks import control, control_odds, morale, morale_odds
from core.systems.skirmishers.common import bonus, soldier
from core.systems.skirmishers.crew import crew, crew_picks
from core.systems.skirmishers.explosives import explode, explode_odds, throw, throw_picks
from core.systems.skirmishers.fire import fire, fire_odds, fire_picks
from core.systems.skirmishers.melee import (
    melee,
    melee_picks,
    resolve_melee,
    resolve_melee_odds,
    take_damage,
    take_damage_odds,
)
from core.systems.skirmishers.options import SkOptions
from core.systems.skirmishers.state import SkGame, SkUnit
from core.systems.skirmishers.terrain import structure, terrain, terrain_odds
from core.systems.skirmishers.tracks import TRACKS
from core.systems.skirmishers.turn import (
    arc_picks,
    change_picks,
    change_weapon,
    disable,
    disable_picks,
    end_turn,
    first_side,
    jet,
    move,
    phase_view,
    set_arc,
    stance,
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
            note = f"HP {trk.hp_label(col)}: {top - st.ap_spent} of {top} AP left"
            note += f", +{trk.mod(col) or 0} to rolls"
        if st.armor:
            note += f"; armor {st.armor}"
        elif st.guard and (left := sum(g in (0, 1) for g in st.guard)):
            note += f"; armor over {left} column{'s' if left != 1 else ''}"
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
        rolls=False,
    ),
    "set_arc": _spec(
        "set_arc",
        "Set firing arc",
        set_arc,
        "30° 2 AP, 60° 4 AP, 150° 6 AP (L259-L274).",
        picks=arc_picks,
        rolls=False,
    ),
    "stance": _spec("stance", "Go prone / stand", stance, "Prone 1 AP, stand 2 AP (L237-L238).", rolls=False),
    "melee": _spec(
        "melee",
        "Melee",
        melee,
        "5 AP; resolved when the target activates (L316-L324).",
        picks=melee_picks,
        rolls=False,
    ),
    "resolve_melee": _spec(
        "resolve_melee",
        "Resolve melee on it",
        resolve_melee,
        "Base 4, no cover, before the unit acts (L318, L324).",
        odds=resolve_melee_odds,
    ),
    "throw": _spec(
        "throw",
        "Throw or fire explosive",
        throw,
        "A token, resolved at the end of the turn (L326-L344).",
        picks=throw_picks,
        rolls=False,
    ),
    "explode": _spec(
        "explode",
        "Resolve explosive",
        explode,
        "2D6 against its TN; a miss scatters (L336-L344).",
        odds=explode_odds,
    ),
    "take_damage": _spec(
        "take_damage",
        "Take damage",
        take_damage,
        "A blast ring, a ram, a wipe-out, fire or wire, from a 2D6 first cell.",
        odds=take_damage_odds,
    ),
    "morale": _spec(
        "morale", "Morale check", morale, "Once 4 of the squad are dead (L565).", odds=morale_odds
    ),
    "control": _spec(
        "control", "Control check", control, "A failure wipes the vehicle out (L711-L759).", odds=control_odds
    ),
    "jet": _spec(
        "jet",
        "Jet pack",
        jet,
        "6-16 dots once a turn; 3 AP, 0 in power armor (L583-L607, L881).",
        rolls=False,
    ),
    "disable": _spec(
        "disable",
        "Disable a weapon",
        disable,
        "A starred cell crossed: the opponent picks (L845).",
        picks=disable_picks,
        rolls=False,
    ),
    "crew": _spec(
        "crew",
        "Crew-served weapon",
        crew,
        "Set up, break down, turn: 4 AP each; take over one left or whose gunner died: 6 AP (L369-L380).",
        picks=crew_picks,
        rolls=False,
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
    ),
    "structure": _spec(
        "structure",
        "Damage a structure",
        structure,
        "A wall, building or tree dot is breached above its toughness (L533-L545).",
        rolls=False,
    ),
    "change_weapon": _spec(
        "change_weapon", "Change weapon", change_weapon, "3 AP (L246, L251).", picks=change_picks, rolls=False
    ),
}

SYSTEM = Skirmishers.of_package(
    __name__,
    Soldier,
    actions=ACTIONS,
    options=SkOptions,
    state_model=SkGame,
    unit_state_model=SkUnit,
    requirements=REQUIREMENTS,
)
