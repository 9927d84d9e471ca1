"""The campaign's set-up screen (L1702-L1731): a map, the agreed points, four MS Teams per player, each
on a base of its faction's zone and fielding ready-made units or one of the players' own squads.

:func:`form` describes the screen for a draft (defaults filled in, problems in words, so that Start is
offered greyed with its reason rather than refused); :func:`setup_of` turns the draft into the
:class:`~core.systems.gundam_skirmish.campaign_rules.Setup` the campaign starts from.
"""

from __future__ import annotations

from typing import Any

from core.campaign import Choice, Option, SetupDraft, SetupForm, SetupSide, SetupTeam
from core.squad import Squad
from core.systems.gundam_skirmish.campaign_data import MAPS, TABLES
from core.systems.gundam_skirmish.campaign_state import CPilot, CUnit
from core.systems.gundam_skirmish.campaign_view import COLOURS, NAMES
from core.systems.gundam_skirmish.samples import SAMPLES
from core.systems.gundam_skirmish.units import Unit, unit_cost

SYSTEM_ID = __package__.rpartition(".")[2]

#: The ready-made units each faction's teams take in a preset campaign (the book prints no units: A1).
#: Every team fields one pair of the same points, its first unit flown by a character (rank 1: +10
#: points, L1797): each MS Team starts with an equal points value (L1727-L1728; digest: equal points),
#: the Lancer's 170 matched by Zeon's Heavy Gunner.
_PRESET_UNITS = {"EFF": ("lancer", "gun_tank"), "ZEON": ("heavy_gunner", "gun_tank")}
_GRYPS_UNITS = ("lancer", "trooper")
#: Points the players may agree on (L1727-L1728: their choice; at most 1,000, L1740).
POINTS = ("250", "500", "750", "1000")


def _preset_unit(faction: str, n: int) -> dict[str, Any]:
    """A ready-made unit for a preset team: the faction's own samples, or for the Gryps factions a
    sample re-badged as theirs (marked so in its name: our making, like every sample)."""
    if faction in _PRESET_UNITS:
        return {"sample": _PRESET_UNITS[faction][n % 2]}
    unit = SAMPLES[_GRYPS_UNITS[n % 2]]
    data = {**unit.model_dump(mode="json"), "factions": [faction], "name": f"{unit.name} ({faction})"[:60]}
    return {"profile": data}


def home_bases(map_key: str, faction: str) -> list[str]:
    """The bases of ``faction``'s starting zone on the map (L1723-L1725), victory bases last."""
    m = MAPS.maps[map_key]
    home = sorted((b for b in m.bases if m.zone_of(b.x, b.y) == faction), key=lambda b: (b.victory, b.y, b.x))
    return [b.name for b in home]


def preset_teams(map_key: str, faction: str) -> list[dict[str, Any]]:
    """Four ready-made teams of ``faction`` on its home bases, each of the same points (L1727-L1728): the
    same pair of units, the first flown by a named character (the first team's is the faction's ace)."""
    teams = []
    for n, base in enumerate(home_bases(map_key, faction)[: TABLES.start.teams]):
        pilot = f"{faction.title()} ace" if n == 0 else f"{faction.title()} pilot {n + 1}"
        first = {**_preset_unit(faction, 0), "pilot": pilot, "character": True}
        units = [first, _preset_unit(faction, 1)]
        teams.append({"name": f"{faction} team {n + 1}", "base": base, "units": units})
    return teams


def presets() -> list[dict[str, Any]]:
    """A campaign ready to start on each map (samples start at once; the set-up screen builds others)."""
    out = []
    for key, m in MAPS.maps.items():
        era = TABLES.eras[m.era]
        players = [{"faction": f, "teams": preset_teams(key, f)} for f in era.factions]
        out.append(
            {
                "label": f"{m.name}: {era.name}, ready-made teams",
                "setup": {"map": key, "points": 500, "players": players},
            }
        )
    return out


def _unit_of(data: dict[str, Any]) -> Unit:
    if data.get("sample"):
        return SAMPLES[str(data["sample"])]
    return Unit.model_validate({**data["profile"], "pilot": []})


def _squad_units(squad: Squad) -> list[dict[str, Any]]:
    """A squad's units as a team's: each unit's sheet, its named pilot (if any) a character (L1791)."""
    out = []
    for su in squad.units:
        pilots = su.profile.get("pilot") or []
        name = str(pilots[0].get("name", "")) if pilots and isinstance(pilots[0], dict) else ""
        out.append({"profile": {**su.profile, "pilot": []}, "pilot": name, "character": bool(name)})
    return out


def _squad_faction(squad: Squad) -> set[str]:
    """The factions every unit of the squad belongs to (a team is of one faction); none when a unit's
    sheet is not a valid one (such a squad is not offered)."""
    sets: list[set[str]] = []
    for su in squad.units:
        try:
            sets.append(set(Unit.model_validate({**su.profile, "pilot": []}).factions))
        except (ValueError, TypeError):
            return set()
    return set.intersection(*sets) if sets else set()


