"""Environments (optional, L1985-2097) and space battles (optional, L2796-2882).

The environment is a game-wide value kept in ``Game.state`` (:mod:`.wide`; a change is
one undoable event): ``state.environment`` names it, with ``storm_type``,
``darkness_variant``, ``eye_of_the_storm`` and ``flying_allowed`` beside it in
``state.extra``, and the running values ``hull_breaches``, ``storm_calm`` (the eye of
the storm), ``dark_over`` (Sunrise) and ``last_turn`` (catastrophic decompression).  The
``environment`` action picks it or rolls it on the D6 table with its sub-rolls
(L1989-1997); a game that never recorded one has an empty ``environment``, and
then the procedures below leave the players to vouch for it (as before).

Where the app applies an environment (each with its line):

* High gravity: moving fast needs the Fast upgrade and then costs 1 FP (L2053-2055,
  ``spend_fp``); jumping costs 1 FP (L2055, ``spend_fp`` and ``jump_charge``);
  recoil and throw halved (L2057, ``power``); a fall is 2 hits per inch (L2059).
* Low gravity: a fall's hits halved (L2065); knock-back +1" (L2067); a unit without
  Jump may jump for 1 FP (L2069, ``spend_fp`` and ``jump_charge``).
* Darkness: the free evade after a move (L2009, ``evade``), not on turn 1 of
  Nightfall (L2019), over once Sunrise's End-phase 4+ comes up (L2013).
* Storm: targets at Medium or Long range are obscured (L2025, ``attack``); dust and
  lightning damage and lightning's counter rolls in the End phase (L2035, L2047),
  never to Environment Enhancement units (L2390); the eye of the storm (L2027,
  ``initiative``).
* Bombardment: the End phase's die per unit (L2003).
* Space structure: no HALO arrivals (L2075, ``reserves``), no Indirect Fire (L2077,
  ``attack``), the hull breach roll after Explode or Blast (L2081, ``power``) or a
  push into the table edge (``hull_breach``), and catastrophic decompression in the
  End phase (L2085).
* Underwater: +1D defense against Long attacks (L2093, ``attack``); Burn does
  nothing (L2095, ``power``).
* Space battles: no falling damage (L2808); knock-back +2" (L2809, ``power``); the
  drift roll in the End phase (L2849).

What the app cannot do, because it has no positions on the table: who may react to
whose move in the dark (L2009, L2019) and how far away the enemies are; the Speed
changes of snow, underwater and space (L2041, L2091, L2813), which only ever bear
on moves players measure; everyone climbing underwater (L2097); whether flying is
allowed inside a structure (L2079, recorded only); the breach area itself (L2083);
floating structures, massive surfaces and debris (L2815-2845), where drifting units
and debris end up, their collisions and what drifts off the edge (L2853-2882: the
debris table is :data:`DEBRIS_OFF_EDGE`, for the dice tool).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.dice import DiceSource, Dist
from core.systems.base import ActionOdds, ActionResult, ActionSpec
from core.systems.gunframe.effects import StormProof
from core.systems.gunframe.state import Edits, is_structure, upgrades_of
from core.systems.gunframe.upgrades import has_effect
from core.systems.gunframe.wide import game_value

if TYPE_CHECKING:
    from core.game import Game

EnvironmentId = Literal[
    "none",
    "bombardment",
    "darkness",
    "storm",
    "high_gravity",
    "low_gravity",
    "space_structure",
    "underwater",
    "space",
]
StormType = Literal["none", "dust", "snow", "lightning"]
DarknessVariant = Literal["full", "sunrise", "nightfall"]


@dataclass(frozen=True)
class EnvironmentDef:
    """One environment: where the book has it and what it does, in our words."""

    id: str
    name: str
    ref: str
    summary: str
    #: Its face on the D6 table (L1989-1997); 0 when it is not on the table.
    roll: int = 0


ENVIRONMENTS: dict[str, EnvironmentDef] = {
    e.id: e
    for e in (
        EnvironmentDef("none", "No environment", "L1987", "The battlefield has no special condition."),
        EnvironmentDef(
            "bombardment",
            "Bombardment",
            "L1999-2003",
            "Every End phase each unit on the table rolls a die and loses 1 Armour on a 1; units inside a "
            "building or touching hard cover are spared.",
            1,
        ),
        EnvironmentDef(
            "darkness",
            "Darkness",
            "L2005-2019",
            "Nobody reacts to enemy moves. After a move ending in obscuring terrain more than 8 inches from "
            "every enemy, a unit may evade at once for 1 FP, free with Stealth or Cloaking. Sunrise: an "
            "End-phase 4+ ends the dark. Nightfall: the dark closes in from turn 2 and is full from turn 4.",
            2,
        ),
        EnvironmentDef(
            "storm",
            "Storm",
            "L2021-2047",
            "Targets at Medium or Long range are obscured. Dust hurts units in the open each End phase, "
            "snow takes 1 off every Speed, lightning hurts units on water, high ground or in the air and "
            "may wipe Target Lock and Evade counters.",
            3,
        ),
        EnvironmentDef(
            "high_gravity",
            "High gravity",
            "L2049-2059",
            "Only Fast units may move fast, and pay 1 FP for it; jumping costs 1 FP; recoil and throw "
            "distances are halved; a fall deals 2 hits per inch.",
            4,
        ),
        EnvironmentDef(
            "low_gravity",
            "Low gravity",
            "L2061-2069",
            "Falls deal half the hits; knock-backs go 1 inch further; any unit may jump for 1 FP.",
            4,
        ),
        EnvironmentDef(
            "space_structure",
            "Space structure",
            "L2071-2085",
            "No HALO arrivals and no Indirect Fire. Explode, Blast or a push into the table edge tears "
            "the hull on a 1-2; once the tears outnumber the turn in an End phase, the next turn is the "
            "last.",
            5,
        ),
        EnvironmentDef(
            "underwater",
            "Underwater",
            "L2087-2097",
            "Speed 1 lower (not for Heavy or Aquatic units); +1 defense die against Long attacks; Burn "
            "does nothing; every unit climbs as if it had Climb.",
            6,
        ),
        EnvironmentDef(
            "space",
            "Space battle",
            "L2796-2882",
            "Falls do no damage; knock-backs go 2 inches further; units off a massive surface count as "
            "flying; every End phase a die sets how far debris and downed units drift toward the drift edge.",
        ),
    )
}

#: The storm types and their faces on the optional sub-roll (L1993, L2029-2047).
STORM_TYPES: dict[str, tuple[tuple[int, ...], str, str]] = {
    "dust": ((1, 2), "L2031-2035", "each End phase, units touching no terrain feature lose 1 Armour"),
    "snow": ((3, 4), "L2037-2041", "every Speed is 1 lower for the whole battle"),
    "lightning": (
        (5, 6),
        "L2043-2047",
        "each End phase, units on water, on high ground or flying lose 1 Armour; each Target Lock and "
        "Evade counter goes on a 4+",
    ),
}

#: Gravity's sub-roll (L1995).
GRAVITY_FACES: dict[str, tuple[int, ...]] = {"high_gravity": (1, 2, 3), "low_gravity": (4, 5, 6)}

#: What becomes of a piece of debris that drifts off the table (L2869-2882), by D6.
DEBRIS_OFF_EDGE: tuple[tuple[tuple[int, ...], str], ...] = (
    ((1, 2), "gone for good"),
    ((3, 4), 'a new piece: the initiative player sets it touching a table edge, over 6" from anything'),
    ((5, 6), 'an unseen piece: the initiative player sets it anywhere at least 3" from anything'),
)


# --- reading the setting -------------------------------------------------------------------------


def environment_of(game: Game) -> str | None:
    """The game's environment, or None when the game never recorded one."""
    env = game_value(game, "environment")
    return str(env) if env in ENVIRONMENTS else None


