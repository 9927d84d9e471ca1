"""A tiny rule system used to test the shared squad and game layer on its own.

It is not a rulebook: a unit has hit points and a number of d6 that hit on 4+.
The layer must work with any system; this one keeps its tests independent of
how far the real systems have come.

It also shows that a system plugs in with nothing outside its folder but one
registration line: it has its own editor kind (``toy-dial``, the module
``editor-toy-dial.js`` beside this file), its own typed state of a unit in play
(:class:`Heat`, kept in ``UnitState.extra``: its ``unit_state_model``) and its own
tool (``suggest``).  A test
site built with ``TC_TEST_SYSTEMS=tests/toy_system`` (see build.py) includes it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from core.changes import Working
from core.dice import DiceSource, Dist
from core.game import Game
from core.pool import PoolSpec, roll_pool, table
from core.systems import SystemInfo
from core.systems.base import (
    ActionOdds,
    ActionResult,
    ActionSpec,
    CatalogueUnit,
    CellGrid,
    Choice,
    Closed,
    EditorInfo,
    FieldPick,
    GridCell,
    GridRow,
    NeedChoice,
    ResourceDef,
    RuleSystem,
    ToolSpec,
    TrackedDef,
    UnitState,
    UnitView,
    Viewer,
    ViewItem,
    ViewSection,
    Violation,
    enemy_unit,
    needs,
    own_unit,
    read_options,
)

INFO = SystemInfo(id="toy", name="Toy", rulebook="-", dice="d6", summary="For tests.", status="playable")


class ToyUnit(Closed):
    name: str = Field(min_length=1, max_length=40)
    hp: int = Field(ge=1, le=20)
    dice: int = Field(ge=0, le=10)


class Shoot(Closed):
    attacker: str = own_unit("Who shoots.")
    target: str = enemy_unit("Whom it shoots at.")
    bonus: int = Field(
        default=0,
        ge=0,
        le=3,
        description="Extra dice; 3 only for a unit of 3 dice or more.",
        json_schema_extra=needs("big_gun", values=[3]),
    )
    overcharge: bool = Field(
        default=False,
        description="One more die; only a unit of 3 dice or more can overcharge.",
        json_schema_extra={"flow": "common", **needs("big_gun")},
    )
    steady: bool = Field(
        default=False,
        description="One more die for a shooter that has taken aim; only one that has.",
        json_schema_extra=needs("aimed"),
    )
    mode: str = Field(
        default="aimed",
        description="How it fires, as the shooter offers.",
        json_schema_extra={"flow": "pick"},
    )
    dive: Literal["never", "ask", "yes", "no"] = Field(
        default="never",
        description="'ask': once the hits are known, the target's player may dive: half the damage "
        "(rounded up) and the target is pinned. The odds assume it does not.",
        json_schema_extra={"same_odds": "asked once the hits are known; the odds assume no dive"},
    )


def shoot_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """The shooter's own ways to fire: aimed (its dice) or a burst (one more), not while Pinned."""
    _, _, unit = game.unit(actor)
    dice = unit.profile["dice"]
    pinned = "pinned" in unit.state.conditions
    return {
        "mode": [
            FieldPick(value="aimed", label="Aimed", detail=f"{dice} dice"),
            FieldPick(
                value="burst",
                label="Burst",
                detail=f"{dice + 1} dice",
                unavailable="no burst while Pinned" if pinned else "",
            ),
        ]
    }


def _pool(game: Game, shot: Shoot) -> tuple[PoolSpec, int, int, int, str, str]:
    _, _, attacker = game.unit(shot.attacker)
    s, u, target = game.unit(shot.target)
    if shot.mode not in ("aimed", "burst"):
        raise ValueError(f"no firing mode {shot.mode!r}")
    if shot.mode == "burst" and "pinned" in attacker.state.conditions:
        raise ValueError("no burst while Pinned")
    dice = attacker.profile["dice"] + shot.bonus + (shot.mode == "burst") + shot.overcharge + shot.steady
    left = target.state.max_damage - target.state.damage
    return PoolSpec(dice=max(1, dice), success_on=4), s, u, left, attacker.name, target.name


class Heat(Closed):
    """The toy's own state of a unit in play (``UnitState.extra``): shots fired so far."""

    shots: int = Field(default=0, ge=0, description="Shots this unit has fired in the game.")


def shoot(game: Game, shot: Shoot, dice: DiceSource) -> ActionResult:
    spec, s, u, left, a_name, t_name = _pool(game, shot)
    roll = roll_pool(spec, dice, "attack")
    damage = min(roll.successes, left)
    dive = shot.dive
    if dive == "ask" and damage:  # a decision after the roll: the layer asks, the odds assume the first
        raise NeedChoice(
            "dive",
            f"{t_name} takes {damage}: dive?",
            [
                Choice(value="no", label=f"Stand: {damage} damage", assumed=True),
                Choice(value="yes", label=f"Dive: {(damage + 1) // 2} damage, pinned"),
            ],
        )
    work = Working(game)  # edits of a working copy, logged by the shared diff (core.changes)
    target = work.state(s, u)
    if dive == "yes" and damage:
        damage = (damage + 1) // 2
        target.conditions = [*target.conditions, "pinned"]
    target.damage += damage
    if damage >= left:
        target.destroyed = True
    a_side, a_index, attacker = game.unit(shot.attacker)
    heat = Heat.model_validate(attacker.state.extra)
    heat.shots += 1
    work.state(a_side, a_index).extra = {**attacker.state.extra, **heat.model_dump(mode="json")}
    table = read_options(Volleys, game.state.extra)
    work.gstate.extra["volleys"] = table.volleys + 1
    return ActionResult(
        changes=work.changes(),
        text=f"{a_name} shoots {t_name}: {damage} damage",
        detail={"attack": roll.model_dump(mode="json")},
    )


