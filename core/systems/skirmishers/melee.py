"""Melee (L316-L324), damage from what is not a shot (explosive rings, rams, wipe-outs, fire, wire),
and the queue of melee attacks waiting for their target to activate (L318).

Declaring costs 5 AP; the attack waits in the game's queue and is offered when the target's side
begins its turn, to be resolved before the target does anything (L318).  It is a 2D6 check at
base 4 with every modifier but cover (L324).  Damage that needs no roll to hit (an explosion's
ring, a ram, a wipe-out, a burning dot, barbed wire) is marked with the same card walk, from a
2D6 first-cell roll (L342, L439, L479, L759, L777).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game, GameUnit
from core.systems.base import ActionOdds, ActionResult, Closed, FieldPick, enemy_unit, needs, own_unit
from core.systems.skirmishers.catalogue import WEAPONS
from core.systems.skirmishers.common import card_of, combat_action, max_ap, mod, options, soldier, track
from core.systems.skirmishers.damage import after_hits
from core.systems.skirmishers.fire import burst_odds, deaths
from core.systems.skirmishers.state import PendingMelee, SkGame, SkUnit
from core.systems.skirmishers.turn import _acting, _spend
from core.systems.skirmishers.units import carried
from core.systems.skirmishers.walk import Hit, roll_marks, roll_shot


def melee_weapons(unit: GameUnit) -> list[str]:
    """The melee weapons on its card: fists and the knife always (L180), a melee secondary; and for a
    trooper its active weapon swung as a club, with the Club row's numbers (L320, digest AMB-60)."""
    prof = soldier(unit)
    club = ["gun_club"] if prof.kind == "trooper" else []
    return [k for k in carried(prof) if WEAPONS[k].group == "melee"] + club


def has_bayonet(game: Game, key: str) -> bool:
    """Does this gun come with a bayonet (L131)?  By default every rifle- or SMG-class gun (laser and
    gyrojet included, digest AMB-59); with the ``bayonets`` reading "printed", only the Rifle and SMG."""
    if options(game).bayonets == "printed":
        return key in ("rifle", "smg")
    return WEAPONS[key].bayonet


def melee_why(game: Game, unit: GameUnit, key: str) -> str:
    """Why the unit cannot strike with this melee weapon now, or "": the weapon must be active (L320),
    but fists always serve, and the knife serves as a bayonet on an active gun that has one (L131,
    L320, AMB-60); any other melee weapon needs the 3 AP change first (L251)."""
    w = WEAPONS[key]
    active = SkUnit.of(unit).active
    if key in ("fists", "pa_fists") or key == active:
        return ""
    if key == "gun_club":
        held = WEAPONS.get(active)
        if held is None or held.group == "melee" or held.thrown:
            return "its active weapon is no gun to swing (L320)"
        return ""
    if key == "knife" and active and has_bayonet(game, active):
        return ""
    if key == "knife":
        gun = f"; {WEAPONS[active].name} carries no bayonet (L131)" if active in WEAPONS else ""
        return f"not the active weapon: change to it first (3 AP, L320){gun}"
    return f"{w.name} is not the active weapon: change to it first (3 AP, L320)"


def melee_hit(game: Game, unit: GameUnit, key: str) -> Hit:
    """A melee weapon's damage; fists deal half the attacker's max AP in bludgeoning, rounded down
    (L318, L902, AMB-58)."""
    w = WEAPONS[key]
    blunt = max_ap(game, unit) // 2 if w.blunt_half_ap else w.blunt
    return Hit(lethal=w.lethal[0], blunt=blunt)


class Melee(Closed):
    """Declare a melee attack on an adjacent enemy: 5 AP, resolved when the target activates."""

    attacker: str = own_unit("Who attacks.")
    target: str = enemy_unit("The adjacent enemy.")
    weapon: str = Field(
        default="fists", max_length=40, description="The melee weapon.", json_schema_extra={"flow": "pick"}
    )


def melee_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    _, _, unit = game.unit(actor)
    return {
        "weapon": [
            FieldPick(
                value=k,
                label=WEAPONS[k].name,
                detail=(
                    f"{max_ap(game, unit) // 2}\\ (half its max AP, L318)"
                    if WEAPONS[k].blunt_half_ap
                    else WEAPONS[k].ring_text
                ),
                unavailable=melee_why(game, unit, k),
            )
            for k in melee_weapons(unit)
        ]
    }


