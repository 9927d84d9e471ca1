"""Remembered results of pure work, in bounded memos.

The odds of a sheet are asked again for each of its choice buttons, and most of the work under them
(a pool's distribution, a strike's, a table) is the same from one ask to the next.  Each such result
is kept in a plain dict, its module's own, under a key of every number it depends on; a memo that
reaches its bound is emptied and fills again, so a long game never holds more than the bound.
Results are never changed in place: whoever reads one shares it.

>>> store: dict[tuple[int, int], int] = {}
>>> remembered(store, (2, 3), lambda: 2**3, most=2)
8
>>> remembered(store, (2, 3), lambda: 0, most=2)  # the work is not done again
8
>>> remembered(store, (3, 2), lambda: 3**2, most=2), len(store)
(9, 2)
>>> remembered(store, (5, 1), lambda: 5, most=2), len(store)  # at its bound: emptied first
(5, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def remembered(store: dict[K, V], key: K, work: Callable[[], V], most: int) -> V:
    """``work()``, or what it gave for ``key`` before; ``store`` holds at most ``most`` results
    (emptied when full). ``work`` never gives ``None``."""
    out = store.get(key)
    if out is None:
        if len(store) >= most:
            store.clear()
        out = store[key] = work()
    return out
