"""Campaign mode's tables and maps as data (L1620-L2228), with their exact odds and the EXP ladder.

The tables the book prints (Event Die, Poor and Good Fortune, the capture roll, the after-battle War
Effort table, EXP awards, rank titles, Heroic Levels) are in ``campaign.json`` beside this module,
each with its lines; the five maps are in ``campaign_maps.json``.  The book gives each map's bases
but not its image (L2209-L2228), so the grids, zones and places are the app's own layout.

>>> roll_row(POOR, 2).name, roll_row(GOOD, 6).name, roll_row(CAPTURE, 3).requisition
('Provisions Shortage', 'New Parts', 5)
>>> rank_after(1, 0, 250), rank_after(1, 1, 120)
((1, 1, 150, 1), (2, 2, 0, 1))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, Field

from core.systems.base import Closed
from core.systems.data import load

Faction = Literal["EFF", "ZEON", "TITANS", "AEUG", "AXIS"]
SIDES = 6


class Era(Closed):
    name: str
    factions: list[Faction]
    ref: str


class Start(Closed):
    teams: int
    war_effort: int
    requisition: int
    max_teams: int
    max_points: int
    actions: int
    grid: int
    ref: str


class Row(Closed):
    """One row of a D6 table: the faces it covers and what it does."""

    faces: list[int] = Field(min_length=1)
    key: str
    name: str
    text: str = ""
    ref: str = ""
    no_move: bool = False
    extra_move: bool = False
    damage: int = 0
    repair: int = 0
    war_effort: int = 0
    mind: int = 0
    health: int = 0
    requisition: int = 0


class D6Table(Closed):
    ref: str
    rows: list[Row]


class Effect(Closed):
    war_effort: int = 0
    mind: int = 0
    points: int = 0
    ref: str


class AfterBattle(Closed):
    ref: str
    withdrew: Effect
    pilot_killed: Effect
    half_destroyed: Effect
    destroyed_per_points: Effect
    won: Effect


class Award(Closed):
    exp: int
    ref: str


class ExpTable(Closed):
    ref: str
    participated: Award
    won: Award
    defeated_unit: Award
    brush_with_death: Award
    defeated_ace_per_rank: Award


class Progression(Closed):
    exp_per_box: int
    boxes_per_rank: int
    max_rank: int
    points_per_rank: int
    trait_ranks: list[int]
    mod_ranks: list[int]
    heroic_exp: list[int]
    heroic_order: list[Literal["trait", "mod"]]
    points_per_heroic_level: int
    death_at: int
    ref: str


class Branch(Closed):
    name: str
    titles: list[str] = Field(min_length=10, max_length=10)


class Ranks(Closed):
    ref: str
    branches: dict[str, Branch]
    by_faction: dict[Literal["space", "earth"], dict[Faction, str]]


class Services(Closed):
    repair_per_unit: int
    points_per_requisition: int
    aid: int
    recruit_cost: int
    recruit_die: int
    ref: str


class CampaignTables(Closed):
    eras: dict[str, Era]
    start: Start
    event_die: D6Table
    poor_fortune: D6Table
    good_fortune: D6Table
    capture: D6Table
    after_battle: AfterBattle
    exp: ExpTable
    progression: Progression
    ranks: Ranks
    services: Services


class Zone(Closed):
    faction: Faction
    x: list[int] = Field(min_length=2, max_length=2)
    y: list[int] = Field(min_length=2, max_length=2)


class Tile(Closed):
    x: int = Field(ge=1, le=8)
    y: int = Field(ge=1, le=8)


class BaseSpot(Closed):
    name: str = Field(min_length=1, max_length=60)
    x: int = Field(ge=1, le=8)
    y: int = Field(ge=1, le=8)
    victory: bool = False


class MapDef(Closed):
    name: str
    era: str
    space: bool
    ref: str
    zones: list[Zone]
    neutral: list[Tile]
    bases: list[BaseSpot]

    def zone_of(self, x: int, y: int) -> str:
        """The faction whose starting territory holds the tile, '' for none."""
        for z in self.zones:
            if z.x[0] <= x <= z.x[1] and z.y[0] <= y <= z.y[1]:
                return z.faction
        return ""


class Maps(BaseModel):
    note: str
    maps: dict[str, MapDef]


TABLES = load(__package__, "campaign.json", CampaignTables)
MAPS = load(__package__, "campaign_maps.json", Maps)
EVENT, POOR, GOOD, CAPTURE = TABLES.event_die, TABLES.poor_fortune, TABLES.good_fortune, TABLES.capture


def _check() -> None:
    """Every D6 table covers each face once; every map's bases sit on distinct tiles off the neutral zone."""
    for t in (EVENT, POOR, GOOD, CAPTURE):
        faces = sorted(f for r in t.rows for f in r.faces)
        if faces != list(range(1, SIDES + 1)):
            raise ValueError(f"the table of {t.ref} does not cover each face of a D6 once")
    for key, m in MAPS.maps.items():
        spots = [(b.x, b.y) for b in m.bases]
        neutral = {(t.x, t.y) for t in m.neutral}
        if len(set(spots)) != len(spots) or neutral & set(spots):
            raise ValueError(f"map {key}: two bases share a tile, or a base is in the neutral zone")
        era = TABLES.eras[m.era]
        for f in era.factions:
            home = [b for b in m.bases if m.zone_of(b.x, b.y) == f]
            if len(home) < TABLES.start.teams:
                raise ValueError(f"map {key}: {f} has fewer than {TABLES.start.teams} bases to start on")


_check()


def roll_row(table: D6Table, face: int) -> Row:
    """The row of ``table`` a D6 ``face`` falls on."""
    for row in table.rows:
        if face in row.faces:
            return row
    raise ValueError(f"{face} is not a face of a D6")


