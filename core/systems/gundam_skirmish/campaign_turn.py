"""The campaign turn (L2037-L2066) and its actions (L2124-L2187), as steps of a campaign's log.

A player's turn, in the book's order: ``begin_turn`` (the victory check, skipped in each player's
first turn, and the War Effort update with the Exhaustion Check as a named house rule, A30), the Event
Die for each MS Team (``event_die``), diplomacy (``note``, any time), then up to three actions:
``move`` (one orthogonal step), a Battle (started through :func:`core.campaign.start_battle`,
:mod:`.campaign_battle`) and ``enter_base`` (Repair, Get Aid, Recruit a Pilot, Capture Base);
``end_turn`` passes to the next player.  Each step returns the new state; the shared campaign layer
logs it, so every step can be undone.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field

from core.campaign import Campaign, CampaignAction, Step
from core.dice import DiceSource
from core.systems.base import ActionOdds, Closed
from core.systems.gundam_skirmish.campaign_data import (
    CAPTURE,
    EVENT,
    GOOD,
    POOR,
    TABLES,
    Row,
    dead,
    event_death_risk,
    event_odds,
    fighter_allowance,
    rewards_at,
    roll_row,
    row_odds,
)
from core.systems.gundam_skirmish.campaign_state import CampaignState, CPilot, CUnit, Team, tile_name
from core.systems.gundam_skirmish.samples import SAMPLES
from core.systems.gundam_skirmish.units import Unit, base_points, unit_violations


class CampaignReadings(Closed):
    """Readings of the campaign's unclear rules (digest A30, A31, A51), chosen per campaign."""

    exhaustion: Literal["idle", "record"] = Field(
        default="idle",
        description="[A30] House rule for the undefined Exhaustion Check (L2047-L2049): 'idle', at War "
        "Effort 0 each team rolls a D6 and on 1-2 takes no action this campaign turn; 'record', War "
        "Effort is only recorded.",
    )
    exp_boxes: Literal["one", "all"] = Field(
        default="one",
        description="[A31] After a battle a pilot ticks one Experience box (the letter of L1815); "
        "'all': as many boxes as whole hundreds of EXP banked.",
    )
    withdrawal: Literal["after_4", "from_4"] = Field(
        default="after_4",
        description="[A51] A unit may withdraw from a campaign battle once 4 or more turns have passed "
        "(L2139-L2140): 'after_4', once four rounds are complete (from round 5); 'from_4', from round 4.",
    )


def readings(campaign: Campaign) -> CampaignReadings:
    return CampaignReadings.model_validate(campaign.options)


def state_of(campaign: Campaign) -> CampaignState:
    return CampaignState.model_validate(campaign.state)


def _turn(st: CampaignState, phase: str) -> None:
    if st.winner:
        raise ValueError(f"the campaign is over: {st.winner} won")
    if st.phase != phase:
        if st.phase == "start":
            raise ValueError("begin the turn first")
        if st.phase == "events" and phase == "actions":
            raise ValueError("roll the Event Die for every team first")
        if phase == "events":
            raise ValueError("every team has rolled its Event Die this turn")
        raise ValueError("the turn has begun already")


def _own(st: CampaignState, key: str) -> Team:
    team = st.team(key)
    if team.faction != st.player.faction:
        raise ValueError(f"{team.name} is not {st.player.faction}'s: it is {team.faction}'s turn only")
    return team


def held_victory(st: CampaignState, faction: str) -> bool:
    """Whether ``faction`` holds every base the map lists for victory (L1770-L1785)."""
    return all(b.owner == faction for b in st.bases if b.victory)


def remove_dead(team: Team, texts: list[str]) -> None:
    """Pilots at -4 Health or Mind are killed (L1806-L1808): a unit keeps no dead pilot."""
    for u in team.units:
        if u.pilot is not None and dead(u.pilot.health, u.pilot.mind):
            texts.append(f"{u.pilot.name} ({u.name}) is killed")
            u.pilot = None
    for p in [p for p in team.reserve if dead(p.health, p.mind)]:
        texts.append(f"{p.name} is killed")
        team.reserve.remove(p)


