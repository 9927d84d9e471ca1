"""Limits checked before any work: the shape of a JSON text, measured without parsing it.

Hostile input (a share link anyone can make, a damaged save) must cost the engine
little and must never reach a parser that can exhaust the stack: 3,000 nested
brackets inflate from a 42-character link and crash WebAssembly Python outright.
So a JSON text is measured first with regular expressions and C-level loops (no
recursion, no objects built): its length, how deeply it nests, how many arrays
and objects it opens and how many values it holds.  Only a text within the
limits is handed to :func:`json.loads`, which also refuses ``NaN`` and
``Infinity`` (a reply holding them would not be JSON for the browser).

>>> loads('[[[]]]', Limits(max_depth=2)) is None
Traceback (most recent call last):
...
core.limits.TooBig: it nests more than 2 levels deep
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

#: Everything but what gives a JSON text its structure (and the quotes around strings).
_NOT_STRUCTURE = re.compile(r'[^\[\]{}",:]+')
#: What valid JSON holds outside its strings besides its structure, and the structure itself.
_NUMBERS_WORDS_SPACES = str.maketrans("", "", "0123456789+-.eE \t\r\ntruefalsn")
_STRUCTURE = str.maketrans("", "", "[]{},:")
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


def skeleton(text: str) -> str:
    """The brackets, commas and colons of a JSON text, outside its strings.

    Only C-level passes over the text: escapes are dropped, then every other
    character, then what lies between quotes (the strings).

    >>> skeleton('{"a": [1, 2, {"b": "[[["}]}')
    '{:[,,{:}]}'
    """
    bare = text.replace("\\\\", "").replace('\\"', "") if "\\" in text else text
    # What lies outside the strings first (the same quotes split it, so the same text is kept),
    # then what valid JSON holds there besides its structure (numbers, true, false, null, spaces)
    # dropped by one table pass: several times faster than the pattern, which stays for a text
    # that is not JSON (anything else left outside its strings).
    outside = "".join(bare.split('"')[::2]).translate(_NUMBERS_WORDS_SPACES)
    return outside if not outside.translate(_STRUCTURE) else _NOT_STRUCTURE.sub("", outside)


def deeper_than(brackets: str, depth: int) -> bool:
    """Whether brackets (only ``[]{}``) nest more than ``depth`` levels: at most ``depth`` passes
    each take away the innermost pairs.

    >>> deeper_than("[{}[]]", 2), deeper_than("[{}[]]", 1)
    (False, True)
    """
    for _ in range(depth):
        if not brackets:
            return False
        brackets = brackets.replace("[]", "").replace("{}", "")
    return bool(brackets)


def check(text: str, limits: Limits) -> None:
    """Raise :class:`TooBig` if ``text`` is outside ``limits`` (cheap: no parsing, no recursion)."""
    if len(text) > limits.max_chars:
        raise TooBig(f"it is {len(text):,} characters long; the most is {limits.max_chars:,}")
    bare = skeleton(text)
    containers = bare.count("[") + bare.count("{")
    if containers > limits.max_containers:
        raise TooBig(f"it holds {containers:,} lists and objects; the most is {limits.max_containers:,}")
    # every value but the first follows a comma; a key and its value count as two
    values = bare.count(",") + bare.count(":") + 1
    if values > limits.max_values:
        raise TooBig(f"it holds {values:,} values; the most is {limits.max_values:,}")
    if containers > limits.max_depth and deeper_than(
        bare.replace(",", "").replace(":", ""), limits.max_depth
    ):
        raise TooBig(f"it nests more than {limits.max_depth} levels deep")


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
