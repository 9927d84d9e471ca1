"""GUNFRAME missions (L1498-1979) and the End phase (L720-750).

Missions are data (:data:`MISSIONS`, each with its rulebook line); the
``mission`` action stores the chosen one (rolled or picked) and the attacker in
``Game.state`` (:mod:`.wide`); the ``end_phase`` action does the End phase's tracker work:
Focus Points discarded (L738-740), suppression tokens lifted (L1318), victory
points scored as the mission says (L742-746), the sudden death check
(L1612-1614), the game length (L1598-1610) and, when the game ends, the
end-of-game scoring, attrition (L1622-1633) and the winner (L1635-1639).
What happens on the table (who controls which objective) the players report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.dice import DiceSource, Dist
from core.pool import table
from core.systems.base import ActionOdds, ActionResult, ActionSpec, Change, UnitState
from core.systems.gunframe.building import GunframeUnit, unit_cost
from core.systems.gunframe.effects import DeactivateBonus
from core.systems.gunframe.environment import end_odds_facts, end_of_turn
from core.systems.gunframe.links import nemesis_end
from core.systems.gunframe.options import options_of
from core.systems.gunframe.state import Edits, is_convoy, is_structure, profile_of, upgrades_of
from core.systems.gunframe.structures import BEACON_KINDS, BUNKER_KINDS, RAID_KINDS, tally
from core.systems.gunframe.turn import on_table
from core.systems.gunframe.upgrades import effects_of
from core.systems.gunframe.wide import game_value

if TYPE_CHECKING:
    from core.game import Game

MissionId = Literal[
    "carnage",
    "domination",
    "engagement",
    "investigate",
    "loot",
    "take_and_hold",
    "ambush",
    "breakthrough",
    "doomsday",
    "escort",
    "raid",
    "remember_love",
]
BasicId = Literal["carnage", "domination", "engagement", "investigate", "loot", "take_and_hold"]


@dataclass(frozen=True)
class MissionDef:
    """One mission: where it is in the book, how long it runs and how it scores (own words)."""

    id: str
    name: str
    kind: Literal["basic", "advanced"]
    roll: int
    ref: str
    setup: str
    scoring: str
    random_length: bool = False
    #: Turns played when the length is fixed (L1600); None: no limit (Doomsday, L1861).
    turns: int | None = 5
    variant: str = ""


MISSIONS: dict[str, MissionDef] = {
    m.id: m
    for m in (
        MissionDef(
            "carnage",
            "Carnage",
            "basic",
            1,
            "L1665",
            "Three objectives spread along the centre line; nobody keeps reserves.",
            "1VP per objective held, every End phase (L1679).",
        ),
        MissionDef(
            "domination",
            "Domination",
            "basic",
            2,
            "L1685",
            "An objective in the middle of each quarter and one at the centre.",
            "1VP per objective held, every End phase (L1697).",
            variant="Objectives sit on buildings (Defense 3, Armour 6) that can be razed (L1701).",
        ),
        MissionDef(
            "engagement",
            "Engagement",
            "basic",
            3,
            "L1703",
            'Each side puts two objectives in its own half, over 8" from the edges.',
            "Every End phase: 1VP per own objective held, 2VP per enemy one (L1713).",
        ),
        MissionDef(
            "investigate",
            "Investigate",
            "basic",
            4,
            "L1715",
            "Six points of interest away from the zones; searching one is a special action (L1728-1742).",
            "At the end: 1VP per objective held, 3VP for holding the prize (L1746).",
            random_length=True,
            variant="Booby traps: a search rolling 1 deals 1 damage to everything within D6 inches (L1750).",
        ),
        MissionDef(
            "loot",
            "Loot",
            "basic",
            5,
            "L1752",
            "Each side's HQ objective in its zone; six loot counters in between.",
            "Every End phase: 1VP per loot counter near your HQ, none if the enemy holds it (L1764-1766).",
            variant="Sabotage: score loot counters dumped at the enemy HQ instead (L1770).",
        ),
        MissionDef(
            "take_and_hold",
            "Take and Hold",
            "basic",
            6,
            "L1772",
            "One objective at the centre.",
            "Every End phase its holder scores the turn number in VP (L1786).",
            random_length=True,
        ),
        MissionDef(
            "ambush",
            "Ambush",
            "advanced",
            1,
            "L1806",
            "Loot at the centre, half the defenders near it and the rest in reserve (L1812-1819).",
            "At the end: 3VP for holding the loot; if nobody does, the defender scores 1VP (L1823).",
            random_length=True,
        ),
        MissionDef(
            "breakthrough",
            "Breakthrough",
            "advanced",
            2,
            "L1825",
            "Two objectives in the defender's edge zone (L1831-1839).",
            "The attacker wins at once holding either in an End phase; else the defender after turn 5 "
            "(L1843-1845).",
        ),
        MissionDef(
            "doomsday",
            "Doomsday",
            "advanced",
            3,
            "L1847",
            "A device in the defender's half; a D3 clock each turn (L1853-1872).",
            "The attacker wins by switching it off; the defender once the clock shows 12 in an End "
            "phase (L1876-1878).",
            turns=None,
        ),
        MissionDef(
            "escort",
            "Escort",
            "advanced",
            4,
            "L1880",
            "Three convoy vehicles (Speed 6, Defense 3, Armour 5, 4+) with the defender (L1886-1895).",
            "At the end: attacker 2VP per vehicle destroyed; defender 2VP per vehicle in the enemy zone, "
            "1VP per other survivor (L1899).",
            variant="Scrappy Survivors: two defending units are the cargo, worth 3/3/2VP (L1905).",
        ),
        MissionDef(
            "raid",
            "Raid",
            "advanced",
            5,
            "L1909",
            "Six targets (Defense 2, Armour 5) in the defender's half (L1915-1925).",
            "At the end: attacker 1VP per target destroyed, defender 1VP per survivor (L1929).",
            random_length=True,
            variant="Bunker Assault: three bunkers (Defense 3, Armour 12), 2VP each way, 1VP for a "
            "battered one (L1931-1949).",
        ),
        MissionDef(
            "remember_love",
            "Remember Love",
            "advanced",
            6,
            "L1953",
            "A basic mission plus two beacons (Defense 2, Armour 8); no Focus Points for attackers within "
            '8" of one (L1959-1975).',
            "The basic mission's VP, plus 2VP to the attacker per beacon destroyed (L1979).",
        ),
    )
}


#: A game played without a mission: five turns (L1600), attrition only.
NO_MISSION = MissionDef("", "No mission", "basic", 0, "L1600", "", "Attrition at the end (L1622).")


# --- game length (L1598-1610) --------------------------------------------------------------

LAST_TURN = 7  # L1610


def continues(turn: int, face: int) -> bool:
    """Random length: another turn if the die shows the turn number or more (L1604), never after 7."""
    return turn < LAST_TURN and face >= turn


def length_dist(turn: int = 4) -> Dist[int]:
    """Exact distribution of the last turn of a random-length game, rolling from the End phase of
    ``turn`` on (never before turn 4, L1604).

    >>> [str(length_dist().probability(t)) for t in (4, 5, 6, 7)]
    ['1/2', '1/3', '5/36', '1/36']
    """
    turn = max(turn, 4)
    if turn >= LAST_TURN:
        return Dist.constant(turn)
    later = length_dist(turn + 1)
    stop = Dist.constant(turn).scale(later.total)
    return Dist.die(6).bind(lambda face: later if continues(turn, face) else stop)


# --- choosing the mission ------------------------------------------------------------------


class MissionInput(BaseModel):
    """The mission for this game, picked or rolled (L1645, L1796), and who attacks (L1515-1520)."""

    model_config = ConfigDict(extra="forbid")

    mission: MissionId | None = Field(default=None, description="The mission; empty to roll for it.")
    roll_table: Literal["basic", "advanced"] = Field(
        default="basic", description="Which table to roll on when no mission is picked (L1647, L1796)."
    )
    variant: bool = Field(default=False, description="Play the mission's variant, if it has one.")
    basic: BasicId = Field(
        default="carnage", description="Remember Love: the basic mission played underneath (L1959)."
    )
    attacker_side: int = Field(default=0, ge=0, le=7, description="The side that attacks (L1517).")
    convoy_side: int | None = Field(
        default=None,
        ge=0,
        le=7,
        description="Escort: the side the three convoy vehicles join (L1886); empty for the side that "
        "does not attack in a two-side game.",
    )


#: The Escort convoy vehicle (L1890-1895): Speed 6, Defense 3, Armour 5, Pilot Skill 4+, no weapons or
#: upgrades.  It is a vehicle (frame "tank") and activates and reacts as a unit does (L1890).
CONVOY_VEHICLE: dict[str, Any] = {
    "name": "Convoy vehicle",
    "frame": "tank",
    "skill": 4,
    "speed": 6,
    "defense": 3,
    "armour": 5,
    "close": 0,
    "short": 0,
    "medium": 0,
    "long": 0,
    "upgrades": [],
}


def convoys(game: Game) -> list[Any]:
    """The convoy vehicles in the game (L1886)."""
    return [u for side in game.sides for u in side.units if is_convoy(u)]


def _add_convoy(game: Game, inp: MissionInput) -> tuple[Change, str] | None:
    """Three convoy vehicles join the defender's side (L1886-1895), unless the game has them already."""
    from core.game import GameUnit  # here: core.game imports the rule systems

    if convoys(game):
        return None
    side_no = inp.convoy_side
    if side_no is None:
        if len(game.sides) != 2:
            raise ValueError("Escort: say which side escorts the convoy (convoy_side)")
        side_no = 1 - inp.attacker_side
    if side_no >= len(game.sides):
        raise ValueError(f"there is no side {side_no}")
    if side_no == inp.attacker_side:
        raise ValueError("the convoy belongs to the defender, not the attacker (L1886)")
    side = game.sides[side_no]
    keys = {u.key for u in side.units}
    units = [u.model_dump(mode="json") for u in side.units]
    n = 1
    for i in range(1, 4):
        while f"cv{n}" in keys:
            n += 1
        profile = GunframeUnit.model_validate({**CONVOY_VEHICLE, "name": f"Convoy vehicle {i}"})
        state = UnitState(
            max_damage=profile.armour,
            counters={"target_lock": 0, "evade": 0},
            extra={"mission_unit": "convoy"},
        )
        unit = GameUnit(key=f"cv{n}", name=profile.name, profile=profile.model_dump(mode="json"), state=state)
        units.append(unit.model_dump(mode="json"))
        keys.add(unit.key)
    text = f"; {side.name} escorts three convoy vehicles (Speed 6, Defense 3, Armour 5, 4+)"
    return Change(path=["sides", side_no, "units"], value=units), text