def pilots_change(team: Team, health: int, mind: int) -> None:
    for p in team.pilots():
        p.health += health
        p.mind += mind


# --- the start of a turn ------------------------------------------------------------


class NoInput(Closed):
    pass


def begin_turn(campaign: Campaign, _: NoInput, dice: DiceSource) -> Step:
    """Victory check (not in a player's first turn), then the War Effort update (L2042-L2049)."""
    st = state_of(campaign)
    _turn(st, "start")
    player = st.player
    texts = [f"{player.faction}'s campaign turn begins"]
    if player.turns > 0 and held_victory(st, player.faction):
        st.winner = player.faction
        return Step(st, f"{player.faction} holds every base of the map and wins the campaign (L1770)")
    player.turns += 1
    teams = [t for t in st.teams if t.faction == player.faction]
    for t in teams:
        t.exhausted = False
        t.event_rolled = False
        t.no_move = False
        t.free_move = False
    if player.war_effort <= 0 and readings(campaign).exhaustion == "idle":
        for t in teams:
            face = dice.roll(1, 6, f"Exhaustion Check: {t.name}")[0]
            t.exhausted = face <= 2
            texts.append(
                f"Exhaustion Check {t.name}: {face}" + (", exhausted this turn" if t.exhausted else "")
            )
    elif player.war_effort <= 0:
        texts.append("War Effort 0: recorded (no Exhaustion Check house rule)")
    st.phase = "events" if teams else "actions"
    st.actions_left = TABLES.start.actions if teams else 0
    st.entered = []
    return Step(st, "; ".join(texts))


def exhaustion_odds(campaign: Campaign, _: NoInput) -> ActionOdds:
    st = state_of(campaign)
    p = (
        Fraction(1, 3)
        if st.player.war_effort <= 0 and readings(campaign).exhaustion == "idle"
        else Fraction(0)
    )
    return ActionOdds(tables={}, facts={"exhausted": float(p)}, summary=f"each team exhausted: {p}")


class TeamInput(Closed):
    team: str = Field(max_length=6, description="The MS Team.")


def _apply_row(st: CampaignState, team: Team, row: Row, texts: list[str]) -> None:
    player = st.of(team.faction)
    player.war_effort = max(0, player.war_effort + row.war_effort)
    pilots_change(team, row.health, row.mind)
    for u in team.units:
        top = u.integrity()
        if row.damage:
            # A campaign event leaves a unit at least 1 Integrity: it is not a battle (our reading).
            u.damage = min(max(u.damage, top - 1), u.damage + row.damage)
        if row.repair:
            u.damage = max(0, u.damage - row.repair)
    team.no_move = team.no_move or row.no_move
    team.free_move = team.free_move or row.extra_move
    texts.append(f"{row.name}: {row.text}")
    remove_dead(team, texts)


def event_die(campaign: Campaign, inp: TeamInput, dice: DiceSource) -> Step:
    """The Event Die for one team (L2052-L2054), and Poor or Good Fortune on a 1 or a 6 (L2074-L2122)."""
    st = state_of(campaign)
    _turn(st, "events")
    team = _own(st, inp.team)
    if team.event_rolled:
        raise ValueError(f"{team.name} has rolled its Event Die this turn")
    team.event_rolled = True
    face = dice.roll(1, 6, f"Event Die: {team.name}")[0]
    row = roll_row(EVENT, face)
    texts = [f"Event Die {team.name}: {face}"]
    sub = {"poor": POOR, "good": GOOD}.get(row.key)
    if sub is None:
        texts.append("nothing of note")
    else:
        second = dice.roll(1, 6, row.name)[0]
        texts.append(f"{row.name} {second}")
        _apply_row(st, team, roll_row(sub, second), texts)
    if all(t.event_rolled for t in st.teams if t.faction == st.player.faction):
        st.phase = "actions"
    return Step(st, "; ".join(texts))


