"""Influence and its Commands (L790-L850), an optional module (the reading ``influence``).

* Starting Influence by the game's size, 1 at 1000 points, 2 at 2000, 3 above (L794-L795): the size is the
  standard size the larger force fits in, as for Momentum; a 500-point game has none and a 1500-point
  game 1 (digest ambiguity 15).  A side gets it when the module is switched on (once a game).  Never above
  10 (L796).
* +1 each side at the end of every round (L798); +1 to the side that destroys an enemy Commander (L799).
* One Standard Command a side a round, at the round's start (before any unit has taken its turn); Reaction
  Commands at any time, not counted (L801).  The force's pick of two Strategic Commands (L822) is the
  players': the app offers those it applies.

Commands applied: Inspiring Speech (Standard, I-1: +3 Momentum, once a battle, by a living Commander, Round
4 on, L805-L807); Warning (Reaction, I-1: the unit is immune to Tactical Advantage this turn, L808-L809; its
90-degree turn is the players'); Ambush! (Standard, I-1, for a Frame 1-2 unit, L814-L815: the Influence
and the round's Standard Command are the app's; which units wait, where they arrive and the units sent
back to Reserves, L816, are the players', who know the table); Infantry Ambush (Reaction, I-1, once a
battle: up to 5 enemy units picked together take 200 each, no dice, L830-L831); Advancing Bulwark (I-2:
this round the side's shields block one more against PEN 0, L839-L840; its +5" Move the players');
Lightning Raid (I-2: this round +1 Evade, an Evade bonus under the +3 cap, against a shooter within 16",
the players' answer asked with the shot, L841-L842; its +5" Move the players'); Overwhelming Firepower
(I-3: this round +1 Shooting Accuracy and +1 ARM PEN for the whole side, shooting and melee, L843-L844);
The Valiant (I-3: this round a unit of the side below half HP, or facing a higher Melee stat, adds 2 attack
dice in the clash, L845-L846); Reinforcements (Standard, I-X: a destroyed Frame 1-2 unit without a Skilled
or Ace pilot comes back whole at its table edge, L847-L850; X is the hundreds of points started, at least
1, and further units the same round pay only what the new total adds: 100 points an Influence, L849).
The Overwatch Command (Reaction, I-1, L836-L838) rolls dice: it is its own action (:mod:`.reactions`).

Guardian (Reaction, I-1, L811-L813) is answered with the target's Skill Defense (:mod:`.asks`): another unit
of the side, within 5" (10" with Move 20+: the players'), takes the hits left and makes its own saves.

Coordinated Attack! (Reaction, I-1 a Frame 1-2 unit, I-2 above, L826-L829): given during a unit's turn for
one or two more units of its side, which take their turns as it ends, before play passes (turns.py), each
shooting or fighting in melee, not both; the Return Fire owed waits until the last has acted.

Missile Screen! (Standard, I-1, L832-L834): a side with missiles or rockets (a weapon's mark) gives them
Overwatch V this round; one fired as Overwatch then is used up for the battle (MsUnitState.spent).

Opening Bombardment's text is lost (L835): not built.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game
from core.systems.base import ActionResult, Change, Choice, Closed, NeedChoice, needs, own_unit, read_options
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.state import MsState, MsUnitState, gain, ms_state
from core.systems.mechastellar.units import Unit

#: The Commands applied: (name, Influence, Standard).  Reinforcements costs 1 Influence a 100 points
#: redeployed (its X, L847-L849): the 1 here is its least.
COMMANDS: dict[str, tuple[str, int, bool]] = {
    "inspiring_speech": ("Inspiring Speech", 1, True),
    "warning": ("Warning", 1, False),
    "ambush": ("Ambush!", 1, True),
    "infantry_ambush": ("Infantry Ambush", 1, False),
    "advancing_bulwark": ("Advancing Bulwark", 2, True),
    "lightning_raid": ("Lightning Raid", 2, True),
    "overwhelming_firepower": ("Overwhelming Firepower", 3, True),
    "the_valiant": ("The Valiant", 3, True),
    "reinforcements": ("Reinforcements", 1, True),
    "coordinated_attack": ("Coordinated Attack!", 1, False),
    "missile_screen": ("Missile Screen!", 1, True),
}
CommandKey = Literal[
    "inspiring_speech",
    "warning",
    "ambush",
    "infantry_ambush",
    "advancing_bulwark",
    "lightning_raid",
    "overwhelming_firepower",
    "the_valiant",
    "reinforcements",
    "coordinated_attack",
    "missile_screen",
]
#: How the Commands whose cost varies read on their buttons (L827, L847).
COST_LABELS = {
    "reinforcements": "1 Influence a 100 points",
    "coordinated_attack": "1 Influence, 2 above Frame 2",
}
#: Most enemy units an Infantry Ambush strikes, and what each takes (L831).
AMBUSHED, AMBUSH_DAMAGE = 5, 200


def influence_on(game: Game) -> bool:
    return read_options(MsOptions, game.options).influence


def starting_influence(game_size: int) -> int:
    """Influence at the start by game size (L794-L795; digest ambiguity 15).

    >>> [starting_influence(p) for p in (500, 800, 1000, 1500, 2000, 2001)]
    [0, 1, 1, 1, 2, 3]
    """
    for limit, influence in ((500, 0), (1500, 1), (2000, 2)):
        if game_size <= limit:
            return influence
    return 3


def influence_start(game: Game) -> list[Change]:
    """The module switched on for the first time: each side's starting Influence (L794-L796)."""
    st = ms_state(game)
    if not influence_on(game) or st.influence_given:
        return []
    size = max((sum(int(g.profile.get("points", 0)) for g in side.units) for side in game.sides), default=0)
    work = Working(game)
    for s in range(len(game.sides)):
        gain(work, s, "influence", starting_influence(size))
    st.influence_given = True
    work.put_extra(st)
    return work.changes()


