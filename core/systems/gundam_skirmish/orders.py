"""Orders (L1283-L1293, L1415-L1534): Command Points spent in the player's Initial Upkeep."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from core.dice import DiceSource
from core.game import Game
from core.systems.base import ActionResult
from core.systems.gundam_skirmish.battle import OWN, Changes, has, profile, unit_path
from core.systems.gundam_skirmish.catalogue import ALL_ENTRIES
from core.systems.gundam_skirmish.economy import NOT_BEGUN, in_upkeep
from core.systems.gundam_skirmish.units import is_command, unit_cost


class OrderInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    side: int = Field(
        default=-1,
        ge=-1,
        le=7,
        description="The side giving the order (0 = first); -1: the player in turn, the only one who may "
        "(L286-L291).",
        json_schema_extra={"ui": "hidden"},
    )
    order: Literal[tuple(e.key for e in ALL_ENTRIES["order"].values())] = Field(  # type: ignore[valid-type]
        description="Which order."
    )
    unit: str = Field(
        default="", description="The unit it concerns, where it has one.", json_schema_extra=OWN
    )


def order_cost(game: Game, inp: OrderInput) -> int:
    entry = ALL_ENTRIES["order"][inp.order]
    if inp.order == "withdraw":
        _, _, g = game.unit(inp.unit)
        return -(-g.state.max_damage // 2)  # half the base Integrity, rounded up (L1528-L1529; A40)
    return entry.cp


def order(game: Game, inp: OrderInput, dice: DiceSource) -> ActionResult:
    """Spend Command Points on an order in the Initial Upkeep (L1283-L1293)."""
    entry = ALL_ENTRIES["order"][inp.order]
    if game.state.active_side is None:
        raise ValueError(NOT_BEGUN)
    if inp.side < 0:
        inp = inp.model_copy(update={"side": game.state.active_side})
    side = game.sides[inp.side]
    if game.state.active_side != inp.side:
        raise ValueError(f"orders are given in {side.name}'s own turn, in its Initial Upkeep (L286-L291)")
    if not in_upkeep(game):
        raise ValueError("orders are given in the Initial Upkeep, before any unit of yours acts (L1290)")
    commanders = [
        g for g in side.units if is_command(profile(g)) and not g.state.destroyed and not has(g, "withdrawn")
    ]
    if not commanders:
        raise ValueError("orders need a Command unit still under your control (L1292-L1293)")
    cost = order_cost(game, inp) if inp.unit or inp.order != "withdraw" else 0
    cp = side.resources.get("cp", 0)
    if cp < cost:
        raise ValueError(f"{entry.name} costs {cost} Command Points; {cp} left")
    ch = Changes(game)
    ch.resource(inp.side, "cp", cp - cost)
    text = f"{side.name} orders {entry.name} ({cost} CP)"
    needs_unit = inp.order in (
        "bring_them_down",
        "field_repair",
        "infiltrate",
        "resupply",
        "we_have_reserves",
        "withdraw",
        "double_time",
    )
    if needs_unit:
        s, u, g = game.unit(inp.unit)
        if s != inp.side:
            raise ValueError("an order concerns one of your own units")
        if inp.order in ("bring_them_down", "field_repair", "resupply"):
            text += f" for {g.name}"
        if inp.order == "bring_them_down":
            ch.condition(s, u, "bring_them_down", True)
        elif inp.order == "field_repair":
            ch.set(unit_path(s, u, "damage"), max(0, g.state.damage - 2))
            ch.set(unit_path(s, u, "activated"), True)
            ch.condition(s, u, "no_actions", True)
        elif inp.order == "infiltrate":
            if not has(g, "reserve"):
                raise ValueError(f"{g.name} is not waiting to Ambush")
            ch.condition(s, u, "reserve", False)
            text += f": {g.name} arrives where its player chose, no roll (L1491-L1500)"
        elif inp.order == "resupply":
            ch.extra(s, u, "reload", {})
        elif inp.order == "we_have_reserves":
            if not g.state.destroyed or unit_cost(profile(g)) > 200:
                raise ValueError("only a destroyed unit of 200 points or less returns (L1515-L1523)")
            ch.set(unit_path(s, u, "destroyed"), False)
            ch.set(unit_path(s, u, "damage"), 0)
            for key in ("leg", "arm", "head"):
                ch.counter(s, u, key, 0)
            text += f": {g.name} returns in the deployment zone"
        elif inp.order == "withdraw":
            ch.condition(s, u, "withdrawn", True)
            text += f": {g.name} leaves the battle"
        else:
            text += f" for {g.name}"
    if inp.order == "concentrate_fire":
        ch.resource(inp.side, "concentrate_fire", 1)
    if inp.order == "get_to_cover":
        ch.resource(inp.side, "get_to_cover", 1)
    if inp.order == "colony_laser":
        factions = {f for g in side.units for f in profile(g).factions}
        if not factions & {"TITANS", "ZEON"}:
            raise ValueError(
                "only the Titans and the Principality of Zeon may fire the Colony Laser (L1446-L1447)"
            )
    if entry.by_hand:
        text += f" ({entry.by_hand})"
    return ActionResult(changes=ch.list, text=text)
