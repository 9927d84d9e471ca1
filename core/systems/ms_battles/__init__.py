"""Mobile Suit Battles v0.3 (002_c5caa4b4fc3fd928.txt): the rule system as the shared layer sees it.

The package reads in the order the book plays: :mod:`.cards` (card and frame
anatomy, L52-L61, L109-L116), :mod:`.decks` (deck construction, L107-L135),
:mod:`.sample` (the app's own sample set: the book prints no cards),
:mod:`.builder` (the deck builder's parts, picks assembled into a suit, counters by slot),
:mod:`.options` (house readings of unclear rules), then play (L48-L105, L139):
:mod:`.board` (the table loaded from a game), :mod:`.planning` (shuffle, draw, plan
and the draw odds), :mod:`.resolve` (the action phase) and :mod:`.play` (setup,
cleanup, the actions, the end of the game).  The book uses no dice: the only
chance is the order of each deck, and the odds of the "draw" action are exact.

**Hidden cards and who may see them (L71).**  A game lives on the table's
phone.  What the app shows depends on who looks (``viewer``): the shared table
phone marks hands and face-down cards private, hidden until their owner opens
them; another side's phone sees how many cards, never which; draw odds for a
suit are computed from what the viewer knows, so only the owner's odds use the
cards they put back under the deck.  The log names no hidden card (draws and
plans log counts; the reveal names the cards), and a game link made while cards
are hidden carries the game as it stood before that planning began.  This is
hiding, not encryption: the saved game and a game link hold the deck order and
the positions of every card as data, and someone who decodes the raw storage or
link can read them.  Planning on one's own phone (:mod:`core.remote`) also keeps
the hand off the table phone's screen; the picks still travel in the answer link
and are stored with the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from core.game import Game, undo
from core.systems.base import (
    CardLine,
    CatalogueUnit,
    Change,
    PhaseView,
    RuleSystem,
    UnitCard,
    UnitState,
    UnitView,
    Viewer,
    Violation,
    as_profile,
)
from core.systems.ms_battles.board import SuitPlay, fresh_play
from core.systems.ms_battles.cards import (
    MARKER,
    ZONES,
    Armor,
    AttackMark,
    Card,
    Effect,
    Frame,
    MobileSuit,
    Pilot,
    ReshuffleMarker,
    Weapon,
)
from core.systems.ms_battles.decks import deck_violations
from core.systems.ms_battles.gates import REQUIREMENTS
from core.systems.ms_battles.options import MsbOptions
from core.systems.ms_battles.phases import phase
from core.systems.ms_battles.planning import hand_dist, hypergeometric
from core.systems.ms_battles.play import ACTIONS, draw_odds, hidden, status_lines
from core.systems.ms_battles.sample import CARDS, LABEL, SAMPLE_SUITS
from core.systems.ms_battles.tools import EDITOR, TOOLS
from core.systems.ms_battles.view import unit_view, unit_views

__all__ = [
    "ACTIONS",
    "MARKER",
    "SYSTEM",
    "Armor",
    "AttackMark",
    "Card",
    "Effect",
    "Frame",
    "MobileSuit",
    "MobileSuitBattles",
    "MsbOptions",
    "Pilot",
    "ReshuffleMarker",
    "SuitPlay",
    "Weapon",
    "deck_violations",
    "draw_odds",
    "hand_dist",
    "hypergeometric",
]


def _suit(profile: BaseModel) -> MobileSuit:
    return as_profile(MobileSuit, profile)


class MobileSuitBattles(RuleSystem):
    """Mobile Suit Battles' contribution to the shared squad and game layer."""

    def catalogue(self) -> list[CatalogueUnit]:
        """The app's own sample decks (the book prints none, L9)."""
        return self.samples_catalogue(SAMPLE_SUITS, LABEL)

    def unit_cost(self, profile: BaseModel) -> int:
        """The book has no points: every side brings the same number of suits (L9)."""
        return 0

    def unit_violations(self, profile: BaseModel) -> list[Violation]:
        return deck_violations(_suit(profile))

    def card(self, profile: BaseModel) -> UnitCard:
        suit = _suit(profile)
        f = suit.frame
        lines = [
            CardLine(label="Frame", value=f.name, note=f.ability),
            CardLine(label="Base movement", value=str(f.base_movement)),
            CardLine(label="Armour H/M/L", value=f"{f.armor.high}/{f.armor.mid}/{f.armor.low}"),
            CardLine(label="Slots", value=f"{f.weapon_slots} weapons, {f.booster_slots} boosters"),
            CardLine(label="Pilot", value=suit.pilot or "none"),
            CardLine(label="Weapons", value=", ".join(suit.weapons) or "none"),
        ]
        for c in suit.cards:
            marks = " ".join(
                f"{a.form[0].upper()}{a.range if a.range is not None else ''}:{a.zone}x{a.count}"
                for a in c.attacks
            )
            blocks = "block " + "/".join(c.blocks) if c.blocks else ""
            value = " ".join(x for x in (f"i{c.initiative}", f"m{c.movement:+d}", marks, blocks) if x)
            lines.append(
                CardLine(label=c.name, value=value, note=("single use. " if c.single_use else "") + c.ability)
            )
        return UnitCard(title=suit.name, kind=f.name, lines=lines, notes=[suit.note] if suit.note else [])

    def unit_view(self, game: Game, side: int, index: int, viewer: int | None = None) -> UnitView:
        """Hand (private, picked to plan), face-down cards, piles, as ``viewer`` may see them."""
        return unit_view(game, side, index, viewer)

    def unit_views(self, game: Game, viewer: Viewer = None) -> dict[tuple[int, int], UnitView]:
        return unit_views(game, viewer)

    def start_round(self, game: Game) -> list[Change]:
        """A turn ends with its cleanup, which moves the turn counter on (L67, L103-L105)."""
        raise ValueError("a turn ends with the Cleanup action, which starts the next one (L67, L103-L105)")

    def status(self, game: Game) -> list[CardLine]:
        """Turn, phase, priority marker and the result once the game is over (L9, L44-L46, L67)."""
        return status_lines(game)

    def game_violations(self, sides: Sequence[tuple[str, Sequence[BaseModel]]]) -> list[Violation]:
        """Every player brings the same number of suits, each with a legal deck (L9, L107-L125)."""
        out = []
        counts = {name: len(units) for name, units in sides}
        if len(set(counts.values())) > 1 or 0 in counts.values():
            listed = ", ".join(f"{name} {n}" for name, n in counts.items())
            out.append(
                Violation(
                    rule="equal-suits",
                    message=f"every player brings the same number of suits, at least one (L9): {listed}",
                    ref="L9",
                )
            )
        for name, units in sides:
            for profile in units:
                suit = _suit(profile)
                for v in deck_violations(suit):
                    out.append(Violation(rule=v.rule, message=f"{name}, {suit.name}: {v.message}", ref=v.ref))
        return out

    def shareable(self, game: Game) -> Game:
        """The game without hidden cards, for a share link.

        Cards drawn or placed face down and not yet revealed stay on the phone
        that holds the game: the link carries the game as it stood before the
        planning now under way (those steps undone), and undone steps are left
        out of its log.  This is the app keeping hands out of links, not
        encryption: the deck order travels in the link as in the phone's storage.
        """
        while game.cursor > 1 and hidden(game):
            game = undo(game)
        if hidden(game):
            raise ValueError("this game holds hidden cards and no earlier step to share instead")
        return game.model_copy(update={"log": game.log[: game.cursor]})

    def phase(self, game: Game) -> PhaseView:
        """Setup, then draw, plan, reveal, resolve and cleanup each turn (L50-L105)."""
        return phase(game)

    def initial_state(self, profile: BaseModel) -> UnitState:
        """Undamaged, the deck in list order until setup shuffles it (L50)."""
        suit = _suit(profile)
        return UnitState(
            max_damage=sum(suit.frame.armor.of(z) for z in ZONES),
            counters={z: 0 for z in ZONES},
            extra=fresh_play(suit).model_dump(mode="json"),
        )

    def pack_profile(self, profile: BaseModel) -> Any:
        """Sample cards travel as their id only."""
        data = _suit(profile).model_dump(mode="json", exclude_defaults=True)
        data["cards"] = [
            c.id if c.id in CARDS and CARDS[c.id] == c else c.model_dump(mode="json", exclude_defaults=True)
            for c in _suit(profile).cards
        ]
        return data

    def unpack_profile(self, packed: Any) -> BaseModel:
        if not isinstance(packed, dict) or not isinstance(packed.get("cards"), list):
            raise ValueError("not a packed mobile suit")
        cards = []
        for c in packed["cards"]:
            if isinstance(c, str):
                if c not in CARDS:
                    raise ValueError(f"unknown sample card {c!r}")
                cards.append(CARDS[c].model_dump(mode="json"))
            else:
                cards.append(c)
        return MobileSuit.model_validate({**packed, "cards": cards})


SYSTEM = MobileSuitBattles.of_package(
    __name__,
    MobileSuit,
    actions=ACTIONS,
    options=MsbOptions,
    tools=TOOLS,
    editor=EDITOR,
    unit_state_model=SuitPlay,
    requirements=REQUIREMENTS,
)
