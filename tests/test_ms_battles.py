"""Mobile Suit Battles v0.3, checked rule by rule (lines are in 002_c5caa4b4fc3fd928.txt).

The book prints no cards, so the tests play with the app's own sample set
(digest section 12) and with small made-up cards.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from core import api
from core.dice import RandomDice, TypedDice
from core.game import Game, GameUnit, Side, record, redo, undo
from core.systems.base import NeedChoice, Violation
from core.systems.ms_battles import SYSTEM, Card, Frame, MobileSuit, MsbOptions, deck_violations
from core.systems.ms_battles.board import SuitPlay, load
from core.systems.ms_battles.cards import MARKER, AttackMark
from core.systems.ms_battles.planning import draw as draw_cards
from core.systems.ms_battles.planning import hand_dist, hypergeometric, shuffle
from core.systems.ms_battles.resolve import movement, next_pick
from core.systems.ms_battles.sample import CARDS, DECK_A, DECK_B, FRAMES, GENERICS, SAMPLE_SUITS

# --- helpers --------------------------------------------------------------------------------------


def unit(key: str, suit: MobileSuit) -> GameUnit:
    return GameUnit(
        key=key, name=suit.name, profile=suit.model_dump(mode="json"), state=SYSTEM.initial_state(suit)
    )


def game(*suits: MobileSuit, **options: Any) -> Game:
    """One suit per side: side i holds key 'u' (ref 'i/u')."""
    sides = [Side(name=f"P{i}", units=[unit("u", s)], resources={"priority": 0}) for i, s in enumerate(suits)]
    return Game(id="g", system="ms_battles", sides=sides, options=options)


def act(g: Game, name: str, dice: Any = None, **raw: Any) -> Game:
    """Run one action; a resolve step that names no target makes no attack (the app would ask)."""
    if name == "resolve_card" and "target" not in raw:
        raw.setdefault("hold_fire", True)
    if name == "resolve_turn":
        raw["steps"] = [
            {"hold_fire": True, **step} if "target" not in step else step for step in raw["steps"]
        ]
    spec = SYSTEM.actions[name]
    result = spec.resolve(g, spec.input.model_validate(raw), dice or RandomDice(7))
    return record(g, "action", result.text, result.changes, result.detail)


def last(g: Game) -> str:
    return g.log[g.cursor - 1].text


def extra(g: Game, side: int) -> dict[str, Any]:
    return g.sides[side].units[0].state.extra


def ids(g: Game, side: int, pile: str) -> list[str]:
    cards = g.sides[side].units[0].profile["cards"]
    return [cards[p]["id"] if p != MARKER else "*" for p in extra(g, side)[pile]]


def set_deck(g: Game, side: int, top: list[str], index: int = 0) -> Game:
    """Stack a suit's deck: the listed cards on top in this order, the rest after, the marker last."""
    cards = g.sides[side].units[index].profile["cards"]
    order: list[int] = []
    for cid in top:
        order.append(next(i for i, c in enumerate(cards) if c["id"] == cid and i not in order))
    order += [i for i in range(len(cards)) if i not in order]
    play = SuitPlay(deck=[*order, MARKER], shuffled=True)
    units = list(g.sides[side].units)
    state = units[index].state.model_copy(update={"extra": play.model_dump(mode="json")})
    units[index] = units[index].model_copy(update={"state": state})
    sides = list(g.sides)
    sides[side] = sides[side].model_copy(update={"units": units})
    return g.model_copy(update={"sides": sides})


def planned(g: Game, plans: dict[int, list[str]], priority: int = 0) -> Game:
    """Setup, then each side draws a hand topped by its two cards, keeps them, and all are revealed."""
    g = act(g, "setup", priority_side=priority)
    for side, keep in plans.items():
        g = set_deck(g, side, keep)
        g = act(g, "draw", unit=f"{side}/u")
        g = act(g, "plan", unit=f"{side}/u", keep=keep)
    return act(g, "reveal")


def hurt(g: Game, side: int, **zones: int) -> Game:
    st = g.sides[side].units[0].state
    counters = {**st.counters, **zones}
    sides = list(g.sides)
    new = st.model_copy(update={"counters": counters})
    sides[side] = sides[side].model_copy(
        update={"units": [g.sides[side].units[0].model_copy(update={"state": new})]}
    )
    return g.model_copy(update={"sides": sides})


def card(cid: str, **fields: Any) -> Card:
    base: dict[str, Any] = {"id": cid, "name": cid, "type": "booster", "initiative": 5}
    return Card.model_validate({**base, **fields})


def suit_of(cards: list[Card], frame: Frame | None = None, **more: Any) -> MobileSuit:
    return MobileSuit(name="Test", frame=frame or FRAMES["oruun"], cards=cards, **more)


def rules(suit: MobileSuit, **options: Any) -> set[str]:
    return {v.rule for v in deck_violations(suit, MsbOptions(**options))}


def swap(suit: MobileSuit, out: str, new: Card | str) -> MobileSuit:
    c = CARDS[new] if isinstance(new, str) else new
    cards = list(suit.cards)
    cards[[x.id for x in cards].index(out)] = c
    return suit.model_copy(update={"cards": cards})


# --- card anatomy (L52-L61) and frames (L109-L116) ---------------------------------------------------


def test_card_has_every_field_of_the_anatomy() -> None:
    """L54-L61: initiative, movement, attack marks (melee/ranged, range), block, single use, type."""
    rm4 = CARDS["RM-4"]
    assert (rm4.initiative, rm4.movement, rm4.single_use, rm4.keywords) == (1, -2, True, ["guard_break"])
    assert rm4.attacks == [AttackMark(zone="mid", form="ranged", count=2, range=9)]
    assert (rm4.type, rm4.group, rm4.number) == ("weapon", "Ridge Mortar", 4)
    assert CARDS["GN-1"].blocks == ["high", "mid", "low"]


def test_profile_is_a_frame_with_its_deck_and_form_friendly() -> None:
    """L109-L116: the frame card holds movement, armour per zone, slots, ability; enums are choices."""
    schema = MobileSuit.model_json_schema()
    assert {"name", "frame", "cards", "weapons", "reshuffle_marker"} <= set(schema["properties"])
    zone = schema["$defs"]["AttackMark"]["properties"]["zone"]
    assert zone["enum"] == ["high", "mid", "low"]
    assert all("description" in p for p in schema["$defs"]["Card"]["properties"].values() if "$ref" not in p)
    assert Frame(name="x", base_movement=3, weapon_slots=1, booster_slots=1).armor.of("mid") == 4  # L97


def test_catalogue_offers_the_two_sample_suits_labelled_as_ours() -> None:
    cat = SYSTEM.catalogue()
    assert [c.id for c in cat] == ["sample-a", "sample-b"]
    assert all("not from the rulebook" in c.note for c in cat)
    for c in cat:
        assert SYSTEM.unit_violations(MobileSuit.model_validate(c.profile)) == []
        assert SYSTEM.unit_cost(MobileSuit.model_validate(c.profile)) == 0
    assert SYSTEM.card(DECK_A).title == DECK_A.name


def test_pack_and_unpack_share_sample_cards_by_id() -> None:
    packed = SYSTEM.pack_profile(DECK_B)
    assert packed["cards"][0] == "HB-1"
    assert SYSTEM.unpack_profile(packed) == DECK_B
    own = swap(DECK_B, "GN-2", card("X-1", name="Own"))
    assert SYSTEM.unpack_profile(SYSTEM.pack_profile(own)) == own
    with pytest.raises(ValueError, match="unknown sample card 'NOPE'"):
        SYSTEM.unpack_profile({"cards": ["NOPE"]})


def test_sample_tallies_match_the_digest_balance_notes() -> None:
    """Digest 12.8: marks H/M/L and average initiative of each sample deck."""

    def marks(s: MobileSuit) -> Counter[str]:
        out: Counter[str] = Counter()
        for c in s.cards:
            for a in c.attacks:
                out[a.zone] += a.count
        return out

    assert marks(DECK_A) == Counter(high=3, mid=7, low=3)
    assert marks(DECK_B) == Counter(high=3, mid=10, low=2)
    assert sum(c.initiative for c in DECK_A.cards) == 112
    assert sum(c.initiative for c in DECK_B.cards) == 91
    for deck, covers in ((DECK_A, (4, 4, 4)), (DECK_B, (2, 5, 4))):
        assert tuple(sum(z in c.blocks for c in deck.cards) for z in ("high", "mid", "low")) == covers


# --- deck construction (L107-L135) --------------------------------------------------------------------


def test_sample_decks_are_legal_under_every_option() -> None:
    for s in SAMPLE_SUITS.values():
        assert len(s.cards) == 20
        for opts in (
            {},
            {"generics_required": True, "duplicate_boosters": False, "same_weapon_twice": False},
        ):
            assert rules(s, **opts) == set()


def test_deck_of_exactly_twenty_cards() -> None:
    """L109: exactly twenty."""
    assert "deck-size" in rules(DECK_A.model_copy(update={"cards": DECK_A.cards[:19]}))
    assert "deck-size" in rules(DECK_A.model_copy(update={"cards": [*DECK_A.cards, CARDS["BO-1"]]}))


def test_deck_needs_its_reshuffle_marker() -> None:
    """L71: each deck has one marked card (kept outside the twenty, [Q-7])."""
    assert rules(DECK_A.model_copy(update={"reshuffle_marker": False})) == {"reshuffle-marker"}