def resolve_mission(game: Game, inp: MissionInput, dice: DiceSource) -> ActionResult:
    if inp.attacker_side >= len(game.sides):
        raise ValueError(f"there is no side {inp.attacker_side}")
    edits = Edits(game)
    if inp.mission is None:
        face = dice.roll(1, 6, f"{inp.roll_table} mission")[0]
        mission = next(m for m in MISSIONS.values() if m.kind == inp.roll_table and m.roll == face)
        how = f"rolled {face}: "
    else:
        mission, how = MISSIONS[inp.mission], ""
    if inp.variant and not mission.variant:
        raise ValueError(f"{mission.name} has no variant")
    edits.set_option("mission", mission.id)
    edits.set_option("variant", inp.variant)
    edits.set_option("attacker_side", inp.attacker_side)
    edits.set_option("basic_mission", inp.basic if mission.id == "remember_love" else None)
    text = f"Mission: {how}{mission.name}" + (" (variant)" if inp.variant else "")
    if mission.id == "remember_love":
        text += f" over {MISSIONS[inp.basic].name}"
    text += f"; {game.sides[inp.attacker_side].name} attacks"
    changes = edits.changes()
    convoy = _add_convoy(game, inp) if mission.id == "escort" and not inp.variant else None
    if convoy:
        changes.append(convoy[0])
        text += convoy[1]
    return ActionResult(changes=changes, text=text, detail={"mission": mission.id})


