"""The engine's shortcuts for a tap (issue 26) give the very answers of the long way.

Each shortcut is checked against the long way it replaces, on the inputs it meets: a remembered
reply, memoised Gundam Skirmish odds, the unrolled cancelling of hits, the faster measure of a
request's shape, and a re-validation that skips the profiles no change reached (but never one a
change reached).  All in CPython, well under a second or two.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
from dataclasses import fields, replace
from typing import Any, cast

import pytest
from pydantic import BaseModel

from core import answered, api, limits, steps
from core.changes import deep_copy
from core.dice import Dist
from core.game import _reaches_profiles
from core.pool import DENSE_UP_TO, Row, Table, table
from core.steps import FacePool
from core.systems.base import Change
from core.systems.gundam_skirmish import shooting
from core.systems.gundam_skirmish.shooting import Blocks, DefendGroup, Hits, Shot, cancel_hits

# --- a request's shape (core.limits.skeleton) ----------------------------------------------------

_OLD_PATTERN = re.compile(r'[^\[\]{}",:]+')


def old_skeleton(text: str) -> str:
    """The definition before issue 26: the pattern over the whole text, then the strings dropped."""
    bare = text.replace("\\\\", "").replace('\\"', "") if "\\" in text else text
    return "".join(_OLD_PATTERN.sub("", bare).split('"')[::2])


def test_the_shape_of_a_request_is_measured_as_before_for_json_and_for_anything_else() -> None:
    game = {"a": [1, -2.5e3, True, False, None], "b": 'say "hi" \\ [x] {y}: z, w', "ü": ["\u202e", {}]}
    texts = [json.dumps(game), json.dumps(game, indent=2), json.dumps({"op": "meta", "args": {}})]
    texts += ['{"a": nope [1,2] }', "[[[ ]]] ~!@ 12 x", 'unterminated "string [', '\\\\\\"[{', ""]
    chars = '[]{}",: \\ntrufalse0123456789.-+eEx"\\ü\t'
    rng = random.Random(26)
    texts += ["".join(rng.choice(chars) for _ in range(rng.randrange(60))) for _ in range(2000)]
    for text in texts:
        assert limits.skeleton(text) == old_skeleton(text), text


# --- Gundam Skirmish: cancelling hits, memoised odds -------------------------------------------------


def old_cancel_hits(hits: tuple[int, ...], blocks: tuple[int, int, int]) -> tuple[int, ...]:
    """The loop cancel_hits was before it was unrolled (criticals first, highest level first)."""
    at_least = [blocks[0] + blocks[1] + blocks[2], blocks[1] + blocks[2], blocks[2]]
    used = [0, 0, 0]
    left = list(hits)
    for crit in (True, False):
        for level in (3, 2, 1):
            index = (level - 1) * 2 + int(crit)
            room = min(at_least[t] - used[t] for t in range(level))
            take = min(left[index], room)
            for t in range(level):
                used[t] += take
            left[index] -= take
    return tuple(left)


def test_the_unrolled_cancelling_of_hits_takes_the_same_hits_as_the_loop() -> None:
    """Every hit vector of 0-2 of each kind against every 0-2 blocks of each strength (A6)."""
    for hits in itertools.product(range(3), repeat=6):
        for blocks in itertools.product(range(3), repeat=3):
            h, b = cast(Hits, hits), cast(Blocks, blocks)
            assert cancel_hits(h, b) == old_cancel_hits(h, b), (h, b)


SHOT = Shot(
    shots=None,
    acc=4,
    crit=6,
    dam=1,
    groups=(DefendGroup("armour", 3, 4), DefendGroup("shield", 2, 5)),
    integrity_left=6,
)


def _forget() -> None:
    for memo in (shooting._POOLS, shooting._BLOCKS, shooting._SHOTS, shooting._LEFT):
        memo.clear()


def test_remembered_odds_are_those_worked_out_anew_and_each_number_of_a_shot_is_in_its_key() -> None:
    """A shot's odds from memory equal the same shot's odds computed with nothing remembered, after
    other shots were worked out; and two shots that differ in any one number never share a memo."""
    others = [
        replace(SHOT, acc=5),
        replace(SHOT, shots=2, penetration=True),
        replace(SHOT, groups=(DefendGroup("beam", 2, 5, beam=True),), shield_check=True),
        replace(SHOT, remove_hit=True, elusive=True, coating=1),
    ]
    _forget()
    fresh = [shooting.shot_odds(s) for s in (SHOT, *others)]
    for shot, first in zip((SHOT, *others), fresh, strict=True):
        _forget()
        assert shooting.shot_odds(shot) == first  # worked out alone, with nothing remembered
    for shot, first in zip((SHOT, *others), fresh, strict=True):
        assert shooting.shot_odds(shot) == first  # and from memory
    changed = {
        "shots": 3,
        "acc": 3,
        "crit": 5,
        "dam": 2,
        "penetration": True,
        "extra_shots": 1,
        "attack_rerolls": 1,
        "groups": (),
        "shield_check": True,
        "defend_rerolls": 1,
        "coating": 1,
        "movable_frame": True,
        "chart": {1: "leg"},
        "levels": (1, 0, 0, 0),
        "chart_per_crit": 2,
        "integrity_left": 2,
        "elusive": True,
        "fortunate": True,
        "remove_hit": True,
    }
    assert set(changed) == {f.name for f in fields(Shot)}  # a new number of Shot needs a line here
    for name, value in changed.items():
        assert shooting.shot_key(replace(SHOT, **{name: value})) != shooting.shot_key(SHOT), name


def old_shot_odds(shot: Shot) -> shooting.ShotOdds:
    """_shot_odds before it summed integer weights: a Fraction an outcome, a chart_dist a number of rolls."""
    from fractions import Fraction

    end = shooting.shot_chain(shot).dist()
    joint = end.map(lambda k: (k[2], k[1] * shot.chart_per_crit))
    destroyed = Fraction(0)
    for (damage, rolls), p in joint.probabilities():
        if damage >= shot.integrity_left:
            destroyed += p
        elif rolls:
            chart = shooting.chart_dist(shot.chart, shot.levels, rolls, shot.fortunate)
            destroyed += p * sum((q for lv, q in chart.probabilities() if lv[3]), Fraction(0))
    hit_any = sum((p for (h, _, _), p in end.probabilities() if h > 0), Fraction(0))
    return shooting.ShotOdds(joint.map(lambda k: k[0]), joint.map(lambda k: k[1]), destroyed, hit_any)


def test_a_shot_s_odds_in_integer_weights_are_those_summed_in_fractions() -> None:
    """_shot_odds sums integer weights and weighs the chart's rolls one number of rolls after the
    other (torso_chances); the long way summed a Fraction an outcome and a chart_dist each number of
    rolls (L1108-L1119, L1236-L1239): the same odds, for shots that destroy by damage, by the Torso,
    with Controlled Aim, Fortunate pilots, damaged charts and the other chart."""
    from fractions import Fraction

    shots = [
        SHOT,
        replace(SHOT, shots=4, crit=5, integrity_left=3),
        replace(SHOT, chart_per_crit=2, fortunate=True, levels=(1, 0, 1, 0)),
        replace(SHOT, chart=dict(shooting.OTHER_CHART), levels=(2, 1, 0, 0), integrity_left=9, dam=2),
        replace(SHOT, shots=3, acc=3, crit=4, levels=(2, 2, 1, 0), integrity_left=20, movable_frame=True),
        replace(SHOT, groups=(), integrity_left=1),
    ]
    for shot in shots:
        shooting._TORSO.clear()
        assert shooting._shot_odds(shot) == old_shot_odds(shot), shot
    for chart, levels, fortunate in itertools.product(
        (shooting.MS_CHART, shooting.OTHER_CHART), ((0, 0, 0, 0), (2, 1, 1, 0), (2, 2, 1, 0)), (False, True)
    ):
        want = [
            sum(
                (q for lv, q in shooting.chart_dist(chart, levels, n, fortunate).probabilities() if lv[3]),
                Fraction(0),
            )
            for n in range(1, 8)
        ]
        assert shooting.torso_chances(chart, levels, 7, fortunate) == want


def old_attack_dist(shot: Shot, n: int) -> Dist[Hits]:
    """attack_dist before attack_dists: each number of dice rolled die by die from the first."""
    states: dict[tuple[int, Hits], int] = {(shot.attack_rerolls, (0, 0, 0, 0, 0, 0)): 1}
    for position in range(1, n + 1):
        acc, crit = shot.needs(position)
        nxt: dict[tuple[int, Hits], int] = {}
        for (left, hits), w in states.items():
            for face in range(1, 7):
                if face >= acc or left == 0:
                    key = (left, shooting._add_kind(hits, shooting.hit_type(face, acc, crit)))
                    nxt[key] = nxt.get(key, 0) + w * 6
                    continue
                for again in range(1, 7):
                    key = (left - 1, shooting._add_kind(hits, shooting.hit_type(again, acc, crit)))
                    nxt[key] = nxt.get(key, 0) + w
        states = nxt
    out: dict[Hits, int] = {}
    for (_, hits), w in states.items():
        out[hits] = out.get(hits, 0) + w
    return Dist(out, 36**n)


def test_attack_pools_of_each_size_made_die_by_die_once_are_those_made_each_from_the_first_die() -> None:
    """attack_dists keeps the pool after each die (a D6 of shots weighs 1 to 6 dice, L2574): each the
    pool attack_dist made anew from the first die, with rerolls, Massed Fire's extra dice, a critical
    number or none; and the D6's pool summed from them as before."""
    for acc, crit, rerolls, extra in ((4, 6, 0, 0), (3, None, 1, 0), (6, 5, 2, 1), (4, 6, 1, 2)):
        shot = replace(SHOT, acc=acc, crit=crit, attack_rerolls=rerolls, extra_shots=extra)
        dists = shooting.attack_dists(shot, 6 + extra)
        for n in range(0, 7 + extra):
            want = old_attack_dist(shot, n)
            assert shooting.attack_dist(shot, n) == want
            if n:
                assert dists[n - 1] == want
        top, summed = 6 + extra, {}
        for n in range(1, 7):
            for k, w in old_attack_dist(shot, n + extra).weights.items():
                summed[k] = summed.get(k, 0) + w * 36 ** (top - n - extra)
        assert shooting._pool_hits(shot) == Dist(summed, 6 * 36**top)


