"""What a MechaStellar game keeps beyond damage and the side pools.

The game-wide values (:class:`MsState`): who won the round's roll-off (L32), the unit whose turn
it is (L25), the units the other side must activate next to Return Fire (L41), whether this turn
has already earned the Momentum for a kill (L247).  A unit's own values (:class:`MsUnitState`):
the weapons it has fired this turn (L153), whether it has used its melee (L28), the skill it
has used this unit turn (L253), the Power a Super Titan has assigned until its next turn (L160).
"""

from __future__ import annotations

from pydantic import Field

from core.changes import Working
from core.game import Game, GameUnit
from core.systems.base import Closed


class MsState(Closed):
    """The game's own values (``Game.state.extra``)."""

    rolled_off: bool = Field(default=False, description="This round's roll-off is made (L32).")
    initiative: int | None = Field(default=None, ge=0, le=7, description="The side that won it.")
    turn_unit: str = Field(default="", max_length=60, description="The unit taking its turn, as side/key.")
    attacked: list[str] = Field(
        default_factory=list, max_length=200, description="Enemy units the acting unit attacked this turn."
    )
    return_fire: list[str] = Field(
        default_factory=list,
        max_length=200,
        description="Units of the side to act, one of which must activate now to Return Fire (L41).",
    )
    kill_momentum: bool = Field(default=False, description="This turn's kill Momentum is gained (L247).")
    aggressor: str = Field(
        default="", max_length=60, description="The unit the owed Return Fire answers (L41-L42)."
    )
    avenging: str = Field(
        default="", max_length=60, description="This turn is Return Fire at this unit (Defiant, L386)."
    )
    charge: str = Field(
        default="", max_length=60, description="The unit the acting unit charges this turn (L172)."
    )
    charge_blindside: bool = Field(
        default=False, description="The charger started its turn behind it: no Overwatch (L177-L178)."
    )
    galvanized: bool = Field(
        default=False, description="This turn's Galvanizing Display Momentum is gained (L494)."
    )
    gritty_hp: bool = Field(default=False, description="Gritty Battles' double HP is applied (L699).")
    influence_given: bool = Field(default=False, description="The starting Influence is given (L794).")
    standard_used: list[int] = Field(
        default_factory=list,
        max_length=8,
        description="Sides that gave a Standard Command this round (L801).",
    )
    commands: list[str] = Field(
        default_factory=list,
        max_length=16,
        description="Standard Commands in force this round, as 'side:command' (L839-L846).",
    )
    once: list[str] = Field(
        default_factory=list,
        max_length=16,
        description="Once-a-battle Commands used, as 'side:command' (L806).",
    )
    shot_at: list[str] = Field(
        default_factory=list,
        max_length=200,
        description="Units the acting unit has shot at this turn: a Shooting Counterattack answers (L334).",
    )
    coordinated: list[str] = Field(
        default_factory=list,
        max_length=2,
        description="Coordinated Attack!: the units that take their turns next, at once, before play passes "
        "(L827); each shoots or fights in melee, not both (L828).",
    )
    held_fire: list[str] = Field(
        default_factory=list,
        max_length=200,
        description="Return Fire owed while a Coordinated Attack! goes on, owed once it ends (L41, L827).",
    )
    reinforced: dict[str, list[int]] = Field(
        default_factory=dict,
        max_length=8,
        description="Reinforcements this round, by side: [points redeployed, Influence paid] (L847-L849).",
    )
    maneuver: str = Field(
        default="",
        max_length=80,
        description="This turn's Outmaneuver or Bridge Attack: 'target|result' (L923-L932).",
    )
    overwatch_bonus: int = Field(
        default=0, ge=0, le=3, description="A won Outmaneuver's Overwatch: 3 more shots (L925-L926)."
    )
    overwatch: list[int] = Field(
        default_factory=list,
        max_length=12,
        description="The charged unit's weapons fired as Overwatch at this charge, one per action (L174).",
    )
    secret_clash: str = Field(
        default="",
        max_length=130,
        description="A melee attack declared with both splits entered unseen: 'attacker|target' (L519).",
    )
    orders: list[str] = Field(
        default_factory=list,
        max_length=16,
        description="Captain's Orders in force this round, as 'side:order:ship' (L1019-L1035).",
    )
    this_round: list[str] = Field(
        default_factory=list,
        max_length=64,
        description="What is done once a round, as 'unit:what': a captain's order, a replaced order, a "
        "Discerning Captain's Focus, a launch (L997, L1019, L1049, L1082), a fallen Titan's roll (L727).",
    )


