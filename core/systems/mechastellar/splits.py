"""The Melee Clash with both splits entered unseen (L183-L214; digest ambiguity 37: a simultaneous hidden
split).

The quick clash (the action Melee) takes the attacker's split on its sheet and asks the defender's player
after the roll.  When the players want neither split seen before both are in, the attacker declares the
clash with "Melee, splits hidden" (no dice); each of the two units then shows its player a private
choice of its splits (hidden on the shared phone until its owner opens it, or sent to the owner's own
phone by the shared secret-choice link, core.remote); "split" keeps one, logged without its value.  Once
both are in (a warship defending splits nothing: all its AA DEF defends, L954), Melee resolves the clash
with them and reveals both.
"""

from __future__ import annotations

from contextlib import suppress

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game
from core.systems.base import (
    ActionOdds,
    ActionResult,
    Closed,
    UnitView,
    ViewBinding,
    Viewer,
    ViewItem,
    ViewSection,
    enemy_unit,
    own_unit,
    read_options,
)
from core.systems.mechastellar.events import escape_open
from core.systems.mechastellar.melee import (
    Clash,
    _first_melee,
    attacker_pool,
    clash,
    clash_odds,
    d_pool_of,
    pools,
    second_clash,
    split_label,
)
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.state import MsState, ms_state, put_unit_extra, unit_extra
from core.systems.mechastellar.turns import begin_turn, check_turn
from core.systems.mechastellar.units import Unit


class SecretClash(Closed):
    """Declare a melee attack whose two splits are entered unseen before the dice (L183-L214)."""

    attacker: str = own_unit("Who attacks in melee.")
    target: str = enemy_unit("Whom it attacks.")


def secret_clash(game: Game, inp: SecretClash, dice: DiceSource) -> ActionResult:
    _, _, a_g = game.unit(inp.attacker)
    weapon = max(0, _first_melee(Unit.model_validate(a_g.profile)))  # as the Melee sheet offers first
    declared = Clash(attacker=inp.attacker, target=inp.target, weapon=weapon)
    if why := second_clash(game, declared):  # once a turn; Merciless Melee's second at a new target (L443)
        raise ValueError(why)
    check_turn(game, inp.attacker)
    pools(game, declared)  # the clash's own refusals
    work = Working(game)
    begin_turn(game, work, inp.attacker)
    st = work.extra_as(MsState)
    st.secret_clash = f"{inp.attacker}|{inp.target}"
    work.put_extra(st)
    for ref in (inp.attacker, inp.target):
        s, u, g = game.unit(ref)
        mine = unit_extra(g)
        mine.split = None
        put_unit_extra(work, s, u, mine)
    _, _, d_g = game.unit(inp.target)
    return ActionResult(
        changes=work.changes(),
        text=f"{a_g.name} attacks {d_g.name} in melee: each player splits its dice unseen, then Melee "
        "reveals both (L519)",
    )


#: The item a defender picks for its Narrow Escape in place of a split (Climactic Events, L742).
ESCAPE = "escape"


def _may_escape(game: Game, ref: str) -> bool:
    """The defender of the declared clash may make its Narrow Escape (L742)."""
    return ref == ms_state(game).secret_clash.split("|")[1] and escape_open(game, game.unit(ref)[0])


def pool_of(game: Game, ref: str) -> int:
    """The dice ``ref`` splits in the declared clash: the attacker's with the charge's, the defender's
    Melee (a warship: none)."""
    st = ms_state(game)
    attacker, target = st.secret_clash.split("|")
    _, _, g = game.unit(ref)
    if ref == attacker:
        return attacker_pool(Unit.model_validate(g.profile), read_options(MsOptions, game.options))
    return d_pool_of(game, Clash(attacker=attacker, target=target))


def split_refusal(game: Game, ref: str) -> str:
    """The requirement ``split``: the unit is in a declared clash, has dice to split and has not split."""
    st = ms_state(game)
    _, _, g = game.unit(ref)
    if not st.secret_clash or ref not in st.secret_clash.split("|"):
        return f"{g.name} is in no clash waiting for splits"
    if unit_extra(g).split is not None:
        return f"{g.name}'s player has entered its split"
    # a warship splits none, but its Narrow Escape is chosen as unseen as a split (L742, L954)
    return "" if pool_of(game, ref) or _may_escape(game, ref) else f"{g.name} has no dice to split"


class Split(Closed):
    """One player's split of its dice for the declared clash, kept unseen until Melee reveals it (L519)."""

    unit: str = own_unit("Whose split.")
    pick: list[str] = Field(
        min_length=1, max_length=1, description="How many dice attack (the rest defend), as the choice's id."
    )