def has_command(game: Game, side: int, key: str) -> bool:
    """The side played this Standard Command this round."""
    return f"{side}:{key}" in ms_state(game).commands


def valiant(game: Game, side: int, ref: str, foe: str) -> int:
    """The Valiant's 2 attack dice for a unit of the side below half HP or facing a higher Melee (L846)."""
    if not has_command(game, side, "the_valiant"):
        return 0
    g, o = game.unit(ref)[2], game.unit(foe)[2]
    below = (g.state.max_damage - g.state.damage) * 2 < g.state.max_damage
    return 2 if below or int(o.profile.get("melee", 0)) > int(g.profile.get("melee", 0)) else 0


def commander_alive(game: Game, ref: str) -> str:
    """The requirement ``commander``: the unit is its force's Commander ("" when it is)."""
    _, _, g = game.unit(ref)
    if g.profile.get("commander", "none") == "none":
        return f"{g.name} is not the Commander"
    return f"{g.name} is destroyed" if g.state.destroyed else ""


def influence_module(game: Game, ref: str) -> str:
    return "" if influence_on(game) else "the Influence module is off"


class Command(Closed):
    """Spend Influence on a Command (L800-L850)."""

    unit: str = own_unit("The unit it is for (Inspiring Speech: the Commander; Ambush!: a Frame 1-2 unit).")
    command: CommandKey = Field(
        default="warning",
        description="Which Command.",
        json_schema_extra={
            "flow": "choice",
            "x-labels": {
                k: f"{name} ({COST_LABELS.get(k, f'{cost} Influence')})"
                for k, (name, cost, _) in COMMANDS.items()
            },
            "needs": [
                *needs("commander", values=["inspiring_speech"])["needs"],
                *needs("ambusher", values=["ambush"])["needs"],
                *needs("fallen", values=["reinforcements"])["needs"],
                *needs("missiles", values=["missile_screen"])["needs"],
            ],
        },
    )
    targets: list[str] | None = Field(
        default=None,
        max_length=AMBUSHED,
        description="Infantry Ambush: the enemy units struck, up to 5 (L831); asked.",
        json_schema_extra={"ui": "hidden"},
    )
    fallen: str | None = Field(
        default=None,
        max_length=60,
        description="Reinforcements: the destroyed unit redeployed (L848); asked.",
        json_schema_extra={"ui": "hidden"},
    )


def ambusher(game: Game, ref: str) -> str:
    """The requirement ``ambusher``: a Frame 1-2 unit still in play may Ambush (L815)."""
    _, _, g = game.unit(ref)
    if g.state.destroyed:
        return f"{g.name} is destroyed"
    return "" if int(g.profile.get("frame", 1)) <= 2 else f"{g.name} is above Frame 2 (L815)"


#: Missile Screen!'s Overwatch (L833).
SCREEN_OVERWATCH = 5


def armed(game: Game, ref: str) -> Unit:
    """The unit's profile as it fires Overwatch now: its missiles and rockets with Overwatch V while its
    side's Missile Screen! is in force (L833)."""
    side, _, g = game.unit(ref)
    unit = Unit.model_validate(g.profile)
    if not has_command(game, side, "missile_screen"):
        return unit
    weapons = [
        w.model_copy(update={"overwatch": max(w.overwatch, SCREEN_OVERWATCH)}) if w.missile else w
        for w in unit.weapons
    ]
    return unit.model_copy(update={"weapons": weapons})