def event_die_odds(campaign: Campaign, inp: TeamInput) -> ActionOdds:
    """Each outcome's chance, and the chance that each pilot of the team dies of it."""
    st = state_of(campaign)
    team = st.team(inp.team)
    facts = {name: float(p) for name, p in event_odds().items()}
    risks = [f"{p.name}: {event_death_risk(p.health, p.mind)}" for p in team.pilots()]
    for p in team.pilots():
        facts[f"{p.name} killed"] = float(event_death_risk(p.health, p.mind))
    lines = [f"{n} {p}" for n, p in event_odds().items()]
    return ActionOdds(
        tables={}, facts=facts, summary="; ".join([*lines, "risk to pilots " + ", ".join(risks)])
    )


class NoteInput(Closed):
    text: str = Field(min_length=1, max_length=300, description="What was agreed (diplomacy, L2056-L2057).")


def note(campaign: Campaign, inp: NoteInput, _: DiceSource) -> Step:
    """Diplomacy is for the players; the app keeps what they agreed as a note (L2056-L2057)."""
    st = state_of(campaign)
    st.notes.append(f"{st.player.faction}: {inp.text}")
    return Step(st, f"Note: {inp.text}")


# --- actions ------------------------------------------------------------------------


def _spend(st: CampaignState, team: Team) -> None:
    _turn(st, "actions")
    if team.exhausted:
        raise ValueError(f"{team.name} is exhausted this turn (Exhaustion Check, house rule)")
    if st.actions_left <= 0:
        raise ValueError("no action left this campaign turn: 3 at most (L2062)")
    st.actions_left -= 1


STEPS = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0)}


class MoveInput(Closed):
    team: str = Field(max_length=6, description="The MS Team.")
    direction: Literal["north", "south", "east", "west"] = Field(description="One tile, no diagonals.")
    free: bool = Field(default=False, description="Cartography's free step (L2112-L2114): costs no action.")


def move(campaign: Campaign, inp: MoveInput, _: DiceSource) -> Step:
    """Move Team one tile up, down, left or right (L2127-L2128); never onto or past an enemy team, onto
    a friendly one only to pass through it (L1743-L1752); never into a neutral zone (L2218)."""
    st = state_of(campaign)
    team = _own(st, inp.team)
    if inp.free:
        _turn(st, "actions")
        if not team.free_move:
            raise ValueError(f"{team.name} has no free step (Cartography) this turn")
        team.free_move = False
    else:
        if team.no_move:
            raise ValueError(f"{team.name} cannot move this turn: Provisions Shortage (L2085)")
        _spend(st, team)
    dx, dy = STEPS[inp.direction]
    x, y = team.x + dx, team.y + dy
    if not (1 <= x <= TABLES.start.grid and 1 <= y <= TABLES.start.grid):
        raise ValueError("that is off the map")
    if st.neutral(x, y):
        raise ValueError("no team may enter the neutral zone (L2218)")
    there = st.at(x, y)
    if any(t.faction != team.faction for t in there):
        raise ValueError("an enemy MS Team holds that tile: a team cannot move through it (L1747)")
    team.x, team.y = x, y
    text = f"{team.name} moves {inp.direction} to tile {tile_name(x, y)}"
    if there:
        text += f", passing {there[0].name}: end the turn on an empty tile (L1749-L1752)"
    return Step(st, text)


class PlaceInput(Closed):
    team: str = Field(max_length=6, description="The MS Team.")
    x: int = Field(ge=1, le=8)
    y: int = Field(ge=1, le=8)


def place(campaign: Campaign, inp: PlaceInput, _: DiceSource) -> Step:
    """Put a team on a tile by hand: the players' correction of the map (a set-up placement, a
    withdrawal with no free tile, L2140-L2143), logged and undoable, spending no action.  Still one
    team per tile (L1743) and never in the neutral zone (L2218)."""
    st = state_of(campaign)
    team = st.team(inp.team)
    if st.neutral(inp.x, inp.y):
        raise ValueError("no team may stand in the neutral zone (L2218)")
    if any(t.key != team.key for t in st.at(inp.x, inp.y)):
        raise ValueError("another MS Team stands there: one team per tile (L1743)")
    team.x, team.y = inp.x, inp.y
    return Step(st, f"{team.name} placed by hand on tile {tile_name(inp.x, inp.y)}")