def melee(game: Game, inp: Melee, dice: DiceSource) -> ActionResult:
    s, u = _acting(game, inp.attacker)
    unit = game.sides[s].units[u]
    ts, _, target = game.unit(inp.target)
    if ts == s or target.state.destroyed:
        raise ValueError("melee is against a living enemy")
    if inp.weapon not in melee_weapons(unit):
        raise ValueError(f"{unit.name} has no such melee weapon")
    if why := melee_why(game, unit, inp.weapon):
        raise ValueError(why)
    st = _spend(game, s, u, 5, False)
    combat_action(game, st, unit.name)
    g = SkGame.model_validate(game.state.extra)
    g.melee.append(PendingMelee(attacker=inp.attacker, target=inp.target, weapon=inp.weapon))
    work = Working(game)
    work.state(s, u).extra = st.model_dump(mode="json")
    work.gstate.extra = g.model_dump(mode="json")
    return ActionResult(
        changes=work.changes(),
        text=f"{unit.name} goes at {target.name} with {WEAPONS[inp.weapon].name} (5 AP): "
        "resolved when it activates (L318)",
    )


class ResolveMelee(Closed):
    """Resolve the melee attack waiting on this unit, before it does anything (L318)."""

    unit: str = own_unit("The unit attacked.")


def melee_waiting(game: Game, ref: str) -> str:
    """Resolve melee is offered on a unit a declared melee attack waits on (L318)."""
    if any(m.target == ref for m in SkGame.model_validate(game.state.extra).melee):
        return ""
    return f"no melee attack waits on {game.unit(ref)[2].name}"


def _pending(game: Game, ref: str) -> tuple[int, PendingMelee]:
    g = SkGame.model_validate(game.state.extra)
    for i, m in enumerate(g.melee):
        if m.target == ref:
            return i, m
    raise ValueError("no melee attack waits on this unit")


def _melee_tn(game: Game, m: PendingMelee) -> tuple[int, str, Hit]:
    _, _, attacker = game.unit(m.attacker)
    _, _, target = game.unit(m.target)
    if attacker.state.destroyed or mod(attacker) is None:
        raise ValueError(f"{attacker.name} can no longer attack: drop the attack (AMB-61)")
    terms = [("base", 4)]
    if dm := mod(attacker):
        terms.append(("attacker's damage", dm))
    if "prone" in attacker.state.conditions:
        terms.append(("attacker prone", -1))
    if "prone" in target.state.conditions or "in_trench" in target.state.conditions:
        terms.append(("target prone, adjacent", -1))  # always 1 dot away (AMB-68)
    if "entangled" in attacker.state.conditions:
        terms.append(("attacker entangled", 1))
    tn = sum(v for _, v in terms)
    text = f"TN {tn} (" + ", ".join(f"{n} {v:+d}" if n != "base" else f"base {v}" for n, v in terms) + ")"
    return tn, text, melee_hit(game, attacker, m.weapon)


def resolve_melee(game: Game, inp: ResolveMelee, dice: DiceSource) -> ActionResult:
    i, m = _pending(game, inp.unit)
    tn, text, hit = _melee_tn(game, m)
    ts, tu, target = game.unit(m.target)
    r = roll_shot(track(target), card_of(target), tn, hit, dice)
    g = SkGame.model_validate(game.state.extra)
    del g.melee[i]
    work = Working(game)
    work.gstate.extra = g.model_dump(mode="json")
    notes = after_hits(game, work, ts, tu, r.card) if r.hit else ""
    attacker = game.unit(m.attacker)[2]
    out = ("hits" + (f"; {notes}" if notes else "")) if r.hit else "misses"
    return ActionResult(
        changes=work.changes(),
        text=f"{attacker.name}'s {WEAPONS[m.weapon].name} at {target.name} ({text}): {out}",
        detail={"to_hit": list(r.hit_faces), "cell": list(r.cell_faces or [])},
        offers=deaths(game, work, ts, tu),
    )


def resolve_melee_odds(game: Game, inp: ResolveMelee) -> ActionOdds:
    _, m = _pending(game, inp.unit)
    tn, text, hit = _melee_tn(game, m)
    target = game.unit(m.target)[2]
    return burst_odds(track(target), card_of(target), tn, hit, 1, text)