def test_pilot_cards_at_most_four_one_pilot_no_duplicates() -> None:
    """L120."""
    assert "pilot-one" in rules(swap(DECK_A, "BO-1", "HB-1"))
    assert "pilot-max" in rules(swap(DECK_A, "BO-1", "HB-1"))
    assert "pilot-duplicate" in rules(swap(DECK_A, "TR-4", "TR-1"))
    assert rules(swap(DECK_A, "TR-4", "BO-1"), duplicate_boosters=True) - {"booster-max"} == set()


def test_boosters_at_most_the_frames_booster_slots() -> None:
    """L121: Oruun has 3 booster slots."""
    assert "booster-max" in rules(swap(DECK_B, "PS-4", "BO-3"))


def test_duplicate_boosters_allowed_unless_house_rule() -> None:
    """[Q-23]: nothing forbids a second copy of a booster; a named option does."""
    deck = swap(DECK_A, "BO-6", "BO-1")
    assert rules(deck) == set()
    assert rules(deck, duplicate_boosters=False) == {"booster-duplicate"}


def test_weapons_at_most_the_frames_weapon_slots() -> None:
    """L122: Vessik chooses 2 weapons."""
    deck = swap(DECK_A, "HC-4", "RM-1").model_copy(
        update={"weapons": ["Shear Blade", "Harl Carbine", "Ridge Mortar"]}
    )
    assert "weapon-slots" in rules(deck)


def test_one_copy_of_each_weapon_card_per_slot() -> None:
    """L123: a second copy needs the weapon in a second slot ([Q-5] allows that by default)."""
    deck = swap(DECK_B, "BO-6", "HC-1")
    assert rules(deck) >= {"weapon-copies"}
    carbine_twice = [c for c in DECK_B.cards if c.group != "Pavise Shield"]
    carbine_twice += [CARDS[i] for i in ("HC-1", "HC-2", "HC-3", "HC-4")]
    two_slots = DECK_B.model_copy(
        update={"cards": carbine_twice, "weapons": ["Ridge Mortar", "Harl Carbine", "Harl Carbine"]}
    )
    assert len(two_slots.cards) == 20
    assert rules(two_slots) == set()
    assert rules(two_slots, same_weapon_twice=False) == {"weapon-twice"}


def test_weapon_cards_need_a_slot_and_a_weapon_is_four_attack_cards() -> None:
    """L122-L123."""
    assert "weapon-unslotted" in rules(DECK_A.model_copy(update={"weapons": ["Shear Blade"]}))
    fifth = card("SB-5", type="weapon", group="Shear Blade", number=5, attacks=[{"zone": "low"}])
    assert "weapon-size" in rules(
        swap(DECK_A, "SB-4", fifth).model_copy(update={"cards": [*DECK_A.cards[:19], fifth]})
    )
    no_attack = card("SB-4", type="weapon", group="Shear Blade", number=4, name="Pose")
    assert "weapon-attack" in rules(swap(DECK_A, "SB-4", no_attack))


def test_slots_are_worked_out_from_the_cards_when_not_listed() -> None:
    assert rules(DECK_A.model_copy(update={"weapons": []})) == set()


def test_one_of_each_generic_card() -> None:
    """L125: one of each; by default an absent generic is allowed ([Q-6]), with a 'required' option."""
    assert "generic-one" in rules(swap(DECK_A, "GN-2", "GN-1"))
    no_dodge = swap(DECK_A, "GN-2", "BO-1")
    assert "generic-missing" not in rules(no_dodge)
    assert "generic-missing" in rules(no_dodge, generics_required=True)


def test_card_range_only_on_ranged_marks() -> None:
    """L57: the attack range belongs to ranged attacks."""
    bad = card("BO-1", attacks=[{"zone": "high", "form": "ranged"}])
    assert "card-range" in rules(swap(DECK_A, "BO-1", bad))


def test_the_books_example_deck_adds_up_and_frames_that_cannot_fill_are_flagged() -> None:
    """L127-L135: reginglaze (3 weapons, 4 boosters) holds 3 + 4 + 3 + 4 + 4 + 2 = 20 cards."""
    reginglaze = Frame(name="reginglaze", base_movement=3, weapon_slots=3, booster_slots=4)
    cards = [card(f"J{i}", type="pilot", group="julia", number=i) for i in (1, 2, 3)]
    cards += [card(f"B{i}", name=f"boost {i}") for i in range(4)]
    for weapon, numbers in (("Whip sword", 3), ("Whip sword twin", 4), ("Rifle", 4)):
        cards += [
            card(f"{weapon}{n}", type="weapon", group=weapon, number=n, attacks=[{"zone": "mid"}])
            for n in range(1, numbers + 1)
        ]
    cards += list(GENERICS.values())
    deck = suit_of(cards, reginglaze, weapons=["Whip sword", "Whip sword twin", "Rifle"])
    assert len(deck.cards) == 20 and rules(deck) == set()
    tiny = Frame(name="tiny", base_movement=3, weapon_slots=2, booster_slots=5)  # 4 + 8 + 5 + 2 = 19
    assert "frame-cannot-fill" in rules(suit_of(cards, tiny))


def test_violations_carry_a_rule_message_and_line() -> None:
    v = deck_violations(DECK_A.model_copy(update={"cards": DECK_A.cards[:5]}))
    assert all(isinstance(x, Violation) and x.message and x.ref.startswith("L") for x in v)


# --- setup and shuffling (L50, L71) -----------------------------------------------------------------------


def test_setup_shuffles_every_deck_and_hands_out_the_priority_marker() -> None:
    """L50; the marker goes under the shuffled cards ([Q-7])."""
    g = act(game(DECK_A, DECK_B), "setup", RandomDice(3))
    again = act(game(DECK_A, DECK_B), "setup", RandomDice(3))
    assert extra(g, 0)["deck"] == extra(again, 0)["deck"]  # reproducible from the seed
    assert extra(g, 0)["deck"][-1] == MARKER and sorted(extra(g, 0)["deck"][:-1]) == list(range(20))
    assert extra(g, 0)["deck"][:-1] != list(range(20))
    assert sum(s.resources["priority"] for s in g.sides) == 1
    g = act(game(DECK_A, DECK_B), "setup", priority_side=1)
    assert [s.resources["priority"] for s in g.sides] == [0, 1]


def test_shuffle_from_dice_gives_every_order_exactly_once() -> None:
    """Fisher-Yates on dice: the 4! face sequences give the 24 orders of four cards."""
    seen = Counter(
        tuple(shuffle([0, 1, 2, 3], TypedDice([a, b, c])))
        for a, b, c in itertools.product(range(1, 5), range(1, 4), range(1, 3))
    )
    assert len(seen) == 24 and set(seen.values()) == {1}


# --- planning (L69-L71) --------------------------------------------------------------------------------


def test_draw_five_keep_two_rest_to_the_bottom() -> None:
    """L71: five drawn, two kept face down, three under the deck (beneath the marker)."""
    g = act(game(DECK_A, DECK_B), "setup")
    g = set_deck(g, 0, ["TR-1", "TR-2", "TR-3", "TR-4", "SB-1"])
    g = act(g, "draw", unit="0/u")
    assert ids(g, 0, "hand") == ["TR-1", "TR-2", "TR-3", "TR-4", "SB-1"]
    g = act(g, "plan", unit="0/u", keep=["TR-3", "SB-1"], bottom=["TR-4", "TR-1", "TR-2"])
    assert ids(g, 0, "planned") == ["TR-3", "SB-1"] and ids(g, 0, "hand") == []
    assert ids(g, 0, "deck")[-4:] == ["*", "TR-4", "TR-1", "TR-2"]
    assert "TR-3" not in last(g)  # the log keeps the choice face down


def test_planning_errors() -> None:
    g = act(game(DECK_A, DECK_B), "setup")
    with pytest.raises(ValueError, match="no drawn cards"):
        act(g, "plan", unit="0/u", keep=["TR-1", "TR-2"])
    g = set_deck(g, 0, ["TR-1", "TR-2", "TR-3", "TR-4", "SB-1"])
    g = act(g, "draw", unit="0/u")
    with pytest.raises(ValueError, match="exactly 2"):
        act(g, "plan", unit="0/u", keep=["TR-1"])
    with pytest.raises(ValueError, match="no 'GN-1'"):
        act(g, "plan", unit="0/u", keep=["TR-1", "GN-1"])
    with pytest.raises(ValueError, match="already drawn"):
        act(g, "draw", unit="0/u")


def test_draw_auto_shuffles_an_unshuffled_deck() -> None:
    g = act(game(DECK_A, DECK_B), "draw")
    assert "shuffled first" in last(g) and len(ids(g, 0, "hand")) == 5 == len(ids(g, 1, "hand"))


def test_mid_damage_draws_one_card_fewer() -> None:
    """L100: two or more mid damage, four cards."""
    g = hurt(act(game(DECK_A, DECK_B), "setup"), 0, mid=2)
    g = act(g, "draw")
    assert len(ids(g, 0, "hand")) == 4 and len(ids(g, 1, "hand")) == 5