class BaseInput(Closed):
    base: str = Field(min_length=1, max_length=60, description="The base, by name.")
    x: int = Field(default=0, ge=0, le=8, description="Its new tile (0: where it is).")
    y: int = Field(default=0, ge=0, le=8)
    owner: str = Field(default="-", max_length=10, description="Who holds it ('' nobody, '-' unchanged).")


def edit_base(campaign: Campaign, inp: BaseInput, _: DiceSource) -> Step:
    """The players' map editing: a base moved to another tile or given to another holder (the book's
    maps have no images, so the app's layout is only a start, L1770-L1785).  One base per tile, none in
    the neutral zone (L2218)."""
    st = state_of(campaign)
    base = next((b for b in st.bases if b.name == inp.base), None)
    if base is None:
        raise ValueError(f"no base called {inp.base} on this map")
    texts = []
    if inp.x and inp.y:
        if st.neutral(inp.x, inp.y):
            raise ValueError("no base may stand in the neutral zone (L2218)")
        other = st.base_at(inp.x, inp.y)
        if other is not None and other is not base:
            raise ValueError(f"{other.name} stands there already: one base per tile")
        base.x, base.y = inp.x, inp.y
        texts.append(f"{base.name} moved by hand to tile {tile_name(inp.x, inp.y)}")
    if inp.owner != "-":
        if inp.owner and inp.owner not in [p.faction for p in st.players]:
            raise ValueError(f"{inp.owner} is not in this campaign")
        base.owner = inp.owner
        texts.append(f"{base.name} now held by {inp.owner or 'nobody'} (by hand)")
    if not texts:
        raise ValueError("say where the base goes or who holds it")
    return Step(st, "; ".join(texts))


class TileInput(Closed):
    zone: str = Field(max_length=10, description="A faction's zone, '' for none, 'neutral'.")
    x: int = Field(ge=1, le=8)
    y: int = Field(ge=1, le=8)


def edit_tile(campaign: Campaign, inp: TileInput, _: DiceSource) -> Step:
    """The players' map editing: a tile's zone (a faction's territory, none, or the neutral zone where
    no team goes, L2218): the book's maps have no images, the app's layout is only a start."""
    st = state_of(campaign)
    if inp.zone not in ("", "neutral", *(p.faction for p in st.players)):
        raise ValueError(f"{inp.zone} is not in this campaign")
    if inp.zone == "neutral" and (st.at(inp.x, inp.y) or st.base_at(inp.x, inp.y)):
        raise ValueError("a team or base stands there: the neutral zone must be empty (L2218)")
    st.tiles[f"{inp.x},{inp.y}"] = inp.zone
    what = {"": "no zone", "neutral": "the neutral zone"}.get(inp.zone, f"{inp.zone}'s zone")
    return Step(st, f"Tile {tile_name(inp.x, inp.y)} made {what} by hand")


class TerrainInput(Closed):
    terrain: str = Field(max_length=40, description="The tile's terrain or place name; empty: none.")
    x: int = Field(ge=1, le=8)
    y: int = Field(ge=1, le=8)


def name_tile(campaign: Campaign, inp: TerrainInput, _: DiceSource) -> Step:
    """The players' map editing: a tile's terrain name.  Each tile has its own geography (L1717-L1718),
    which the book's maps would show as images it does not have: the players name it."""
    st = state_of(campaign)
    name = " ".join(inp.terrain.split())
    where = tile_name(inp.x, inp.y)
    if name:
        st.terrain[f"{inp.x},{inp.y}"] = name
        return Step(st, f"Tile {where} named {name} by hand")
    if st.terrain.pop(f"{inp.x},{inp.y}", None) is None:
        raise ValueError(f"tile {where} has no terrain name to clear: write one")
    return Step(st, f"Tile {where}'s terrain name cleared by hand")


class AssignInput(Closed):
    team: str = Field(max_length=6, description="The MS Team.")
    pilot: str = Field(min_length=1, max_length=60, description="The pilot, by name (reserve or flying).")
    unit: str = Field(max_length=6, description="The unit of the team it flies from now on, by key.")


