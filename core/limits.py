"""Limits checked before any work: the shape of a JSON text, measured without parsing it.

Hostile input (a share link anyone can make, a damaged save) must cost the engine
little and must never reach a parser that can exhaust the stack: 3,000 nested
brackets inflate from a 42-character link and crash WebAssembly Python outright.
So a JSON text is measured first with regular expressions and C-level loops (no
recursion, no objects built): its length, how deeply it nests, how many arrays
and objects it opens and how many values it holds.  Only a text within the
limits is handed to :func:`json.loads`, which also refuses ``NaN`` and
``Infinity`` (a reply holding them would not be JSON for the browser).

>>> measure('{"a": [1, 2, {"b": "[[["}]}')
Shape(chars=27, depth=3, containers=3, values=5)
>>> loads('[[[]]]', Limits(max_depth=2)) is None
Traceback (most recent call last):
...
core.limits.TooBig: it nests 3 levels deep; the most is 2
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

#: A JSON string (escapes included); what it holds is not structure.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
#: The longest message the seam returns: it never echoes a long input back.
MAX_MESSAGE = 200


class TooBig(ValueError):
    """A text outside the limits; the message says which one, in a few words."""


@dataclass(frozen=True)
class Limits:
    max_chars: int = 8_000_000
    max_depth: int = 64
    max_containers: int = 400_000
    max_values: int = 2_000_000


@dataclass(frozen=True)
class Shape:
    chars: int
    depth: int
    containers: int
    values: int


def measure(text: str) -> Shape:
    """Length, deepest nesting, arrays and objects opened, and values (an upper bound) of a JSON text."""
    bare = _STRING.sub('""', text)
    brackets = _NOT_BRACKET.sub("", bare)
    containers = brackets.count("[") + brackets.count("{")
    depth = max(accumulate(map(_STEP.__getitem__, brackets)), default=0)
    # every value but the first is preceded by a comma; key/value pairs count twice
    values = bare.count(",") + bare.count(":") + (1 if bare.strip() else 0)
    return Shape(chars=len(text), depth=max(depth, 0), containers=containers, values=values)


def check(text: str, limits: Limits) -> None:
    """Raise :class:`TooBig` if ``text`` is outside ``limits`` (cheap: no parsing)."""
    if len(text) > limits.max_chars:
        raise TooBig(f"it is {len(text):,} characters long; the most is {limits.max_chars:,}")
    shape = measure(text)
    if shape.depth > limits.max_depth:
        raise TooBig(f"it nests {shape.depth:,} levels deep; the most is {limits.max_depth}")
    if shape.containers > limits.max_containers:
        raise TooBig(f"it holds {shape.containers:,} lists and objects; the most is {limits.max_containers:,}")
    if shape.values > limits.max_values:
        raise TooBig(f"it holds {shape.values:,} values; the most is {limits.max_values:,}")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def loads(text: str, limits: Limits) -> Any:
    """``json.loads`` of a text within ``limits``; :class:`TooBig` or ``ValueError`` otherwise."""
    check(text, limits)
    return json.loads(text, parse_constant=_no_constant)


def short(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- right-to-left controls in names ---------------------------------------------------------

_EMBED = frozenset("\u202a\u202b\u202d\u202e")  # LRE RLE LRO RLO, each closed by PDF
_ISOLATE = frozenset("\u2066\u2067\u2068")  # LRI RLI FSI, each closed by PDI
_PDF, _PDI = "\u202c", "\u2069"
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def balance_bidi(text: str) -> str:
    """``text`` with every direction control it opens closed at its end, stray closers dropped.

    A name holding a right-to-left override would otherwise reverse whatever the app
    writes after it on the same line; balanced, it only turns itself around.

    >>> balance_bidi("abc\u202e") == "abc\u202e\u202c"
    True
    >>> balance_bidi("\u202c\u2069x") == "x"
    True
    """
    if not _BIDI.search(text):
        return text
    out: list[str] = []
    stack: list[str] = []
    for ch in text:
        if ch in _EMBED or ch in _ISOLATE:
            stack.append(ch)
        elif ch == _PDF:
            if not stack or stack[-1] not in _EMBED:
                continue
            stack.pop()
        elif ch == _PDI:
            if not any(c in _ISOLATE for c in stack):
                continue
            while stack.pop() not in _ISOLATE:
                pass
        out.append(ch)
    out.extend(_PDI if c in _ISOLATE else _PDF for c in reversed(stack))
    return "".join(out)