MISSION = ActionSpec(
    name="mission",
    label="Mission",
    input=MissionInput,
    resolve=resolve_mission,
    help="Pick or roll the mission and name the attacker (L1641-1979).",
)


# --- the End phase --------------------------------------------------------------------------


def _per_side(label: str) -> Any:
    return Field(default_factory=list, max_length=8, description=f"{label}, one number per side in order.")


class EndPhaseInput(BaseModel):
    """What the players see on the table at the End phase; the mission says which fields count."""

    model_config = ConfigDict(extra="forbid")

    held: list[int] = _per_side("Objectives each side controls (L1580): own ones in Engagement")
    held_enemy: list[int] = _per_side("Engagement: enemy objectives each side controls (L1713)")
    loot_at_hq: list[int] = _per_side("Loot: counters within 3 inches of each side's HQ (L1764)")
    hq_lost: list[bool] = Field(
        default_factory=list, max_length=8, description="Loot: the enemy controls this side's HQ (L1766)."
    )
    loot_holder: int | None = Field(
        default=None, ge=0, le=7, description="Investigate, Ambush: the side holding the loot (L1746, L1823)."
    )
    targets_destroyed: int = Field(
        default=0,
        ge=0,
        le=12,
        description="Vehicles, targets, bunkers or beacons destroyed so far; targets, bunkers and beacons "
        "placed in the game as structures are counted by the app instead.",
        json_schema_extra={"same_odds": "a count for the mission's score; the End phase's dice are the same"},
    )
    targets_in_zone: int = Field(
        default=0,
        ge=0,
        le=3,
        description="Escort: surviving vehicles wholly in the attacker's zone (L1899).",
        json_schema_extra={"same_odds": "a count for the mission's score; the End phase's dice are the same"},
    )
    targets_battered: int = Field(
        default=0,
        ge=0,
        le=3,
        description="Bunker Assault: surviving bunkers with 4 Armour or less (L1949); counted by the app "
        "when the bunkers were placed as structures.",
        json_schema_extra={"same_odds": "a count for the mission's score; the End phase's dice are the same"},
    )
    device_off: bool = Field(
        default=False,
        description="Doomsday: the attacker switched the device off (L1876).",
        json_schema_extra={"same_odds": "a count for the mission's score; the End phase's dice are the same"},
    )
    sheltered: list[str] = Field(
        default_factory=list,
        max_length=24,
        description="Bombardment: units inside a building or touching hard cover, which do not roll (L2003).",
    )
    storm_struck: list[str] = Field(
        default_factory=list,
        max_length=24,
        description="Dust storm: units touching no terrain feature (L2035). Lightning storm: units touching "
        "water or on high ground; flying units are added by the app (L2047). Each loses 1 Armour.",
    )