def _fighter(cu: CUnit | None) -> bool:
    return cu is not None and cu.profile.get("kind") == "mobile_fighter"


def assign(campaign: Campaign, inp: AssignInput, _: DiceSource) -> Step:
    """A pilot of the team takes another unit of it (L1811-L1812): a reserve pilot (a survivor, a
    recruit, L2161-L2164) flies a unit, its pilot (if any) going to the reserve; a character keeps its
    traits and mods.  Moving to or from a Mobile Fighter lowers a character two ranks and its rank
    rewards are chosen again (L1844-L1846).  Our reading: no action is spent (the book names none)."""
    st = state_of(campaign)
    if st.winner:
        raise ValueError(f"the campaign is over: {st.winner} won")
    team = st.team(inp.team)
    target = next((u for u in team.units if u.key == inp.unit), None)
    if target is None:
        raise ValueError("no such unit in the team")
    source = next((u for u in team.units if u.pilot is not None and u.pilot.name == inp.pilot), None)
    reserve = next((p for p in team.reserve if p.name == inp.pilot), None)
    pilot = source.pilot if source is not None else reserve
    if pilot is None:
        raise ValueError(f"{team.name} has no pilot called {inp.pilot}")
    if source is target:
        raise ValueError(f"{pilot.name} already flies {target.name}")
    if dead(pilot.health, pilot.mind):
        raise ValueError(f"{pilot.name} is dead")
    if source is not None:
        source.pilot = None
    else:
        team.reserve.remove(pilot)
    texts = [f"{pilot.name} takes {target.name}"]
    if target.pilot is not None:
        team.reserve.append(target.pilot)
        texts.append(f"{target.pilot.name} goes to the reserve")
    if pilot.character and (_fighter(source) or _fighter(target)):
        old = pilot.rank
        pilot.rank = max(1, pilot.rank - 2)
        pilot.traits, pilot.mods, pilot.boxes = [], [], 0
        pilot.techniques, pilot.fighter_abilities = [], []  # not carried over (L1844-L1845)
        # a Mobile Fighter's rewards are techniques and abilities, chosen at the table (not modelled)
        again = [k for r in range(2, pilot.rank + 1) for k in rewards_at(r)]
        pilot.to_choose = []
        if not _fighter(target):
            pilot.to_choose.extend(again)
        texts.append(f"to or from a Mobile Fighter: rank {old} to {pilot.rank}, rewards chosen again")
    target.pilot = pilot
    bad = unit_violations(target.unit())  # a character flies a mobile suit of its faction (L1802-L1803)
    if bad:
        raise ValueError(f"{pilot.name} cannot fly {target.name}: {bad[0].message}")
    return Step(st, "; ".join(texts))


def attacks(profile: dict[str, Any]) -> list[str]:
    """A unit's attacks by name, its weapons, close combat weapon and techniques: for a Mobile Fighter
    (close combat only, L1320-L1321) its techniques, which take the place of weapons (L1837-L1840)."""
    rows = [*profile.get("weapons", []), *profile.get("close_combat", []), *profile.get("techniques", [])]
    return [str(w.get("name")) for w in rows if isinstance(w, dict)]


class FighterInput(Closed):
    team: str = Field(max_length=6)
    unit: str = Field(max_length=6, description="The Mobile Fighter, by key.")
    technique: str = Field(
        default="", max_length=60, description="A technique: one of the unit's attacks, by name (L1837)."
    )
    ability: str = Field(default="", max_length=40, description="One of the unit's abilities, by key.")


