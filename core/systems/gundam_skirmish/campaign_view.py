"""What a Gundam Skirmish campaign's screen shows: the 8x8 map in the factions' colours (L1717-L1723),
the players' War Effort and Requisition, each team's and base's sheet, and the steps of the turn."""

from __future__ import annotations

from fractions import Fraction

from core.campaign import Campaign, CampaignView, Cell, Choice, Mark, Option, SheetView, SideView, StepView
from core.systems.base import CardLine
from core.systems.gundam_skirmish.campaign_data import (
    GOOD,
    MAPS,
    POOR,
    TABLES,
    event_death_risk,
    event_odds,
    fighter_allowance,
    rank_title,
)
from core.systems.gundam_skirmish.campaign_state import CampaignState, CUnit, Team, tile_name
from core.systems.gundam_skirmish.campaign_turn import attacks, order_cost
from core.systems.gundam_skirmish.samples import SAMPLES

#: The factions' colours on the map (L1721-L1723).
COLOURS = {"EFF": "blue", "ZEON": "red", "AXIS": "red", "AEUG": "yellow", "TITANS": "purple"}
NAMES = {
    "EFF": "Earth Federation Forces",
    "ZEON": "Principality of Zeon",
    "TITANS": "TITANS",
    "AEUG": "Anti-Earth Union Group",
    "AXIS": "Axis Zeon",
}


def _unit_line(cu: CUnit, faction: str, space: bool) -> CardLine:
    unit = cu.unit()
    parts = [f"damage {cu.damage}/{unit.integrity}"]
    parts += [f"{k} damage {v}" for k, v in cu.charts.items() if v]
    p = cu.pilot
    if p is None:
        note = "no pilot"
    elif p.character:
        note = f"{p.name}, {rank_title(faction, space, p.rank)} (rank {p.rank}), "
        note += f"Health {p.health}, Mind {p.mind}, EXP {p.exp}"
        if p.to_choose:
            note += ", to choose: " + ", ".join(k.replace("_", " ") for k in p.to_choose)
        if cu.profile.get("kind") == "mobile_fighter":
            tech, abil = fighter_allowance(p.rank)
            known = ", ".join(p.techniques) or "none yet"
            note += f"; techniques {known} ({len(p.techniques)} of {'all' if tech is None else tech})"
            if p.fighter_abilities or abil:
                chosen = ", ".join(a.replace("_", " ") for a in p.fighter_abilities) or "none yet"
                of = "all" if abil is None else abil
                note += f", abilities {chosen} ({len(p.fighter_abilities)} of {of})"
    else:
        note = f"pilot Health {p.health}, Mind {p.mind}"
    return CardLine(label=cu.name, value=", ".join(parts), note=note)


def _tile(st: CampaignState, x: int, y: int) -> str:
    """A tile as a sheet names it: its coordinates and the terrain name the players gave it."""
    terrain = st.terrain_at(x, y)
    return tile_name(x, y) + (f", {terrain}" if terrain else "")


def team_sheet(st: CampaignState, team: Team) -> SheetView:
    space = MAPS.maps[st.map].space
    lines = [
        CardLine(label="Faction", value=NAMES[team.faction]),
        CardLine(label="Tile", value=_tile(st, team.x, team.y)),
        CardLine(label="Points", value=f"{team.points()} of {TABLES.start.max_points}"),
    ]
    lines += [_unit_line(u, team.faction, space) for u in team.units]
    lines += [
        CardLine(label="Reserve pilot", value=p.name, note=f"Health {p.health}, Mind {p.mind}")
        for p in team.reserve
    ]
    flags = [
        text
        for on, text in (
            (team.no_move, "cannot move this turn (Provisions Shortage)"),
            (team.free_move, "has a free step (Cartography)"),
            (team.exhausted, "exhausted this turn"),
        )
        if on
    ]
    if flags:
        lines.append(CardLine(label="This turn", value="; ".join(flags)))
    return SheetView(key=team.key, title=team.name, side=team.faction, lines=lines)