def test_drawing_the_marker_reshuffles_instead() -> None:
    """L71: the marked card is never drawn; the deck is shuffled and the draw goes on ([Q-7])."""
    s = suit_of([card(f"C{i}") for i in range(8)])
    g = act(game(s, s), "setup")
    st = SuitPlay(deck=[0, 1, MARKER, 2, 3, 4, 5, 6, 7], shuffled=True)
    board = load(g)
    board.seats[0].play = st
    notes = draw_cards(board.seats[0], TypedDice([1] * 10))
    hand = board.seats[0].play.hand
    assert hand[:2] == [0, 1] and len(hand) == 5 and MARKER not in hand
    assert board.seats[0].play.deck[-1] == MARKER and len(board.seats[0].play.deck) == 4
    assert any("reshuffled" in n for n in notes)


def test_a_deck_that_runs_out_gives_what_it_has() -> None:
    """[Q-7]: with single-use cards gone a small deck hands out what is left."""
    s = suit_of([card(f"C{i}") for i in range(3)])
    board = load(act(game(s, s), "setup"))
    seat = board.seats[0]
    seat.play = SuitPlay(deck=[0, MARKER, 1, 2], shuffled=True)
    draw_cards(seat, TypedDice([1] * 5))
    assert sorted(seat.play.hand) == [0, 1, 2] and seat.play.deck == [MARKER]


# --- the action phase (L73-L93) ---------------------------------------------------------------------------


def test_reveal_turns_all_cards_face_up_only_once_everyone_has_planned() -> None:
    """L75."""
    g = act(game(DECK_A, DECK_B), "setup")
    g = act(g, "draw")
    with pytest.raises(ValueError, match="still planning"):
        act(g, "reveal")
    hand = ids(g, 0, "hand")
    g = act(g, "plan", unit="0/u", keep=hand[:2])
    g = act(g, "plan", unit="1/u", keep=ids(g, 1, "hand")[:2])
    g = act(g, "reveal")
    assert extra(g, 0)["revealed"] and extra(g, 1)["revealed"]
    with pytest.raises(ValueError, match="already"):
        act(g, "reveal")


def test_highest_initiative_resolves_first() -> None:
    """L77: Dodge (9) before Shield Bash (6) before Lunge (5)."""
    g = planned(game(DECK_A, DECK_B), {0: ["GN-2", "SB-3"], 1: ["PS-1", "RM-1"]})
    with pytest.raises(ValueError, match="initiative 9"):
        act(g, "resolve_card", unit="0/u", card="SB-3")
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    assert "initiative 9" in last(g)


def test_high_damage_lowers_initiative() -> None:
    """L99: with two high damage every card of the suit is 1 lower, so Dodge (9) falls to 8."""
    g = planned(game(DECK_A, DECK_B), {0: ["GN-2", "SB-3"], 1: ["HC-1", "RM-1"]}, priority=1)
    g = hurt(g, 0, high=2)
    pick = next_pick(load(g))
    assert pick.init == 8 and pick.chooser == 1  # tie at 8: the priority holder picks first


def test_ties_are_picked_in_turn_from_the_priority_holder_clockwise() -> None:
    """L77: three players tie at 8; priority is side 1, so 1, then 2, then 0."""
    g = planned(
        game(DECK_A, DECK_B, DECK_A),
        {0: ["HC-1", "GN-1"], 1: ["HC-1", "GN-1"], 2: ["HC-1", "GN-1"]},
        priority=1,
    )
    order = []
    for _ in range(3):
        pick = next_pick(load(g))
        order.append(pick.chooser)
        g = act(g, "resolve_card", unit=f"{pick.chooser}/u", card="HC-1")
    assert order == [1, 2, 0]
    order = []
    for _ in range(3):  # the three Blocks tie at 1: the rotation starts again from the priority holder
        pick = next_pick(load(g))
        order.append(pick.chooser)
        g = act(g, "resolve_card", unit=f"{pick.chooser}/u", card="GN-1")
    assert order == [1, 2, 0]


def test_tie_players_without_a_tied_card_are_passed_over() -> None:
    """[Q-20] default: each player picks one of their own tied cards."""
    g = planned(game(DECK_A, DECK_B), {0: ["TR-2", "SB-1"], 1: ["PS-4", "GN-1"]}, priority=1)
    pick = next_pick(load(g))
    assert (pick.init, pick.chooser) == (7, 0) and len(pick.choices) == 2


def test_literal_tie_reading_lets_the_chooser_pick_any_card() -> None:
    """[Q-20] option: the priority holder may pick an opponent's tied card."""
    g = planned(game(DECK_A, DECK_B, tie_pick_any_card=True), {0: ["HC-1", "GN-1"], 1: ["HC-1", "GN-1"]})
    pick = next_pick(load(g))
    assert pick.chooser == 0 and {q.seat.side for q in pick.choices} == {0, 1}
    g = act(g, "resolve_card", unit="1/u", card="HC-1")  # side 0 chooses side 1's card
    assert next_pick(load(g)).chooser == 1


def test_movement_is_base_plus_the_card_modifier() -> None:
    """L87 and L101: Oruun (3) with Heavy Shell (-1) moves 2; with low damage 1; never below 0 ([Q-9])."""
    g = planned(game(DECK_A, DECK_B), {0: ["GN-2", "SB-3"], 1: ["PS-1", "RM-1"]})
    board = load(g)
    oruun = board.seats[1]
    rm1 = next(p for p in oruun.play.planned if oruun.card(p).id == "RM-1")
    assert movement(oruun, rm1) == 2
    oruun.damage["low"] = 2
    assert movement(oruun, rm1) == 1
    oruun.damage["low"] = 0
    oruun.play.mods[str(rm1)] = {"movement": -9}
    assert movement(oruun, rm1) == 0


def test_afterburn_adds_a_step_at_plus_two() -> None:
    """Sample frame Vessik: Dodge (+2) gives 4 + 2 + 1 = 7."""
    board = load(planned(game(DECK_A, DECK_B), {0: ["GN-2", "SB-1"], 1: ["PS-1", "RM-1"]}))
    vessik = board.seats[0]
    dodge, cut = vessik.play.planned
    assert movement(vessik, dodge) == 7 and movement(vessik, cut) == 5


def test_the_digests_worked_turn() -> None:
    """Digest 12.9: Vessik takes 1 then 2 mid, Oruun blocks Lunge with the already resolved Shield Bash."""
    g = planned(game(DECK_A, DECK_B), {0: ["GN-2", "SB-3"], 1: ["PS-1", "RM-1"]})
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    assert "up to 7 steps" in last(g)
    g = act(g, "resolve_card", unit="1/u", card="PS-1", target="0/u")
    assert g.sides[0].units[0].state.counters["mid"] == 1
    g = act(g, "resolve_card", unit="0/u", card="SB-3", target="1/u")
    assert "blocks with Shield Bash" in last(g) and ids(g, 1, "discard") == ["PS-1"]
    assert g.sides[1].units[0].state.counters["mid"] == 0
    g = act(g, "resolve_card", unit="1/u", card="RM-1", target="0/u")
    state = g.sides[0].units[0].state
    assert state.counters["mid"] == 3 and not state.destroyed and "mid_penalty" in state.conditions
    g = act(g, "cleanup")
    assert ids(g, 1, "discard") == [] and ids(g, 0, "planned") == []
    assert [s.resources["priority"] for s in g.sides] == [0, 1]
    assert sorted(ids(g, 1, "deck")[-2:]) == ["PS-1", "RM-1"]
    g = act(g, "draw", unit="0/u")
    assert len(ids(g, 0, "hand")) == 4  # the mid penalty (L100)


def test_resolve_turn_does_the_same_in_one_step_and_undoes_as_one() -> None:
    g = planned(game(DECK_A, DECK_B), {0: ["GN-2", "SB-3"], 1: ["PS-1", "RM-1"]})
    steps = [
        {"unit": "0/u", "card": "GN-2"},
        {"unit": "1/u", "card": "PS-1", "target": "0/u"},
        {"unit": "0/u", "card": "SB-3", "target": "1/u"},
        {"unit": "1/u", "card": "RM-1", "target": "0/u"},
    ]
    after = act(g, "resolve_turn", steps=steps)
    assert after.sides[0].units[0].state.counters["mid"] == 3
    back = undo(after)
    assert back.sides == g.sides


def test_defender_must_block_with_a_matching_card_which_never_resolves() -> None:
    """L91: Oruun's unresolved Hold the Line (mid/low block) must block Lunge (mid) and is discarded."""
    g = planned(game(DECK_A, DECK_B), {0: ["SB-3", "GN-2"], 1: ["PS-4", "HC-1"]})
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    g = act(g, "resolve_card", unit="1/u", card="HC-1")
    g = act(g, "resolve_card", unit="0/u", card="SB-3", target="1/u")
    assert "fails" in last(g) and ids(g, 1, "discard") == ["PS-4"]
    assert g.sides[1].units[0].state.counters["mid"] == 0
    with pytest.raises(ValueError, match="no card is waiting"):
        act(g, "resolve_card", unit="1/u", card="PS-4")


def test_a_block_mark_in_another_zone_does_not_block() -> None:
    """L91: only a block in an in-range mark's zone counts: Rising Cut (high) vs Dig In (mid/low)."""
    g = planned(game(DECK_A, DECK_B), {0: ["SB-1", "GN-2"], 1: ["HB-3", "HC-4"]})
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    g = act(g, "resolve_card", unit="0/u", card="SB-1", target="1/u")
    assert g.sides[1].units[0].state.counters["high"] == 1 and ids(g, 1, "planned") == ["HB-3", "HC-4"]
    with pytest.raises(ValueError, match="no card that can block"):
        act(
            planned(game(DECK_A, DECK_B), {0: ["SB-1", "GN-2"], 1: ["HB-3", "HC-4"]}),
            "resolve_turn",
            steps=[
                {"unit": "0/u", "card": "GN-2"},
                {"unit": "0/u", "card": "SB-1", "target": "1/u", "blockers": ["HB-3"]},
            ],
        )


