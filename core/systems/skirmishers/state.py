"""What a Skirmishers unit keeps in play (``UnitState.extra``) and the game keeps (``Game.state.extra``).

The card's marks are kept as they are drawn: one value per cell of the HP row (0 clear, 1
half-crossed, 2 fully crossed) and the armor cells left.  ``UnitState.damage`` mirrors the
card's current column (HP lost, the end column when dead), so the shared row and bar read
true.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from core.game import GameUnit

Key = Annotated[str, Field(max_length=40)]


class ArcState(BaseModel):
    """A firing-arc token on the table (L259-L274, L314)."""

    model_config = ConfigDict(extra="forbid")

    weapon: Key = Field(description="The weapon that fires into it.")
    size: Literal[30, 60, 150] = Field(description="Degrees.")
    shots: int = Field(ge=-1, le=99, description="Shots left; -1 for burst fire, which never runs out.")


class Kit(BaseModel):
    """What a trooper carries in play where it differs from its card: weapons taken or dropped, body
    armor or a sneak suit taken or dropped, a jet pack fitted or removed (L253, L600-L605); None where
    the card holds."""

    model_config = ConfigDict(extra="forbid")

    primary: Key | None = Field(default=None, description="Its primary weapon now; empty for none.")
    secondary: Key | None = Field(default=None, description="Its secondary weapon now; empty for none.")
    jet_pack: bool | None = Field(default=None, description="Whether it wears a jet pack now.")
    body_armor: Literal["none", "basic", "standard", "heavy"] | None = Field(
        default=None, description="The body armor it wears now (L196-L207, L253)."
    )
    sneak_suit: bool | None = Field(
        default=None, description="Whether it wears a sneak suit now (L517, L253)."
    )
    smoke_grenades: int | None = Field(
        default=None, ge=0, le=1, description="1 when it holds smoke grenades (counted in its rounds)."
    )
    incendiary_grenades: int | None = Field(
        default=None, ge=0, le=1, description="1 when it holds incendiary grenades (counted in its rounds)."
    )


class Dropped(BaseModel):
    """A weapon, grenades, body armor, a sneak suit or a jet pack lying where a trooper left it; anyone
    may pick it up (L253, L604)."""

    model_config = ConfigDict(extra="forbid")

    item: Key = Field(description="The weapon or grenade kind, body_armor:<type>, sneak_suit or jet_pack.")
    by: str = Field(max_length=40, description="Who left it, naming where it lies.")
    ammo: int = Field(
        default=-1, ge=-1, le=99, description="Rounds (or grenades) left; -1 when it counts none."
    )
    cells: int = Field(default=0, ge=0, le=13, description="Body armor: its cells left (standard rule).")
    guard: list[Annotated[int, Field(ge=-1, le=2)]] = Field(
        default_factory=list, max_length=18, description="Body armor: its armor row (advanced rule, L384)."
    )


class SkUnit(BaseModel):
    """One unit's own values in play."""

    model_config = ConfigDict(extra="forbid")

    cells: list[Annotated[int, Field(ge=0, le=2)]] = Field(
        default_factory=list, max_length=18, description="The HP row: 0 clear, 1 half-crossed, 2 crossed."
    )
    armor: int = Field(default=0, ge=0, le=13, description="Armor cells left.")
    guard: list[Annotated[int, Field(ge=-1, le=2)]] = Field(
        default_factory=list,
        max_length=18,
        description="Advanced body armor: the armor row under each HP column, -1 unprotected, 0 clear, "
        "1 half-crossed, 2 crossed (L382-L393); empty under the standard rule.",
    )
    ap_spent: int = Field(default=0, ge=0, le=40, description="AP spent this turn.")
    ap_moved: int = Field(default=0, ge=0, le=40, description="Of those, AP spent on movement (at most 8).")
    active: Key = Field(default="", description="The active weapon.")
    arcs: list[ArcState] = Field(default_factory=list, max_length=4, description="Its firing arcs.")
    ammo: dict[Key, int] = Field(default_factory=dict, description="Rounds left of weapons that count them.")
    blunt_turn: int = Field(default=0, ge=0, le=99, description="Power armor: bludgeoning taken this turn.")
    disabled: list[Key] = Field(
        default_factory=list, max_length=4, description="Power armor: weapons disabled."
    )
    explosive_used: bool = Field(
        default=False, description="Used an explosive this turn (no arc after, L328)."
    )
    combat_done: bool = Field(
        default=False, description="Took a combat action this turn (the one_combat_action reading, L78)."
    )
    jet_used: bool = Field(default=False, description="Used its jet pack this turn (once a turn, L587).")
    set_up: bool = Field(default=False, description="Its crew-served weapon is set up (L369-L380).")
    crew_by: Key = Field(
        default="", description="Its set-up crew-served weapon is controlled by this unit now (L378)."
    )
    left: bool = Field(default=False, description="It abandoned its set-up crew-served weapon (L378).")
    manned: Key = Field(default="", description="Whose set-up crew-served weapon it took over, as side/key.")
    riding: Key = Field(default="", description="A trooper: the vehicle it is on, as side/key (L672-L680).")
    driver: bool = Field(
        default=False, description="A trooper on a vehicle: it drives (else a passenger, L803)."
    )
    engine: bool = Field(default=False, description="A vehicle: switched on (L674-L680).")
    moving: bool = Field(default=False, description="A vehicle: under way (not at a full stop, L693).")
    mode: Literal["", "min", "cruise", "max"] = Field(
        default="", description="A vehicle: the movement mode picked this turn (L684-L691)."
    )
    vap: int = Field(default=0, ge=0, le=8, description="A vehicle: AP spent on its movement this turn.")
    skid: Literal["", "min", "cruise", "max"] = Field(
        default="", description="A vehicle: wiped out in this mode, its damage not yet marked (L757-L759)."
    )
    free_arc: bool = Field(default=False, description="A vehicle: its free 30° arc set this turn (L807).")
    shot_by: list[Key] = Field(
        default_factory=list,
        max_length=64,
        description="Reaction fire: the firers (side/key, once an attack) that have attacked it on its dot "
        "is on; a vehicle's list counts its rider's too (L288, L734).",
    )
    kit: Kit = Field(default_factory=Kit, description="Gear taken, dropped, fitted or removed in play.")
    morale_dead: int = Field(
        default=0, ge=0, le=99, description="Morale: its squad's dead when it last checked (L565)."
    )
    morale_turn: int = Field(default=0, ge=0, description="Morale: the side turn it last checked in.")
    dots: int = Field(
        default=1,
        ge=1,
        le=16,
        description="The dots its last move stands for: 1, a jet flight's dots, a vehicle "
        "segment's AP (L734); each enemy firer may attack it once for each.",
    )

    @classmethod
    def of(cls, unit: GameUnit) -> SkUnit:
        return cls.model_validate(unit.state.extra)


