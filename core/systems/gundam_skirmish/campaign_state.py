"""What a Gundam Skirmish campaign keeps (digest section 9, "Campaign state the app must persist").

The map (its bases and who holds them), the players in priority order with their War Effort and
Requisition, the MS Teams (tile, units with the damage they carry, pilots with Health, Mind, EXP and
rank), whose turn it is and where that turn stands.  It is the ``state`` of a
:class:`core.campaign.Campaign`, checked against :class:`CampaignState` whenever one is read.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from core.systems.base import Closed
from core.systems.gundam_skirmish.campaign_data import MAPS, TABLES, Faction, dead, fighter_allowance
from core.systems.gundam_skirmish.units import Unit, unit_cost

Key = str
Phase = Literal["start", "events", "actions"]


def tile_name(x: int, y: int) -> str:
    """A map tile as the book names it: by its coordinates on the X and Y axes, each labelled 1-8
    (L1718-L1719); the map shows the same labels along its top and left side."""
    return f"x {x}, y {y}"


class CPilot(Closed):
    """A pilot of the campaign: Health and Mind for all (digest A16), EXP and rank for characters."""

    name: str = Field(min_length=1, max_length=60)
    character: bool = Field(default=False, description="A named character, who earns EXP and ranks (L1791).")
    health: int = Field(default=6, ge=-30, le=99)
    mind: int = Field(default=6, ge=-30, le=99)
    exp: int = Field(default=0, ge=0, le=100_000, description="EXP banked (L1815-L1817).")
    boxes: int = Field(default=0, ge=0, le=20, description="Experience Chart boxes ticked (L1815-L1820).")
    rank: int = Field(default=1, ge=1, le=10)
    heroic_levels: int = Field(default=0, ge=0, le=5)
    traits: list[str] = Field(default_factory=list, max_length=20)
    mods: list[str] = Field(default_factory=list, max_length=20)
    heroic_traits: list[str] = Field(default_factory=list, max_length=5)
    heroic_mods: list[str] = Field(default_factory=list, max_length=5)
    techniques: list[str] = Field(
        default_factory=list, max_length=30, description="A Mobile Fighter's techniques, by name (L1837)."
    )
    fighter_abilities: list[str] = Field(
        default_factory=list, max_length=12, description="A Mobile Fighter's abilities, by key (L1841)."
    )
    to_choose: list[Literal["trait", "mod", "heroic_trait", "heroic_mod"]] = Field(
        default_factory=list, max_length=20, description="Rank rewards earned and not chosen yet."
    )


class CUnit(Closed):
    """A unit of an MS Team: its sheet (without its pilot), the damage it carries, its pilot."""

    key: Key = Field(min_length=1, max_length=6, pattern=r"^[A-Za-z0-9]+$")
    profile: dict[str, Any]
    damage: int = Field(default=0, ge=0, le=40, description="Integrity lost, until repaired (L1755-L1758).")
    charts: dict[Literal["leg", "arm", "head"], int] = Field(
        default_factory=dict, description="Damage Chart levels, until repaired (L1111-L1113)."
    )
    pilot: CPilot | None = None

    def unit(self) -> Unit:
        """The unit's sheet with its character pilot's current rank and rewards (cost rises with rank)."""
        data = dict(self.profile)
        p = self.pilot
        if p is not None and p.character:
            faction = data.get("factions", [""])[0]
            data["pilot"] = [
                {
                    "name": p.name,
                    "faction": faction,
                    "rank": p.rank,
                    "health": max(-10, min(30, p.health)),
                    "mind": max(-10, min(30, p.mind)),
                    "traits": p.traits,
                    "mods": p.mods,
                    "heroic_levels": p.heroic_levels,
                    "heroic_traits": p.heroic_traits,
                    "heroic_mods": p.heroic_mods,
                    # a Mobile Fighter attacks with its learnt techniques only, all at rank 10 (L1837-L1844)
                    "techniques": p.techniques
                    if data.get("kind") == "mobile_fighter" and fighter_allowance(p.rank)[0] is not None
                    else None,
                }
            ]
        else:
            data["pilot"] = []
        return Unit.model_validate(data)

    @property
    def name(self) -> str:
        return str(self.profile.get("name", "Unit"))

    def integrity(self) -> int:
        return self.unit().integrity

    def fieldable(self) -> bool:
        """It can go into battle: a living pilot and Integrity left."""
        return (
            self.pilot is not None
            and not dead(self.pilot.health, self.pilot.mind)
            and (self.damage < self.integrity())
        )


class Team(Closed):
    """An MS Team on the map (L1725-L1764)."""

    key: Key = Field(min_length=1, max_length=6, pattern=r"^[A-Za-z0-9]+$")
    name: str = Field(min_length=1, max_length=60)
    faction: Faction
    x: int = Field(ge=1, le=8)
    y: int = Field(ge=1, le=8)
    units: list[CUnit] = Field(max_length=30)
    reserve: list[CPilot] = Field(default_factory=list, max_length=20, description="Pilots without a unit.")
    no_move: bool = Field(default=False, description="Provisions Shortage this campaign turn (L2085).")
    free_move: bool = Field(default=False, description="Cartography's free step, not yet taken (L2112).")
    event_rolled: bool = Field(default=False, description="Its Event Die is rolled this turn (L2052).")
    exhausted: bool = Field(default=False, description="Failed the Exhaustion Check (house rule, A30).")

    def points(self) -> int:
        return sum(unit_cost(u.unit()) for u in self.units)

    def pilots(self) -> list[CPilot]:
        return [*(u.pilot for u in self.units if u.pilot is not None), *self.reserve]


class Player(Closed):
    faction: Faction
    war_effort: int = Field(default=TABLES.start.war_effort, ge=0, le=10_000)
    requisition: int = Field(default=TABLES.start.requisition, ge=0, le=10_000)
    turns: int = Field(default=0, ge=0, description="Campaign turns begun (the first has no victory check).")


class CBase(Closed):
    name: str
    x: int = Field(ge=1, le=8)
    y: int = Field(ge=1, le=8)
    victory: bool = False
    owner: Faction | Literal[""] = ""


class CampaignState(Closed):
    """A Gundam Skirmish campaign (L1620-L2228)."""

    era: str
    map: str
    players: list[Player] = Field(min_length=2, max_length=3, description="In priority order (L1725).")
    bases: list[CBase]
    teams: list[Team] = Field(max_length=24)
    current: int = Field(default=0, ge=0, description="Whose campaign turn it is (index in players).")
    phase: Phase = "start"
    actions_left: int = Field(default=0, ge=0, le=3)
    entered: list[str] = Field(default_factory=list, description="Bases captured this turn (A49).")
    round: int = Field(default=1, ge=1, description="Rounds of campaign turns.")
    winner: Faction | Literal[""] = ""
    notes: list[str] = Field(default_factory=list, max_length=200, description="Diplomacy and other notes.")
    next_key: int = Field(default=1, ge=1, description="Numbers new teams, units and pilots.")
    tiles: dict[str, str] = Field(
        default_factory=dict,
        max_length=64,
        description="Tiles edited by the players, 'x,y': a faction's zone, '' no zone, 'neutral'.",
    )
    terrain: dict[str, Annotated[str, Field(min_length=1, max_length=40)]] = Field(
        default_factory=dict,
        max_length=64,
        description="Terrain names the players gave tiles, 'x,y': each tile has its own geography "
        "(L1717-L1718), which the book's missing map images would show.",
    )

    @model_validator(mode="after")
    def _valid(self) -> CampaignState:
        if self.map not in MAPS.maps or self.era not in TABLES.eras:
            raise ValueError("unknown map or era")
        if self.current >= len(self.players):
            raise ValueError("the current player is not one of the players")
        keys = [t.key for t in self.teams]
        if len(set(keys)) != len(keys):
            raise ValueError("two teams share a key")
        return self

    @property
    def player(self) -> Player:
        return self.players[self.current]

    def team(self, key: str) -> Team:
        for t in self.teams:
            if t.key == key:
                return t
        raise ValueError("no such team on the map")

    def at(self, x: int, y: int) -> list[Team]:
        return [t for t in self.teams if (t.x, t.y) == (x, y)]

    def zone(self, x: int, y: int) -> str:
        """Whose starting territory the tile is ('' none), the players' edits first."""
        edited = self.tiles.get(f"{x},{y}")
        if edited is not None:
            return "" if edited == "neutral" else edited
        return MAPS.maps[self.map].zone_of(x, y)

    def neutral(self, x: int, y: int) -> bool:
        """The tile is in the neutral zone, where no team may go (L2218), the players' edits first."""
        edited = self.tiles.get(f"{x},{y}")
        if edited is not None:
            return edited == "neutral"
        return any((t.x, t.y) == (x, y) for t in MAPS.maps[self.map].neutral)

    def terrain_at(self, x: int, y: int) -> str:
        """The tile's terrain name, '' when the players gave it none (L1717-L1718)."""
        return self.terrain.get(f"{x},{y}", "")

    def base_at(self, x: int, y: int) -> CBase | None:
        for b in self.bases:
            if (b.x, b.y) == (x, y):
                return b
        return None

    def of(self, faction: str) -> Player:
        for p in self.players:
            if p.faction == faction:
                return p
        raise ValueError(f"{faction} is not in this campaign")

    def new_key(self, prefix: str) -> str:
        key = f"{prefix}{self.next_key}"
        self.next_key += 1
        return key
