"""A campaign Battle (L2132-L2143): the game it starts, and what flows back when that game ends.

:func:`plan` makes one side per faction from the teams involved (the initiating team and every
orthogonally adjacent enemy team that joins), each unit with the damage and Damage Chart levels it
carries (L1111-L1113, L1755-L1758) and its character's Health, Mind and rank.  :func:`result` reads
the finished game: destroyed units leave their team (their pilots by the Destruction Table,
L1137-L1145), damage stays until repaired, pilots at -4 die (L1806-L1808), characters earn EXP
(L1854-L1901), tick boxes and ranks (L1815-L1832) and Heroic Levels (L3208-L3211); each team's War
Effort and Mind change by the after-battle table (L2190-L2208); a team left with no unit or pilot is
removed (L2137-L2138) and a team that withdrew entirely steps back (L2140-L2143).
"""

from __future__ import annotations

import math
import re
from typing import Any

from pydantic import Field

from core.campaign import BattlePlan, Campaign, Step
from core.game import Game, GameUnit
from core.squad import Squad, SquadUnit
from core.systems import implementation
from core.systems.base import Change, Closed, action_flow
from core.systems.gundam_skirmish.campaign_data import (
    MAPS,
    TABLES,
    dead,
    heroic_after,
    rank_after,
    rewards_at,
)
from core.systems.gundam_skirmish.campaign_state import CampaignState, CPilot, CUnit, Team, tile_name
from core.systems.gundam_skirmish.campaign_turn import STEPS, _own, _spend, readings, remove_dead, state_of
from core.systems.gundam_skirmish.campaign_view import NAMES
from core.systems.gundam_skirmish.game_types import Mission
from core.systems.gundam_skirmish.units import Unit, unit_cost

SYSTEM_ID = __package__.rpartition(".")[2]


class BattleInput(Closed):
    team: str = Field(max_length=6, description="The MS Team that starts the battle.")
    join: list[str] = Field(
        default_factory=list,
        max_length=8,
        description="Adjacent teams of a third faction that choose to join (L2133-L2135); every adjacent "
        "team of the factions fought takes part.",
    )
    against: list[str] = Field(
        default_factory=list, max_length=3, description="With several factions adjacent: the ones fought."
    )
    game_type: Mission = Field(default="deathmatch", description="Agreed by the players (L2137).")


def _adjacent(st: CampaignState, team: Team) -> list[Team]:
    return [t for t in st.teams if t.faction != team.faction and abs(t.x - team.x) + abs(t.y - team.y) == 1]


