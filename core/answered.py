"""Replies remembered by the seam (issue 26): a repeated request of a pure operation is answered
again without any work.

A sheet asks the same odds again and again (each choice button shows its own, and a modifier
turned on then off asks the same set twice), each time with the whole game.  The operations in
:data:`REPEATABLE` depend on the request alone (no dice, no clock, nothing kept between calls), so
the reply to the same request text is the same; only its ``ms`` is made this call's.
"""

from __future__ import annotations

import json
import time

#: Operations whose answer depends on the request alone (undo and redo too: the game one step back
#: or on, worked out ahead by the page while the player looks at the last change).
REPEATABLE = frozenset(
    {
        "game.odds",
        "game.gates",
        "game.picks",
        "game.views",
        "game.undo",
        "game.redo",
        "system.describe",
        "dice.odds",
    }
)
#: A request and reply longer than this together are not remembered (a long game's, a table of
#: thousands of rows: they would push every other out).
MOST_CHARS_EACH = 300_000
#: At most this many characters of requests and replies are remembered (the oldest go first).
MOST_CHARS = 4_000_000

ANSWERED: dict[str, str] = {}
_chars = [0]  # characters held in ANSWERED, requests and replies
_MS = '"ms": '


def held() -> int:
    """Characters held, requests and replies."""
    return _chars[0]


def forget() -> None:
    """Remember nothing (a test that changes the engine under a request it sent before)."""
    ANSWERED.clear()
    _chars[0] = 0


def again(request: str) -> str | None:
    """The reply to a repeatable request answered before, its time made this call's."""
    started = time.perf_counter()
    reply = ANSWERED.get(request)
    if reply is None:
        return None
    ms = round((time.perf_counter() - started) * 1000, 3)
    # "ms" is the reply's last key (core.api.call puts it there), so the last one in the text is it.
    return reply[: reply.rindex(_MS)] + _MS + json.dumps(ms) + "}"


def remember(request: str, reply: str) -> None:
    """Keep a successful reply of a repeatable operation (the caller checks both), within bounds."""
    size = len(request) + len(reply)
    if size > MOST_CHARS_EACH:
        return
    while ANSWERED and _chars[0] + size > MOST_CHARS:
        oldest = next(iter(ANSWERED))
        _chars[0] -= len(oldest) + len(ANSWERED.pop(oldest))
    ANSWERED[request] = reply
    _chars[0] += size