def screened(game: Game, ref: str, weapon: int) -> bool:
    """The weapon fired as Overwatch is used up: a missile under its side's Missile Screen! (L834)."""
    side, _, g = game.unit(ref)
    weapons = Unit.model_validate(g.profile).weapons
    return has_command(game, side, "missile_screen") and weapon < len(weapons) and weapons[weapon].missile


def missiles(game: Game, ref: str) -> str:
    """The requirement ``missiles``: Missile Screen! needs missiles or rockets on the side (L833)."""
    side, _, _ = game.unit(ref)
    if any(
        w.get("missile") and not u.state.destroyed
        for u in game.sides[side].units
        for w in u.profile.get("weapons", [])
    ):
        return ""
    return f"{game.sides[side].name} has no missiles or rockets"


def redeployable(game: Game, ref: str) -> str:
    """Why Reinforcements cannot redeploy this unit ("" when they can): a destroyed Frame 1-2 unit whose
    pilot is not Skilled or Ace (L848-L850)."""
    _, _, g = game.unit(ref)
    if not g.state.destroyed:
        return f"{g.name} is not destroyed"
    if int(g.profile.get("frame", 1)) > 2:
        return f"{g.name} is above Frame 2 (L848)"
    tier = dict(g.profile.get("pilot") or {}).get("tier", "basic")
    return "" if tier == "basic" else f"{g.name} has a Skilled or Ace pilot (L850)"


def fallen(game: Game, ref: str) -> str:
    """The requirement ``fallen``: the unit's side has a unit Reinforcements may redeploy (L848-L850)."""
    side, _, _ = game.unit(ref)
    refs = [f"{side}/{g.key}" for g in game.sides[side].units]
    if any(not redeployable(game, r) for r in refs):
        return ""
    return f"{game.sides[side].name} has no destroyed Frame 1-2 unit with a Basic pilot (L848-L850)"


def coordinated_cost(profile: dict[str, object]) -> int:
    """Coordinated Attack!'s Influence for one unit: 1 for Frame 1-2, 2 above (L829)."""
    return 1 if int(str(profile.get("frame", 1))) <= 2 else 2


def coordinated_refusal(game: Game, ref: str) -> str:
    """Why the unit may not join a Coordinated Attack! now ("" when it may): given as a unit of its side
    ends its turn (L827), for a unit of that side yet to act, at most two (L827)."""
    st = ms_state(game)
    side, _, g = game.unit(ref)
    if not st.turn_unit or game.unit(st.turn_unit)[0] != side:
        return "a Coordinated Attack! is given as one of the side's units ends its turn (L827)"
    if ref == st.turn_unit or g.state.activated or g.state.destroyed:
        return f"{g.name} has had its turn or is out of play"
    if g.profile.get("kind") == "warship":
        return f"{g.name} is a warship: it acts in the warship phase (L949)"
    if ref in st.coordinated:
        return f"{g.name} is already in the Coordinated Attack!"
    return "one or two more units (L827)" if len(st.coordinated) >= 2 else ""