def _steps(st: CampaignState) -> list[StepView]:
    out: list[StepView] = []
    if st.winner:
        return out
    phase = st.phase
    out.append(
        StepView(
            action="begin_turn",
            label="Begin the turn",
            enabled=phase == "start",
            reason="" if phase == "start" else "the turn has begun",
        )
    )
    own = [t for t in st.teams if t.faction == st.player.faction]
    for t in own:
        if not t.event_rolled and phase == "events":
            out.append(
                StepView(
                    action="event_die",
                    label=f"Event Die: {t.name}",
                    enabled=True,
                    team=t.key,
                    input={"team": t.key},
                    note=event_note(t),
                )
            )
    for t in own:
        out += _team_steps(st, t)
    out += [place_step(t) for t in st.teams]
    out += [a for t in st.teams if (a := assign_step(t)) is not None]
    out += [f for t in st.teams for f in fighter_steps(t)]
    out += [r for t in st.teams for r in reward_steps(t)]
    out += base_steps(st)
    out.append(tile_step(st))
    out.append(terrain_step())
    out.append(
        StepView(
            action="note",
            minor=True,
            label="Note what was agreed",
            enabled=True,
            choices=[Choice(field="text", label="Diplomacy: what was agreed", options=[])],
        )
    )
    ready = phase == "actions"
    out.append(
        StepView(
            action="end_turn",
            label="End the turn",
            enabled=ready,
            reason=""
            if ready
            else ("begin the turn first" if phase == "start" else "roll the Event Dice first"),
        )
    )
    return out


def _chance(p: Fraction) -> str:
    """A chance in plain words: '1 in 6', '5 in 36', 'none'."""
    return "none" if p == 0 else f"{p.numerator} in {p.denominator}"


def event_note(t: Team) -> str:
    """The Event Die's exact odds (L2074-L2122): Poor and Good Fortune, and each pilot's risk of dying
    of it when the risk is not nil (L1806-L1808)."""
    odds = event_odds()
    poor = sum((p for n, p in odds.items() if n in {r.name for r in POOR.rows}), Fraction(0))
    good = sum((p for n, p in odds.items() if n in {r.name for r in GOOD.rows}), Fraction(0))
    text = f"Poor Fortune {_chance(poor)}, Good Fortune {_chance(good)}"
    risks = [f"{p.name} {_chance(r)}" for p in t.pilots() if (r := event_death_risk(p.health, p.mind))]
    if risks:
        text += "; risk of death: " + ", ".join(risks)
    return text


def _team_steps(st: CampaignState, t: Team) -> list[StepView]:
    out: list[StepView] = []
    if st.phase != "actions":
        return out
    why = ""
    if t.exhausted:
        why = "exhausted this turn"
    elif st.actions_left <= 0:
        why = "no action left this turn"
    for direction, (dx, dy) in (("north", (0, 1)), ("south", (0, -1)), ("east", (1, 0)), ("west", (-1, 0))):
        x, y = t.x + dx, t.y + dy
        reason = why or ("cannot move: Provisions Shortage" if t.no_move else "")
        if not (1 <= x <= 8 and 1 <= y <= 8):
            reason = "off the map"
        elif st.neutral(x, y):
            reason = "neutral zone"
        elif any(o.faction != t.faction for o in st.at(x, y)):
            reason = "an enemy team holds it"
        out.append(
            StepView(
                action="move",
                label=f"Move {direction}",
                enabled=not reason,
                reason=reason,
                team=t.key,
                input={"team": t.key, "direction": direction},
            )
        )
        if t.free_move and reason in ("", why):
            out.append(
                StepView(
                    action="move",
                    label=f"Free step {direction}",
                    enabled=True,
                    team=t.key,
                    input={"team": t.key, "direction": direction, "free": True},
                )
            )
    near = [o for o in st.teams if o.faction != t.faction and abs(o.x - t.x) + abs(o.y - t.y) == 1]
    reason = why or ("" if near else "no enemy team next to it")
    out.append(
        StepView(
            action="battle",
            label="Battle",
            enabled=not reason,
            reason=reason,
            team=t.key,
            input={"team": t.key},
            choices=battle_choices(near) if near else [],
        )
    )
    base = st.base_at(t.x, t.y)
    if base is not None:
        locked = "captured this turn" if base.name in st.entered else ""
        mine = base.owner == t.faction
        cap = why or locked or ("already ours" if mine else "")
        out.append(
            StepView(
                action="enter_base",
                label=f"Capture {base.name}",
                enabled=not cap,
                reason=cap,
                team=t.key,
                input={"team": t.key, "capture": True},
            )
        )
        svc = why or locked or ("" if mine else "not ours: capture it first")
        damaged = [u.key for u in t.units if u.damage or u.charts]
        out.append(
            StepView(
                action="enter_base",
                label=f"Get Aid at {base.name}",
                enabled=not svc,
                reason=svc,
                team=t.key,
                input={"team": t.key, "aid": True},
            )
        )
        rep = svc or ("" if damaged else "nothing to repair")
        out.append(
            StepView(
                action="enter_base",
                label=f"Repair at {base.name} ({len(damaged)} Requisition)",
                enabled=not rep,
                reason=rep,
                team=t.key,
                input={"team": t.key, "repair": damaged},
            )
        )
        out += _base_services(st, t, base.name, svc)
    return out