class Aim(Closed):
    """Take aim: one more aim counter (at most 2). Nothing is rolled."""

    unit: str = own_unit("Who takes aim.")


def aim(game: Game, inp: Aim, dice: DiceSource) -> ActionResult:
    s, u, unit = game.unit(inp.unit)
    now = min(2, unit.state.counters.get("aim", 0) + 1)
    work = Working(game)
    work.state(s, u).counters["aim"] = now
    return ActionResult(changes=work.changes(), text=f"{unit.name} takes aim ({now})")


class Rally(Closed):
    """Rally a Pinned unit: it is no longer Pinned. Nothing is rolled; only a Pinned unit rallies."""

    unit: str = own_unit("Who rallies.")


def rally(game: Game, inp: Rally, dice: DiceSource) -> ActionResult:
    s, u, unit = game.unit(inp.unit)
    work = Working(game)
    work.state(s, u).conditions = [c for c in unit.state.conditions if c != "pinned"]
    return ActionResult(changes=work.changes(), text=f"{unit.name} rallies")


def big_gun(game: Game, ref: str) -> str:
    """The toy's gate on its shooter: 3 dice or more."""
    _, _, unit = game.unit(ref)
    return "" if unit.profile["dice"] >= 3 else f"{unit.name} has fewer than 3 dice"


def aimed(game: Game, ref: str) -> str:
    """The toy's gate on a steady shot: a unit that has taken aim (reached only by playing: the contract
    check's situation in ``witnesses.json`` takes aim first)."""
    _, _, unit = game.unit(ref)
    return "" if unit.state.counters.get("aim", 0) else f"{unit.name} has not taken aim"


def pinned(game: Game, ref: str) -> str:
    """The toy's gate on rallying: a Pinned unit only."""
    _, _, unit = game.unit(ref)
    return "" if "pinned" in unit.state.conditions else f"{unit.name} is not Pinned"


def shoot_odds(game: Game, shot: Shoot) -> ActionOdds:
    spec, _, _, left, _, _ = _pool(game, shot)
    hits: Dist[int] = spec.dist().map(lambda k: k[0])
    return ActionOdds(
        tables={"damage": table(hits)},
        facts={"destroyed": float(sum(p for k, p in hits.probabilities() if k >= left))},
    )


class Volleys(Closed):
    """The toy's own game-wide state (``Game.state.extra``): shots fired by anyone so far."""

    volleys: int = Field(default=0, ge=0, description="Shots fired in the game.")


class Budget(BaseModel):
    """What the toy editor asks: a name and the points to spend."""

    name: str = Field(min_length=1, max_length=40, description="The unit's name.")
    points: int = Field(ge=3, le=60, description="Points to spend on hit points and dice.")


class Suggestion(BaseModel):
    profile: ToyUnit
    cost: int
    text: str = Field(description="The unit in one line, for the editor to show.")


def suggest(budget: Budget) -> Suggestion:
    """The unit a budget buys: as many dice as a third of the points (at most 10), the rest in hit points.

    >>> suggest(Budget(name="Ace", points=12)).text
    'Ace: 4 hit points, 4 dice, 12 points'
    """
    dice = min(10, budget.points // 3)
    hp = min(20, budget.points - 2 * dice)
    unit = ToyUnit(name=budget.name, hp=hp, dice=dice)
    cost = SYSTEM.unit_cost(unit)
    return Suggestion(
        profile=unit, cost=cost, text=f"{unit.name}: {hp} hit points, {dice} dice, {cost} points"
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
        return UnitState(max_damage=profile.hp, counters={"aim": 0}, extra=Heat().model_dump())

    def unit_view(self, game: Game, side: int, index: int, viewer: Viewer = None) -> UnitView:
        unit = game.sides[side].units[index]
        heat = Heat.model_validate(unit.state.extra)
        # Its hit points as a track of cells to cross (UnitView.grids), drawn by the shell on the card.
        hp = [
            GridCell(text=str(n + 1), mark="full" if n < unit.state.damage else "")
            for n in range(unit.state.max_damage)
        ]
        return UnitView(
            sections=[ViewSection(title="Shots", items=[ViewItem(id="shots", label=str(heat.shots))])],
            grids=[CellGrid(title="Hit points", rows=[GridRow(label="HP", cells=hp)])],
        )

    def upgrade_game(self, data: dict[str, Any], schema: int) -> dict[str, Any]:
        """Game schema 1 kept the volleys among the options: they move to the game's state."""
        options = dict(data.get("options", {}))
        if schema == 1 and "volleys" in options:
            data = {
                **data,
                "options": options,
                "state": {**data["state"], "extra": {"volleys": options.pop("volleys")}},
            }
        return data

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
    actions={
        "shoot": ActionSpec.of("shoot", "Shoot", shoot, "", odds=shoot_odds, picks=shoot_picks),
        "aim": ActionSpec.of("aim", "Take aim", aim, "", primary=True, rolls=False),
        "rally": ActionSpec.of("rally", "Rally", rally, "", rolls=False, needs=("pinned",)),
    },
    requirements={"big_gun": big_gun, "pinned": pinned, "aimed": aimed},
    state_model=Volleys,
    unit_state_model=Heat,
    tools={"suggest": ToolSpec("suggest", Budget, suggest, Suggestion, "A unit for a points budget.")},
    editor=EditorInfo(
        kind="toy-dial",
        tools={"suggest": "suggest"},
        data={"default_name": "Dialled", "default_points": 12},
    ),
)
