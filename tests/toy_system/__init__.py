"""A tiny rule system used to test the shared squad and game layer on its own.

It is not a rulebook: a unit has hit points and a number of d6 that hit on 4+.
The layer must work with any system; this one keeps its tests independent of
how far the real systems have come.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from core.dice import DiceSource, Dist
from core.game import Game
from core.pool import PoolSpec, roll_pool, table
from core.systems import SystemInfo
from core.systems.base import (
    ActionOdds,
    ActionResult,
    ActionSpec,
    CatalogueUnit,
    Change,
    ResourceDef,
    RuleSystem,
    TrackedDef,
    UnitState,
    Violation,
)

INFO = SystemInfo(id="toy", name="Toy", rulebook="-", dice="d6", summary="For tests.", status="playable")


class ToyUnit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    hp: int = Field(ge=1, le=20)
    dice: int = Field(ge=0, le=10)


class Shoot(BaseModel):
    model_config = ConfigDict(extra="forbid")

    attacker: str = Field(description="Who shoots.", json_schema_extra={"ui": "own-unit"})
    target: str = Field(description="Whom it shoots at.", json_schema_extra={"ui": "enemy-unit"})
    bonus: int = Field(default=0, ge=0, le=3, description="Extra dice.")


def _pool(game: Game, shot: Shoot) -> tuple[PoolSpec, int, int, int, str, str]:
    _, _, attacker = game.unit(shot.attacker)
    s, u, target = game.unit(shot.target)
    dice = attacker.profile["dice"] + shot.bonus
    left = target.state.max_damage - target.state.damage
    return PoolSpec(dice=max(1, dice), success_on=4), s, u, left, attacker.name, target.name


def shoot(game: Game, shot: Shoot, dice: DiceSource) -> ActionResult:
    spec, s, u, left, a_name, t_name = _pool(game, shot)
    roll = roll_pool(spec, dice, "attack")
    damage = min(roll.successes, left)
    target = game.sides[s].units[u]
    path = ["sides", s, "units", u, "state"]
    changes = [Change(path=[*path, "damage"], value=target.state.damage + damage)]
    if damage >= left:
        changes.append(Change(path=[*path, "destroyed"], value=True))
    return ActionResult(
        changes=changes,
        text=f"{a_name} shoots {t_name}: {damage} damage",
        detail={"attack": roll.model_dump(mode="json")},
    )


def shoot_odds(game: Game, shot: Shoot) -> ActionOdds:
    spec, _, _, left, _, _ = _pool(game, shot)
    hits: Dist[int] = spec.dist().map(lambda k: k[0])
    return ActionOdds(
        tables={"damage": table(hits)},
        facts={"destroyed": float(sum(p for k, p in hits.probabilities() if k >= left))},
    )


class Toy(RuleSystem):
    def catalogue(self) -> list[CatalogueUnit]:
        return [
            CatalogueUnit(id="grunt", name="Grunt", profile={"name": "Grunt", "hp": 3, "dice": 2}),
            CatalogueUnit(id="brute", name="Brute", profile={"name": "Brute", "hp": 6, "dice": 3}),
        ]

    def unit_cost(self, profile: Any) -> int:
        return int(profile.hp + 2 * profile.dice)

    def unit_violations(self, profile: Any) -> list[Violation]:
        if profile.dice > profile.hp:
            return [Violation(rule="dice-over-hp", message="more dice than hit points", ref="toy")]
        return []

    def initial_state(self, profile: Any) -> UnitState:
        return UnitState(max_damage=profile.hp, counters={"aim": 0})

    def pack_profile(self, profile: Any) -> Any:
        return [profile.name, profile.hp, profile.dice]

    def unpack_profile(self, packed: Any) -> BaseModel:
        if not isinstance(packed, list) or len(packed) != 3:
            raise ValueError("a toy unit is [name, hp, dice]")
        name, hp, dice = packed
        return ToyUnit(name=name, hp=hp, dice=dice)


SYSTEM = Toy(
    info=INFO,
    profile_model=ToyUnit,
    tracked=(
        TrackedDef(key="pinned", label="Pinned", kind="condition"),
        TrackedDef(key="aim", label="Aim", kind="counter", max=2),
    ),
    resources=(ResourceDef(key="command", label="Command", initial=2),),
    actions={"shoot": ActionSpec(name="shoot", label="Shoot", input=Shoot, resolve=shoot, odds=shoot_odds)},
)