def plan(campaign: Campaign, inp: BattleInput) -> BattlePlan:
    """The armies of a Battle: one side per faction, the initiator's first (L2132-L2137)."""
    st = state_of(campaign)
    team = _own(st, inp.team)
    _spend(st, team)
    near = _adjacent(st, team)
    if not near:
        raise ValueError(f"no enemy MS Team is next to {team.name} (up, down, left or right)")
    factions = sorted({t.faction for t in near})
    fought = inp.against or factions
    if any(f not in factions for f in fought):
        raise ValueError("a faction fought must have a team next to the initiating team")
    teams = [team, *(t for t in near if t.faction in fought or t.key in inp.join)]
    space = MAPS.maps[st.map].space
    order = [team.faction, *(f for f in dict.fromkeys(t.faction for t in teams) if f != team.faction)]
    sides: list[tuple[str, Squad]] = []
    units: dict[str, list[str]] = {}
    left_out: list[str] = []
    for n, faction in enumerate(order):
        entries = []
        for t in teams:
            if t.faction != faction:
                continue
            for u in t.units:
                unit = u.unit()
                if not u.fieldable() or (space and unit.no_space):
                    left_out.append(f"{u.name} ({t.name})")
                    continue
                key = f"{t.key}-{u.key}"
                units[key] = [t.key, u.key]
                entries.append(SquadUnit(key=key, profile=unit.model_dump(mode="json")))
        if not entries:
            raise ValueError(f"{faction} has no unit able to fight (a living pilot and Integrity left)")
        name = NAMES[faction]  # the side as the game screen names it, in plain words
        sides.append((name, Squad(id=f"c{n}", name=name, system=SYSTEM_ID, units=entries)))
    at_start = {t.key: [t.x, t.y] for t in teams}
    kept = {
        "tile": [team.x, team.y],
        "teams": [t.key for t in teams],
        "sides": order,
        "units": units,
        "origins": at_start,
        "points": {
            t.key: sum(unit_cost(u.unit()) for u in t.units if f"{t.key}-{u.key}" in units) for t in teams
        },
    }

    def prepare(game: Game) -> list[Change]:
        """The damage and Damage Chart levels each unit carries; the game type; space (L1367)."""
        out = [Change(path=["state", "mission"], value=inp.game_type)]
        # voluntary withdrawal once 4 turns have passed (L2139-L2140): from round 5, or 4 (A51)
        start = 5 if readings(campaign).withdrawal == "after_4" else 4
        out.append(Change(path=["state", "extra", "withdraw_from"], value=start))
        if space:
            out.append(Change(path=["state", "extra", "space"], value=True))
        for s, side in enumerate(game.sides):
            for i, gu in enumerate(side.units):
                tkey, ukey = units[gu.key]
                cu = next(u for u in st.team(tkey).units if u.key == ukey)
                if cu.damage:
                    out.append(Change(path=["sides", s, "units", i, "state", "damage"], value=cu.damage))
                for chart, level in cu.charts.items():
                    if level:
                        out.append(
                            Change(path=["sides", s, "units", i, "state", "counters", chart], value=level)
                        )
        return out

    names = " vs ".join(" + ".join(t.name for t in teams if t.faction == f) for f in order)
    text = f"Battle at tile {tile_name(team.x, team.y)}: {names}, {inp.game_type.replace('_', ' ')}"
    if left_out:
        text += "; staying out: " + ", ".join(left_out)
    return BattlePlan(
        name=f"{campaign.name}: {names}"[:80], sides=sides, plan=kept, prepare=prepare, state=st, text=text
    )


# --- the result ---------------------------------------------------------------------

_DESTRUCTION = re.compile(r"(.+?) is destroyed; Destruction Table (\d)")
#: Health and Mind lost on each Destruction Table face (L1137-L1145); 1 is Instant Death (A16).
DESTRUCTION_EFFECT = {2: (-4, -3), 3: (-4, -3), 4: (-2, -2), 5: (-2, -2), 6: (0, -1)}


class Fate(Closed):
    """What the battle's log says of one unit."""

    destroyed: bool = False
    face: int = 0
    killer: str = ""


def fates(game: Game) -> dict[str, Fate]:
    """For every unit destroyed in the battle (by its 'side/key'): the Destruction Table face, 0 if none
    was rolled (its pilot escaped), and the unit whose action destroyed it, if an action named one."""
    system = implementation(game.system)
    out: dict[str, Fate] = {}
    for event in game.log[: game.cursor]:
        fallen = [
            c.path
            for c in event.changes
            if len(c.path) == 6 and c.path[4:] == ["state", "destroyed"] and c.value is True
        ]
        if not fallen:
            continue
        faces = {m.group(1).split("; ")[-1]: int(m.group(2)) for m in _DESTRUCTION.finditer(event.text)}
        actor = ""
        spec = system.actions.get(str(event.detail.get("action", "")))
        if spec is not None:
            field = action_flow(spec).actor
            value = event.detail.get("input", {}).get(field or "")
            actor = value if isinstance(value, str) else ""
        for path in fallen:
            s, u = int(path[1]), int(path[3])
            gu = game.sides[s].units[u]
            name = _name_at(event.text, gu)
            out[f"{s}/{gu.key}"] = Fate(destroyed=True, face=faces.get(name, 0), killer=actor)
    return out


def _name_at(text: str, gu: GameUnit) -> str:
    names = [m.group(1).split("; ")[-1] for m in _DESTRUCTION.finditer(text)]
    for n in names:
        if n.endswith(gu.name):
            return n
    return gu.name