def fighter_reward(campaign: Campaign, inp: FighterInput, _: DiceSource) -> Step:
    """A Mobile Fighter character takes techniques and abilities instead of traits and mods, as many as
    its rank allows (L1834-L1846); an ability is one of its unit's own (all of them at rank 10)."""
    st = state_of(campaign)
    team = st.team(inp.team)
    unit = next((u for u in team.units if u.key == inp.unit), None)
    if unit is None or not _fighter(unit):
        raise ValueError("only a Mobile Fighter takes techniques (L1834-L1837)")
    pilot = unit.pilot
    if pilot is None or not pilot.character:
        raise ValueError(f"{unit.name} has no character pilot to learn it (L1834)")
    techniques, abilities = fighter_allowance(pilot.rank)
    texts = []
    if inp.technique:
        if inp.technique not in attacks(unit.profile):
            known = ", ".join(attacks(unit.profile))
            raise ValueError(f"a technique is one of {unit.name}'s attacks ({known}; L1837-L1840)")
        if inp.technique in pilot.techniques:
            raise ValueError(f"{pilot.name} knows {inp.technique} already")
        if techniques is not None and len(pilot.techniques) >= techniques:
            raise ValueError(f"rank {pilot.rank} allows {techniques} technique(s) (L1841-L1844)")
        pilot.techniques.append(inp.technique)
        texts.append(f"{pilot.name} learns {inp.technique}")
    if inp.ability:
        own = [str(a.get("key")) for a in unit.profile.get("abilities", []) if isinstance(a, dict)]
        if inp.ability not in own:
            raise ValueError(f"{unit.name} has no such ability to unlock (L1844)")
        if inp.ability in pilot.fighter_abilities:
            raise ValueError(f"{pilot.name} has that ability already")
        if abilities is not None and len(pilot.fighter_abilities) >= abilities:
            raise ValueError(f"rank {pilot.rank} allows {abilities} abilit(ies) (L1841-L1844)")
        pilot.fighter_abilities.append(inp.ability)
        texts.append(f"{pilot.name} takes the ability {inp.ability.replace('_', ' ')}")
    if not texts:
        raise ValueError("name a technique or an ability")
    return Step(st, "; ".join(texts))


class BuyInput(Closed):
    sample: str = Field(default="", max_length=40, description="A ready-made unit, by its key.")
    profile: dict[str, object] | None = Field(default=None, description="Or a unit's sheet.")
    pilot: str = Field(default="", max_length=60, description="A pilot of the team's reserve to fly it.")


class EnterInput(Closed):
    team: str = Field(max_length=6, description="The MS Team, on a base tile.")
    repair: list[str] = Field(default_factory=list, max_length=30, description="Units to repair, by key.")
    buy: list[BuyInput] = Field(default_factory=list, max_length=8, description="Units to order.")
    aid: bool = Field(default=False, description="Get Aid: +3 Health and Mind to every pilot.")
    recruit: list[str] = Field(default_factory=list, max_length=4, description="Names of pilots to recruit.")
    capture: bool = Field(default=False, description="Capture the base (first, then its services).")
    recruit_name: str = Field(default="", max_length=60, description="One pilot to recruit, by name.")
    order: str = Field(default="", max_length=40, description="One ready-made unit to order, by key.")
    order_pilot: str = Field(default="", max_length=60, description="A reserve pilot to fly the order.")

    def orders(self) -> list[BuyInput]:
        extra = [BuyInput(sample=self.order, pilot=self.order_pilot)] if self.order else []
        return [*self.buy, *extra]

    def recruits(self) -> list[str]:
        return [*self.recruit, *([self.recruit_name] if self.recruit_name else [])]