def _base_services(st: CampaignState, t: Team, base: str, svc: str) -> list[StepView]:
    """Recruit a Pilot (L2161-L2164) and order a unit (L2153-L2156) at a base of the team's faction."""
    money = st.player.requisition
    cost = TABLES.services.recruit_cost
    why = svc or ("" if money >= cost else f"{cost} Requisition needed")
    recruit = StepView(
        action="enter_base",
        label=f"Recruit a pilot at {base} ({cost} Requisition)",
        enabled=not why,
        reason=why,
        team=t.key,
        input={"team": t.key},
        choices=[Choice(field="recruit_name", label="The new pilot's name", options=[])] if not why else [],
    )
    units = [(k, u) for k, u in SAMPLES.items() if t.faction in u.factions]
    afford = [(k, u) for k, u in units if order_cost(u) <= money]
    poor = "not enough Requisition for any unit" if units else "no ready-made unit of its faction"
    why = svc or ("" if afford else poor)
    choices = []
    if not why:
        choices = [
            Choice(
                field="order",
                label="Unit",
                options=[Option(value=k, label=f"{u.name} ({order_cost(u)} Requisition)") for k, u in afford],
                value=afford[0][0],
            )
        ]
        if t.reserve:
            pilots = [
                Option(value="", label="nobody yet"),
                *(Option(value=p.name, label=p.name) for p in t.reserve),
            ]
            choices.append(
                Choice(field="order_pilot", label="Flown by", options=pilots, value=t.reserve[0].name)
            )
    order = StepView(
        action="enter_base",
        label=f"Order a unit at {base}",
        enabled=not why,
        reason=why,
        team=t.key,
        input={"team": t.key},
        choices=choices,
    )
    return [recruit, order]


#: The game types (L165-L225), as the players agree on one for a campaign battle (L2136-L2137).
GAME_TYPES = {
    "deathmatch": "Deathmatch: the last side with units wins",
    "skirmish": "Skirmish: most points destroyed in D6+4 turns",
    "objective": "Objective: hold the zone longest",
    "territory": "Territory: hold the most quarters",
    "battle_royale": "Battle Royale: a deathmatch in a small arena",
}


def battle_choices(near: list[Team]) -> list[Choice]:
    """What the players agree before a battle: the game type (L2136-L2137) and, with teams of several
    factions next to the initiator, whose teams join it (L2133-L2135)."""
    out = [
        Choice(
            field="game_type",
            label="Game type",
            options=[Option(value=k, label=v) for k, v in GAME_TYPES.items()],
            value="deathmatch",
        )
    ]
    factions = sorted({o.faction for o in near})
    if len(factions) > 1:
        out.append(
            Choice(
                field="against",
                label="Who joins the battle",
                multiple=True,
                options=[
                    Option(value=f, label=", ".join(o.name for o in near if o.faction == f), note=NAMES[f])
                    for f in factions
                ],
                value=factions,
            )
        )
    return out


def assign_step(t: Team) -> StepView | None:
    """Give a unit another pilot of the team (L1811-L1812): offered when there is someone to swap."""
    pilots = [u.pilot for u in t.units if u.pilot is not None] + t.reserve
    if not t.reserve and not any(u.pilot is None for u in t.units):
        return None
    if not pilots:
        return StepView(
            action="assign", label="Change pilots", enabled=False, reason="no pilot left", team=t.key
        )
    free = [u for u in t.units if u.pilot is None] or t.units
    return StepView(
        action="assign",
        label="Change pilots",
        enabled=True,
        team=t.key,
        input={"team": t.key},
        choices=[
            Choice(
                field="pilot",
                label="Pilot",
                options=[Option(value=p.name, label=p.name) for p in pilots],
                value=t.reserve[0].name if t.reserve else pilots[0].name,
            ),
            Choice(
                field="unit",
                label="Flies",
                options=[
                    Option(value=u.key, label=f"{u.name} ({u.pilot.name if u.pilot else 'no pilot'})")
                    for u in t.units
                ],
                value=free[0].key,
            ),
        ],
    )