def test_the_defender_chooses_between_several_blocks() -> None:
    """L91: 'they must choose one of those cards'."""
    g = planned(game(DECK_B, DECK_A), {0: ["HC-1", "GN-1"], 1: ["BO-3", "TR-4"]})
    with pytest.raises(NeedChoice, match="must block") as asked:
        act(g, "resolve_card", unit="0/u", card="HC-1", target="1/u")
    assert asked.value.field == "blockers"
    assert [c.value for c in asked.value.options] == [["BO-3"], ["TR-4"]]
    g = act(g, "resolve_card", unit="0/u", card="HC-1", target="1/u", blockers=["TR-4"])
    assert ids(g, 1, "discard") == ["TR-4"] and ids(g, 1, "planned") == ["BO-3"]


def test_marks_out_of_range_neither_target_nor_call_for_blocks() -> None:
    """L91 and [Q-22]: no mark in range, no target; by default out-of-range marks deal nothing."""
    g = planned(game(DECK_B, DECK_A), {0: ["HC-1", "GN-1"], 1: ["GN-2", "TR-2"]})
    g = act(g, "resolve_card", unit="1/u", card="GN-2")
    with pytest.raises(ValueError, match="no mark"):
        act(g, "resolve_card", unit="0/u", card="HC-1", target="1/u", out_of_range=[0])
    g = act(g, "resolve_card", unit="0/u", card="HC-1")
    assert "attacks no one" in last(g)


def test_all_marks_option_counts_marks_out_of_range() -> None:
    """[Q-22] option, with a made-up card of a high melee mark and a ranged mid mark."""
    two = card("T-1", initiative=9, attacks=[{"zone": "high"}, {"zone": "mid", "form": "ranged", "range": 6}])
    s = swap(DECK_A, "BO-1", two)
    # the melee mark out of range, the ranged one in (the other way round cannot happen, L40)
    for opt, hits in ((False, {"high": 0, "mid": 1}), (True, {"high": 1, "mid": 1})):
        g = planned(game(s, DECK_B, all_marks_damage=opt), {0: ["T-1", "GN-2"], 1: ["HC-1", "BO-1"]})
        g = act(g, "resolve_card", unit="0/u", card="T-1", target="1/u", out_of_range=[0])
        c = g.sides[1].units[0].state.counters
        assert {"high": c["high"], "mid": c["mid"]} == hits


def test_one_block_stops_a_mixed_attack_unless_per_zone_option() -> None:
    """[Q-11]: a mid block cancels the whole high + mid attack by default."""
    two = card("T-1", initiative=9, attacks=[{"zone": "high"}, {"zone": "mid"}])
    s = swap(DECK_A, "BO-1", two)
    for opt, high in ((False, 0), (True, 1)):
        g = planned(game(s, DECK_B, per_zone_blocks=opt), {0: ["T-1", "GN-2"], 1: ["PS-1", "BO-1"]})
        g = act(g, "resolve_card", unit="0/u", card="T-1", target="1/u")
        assert g.sides[1].units[0].state.counters["high"] == high
        assert g.sides[1].units[0].state.counters["mid"] == 0


def test_guard_break_deals_damage_less_the_blocks_used() -> None:
    """L139 with [Q-12]: Killing Blow (mid x2) blocked once deals 1 mid; the blocker is still discarded."""
    g = planned(game(DECK_A, DECK_B), {0: ["TR-3", "GN-1"], 1: ["PS-4", "BO-1"]})
    g = act(g, "resolve_card", unit="1/u", card="BO-1")
    g = act(g, "resolve_card", unit="0/u", card="TR-3", target="1/u")
    assert g.sides[1].units[0].state.counters["mid"] == 1 and ids(g, 1, "discard") == ["PS-4"]
    assert "guard break" in last(g)


def test_guard_break_more_blocks_only_with_the_option() -> None:
    """[Q-12] option: each further block takes one more damage off."""
    plans = {0: ["TR-3", "GN-1"], 1: ["PS-4", "HB-3"]}
    g = planned(game(DECK_A, DECK_B), plans)
    with pytest.raises(ValueError, match="1 card"):
        act(g, "resolve_card", unit="0/u", card="TR-3", target="1/u", blockers=["PS-4", "HB-3"])
    g = planned(game(DECK_A, DECK_B, guard_break_many_blocks=True), plans)
    g = act(g, "resolve_card", unit="0/u", card="TR-3", target="1/u", blockers=["PS-4", "HB-3"])
    assert g.sides[1].units[0].state.counters["mid"] == 0 and len(ids(g, 1, "discard")) == 2


@pytest.mark.parametrize(
    ("marks", "blocker", "left"),
    [
        (["high", "mid"], "PS-1", {"high": 1, "mid": 0, "low": 0}),  # Shield Bash blocks mid
        (["high", "low"], "BO-2", {"high": 1, "mid": 0, "low": 0}),  # Side Jets block low
        (["low", "mid"], "PS-1", {"high": 0, "mid": 0, "low": 1}),
    ],
)
def test_guard_break_takes_the_block_off_the_blocked_zone(
    marks: list[str], blocker: str, left: dict[str, int]
) -> None:
    """[Q-12]: guard break blocked once loses one damage from the zone the block covers, not another."""
    gb = card("T-1", initiative=9, attacks=[{"zone": z} for z in marks], keywords=["guard_break"])
    g = planned(game(swap(DECK_A, "BO-1", gb), DECK_B), {0: ["T-1", "GN-2"], 1: [blocker, "BO-1"]})
    g = act(g, "resolve_card", unit="0/u", card="T-1", target="1/u")
    c = g.sides[1].units[0].state.counters
    assert {z: c[z] for z in ("high", "mid", "low")} == left
    assert ids(g, 1, "discard") == [blocker]


def test_targets() -> None:
    """L91 'one target MS'; [Q-17]: any other suit by default, only other players' with the option."""
    g = planned(game(DECK_A, DECK_B), {0: ["HC-1", "GN-1"], 1: ["GN-2", "BO-1"]})
    g = act(g, "resolve_card", unit="1/u", card="GN-2")
    with pytest.raises(ValueError, match="itself"):
        act(g, "resolve_card", unit="0/u", card="HC-1", target="0/u")
    g = act(g, "resolve_card", unit="0/u", card="HC-1")
    with pytest.raises(ValueError, match="no attack marks"):
        act(g, "resolve_card", unit="1/u", card="BO-1", target="0/u")
    for only_enemies in (False, True):
        mates = Game(
            id="t",
            system="ms_battles",
            sides=[
                Side(name="A", units=[unit("u", DECK_A), unit("v", DECK_B)], resources={"priority": 0}),
                Side(name="B", units=[unit("u", DECK_B)], resources={"priority": 0}),
            ],
            options={"enemy_targets_only": only_enemies},
        )
        mates = act(mates, "setup", priority_side=0)
        for side, index, ref, keep in ((0, 0, "0/u", ["HC-1", "GN-1"]), (0, 1, "0/v", ["PS-4", "GN-1"])):
            mates = set_deck(mates, side, keep, index)
            mates = act(mates, "draw", unit=ref)
            mates = act(mates, "plan", unit=ref, keep=keep)
        mates = set_deck(mates, 1, ["BO-1", "GN-2"])
        mates = act(mates, "draw", unit="1/u")
        mates = act(mates, "plan", unit="1/u", keep=["BO-1", "GN-2"])
        mates = act(mates, "reveal")
        mates = act(mates, "resolve_card", unit="1/u", card="GN-2")
        if only_enemies:
            with pytest.raises(ValueError, match="house rule"):
                act(mates, "resolve_card", unit="0/u", card="HC-1", target="0/v")
        else:  # a friend must block with its Hold the Line
            mates = act(mates, "resolve_card", unit="0/u", card="HC-1", target="0/v", blockers=["PS-4"])
            assert "Hold the Line" in last(mates)


# --- damage (L95-L101) ---------------------------------------------------------------------------------


def test_penalties_from_two_damage_in_a_zone() -> None:
    """L97-L101: a penalty per zone with 2 or more damage, shown as conditions."""
    g = planned(game(DECK_A, DECK_B), {0: ["SB-2", "GN-2"], 1: ["RM-1", "BO-1"]})
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    g = act(g, "resolve_card", unit="1/u", card="BO-1")
    g = act(g, "resolve_card", unit="0/u", card="SB-2", target="1/u")
    st = g.sides[1].units[0].state
    assert st.counters["low"] == 2 and st.conditions == ["low_penalty"] and st.damage == 2
    assert "penalty" in last(g)


def test_destroyed_on_reaching_the_zone_armour() -> None:
    """L97 and [Q-13]: 4 high armour; the 4th high hit destroys. With the option only a 5th would."""
    for opt, destroyed in ((False, True), (True, False)):
        g = planned(
            game(DECK_A, DECK_B, destroyed_past_armor=opt), {0: ["SB-1", "GN-2"], 1: ["RM-1", "BO-1"]}
        )
        g = hurt(g, 1, high=3)
        g = act(g, "resolve_card", unit="0/u", card="GN-2")
        g = act(g, "resolve_card", unit="0/u", card="SB-1", target="1/u")
        assert g.sides[1].units[0].state.destroyed is destroyed