class TakeDamage(Closed):
    """Damage that needs no roll to hit: an explosion's ring, a ram, a wipe-out, fire, barbed wire."""

    unit: str = own_unit("Who takes it.")
    lethal: int = Field(
        default=1, ge=0, le=20, description="Lethal damage (X).", json_schema_extra={"flow": "common"}
    )
    blunt: int = Field(
        title="Bludgeoning",
        default=0,
        ge=0,
        le=20,
        description="Bludgeoning damage (\\).",
        # a partial cross leaves the HP as it was; it costs HP only on a cell already partly crossed (L310)
        json_schema_extra={"odds_only_when": "the trooper's card already has partly crossed HP cells"},
    )
    why: Literal["blast", "ram", "wipe_out", "fire_enter", "fire_end", "wire", "other"] = Field(
        title="From what",
        default="blast",
        description="Where it comes from, for the log: an explosion's ring (L342), a ram (L777), a wipe-out "
        "(L759), entering (1X) or ending on (8X) a burning dot (L439), barbed wire (L479).",
        json_schema_extra={
            "same_odds": "it only names the cause in the log",
            "x-labels": {
                "blast": "Explosion",
                "ram": "Ram",
                "wipe_out": "Wipe-out",
                "fire_enter": "Enters fire",
                "fire_end": "Ends on fire",
                "wire": "Barbed wire",
                "other": "Other",
            },
        },
    )
    shallow: bool = Field(
        title="In shallow water",
        default=False,
        description="In shallow water when the explosion hits: +2X, under the reading that counts shallow "
        "water (L485); a swimmer's +2X is added without asking.",
        json_schema_extra=needs("shallow_reading"),
    )


def shallow_need(game: Game, ref: str) -> str:
    """Shallow water adds to an explosion's damage only under the ``water_blast`` reading "any_water"."""
    if options(game).water_blast != "any_water":
        return "in this game only swimmers take the extra 2X (L485; see the game's readings)"
    return ""


def water_x(game: Game, unit: GameUnit, inp: TakeDamage) -> int:
    """Explosives do 2X more in every ring to targets in water (L485): swimmers, and with the
    ``water_blast`` reading "any_water" troopers the players say stand in shallow water (AMB-34)."""
    if inp.why != "blast":
        if inp.shallow:
            raise ValueError("the extra 2X in water is for an explosion's rings (L485)")
        return 0
    return 2 if "swimming" in unit.state.conditions or inp.shallow else 0


def _plain_hit(game: Game, inp: TakeDamage) -> tuple[GameUnit, Hit]:
    _, _, unit = game.unit(inp.unit)
    if unit.state.destroyed:
        raise ValueError(f"{unit.name} is already out")
    if soldier(unit).kind == "vehicle" and inp.why in ("fire_enter", "fire_end"):
        raise ValueError("vehicles are not hurt by fire; their riders are (L738)")
    if inp.shallow and (why := shallow_need(game, inp.unit)):
        raise ValueError(why)
    return unit, Hit(lethal=inp.lethal + water_x(game, unit, inp), blunt=inp.blunt)


def take_damage(game: Game, inp: TakeDamage, dice: DiceSource) -> ActionResult:
    """The card walk from a 2D6 first cell, no roll to hit (a check at TN 2 always passes)."""
    unit, hit = _plain_hit(game, inp)
    s, u, _ = game.unit(inp.unit)
    r = roll_marks(track(unit), card_of(unit), hit, dice)
    work = Working(game)
    notes = after_hits(game, work, s, u, r.card)
    what = f"{hit.lethal}X" + (f", {inp.blunt}\\" if inp.blunt else "")
    if hit.lethal != inp.lethal:
        what += " with +2X in water (L485)"
    return ActionResult(
        changes=work.changes(),
        text=f"{unit.name} takes {what} ({inp.why.replace('_', ' ')})" + (f": {notes}" if notes else ""),
        detail={"cell": list(r.cell_faces or [])},
        offers=deaths(game, work, s, u),
    )


def take_damage_odds(game: Game, inp: TakeDamage) -> ActionOdds:
    unit, hit = _plain_hit(game, inp)
    return burst_odds(track(unit), card_of(unit), 2, hit, 1, "no roll to hit")
