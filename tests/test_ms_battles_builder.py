"""The Mobile Suit Battles deck builder's core: parts, assembling picks, counters, and the seam.

Legality is always decks.deck_violations (002_c5caa4b4fc3fd928.txt L107-L125); the
builder only assembles the suit and counts it by slot.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from core import api
from core.systems.ms_battles import SYSTEM, sample
from core.systems.ms_battles.builder import (
    BuildError,
    DeckChoice,
    WeaponPick,
    assemble,
    build,
    parts,
    split,
    summary,
)
from core.systems.ms_battles.cards import AttackMark, Card, Frame, MobileSuit

VESSIK, ORUUN = sample.FRAMES["vessik"], sample.FRAMES["oruun"]


def ask(op: str, args: Any = None) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(api.handle(json.dumps({"op": op, "args": args})))
    return reply


def tool(name: str, args: Any) -> dict[str, Any]:
    """One of the system's own tools, through the seam's generic operation."""
    return ask("system.tool", {"system": "ms_battles", "tool": name, "args": args})


def deck_a_choice(**changes: Any) -> DeckChoice:
    """The picks of sample deck A: Vessik, Tamsin Reyl, Shear Blade and Harl Carbine, all boosters."""
    choice = DeckChoice(
        name="Built A",
        frame=VESSIK,
        pilot_cards=["TR-1", "TR-2", "TR-3", "TR-4"],
        weapons=[
            WeaponPick(name="Shear Blade", cards=["SB-1", "SB-2", "SB-3", "SB-4"]),
            WeaponPick(name="Harl Carbine", cards=["HC-1", "HC-2", "HC-3", "HC-4"]),
        ],
        boosters=["BO-1", "BO-2", "BO-3", "BO-4", "BO-5", "BO-6"],
        generics=["GN-1", "GN-2"],
    )
    return choice.model_copy(update=changes)


def own_card(**fields: Any) -> Card:
    base: dict[str, Any] = {"id": "own-1", "name": "Flare", "type": "booster", "initiative": 6}
    return Card.model_validate(base | fields)


def counters(suit: MobileSuit) -> dict[str, tuple[str, str]]:
    return {s.key: (s.text, s.state) for s in summary(suit).slots}


def rules(choice: DeckChoice) -> set[str]:
    return {v.rule for v in build(choice).violations}


def test_parts_offer_the_sample_set() -> None:
    p = parts()
    assert [f.name for f in p.frames] == ["Vessik", "Oruun"]
    assert [len(x.cards) for x in p.pilots] == [4, 4]
    assert [len(w.cards) for w in p.weapons] == [4, 4, 4, 4]  # a weapon is four attack cards (L122)
    assert len(p.boosters) == 6 and all(c.type == "booster" for c in p.boosters)
    assert [c.name for c in p.generics] == ["Block", "Dodge"]  # the example's generics (L135)
    assert (p.deck_size, p.max_pilot_cards, p.weapon_cards) == (20, 4, 4)  # L109, L120, L122


@pytest.mark.parametrize("deck", [sample.DECK_A, sample.DECK_B])
def test_split_then_assemble_gives_the_same_suit(deck: MobileSuit) -> None:
    choice = split(deck)
    assert not choice.own_cards
    assert assemble(choice) == deck


def test_the_picks_of_deck_a_make_a_legal_deck_with_full_counters() -> None:
    built = build(deck_a_choice())
    assert built.legal and built.violations == []
    assert built.profile.cards == sample.DECK_A.cards
    assert counters(built.profile) == {
        "pilot": ("4/4", "full"),
        "weapons": ("2/2 · 8 cards", "full"),
        "boosters": ("6/6", "full"),
        "generics": ("2", "open"),
        "total": ("20/20", "full"),
    }


def test_a_short_deck_counts_open_and_breaks_the_twenty_rule() -> None:
    choice = deck_a_choice(boosters=[], generics=["GN-1"])
    assert counters(assemble(choice))["total"] == ("13/20", "open")
    assert counters(assemble(choice))["boosters"] == ("0/6", "open")
    assert "deck-size" in rules(choice)  # L109


def test_an_own_card_makes_21_then_dropping_a_booster_makes_it_legal() -> None:
    extra = deck_a_choice(own_cards=[own_card()])
    assert counters(assemble(extra))["total"] == ("21/20", "over")
    assert counters(assemble(extra))["boosters"] == ("7/6", "over")  # own boosters count too (L121)
    assert {"deck-size", "booster-max"} <= rules(extra)
    fixed = extra.model_copy(update={"boosters": ["BO-1", "BO-2", "BO-3", "BO-4", "BO-5"]})
    assert build(fixed).legal
    assert build(fixed).profile.cards[-1].name == "Flare"  # own cards come last


def test_too_many_boosters_for_the_frame() -> None:
    choice = deck_a_choice(frame=ORUUN)  # 3 booster slots, 3 weapon slots (sample frame)
    assert counters(assemble(choice))["boosters"] == ("6/3", "over")
    assert "booster-max" in rules(choice)  # L121


def test_pilot_cards_from_two_pilots_are_reported_not_refused() -> None:
    choice = deck_a_choice(pilot_cards=["TR-1", "TR-2", "HB-3"])
    assert "pilot-one" in rules(choice)  # L120


def test_one_weapon_in_two_slots_allows_two_copies() -> None:
    blade = WeaponPick(name="Shear Blade", cards=["SB-1", "SB-2", "SB-3", "SB-4"])
    choice = deck_a_choice(weapons=[blade, blade])
    suit = assemble(choice)
    assert suit.weapons == ["Shear Blade", "Shear Blade"]
    assert [c.id for c in suit.cards].count("SB-1") == 2
    assert not {"weapon-copies", "weapon-slots"} & rules(choice)  # L123: one copy per slot
    assert split(suit).weapons == [blade, blade]


def test_a_third_weapon_on_a_two_slot_frame_is_reported() -> None:
    mortar = WeaponPick(name="Ridge Mortar", cards=["RM-1"])
    choice = deck_a_choice(weapons=[*deck_a_choice().weapons, mortar])
    assert counters(assemble(choice))["weapons"] == ("3/2 · 9 cards", "over")
    assert "weapon-slots" in rules(choice)  # L122


def test_an_own_weapon_fills_a_slot_with_own_cards() -> None:
    gun = [
        own_card(
            id=f"own-{n}",
            name=f"Shot {n}",
            type="weapon",
            group="Coil Gun",
            number=n,
            attacks=[AttackMark(zone="mid", form="ranged", range=5)],
        )
        for n in (1, 2, 3, 4)
    ]
    choice = deck_a_choice(weapons=[deck_a_choice().weapons[0], WeaponPick(name="Coil Gun")], own_cards=gun)
    built = build(choice)
    assert built.legal, built.violations
    assert split(built.profile) == choice.model_copy(update={"name": "Built A"})
    unslotted = choice.model_copy(update={"weapons": choice.weapons[:1]})
    assert "weapon-unslotted" in rules(unslotted)  # L123


def test_unknown_picks_are_refused_with_their_field() -> None:
    with pytest.raises(BuildError) as bad:
        assemble(deck_a_choice(boosters=["SB-1"]))
    assert bad.value.field == "boosters.0"
    with pytest.raises(BuildError) as bad:
        assemble(deck_a_choice(weapons=[WeaponPick(name="Shear Blade", cards=["HC-1"])]))
    assert bad.value.field == "weapons.0.cards.0"
    with pytest.raises(BuildError):
        assemble(deck_a_choice(weapons=[WeaponPick(name="Coil Gun", cards=["SB-1"])]))


def test_an_edited_sample_card_splits_as_an_own_card() -> None:
    edited = sample.CARDS["BO-1"].model_copy(update={"initiative": 9})
    suit = sample.DECK_A.model_copy(update={"cards": [*sample.DECK_A.cards[:-1], edited]})
    choice = split(suit)
    assert choice.own_cards == [edited]
    assert assemble(choice).cards[-1] == edited


def test_a_suit_without_weapon_names_gets_its_slots_inferred() -> None:
    suit = sample.DECK_B.model_copy(update={"weapons": []})
    choice = split(suit)
    assert sorted(w.name for w in choice.weapons) == ["Harl Carbine", "Pavise Shield", "Ridge Mortar"]
    assert not choice.own_cards


def test_a_frame_that_cannot_hold_twenty_is_warned() -> None:
    tiny = Frame(name="Tiny", base_movement=3, weapon_slots=1, booster_slots=2)
    built = build(deck_a_choice(frame=tiny))
    assert built.summary.most_cards == 4 + 4 + 2 + 2
    assert "frame-cannot-fill" in {v.rule for v in built.violations}  # L120-L125


def test_an_assembled_suit_with_an_own_card_travels_in_a_share_link() -> None:
    suit = assemble(deck_a_choice(own_cards=[own_card()]))
    assert SYSTEM.unpack_profile(json.loads(json.dumps(SYSTEM.pack_profile(suit)))) == suit


# --- through the seam --------------------------------------------------------------------


def test_the_seam_offers_parts_and_assembles_picks() -> None:
    reply = tool("parts", {})
    assert reply["ok"] and len(reply["result"]["weapons"]) == 4
    reply = tool("assemble", deck_a_choice().model_dump(mode="json"))
    assert reply["ok"] and reply["result"]["legal"]
    assert reply["result"]["profile"] == sample.DECK_A.model_copy(
        update={"name": "Built A", "note": ""}
    ).model_dump(mode="json")
    assert [s["text"] for s in reply["result"]["summary"]["slots"]][-1] == "20/20"
    # The profile it answers is one the squad layer accepts as it is.
    check = ask("unit.check", {"system": "ms_battles", "profile": reply["result"]["profile"]})
    assert check["ok"] and check["result"]["valid"] and check["result"]["violations"] == []


def test_the_seam_splits_a_saved_suit() -> None:
    reply = tool("split", sample.DECK_B.model_dump(mode="json"))
    assert reply["ok"]
    assert reply["result"]["weapons"][2] == {"name": "Harl Carbine", "cards": ["HC-1", "HC-2", "HC-4"]}


def test_the_seam_answers_bad_picks_and_cards_as_data() -> None:
    choice = deck_a_choice().model_dump(mode="json")
    reply = tool("assemble", {**choice, "boosters": ["nope"]})
    assert not reply["ok"]
    assert reply["error"]["problems"][0]["field"] == "boosters.0"
    bad_card = {"id": "x", "name": "X", "type": "booster", "initiative": 30}
    reply = tool("assemble", {**choice, "own_cards": [bad_card]})
    assert reply["error"]["problems"][0]["field"] == "own_cards.0.initiative"
    reply = tool("card", bad_card)
    assert reply["error"]["problems"][0]["field"] == "initiative"
    reply = tool("card", {**bad_card, "initiative": 3, "keywords": ["guard_break"]})
    assert reply["ok"] and reply["result"]["keywords"] == ["guard_break"]
    reply = tool("split", {"name": "no cards"})
    assert not reply["ok"]
    reply = tool("nope", {})
    assert reply["error"]["problems"] == [
        {"field": "tool", "message": "Mobile Suit Battles has no tool 'nope'"}
    ]


def test_the_tools_and_editor_are_described_with_real_schemas() -> None:
    described = ask("system.describe", {"system": "ms_battles"})["result"]
    assert described["tools"] == ["parts", "assemble", "split", "card"]
    assert described["editor"]["kind"] == "card-deck"
    assert [e["value"] for e in described["editor"]["data"]["effects"]] == [
        "partner_initiative",
        "partner_movement",
        "partner_range",
        "repair",
    ]
    # an own frame starts from a sample's values with the printed-only ones cleared: still a frame
    data = described["editor"]["data"]
    own = Frame.model_validate({**sample.FRAMES["vessik"].model_dump(mode="json"), **data["own_frame"]})
    assert (own.name, own.rule, own.ability, own.base_movement) == ("My frame", "none", "", 4)
    blank = Card.model_validate({**data["blank_card"], "id": "own-1", "name": "Mine"})
    assert blank.timing == "on_resolve" and blank.effects == []
    schemas = api.schemas()["system.tool"]["tools"]["ms_battles"]
    assert schemas["assemble"]["args"]["title"] == "DeckChoice"
    assert "own_cards" in schemas["assemble"]["args"]["properties"]
    assert "texts" in schemas["assemble"]["result"]["properties"]
    assert schemas["card"]["result"]["properties"]["initiative"]["maximum"] == 20