def storm_active(game: Game) -> bool:
    """A storm is raging: the storm environment, not stilled by the eye of the storm (L2027)."""
    return environment_of(game) == "storm" and not game_value(game, "storm_calm")


def dark(game: Game) -> bool:
    """Darkness is in force: not after Sunrise (L2013), nor on Nightfall's first turn (L2019)."""
    if environment_of(game) != "darkness" or game_value(game, "dark_over"):
        return False
    return not (game_value(game, "darkness_variant") == "nightfall" and game.round < 2)


def knockback_environment(game: Game) -> str:
    """The setting as the power attacks' knock-back reads it (L2057, L2067, L2809, L2095)."""
    env = environment_of(game)
    return env if env in ("high_gravity", "low_gravity", "space", "underwater") else "normal"


def storm_proof(unit_ups: set[str]) -> bool:
    """Environment Enhancement ignores the dust, snow and lightning effects (L2390)."""
    return has_effect(unit_ups, StormProof)


# --- choosing the environment (L1985-1997) -------------------------------------------------------


class EnvironmentInput(BaseModel):
    """The environment of this battle, picked or rolled before deployment (L1987)."""

    model_config = ConfigDict(extra="forbid")

    environment: (
        Literal[
            "none",
            "bombardment",
            "darkness",
            "storm",
            "gravity",
            "high_gravity",
            "low_gravity",
            "space_structure",
            "underwater",
            "space",
        ]
        | None
    ) = Field(
        default=None,
        description="The environment; empty to roll a D6 on the table (L1989-1997). 'gravity' rolls high "
        "(1-3) or low (4-6) (L1995); 'space' is the space battle module, not on the table (L2796).",
    )
    storm_type: Literal["roll", "none", "dust", "snow", "lightning"] = Field(
        default="roll",
        description="Storm only: its optional type (L2029); 'roll' rolls a D6: 1-2 dust, 3-4 snow, "
        "5-6 lightning (L1993).",
    )
    darkness_variant: DarknessVariant = Field(
        default="full",
        description="Darkness only: dark all battle, Sunrise (a 4+ in an End phase ends it, L2013) or "
        "Nightfall (it closes in from turn 2, L2019).",
        json_schema_extra={"same_odds": "the players pick it; the environment roll's odds are the same"},
    )
    eye_of_the_storm: bool = Field(
        default=False,
        description="Storm only: matching initiative dice (before bonuses) still the storm, the next "
        "match starts it again (L2027).",
        json_schema_extra={"same_odds": "the players pick it; the environment roll's odds are the same"},
    )
    flying_allowed: bool = Field(
        default=True,
        description="Space structure only: the players' agreement that units may fly inside; if not, "
        "flyers count as having Jump instead (L2079).",
        json_schema_extra={"same_odds": "the players agree on it; the environment roll's odds are the same"},
    )


