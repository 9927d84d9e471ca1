"""The one seam between the browser and the rules: JSON in, JSON out, errors as data.

The engine worker calls :func:`handle` with a request such as
``{"op": "dice.odds", "args": {...}}`` and gets back
``{"ok": true, "result": {...}, "ms": 1.2}`` or
``{"ok": false, "error": {"code": ..., "message": ..., "problems": [...]}}``.
Nothing a request contains can make it raise.

>>> import json
>>> reply = json.loads(handle('{"op": "dice.odds", "args": {"attack": {"dice": 2, "success_on": 4}}}'))
>>> reply["ok"], reply["result"]["net"]["mean"]
(True, '1/1')
>>> reply = json.loads(handle('{"op": "dice.odds", "args": {"attack": {"dice": 2, "success_on": 7}}}'))
>>> reply["error"]["problems"][0]["message"]
'a d6 cannot succeed on 7+: choose 1+ to 6+'

Every operation is an entry of :data:`OPERATIONS`: an input model, a function
and an output model.  The build writes their JSON Schemas to the site, and
the interface builds forms from them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core import __version__
from core.dice import NeedMoreDice, RandomDice, TypedDice
from core.pool import (
    MAX_DICE,
    SIDES,
    ContestRoll,
    PoolSpec,
    Table,
    contest_summary,
    roll_contest,
    table,
)
from core.systems import SYSTEMS, SystemInfo

#: The most faces a player may type for one roll (every die plus its reroll).
MAX_FACES = 2 * 2 * MAX_DICE


class Problem(BaseModel):
    """One thing wrong with a request, with where it is."""

    field: str
    message: str


class ApiError(BaseModel):
    """Why a request was not carried out: shown to the player as it is."""

    code: Literal["bad_request", "unknown_op", "invalid", "internal"]
    message: str
    problems: list[Problem] = []


class RequestError(Exception):
    """Raised by an operation for a request that is well-formed but cannot be met."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


# --- operations ---------------------------------------------------------------------


class MetaArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MetaResult(BaseModel):
    version: str
    systems: list[SystemInfo]
    operations: list[str]
    max_dice: int
    sides: list[int]


def meta(_: MetaArgs) -> MetaResult:
    """What this engine is and can do."""
    return MetaResult(
        version=__version__,
        systems=list(SYSTEMS),
        operations=sorted(OPERATIONS),
        max_dice=MAX_DICE,
        sides=list(SIDES),
    )


class ContestArgs(BaseModel):
    """An attack pool and, optionally, an opposed pool whose successes cancel it."""

    model_config = ConfigDict(extra="forbid")

    attack: PoolSpec
    defense: PoolSpec | None = None


class OddsResult(BaseModel):
    net: Table = Field(description="Net successes (attack successes left after cancelling).")
    attack_crits: Table
    defense_crits: Table | None
    p_net_and_crit: float = Field(
        description="Chance of at least one net success and at least one attack critical."
    )


def odds(args: ContestArgs) -> OddsResult:
    """Exact odds of a contest, from the same procedure that rolls it."""
    summary = contest_summary(args.attack, args.defense)
    return OddsResult(
        net=table(summary.net),
        attack_crits=table(summary.attack_crits),
        defense_crits=table(summary.defense_crits) if summary.defense_crits else None,
        p_net_and_crit=float(summary.net_and_crit),
    )


class RollArgs(ContestArgs):
    """Roll a contest with the app's dice (optionally seeded) or with typed faces."""

    seed: int | None = Field(default=None, description="Seed for a reproducible roll.")
    faces: list[int] | None = Field(
        default=None,
        max_length=MAX_FACES,
        description="Faces of physical dice, in the order asked: attack, its rerolls, defense, its rerolls.",
    )


class Need(BaseModel):
    """More physical dice are wanted before the roll can be resolved."""

    count: int
    sides: int
    purpose: str


class RollResult(BaseModel):
    complete: bool
    need: Need | None = None
    roll: ContestRoll | None = None


def roll(args: RollArgs) -> RollResult:
    """Resolve a contest; with typed faces, say which dice to roll next if any are missing."""
    if args.faces is None:
        return RollResult(complete=True, roll=roll_contest(args.attack, args.defense, RandomDice(args.seed)))
    source = TypedDice(args.faces)
    try:
        result = roll_contest(args.attack, args.defense, source)
    except NeedMoreDice as need:
        return RollResult(
            complete=False, need=Need(count=need.needed, sides=need.sides, purpose=need.purpose)
        )
    except ValueError as bad:
        raise RequestError(str(bad), "faces") from bad
    if source.left:
        raise RequestError(
            f"{len(args.faces)} faces were entered but this roll uses {source.used}: remove {source.left}",
            "faces",
        )
    return RollResult(complete=True, roll=result)


@dataclass(frozen=True)
class Operation:
    """An entry of the API: its input model, its function and its output model."""

    args: type[BaseModel]
    run: Callable[[Any], BaseModel]
    result: type[BaseModel]
    summary: str


OPERATIONS: dict[str, Operation] = {
    "meta": Operation(MetaArgs, meta, MetaResult, "What the engine is and can do."),
    "dice.odds": Operation(ContestArgs, odds, OddsResult, "Exact odds of a dice contest."),
    "dice.roll": Operation(RollArgs, roll, RollResult, "Roll a dice contest."),
}


# --- the seam -------------------------------------------------------------------------


def _problems(error: ValidationError) -> list[Problem]:
    out = []
    for item in error.errors(include_url=False):
        where = ".".join(str(p) for p in item["loc"])
        message = str(item["msg"]).removeprefix("Value error, ")
        out.append(Problem(field=where, message=message))
    return out


def _error(code: str, message: str, problems: list[Problem] | None = None) -> dict[str, Any]:
    err = ApiError.model_validate({"code": code, "message": message, "problems": problems or []})
    return {"ok": False, "error": err.model_dump()}


def call(op: str, args: Any) -> dict[str, Any]:
    """Run one operation on already-parsed JSON; the reply as a JSON-ready dict."""
    operation = OPERATIONS.get(op) if isinstance(op, str) else None
    if operation is None:
        return _error("unknown_op", f"unknown operation {op!r}")
    started = time.perf_counter()
    try:
        parsed = operation.args.model_validate(args if args is not None else {})
        result = operation.run(parsed)
    except ValidationError as invalid:
        problems = _problems(invalid)
        return _error("invalid", problems[0].message if problems else "invalid request", problems)
    except RequestError as bad:
        return _error("invalid", str(bad), [Problem(field=bad.field, message=str(bad))])
    except Exception as crash:  # the seam never lets a traceback reach the page
        return _error("internal", f"the engine failed: {type(crash).__name__}: {crash}")
    ms = (time.perf_counter() - started) * 1000
    return {"ok": True, "result": result.model_dump(mode="json"), "ms": round(ms, 3)}


def handle(request: str) -> str:
    """The browser's entry point: a JSON request string in, a JSON reply string out."""
    try:
        data = json.loads(request)
    except (TypeError, ValueError) as bad:
        return json.dumps(_error("bad_request", f"the request is not JSON: {bad}"))
    if not isinstance(data, dict) or "op" not in data:
        return json.dumps(_error("bad_request", "a request is an object with an 'op'"))
    return json.dumps(call(data["op"], data.get("args")))


def schemas() -> dict[str, dict[str, Any]]:
    """JSON Schemas of every operation's input and output (the build writes them out)."""
    return {
        name: {
            "summary": op.summary,
            "args": op.args.model_json_schema(),
            "result": op.result.model_json_schema(),
        }
        for name, op in OPERATIONS.items()
    }