def test_a_destroyed_suits_cards_leave_play() -> None:
    """L97 and [Q-14]: it cannot be targeted, its cards never resolve and cannot block, it draws no more.

    Three players, so the game goes on once P1's only suit is destroyed (with two it would end, L9).
    """
    g = planned(game(DECK_A, DECK_B, DECK_B), {0: ["SB-1", "GN-2"], 1: ["RM-1", "BO-1"], 2: ["RM-1", "BO-1"]})
    g = hurt(g, 1, high=3)
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    g = act(g, "resolve_card", unit="0/u", card="SB-1", target="1/u", blockers=[])
    assert g.sides[1].units[0].state.destroyed
    assert ids(g, 1, "planned") == [] and sorted(ids(g, 1, "discard")) == ["BO-1", "RM-1"]
    # P1's initiative-7 card is gone: P2's is the one that resolves next
    with pytest.raises(
        ValueError, match=r"at initiative 7 P2 picks next, from Oruun / Hollis Brack: BO-1 \(L77\)"
    ):
        act(g, "resolve_card", unit="1/u", card="RM-1")
    g = act(g, "resolve_card", unit="2/u", card="BO-1")
    g = act(g, "resolve_card", unit="2/u", card="RM-1")
    with pytest.raises(ValueError, match="no card is waiting to resolve"):
        act(g, "resolve_card", unit="1/u", card="RM-1")
    g = act(g, "cleanup")
    with pytest.raises(ValueError, match=r"is destroyed and plays no more cards \(L97\)"):
        act(g, "draw", unit="1/u")


def test_the_game_ends_when_one_side_is_left() -> None:
    """L9, L97: with two players, destroying the other side's last suit ends the game; nothing plays on."""
    g = planned(game(DECK_A, DECK_B), {0: ["SB-1", "GN-2"], 1: ["RM-1", "BO-1"]})
    g = hurt(g, 1, high=3)
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    g = act(g, "resolve_card", unit="0/u", card="SB-1", target="1/u", blockers=[])
    assert last(g).endswith(
        "Oruun / Hollis Brack takes 1 high (4 now); Oruun / Hollis Brack is destroyed (L97); "
        "the game is over: P0 wins: every other side's suits are destroyed (L9, L97)"
    )
    result = [(line.label, line.value) for line in SYSTEM.status(g) if line.label == "Result"]
    assert result == [("Result", "P0 wins: every other side's suits are destroyed (L9, L97)")]
    over = (
        "the game is over: P0 wins: every other side's suits are destroyed \\(L9, L97\\). Undo the last step"
    )
    with pytest.raises(ValueError, match=over):
        act(g, "resolve_card", unit="1/u", card="RM-1")
    g = act(g, "cleanup")  # the last turn may still be cleaned up; nothing is drawn after it
    assert last(g) == "priority marker passes to P1; turn 1 ends" and g.round == 2
    with pytest.raises(ValueError, match=over):
        act(g, "draw", unit="0/u")


# --- effects (L81-L83, [Q-21]) -------------------------------------------------------------------------


def test_effect_raises_the_other_cards_initiative_and_the_queue_resorts() -> None:
    """[Q-16]: sample TR-1 lifts its partner Close the Gap from 7 to 8, tying Snap Shot at 8."""
    g = planned(game(DECK_A, DECK_B), {0: ["TR-1", "TR-2"], 1: ["HC-1", "GN-1"]}, priority=0)
    g = act(g, "resolve_card", unit="0/u", card="TR-1")
    pick = next_pick(load(g))
    assert (
        pick.init == 8
        and pick.chooser == 0
        and load(g).seats[0].initiative(load(g).seats[0].play.planned[1]) == 8
    )


def test_effect_on_the_other_card_does_nothing_once_it_has_resolved() -> None:
    """[Q-21]: Overcharge after its partner resolved changes nothing."""
    g = planned(game(DECK_A, DECK_B), {0: ["BO-1", "BO-6"], 1: ["HC-1", "GN-1"]})
    g = act(g, "resolve_card", unit="1/u", card="HC-1")
    g = act(g, "resolve_card", unit="0/u", card="BO-1")
    g = act(g, "resolve_card", unit="0/u", card="BO-6")
    assert "does nothing" in last(g)


def test_overcharge_switches_on_afterburn() -> None:
    """Sample BO-6: +2 movement to a partner still to come; Read the Feint then moves 4 + 2 + 1."""
    g = planned(game(DECK_A, DECK_B), {0: ["BO-6", "SB-1"], 1: ["PS-4", "GN-1"]})
    g = act(g, "resolve_card", unit="0/u", card="SB-1")
    assert "up to 5 steps" in last(g)
    g = planned(game(DECK_A, DECK_B), {0: ["BO-6", "TR-4"], 1: ["PS-4", "GN-1"]})
    g = act(g, "resolve_card", unit="0/u", card="BO-6")
    g = act(g, "resolve_card", unit="0/u", card="TR-4")
    assert "up to 7 steps" in last(g)


def test_field_repair_heals_a_zone_and_lifts_the_penalty() -> None:
    """Sample HB-4; a penalty goes as soon as the zone drops below 2 ([Q-15])."""
    g = planned(game(DECK_B, DECK_A), {0: ["HB-4", "GN-1"], 1: ["GN-2", "BO-1"]})
    g = hurt(g, 0, mid=2, low=1)
    g = act(g, "resolve_turn", steps=[{"unit": "1/u", "card": "GN-2"}, {"unit": "1/u", "card": "BO-1"}])
    g = act(g, "resolve_card", unit="0/u", card="HB-4", repair_zone="mid")
    st = g.sides[0].units[0].state
    assert st.counters["mid"] == 1 and "mid_penalty" not in st.conditions


# --- cleanup (L103-L105) ---------------------------------------------------------------------------------


def test_cleanup_sets_single_use_aside_and_returns_the_rest_under_the_deck() -> None:
    """L105, L59: Smoke Canister used as a block is set aside; Thrust Pack goes under the deck."""
    g = planned(game(DECK_A, DECK_B), {0: ["BO-4", "BO-1"], 1: ["HC-1", "GN-1"]})
    with pytest.raises(ValueError, match="still to resolve"):
        act(g, "cleanup")
    g = act(g, "resolve_card", unit="1/u", card="HC-1", target="0/u")
    assert ids(g, 0, "discard") == ["BO-4"]
    g = act(g, "cleanup", force=True)
    assert ids(g, 0, "set_aside") == ["BO-4"] and ids(g, 0, "deck")[-1] == "BO-1"
    assert "BO-4" not in ids(g, 0, "deck") and len(ids(g, 0, "deck")) == 20  # 19 cards and the marker
    assert extra(g, 0)["revealed"] is False and extra(g, 0)["resolved"] == []


def test_unchosen_single_use_cards_go_back_to_the_deck() -> None:
    """L71: a single-use card drawn but not chosen goes under the deck like any other."""
    g = act(game(DECK_A, DECK_B), "setup")
    g = set_deck(g, 0, ["BO-4", "BO-5", "TR-1", "TR-2", "TR-3"])
    g = act(g, "draw", unit="0/u")
    g = act(g, "plan", unit="0/u", keep=["TR-1", "TR-2"])
    assert {"BO-4", "BO-5"} <= set(ids(g, 0, "deck"))


def test_priority_marker_moves_one_seat_anticlockwise() -> None:
    """L105 (and L77: ties go clockwise): of three players, side 0's marker passes to side 2."""
    g = planned(game(DECK_A, DECK_B, DECK_A), {0: ["GN-1", "BO-1"], 1: ["GN-1", "BO-1"], 2: ["GN-1", "BO-1"]})
    g = act(g, "cleanup", force=True)
    assert [s.resources["priority"] for s in g.sides] == [0, 0, 1]


def test_every_action_can_be_undone() -> None:
    """Each of the system's actions, undone, gives back the whole game as it was; redone, as it became."""
    done: list[str] = []

    def step(g: Game, name: str, **raw: Any) -> Game:
        after = act(g, name, **raw)
        back = undo(after)
        assert without_log(back) == without_log(g), name
        assert without_log(redo(back)) == without_log(after), name
        done.append(name)
        return after

    g = step(game(DECK_A, DECK_B), "setup", priority_side=0)
    for side, keep in ((0, ["GN-2", "SB-3"]), (1, ["PS-1", "RM-1"])):
        g = set_deck(g, side, keep)
        g = step(g, "draw", unit=f"{side}/u")
        g = step(g, "plan", unit=f"{side}/u", keep=keep)
    g = step(g, "reveal")
    g = step(g, "resolve_card", unit="0/u", card="GN-2")
    steps = [
        {"unit": "1/u", "card": "PS-1", "target": "0/u"},
        {"unit": "0/u", "card": "SB-3", "target": "1/u"},
        {"unit": "1/u", "card": "RM-1", "target": "0/u"},
    ]
    g = step(g, "resolve_turn", steps=steps)
    assert g.sides[0].units[0].state.counters["mid"] == 3
    g = step(g, "cleanup")
    assert set(done) == set(SYSTEM.actions)


def without_log(g: Game) -> Game:
    return g.model_copy(update={"log": [], "cursor": 0})


# --- odds (L71) --------------------------------------------------------------------------------------------


