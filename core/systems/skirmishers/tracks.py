"""The three unit-card tracks and the card walk that marks damage on them.

A card's HP row is a row of cells crossed from the left: a cell is clear, half-crossed
(``\\``, bludgeoning) or fully crossed (``X``, lethal).  The column just right of the
right-most fully crossed cell gives the unit's current HP, and under it its AP and its
target-number modifier (L123-L127; power armor L843-L853 with digest AMB-10; vehicles
L644-L648).  Marks are kept as a tuple of ints: 0 clear, 1 half, 2 full.

>>> T = TRACKS["trooper"]
>>> cells = (0, 2, 0, 2, 2, 1, 0, 0, 0, 0, 0)  # 9, 7 and 6 crossed, 5 half-crossed (L123)
>>> T.hp_label(T.column(cells))
'5'
>>> T.max_ap(T.column(cells))  # a regular trooper at 5 HP has 7 AP (L125)
7
>>> T.mod(T.column(cells))  # and adds +2 to its target numbers (L127)
2
"""

from __future__ import annotations

from dataclasses import dataclass, field

CLEAR, HALF, FULL = 0, 1, 2
#: The "0" of an AP row printed as an absolute 0, not an offset (digest AMB-3).
ZERO = None


@dataclass(frozen=True)
class Track:
    """One card's HP row: its cells' labels, the AP and modifier under each column (the end column
    last: DEAD or DX) and the starred cells (power armor, L845)."""

    kind: str
    labels: tuple[str, ...]
    end: str
    ap: tuple[int | None, ...]
    mods: tuple[int | None, ...]
    top: int = 10  # the label of the first cell a roll can name
    stars: frozenset[int] = field(default_factory=frozenset)
    base_ap: int = 8
    modes: tuple[str, ...] = ()
    ref: str = ""

    @property
    def cells(self) -> int:
        return len(self.labels)

    def start(self, roll: int) -> int:
        """The cell a 2D6 roll names: the cell labelled with the roll; on a trooper's card, whose
        labels stop at 10, an 11 or 12 starts at 10 (digest AMB-5, as power armor reads, L843)."""
        return max(0, self.top - min(roll, self.top))

    def column(self, cells: tuple[int, ...]) -> int:
        """The current column: right of the right-most fully crossed cell (L123, L644, AMB-10)."""
        full = [i for i, c in enumerate(cells) if c == FULL]
        return full[-1] + 1 if full else 0

    def hp_label(self, col: int) -> str:
        if col >= self.cells:
            return self.end
        return self.labels[col] or f"cell {col + 1}"

    def max_ap(self, col: int, bonus: int = 0) -> int:
        """AP at this column: 8 plus the printed offset and ``bonus`` (experience, armor, jet pack),
        never below 0; the printed 0 column and the end column are 0 (L97, L125, L207, AMB-3)."""
        if col >= len(self.ap):
            return 0
        off = self.ap[col]
        return 0 if off is None else max(0, self.base_ap + off + bonus)

    def mod(self, col: int) -> int | None:
        """The target-number modifier at this column (None: the unit cannot act)."""
        return self.mods[col] if col < len(self.mods) else None

    def dead(self, cells: tuple[int, ...]) -> bool:
        return self.column(cells) >= self.cells


def _trooper() -> Track:
    labels = tuple(str(n) for n in range(10, -1, -1))
    return Track(
        kind="trooper",
        labels=labels,
        end="DEAD",
        ap=(0, 0, 0, 0, -1, -1, -2, -2, -3, -4, ZERO, ZERO),
        mods=(0, 0, 0, 1, 1, 2, 2, 2, 3, 3, None, None),
        top=10,
        ref="L94-L99, L123-L127",
    )


def _power_armor() -> Track:
    labels = tuple(str(n) for n in range(12, 1, -1)) + ("",) * 7
    return Track(
        kind="power_armor",
        labels=labels,
        end="DEAD",
        ap=(6, 6, 5, 5, 4, 4, 3, 2, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, ZERO),
        mods=(0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, None),
        top=12,
        stars=frozenset({7, 12, 15}),
        ref="L817-L824, L839-L853",
    )


def _vehicle() -> Track:
    labels = tuple(str(n) for n in range(12, -1, -1))
    return Track(
        kind="vehicle",
        labels=labels,
        end="DX",
        ap=(ZERO,) * 14,
        mods=(0, 0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, None, None),
        top=12,
        modes=("max",) * 7 + ("cruise",) * 3 + ("min",) * 2 + ("none", "none"),
        ref="L617-L623, L644-L648",
    )