def _sides_value(values: list[Any], side: int, default: Any = 0) -> Any:
    return values[side] if side < len(values) else default


def _attrition(game: Game) -> tuple[dict[int, int], dict[int, int]]:
    """Points of surviving units on the table and running (L1628; structures and convoy vehicles cost
    nothing), and the bonus (L1630-1633); a side facing nothing at all gets the full +3 (digest 11.35)."""
    totals = {
        s: sum(
            unit_cost(profile_of(u))
            for u in side.units
            if on_table(u)
            and "shut_down" not in u.state.conditions
            and not is_structure(u)
            and not is_convoy(u)  # a convoy vehicle is not bought (L1890)
        )
        for s, side in enumerate(game.sides)
    }
    ranked = sorted(totals, key=lambda s: -totals[s])
    bonus = {s: 0 for s in totals}
    if len(ranked) > 1 and totals[ranked[0]] > totals[ranked[1]]:
        high, low = totals[ranked[0]], totals[ranked[1]]
        bonus[ranked[0]] = 3 if low == 0 or high >= 3 * low else 2 if high >= 2 * low else 1
    return totals, bonus


def _score_turn(mission: str, variant: bool, game: Game, inp: EndPhaseInput, vp: dict[int, int]) -> list[str]:
    """VP scored in every End phase (L1620)."""
    lines: list[str] = []
    for s, side in enumerate(game.sides):
        held = int(_sides_value(inp.held, s))
        gained = 0
        if mission in ("carnage", "domination"):
            gained = held  # L1679, L1697
        elif mission == "engagement":
            gained = held + 2 * int(_sides_value(inp.held_enemy, s))  # L1713
        elif mission == "loot":
            lost = bool(_sides_value(inp.hq_lost, s, False)) and not variant
            gained = 0 if lost else int(_sides_value(inp.loot_at_hq, s))  # L1764-1766, L1770
        elif mission == "take_and_hold" and held:
            gained = game.round  # L1786
        if gained:
            vp[s] += gained
            lines.append(f"{side.name} +{gained}VP")
    return lines


