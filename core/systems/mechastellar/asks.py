"""The questions a shot asks once its evade dice are rolled (L253): the target's Improvise (Expanded Pilot
Skills, L318-L320), the attacker's The Will to Power!
(Climactic Events, L779-L781), then the target's Skill Defense, Flawless Evasion, Narrow Escape or a
Guardian (L260-L264, L290-L291, L742, L811-L813).  :mod:`.shooting` asks them; the answers' effects are
its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.game import Game
from core.systems.base import Choice, NeedChoice
from core.systems.mechastellar.commands import guardian_choices
from core.systems.mechastellar.events import escape_open

#: A critical evade face while The Will to Power! may still be used: counted apart from plain hits (at
#: most 10 dice, so a total reads back as criticals and plain hits).
CRIT_CODE = 16


def will_open(game: Game, ref: str) -> bool:
    """The Will to Power! may be used by this unit's shot: the Commander, Round 4 on, its side's Event open
    (L779-L781)."""
    side, _, g = game.unit(ref)
    commander = g.profile.get("commander", "none") != "none"
    return commander and game.round >= 4 and escape_open(game, side)


def will_question(name: str, plain: int) -> NeedChoice:
    """The Commander's player is asked: up to 3 of the plain hits made criticals, once a game (L781)?"""
    k = min(3, plain)
    return NeedChoice(
        "will_to_power",
        f"{name}: The Will to Power!, {k} hit{'s' * (k != 1)} made critical (+{k})? Once a game",
        [
            Choice(value=False, label="No", assumed=True),
            Choice(value=True, label=f"The Will to Power!: +{k}"),
        ],
    )


def defense_choice(
    game: Game,
    side: int,
    name: str,
    hits: int,
    ace: bool,
    cost: int,
    ratio: int = 1,
    momentum: int | None = None,
    escape: bool = False,
    guards: Sequence[str] = (),
) -> NeedChoice:
    """The target's decision after the roll: take the hits, spend Momentum on Skill Defense (L260-L264;
    ``ratio`` hits a Momentum, L404, L456) or, for an Ace, Flawless Evasion for Momentum equal to the
    round (L290-L291)."""
    if momentum is None:
        momentum = game.sides[side].resources.get("momentum", 0)
    options = [Choice(value=0, label=f"Take {hits} hit{'s' * (hits != 1)}", assumed=True)]
    for n in range(1, min(momentum, -(-hits // ratio)) + 1):
        left = max(0, hits - ratio * n)
        options.append(Choice(value=n, label=f"Spend {n} Momentum: {left} hit{'s' * (left != 1)} left"))
    if ace and game.sides[side].resources.get("momentum", 0) >= cost:
        options.append(
            Choice(value=0, label=f"Flawless Evasion: {cost} Momentum, no hits", also={"flawless": True})
        )
    if escape:  # Climactic Events (L742)
        options.append(Choice(value=0, label="Narrow Escape: no hits (once a game)", also={"escape": True}))
    options += guardian_choices(game, guards)  # Guardian (L811-L813)
    return NeedChoice("defense", f"{name} is hit {hits} time{'s' * (hits != 1)}: Skill Defense?", options)


def improvise_cost(used: Sequence[str]) -> int:
    """Improvise's Momentum: 1, nothing more once paid this turn (it lasts the turn, L320)."""
    return 0 if "improvise" in used else 1


def improvise_question(
    name: str, failing: int, cost: int, field: str = "improvise", what: str = "evade"
) -> NeedChoice:
    """The unit's player is asked: roll again its evade dice that let shots through, or its defense dice
    that blocked nothing (L320)?"""
    price = f"{cost} Momentum" if cost else "paid this turn"
    failed = "let shots through" if what == "evade" else "blocked nothing"
    return NeedChoice(
        field,
        f"{name}: Improvise, roll again the {failing} {what} {'die' if failing == 1 else 'dice'} that "
        f"{failed} ({price})?",
        [Choice(value=False, label="No", assumed=True), Choice(value=True, label=f"Improvise ({price})")],
    )