class MsUnitState(Closed):
    """A unit's own values in play (``UnitState.extra``)."""

    fired: list[int] = Field(
        default_factory=list, max_length=12, description="Weapons fired this turn (L153)."
    )
    meleed: bool = Field(default=False, description="It made its melee attack this turn (L28).")
    kills: list[int] = Field(
        default_factory=list,
        max_length=12,
        description="Its weapons that destroyed an enemy this turn: Tear through the Ranks fires one (L358).",
    )
    tears: int = Field(
        default=0, ge=0, le=2, description="Tear through the Ranks: new targets attacked this turn (L361)."
    )
    fusillade: list[str] = Field(
        default_factory=list,
        max_length=3,
        description="Furious Fusillade's first attack split: [weapon, shots left, first target] (L438).",
    )
    spent: list[int] = Field(
        default_factory=list,
        max_length=12,
        description="Missiles used up by an Overwatch under Missile Screen!, by weapon, for good (L834).",
    )
    clashed: list[str] = Field(
        default_factory=list,
        max_length=2,
        description="The units it clashed with this turn: a Merciless Melee pilot's second clash is at a new "
        "target (L443).",
    )
    skills: list[str] = Field(
        default_factory=list, max_length=4, description="Skills used this unit turn (L253)."
    )
    powered: list[str] = Field(
        default_factory=list,
        max_length=13,
        description="What a Super Titan's Power is on until its next turn: weapons by number, 'shield'.",
    )
    surge: bool = Field(
        default=False,
        description="All-Out Attack: a Super Titan took +5 Power this turn; it rolls as it ends (L350-L351).",
    )
    power_bonus: int = Field(
        default=0, ge=0, le=3, description="Focus's +3 Power until its next turn (L129)."
    )
    melee_gun: int | None = Field(
        default=None,
        ge=0,
        le=11,
        description="A Skilled or Ace pilot's Focus: the weapon that may fire in engagement range this turn, "
        "+1 PEN (L127-L128, L155).",
    )
    choices: list[str] = Field(
        default_factory=list,
        max_length=6,
        description="Its pilot's choices for this turn: 'pen' or 'damage' (L420, L460), 'range' (L412); "
        "'spirit', 'lone_wolf': the trait used as it activated (L390, L424, L465).",
    )
    shield_uses: int = Field(
        default=0,
        ge=0,
        le=5,
        description="Gritty Battles: a mobile suit's Shield breaks on its 5th use (L699).",
    )
    disabled: list[int] = Field(
        default_factory=list, max_length=12, description="Weapons Battle Damage disabled, by number (L685)."
    )
    power_lost: int = Field(
        default=0, ge=0, le=30, description="Power a Super Titan lost to an explosion (Battle Damage, L681)."
    )
    untouchable: int = Field(
        default=-1,
        ge=-1,
        le=10,
        description="Untouchable's once-a-game blocks: -1 unused, else the blocks it rolled, good this turn; "
        "0 once that turn is over (L403).",
    )
    last_stand: bool = Field(
        default=False, description="An Unyielding Commander has survived on 1 HP, once a game (L485)."
    )
    second_turn: bool = Field(
        default=False,
        description="A Decimator Commander has had the first of its two turns this round (L497).",
    )
    readied: list[int] | None = Field(
        default=None,
        max_length=12,
        description="A warship's readied weapons, by number; None: as the battle began, its missiles and "
        "[AA] weapons (L966-L971).",
    )
    reloading: dict[str, int] = Field(
        default_factory=dict,
        description="A warship's weapons reloading after firing: weapon number to the last round it reloads "
        "(L969-L970, L993).",
    )
    wrecked: list[int] = Field(
        default_factory=list,
        max_length=12,
        description="A warship's weapon systems destroyed by failed Armor Saves, by number (L1009).",
    )
    free_ready: int = Field(
        default=0,
        ge=0,
        le=12,
        description="Weapons a warship readies with no action: a Fearless Captain's after a charged weapon "
        "is destroyed (L1076).",
    )
    charged: int = Field(
        default=0,
        ge=0,
        le=3,
        description="The small-scale mode's Charged & Ready: weapons readied as the battle began (L732).",
    )
    split: int | None = Field(
        default=None,
        ge=-1,
        le=40,
        description="Its split for the declared clash: the dice that attack (L519); -1: a Narrow Escape "
        "(L742).",
    )
    aboard: str = Field(
        default="", max_length=60, description="The warship it is aboard, as side/key (L869, L1003)."
    )
    remote_lost: list[int] = Field(
        default_factory=list,
        max_length=100,
        description="Remote weapons' shots shot down by an Ace, one entry per shot, by weapon (L599-L600).",
    )


def ms_state(game: Game) -> MsState:
    return MsState.model_validate(game.state.extra)


def unit_extra(unit: GameUnit) -> MsUnitState:
    return MsUnitState.model_validate(unit.state.extra)


def put_unit_extra(work: Working, s: int, u: int, value: MsUnitState) -> None:
    work.state(s, u).extra = value.model_dump(mode="json")


def gain(work: Working, side: int, key: str, amount: int) -> int:
    """Add to a side pool, kept within 0..10 (L243, L796); the new value."""
    res = work.resources(side)
    res[key] = max(0, min(10, res.get(key, 0) + amount))
    return res[key]


def melee_fire_refusal(g: GameUnit, weapon: int, skill: str = "none") -> str:
    """Why the unit may not fire ``weapon`` now, "" when it may: a unit in melee fires only the weapon its
    Focus picked (L127, L155), or through Fire Vulcans! (L311) or Mayhem! (L323-L324)."""
    if "engaged" not in g.state.conditions or skill in ("fire_vulcans", "mayhem"):
        return ""
    if MsUnitState.model_validate(g.state.extra).melee_gun == weapon:
        return ""
    return f"{g.name} is in melee: a weapon fires there only once a Focus picks it (L127, L155)"


def dice_words(faces: list[int] | tuple[int, ...]) -> str:
    """Dice faces as a player says them: "5, 7 and 10", "4", "none" (never a Python list in a log line).

    >>> dice_words([5, 7, 10]), dice_words([4]), dice_words([])
    ('5, 7 and 10', '4', 'none')
    """
    words = [str(f) for f in faces]
    if not words:
        return "none"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