def _score_end(
    mission: str, variant: bool, game: Game, inp: EndPhaseInput, vp: dict[int, int], attacker: int
) -> list[str]:
    """VP scored once, when the game ends."""
    defender = 1 - attacker if len(game.sides) == 2 else None
    lines: list[str] = []

    def give(side: int | None, n: int, why: str) -> None:
        if side is not None and n:
            vp[side] += n
            lines.append(f"{game.sides[side].name} +{n}VP ({why})")

    opts = options_of(game)
    if mission == "investigate":  # L1746
        for s in range(len(game.sides)):
            give(s, int(_sides_value(inp.held, s)), "objectives")
        give(inp.loot_holder, 3, "the prize")
    elif mission == "ambush":  # L1823
        if inp.loot_holder is not None:
            give(inp.loot_holder, 3, "the loot")
        else:
            give(defender, 1, "nobody holds the loot")
    elif mission == "escort":  # L1899, L1905
        cargo, kill, home, alive = (2, 3, 3, 2) if variant else (3, 2, 2, 1)
        vehicles = [] if variant else convoys(game)
        if vehicles:  # the app's convoy vehicles: their wrecks are counted, not typed (L1899)
            cargo, destroyed = len(vehicles), sum(u.state.destroyed for u in vehicles)
        else:
            destroyed = min(inp.targets_destroyed, cargo)
        home_count = min(inp.targets_in_zone, cargo - destroyed)
        others = cargo - destroyed - home_count + (destroyed if opts.escort_destroyed_score else 0)
        give(attacker, kill * destroyed, "cargo destroyed")
        give(defender, home * home_count + alive * others, "cargo brought through")
    elif mission == "raid":
        if variant:  # L1949
            total, destroyed, battered = tally(game, BUNKER_KINDS) or (
                3,
                min(inp.targets_destroyed, 3),
                min(inp.targets_battered, 3 - min(inp.targets_destroyed, 3)),
            )
            give(attacker, 2 * destroyed, "bunkers destroyed")
            give(defender, 2 * (total - destroyed - battered) + battered, "bunkers standing")
        else:  # L1929
            total, destroyed, _ = tally(game, RAID_KINDS) or (6, min(inp.targets_destroyed, 6), 0)
            give(attacker, destroyed, "targets destroyed")
            give(defender, total - destroyed, "targets standing")
    elif mission == "remember_love":  # L1979
        _, destroyed, _ = tally(game, BEACON_KINDS) or (2, min(inp.targets_destroyed, 2), 0)
        give(attacker, 2 * destroyed, "beacons destroyed")
    return lines


def _length_text(turn: int, face: int) -> str:
    if continues(turn, face):
        return f"game length: rolled {face}, another turn"
    return f"game length: rolled {face}, the game ends"