def enter_base(campaign: Campaign, inp: EnterInput, dice: DiceSource) -> Step:
    """Enter Base (L2146-L2172): the services in one action, the capture first so that its services
    follow in the same action (A49), each service only at a base of the team's faction."""
    st = state_of(campaign)
    team = _own(st, inp.team)
    base = st.base_at(team.x, team.y)
    if base is None:
        raise ValueError(f"{team.name} is on no base")
    if base.name in st.entered:
        raise ValueError(
            f"{base.name} was captured this turn: no more Enter Base there this turn (L2171; A49)"
        )
    _spend(st, team)
    player = st.player
    texts = [f"{team.name} enters {base.name}"]
    if inp.capture:
        if base.owner == team.faction:
            raise ValueError(f"{base.name} is already {team.faction}'s")
        face = dice.roll(1, 6, "Capture Base")[0]
        row = roll_row(CAPTURE, face)
        base.owner = team.faction
        player.requisition += row.requisition
        player.war_effort = max(0, player.war_effort + row.war_effort)
        pilots_change(team, 0, row.mind)
        st.entered.append(base.name)
        texts.append(
            f"captures it; {face}: {row.name} (+{row.requisition} Requisition, +{row.war_effort} War Effort, "
            f"{row.mind:+d} Mind)"
        )
        remove_dead(team, texts)
    services = bool(inp.repair or inp.orders() or inp.aid or inp.recruits())
    if services and base.owner != team.faction:
        raise ValueError(f"{base.name} is not {team.faction}'s: its services need it captured (L2151-L2163)")
    svc = TABLES.services
    for key in inp.repair:
        unit = next((u for u in team.units if u.key == key), None)
        if unit is None:
            raise ValueError("no such unit in the team")
        _pay(player.requisition, svc.repair_per_unit)
        player.requisition -= svc.repair_per_unit
        unit.damage, unit.charts = 0, {}
        texts.append(f"{unit.name} repaired ({svc.repair_per_unit} Requisition)")
    for order in inp.orders():
        _buy(st, team, order, texts)
    if inp.aid:
        pilots_change(team, svc.aid, svc.aid)
        texts.append(f"Aid: +{svc.aid} Health and Mind to every pilot")
    for name in inp.recruits():
        _pay(player.requisition, svc.recruit_cost)
        player.requisition -= svc.recruit_cost
        health, mind = dice.roll(2, svc.recruit_die, f"Recruit {name}: Health, Mind")
        team.reserve.append(CPilot(name=name, character=True, health=health, mind=mind))
        texts.append(f"{name} recruited: Health {health}, Mind {mind} ({svc.recruit_cost} Requisition)")
    if len(texts) == 1:
        raise ValueError("choose what the team does at the base")
    return Step(st, "; ".join(texts))


def capture_odds(campaign: Campaign, inp: EnterInput) -> ActionOdds:
    odds = row_odds(CAPTURE)
    return ActionOdds(
        tables={},
        facts={k: float(v) for k, v in odds.items()},
        summary="; ".join(f"{k} {v}" for k, v in odds.items()),
    )


def _pay(have: int, cost: int) -> None:
    if have < cost:
        raise ValueError(f"{cost} Requisition needed, {have} left")


def order_cost(unit: Unit) -> int:
    """1 Requisition per 50 points of the unit, rounded up (L2153-L2154).

    >>> order_cost(SAMPLES["lancer"]), order_cost(SAMPLES["gun_tank"])
    (4, 2)
    """
    return math.ceil(base_points(unit) / TABLES.services.points_per_requisition)


def _buy(st: CampaignState, team: Team, order: BuyInput, texts: list[str]) -> None:
    if order.sample:
        if order.sample not in SAMPLES:
            raise ValueError("no such ready-made unit")
        unit = SAMPLES[order.sample]
    elif order.profile is not None:
        unit = Unit.model_validate(order.profile)
    else:
        raise ValueError("name the unit to order")
    if team.faction not in unit.factions:
        raise ValueError(f"{unit.name} is not a {team.faction} unit (L2154)")
    cost = order_cost(unit)
    _pay(st.player.requisition, cost)
    pilot = None
    if order.pilot:
        pilot = next((p for p in team.reserve if p.name == order.pilot), None)
        if pilot is None:
            raise ValueError("no such pilot in the team's reserve")
        team.reserve.remove(pilot)
    st.player.requisition -= cost
    profile = unit.model_dump(mode="json")
    profile["pilot"] = []
    team.units.append(CUnit(key=st.new_key("u"), profile=profile, pilot=pilot))
    if team.points() > TABLES.start.max_points:
        raise ValueError(f"{team.name} would be over {TABLES.start.max_points} points (L1740)")
    texts.append(f"{unit.name} ordered ({cost} Requisition)" + (f", flown by {pilot.name}" if pilot else ""))