def test_digest_block_odds() -> None:
    """Digest section 6: 2 block cards in 20, five drawn 17/38, four drawn 7/19."""
    assert 1 - hypergeometric(20, 2, 5).probability(0) == Fraction(17, 38)
    assert 1 - hypergeometric(20, 2, 4).probability(0) == Fraction(7, 19)


def test_draw_odds_action_for_a_fresh_deck() -> None:
    g = act(game(DECK_A, DECK_B), "setup")
    odds = SYSTEM.actions["draw"].odds
    assert odds is not None
    o = odds(g, SYSTEM.actions["draw"].input(unit="0/u", watch_card="GN-1"))
    assert o.facts["draws GN-1"] == pytest.approx(5 / 20)
    high = 1 - Fraction(math.comb(16, 5), math.comb(20, 5))  # four high blocks in Deck A
    assert o.facts["a high block"] == pytest.approx(float(high)) and "232/323" in o.summary
    with pytest.raises(ValueError, match="choose the suit whose next hand you want odds for"):
        odds(g, SYSTEM.actions["draw"].input())


def brute(above: list[bool], below: list[bool], size: int) -> Counter[int]:
    """Every order of the shuffled cards above the marker, every reshuffle of those below, drawn for real."""
    s = suit_of([card(f"C{i}") for i in range(len(above) + len(below))])
    flags = above + below
    board = load(game(s))
    seat = board.seats[0]
    seat.damage["mid"] = 2 if size == 4 else 0  # the mid penalty makes the hand four (L100)
    out: Counter[int] = Counter()
    n_above, n_below = len(above), len(below)
    faces = list(itertools.product(*[range(1, k + 2) for k in range(n_below - 1, 0, -1)])) or [()]
    for order in itertools.permutations(range(n_above)):
        for f in faces:
            seat.play = SuitPlay(deck=[*order, MARKER, *range(n_above, n_above + n_below)], shuffled=True)
            draw_cards(seat, TypedDice(list(f)))
            out[sum(flags[p] for p in seat.play.hand)] += 1
    return out


@pytest.mark.parametrize(
    ("above", "below", "size"),
    [
        ([True, False, False, True, False, False], [True, False], 5),
        ([True, False], [False, True, True, False, False], 5),
        ([], [True, False, True, False, False], 4),
        ([False, True, False], [True, False, False, True], 4),
        ([True], [False, True], 5),
    ],
)
def test_draw_odds_match_brute_force(above: list[bool], below: list[bool], size: int) -> None:
    counts = brute(above, below, size)
    total = sum(counts.values())
    dist = hand_dist(above, below, size)
    for k in range(size + 1):
        assert dist.probability(k) == Fraction(counts[k], total)


# --- readings the digest leaves open (section 11) -------------------------------------------------------


def test_priority_by_lot_when_nobody_is_named() -> None:
    """[Q-3]: the first holder is drawn by lot (a die as big as the number of players)."""
    faces = [1] * 38  # two 20-card shuffles take 19 faces each
    g = act(game(DECK_A, DECK_B), "setup", TypedDice([*faces, 2]))
    assert [s.resources["priority"] for s in g.sides] == [0, 1]


def test_return_order_as_listed_option() -> None:
    """[Q-8]: unchosen cards go under the deck shuffled by default, in hand order with the option."""
    g = act(game(DECK_A, DECK_B, return_order="as_listed"), "setup")
    g = set_deck(g, 0, ["TR-1", "TR-2", "TR-3", "TR-4", "SB-1"])
    g = act(g, "draw", unit="0/u")
    g = act(g, "plan", unit="0/u", keep=["TR-1", "SB-1"])
    assert ids(g, 0, "deck")[-3:] == ["TR-2", "TR-3", "TR-4"]


def test_on_reveal_effects_apply_when_the_cards_turn_up() -> None:
    """[Q-21]: a card flagged on_reveal acts at reveal, so its effect counts even if it resolves last."""
    early = CARDS["BO-6"].model_copy(update={"timing": "on_reveal", "initiative": 1})
    s = swap(DECK_A, "BO-6", early)
    g = planned(game(s, DECK_B), {0: ["BO-6", "TR-4"], 1: ["PS-4", "GN-1"]})
    assert "movement +2" in last(g)
    g = act(g, "resolve_card", unit="0/u", card="TR-4")
    assert "up to 7 steps" in last(g)


def test_geometry_stays_with_the_players() -> None:
    """[Q-1], [Q-9], [Q-10], [Q-19]: no map; players say which marks reach, and there is no facing."""
    fields = set(SYSTEM.actions["resolve_card"].input.model_fields)
    assert "out_of_range" in fields and not fields & {"facing", "distance", "position"}
    assert MsbOptions().melee_reach == 1


def test_any_mix_of_marks_on_a_card_is_allowed() -> None:
    """[Q-4]: a card may carry melee and ranged marks, several zones, and a block as well."""
    mixed = card(
        "X-1", attacks=[{"zone": "high"}, {"zone": "low", "form": "ranged", "range": 3}], blocks=["mid"]
    )
    assert rules(swap(DECK_A, "BO-1", mixed)) == set()


# --- what the app asks the players (NeedChoice): the tie pick, the target, the blocker ---------------


def ask(g: Game, name: str, **raw: Any) -> NeedChoice:
    """The question an action puts to the players; nothing changes until it is answered."""
    spec = SYSTEM.actions[name]
    with pytest.raises(NeedChoice) as asked:
        spec.resolve(g, spec.input.model_validate(raw), RandomDice(7))
    return asked.value


def test_resolving_without_naming_a_card_takes_the_next_by_initiative() -> None:
    """L77: the highest initiative resolves first; with no tie nobody needs to be asked."""
    g = planned(game(DECK_A, DECK_B), {0: ["GN-2", "SB-3"], 1: ["PS-1", "RM-1"]})
    top = next_pick(load(g))
    g = act(g, "resolve_card")
    assert g.log[-1].detail["card"] == top.choices[0].seat.card(top.choices[0].pos).id


def test_a_tie_asks_the_chooser_which_of_their_cards_goes_first() -> None:
    """L77 and [Q-20]: at a tie the player whose turn it is picks; the app offers their tied cards."""
    g = planned(
        game(DECK_A, DECK_B, DECK_A),
        {0: ["HC-1", "GN-1"], 1: ["HC-1", "GN-1"], 2: ["HC-1", "GN-1"]},
        priority=1,
    )
    g = act(g, "resolve_card")  # side 1 holds priority and has one tied card: no question
    assert g.log[-1].detail["card"] == "HC-1" and load(g).seat("1/u").done(
        load(g).seat("1/u").play.planned[0]
    )
    g = planned(game(DECK_A, DECK_B, tie_pick_any_card=True), {0: ["HC-1", "GN-1"], 1: ["HC-1", "GN-1"]})
    question = ask(g, "resolve_card")
    assert question.field == "card" and "tied" in question.prompt
    # HC-1 attacks with marks that all reach as far, and each suit has one foe: whom it attacks is
    # asked in the same question (L91), the card at that suit or with no attack
    assert [(c.value, c.also) for c in question.options] == [
        ("HC-1", {"unit": "0/u", "target": "1/u"}),
        ("HC-1", {"unit": "0/u", "hold_fire": True}),
        ("HC-1", {"unit": "1/u", "target": "0/u"}),
        ("HC-1", {"unit": "1/u", "hold_fire": True}),
    ]
    answered = act(g, "resolve_card", card="HC-1", unit="1/u", hold_fire=True)
    assert next_pick(load(answered)).chooser == 1


def test_a_card_with_attack_marks_asks_for_its_target_or_none() -> None:
    """L91: the attacker names one target suit, or makes no attack."""
    g = planned(game(DECK_A, DECK_B), {0: ["GN-2", "SB-3"], 1: ["PS-1", "RM-1"]})
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    spec = SYSTEM.actions["resolve_card"]
    question = ask(g, "resolve_card", unit="1/u", card="PS-1")
    assert question.field == "target"
    assert [c.value for c in question.options] == ["0/u", None]
    assert question.options[-1].also == {"hold_fire": True}
    quiet = spec.resolve(
        g, spec.input.model_validate({"unit": "1/u", "card": "PS-1", "hold_fire": True}), None
    )
    assert "attacks no one" in quiet.text


def test_a_list_of_steps_names_the_step_that_lacks_a_pick() -> None:
    """resolve_turn is written out in full, so a missing pick is an error naming the step."""
    g = planned(game(DECK_B, DECK_A), {0: ["HC-1", "GN-1"], 1: ["BO-3", "TR-4"]})
    spec = SYSTEM.actions["resolve_turn"]
    steps = {"steps": [{"unit": "0/u", "card": "HC-1", "target": "1/u"}]}
    with pytest.raises(ValueError, match=r"step 1: .*must block"):
        spec.resolve(g, spec.input.model_validate(steps), RandomDice(1))


# --- piles, effects and notes the players read (tests that pin each step's log text) -------------------


def with_play(g: Game, side: int, **fields: Any) -> Game:
    """Set piles of a suit directly (card positions in its profile, MARKER for the marker)."""
    st = g.sides[side].units[0].state
    play = SuitPlay.model_validate({**st.extra, **fields}) if "deck" in st.extra else SuitPlay(**fields)
    units = [
        g.sides[side]
        .units[0]
        .model_copy(update={"state": st.model_copy(update={"extra": play.model_dump()})})
    ]
    sides = list(g.sides)
    sides[side] = sides[side].model_copy(update={"units": units})
    return g.model_copy(update={"sides": sides})