def resolve_end(game: Game, inp: EndPhaseInput, dice: DiceSource) -> ActionResult:
    if game_value(game, "ended"):
        raise ValueError("the game is over")
    edits = Edits(game)
    mission_id = str(game_value(game, "mission") or "")
    mission = MISSIONS.get(mission_id, NO_MISSION)
    variant = bool(game_value(game, "variant"))
    attacker = int(game_value(game, "attacker_side") or 0)
    basic = str(game_value(game, "basic_mission") or "carnage")
    scoring = basic if mission.id == "remember_love" else mission.id
    base = MISSIONS.get(scoring, NO_MISSION)
    # The environment's End-phase events come first, at the end of the turn (L724-726).
    lines: list[str] = end_of_turn(edits, dice, inp.sheltered, inp.storm_struck)
    seen = edits.preview()
    for s in range(len(game.sides)):
        edits.set_resource(s, "focus_points", 0)  # L738-740
    if game_value(game, "suppression"):
        edits.set_option("suppression", [])  # L1318
        lines.append("suppression tokens removed")
    vp = {s: int(side.resources.get("victory_points", 0)) for s, side in enumerate(game.sides)}
    lines += _score_turn(scoring, variant and mission.id != "remember_love", game, inp, vp)

    # Does the game end now?
    ended, winner, why = False, None, ""
    down = [
        s
        for s, side in enumerate(seen.sides)
        if not any(
            on_table(u) and "shut_down" not in u.state.conditions and not is_structure(u) for u in side.units
        )
    ]
    if down:  # L1614
        ended, why = (
            True,
            "sudden death: " + ", ".join(game.sides[s].name for s in down) + " has nothing running",
        )
    if mission.id == "breakthrough" and int(_sides_value(inp.held, attacker)):
        ended, winner, why = True, attacker, "the attacker breaks through (L1843)"
    elif mission.id == "doomsday":
        if inp.device_off:
            ended, winner, why = True, attacker, "the device is switched off (L1876)"
        elif int(game_value(game, "clock", 0)) >= 12 and len(game.sides) == 2:
            ended, winner, why = True, 1 - attacker, "the device goes off (L1878)"
    face = None
    last = edits.option("last_turn")
    if not ended and isinstance(last, int) and game.round >= last:
        ended, why = True, "the space structure gives way (L2085)"
    if not ended:
        if base.random_length and game.round >= 4:
            if game.round >= LAST_TURN:
                ended, why = True, f"turn {LAST_TURN} is always the last (L1610)"
            else:
                face = dice.roll(1, 6, f"game length after turn {game.round}")[0]
                lines.append(_length_text(game.round, face))
                ended = not continues(game.round, face)
                why = "the length roll ends it" if ended else ""
        elif not base.random_length and mission.turns is not None and game.round >= mission.turns:
            ended, why = True, f"turn {mission.turns} was the last (L1600)"
            if mission.id == "breakthrough" and len(game.sides) == 2:
                winner = 1 - attacker  # L1845
    if ended:
        lines += _score_end(scoring, variant and mission.id != "remember_love", seen, inp, vp, attacker)
        if mission.id == "remember_love":
            lines += _score_end("remember_love", False, seen, inp, vp, attacker)
        lines += nemesis_end(seen, vp)  # L2336
        totals, bonus = _attrition(seen)
        for s, n in bonus.items():
            if n:
                vp[s] += n
                lines.append(f"{game.sides[s].name} +{n}VP attrition ({totals[s]} points left)")
        if winner is None:
            best = max(vp.values())
            top = [s for s in vp if vp[s] == best]
            winner = top[0] if len(top) == 1 else None  # most VP wins (L1637)
        result = f"{game.sides[winner].name} wins" if winner is not None else "a draw"
        edits.end_game(winner, f"{result}: {why}" if why else result)
        lines.append(f"game over ({why}): {result}" if why else f"game over: {result}")
    for s, total in vp.items():
        edits.set_resource(s, "victory_points", total)
    text = f"End of turn {game.round}: " + "; ".join(lines or ["no victory points"])
    detail = {"vp": vp, "ended": ended, "winner": winner, "length_roll": face}
    return ActionResult(changes=edits.changes(), text=text, detail=detail)


