"""Card and frame anatomy of Mobile Suit Battles (002_c5caa4b4fc3fd928.txt, L52-L61, L107-L116).

A card (L54-L61) has an initiative, a movement modifier, attack marks by zone in
melee or ranged form (with the card's attack range), block marks by zone, the
single-use mark, ability text and its type line.  A frame's stats card
(L109-L116) gives base movement, armour per zone, weapon and booster slots and
a frame ability.  A mobile suit, the unit of the shared layer, is a frame plus
the twenty cards of its deck (L9, L109).

The book prints no card values at all, so every field is entered by the players
(or taken from this app's own sample set, :mod:`.sample`).  Abilities are kept
as plain text; the few effects the app can apply by itself are listed in
``effects`` with a closed set of kinds.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from core.systems.base import Closed

#: The three damage zones (L56, L91, L97).
Zone = Literal["high", "mid", "low"]
ZONES: tuple[Zone, ...] = ("high", "mid", "low")
#: Attack marks come in melee and ranged form (L56).
AttackForm = Literal["melee", "ranged"]
#: The type line at the bottom of a card (L61); the four kinds deck construction counts (L118-L125).
CardType = Literal["pilot", "booster", "weapon", "generic"]
#: Keywords with a rule behind them (L137-L139): only guard break is defined.
Keyword = Literal["guard_break"]
#: When the app applies a card's effects: in the Effect step (L81-L83) or as it is revealed (L60, [Q-21]).
Timing = Literal["on_resolve", "on_reveal"]
#: Effects the app can apply itself; anything else stays ability text for the players.
EffectKind = Literal["partner_initiative", "partner_movement", "partner_range", "repair"]
#: Frame abilities the app can apply itself (L116); "afterburn" belongs to the sample frame Vessik.
FrameRule = Literal["none", "afterburn"]

#: Where the reshuffle marker sits in a pile of card positions (L71): it is no card of the twenty.
MARKER = -1


class AttackMark(Closed):
    """Attack marks of one zone on a card: each one is a point of damage there if the attack lands (L56)."""

    zone: Zone = Field(description="Zone the marks hit: high, mid or low (L56).")
    form: AttackForm = Field(default="melee", description="Melee or ranged form (L56).")
    count: int = Field(default=1, ge=1, le=9, description="How many marks of this zone: damage if it lands.")
    range: int | None = Field(
        default=None,
        ge=0,
        le=99,
        description="Ranged marks only: the attack range in triangle steps (L57). Empty for melee.",
    )


class Effect(Closed):
    """An ability effect the app applies by itself (the card's text says the same in words)."""

    kind: EffectKind = Field(
        description="partner_initiative / partner_movement / partner_range: add to the other card this "
        "suit chose this turn (L83); repair: remove damage from one zone of this suit."
    )
    amount: int = Field(default=1, ge=-9, le=9, description="How much is added (or repaired).")


class Card(Closed):
    """One card as printed (L54-L61)."""

    id: str = Field(min_length=1, max_length=40, description="Short code, unique within a card set.")
    name: str = Field(min_length=1, max_length=60, description="The card's title.")
    type: CardType = Field(description="Type line (L61): pilot, booster, weapon or generic card.")
    group: str = Field(
        default="",
        max_length=60,
        description="Type line category (L61): the pilot's or weapon's name; empty for boosters, generics.",
    )
    number: int | None = Field(
        default=None, ge=1, le=9, description="Card number within its pilot or weapon."
    )
    initiative: int = Field(ge=0, le=20, description="Higher resolves earlier (L54).")
    movement: int = Field(default=0, ge=-9, le=9, description="Added to base movement for this card (L55).")
    attacks: list[AttackMark] = Field(default_factory=list, description="Attack marks by zone (L56-L57).")
    blocks: list[Zone] = Field(default_factory=list, description="Zones its block mark covers (L58).")
    single_use: bool = Field(default=False, description="Set aside after use, not returned (L59, L105).")
    ability: str = Field(default="", max_length=400, description="Ability text, in the card's words (L60).")
    keywords: list[Keyword] = Field(
        default_factory=list, description="Keywords with rules, e.g. guard break."
    )
    effects: list[Effect] = Field(default_factory=list, description="Effects the app applies by itself.")
    timing: Timing = Field(
        default="on_resolve", description="Apply effects in the Effect step (default) or at reveal ([Q-21])."
    )

    @property
    def marks(self) -> int:
        """Total attack marks (L91: one damage per mark)."""
        return sum(a.count for a in self.attacks)

    @property
    def ranged(self) -> bool:
        return any(a.form == "ranged" for a in self.attacks)


class Armor(Closed):
    """Hits each zone endures before the suit is destroyed (L97, L114; default 4)."""

    high: int = Field(default=4, ge=1, le=20, description="Hits the high zone endures.")
    mid: int = Field(default=4, ge=1, le=20, description="Hits the mid zone endures.")
    low: int = Field(default=4, ge=1, le=20, description="Hits the low zone endures.")

    def of(self, zone: Zone) -> int:
        return int(getattr(self, zone))


class Frame(Closed):
    """A frame's stats card (L109-L116)."""

    id: str = Field(default="", max_length=40, description="Short code of the frame.")
    name: str = Field(min_length=1, max_length=60, description="The model of mobile suit (L109).")
    base_movement: int = Field(ge=0, le=20, description="Steps it may move before card modifiers (L113).")
    armor: Armor = Field(default_factory=Armor, description="Armour per zone (L114, default 4 by L97).")
    weapon_slots: int = Field(ge=0, le=10, description="N: weapons it may choose (L115, L122).")
    booster_slots: int = Field(ge=0, le=20, description="X: booster cards it may hold (L115, L121).")
    ability: str = Field(default="", max_length=400, description="Frame ability, if any (L116).")
    rule: FrameRule = Field(default="none", description="A frame ability the app applies itself.")


class Pilot(Closed):
    """A pilot and its cards: a deck takes up to four of them (L120)."""

    name: str
    cards: list[Card]


class Weapon(Closed):
    """A weapon: a set of four attack cards (L122)."""

    name: str
    cards: list[Card]


class ReshuffleMarker(Closed):
    """The one marked card in each deck: drawing it shuffles the deck instead (L71).

    It is kept out of the twenty ([Q-7]) and stands in piles as position :data:`MARKER`.
    """

    name: str = "Reshuffle marker"
    position: int = MARKER


class MobileSuit(Closed):
    """A mobile suit as the squad sees it: a frame and its twenty-card deck (L9, L107-L125)."""

    name: str = Field(min_length=1, max_length=80, description="What the players call this suit.")
    frame: Frame = Field(description="The frame's stats card (L109-L116).")
    weapons: list[str] = Field(
        default_factory=list,
        description="The weapon in each weapon slot, by name (L122); a name twice fills two slots.",
    )
    cards: list[Card] = Field(description="The deck: exactly twenty cards (L109).")
    reshuffle_marker: bool = Field(default=True, description="The deck has its marked card (L71).")
    note: str = Field(default="", max_length=200, description="Where the deck comes from, or any remark.")

    @property
    def pilot(self) -> str:
        """The pilot whose cards the deck holds (the first one met)."""
        return next((c.group for c in self.cards if c.type == "pilot"), "")