# --- remembered replies (core.api.handle) ------------------------------------------------------------


def _without_ms(reply: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(reply)
    out.pop("ms", None)
    return out


def test_a_repeated_request_is_answered_as_the_first_time_and_only_a_repeatable_one() -> None:
    request = json.dumps({"op": "dice.odds", "args": {"attack": {"dice": 5, "success_on": 3, "crit_on": 6}}})
    answered.forget()
    first = api.handle(request)
    assert request in answered.ANSWERED
    again = api.handle(request)
    assert _without_ms(again) == _without_ms(first) and json.loads(again)["ms"] >= 0
    answered.forget()
    assert _without_ms(api.handle(request)) == _without_ms(first)  # the long way: the same
    # A roll is never repeated from memory, nor a refusal.
    roll = json.dumps({"op": "dice.roll", "args": {"attack": {"dice": 5, "success_on": 3}}})
    refused = json.dumps({"op": "dice.odds", "args": {"attack": {"dice": 2, "success_on": 7}}})
    api.handle(roll)
    api.handle(refused)
    assert roll not in answered.ANSWERED and refused not in answered.ANSWERED


def test_remembered_replies_stay_within_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """The oldest go first once the bound is reached, and the count of what is held stays true."""
    monkeypatch.setattr(answered, "MOST_CHARS", 6_000)
    answered.forget()
    requests = [
        json.dumps({"op": "dice.odds", "args": {"attack": {"dice": 1 + n % 20, "success_on": 2 + n % 5}}})
        for n in range(40)
    ]
    replies = [api.handle(r) for r in requests]
    assert answered.held() == sum(len(k) + len(v) for k, v in answered.ANSWERED.items()) <= 6_000
    assert requests[-1] in answered.ANSWERED and requests[0] not in answered.ANSWERED
    assert _without_ms(api.handle(requests[0])) == _without_ms(replies[0])  # worked out anew
    answered.forget()


# --- a changed game is re-validated without its profiles, unless a change reached one ------------


def test_a_change_that_reaches_a_profile_is_told_from_one_that_does_not() -> None:
    unit = {"key": "u1", "name": "A", "profile": {"x": 1}, "state": {}}
    assert not _reaches_profiles([Change(path=["sides", 0, "units", 0, "state", "damage"], value=2)])
    assert not _reaches_profiles([Change(path=["state", "extra"], value={"a": [1, {"b": 2}]})])
    assert _reaches_profiles([Change(path=["sides", 0, "units", 0, "profile", "x"], value=2)])
    assert _reaches_profiles([Change(path=["sides", 0, "units"], value=[unit])])
    assert _reaches_profiles([Change(path=["sides", 0], value={"name": "A", "units": [unit]})])


@pytest.mark.parametrize("path", [["sides", 0, "units", 0, "profile"], ["sides", 0, "units"]])
def test_a_profile_a_change_puts_in_a_game_is_still_bounded(path: list[Any]) -> None:
    """A manual change that writes a profile too large to be one is refused, as before."""
    profile = api.call("system.describe", {"system": "gunframe"})["result"]["catalogue"][0]["profile"]
    squad = {"id": "s", "name": "S", "system": "gunframe", "units": [{"key": "u1", "profile": profile}]}
    sides = [{"name": "Red", "squad": squad}, {"name": "Blue", "squad": squad}]
    game = api.call("game.new", {"id": "g", "name": "G", "sides": sides})["result"]
    deep: Any = 1
    for _ in range(20):
        deep = {"d": deep}
    huge = {**profile, "notes": deep}
    unit = {**game["sides"][0]["units"][0], "profile": huge}
    value = huge if path[-1] == "profile" else [unit]
    reply = api.call("game.adjust", {"game": game, "changes": [{"path": path, "value": value}]})
    assert not reply["ok"] and "too large to be one" in reply["error"]["message"], reply


def test_copied_json_is_a_deep_copy() -> None:
    data = {"a": [1, {"b": [2, 3]}, "s", None, 1.5, True], "c": {"d": {}}}
    out = deep_copy(data)
    assert out == data == copy.deepcopy(data)
    out["a"][1]["b"].append(4)
    out["c"]["d"]["e"] = 1
    assert data == {"a": [1, {"b": [2, 3]}, "s", None, 1.5, True], "c": {"d": {}}}


# --- odds tables and MechaStellar's clash ------------------------------------------------------------


def old_table(dist: Dist[int]) -> dict[str, Any]:
    """core.pool.table before issue 26: one validated Row each, every ratio reduced."""
    from fractions import Fraction

    def ratio(w: int, t: int) -> str:
        f = Fraction(w, t)
        return f"{f.numerator}/{f.denominator}"

    top = max(k for k, w in dist.weights.items() if w)
    exact = [dist.weights.get(k, 0) for k in range(top + 1)]
    rows, tail = [], sum(exact)
    for k, w in enumerate(exact):
        rows.append(
            Row(value=k, exactly=ratio(w, dist.total), at_least=ratio(tail, dist.total),
                p_exactly=w / dist.total, p_at_least=tail / dist.total)
        )  # fmt: skip
        tail -= w
    mean = Fraction(sum(k * w for k, w in dist.weights.items()), dist.total)
    return Table(rows=rows, mean=f"{mean.numerator}/{mean.denominator}", p_mean=float(mean)).model_dump()


def test_an_odds_table_reads_as_before_with_its_many_impossible_rows() -> None:
    dists = [
        Dist.die(6),
        Dist.die(6).map(lambda f: 100 * f),  # damage in hundreds: most rows impossible
        Dist({0: 3, 7: 0, 250: 5, 251: 1}, 9),
        Dist.constant(0),
        Dist.die(10).repeat(3),
    ]
    for dist in dists:
        want = old_table(dist)
        if max(dist.weights) > DENSE_UP_TO:  # beyond 60, only the rows that can happen (issue 26)
            want["rows"] = [r for r in want["rows"] if r["p_exactly"] > 0]
        assert table(dist).model_dump() == want
        assert table(dist).model_dump() == want  # and remembered
    # A table of another distribution is its own, even where the weights hold the same outcomes.
    assert table(Dist({0: 1, 5: 1}, 2)).model_dump() == old_table(Dist({0: 1, 5: 1}, 2))
    assert table(Dist({0: 1, 5: 3}, 4)).model_dump() == old_table(Dist({0: 1, 5: 3}, 4))


def test_a_pool_and_a_clash_strike_remembered_give_what_they_give_worked_out_anew() -> None:
    from core.systems.mechastellar import melee

    evade = FacePool(dice=3, sides=10, values=(2, 1, 1, 0, 0, 0, 0, 0, 0, 0), reroll_faces=(4,))
    steps._FACE_DISTS.clear()
    first = evade.dist()
    steps._FACE_DISTS.clear()
    assert evade.die_dist().repeat(3) == first == evade.dist() == evade.dist()
    sword = melee.Weapon(name="Sword", kind="melee", range=0, shots=0, damage=300, pen=2)
    strike = melee.Strike(
        attack=FacePool(dice=4, sides=10, values=(0,) * 5 + (1,) * 5),
        flat=1,
        defense=FacePool(dice=2, sides=10, values=(0,) * 6 + (1,) * 4),
        blocks=1,
        weapon=sword,
        saves_at=4,
        left=900,
    )
    options = melee.MsOptions()
    melee._STRIKES.clear()
    fresh = strike._dist()
    assert strike.dist(options) == fresh and strike.dist(options) is strike.dist(options)
    # What the key leaves out does not count: the damage and the target's damage left.
    heavier = replace(strike, weapon=sword.model_copy(update={"damage": 500}), left=1)
    assert heavier._dist() == fresh
    # What it holds does: no PEN, another kind, saves rerolled, other hits, blocks or saves.
    for other in (
        replace(strike, weapon=sword.model_copy(update={"pen": 0})),
        replace(strike, weapon=sword.model_copy(update={"kind": "cc"})),
        replace(strike, reroll_saves=True),
        replace(strike, flat=0),
        replace(strike, blocks=0),
        replace(strike, saves_at=6),
    ):
        assert other.dist(options) == other._dist() != fresh


def test_the_best_split_and_the_mean_damage_are_those_of_every_split_worked_out_anew() -> None:
    """best_split (L183-L214, L519) makes the strikes once and moves dice from defense to attack; the
    long way made both strikes anew for each split and summed the mean damage in Fractions."""
    from fractions import Fraction

    from test_mechastellar import game_of, unit

    from core.systems.mechastellar import melee

    def old_mean(strike: melee.Strike, options: melee.MsOptions) -> Fraction:
        return sum(
            (
                Fraction(strike.damage(a, b, options)) * c
                for (a, b), c in strike.dist(options).probabilities()
            ),
            Fraction(0),
        )

    def old_best(game: Any, inp: melee.Clash, pool: int) -> int:
        scores = []
        for k in range(pool + 1):
            strike, counter, _, _, options = melee.pools(game, inp.model_copy(update={"attack_dice": k}))
            assert melee.expected_damage(strike, options) == old_mean(strike, options)
            scores.append((old_mean(strike, options) - old_mean(counter, options), k))
        return max(scores)[1]

    g = game_of([unit("blue_djinn")], [unit("white_asura")])
    seen = set()
    for one_each, defender_attack, advantage in itertools.product(
        (False, True), (None, 0, 3), ("none", "blindside")
    ):
        g.options["attacker_one_each"] = one_each
        inp = melee.Clash(
            attacker="0/a0", target="1/b0", defender_attack=defender_attack, advantage=advantage
        )
        pool = melee.pools(g, inp)[2]
        best = melee.best_split(g, inp, pool)
        assert best == old_best(g, inp, pool)
        seen.add(best)
    assert len(seen) > 1  # the cases do not all agree on one split


def test_a_clash_strike_in_integer_weights_is_the_one_summed_in_fractions() -> None:
    """Strike._dist (L199-L208) weighs each number of landed hits once, in integers; the long way
    summed a Fraction for every (hits, blocks, saves) and reduced: the very same Dist."""
    from fractions import Fraction

    from core.systems.mechastellar import melee
    from core.systems.mechastellar.shooting import _exact

    def old_dist(strike: melee.Strike) -> Dist[tuple[int, int]]:
        out: dict[tuple[int, int], Fraction] = {}
        for hits, c1 in strike.attack.dist().probabilities():
            for blocked, c2 in strike.defense.dist().probabilities():
                landed = strike.landed(hits, blocked)
                for failed, c3 in strike.save_pool(landed).dist().probabilities():
                    out[(landed, failed)] = out.get((landed, failed), Fraction(0)) + c1 * c2 * c3
        return _exact(out)

    sword = melee.Weapon(name="Sword", kind="melee", range=0, shots=0, damage=300, pen=2)
    hits = (0,) * 4 + (1,) * 5 + (2,)
    base = melee.Strike(
        attack=FacePool(dice=5, sides=10, values=hits, reroll_faces=(1, 2)),
        flat=1,
        defense=FacePool(dice=3, sides=10, values=(0,) * 6 + (1,) * 4),
        blocks=1,
        weapon=sword,
        saves_at=4,
        left=900,
    )
    for strike in (
        base,
        replace(base, reroll_saves=True),
        replace(base, flat=0, blocks=0, saves_at=7),
        replace(base, weapon=sword.model_copy(update={"pen": 0})),
        replace(base, defense=FacePool(dice=0, sides=10, values=(0,) * 10)),
    ):
        assert strike._dist() == old_dist(strike)
    # The remembered mean damage is told apart by what the key of the dist leaves out: the damage of
    # a hit, and whether a failed save replaces it (ambiguity's option).
    heavier = replace(base, weapon=sword.model_copy(update={"damage": 500}))
    for strike in (base, heavier, base):
        for replaces in (False, True):
            options = melee.MsOptions(save_replaces_damage=replaces)
            d = old_dist(strike)
            want = Fraction(sum(strike.damage(a, b, options) * w for (a, b), w in d.weights.items()), d.total)
            assert melee.expected_damage(strike, options) == want


def _strike_mean(strike: Any, options: Any) -> Any:
    """The long way: the mean damage over the strike's whole (landed, failed saves) distribution."""
    from fractions import Fraction

    d = strike.dist(options)  # remembered: the same Dist as strike._dist() (tested above)
    return Fraction(sum(strike.damage(a, b, options) * w for (a, b), w in d.weights.items()), d.total)


def test_the_mean_damage_from_the_hits_that_land_is_the_mean_of_the_whole_strike() -> None:
    """expected_damage (L199-L214) sums the hits that land over the two pools' cumulative weights and
    the saves as n alike dice; the long way weighs every (hits, blocks, saves).  Strikes drawn at
    random over every number a strike holds (a pool with a face below 0 takes the pair-by-pair way),
    with both readings of save_replaces_damage."""
    from core.systems.mechastellar import melee

    rng = random.Random(2604)
    hit = (0,) * 4 + (1,) * 5 + (2,)
    bold = (0,) * 3 + (1,) * 6 + (2,)
    block = (0,) * 4 + (1,) * 6
    master = (0,) * 4 + (1,) * 5 + (2,)
    odd = (-1,) + (0,) * 5 + (1,) * 4  # no clash die reads so: the fallback
    strikes = []
    for _ in range(40):
        weapon = melee.Weapon(
            name="W",
            kind=rng.choice(["melee", "melee", "cc"]),
            range=0,
            shots=0,
            damage=rng.choice([100, 300, 500]),
            pen=rng.randrange(0, 5),
        )
        strikes.append(
            melee.Strike(
                attack=FacePool(
                    dice=rng.randrange(0, 9),
                    sides=10,
                    values=rng.choice([hit, bold]),
                    reroll_faces=rng.choice([(), (1,), (1, 2, 3)]),
                ),
                flat=rng.randrange(0, 5),
                defense=FacePool(dice=rng.randrange(0, 9), sides=10, values=rng.choice([block, master, odd])),
                blocks=rng.randrange(0, 4),
                weapon=weapon,
                saves_at=rng.randrange(-1, 12),
                left=900,
                reroll_saves=rng.random() < 0.3,
            )
        )
    for strike in strikes:
        for replaces in (False, True):
            options = melee.MsOptions(save_replaces_damage=replaces)
            melee._MEANS.clear()
            assert melee.expected_damage(strike, options) == _strike_mean(strike, options), strike


def test_the_best_split_from_any_split_on_the_sheet_is_the_one_of_every_split_worked_out_anew() -> None:
    """clash_odds asks split_of with the sheet's own strikes (``moved`` dice on the attack, L519);
    the long way made both strikes anew for each split.  Worked out with nothing remembered, then
    from memory, for each split on the sheet."""
    from test_mechastellar import game_of, unit

    from core.systems.mechastellar import melee

    def old_best(game: Any, inp: melee.Clash, pool: int) -> int:
        scores = []
        for k in range(pool + 1):
            strike, counter, _, _, options = melee.pools(game, inp.model_copy(update={"attack_dice": k}))
            scores.append((_strike_mean(strike, options) - _strike_mean(counter, options), k))
        return max(scores)[1]

    def armed(damage: int, pen: int) -> dict[str, Any]:
        sword = {**unit("blue_djinn")["weapons"][0], "damage": damage, "pen": pen}
        return unit("blue_djinn", weapons=[sword])

    games = [
        game_of([unit("blue_djinn")], [unit("white_asura")]),  # all or all but one on the attack
        game_of([armed(300, 2)], [armed(1000, 4)]),  # a defender hitting hard: 0, 6, 8 attack
    ]
    seen = set()
    for g, defender_attack, replaces in itertools.product(games, (None, 3, 7), (0, 1)):
        g.options["save_replaces_damage"] = bool(replaces)
        inp = melee.Clash(attacker="0/a0", target="1/b0", defender_attack=defender_attack)
        pool = melee.pools(g, inp)[2]
        want = old_best(g, inp, pool)
        seen.add(want)
        for moved in (None, 0, 4, pool):
            melee._SPLITS.clear()
            for _ in range(2):  # nothing remembered, then remembered
                strike, counter, _, _, options = melee.pools(g, inp.model_copy(update={"attack_dice": moved}))
                at = melee.even_split(pool) if moved is None else moved
                assert melee.split_of(strike, counter, at, pool, options) == want, (inp, moved)
        odds = melee.clash_odds(g, inp.model_copy(update={"attack_dice": 4}))
        assert f": {want} attack, {pool - want} defense" in odds.summary
    assert len(seen) >= 4  # splits in the middle too, where moving dice the wrong way shows


def test_a_die_remembered_and_a_pool_of_plain_numbers_sum_as_before() -> None:
    """FacePool.die_dist remembered by its die gives the die worked out anew; Dist._multinomial adds
    plain numbers directly, the very weights (and order) of adding them as outcome vectors."""
    hit = (0,) * 4 + (1,) * 5 + (2,)
    for values, again in itertools.product(
        (hit, (0,) * 6 + (1,) * 4, (2, 1, 1, 0, 0, 0, 0, 0, 0, 0)), ((), (1, 2))
    ):
        pool = FacePool(dice=3, sides=10, values=values, reroll_faces=again)
        steps._DIE_DISTS.clear()
        assert pool.die_dist() == pool._die_dist() == pool.die_dist()
        die = pool._die_dist()
        vector = die.map(lambda v: (v,))
        for n in (1, 2, 5, 12):
            plain, vectors = die.repeat(n), vector.repeat(n)
            assert list(plain.weights.items()) == [(k[0], w) for k, w in vectors.weights.items()]
            assert plain.total == vectors.total


# --- the game screen's greyed actions (core.game.gated_actions) ----------------------------------


def test_the_actions_greyed_for_each_unit_are_those_each_action_s_own_gates_give() -> None:
    """``gated_actions`` asks each requirement of each unit once for the whole game (a memo shared by
    every action, ``core.game._action_gate``); the long way asks ``gates(...).action`` of every unit
    for every action anew. Every playable system's catalogue, its units fresh, hurt and destroyed."""
    from core.game import Game, gated_actions
    from core.systems import SYSTEMS, implementation
    from core.systems.base import role_fields

    compared = 0
    for info in SYSTEMS:
        if info.status != "playable":
            continue
        game = _sample_game(info.id)
        hurt = copy.deepcopy(game)
        hurt["sides"][0]["units"][0]["state"]["damage"] = 1
        hurt["sides"][1]["units"][1]["state"]["destroyed"] = True
        for raw in (game, hurt):
            parsed = Game.model_validate(raw)
            system = implementation(parsed.system)
            long: dict[str, dict[str, str]] = {}
            for spec in system.actions.values():
                actor = role_fields(spec.input)["actor"] if spec.needs else None
                if actor is None:
                    continue
                for s, side in enumerate(parsed.sides):
                    for unit in side.units:
                        ref = f"{s}/{unit.key}"
                        why = system.gates(parsed, spec, {actor: ref}).action
                        if why:
                            long.setdefault(ref, {})[spec.name] = why
            assert gated_actions(parsed) == long, info.id
            compared += len(long)
    assert compared, "some unit somewhere lacks something for some action"


# --- each profile read once a pure request (core.game.profile_as) --------------------------------


def _sample_game(system: str) -> dict[str, Any]:
    """A game of the system's catalogue, three units a side (one unit three times when a side must be
    of one faction)."""
    profiles = [c["profile"] for c in api.call("system.describe", {"system": system})["result"]["catalogue"]]

    def new(red: list[Any], blue: list[Any]) -> dict[str, Any]:
        squads = [
            {
                "id": f"s{n}",
                "name": f"S{n}",
                "system": system,
                "units": [{"key": f"u{k}", "profile": p} for k, p in enumerate(ps)],
            }
            for n, ps in ((1, red), (2, blue))
        ]
        sides = [{"name": q["name"], "squad": q} for q in squads]
        return dict(api.call("game.new", {"id": "g", "name": "memo", "sides": sides}))

    reply = new(profiles[:3], profiles[-3:])
    if not reply["ok"]:
        reply = new([profiles[0]] * 3, [profiles[-1]] * 3)
    return cast(dict[str, Any], reply["result"])


def test_a_pure_request_reads_each_profile_once_and_answers_as_when_it_read_it_each_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Within a pure request (core.api: the operations answered from memory too) each unit's profile
    is read as its system's model once; every playable system's views, and each action's gates, picks
    and odds from the first unit at the other side's second, answer exactly as when every read
    validated the profile anew (the long way: no scope). Refusals too."""
    import contextlib

    from core import game as games
    from core.game import GameUnit, profile_as
    from core.systems import SYSTEMS, implementation
    from core.systems.base import role_fields

    unit = GameUnit.model_validate(
        {"key": "u", "name": "U", "profile": {"name": "x"}, "state": {"max_damage": 1}}
    )
    twin = GameUnit.model_validate(
        {"key": "v", "name": "V", "profile": {"name": "x"}, "state": {"max_damage": 1}}
    )

    class Named(BaseModel):
        name: str

    assert profile_as(Named, unit) is not profile_as(Named, unit)  # no scope: read each time
    with games.profiles_read_once():
        first = profile_as(Named, unit)
        assert profile_as(Named, unit) is first and profile_as(Named, twin) is not first
    assert profile_as(Named, unit) is not first

    requests: list[tuple[str, dict[str, Any]]] = []
    for info in SYSTEMS:
        if info.status != "playable":
            continue
        game = _sample_game(info.id)
        requests.append(("game.views", {"game": game, "viewer": None}))
        for spec in implementation(info.id).actions.values():
            roles = role_fields(spec.input)
            inp = {k: v for k, v in (("actor", "0/u0"), ("target", "1/u1")) if roles.get(k)}
            inp = {roles[k]: v for k, v in inp.items()}
            requests.append(("game.gates", {"game": game, "action": spec.name, "input": inp}))
            if roles.get("actor"):
                requests.append(("game.picks", {"game": game, "action": spec.name, "actor": "0/u0"}))
            if spec.odds is not None:
                requests.append(
                    ("game.odds", {"game": game, "action": spec.name, "input": inp, "viewer": None})
                )

    def answers() -> list[Any]:
        out = []
        for op, args in requests:
            reply = api.call(op, args)
            reply.pop("ms", None)
            out.append(reply)
        return out

    once = answers()
    monkeypatch.setattr(games, "profiles_read_once", contextlib.nullcontext)
    assert answers() == once
    assert sum(r["ok"] for r in once) > 40 and any("odds" in op for op, _ in requests)