def test_meeting_the_marker_reshuffles_the_cards_below_it() -> None:
    """L71 and [Q-7]: two cards above the marker, then the marker, then three more from the reshuffle."""
    g = act(game(DECK_A, DECK_B), "setup")
    g = with_play(g, 0, deck=[0, 1, MARKER, 2, 3, 4, 5], shuffled=True)
    g = act(g, "draw", unit="0/u")
    hand = extra(g, 0)["hand"]
    assert hand[:2] == [0, 1] and len(hand) == 5 and set(hand[2:]) <= {2, 3, 4, 5}
    assert extra(g, 0)["deck"][-1] == MARKER and len(extra(g, 0)["deck"]) == 2
    assert "marker drawn: deck reshuffled (L71)" in last(g)
    assert "ran out" not in last(g)


@pytest.mark.parametrize(
    ("deck", "notes"),
    [
        ([0, 1, MARKER], "the deck ran out"),
        ([0, MARKER, 1], "marker drawn: deck reshuffled (L71), the deck ran out"),
    ],
    ids=["marker-last", "marker-twice"],
)
def test_a_deck_that_runs_out_leaves_a_short_hand(deck: list[int], notes: str) -> None:
    """Nothing below the marker, or the marker met a second time: the hand stays short."""
    g = act(game(DECK_A, DECK_B), "setup")
    g = act(with_play(g, 0, deck=deck, shuffled=True), "draw", unit="0/u")
    assert extra(g, 0)["hand"] == [0, 1] and extra(g, 0)["deck"] == [MARKER]
    assert last(g) == f"Vessik / Tamsin Reyl draws 2 ({notes})"


def test_planned_cards_go_under_the_deck_in_the_order_given() -> None:
    """[Q-8]: the three cards not kept go under the deck in the order the player lists them."""
    g = act(game(DECK_A, DECK_B), "setup")
    g = set_deck(g, 0, ["GN-1", "GN-2", "BO-1", "BO-2", "BO-3"])
    g = act(g, "draw", unit="0/u")
    with pytest.raises(ValueError, match="list every card that goes under the deck, or none"):
        act(g, "plan", unit="0/u", keep=["GN-1", "GN-2"], bottom=["BO-3", "BO-1"])
    done = act(g, "plan", unit="0/u", keep=["GN-1", "GN-2"], bottom=["BO-3", "BO-1", "BO-2"])
    assert ids(done, 0, "deck")[-3:] == ["BO-3", "BO-1", "BO-2"]
    assert ids(done, 0, "planned") == ["GN-1", "GN-2"] and ids(done, 0, "hand") == []


def test_repair_takes_damage_off_the_worst_zone_or_the_one_named() -> None:
    """The app's repair effect: one off the most damaged zone unless a zone is named; nothing to repair."""
    fix = card("T-9", initiative=9, effects=[{"kind": "repair", "amount": 1}], ability="Patch up.")
    base = planned(game(swap(DECK_A, "BO-1", fix), DECK_B), {0: ["T-9", "GN-2"], 1: ["HC-1", "BO-1"]})
    g = act(hurt(base, 0, high=1, mid=2), "resolve_card", unit="0/u", card="T-9")
    assert {z: g.sides[0].units[0].state.counters[z] for z in ("high", "mid")} == {"high": 1, "mid": 1}
    assert "T-9 repairs 1 mid" in last(g) and "Patch up." not in last(g)
    g = act(hurt(base, 0, high=1, mid=2), "resolve_card", unit="0/u", card="T-9", repair_zone="high")
    assert {z: g.sides[0].units[0].state.counters[z] for z in ("high", "mid")} == {"high": 0, "mid": 2}
    g = act(hurt(base, 0, high=1), "resolve_card", unit="0/u", card="T-9", repair_zone="low")
    assert "T-9: nothing to repair" in last(g) and g.sides[0].units[0].state.counters["high"] == 1


def test_an_ability_the_app_cannot_apply_is_shown_as_its_text() -> None:
    text = card("T-8", initiative=9, ability="Players move a token.")
    g = planned(game(swap(DECK_A, "BO-1", text), DECK_B), {0: ["T-8", "GN-2"], 1: ["HC-1", "BO-1"]})
    g = act(g, "resolve_card", unit="0/u", card="T-8")
    assert "T-8: Players move a token." in last(g)


def test_damage_notes_the_penalty_once_and_destruction() -> None:
    """L97-L101: the zone's penalty when its damage reaches 2, not again at 3; destroyed at the armour."""
    two = card("T-7", initiative=9, attacks=[{"zone": "mid"}])
    g = planned(game(swap(DECK_A, "BO-1", two), DECK_B), {0: ["T-7", "GN-2"], 1: ["HC-1", "BO-1"]})
    first = act(hurt(g, 1, mid=1), "resolve_card", unit="0/u", card="T-7", target="1/u")
    assert "takes 1 mid (2 now)" in last(first) and "suffers the mid penalty (L97-L101)" in last(first)
    again = act(hurt(g, 1, mid=2), "resolve_card", unit="0/u", card="T-7", target="1/u")
    assert "takes 1 mid (3 now)" in last(again) and "penalty" not in last(again)
    armour = FRAMES["oruun"].armor.of("mid")
    end = act(hurt(g, 1, mid=armour - 1), "resolve_card", unit="0/u", card="T-7", target="1/u")
    assert end.sides[1].units[0].state.destroyed and last(end).endswith(
        "is destroyed (L97); the game is over: P0 wins: every other side's suits are destroyed (L9, L97)"
    )


def test_attack_entries_out_of_range_must_exist_and_the_target_must_stand() -> None:
    """Three players: with two, P1's only suit destroyed would end the game (L9) before any target check."""
    g = planned(game(DECK_B, DECK_A, DECK_A), {0: ["HC-1", "GN-1"], 1: ["GN-2", "TR-2"], 2: ["GN-2", "TR-2"]})
    g = act(g, "resolve_card", unit="1/u", card="GN-2")
    g = act(g, "resolve_card", unit="2/u", card="GN-2")
    with pytest.raises(ValueError, match="Snap Shot has no attack entry 1"):
        act(g, "resolve_card", unit="0/u", card="HC-1", target="1/u", out_of_range=[1])
    down = g.model_copy(deep=True)
    down.sides[1].units[0].state.destroyed = True
    with pytest.raises(ValueError, match=r"^Vessik / Tamsin Reyl is destroyed and off the table \(L97\)$"):
        act(down, "resolve_card", unit="0/u", card="HC-1", target="1/u")


def test_a_named_card_needs_its_suit() -> None:
    g = planned(game(DECK_A, DECK_B), {0: ["GN-2", "GN-1"], 1: ["HC-1", "BO-1"]})
    with pytest.raises(ValueError, match="name the suit whose card resolves, with its card"):
        act(g, "resolve_card", card="GN-2")


def test_cleanup_notes_single_use_cards_and_the_marker() -> None:
    """L105: single-use cards are set aside, and the log says where the priority marker went."""
    g = planned(game(DECK_A, DECK_B), {0: ["BO-4", "GN-2"], 1: ["HC-1", "BO-1"]})
    g = act(g, "cleanup", force=True)
    assert (
        last(g) == "Vessik / Tamsin Reyl sets aside Smoke Canister; priority marker passes to P1; turn 1 ends"
    )
    assert g.round == 2


def test_setup_refuses_a_side_that_is_not_there() -> None:
    with pytest.raises(ValueError, match="there is no side 2"):
        act(game(DECK_A, DECK_B), "setup", priority_side=2)
    g = act(game(DECK_A, DECK_B), "setup", priority_side=1)
    assert [s.resources["priority"] for s in g.sides] == [0, 1]


def test_resolve_turn_logs_every_step() -> None:
    g = planned(game(DECK_A, DECK_B), {0: ["GN-2", "SB-3"], 1: ["PS-1", "RM-1"]})
    steps = [{"unit": "0/u", "card": "GN-2"}, {"unit": "1/u", "card": "PS-1", "target": "0/u"}]
    after = act(g, "resolve_turn", steps=steps)
    text = last(after)
    assert "resolves Dodge" in text and "resolves Shield Bash" in text
    assert [d["card"] for d in after.log[-1].detail["steps"]] == ["GN-2", "PS-1"]


def test_hypergeometric_when_every_hand_must_hold_some() -> None:
    """Three cards from five, four of them wanted: at least two wanted in any hand."""
    d = hypergeometric(5, 4, 3)
    assert {k: d.probability(k) for k in range(4)} == {0: 0, 1: 0, 2: Fraction(3, 5), 3: Fraction(2, 5)}


def test_draw_odds_name_the_watched_card() -> None:
    g = act(game(DECK_A, DECK_B), "setup")
    spec = SYSTEM.actions["draw"]
    assert spec.odds is not None
    o = spec.odds(g, spec.input(unit="0/u", watch_card="GN-1", watch_zone="high"))
    assert o.summary == "next hand of 5: GN-1: 1/4, a high block: 232/323"


def views(g: Game) -> dict[str, Any]:
    """What the game screen shows of each suit (api game.views), section by section."""
    reply = api.call("game.views", {"game": g.model_dump(mode="json")})
    assert reply["ok"], reply
    return {
        ref: [(s["title"], [i["id"] for i in s["items"]], s["private"]) for s in v["sections"]]
        for ref, v in reply["result"]["views"].items()
    }