def _first(inp: EnvironmentInput, main: int | None) -> str:
    """The table's entry: the one picked, or the one the D6 shows (4 is gravity, rolled again, L1995)."""
    if inp.environment is not None:
        return inp.environment
    env = next(e.id for e in ENVIRONMENTS.values() if e.roll == main)
    return "gravity" if env in GRAVITY_FACES else env


def _needs_sub(inp: EnvironmentInput, first: str) -> bool:
    return first == "gravity" or (first == "storm" and inp.storm_type == "roll")


def _outcome(inp: EnvironmentInput, first: str, sub: int | None) -> tuple[str, str | None]:
    """The environment and storm type, from the entry and the sub-roll (L1993-1995)."""
    if first == "gravity":
        return next(g for g, faces in GRAVITY_FACES.items() if sub in faces), None
    if first == "storm":
        if inp.storm_type == "roll":
            return "storm", next(t for t, (faces, _r, _s) in STORM_TYPES.items() if sub in faces)
        return "storm", inp.storm_type
    return first, None


def resolve_environment(game: Game, inp: EnvironmentInput, dice: DiceSource) -> ActionResult:
    edits = Edits(game)
    detail: dict[str, Any] = {}
    main = None
    if inp.environment is None:
        main = dice.roll(1, 6, "environment (D6)")[0]
        detail["roll"] = main
    first = _first(inp, main)
    sub = None
    if _needs_sub(inp, first):
        what = "gravity (1-3 high, 4-6 low)" if first == "gravity" else "storm type (D6)"
        sub = dice.roll(1, 6, what)[0]
        detail["sub_roll"] = sub
    env, storm = _outcome(inp, first, sub)
    edef = ENVIRONMENTS[env]
    settings: dict[str, Any] = {
        "environment": env,
        "storm_type": storm,
        "darkness_variant": inp.darkness_variant if env == "darkness" else None,
        "eye_of_the_storm": inp.eye_of_the_storm if env == "storm" else False,
        "flying_allowed": inp.flying_allowed if env == "space_structure" else True,
        "hull_breaches": 0,
        "storm_calm": False,
        "dark_over": False,
        "last_turn": None,
    }
    for key, value in settings.items():
        edits.set_option(key, value)
    how = f"rolled {main}: " if main is not None else ""
    name = _label(env, storm)
    if env == "darkness" and inp.darkness_variant != "full":
        name += f" ({inp.darkness_variant})"
    text = f"Environment: {how}{name}"
    if sub is not None:
        text += f" (sub-roll {sub})"
    text += f". {edef.summary}"
    if env == "space_structure" and not inp.flying_allowed:
        text += " Nobody flies inside: flyers count as having Jump instead."
    detail.update({"environment": env, "storm_type": storm})
    return ActionResult(changes=edits.changes(), text=text, detail=detail)