def fighter_steps(t: Team) -> list[StepView]:
    """A Mobile Fighter character's techniques and abilities (L1834-L1846), one step per such unit."""
    out = []
    for u in t.units:
        p = u.pilot
        if u.profile.get("kind") != "mobile_fighter" or p is None or not p.character:
            continue
        tech, abil = fighter_allowance(p.rank)
        room_t = tech is None or len(p.techniques) < tech
        own = [str(a.get("key")) for a in u.profile.get("abilities", []) if isinstance(a, dict)]
        left = [a for a in own if a not in p.fighter_abilities]
        room_a = bool(left) and (abil is None or len(p.fighter_abilities) < abil)
        choices = []
        unknown = [a for a in attacks(u.profile) if a not in p.techniques]
        room_t = room_t and bool(unknown)
        if room_t:
            options = [Option(value="", label="none now")] + [Option(value=a, label=a) for a in unknown]
            choices.append(Choice(field="technique", label="New technique", options=options, value=""))
        if room_a:
            options = [Option(value="", label="none now")]
            options += [Option(value=a, label=a.replace("_", " ")) for a in left]
            choices.append(Choice(field="ability", label="Ability", options=options, value=""))
        out.append(
            StepView(
                action="fighter_reward",
                label=f"Techniques: {p.name}",
                enabled=bool(choices),
                reason="" if choices else f"rank {p.rank} allows no more",
                team=t.key,
                input={"team": t.key, "unit": u.key},
                choices=choices,
            )
        )
    return out


def reward_steps(t: Team) -> list[StepView]:
    """A trait or mod earned at a new rank or Heroic Level, to choose (L1821-L1832, L3208-L3211)."""
    from core.systems.gundam_skirmish.catalogue import ALL_ENTRIES

    out = []
    for u in t.units:
        p = u.pilot
        if p is None or not p.to_choose:
            continue
        kind = p.to_choose[0]
        have = {"trait": p.traits, "mod": p.mods}
        have |= {"heroic_trait": p.heroic_traits, "heroic_mod": p.heroic_mods}
        options = [Option(value=k, label=e.name, note=e.help) for k, e in ALL_ENTRIES.get(kind, {}).items()]
        options = [o for o in options if o.value not in have[kind]]
        words = kind.replace("_", " ")
        first = options[0].value if options else ""
        pick = [Choice(field="choice", label=words.capitalize(), options=options, value=first)]
        out.append(
            StepView(
                action="choose_reward",
                label=f"Choose a {words}: {p.name}",
                enabled=bool(options),
                reason="" if options else f"no {words} left to choose",
                team=t.key,
                input={"team": t.key, "unit": u.key},
                choices=pick if options else [],
            )
        )
    return out


def tile_step(st: CampaignState) -> StepView:
    """Editing the map by hand: a tile's zone, chosen first, then the tile tapped."""
    zones = [Option(value=p.faction, label=f"{NAMES[p.faction]}'s zone") for p in st.players]
    zones += [Option(value="", label="no zone"), Option(value="neutral", label="neutral zone (closed)")]
    return StepView(
        action="edit_tile",
        minor=True,
        label="Edit the map: a tile's zone",
        enabled=True,
        choices=[Choice(field="zone", label="Make it", options=zones, value="neutral")],
        pick="tile",
    )


def terrain_step() -> StepView:
    """Editing the map by hand: a tile's terrain name (L1717-L1718), written first, then the tile tapped."""
    return StepView(
        action="name_tile",
        minor=True,
        label="Edit the map: a tile's terrain name",
        enabled=True,
        choices=[Choice(field="terrain", label="Terrain name (empty clears it)", options=[], value="")],
        pick="tile",
    )