def end_turn(campaign: Campaign, _: NoInput, __: DiceSource) -> Step:
    """The next player's campaign turn (L2066); no two teams may share a tile at its end (L1743-L1752)."""
    st = state_of(campaign)
    if st.winner:
        raise ValueError(f"the campaign is over: {st.winner} won")
    if st.phase == "start":
        raise ValueError("begin the turn first")
    if st.phase == "events":
        raise ValueError("roll the Event Die for every team first")
    tiles = [(t.x, t.y) for t in st.teams]
    if len(set(tiles)) != len(tiles):
        raise ValueError("two teams share a tile: move on to an empty one first (L1743-L1752)")
    done = st.player.faction
    st.current = (st.current + 1) % len(st.players)
    if st.current == 0:
        st.round += 1
    st.phase, st.actions_left, st.entered = "start", 0, []
    return Step(st, f"{done} ends the campaign turn; {st.player.faction} is next")


class RewardInput(Closed):
    team: str = Field(max_length=6)
    unit: str = Field(default="", max_length=6, description="The unit the pilot flies.")
    choice: str = Field(min_length=1, max_length=40, description="The trait or modification, by key.")


def choose_reward(campaign: Campaign, inp: RewardInput, _: DiceSource) -> Step:
    """A trait or modification earned at a new rank (L1821-L1832) or Heroic Level (L3208-L3211)."""
    from core.systems.gundam_skirmish.catalogue import ALL_ENTRIES

    st = state_of(campaign)
    team = st.team(inp.team)
    unit = next((u for u in team.units if u.key == inp.unit), None)
    if unit is None or unit.pilot is None or not unit.pilot.to_choose:
        raise ValueError("that pilot has no reward to choose")
    pilot = unit.pilot
    kind = pilot.to_choose[0]
    pool = {"trait": "trait", "mod": "mod", "heroic_trait": "heroic_trait", "heroic_mod": "heroic_mod"}[kind]
    entries = ALL_ENTRIES.get(pool, {})
    if inp.choice not in entries:
        raise ValueError(f"choose a {kind.replace('_', ' ')} from its list")
    have = {
        "trait": pilot.traits,
        "mod": pilot.mods,
        "heroic_trait": pilot.heroic_traits,
        "heroic_mod": pilot.heroic_mods,
    }[kind]
    if inp.choice in have:
        raise ValueError("a pilot may not have the same one twice (L1826, L1831)")
    have.append(inp.choice)
    pilot.to_choose.pop(0)
    unit.unit()  # the sheet must still be valid with it
    return Step(st, f"{pilot.name} takes {entries[inp.choice].name}")


ACTIONS: dict[str, CampaignAction] = {
    a.name: a
    for a in (
        CampaignAction.of(
            "begin_turn",
            "Begin the turn",
            begin_turn,
            "Victory check and War Effort (L2042-L2049)",
            odds=exhaustion_odds,
        ),
        CampaignAction.of(
            "event_die", "Event Die", event_die, "One per team (L2052-L2054)", odds=event_die_odds
        ),
        CampaignAction.of("note", "Note", note, "Diplomacy (L2056-L2057)", rolls=False),
        CampaignAction.of("move", "Move Team", move, "One tile (L2127-L2128)", rolls=False),
        CampaignAction.of("place", "Place by hand", place, "A correction of the map", rolls=False),
        CampaignAction.of("edit_base", "Edit a base", edit_base, "The map by hand", rolls=False),
        CampaignAction.of("edit_tile", "Edit a tile", edit_tile, "The map by hand", rolls=False),
        CampaignAction.of("name_tile", "Name a tile", name_tile, "Its terrain (L1717-L1718)", rolls=False),
        CampaignAction.of("assign", "Change pilots", assign, "A pilot takes a unit (L1811)", rolls=False),
        CampaignAction.of(
            "fighter_reward", "Techniques", fighter_reward, "Mobile Fighters (L1834-L1846)", rolls=False
        ),
        CampaignAction.of(
            "enter_base", "Enter Base", enter_base, "Services and capture (L2146-L2172)", odds=capture_odds
        ),
        CampaignAction.of("end_turn", "End the turn", end_turn, "Next player (L2066)", rolls=False),
        CampaignAction.of(
            "choose_reward", "Choose a reward", choose_reward, "Traits and mods (L1821-L1832)", rolls=False
        ),
    )
}