def _retreat(st: CampaignState, team: Team, tile: list[int]) -> str:
    """A team whose units all left the field steps one tile further from the battle (L2140-L2143);
    the first free tile of north, east, south, west that is further away (our reading)."""
    bx, by = tile
    for dx, dy in (STEPS["north"], STEPS["east"], STEPS["south"], STEPS["west"]):
        x, y = team.x + dx, team.y + dy
        far = abs(x - bx) + abs(y - by) > abs(team.x - bx) + abs(team.y - by)
        if far and 1 <= x <= 8 and 1 <= y <= 8 and not st.neutral(x, y) and not st.at(x, y):
            team.x, team.y = x, y
            return f"{team.name} withdraws to tile {tile_name(x, y)}"
    return f"{team.name} withdraws but has no free tile to step back to: players place it"


def _award(campaign: Campaign, pilot: CPilot, exp: int, texts: list[str]) -> None:
    """EXP banked, boxes ticked, ranks, rewards to choose, Heroic Levels (L1815-L1832, L3208-L3211)."""
    pilot.exp += exp
    ticks = 1 if readings(campaign).exp_boxes == "one" else 20
    old = pilot.rank
    if pilot.rank < TABLES.progression.max_rank:
        pilot.rank, pilot.boxes, pilot.exp, _ = rank_after(pilot.rank, pilot.boxes, pilot.exp, ticks)
        for r in range(old + 1, pilot.rank + 1):
            pilot.to_choose += rewards_at(r)
        if pilot.rank > old:
            texts.append(f"{pilot.name} reaches rank {pilot.rank}")
    else:
        levels, pilot.exp = heroic_after(pilot.heroic_levels, pilot.exp)
        order = TABLES.progression.heroic_order
        for level in range(pilot.heroic_levels, levels):
            pilot.to_choose.append("heroic_trait" if order[level] == "trait" else "heroic_mod")
            texts.append(f"{pilot.name} gains Heroic Level {level + 1}")
        pilot.heroic_levels = levels