def environment_odds(game: Game, inp: EnvironmentInput) -> ActionOdds:
    """The chance of each environment, from the same reading of the dice as the roll."""
    die = Dist.die(6)
    mains: Dist[int | None] = die.map(lambda f: f) if inp.environment is None else Dist.constant(None)

    def with_sub(main: int | None) -> Dist[str]:
        first = _first(inp, main)
        if _needs_sub(inp, first):
            return die.map(lambda s: _label(*_outcome(inp, first, s)))
        return Dist.constant(_label(*_outcome(inp, first, None))).scale(6)

    dist = mains.bind(with_sub)
    facts = {k: float(p) for k, p in dist.probabilities()}
    return ActionOdds(
        tables={}, facts=facts, summary="D6 on the environment table, then its sub-roll (L1989)"
    )


def _label(env: str, storm: str | None) -> str:
    name = ENVIRONMENTS[env].name
    return f"{name} ({storm})" if storm and storm != "none" else name


ENVIRONMENT = ActionSpec(
    name="environment",
    label="Environment",
    input=EnvironmentInput,
    resolve=resolve_environment,
    odds=environment_odds,
    help="Pick or roll the battle's environment, with the storm and gravity sub-rolls (L1985-2097); "
    "or a space battle (L2796).",
)


# --- hull breaches (L2081-2085) ---------------------------------------------------------------------


def breach_roll(edits: Edits, dice: DiceSource, cause: str) -> str:
    """A die after Explode, Blast or a push into the edge: a breach on 1-2 (L2081), counted in the
    game's ``hull_breaches`` for the End phase (L2085)."""
    face = dice.roll(1, 6, f"hull breach ({cause})")[0]
    if face > 2:
        return f"the hull holds (rolled {face})"
    count = int(edits.option("hull_breaches", 0) or 0) + 1
    edits.set_option("hull_breaches", count)
    return (
        f'hull breach (rolled {face}): {count} so far; a 2" dangerous, difficult, obscuring area at the spot'
    )


BREACH_CHANCE = Dist.die(6).map(lambda f: f <= 2).probability(True)


class HullBreachInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    unit: str = Field(
        description="The unit driven into the table edge against its will (L2081).",
        json_schema_extra={"ui": "enemy-unit"},
    )


def resolve_breach(game: Game, inp: HullBreachInput, dice: DiceSource) -> ActionResult:
    if environment_of(game) != "space_structure":
        raise ValueError("hull breaches happen only inside a space structure (L2071-2081)")
    edits = Edits(game)
    name = edits.name(edits.find(inp.unit))
    text = f"{name} slams into the edge of the structure: " + breach_roll(edits, dice, "edge")
    return ActionResult(changes=edits.changes(), text=text)


def breach_odds(game: Game, inp: HullBreachInput) -> ActionOdds:
    return ActionOdds(tables={}, facts={"hull breach": float(BREACH_CHANCE)}, summary="a 1 or 2 on a D6")


HULL_BREACH = ActionSpec(
    name="hull_breach",
    label="Hull breach roll",
    input=HullBreachInput,
    resolve=resolve_breach,
    odds=breach_odds,
    help="Space structure: a unit forced into the table edge tears the hull on a 1-2 (L2081); Explode and "
    "Blast roll for it themselves.",
)


# --- the End phase (L2003, L2013, L2035, L2047, L2085, L2849) ----------------------------------------