class PendingMelee(BaseModel):
    """A declared melee attack, resolved when its target next activates (L318)."""

    model_config = ConfigDict(extra="forbid")

    attacker: Key = Field(description="The attacking unit, as side/key.")
    target: Key = Field(description="The target, as side/key.")
    weapon: Key = Field(description="The melee weapon.")


class PendingExplosive(BaseModel):
    """An explosive token, resolved at the end of its side's turn (L336)."""

    model_config = ConfigDict(extra="forbid")

    attacker: Key = Field(description="Who threw or fired it, as side/key.")
    weapon: Key = Field(description="The explosive.")
    tn: int = Field(ge=-20, le=40, description="Its target number, worked out when it was placed.")
    label: str = Field(default="", max_length=80, description="Where it was aimed, in the players' words.")


class Cloud(BaseModel):
    """Smoke or a burning dot on the table (L439, L447), by the players' words for where it is."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["smoke", "fire"] = Field(description="Smoke, or a dot on fire.")
    label: str = Field(max_length=120, description="Where it is, in the players' words.")
    side: int = Field(ge=0, le=1, description="The side whose explosive made it.")
    turn: int = Field(ge=0, description="The side turn it came in.")
    radius: Literal[1, 2] = Field(default=1, description="Smoke: dots around its centre it fills.")


class Structure(BaseModel):
    """A dot of a wall, building or tree and the damage on it (L533-L545)."""

    model_config = ConfigDict(extra="forbid")

    label: str = Field(max_length=60, description="Which dot, in the players' words.")
    toughness: int = Field(ge=1, le=140, description="Breached once its damage is above this.")
    damage: int = Field(default=0, ge=0, le=999, description="Damage so far.")


class SkGame(BaseModel):
    """The game-wide values: whose turn (``GameState.active_side``), the queues, the turns played."""

    model_config = ConfigDict(extra="forbid")

    turns: int = Field(default=0, ge=0, description="Side turns played so far.")
    melee: list[PendingMelee] = Field(
        default_factory=list, max_length=64, description="Declared melee attacks."
    )
    explosives: list[PendingExplosive] = Field(
        default_factory=list, max_length=64, description="Explosive tokens waiting for the end of the turn."
    )
    structures: list[Structure] = Field(
        default_factory=list, max_length=64, description="Dots of walls, buildings and trees hit."
    )
    clouds: list[Cloud] = Field(
        default_factory=list, max_length=64, description="Smoke clouds and fires on the table."
    )
    ground: list[Dropped] = Field(
        default_factory=list, max_length=32, description="Weapons and jet packs left on the table (L253)."
    )
    drop: Key = Field(
        default="", description="The target of the movement fire just resolved, which may drop prone (L498)."
    )
    drop_at: int = Field(
        default=0, ge=0, description="The log step right after that shot: the offer's window."
    )