def result(campaign: Campaign, kept: dict[str, Any], game: Game) -> Step:
    """The campaign after the battle (see the module text)."""
    st = state_of(campaign)
    exp = TABLES.exp
    after = TABLES.after_battle
    units: dict[str, list[str]] = kept["units"]
    sides: list[str] = kept["sides"]
    winners = {sides[w] for w in game.state.winners}
    fate = fates(game)
    texts = ["Battle result: " + (" and ".join(sorted(winners)) + " won" if winners else "no winner")]
    by_ref = {f"{s}/{gu.key}": gu for s, side in enumerate(game.sides) for gu in side.units}
    kills: dict[str, list[GameUnit]] = {}
    for ref, f in fate.items():
        if f.killer:
            kills.setdefault(f.killer, []).append(by_ref[ref])
    destroyed_pts: dict[str, int] = {}
    lost_pts: dict[str, int] = {}
    withdrew: set[str] = set()
    killed: set[str] = set()
    in_play: dict[str, int] = {}
    for s, side in enumerate(game.sides):
        for gu in side.units:
            ref = f"{s}/{gu.key}"
            tkey, ukey = units[gu.key]
            team = st.team(tkey)
            cu = next(u for u in team.units if u.key == ukey)
            conds = set(gu.state.conditions)
            pilot_state = gu.state.extra.get("pilot") or {}
            for victim in kills.get(ref, []):
                destroyed_pts[tkey] = destroyed_pts.get(tkey, 0) + unit_cost(
                    Unit.model_validate(victim.profile)
                )
            if "withdrawn" in conds:
                withdrew.add(tkey)
            pilot = cu.pilot
            if pilot is not None and pilot.character and pilot_state:
                pilot.health, pilot.mind = int(pilot_state["health"]), int(pilot_state["mind"])
            brush = False
            if gu.state.destroyed:
                lost_pts[tkey] = lost_pts.get(tkey, 0) + unit_cost(Unit.model_validate(gu.profile))
                team.units.remove(cu)
                face = fate[ref].face if ref in fate else 0
                if pilot is not None:
                    if face == 1:
                        pilot.health, pilot.mind = min(pilot.health, -4), min(pilot.mind, -4)  # A16
                    elif face and not pilot.character:
                        dh, dm = DESTRUCTION_EFFECT[face]
                        pilot.health, pilot.mind = pilot.health + dh, pilot.mind + dm
                    brush = face > 1 and not dead(pilot.health, pilot.mind)
                    if dead(pilot.health, pilot.mind):
                        killed.add(tkey)
                        texts.append(f"{pilot.name} is killed with {cu.name}")
                    else:
                        team.reserve.append(pilot)
                        texts.append(f"{cu.name} is lost; {pilot.name} survives")
                else:
                    texts.append(f"{cu.name} is lost")
            else:
                cu.damage = gu.state.damage
                cu.charts = {k: v for k in ("leg", "arm", "head") if (v := gu.state.counters.get(k, 0))}
                if pilot is not None and dead(pilot.health, pilot.mind):
                    killed.add(tkey)
            if pilot is not None and pilot.character and not dead(pilot.health, pilot.mind):
                earned = 0
                if "reserve" not in conds:
                    earned += exp.participated.exp
                still = not gu.state.destroyed and "withdrawn" not in conds and "reserve" not in conds
                if still and team.faction in winners:
                    earned += exp.won.exp
                for victim in kills.get(ref, []):
                    vp = Unit.model_validate(victim.profile).character
                    earned += exp.defeated_ace_per_rank.exp * vp.rank if vp else exp.defeated_unit.exp
                if brush:
                    earned += exp.brush_with_death.exp
                if earned:
                    texts.append(f"{pilot.name} +{earned} EXP")
                    _award(campaign, pilot, earned, texts)
                    if cu.profile.get("kind") == "mobile_fighter":
                        # techniques and abilities instead of traits and mods (L1834-L1837)
                        pilot.to_choose = [k for k in pilot.to_choose if k not in ("trait", "mod")]
            in_play[tkey] = in_play.get(tkey, 0) + int(not gu.state.destroyed and "withdrawn" not in conds)
    for tkey in kept["teams"]:
        team = st.team(tkey)
        player = st.of(team.faction)
        we = mind = 0
        if tkey in withdrew:
            we, mind = we + after.withdrew.war_effort, mind + after.withdrew.mind
        if tkey in killed:
            we, mind = we + after.pilot_killed.war_effort, mind + after.pilot_killed.mind
        total = kept["points"].get(tkey, 0)
        if total and 2 * lost_pts.get(tkey, 0) >= total:
            we, mind = we + after.half_destroyed.war_effort, mind + after.half_destroyed.mind
        if destroyed_pts.get(tkey):
            per = after.destroyed_per_points
            we += per.war_effort * math.ceil(destroyed_pts[tkey] / per.points)
        if team.faction in winners:
            we, mind = we + after.won.war_effort, mind + after.won.mind
        player.war_effort = max(0, player.war_effort + we)
        for p in team.pilots():
            p.mind += mind
        if we or mind:
            texts.append(f"{team.name}: War Effort {we:+d}, Mind {mind:+d}")
        remove_dead(team, texts)
        if not team.units or not any(u.pilot for u in team.units):
            # a team that lost all its units, or all its pilots, leaves the map (L2137-L2138); one sentence
            # for what happened, never "no pilot left" after "survives"
            st.teams.remove(team)
            if team.units:
                texts.append(f"{team.name} has no pilot left for its units and leaves the map (L2137-L2138)")
            elif team.reserve:
                texts.append(
                    f"{team.name} has lost all its units: it leaves the map, its pilots with it (L2137-L2138)"
                )
            else:
                texts.append(f"{team.name} has lost all its units and leaves the map (L2137-L2138)")
        elif tkey in withdrew and not in_play.get(tkey):
            texts.append(_retreat(st, team, kept["tile"]))
    return Step(st, "; ".join(texts))


__all__ = ["BattleInput", "CUnit", "fates", "plan", "result"]