def row_odds(table: D6Table) -> dict[str, Fraction]:
    """Each row's chance on one D6.

    >>> row_odds(CAPTURE)["No resistance"]
    Fraction(1, 3)
    """
    return {r.name: Fraction(len(r.faces), SIDES) for r in table.rows}


def event_odds() -> dict[str, Fraction]:
    """The chance of each outcome of a team's Event Die (L2074-L2122): a 1 then the Poor Fortune row,
    a 6 then the Good Fortune row, otherwise nothing.

    >>> odds = event_odds()
    >>> odds["Nothing of note"], odds["Surprise Attack"], sum(odds.values())
    (Fraction(2, 3), Fraction(1, 36), Fraction(1, 1))
    """
    out: dict[str, Fraction] = {}
    for row in EVENT.rows:
        p = Fraction(len(row.faces), SIDES)
        sub = {"poor": POOR, "good": GOOD}.get(row.key)
        if sub is None:
            out[row.name] = out.get(row.name, Fraction(0)) + p
            continue
        for name, q in row_odds(sub).items():
            out[name] = out.get(name, Fraction(0)) + p * q
    return out


def dead(health: int, mind: int) -> bool:
    """A pilot at -4 Health or -4 Mind is killed (L1806-L1808; digest A16: every pilot, not only
    characters)."""
    limit = TABLES.progression.death_at
    return health <= limit or mind <= limit


def event_death_risk(health: int, mind: int) -> Fraction:
    """The chance that a pilot at ``health`` and ``mind`` dies of this turn's Event Die (L2083-L2106).

    >>> event_death_risk(6, 6), event_death_risk(-2, 0), event_death_risk(0, -3)
    (Fraction(0, 1), Fraction(1, 18), Fraction(1, 9))
    """
    risk = Fraction(0)
    for row in EVENT.rows:
        if row.key == "poor":
            for sub in POOR.rows:
                if not dead(health, mind) and dead(health + sub.health, mind + sub.mind):
                    risk += Fraction(len(row.faces) * len(sub.faces), SIDES * SIDES)
    return risk


def rank_after(rank: int, boxes: int, exp: int, ticks: int = 1) -> tuple[int, int, int, int]:
    """A surviving pilot after a battle: (rank, boxes ticked, EXP kept, boxes ticked now).

    At most ``ticks`` boxes (one by the letter, digest A31), each needing 100 EXP banked and taking 100
    away; every second box is a new rank, up to 10, and a new rank sets the EXP back to zero
    (L1815-L1820).  Rank 10 ticks no more boxes (Heroic Levels follow, :func:`heroic_after`).
    """
    p = TABLES.progression
    ticked = 0
    top = (p.max_rank - 1) * p.boxes_per_rank
    while ticked < ticks and exp >= p.exp_per_box and boxes < top:
        exp -= p.exp_per_box
        boxes += 1
        ticked += 1
        new = min(p.max_rank, 1 + boxes // p.boxes_per_rank)
        if new > rank:
            rank, exp = new, 0
    return rank, boxes, exp, ticked


def heroic_after(levels: int, exp: int) -> tuple[int, int]:
    """Heroic Levels after rank 10: 500 EXP for the first, 100 more for each next, five at most
    (L3208-L3211); the EXP spent is taken away.  Returns (levels, EXP kept).

    >>> heroic_after(0, 550), heroic_after(1, 550), heroic_after(5, 2000)
    ((1, 50), (1, 550), (5, 2000))
    """
    costs = TABLES.progression.heroic_exp
    while levels < len(costs) and exp >= costs[levels]:
        exp -= costs[levels]
        levels += 1
    return levels, exp


def rewards_at(rank: int) -> list[Literal["trait", "mod"]]:
    """What reaching ``rank`` gives to choose (A31 house default: traits at even ranks, mods at odd
    ranks from 3).

    >>> rewards_at(2), rewards_at(3), rewards_at(1)
    (['trait'], ['mod'], [])
    """
    p = TABLES.progression
    out: list[Literal["trait", "mod"]] = []
    if rank in p.trait_ranks:
        out.append("trait")
    if rank in p.mod_ranks:
        out.append("mod")
    return out


def rank_title(faction: str, space: bool, rank: int) -> str:
    """The title of ``rank`` in the faction's branch (L1903-L1955): cosmetic.

    >>> rank_title("EFF", False, 10), rank_title("ZEON", True, 6), rank_title("ZEON", False, 7)
    ('Captain', 'Ensign', '2nd Lieutenant')
    """
    by = TABLES.ranks.by_faction["space" if space else "earth"]
    branch = by.get(faction)  # type: ignore[call-overload]
    if branch is None:
        return f"Rank {rank}"
    return str(TABLES.ranks.branches[branch].titles[rank - 1])


#: A Mobile Fighter character's techniques and abilities by rank (L1841-L1844): R1 1 technique, R2 2
#: and 1 ability, R4 3 and 2, R6 4 and 3, R8 5 and 4; R10 all of its unit's.
FIGHTER_ALLOWANCE = {1: (1, 0), 2: (2, 1), 4: (3, 2), 6: (4, 3), 8: (5, 4)}


def fighter_allowance(rank: int) -> tuple[int | None, int | None]:
    """Techniques and abilities a Mobile Fighter character of ``rank`` may have (None: all, rank 10).

    >>> [fighter_allowance(r) for r in (1, 2, 3, 5, 9, 10)]
    [(1, 0), (2, 1), (2, 1), (3, 2), (5, 4), (None, None)]
    """
    if rank >= 10:
        return None, None
    return FIGHTER_ALLOWANCE[max(r for r in FIGHTER_ALLOWANCE if r <= rank)]