def reinforcement_cost(game: Game, side: int, points: int) -> int:
    """The Influence one more redeployed unit costs this round: the total redeployed may not exceed 100
    points an Influence spent (L849), so the Command costs the hundreds started, at least 1, less what the
    side has paid for it this round."""
    done, paid = ms_state(game).reinforced.get(str(side), [0, 0])
    return max(1, -(-(done + points) // 100)) - paid


def _refusal(game: Game, inp: Command) -> str:
    st = ms_state(game)
    side, _, g = game.unit(inp.unit)
    name, cost, standard = COMMANDS[inp.command]
    if not influence_on(game):
        return "the Influence module is off"
    if inp.command == "reinforcements":
        why = fallen(game, inp.unit)
        if not why and inp.fallen is not None:
            back_side, _, back = game.unit(inp.fallen)
            why = redeployable(game, inp.fallen) if back_side == side else f"{back.name} is not of this side"
            cost = reinforcement_cost(game, side, int(back.profile.get("points", 0)))
        if why:
            return why
    if game.sides[side].resources.get("influence", 0) < cost:
        return f"{name} costs {cost} Influence (L805-L850)"
    if standard:
        more = inp.command == "reinforcements" and has_command(game, side, "reinforcements")
        if side in st.standard_used and not more:
            return "one Standard Command a round (L801)"
        started = st.turn_unit or any(u.state.activated for s in game.sides for u in s.units)
        if started:
            return "a Standard Command is given at the start of the round, before any unit's turn (L801)"
    if inp.command == "inspiring_speech":
        why = commander_alive(game, inp.unit)
        if why:
            return why
        if game.round < 4:
            return "Inspiring Speech is given from Round 4 (L807)"
        if f"{side}:inspiring_speech" in st.once:
            return "Inspiring Speech is given once a battle (L806)"
    if inp.command == "coordinated_attack":
        cost = coordinated_cost(g.profile)
        if game.sides[side].resources.get("influence", 0) < cost:
            return f"{name} costs {cost} Influence for {g.name} (L829)"
        why = coordinated_refusal(game, inp.unit)
        if why:
            return why
    if inp.command == "infantry_ambush" and f"{side}:infantry_ambush" in st.once:
        return "Infantry Ambush is given once a battle (L831)"
    if inp.command == "ambush":
        return ambusher(game, inp.unit)
    if inp.command == "warning" and g.state.destroyed:
        return f"{g.name} is destroyed"
    return ""


def _struck(game: Game, inp: Command) -> list[str]:
    """The enemy units an Infantry Ambush strikes: asked (several at once), at most 5 (L831)."""
    side, _, _ = game.unit(inp.unit)
    live = [
        f"{s}/{u.key}"
        for s, other in enumerate(game.sides)
        if s != side
        for u in other.units
        if not u.state.destroyed
    ]
    if inp.targets is None:
        raise NeedChoice(
            "targets",
            "Infantry Ambush: which enemy units take 200 damage (up to 5)?",
            [Choice(value=ref, label=game.unit(ref)[2].name) for ref in live],
            many=True,
        )
    if len(set(inp.targets)) != len(inp.targets) or not inp.targets:
        raise ValueError("pick from 1 to 5 different enemy units (L831)")
    for ref in inp.targets:
        if ref not in live:
            raise ValueError("Infantry Ambush strikes enemy units still in play (L831)")
    return inp.targets


def _ambushed(game: Game, work: Working, side: int, issuer: str, targets: list[str]) -> str:
    """Each struck unit takes 200 damage, no dice; a kill counts as any other (L247, L394, L495, L799)."""
    from core.systems.mechastellar.traits import unit_lost  # traits reads this module

    killed = []
    for ref in targets:
        t_side, t_i, t_g = game.unit(ref)
        state = work.state(t_side, t_i)
        state.damage = min(state.max_damage, state.damage + AMBUSH_DAMAGE)
        if state.damage >= state.max_damage:
            state.destroyed = True
            killed.append(t_g.name)
            unit_lost(game, work, side, ref)
    st = work.extra_as(MsState)
    if killed and not st.kill_momentum:
        st.kill_momentum = True
        gain(work, side, "momentum", 1)  # an enemy destroyed this turn (L247)
        work.put_extra(st)
    names = ", ".join(game.unit(r)[2].name for r in targets)
    lost = f"; {', '.join(killed)} destroyed" if killed else ""
    return f": {names} take {AMBUSH_DAMAGE} damage each{lost}"


def _redeploy(game: Game, work: Working, side: int, ref: str, cost: int) -> str:
    """The destroyed unit comes back whole at its table edge, ready to act (L848)."""
    _, u, g = game.unit(ref)
    state = work.state(side, u)
    state.destroyed, state.damage, state.activated = False, 0, False
    state.conditions = []
    state.counters = {**state.counters, "actions": 0, "stun": 0, "focus": 0, "bonus": 0, "allout": 0}
    state.extra = MsUnitState().model_dump(mode="json")
    st = work.extra_as(MsState)
    done, paid = st.reinforced.get(str(side), [0, 0])
    st.reinforced = {**st.reinforced, str(side): [done + int(g.profile.get("points", 0)), paid + cost]}
    work.put_extra(st)
    return f": {g.name} is redeployed at the table edge with full HP"


def _redeployed(game: Game, inp: Command) -> str:
    """The destroyed unit Reinforcements bring back: asked among those it may (L848-L850)."""
    side, _, _ = game.unit(inp.unit)
    if inp.fallen is None:
        refs = [f"{side}/{g.key}" for g in game.sides[side].units]
        options = [
            Choice(
                value=r,
                label=f"{game.unit(r)[2].name}: "
                f"{reinforcement_cost(game, side, int(game.unit(r)[2].profile.get('points', 0)))} Influence",
            )
            for r in refs
            if not redeployable(game, r)
        ]
        raise NeedChoice("fallen", "Reinforcements: which destroyed unit comes back?", options)
    return inp.fallen


def command(game: Game, inp: Command, dice: DiceSource) -> ActionResult:
    why = _refusal(game, inp)
    if why:
        raise ValueError(why)
    back = _redeployed(game, inp) if inp.command == "reinforcements" else ""
    side, u, g = game.unit(inp.unit)
    name, cost, standard = COMMANDS[inp.command]
    if back:
        cost = reinforcement_cost(game, side, int(game.unit(back)[2].profile.get("points", 0)))
    if inp.command == "coordinated_attack":
        cost = coordinated_cost(g.profile)
    targets = _struck(game, inp) if inp.command == "infantry_ambush" else []
    work = Working(game)
    gain(work, side, "influence", -cost)
    st = work.extra_as(MsState)
    if standard and f"{side}:{inp.command}" not in st.commands:
        st.standard_used = [*st.standard_used, side]
        st.commands = [*st.commands, f"{side}:{inp.command}"]
    if inp.command in ("inspiring_speech", "infantry_ambush"):
        st.once = [*st.once, f"{side}:{inp.command}"]
    work.put_extra(st)
    text = f"{game.sides[side].name} gives {name} ({cost} Influence)"
    if inp.command == "inspiring_speech":
        gain(work, side, "momentum", 3)
        text += ": +3 Momentum"
    elif inp.command == "warning":
        state = work.state(side, u)
        state.conditions = [*state.conditions, "warned"]
        text += f": {g.name} is immune to Tactical Advantage this turn"
    elif inp.command == "infantry_ambush":
        text += _ambushed(game, work, side, inp.unit, targets)
    elif inp.command == "reinforcements":
        text += _redeploy(game, work, side, back, cost)
    elif inp.command == "coordinated_attack":
        now = work.extra_as(MsState)
        now.coordinated = [*now.coordinated, inp.unit]
        work.put_extra(now)
        text += (
            f": {g.name} takes its turn as this one ends, to shoot or to fight in melee, not both (L827-L828)"
        )
    else:
        text += ": " + EFFECTS[inp.command]
    return ActionResult(changes=work.changes(), text=text)


#: What a Command in force this round does, as the log says it (L815, L840-L846).
EFFECTS = {
    "ambush": "up to 3 Frame 1-2 units may arrive at the end of the round, out of the enemy's sight and "
    "Sensors (the players place them)",
    "advancing_bulwark": 'Move +5" and shields +1 block against PEN 0 this round',
    "lightning_raid": 'Move +5" and +1 Evade against shots from within 16" this round',
    "missile_screen": "missiles and rockets have Overwatch V this round; fired as Overwatch, used up",
    "overwhelming_firepower": "+1 Shooting Accuracy and +1 ARM PEN this round",
    "the_valiant": "+2 melee attack dice this round below half HP or against a higher Melee",
}


def guardians(game: Game, target: str) -> list[str]:
    """The units that may take a Guardian's place for ``target``: the others of its side in play, when the
    module is on and the side has 1 Influence (L811-L813).  Who is within 5" is the players' answer."""
    side, _, _ = game.unit(target)
    if not influence_on(game) or game.sides[side].resources.get("influence", 0) < 1:
        return []
    refs = [f"{side}/{u.key}" for u in game.sides[side].units if not u.state.destroyed]
    return [r for r in refs if r != target]


def guardian_choices(game: Game, refs: Sequence[str]) -> list[Choice]:
    """One answer a Guardian, with its reach: 5", 10" with Move 20+ (L812)."""
    out = []
    for ref in refs:
        g = game.unit(ref)[2]
        reach = 10 if int(g.profile.get("move", 0)) >= 20 else 5
        label = f'Guardian: {g.name}, within {reach}", takes them (1 Influence)'
        out.append(Choice(value=0, label=label, also={"guardian": ref}))
    return out


def round_end_influence(game: Game, work: Working) -> None:
    """+1 Influence each side at the round's end (L798)."""
    if influence_on(game):
        for s in range(len(game.sides)):
            gain(work, s, "influence", 1)


def commander_killed(game: Game, work: Working, killer_side: int, profile: dict[str, object]) -> None:
    """+1 Influence for destroying the enemy Commander (L799)."""
    if influence_on(game) and profile.get("commander", "none") != "none":
        gain(work, killer_side, "influence", 1)


def warned(game: Game, ref: str) -> bool:
    """Warning: immune to Tactical Advantage this turn (L809)."""
    return "warned" in game.unit(ref)[2].state.conditions
