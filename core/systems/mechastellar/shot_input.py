"""What a player enters for a shot (L132-L155): the Shoot action's input, with the answers asked after
the dice (Skill Defense, saves bought, Flawless Evasion, Narrow Escape, a Guardian, Improvise, The Will to
Power!, "within 16 inches?", a warship's [AA] and Sensors checks, a Daring Captain, the weapon systems a
warship's stun hits un-ready or its failed saves destroy), each hidden until asked.  :mod:`.shooting`
resolves it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from core.game import Game
from core.systems.base import Closed, NeedChoice, enemy_unit, needs, own_unit
from core.systems.mechastellar.traits import near_question


def momentum_asked(description: str) -> Any:
    """A count of Momentum a player spends after the roll: hidden on the sheet, asked when it matters."""
    return Field(default=None, ge=0, le=20, description=description, json_schema_extra={"ui": "hidden"})


class Shoot(Closed):
    """Fire one weapon system at one target (L132-L155)."""

    attacker: str = own_unit("Who shoots.")
    target: str = enemy_unit("At whom.")
    weapon: int = Field(
        default=0, ge=0, le=11, description="Which weapon.", json_schema_extra={"flow": "pick"}
    )
    band: Literal["long", "rapid"] = Field(
        default="long",
        description="Within half its range the weapon adds its Rapid Fire shots (L92-L93).",
        json_schema_extra={
            "flow": "choice",
            "x-labels": {"long": "Beyond half range", "rapid": "Rapid fire range"},
        },
    )
    within_16: bool = Field(
        default=False,
        description='The target is within 16": a Focus gives +1 hit instead of +1 shot (L124).',
        json_schema_extra={"flow": "common", **needs("focused")},
    )
    cover: bool = Field(
        default=False,
        description="The target is in cover: 1 block, 2 against PEN 0; not with a shield (L634-L635).",
        json_schema_extra={"flow": "common"},
    )
    advantage: Literal["none", "advantage", "blindside"] = Field(
        default="none",
        description="Tactical Advantage: +1 critical hit (L540); a Blindside also ignores shields (L543).",
        json_schema_extra={
            "flow": "common",
            "x-labels": {"none": "None", "advantage": "Tactical Advantage", "blindside": "Blindside"},
        },
    )
    skill: str = Field(
        default="none",
        max_length=20,
        description="A pilot skill used before the roll (L276-L284; Expanded Pilot Skills, L295-L341).",
        json_schema_extra={"flow": "pick"},
    )
    persevere: bool = Field(
        default=False,
        description="The target's Persevere: 1 Momentum, -100 damage a hit (-200 from Round 4), never under "
        "100 (L327-L330; Expanded Pilot Skills).",
        json_schema_extra=needs("persevere", of="target"),
    )
    evade_bonus: int = Field(
        default=0, ge=0, le=10, description="The target's Evade bonuses (at most +3 count, L138)."
    )
    accuracy_bonus: int = Field(default=0, ge=-5, le=5, description="Shooting Accuracy modifiers.")
    extra_hits: int = Field(default=0, ge=0, le=10, description="Flat bonus hits from traits (L378-L412).")
    defense: int | None = momentum_asked(
        "Momentum the target spends on Skill Defense after the roll (L260-L264); asked then."
    )
    bought: int | None = momentum_asked(
        "Failed Armor Saves the target's Skilled or Ace pilot (or a Kaiju) passes for 1 Momentum "
        "each (L220); asked after the saves."
    )
    flawless: bool = Field(
        default=False,
        description="The target's Ace negates every hit (Flawless Evasion, L290-L291); asked after the roll.",
        json_schema_extra={"ui": "hidden"},
    )
    long_range: bool = Field(
        default=False,
        description='Gunnery Expert took +8" of range this turn instead of +1 hit (L412).',
        json_schema_extra=needs("gunnery_expert"),
    )
    extra_damage: bool = Field(
        default=False,
        description="Mechanics Expert or Fearsome took +100 damage this turn instead of +1 PEN (L420, L460).",
        json_schema_extra=needs("weapon_bonus"),
    )
    energy: Literal["none", "through_cover", "underwater"] = Field(
        default="none",
        description="An energy weapon fired through small cover at a target within Sensors: PEN -3 (L641); "
        "with the firer or the target underwater: PEN 0 (L644).",
        json_schema_extra={
            **needs("energy_weapon", values=["through_cover", "underwater"]),
            "x-labels": {
                "none": "Neither",
                "through_cover": "Through small cover",
                "underwater": "Underwater",
            },
        },
    )
    stationary: bool = Field(
        default=False,
        description="Artillery fired by a unit that stays still this turn: Accuracy -1 instead of -2 (L103).",
        json_schema_extra=needs("artillery"),
    )
    remote: bool = Field(
        default=False,
        description="A remote weapon fired for 1 Momentum instead of an action: a Blindside (L595-L597).",
        json_schema_extra=needs("remote"),
    )
    escape: bool = Field(
        default=False,
        description="The target's Narrow Escape: it fully evades this weapon, once a game (Climactic Events, "
        "L742); asked after the roll.",
        json_schema_extra={"ui": "hidden"},
    )
    closest: bool = Field(
        default=False,
        description="The target, a Commando Commander, is the model closest to the shooter, allies counted: "
        "only then may it be shot (L488-L489); asked when it matters.",
        json_schema_extra={"ui": "hidden", **needs("commando", of="target")},
    )
    far: bool = Field(
        default=False,
        description="M-Particles: the target is beyond the shooter's Sensors + 10\": no critical hits, it "
        "rolls any evade dice again, no Battle Damage (L873-L875).",
        json_schema_extra=needs("m_particles"),
    )
    quadrant: bool = Field(
        default=False,
        description="The target is in the quadrant a Main Battery order named: +1 Accuracy (L1029).",
        json_schema_extra=needs("main_battery"),
    )
    near_ally: bool = Field(
        default=False,
        description="A warship's [AA] weapon fires only at a target within 8\" of an ally (L982); asked "
        "then.",
        json_schema_extra={"ui": "hidden"},
    )
    in_sensors: bool = Field(
        default=False,
        description="A warship with no Target Lock shoots a unit that is not a warship only within its "
        "Sensors (L976); asked then.",
        json_schema_extra={"ui": "hidden"},
    )
    daring: bool | None = Field(
        default=None,
        description="The target's Daring Captain is within the shooting warship's Sensors: it rolls any "
        "evade dice again (L1053); asked then.",
        json_schema_extra={"ui": "hidden"},
    )
    unreadied: list[int] | None = Field(
        default=None,
        max_length=12,
        description="With the reading stun_unreadies_one: the target warship's readied weapons its stun hits "
        "un-ready, one a hit (L971); asked then.",
        json_schema_extra={"ui": "hidden"},
    )
    wrecked: list[int] | None = Field(
        default=None,
        max_length=12,
        description="The target warship's weapon systems the attacker destroys, one a failed save (L1009); "
        "asked then.",
        json_schema_extra={"ui": "hidden"},
    )
    near: bool | None = Field(
        default=None,
        description="The shooter is within 16\" of the target: an Immortal target's Skill Defense stops two "
        "hits a Momentum (L399), a Lightning Raid +1 Evade (L842); asked when it matters.",
        json_schema_extra={"ui": "hidden"},
    )
    guardian: str = Field(
        default="",
        max_length=60,
        description='Guardian (1 Influence): an ally within 5" (10" with Move 20+) takes the hits the target '
        "did not evade or block (L811-L813); asked with Skill Defense.",
        json_schema_extra={"ui": "hidden"},
    )
    improvise: bool | None = Field(
        default=None,
        description="The target's Improvise (Expanded Pilot Skills, 1 Momentum, then free this turn): its "
        "evade dice that let shots through are rolled again (L318-L320); asked after the roll.",
        json_schema_extra={"ui": "hidden"},
    )
    split: int = Field(
        default=0,
        ge=0,
        le=10,
        description="Furious Fusillade: of this first shooting attack's shots, how many go at this target; "
        "the rest at a second target, offered after (L437-L438).",
        json_schema_extra=needs("fusillade"),
    )
    second: bool = Field(
        default=False,
        description="Furious Fusillade: the rest of the first attack's shots, at a second target (L438); "
        "offered after the first.",
        json_schema_extra={"ui": "hidden"},
    )
    tear: bool = Field(
        default=False,
        description="Tear through the Ranks (Expanded Pilot Skills): the weapon that destroyed an enemy this "
        "turn fires again at a new target, no action spent (L356-L361); offered after the kill.",
        json_schema_extra={"ui": "hidden"},
    )
    will_to_power: bool | None = Field(
        default=None,
        description="The Commander's The Will to Power!: up to 3 plain hits become criticals, once a game "
        "from Round 4 (Climactic Events, L779-L781); asked after the evade dice.",
        json_schema_extra={"ui": "hidden"},
    )


def close(inp: Shoot) -> bool:
    """The shooter is within 16" of the target, as the players said (a Focus's "within 16" says so too)."""
    return inp.near if inp.near is not None else inp.within_16


def near_asked(game: Game, inp: Shoot) -> NeedChoice | None:
    """The question "within 16 inches?" when its answer changes the shot (:func:`.traits.near_question`)."""
    if inp.near is not None or inp.within_16:
        return None
    return near_question(game, inp.attacker, inp.target)