def end_of_turn(edits: Edits, dice: DiceSource, sheltered: list[str], struck: list[str]) -> list[str]:
    """The environment's End-phase events, in this order: bombardment, storm damage, lightning's counter
    rolls, Sunrise, drift, decompression.  ``sheltered`` are the units bombardment spares (L2003);
    ``struck`` those the storm reaches (dust: touching no terrain, L2035; lightning: on water or high
    ground, L2047; flying units are added for lightning).  Structures are not units and take none of it
    (L2884-2897)."""
    game = edits.game
    env = environment_of(game)
    lines: list[str] = []
    spared = {edits.find(ref) for ref in sheltered}
    hit = {edits.find(ref) for ref in struck}
    if (spared or hit) and env not in ("bombardment", "storm"):
        raise ValueError("sheltered and storm-struck units only count in a bombardment or a storm")

    def on_table(pos: tuple[int, int]) -> bool:
        unit = edits.unit(pos)
        conds = edits.get(pos, "conditions")
        return not (
            edits.get(pos, "destroyed") or is_structure(unit) or "in_reserve" in conds or "off_table" in conds
        )

    everyone = [(s, u) for s, side in enumerate(game.sides) for u in range(len(side.units))]
    if env == "bombardment":  # L2003
        for pos in everyone:
            if not on_table(pos) or pos in spared:
                continue
            face = dice.roll(1, 6, f"bombardment: {edits.name(pos)}")[0]
            if face == 1:
                gone = edits.damage(pos, 1)
                lines.append(f"{edits.name(pos)} is hit by the bombardment" + (", destroyed" if gone else ""))
    storm = str(game_value(game, "storm_type") or "none")
    if env == "storm" and (hit and (storm not in ("dust", "lightning") or game_value(game, "storm_calm"))):
        raise ValueError("only a raging dust or lightning storm strikes units")
    if storm_active(game) and storm in ("dust", "lightning"):
        if storm == "lightning":  # flying units are always struck (L2047)
            hit |= {p for p in everyone if on_table(p) and edits.has(p, "flying")}
        for pos in sorted(hit):
            if not on_table(pos):
                continue
            if storm_proof(upgrades_of(edits.unit(pos))):
                lines.append(f"{edits.name(pos)} shrugs off the {storm} (Environment Enhancement)")
                continue
            gone = edits.damage(pos, 1)
            lines.append(
                f"{edits.name(pos)} is struck by the {storm} storm" + (", destroyed" if gone else "")
            )
        if storm == "lightning":  # L2047: each counter on the table, removed on a 4+
            for pos in everyone:
                if edits.get(pos, "destroyed"):
                    continue
                for key in ("target_lock", "evade"):
                    if edits.counter(pos, key):
                        face = dice.roll(1, 6, f"lightning: {edits.name(pos)}'s {key.replace('_', ' ')}")[0]
                        if face >= 4:
                            edits.set_counter(pos, key, 0)
                            lines.append(f"lightning wipes {edits.name(pos)}'s {key.replace('_', ' ')}")
    if (
        env == "darkness"
        and game_value(game, "darkness_variant") == "sunrise"
        and not game_value(game, "dark_over")
    ):
        face = dice.roll(1, 6, "sunrise")[0]  # L2013
        if face >= 4:
            edits.set_option("dark_over", True)
            lines.append(f"the sun comes up (rolled {face}): darkness is over")
        else:
            lines.append(f"still dark (rolled {face})")
    if env == "space":  # L2849
        face = dice.roll(1, 6, "drift")[0]
        drifting = [
            edits.name(p)
            for p in everyone
            if on_table(p) and (edits.has(p, "knocked_down") or edits.has(p, "shut_down"))
        ]
        who = ", ".join(["all debris", *drifting])
        lines.append(f'drift {face}": {who} move toward the drift edge; check collisions (L2853-2882)')
    if env == "space_structure":  # L2085
        breaches = int(game_value(game, "hull_breaches", 0) or 0)
        if breaches > game.round and game_value(game, "last_turn") is None:
            edits.set_option("last_turn", game.round + 1)
            lines.append(f"{breaches} hull breaches after turn {game.round}: the next turn is the last")
    return lines


def end_odds_facts(game: Game) -> dict[str, float]:
    """Chances the End phase's environment dice bring (one die each)."""
    env = environment_of(game)
    facts: dict[str, float] = {}
    if env == "bombardment":
        facts["a unit is hit by the bombardment"] = 1 / 6
    if storm_active(game) and game_value(game, "storm_type") == "lightning":
        facts["lightning wipes a counter"] = 1 / 2
    if (
        env == "darkness"
        and game_value(game, "darkness_variant") == "sunrise"
        and not game_value(game, "dark_over")
    ):
        facts["the sun comes up"] = 1 / 2
    return facts


ENVIRONMENT_ACTIONS = (ENVIRONMENT, HULL_BREACH)