def base_steps(st: CampaignState) -> list[StepView]:
    """Editing the map by hand: move a base to a tapped tile, or change who holds it."""
    out = []
    holders = [Option(value="", label="nobody")]
    holders += [Option(value=p.faction, label=NAMES[p.faction]) for p in st.players]
    for b in st.bases:
        out.append(
            StepView(
                action="edit_base",
                minor=True,
                label="Move the base by hand",
                enabled=True,
                team=b.name,
                input={"base": b.name},
                pick="tile",
            )
        )
        out.append(
            StepView(
                action="edit_base",
                minor=True,
                label="Who holds it",
                enabled=True,
                team=b.name,
                input={"base": b.name},
                choices=[Choice(field="owner", label="Held by", options=holders, value=b.owner)],
            )
        )
    return out


def place_step(t: Team) -> StepView:
    """Placing a team by hand on a tapped tile (the players' correction, no action spent)."""
    return StepView(
        action="place",
        label="Place by hand",
        enabled=True,
        team=t.key,
        input={"team": t.key},
        pick="tile",
        minor=True,
    )


def _short(st: CampaignState, team: Team) -> str:
    """A team as its tile shows it: its faction's first letter and its number among that faction's
    teams (E2, Z1), the colour saying the rest."""
    own = [t.key for t in st.teams if t.faction == team.faction]
    return f"{team.faction[0]}{own.index(team.key) + 1}"


def view(campaign: Campaign) -> CampaignView:
    st = CampaignState.model_validate(campaign.state)
    m = MAPS.maps[st.map]
    cells = []
    for y in range(8, 0, -1):
        for x in range(1, 9):
            marks = []
            base = st.base_at(x, y)
            if base is not None:
                marks.append(
                    Mark(
                        kind="base",
                        key=base.name,
                        label=base.name,
                        side=base.owner,
                        flag="victory" if base.victory else "",
                    )
                )
            for t in st.at(x, y):
                marks.append(
                    Mark(
                        kind="team",
                        key=t.key,
                        label=t.name,
                        short=_short(st, t),
                        side=t.faction,
                        flag="exhausted" if t.exhausted else "",
                    )
                )
            cells.append(
                Cell(
                    x=x,
                    y=y,
                    zone=st.zone(x, y),
                    closed=st.neutral(x, y),
                    terrain=st.terrain_at(x, y),
                    marks=marks,
                )
            )
    sides = [
        SideView(
            key=p.faction,
            name=NAMES[p.faction],
            colour=COLOURS[p.faction],
            lines=[
                CardLine(label="War Effort", value=str(p.war_effort)),
                CardLine(label="Requisition", value=str(p.requisition)),
                CardLine(label="Teams", value=str(sum(t.faction == p.faction for t in st.teams))),
                CardLine(
                    label="Victory bases",
                    value=f"{sum(b.owner == p.faction for b in st.bases if b.victory)} of "
                    f"{sum(b.victory for b in st.bases)}",
                ),
            ],
        )
        for p in st.players
    ]
    sheets = [team_sheet(st, t) for t in st.teams]
    sheets += [
        SheetView(
            key=b.name,
            title=b.name,
            side=b.owner,
            lines=[
                CardLine(label="Held by", value=NAMES[b.owner] if b.owner else "nobody"),
                CardLine(label="Tile", value=_tile(st, b.x, b.y)),
                *([CardLine(label="Victory", value="needed to win the campaign")] if b.victory else []),
            ],
        )
        for b in st.bases
    ]
    phase = {"start": "begin the turn", "events": "Event Die for each team", "actions": "actions"}[st.phase]
    status = [
        CardLine(label="Map", value=f"{m.name} ({TABLES.eras[m.era].name})"),
        CardLine(label="Turn", value=f"{st.player.faction}, round {st.round}"),
        CardLine(label="Step", value=phase),
        CardLine(label="Actions left", value=str(st.actions_left)),
    ]
    if st.winner:
        status = [CardLine(label="Winner", value=NAMES[st.winner])]
    if campaign.battle is not None:
        status.append(CardLine(label="Battle", value="being played: apply its result to go on"))
    return CampaignView(
        title=campaign.name,
        note=MAPS.note,
        width=8,
        height=8,
        cells=cells,
        sides=sides,
        sheets=sheets,
        status=status,
        steps=[] if campaign.battle is not None else _steps(st),
        log=[e.text for e in campaign.log[: campaign.cursor]][-30:],
    )