TRACKS: dict[str, Track] = {"trooper": _trooper(), "power_armor": _power_armor(), "vehicle": _vehicle()}


@dataclass(frozen=True)
class Marked:
    """A card after one hit: its cells and armor, and what the walk did."""

    cells: tuple[int, ...]
    armor: int
    absorbed: int = 0
    crossed: tuple[int, ...] = ()
    halved: tuple[int, ...] = ()
    blunt_ignored: int = 0
    guard: tuple[int, ...] = ()


def needs_roll(track: Track, armor: int, lethal: int, blunt: int, armor_stops_blunt: bool = True) -> bool:
    """Whether a hit needs its 2D6 initial-cell roll: lethal damage left after armor, or bludgeoning
    landing on a trooper's HP row (L306-L310, L843, L650)."""
    left = max(0, lethal - armor)
    if left:
        return True
    if track.kind != "trooper" or not blunt:
        return False
    return not (armor_stops_blunt and armor - min(armor, lethal) > 0)


def walk(
    track: Track,
    cells: tuple[int, ...],
    armor: int,
    lethal: int,
    blunt: int,
    roll: int,
    guard: tuple[int, ...] = (),
) -> Marked:
    """One hit marked on a card, as the book's card walk goes (L308-L310, L843, L650, L742).

    Armor cells take lethal damage first; the rest fully crosses cells from the one the roll names,
    skipping cells already fully crossed; bludgeoning then half-crosses the cells after the last
    one lethal damage crossed (or from the rolled cell), finishing half-crossed ones, unless body
    armor is left (L198, AMB-7, AMB-8).  Power armor and vehicles never take bludgeoning on the row
    (L841, L644).  Damage past the last cell is lost: the unit is dead (AMB-6).

    >>> T = TRACKS["trooper"]
    >>> fresh = (0,) * 11
    >>> walk(T, fresh, 0, 4, 0, 7).cells  # a rifle hit on cell 7: 7, 6, 5 and 4 crossed
    (0, 0, 0, 2, 2, 2, 2, 0, 0, 0, 0)
    >>> walk(T, fresh, 0, 1, 4, 9).cells  # a club: 1X on 9, then 4 half-marks from 8
    (0, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0)
    >>> walk(T, fresh, 4, 4, 0, 7).armor  # standard body armor takes a rifle hit whole
    0

    Under advanced body armor (L382-L393) ``guard`` is the armor row: a lethal point reaching a
    column whose armor cell is not fully crossed half-crosses, then crosses, that armor cell instead
    of the HP cell and the walk goes on to the next column (digest AMB-66); a bludgeoning point on
    such a column is ignored there (AMB-71).

    >>> guard = (-1, -1, 0, 0, 0, 0, -1, -1, -1, -1, -1)  # standard armor over columns 8 to 5
    >>> m = walk(T, fresh, 0, 4, 0, 9, guard)  # a rifle hit on 9: 9 crossed, armor marked at 8, 7, 6
    >>> m.cells, m.guard
    ((0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0), (-1, -1, 1, 1, 1, 0, -1, -1, -1, -1, -1))
    """
    absorbed = min(armor, lethal)
    armor -= absorbed
    left = lethal - absorbed
    out = list(cells)
    n = len(out)
    start = track.start(roll)
    pos = start
    crossed: list[int] = []
    rows = list(guard)
    last = -1
    for _ in range(left):
        while pos < n and out[pos] == FULL:
            pos += 1
        if pos >= n:
            break
        if rows and rows[pos] in (CLEAR, HALF):
            rows[pos] += 1  # the armor cell takes the point (L384, AMB-66)
        else:
            out[pos] = FULL
            crossed.append(pos)
        last = pos
        pos += 1
    halved: list[int] = []
    ignored = 0
    if blunt and track.kind == "trooper" and armor == 0:
        pos = last + 1 if last >= 0 else start
        for _ in range(blunt):
            while pos < n and out[pos] == FULL:
                pos += 1
            if pos >= n:
                break
            if rows and rows[pos] in (CLEAR, HALF):
                ignored += 1  # a protected column ignores bludgeoning (L384, AMB-71)
            else:
                out[pos] += 1
                halved.append(pos)
            pos += 1
    elif blunt:
        ignored = blunt
    return Marked(
        cells=tuple(out),
        armor=armor,
        absorbed=absorbed,
        crossed=tuple(crossed),
        halved=tuple(halved),
        blunt_ignored=ignored,
        guard=tuple(rows),
    )