def end_odds(game: Game, inp: EndPhaseInput) -> ActionOdds:
    """The chance of playing another turn, and the last turn's distribution, for random-length games;
    and the chances the environment's End-phase dice bring."""
    mission_id = str(game_value(game, "mission") or "")
    base_id = str(game_value(game, "basic_mission") or "") if mission_id == "remember_love" else mission_id
    if base_id not in MISSIONS or not MISSIONS[base_id].random_length:
        return ActionOdds(tables={}, facts=end_odds_facts(game), summary="this mission's length is fixed")
    dist = length_dist(game.round)
    more = sum(w for k, w in dist.weights.items() if k > game.round) / dist.total
    last = dist.map(lambda t: t)
    return ActionOdds(
        tables={"last turn": table(last)},
        facts={"another turn": float(more) if game.round >= 4 else 1.0, **end_odds_facts(game)},
        summary="from turn 4 a die decides: another turn on the turn number or more (L1602-1610)",
    )


END_PHASE = ActionSpec(
    name="end_phase",
    label="End phase",
    input=EndPhaseInput,
    resolve=resolve_end,
    odds=end_odds,
    help="Discard Focus Points, score the mission, check sudden death and the game length (L720-750).",
)


# --- mission special actions ----------------------------------------------------------------


class DeactivateInput(BaseModel):
    """An attacking unit touching the Doomsday device tries to switch it off (L1865-1872)."""

    model_config = ConfigDict(extra="forbid")

    unit: str = Field(
        description="The attacking unit in contact with the device.", json_schema_extra={"ui": "own-unit"}
    )
    engaged: int = Field(default=0, ge=0, le=8, description="Defenders engaged with it: -1 each (L1869).")
    both_actions: bool = Field(
        default=False,
        description="It began its activation on the device and spends both actions: 2D6 added up (L1872).",
    )


def _deactivate_bonus(game: Game, inp: DeactivateInput) -> int:
    """+1 with Mechanic or Tactician (L1868), -1 per defender engaged with it (L1869)."""
    _, _, unit = game.unit(inp.unit)
    return max([0, *(e.n for e in effects_of(upgrades_of(unit), DeactivateBonus))]) - inp.engaged


def _deactivate_check(game: Game, inp: DeactivateInput) -> int:
    if game_value(game, "mission") != "doomsday":
        raise ValueError("only the Doomsday mission has a device (L1847)")
    if game_value(game, "ended"):
        raise ValueError("the game is over")
    side, _, unit = game.unit(inp.unit)
    if side != game_value(game, "attacker_side", 0):
        raise ValueError("only the attacker's units switch the device off (L1865)")
    if unit.state.destroyed or {"shut_down", "knocked_down"} & set(unit.state.conditions):
        raise ValueError(f"{unit.name} cannot take a special action now (L952, L956)")
    return int(game_value(game, "clock", 0))


def deactivate_outcome(clock: int, bonus: int, faces: tuple[int, ...]) -> str:
    """'off', 'boom' (two 1s on 2D6, L1872), 'tick' (a failed natural 1 on one die, L1870) or 'fail'.
    The bonus applies once to the total (digest 11.34); success needs more than the clock (L1867)."""
    if len(faces) == 2 and faces == (1, 1):
        return "boom"
    if sum(faces) + bonus > clock:
        return "off"
    return "tick" if faces == (1,) else "fail"


def resolve_deactivate(game: Game, inp: DeactivateInput, dice: DiceSource) -> ActionResult:
    clock = _deactivate_check(game, inp)
    bonus = _deactivate_bonus(game, inp)
    faces = tuple(dice.roll(2 if inp.both_actions else 1, 6, "Doomsday deactivation"))
    outcome = deactivate_outcome(clock, bonus, faces)
    edits = Edits(game)
    name = game.unit(inp.unit)[2].name
    attacker = int(game_value(game, "attacker_side", 0))
    rolled = f"rolled {'+'.join(map(str, faces))}" + (f" {bonus:+d}" if bonus else "") + f" against {clock}"
    if outcome == "off":
        edits.end_game(attacker, f"{game.sides[attacker].name} wins: the device is switched off (L1876)")
        text = f"{name} switches the device off ({rolled}): {game.sides[attacker].name} wins"
    elif outcome == "boom":
        two = len(game.sides) == 2
        winner = game.sides[1 - attacker].name if two else "the defender"
        edits.end_game(1 - attacker if two else None, f"{winner} wins: the device goes off (L1872)")
        text = f"{name} rolls two 1s: the device goes off and {winner} wins"
    elif outcome == "tick":
        edits.set_option("clock", clock + 1)
        text = f"{name} fails ({rolled}) and the clock jumps to {clock + 1}"
    else:
        text = f"{name} fails to switch the device off ({rolled})"
    return ActionResult(changes=edits.changes(), text=text, detail={"faces": list(faces), "outcome": outcome})