def split(game: Game, inp: Split, dice: DiceSource) -> ActionResult:
    why = split_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    pool = pool_of(game, inp.unit)
    s, u, g = game.unit(inp.unit)
    if inp.pick[0] == ESCAPE:  # the defender's Narrow Escape, as hidden as a split (L742)
        if not _may_escape(game, inp.unit):
            raise ValueError(
                "Narrow Escape needs the Climactic Events module and the side's Event unused (L736)"
            )
        k = -1
    else:
        try:
            k = int(inp.pick[0])
        except ValueError:
            raise ValueError("pick one of the splits offered") from None
        if not 0 <= k <= pool:
            raise ValueError(f"a split of {pool} dice attacks with 0 to {pool}")
    work = Working(game)
    mine = unit_extra(g)
    mine.split = k
    put_unit_extra(work, s, u, mine)
    return ActionResult(
        changes=work.changes(), text=f"{g.name}'s player enters its split, unseen until the clash"
    )


def split_view(game: Game, side: int, index: int, viewer: Viewer = None) -> UnitView | None:
    """The split a unit's player is to enter, private (another side sees only that it is awaited); once
    entered, that it is (not which)."""
    st = ms_state(game)
    g = game.sides[side].units[index]
    ref = f"{side}/{g.key}"
    if not st.secret_clash or ref not in st.secret_clash.split("|"):
        return None
    pool = pool_of(game, ref)
    if not pool and not _may_escape(game, ref):
        return None
    if unit_extra(g).split is not None:
        return UnitView(sections=[ViewSection(title="Dice split entered: hidden until the clash")])
    if viewer is not None and viewer != side:
        return UnitView(sections=[ViewSection(title="Splitting its dice for the clash")])
    items = [ViewItem(id=str(k), label=split_label(k, pool)) for k in range(pool, -1, -1)]
    if not pool:  # a warship: all its AA DEF dice defend (L954)
        items = [ViewItem(id="0", label="Defend: no dice to split")]
    if _may_escape(game, ref):
        items.append(ViewItem(id=ESCAPE, label="Narrow Escape: cancel the clash (once a game)"))
    bind = ViewBinding(
        action="split", field="pick", count=1, label="Keep this split", fixed={"unit": ref}, auto=True
    )
    return UnitView(
        sections=[
            ViewSection(
                title=f"Split its {pool} dice for the clash" if pool else "Its answer to the clash",
                items=items,
                private=True,
                bind=bind,
            )
        ]
    )


def secret_splits(game: Game, inp: Clash) -> Clash:
    """The clash with the splits entered unseen, when it is the declared one; refused until both are in, and
    for another target than the one declared."""
    st = ms_state(game)
    if not st.secret_clash or not st.secret_clash.startswith(f"{inp.attacker}|"):
        return inp
    if st.secret_clash != f"{inp.attacker}|{inp.target}":
        declared = game.unit(st.secret_clash.split("|")[1])[2].name
        raise ValueError(f"{game.unit(inp.attacker)[2].name} declared its clash with {declared}")
    a = unit_extra(game.unit(inp.attacker)[2]).split
    d = unit_extra(game.unit(inp.target)[2]).split
    needs_d = pool_of(game, inp.target) > 0 or _may_escape(game, inp.target)
    if a is None or (needs_d and d is None):
        raise ValueError("both players enter their split first, unseen (L519)")
    if d == -1:  # the defender chose its Narrow Escape (L742)
        return inp.model_copy(update={"attack_dice": a, "escape": True})
    return inp.model_copy(update={"attack_dice": a, "defender_attack": d if needs_d else inp.defender_attack})


def melee(game: Game, inp: Clash, dice: DiceSource) -> ActionResult:
    """The action Melee: the declared clash with its hidden splits, revealed in its log line, or the quick
    clash (:func:`clash`)."""
    filled = secret_splits(game, inp)
    result = clash(game, filled, dice)
    if filled is inp:
        return result
    a_pool, d_pool = pool_of(game, inp.attacker), pool_of(game, inp.target)
    shown = [f"{game.unit(inp.attacker)[2].name} {split_label(filled.attack_dice or 0, a_pool)}"]
    if d_pool:
        shown.append(f"{game.unit(inp.target)[2].name} {split_label(filled.defender_attack or 0, d_pool)}")
    text = "Splits revealed: " + ", ".join(shown) + ". " + result.text
    return result.model_copy(update={"text": text, "detail": {**result.detail, "splits": shown}})


def melee_odds(game: Game, inp: Clash) -> ActionOdds:
    """The clash's odds: with the hidden splits once both are in, else with the splits on the sheet."""
    with suppress(ValueError):
        inp = secret_splits(game, inp)
    return clash_odds(game, inp)
