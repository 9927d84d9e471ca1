"""Squads: a named list of units of one rule system, with points and rule checks.

A squad keeps every unit's full profile (in its system's stat format), so a
squad, saved or shared, carries the definitions of the user's own units with it.
The system decides what is legal; this module only asks it and reports.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, ValidationInfo

from core import limits
from core.systems import implementation
from core.systems.base import UnitCard, Violation

SQUAD_SCHEMA = 1
MAX_UNITS = 60
#: The most one unit's profile may hold. The largest real one (a Mobile Suit Battles suit
#: with its twenty cards, L109, or forty own cards) has a few hundred lists and objects.
PROFILE_LIMITS = limits.Limits(max_chars=200_000, max_depth=12, max_containers=2_000, max_values=20_000)


#: Validation context key: the profiles of this document were checked already (core.game._apply
#: re-validates a game it changed, whose profiles no change reached; a profile's check costs more
#: than the rest of a unit's validation).
PROFILES_CHECKED = "profiles_checked"


def _bounded_profile(profile: dict[str, Any], info: ValidationInfo) -> dict[str, Any]:
    """A profile within PROFILE_LIMITS (a hostile one would cost seconds to check)."""
    if isinstance(info.context, dict) and info.context.get(PROFILES_CHECKED):
        return profile
    try:
        limits.check(json.dumps(profile, allow_nan=False), PROFILE_LIMITS)
    except limits.TooBig as big:
        raise ValueError(f"this unit is too large to be one: {big}") from big
    except (TypeError, RecursionError) as bad:
        raise ValueError("this unit's profile is not plain data") from bad
    return profile


#: A unit's profile as squads and games keep it (checked by its system, bounded here).
Profile = Annotated[dict[str, Any], AfterValidator(_bounded_profile)]
#: A name shown next to the app's own text: its direction controls are closed within it.
Name = Annotated[str, AfterValidator(limits.balance_bidi)]


class SquadUnit(BaseModel):
    """One entry of a squad: a key unique in the squad, and the unit's profile."""

    model_config = ConfigDict(extra="forbid")

    key: str = Field(min_length=1, max_length=12, pattern=r"^[A-Za-z0-9_-]+$")
    profile: Profile
    origin: str = Field(default="", max_length=80, description="'catalogue:<id>' or 'own:<id>'.")


class Squad(BaseModel):
    """A squad as saved, exported and shared."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SQUAD_SCHEMA
    id: str = Field(min_length=1, max_length=40)
    name: Name = Field(min_length=1, max_length=80)
    system: str
    limit: int | None = Field(default=None, ge=1, le=10000, description="Points limit, if any.")
    units: list[SquadUnit] = Field(default_factory=list, max_length=MAX_UNITS)


class UnitReport(BaseModel):
    key: str
    name: str
    cost: int | None
    violations: list[Violation]
    card: UnitCard | None = None


class SquadReport(BaseModel):
    """Points and every rule a squad breaks, unit by unit."""

    total: int
    limit: int | None
    units: list[UnitReport]
    violations: list[Violation] = Field(description="Rules the squad as a whole breaks.")
    legal: bool


#: Pydantic's messages for the usual slips, in words a player reads (``{}`` from the error's context).
_PLAIN = {
    "too_long": "at most {max_length} allowed",
    "too_short": "at least {min_length} needed",
    "greater_than_equal": "must be {ge} or more",
    "greater_than": "must be more than {gt}",
    "less_than_equal": "must be {le} or less",
    "less_than": "must be less than {lt}",
    "missing": "is needed",
    "string_too_long": "at most {max_length} characters",
    "string_too_short": "at least {min_length} characters",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "literal_error": "is not one of the choices",
    "enum": "is not one of the choices",
}


def _field_path(schema: dict[str, Any], loc: tuple[int | str, ...]) -> str:
    """Where an error is, by the form's own labels: "Weapons, row 2, Accuracy" rather than ``weapons.1.acc``.

    >>> weapons = {"title": "Weapons", "type": "array", "items": {"$ref": "#/$defs/W"}}
    >>> row = {"properties": {"acc": {"title": "Accuracy"}}}
    >>> schema = {"properties": {"weapons": weapons}, "$defs": {"W": row}}
    >>> _field_path(schema, ("weapons", 1, "acc"))
    'Weapons, row 2, Accuracy'
    """
    defs = schema.get("$defs", {})

    def resolve(node: dict[str, Any]) -> dict[str, Any]:
        for _ in range(8):
            if "$ref" in node:
                node = defs.get(str(node["$ref"]).rsplit("/", 1)[-1], {})
            elif "anyOf" in node:
                node = next((n for n in node["anyOf"] if n.get("type") != "null"), {})
            else:
                break
        return node

    node, parts = resolve(schema), []
    for step in loc:
        if isinstance(step, int):
            parts.append(f"row {step + 1}")
            node = resolve(node.get("items", {}))
        else:
            prop = node.get("properties", {}).get(step)
            parts.append(str(prop.get("title", step)) if prop else str(step))
            node = resolve(prop or {})
    return ", ".join(parts)


def _problem_text(error: ValidationError, schema: dict[str, Any] | None = None) -> str:
    """The first problem of an invalid profile, in the words of the form that entered it."""
    first = error.errors(include_url=False)[0]
    loc = tuple(first["loc"])
    where = _field_path(schema, loc) if schema else ".".join(str(p) for p in loc)
    plain = _PLAIN.get(first["type"])
    context = first.get("ctx") or {}
    try:
        message = plain.format(**context) if plain else str(first["msg"]).removeprefix("Value error, ")
    except (KeyError, IndexError):
        message = str(first["msg"]).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


def check(squad: Squad) -> SquadReport:
    """Cost every unit and list every violation (invalid profiles are violations too)."""
    system = implementation(squad.system)
    reports: list[UnitReport] = []
    valid: list[tuple[str, BaseModel]] = []
    keys: set[str] = set()
    squad_violations: list[Violation] = []
    for entry in squad.units:
        if entry.key in keys:
            squad_violations.append(
                Violation(unit=entry.key, rule="duplicate-key", message="two entries share a key")
            )
        keys.add(entry.key)
        try:
            profile = system.profile_model.model_validate(entry.profile)
        except ValidationError as invalid:
            name = str(entry.profile.get("name", entry.key))
            reports.append(
                UnitReport(
                    key=entry.key,
                    name=name,
                    cost=None,
                    violations=[
                        Violation(
                            unit=entry.key,
                            rule="invalid",
                            message=_problem_text(invalid, system.profile_model.model_json_schema()),
                        )
                    ],
                )
            )
            continue
        valid.append((entry.key, profile))
        reports.append(
            UnitReport(
                key=entry.key,
                name=system.unit_name(profile),
                cost=system.unit_cost(profile),
                violations=[
                    v.model_copy(update={"unit": entry.key}) for v in system.unit_violations(profile)
                ],
                card=system.card(profile),
            )
        )
    squad_violations += system.squad_violations(valid, squad.limit)
    by_unit = {r.key: r for r in reports}
    for v in squad_violations:
        if v.unit in by_unit:
            by_unit[v.unit].violations.append(v)
    total = sum(r.cost or 0 for r in reports)
    legal = all(not r.violations for r in reports) and not [v for v in squad_violations if v.unit is None]
    return SquadReport(
        total=total,
        limit=squad.limit,
        units=reports,
        violations=[v for v in squad_violations if v.unit is None],
        legal=legal,
    )