def deactivate_odds(game: Game, inp: DeactivateInput) -> ActionOdds:
    """Exact chances of each outcome, from the same reading of the dice."""
    clock = _deactivate_check(game, inp)
    bonus = _deactivate_bonus(game, inp)
    roll: Dist[tuple[int, ...]] = Dist.die(6).map(lambda f: (f,))
    if inp.both_actions:  # keep the faces apart: two 1s matter, not only the sum
        roll = Dist.die(6).combine(Dist.die(6), lambda a, b: (a, b))
    outcomes = roll.map(lambda faces: deactivate_outcome(clock, bonus, faces))
    facts = {k: float(p) for k, p in outcomes.probabilities()}
    return ActionOdds(tables={}, facts=facts, summary=f"clock at {clock}, modifier {bonus:+d}")


DEACTIVATE = ActionSpec(
    name="deactivate",
    label="Switch off the device",
    input=DeactivateInput,
    resolve=resolve_deactivate,
    odds=deactivate_odds,
    help="Doomsday: beat the clock on a D6, or 2D6 with both actions (L1865-1872).",
)


class InvestigateInput(BaseModel):
    """A unit touching a point of interest searches it (L1728)."""

    model_config = ConfigDict(extra="forbid")

    unit: str = Field(description="The searching unit.", json_schema_extra={"ui": "own-unit"})


POINTS_OF_INTEREST = 6  # L1721


def resolve_investigate(game: Game, inp: InvestigateInput, dice: DiceSource) -> ActionResult:
    """D6: 1-2 nothing, 3-5 an objective, 6 the prize (L1730-1739); the last counter left is the prize
    (L1742); once it is found the rest are objectives (L1741).  Booby traps: a 1 deals 1 damage within
    D6 inches (L1750), which the players apply."""
    if game_value(game, "mission") != "investigate":
        raise ValueError("points of interest belong to the Investigate mission (L1715)")
    left = int(game_value(game, "interest_left", POINTS_OF_INTEREST))
    if left < 1 or game_value(game, "prize_found"):
        raise ValueError("no point of interest is left to search")
    _, _, unit = game.unit(inp.unit)
    if unit.state.destroyed or {"shut_down", "knocked_down"} & set(unit.state.conditions):
        raise ValueError(f"{unit.name} cannot take a special action now (L952, L956)")
    edits = Edits(game)
    edits.set_option("interest_left", left - 1)
    face = 6 if left == 1 else dice.roll(1, 6, "investigation")[0]
    detail: dict[str, Any] = {"face": face}
    if face == 6:
        edits.set_option("prize_found", True)
        how = "the last one left" if left == 1 else "rolled 6"
        text = f"{unit.name} finds the prize ({how}): a loot counter it may pick up at once"
        if left > 1:
            text += f"; the other {left - 1} point(s) of interest become objectives"
    elif face >= 3:
        text = f"{unit.name} finds intel (rolled {face}): the counter becomes an objective"
    else:
        text = f"{unit.name} finds nothing (rolled {face}): remove the counter"
        if face == 1 and game_value(game, "variant"):
            radius = dice.roll(1, 6, "booby trap radius")[0]
            detail["booby_trap"] = radius
            text += f'; booby trap: 1 damage to every unit within {radius}"'
    return ActionResult(changes=edits.changes(), text=text, detail=detail)


INVESTIGATE = ActionSpec(
    name="investigate",
    label="Search a point of interest",
    input=InvestigateInput,
    resolve=resolve_investigate,
    help="Investigate: a special action rolling for what the counter hides (L1728-1750).",
)