Fielded = dict[str, tuple[str, list[dict[str, Any]]]]


def _units_options(map_key: str, faction: str, squads: list[Squad]) -> Fielded:
    """What a team of ``faction`` may field, by option value: its label and its units."""
    out: Fielded = {}
    for n, team in enumerate(preset_teams(map_key, faction)):
        names = " + ".join(_unit_of(u).name for u in team["units"])
        out[f"ready:{n}"] = (f"Ready-made: {names}", team["units"])
    for squad in squads:
        if squad.system != SYSTEM_ID or not squad.units or faction not in _squad_faction(squad):
            continue
        out[f"squad:{squad.id}"] = (f"Your squad: {squad.name}", _squad_units(squad))
    return out


def _points(units: list[dict[str, Any]]) -> int:
    """A team's points as the campaign counts them: a character pilot's rank costs too (L1797)."""
    total = 0
    for u in units:
        profile = {**_unit_of(u).model_dump(mode="json"), "pilot": []}
        pilot = CPilot(name=str(u.get("pilot") or "Pilot"), character=bool(u.get("character")))
        try:
            total += unit_cost(CUnit(key="u", profile=profile, pilot=pilot).unit())
        except ValueError:
            total += unit_cost(_unit_of(u))  # a sheet a character cannot fly: start() says so
    return total


def form(draft: SetupDraft, squads: list[Squad]) -> SetupForm:
    """The set-up screen for ``draft``: unknown or missing values replaced by the defaults."""
    maps = list(MAPS.maps)
    map_key = draft.choices.get("map", "")
    map_key = map_key if map_key in MAPS.maps else maps[0]
    points = draft.choices.get("points", "")
    points = points if points in POINTS else "500"
    m = MAPS.maps[map_key]
    era = TABLES.eras[m.era]
    choices = [
        Choice(
            field="map",
            label="Map",
            options=[
                Option(value=k, label=f"{v.name} ({TABLES.eras[v.era].name})", note=TABLES.eras[v.era].ref)
                for k, v in MAPS.maps.items()
            ],
            value=map_key,
        ),
        Choice(
            field="points",
            label="Points per team",
            options=[Option(value=p, label=f"{p} points") for p in POINTS],
            value=points,
        ),
    ]
    sides: list[SetupSide] = []
    problems: list[str] = []
    filled: dict[str, list[SetupTeam]] = {}
    for f in era.factions:
        places = home_bases(map_key, f)
        options = _units_options(map_key, f, squads)
        given = draft.teams.get(f, [])
        teams = []
        for n in range(TABLES.start.teams):
            default = SetupTeam(name=f"{f} team {n + 1}", place=places[n % len(places)], units=f"ready:{n}")
            t = given[n] if n < len(given) else default
            teams.append(
                SetupTeam(
                    name=t.name,
                    place=t.place if t.place in places else default.place,
                    units=t.units if t.units in options else default.units,
                )
            )
        filled[f] = teams
        used = [t.place for t in teams]
        for place in sorted({p for p in used if used.count(p) > 1}):
            problems.append(f"{NAMES[f]}: two teams on {place} (one team per tile, L1743)")
        for t in teams:
            pts = _points(options[t.units][1])
            if pts > int(points):
                problems.append(f"{t.name} has {pts} points, over the agreed {points} (L1727-L1728)")
        sides.append(
            SetupSide(
                key=f,
                name=NAMES[f],
                colour=COLOURS[f],
                places=[Option(value=p, label=p) for p in places],
                units=[
                    Option(value=k, label=label, note=f"{_points(units)} points")
                    for k, (label, units) in options.items()
                ],
                teams=teams,
            )
        )
    note = (
        f"{MAPS.note} Each player places {TABLES.start.teams} MS Teams on bases of their zone; your own "
        "squads of a faction are offered for its teams."
    )
    return SetupForm(
        choices=choices,
        sides=sides,
        note=note,
        problems=problems,
        draft=SetupDraft(choices={"map": map_key, "points": points}, teams=filled),
    )


def setup_of(draft: SetupDraft, squads: list[Squad]) -> dict[str, Any]:
    """The set-up the draft describes (checked again when the campaign starts)."""
    shown = form(draft, squads)
    if shown.problems:
        raise ValueError(shown.problems[0])
    map_key = shown.draft.choices["map"]
    players = []
    for f, teams in shown.draft.teams.items():
        options = _units_options(map_key, f, squads)
        players.append(
            {
                "faction": f,
                "teams": [{"name": t.name, "base": t.place, "units": options[t.units][1]} for t in teams],
            }
        )
    return {"map": map_key, "points": int(shown.draft.choices["points"]), "players": players}