def test_the_screen_shows_hands_face_down_then_face_up_cards_and_which_resolves_next() -> None:
    """L71-L77: the hand and face-down cards are private; revealed, they are public, and the suit holding
    the next card by initiative is marked; resolved cards are listed apart; L105: piles after cleanup."""
    g = act(game(DECK_A, DECK_B), "setup")
    g = set_deck(g, 0, ["GN-2", "SB-3", "BO-1", "BO-2", "BO-3"])
    g = act(g, "draw", unit="0/u")
    hand = api.call("game.views", {"game": g.model_dump(mode="json")})["result"]["views"]["0/u"]["sections"][
        0
    ]
    assert (hand["title"], hand["private"], hand["bind"]["action"], hand["bind"]["count"]) == (
        "Hand",
        True,
        "plan",
        2,
    )
    assert [i["id"] for i in hand["items"]] == ["GN-2", "SB-3", "BO-1", "BO-2", "BO-3"]
    g = act(g, "plan", unit="0/u", keep=["GN-2", "SB-3"])
    assert views(g)["0/u"][0] == ("Face down", ["GN-2", "SB-3"], True)
    g = set_deck(g, 1, ["PS-1", "BO-1"])
    g = act(g, "draw", unit="1/u")
    g = act(g, "plan", unit="1/u", keep=["PS-1", "BO-1"])
    g = act(g, "reveal")
    shown = views(g)
    assert shown["0/u"] == [
        ("Face up: one resolves next (initiative 9)", ["GN-2", "SB-3"], False),
        ("Draw pile: 18 cards", [], False),
    ]
    assert shown["1/u"][0] == ("Face up", ["PS-1", "BO-1"], False)
    reply = api.call("game.views", {"game": g.model_dump(mode="json")})["result"]["views"]["1/u"]["sections"][
        0
    ]
    assert reply["bind"] == {
        "action": "resolve_card",
        "field": "card",
        "count": 1,
        "label": "Resolve this card",
        "fixed": {"unit": "1/u"},
        "mode": "prefill",
        "auto": False,
    }
    # face up, a card reads as it plays now: base movement 3 + 1 (L87), melee reach 1 step ([Q-10])
    assert (
        reply["items"][0]["detail"]
        == "initiative 6; moves up to 4 steps; attack 1x mid melee 1 step; blocks mid"
    )
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    shown = views(g)
    assert shown["0/u"][:2] == [("Face up", ["SB-3"], False), ("Resolved", ["GN-2"], False)]
    assert shown["1/u"][0] == ("Face up: one resolves next (initiative 7)", ["PS-1", "BO-1"], False)
    g = act(g, "cleanup", force=True)
    assert views(g)["0/u"] == [("Draw pile: 20 cards", [], False)]


def test_discarded_and_set_aside_cards_are_shown() -> None:
    g = planned(game(DECK_A, DECK_B), {0: ["BO-4", "GN-2"], 1: ["PS-4", "HC-1"]})
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    g = act(g, "resolve_card", unit="1/u", card="HC-1", target="0/u", blockers=["BO-4"])
    assert ("Discarded", ["BO-4"], False) in views(g)["0/u"]
    g = act(g, "cleanup", force=True)
    assert ("Set aside (single use)", ["BO-4"], False) in views(g)["0/u"]


def test_pilot_and_weapon_cards_name_their_pilot_or_weapon() -> None:
    """L61: a pilot card belongs to a pilot and a weapon card to a weapon."""
    nameless = card("X-1", type="weapon", attacks=[{"zone": "mid"}])
    found = deck_violations(swap(DECK_A, "BO-1", nameless), MsbOptions())
    assert [(v.message, v.ref) for v in found if v.rule == "card-type"] == [
        ("X-1: a weapon card must name its weapon", "L61")
    ]
    pilot = card("X-2", type="pilot")
    found = deck_violations(swap(DECK_A, "BO-1", pilot), MsbOptions())
    assert [v.message for v in found if v.rule == "card-type"] == ["X-2: a pilot card must name its pilot"]
    assert "card-type" not in rules(DECK_A)


@pytest.mark.parametrize(
    ("past", "before", "destroyed"),
    [(False, 2, False), (False, 3, True), (True, 3, False), (True, 4, True)],
    ids=["one-below", "at-armour", "at-armour-option", "past-armour-option"],
)
def test_destruction_at_the_zone_armour_boundary(past: bool, before: int, destroyed: bool) -> None:
    """L97 and [Q-13]: high armour 4; one high hit from 2, 3 or 4 damage, by default and with the option."""
    g = planned(game(DECK_A, DECK_B, destroyed_past_armor=past), {0: ["SB-1", "GN-2"], 1: ["RM-1", "BO-1"]})
    g = act(hurt(g, 1, high=before), "resolve_card", unit="0/u", card="GN-2")
    g = act(g, "resolve_card", unit="0/u", card="SB-1", target="1/u")
    st = g.sides[1].units[0].state
    assert (st.counters["high"], st.destroyed) == (before + 1, destroyed)
    assert ("is destroyed (L97); the game is over: P0 wins" in last(g)) is destroyed


def test_a_deck_is_shuffled_once_before_its_first_draw() -> None:
    """L50: drawing from a deck never shuffled shuffles it first; after setup no second shuffle."""
    g = act(game(DECK_A, DECK_B), "draw", unit="0/u")
    assert "deck shuffled first (L50)" in last(g) and extra(g, 0)["shuffled"] is True
    g = act(act(game(DECK_A, DECK_B), "setup"), "draw", unit="0/u")
    assert "shuffled" not in last(g) and len(extra(g, 0)["hand"]) == 5


def test_one_card_cannot_be_kept_twice_and_reveal_waits_for_every_plan() -> None:
    g = act(game(DECK_A, DECK_B), "setup")
    g = set_deck(g, 0, ["GN-1", "GN-2", "BO-1", "BO-2", "BO-3"])
    g = act(g, "draw", unit="0/u")
    with pytest.raises(ValueError, match="has no 'GN-1' in hand"):
        act(g, "plan", unit="0/u", keep=["GN-1", "GN-1"])
    g = act(g, "plan", unit="0/u", keep=["GN-1", "GN-2"])
    with pytest.raises(ValueError, match=r"still planning: Oruun / Hollis Brack$"):
        act(g, "reveal")
    g = act(g, "draw", unit="1/u")
    with pytest.raises(ValueError, match=r"still planning: Oruun / Hollis Brack$"):
        act(g, "reveal")


def test_hold_fire_even_with_a_target_named() -> None:
    g = planned(game(DECK_A, DECK_B), {0: ["SB-1", "GN-2"], 1: ["RM-1", "BO-1"]})
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    g = act(g, "resolve_card", unit="0/u", card="SB-1", target="1/u", hold_fire=True)
    assert "Rising Cut attacks no one" in last(g) and g.sides[1].units[0].state.counters["high"] == 0


def test_draw_odds_with_the_marker_part_way_down() -> None:
    """[Q-7]: the two cards above the marker are drawn for sure; the other three come from the 18 below."""
    g = act(game(DECK_A, DECK_B), "setup")
    cards = [c.id for c in DECK_A.cards]
    top = [cards.index("GN-1"), cards.index("BO-1")]
    g = with_play(g, 0, deck=[*top, MARKER, *(i for i in range(len(cards)) if i not in top)], shuffled=True)
    spec = SYSTEM.actions["draw"]
    assert spec.odds is not None
    # the owner knows the order: the two above the marker are sure, three come from the 18 below
    sure = spec.odds(g, spec.input(unit="0/u", watch_card="GN-1", watch_zone="high"), 0)
    assert sure.facts["draws GN-1"] == 1.0
    below = spec.odds(g, spec.input(unit="0/u", watch_card="BO-2", watch_zone="high"), 0)
    assert below.facts["draws BO-2"] == pytest.approx(3 / 18)
    # the table phone and the other side never saw the order: any card is 5 of the 20 (L71)
    for viewer in (None, 1):
        for cid in ("GN-1", "BO-2"):
            public = spec.odds(g, spec.input(unit="0/u", watch_card=cid, watch_zone="high"), viewer)
            assert public.facts[f"draws {cid}"] == pytest.approx(5 / 20)


def test_an_unknown_suit_is_refused() -> None:
    with pytest.raises(ValueError, match="no unit '0/zz'"):
        act(game(DECK_A, DECK_B), "draw", unit="0/zz")


def test_only_zones_hit_are_logged() -> None:
    g = planned(game(DECK_A, DECK_B), {0: ["SB-1", "GN-2"], 1: ["RM-1", "BO-1"]})
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    g = act(g, "resolve_card", unit="0/u", card="SB-1", target="1/u")
    assert "takes 1 high (1 now)" in last(g) and "takes 0" not in last(g)


def test_draw_odds_of_a_deck_without_a_marker() -> None:
    """A deck played without the reshuffle marker: the next hand is five of all twenty cards."""
    plain = DECK_A.model_copy(update={"reshuffle_marker": False})
    g = game(plain, DECK_B)
    spec = SYSTEM.actions["draw"]
    assert spec.odds is not None
    o = spec.odds(g, spec.input(unit="0/u", watch_card="GN-1", watch_zone="high"))
    assert o.facts["draws GN-1"] == 0.25
