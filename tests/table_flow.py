"""Counting taps and scrolls the way a player makes them, on a 390x844 phone.

One helper for every system's end-to-end flow test (the table bar: a system's core attack
from the game screen to the result on the target's card in at most 5 taps with no
scrolling).  A :class:`Player` taps only what is on the glass: when the thing to tap is
outside the viewport, or hidden under something drawn over it (the sticky bottom bar, the
Roll bar of a sheet), the player has to scroll first, and that scroll is counted.  So a
change that moves a button below the fold, under a bar, or adds a step makes the test fail
on its budget, with the list of what was tapped in the message.

How to use it (in a ``tests/test_e2e_*.py``, with the ``browser`` and ``server`` fixtures
of ``conftest.py``)::

    from table_flow import Player, phone_page

    def test_my_attack_is_quick(browser, server):
        context, page = phone_page(browser)          # a 390x844 touch phone
        try:
            open_with_store(page, server.url + "#/game/g1", my_store())
            player = Player(page)
            player.tap(page.locator('[data-unit="0/u1"] [data-act="attack"]'))
            player.tap(page.locator('#targets [data-target="1/u2"]'))
            player.tap(page.locator("#action-roll"))
            player.tap(page.locator("#apply-result"))
            player.within(taps=5, scrolls=0)          # fails when a change adds one
            player.sees(page.locator('[data-unit="1/u2"]'))  # the result is on the glass
        finally:
            context.close()

* ``player.tap(locator)``: one tap at the element's centre, where it is on the glass (a
  player's tap does not scroll; the app may move things after it).  If the element is off
  screen or covered, the player scrolls it to the middle of the screen first: one scroll.
* ``player.face(locator)``: a die face typed from real dice, counted apart (``faces``):
  the dice the player rolled, not taps of the app's flow.
* ``player.tap_if(locator)``: taps it only if it is there (a question that is asked only
  on some rolls); counted when tapped.
* ``player.within(taps=, scrolls=)``: asserts the budget; ``player.mark()`` and
  ``player.since(mark)`` count a stretch (e.g. taps per later card).
* ``player.sees(locator)``: asserts the element is on the glass and not covered, without
  counting anything.
* ``on_glass(page, locator)`` answers whether a player could tap it now (no assert).

A ``<select>`` is two taps (open, choose): use ``player.choose(locator, value)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
WIDTH, HEIGHT = PHONE["viewport"]["width"], PHONE["viewport"]["height"]

#: Is the element's centre on the glass, and is it what a finger there would touch?
#: Answers "ok", "off" (outside the viewport) or "covered" (something else is drawn there).
_GLASS = """(el) => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return "off";
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) return "off";
  const hit = document.elementFromPoint(x, y);
  if (!hit) return "off";
  if (hit === el || el.contains(hit)) return "ok";
  // A label wrapping its own control counts as the control.
  if (hit.closest && hit.closest("label") && hit.closest("label").contains(el)) return "ok";
  return "covered";
}"""


def phone_page(browser: Browser) -> tuple[BrowserContext, Page]:
    """A fresh browser profile on a 390x844 touch phone, and a page in it."""
    context = browser.new_context(**PHONE)
    return context, context.new_page()


def on_glass(locator: Locator) -> str:
    """ "ok" when a player can tap ``locator`` now without scrolling; "off" or "covered" if not."""
    return str(locator.evaluate(_GLASS))


@dataclass
class Player:
    """A player's thumb on the phone: every tap and every scroll it needed, in order."""

    page: Page
    taps: int = 0
    scrolls: int = 0
    faces: int = 0
    trail: list[str] = field(default_factory=list)

    def _reach(self, target: Locator, what: str) -> None:
        expect(target).to_be_visible()
        where = on_glass(target)
        if where != "ok":
            # The player scrolls it into the middle of the screen: one scroll, noted.
            target.evaluate("el => el.scrollIntoView({block: 'center', inline: 'center'})")
            self.scrolls += 1
            self.trail.append(f"scroll ({where}) to {what}")
            where = on_glass(target)
            assert where == "ok", f"{what} cannot be tapped even after scrolling ({where})"

    def _press(self, target: Locator) -> None:
        box = target.bounding_box()
        assert box is not None
        self.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def tap(self, target: Locator, what: str | None = None) -> None:
        """One tap on ``target`` where it is on the glass (scrolling to it first if it must), then
        waiting for the app to settle (as a player waits to see what the tap did)."""
        what = what or _name(target)
        self._reach(target, what)
        self._press(target)
        self.taps += 1
        self.trail.append(f"tap {what}")
        settle(self.page)

    def tap_if(self, target: Locator, what: str | None = None) -> bool:
        """Tap ``target`` if it is on the page now (a question some rolls ask); True if tapped."""
        if target.count() == 0 or not target.first.is_visible():
            return False
        self.tap(target.first, what)
        return True

    def choose(self, select: Locator, value: str, what: str | None = None) -> None:
        """A ``<select>``: a tap to open it and one to choose (two taps)."""
        what = what or _name(select)
        self._reach(select, what)
        select.select_option(value)
        settle(self.page)
        self.taps += 2
        self.trail.append(f"choose {value!r} in {what} (2 taps)")

    def face(self, target: Locator) -> None:
        """A die face typed from real dice: counted apart from the flow's taps."""
        self._reach(target, "a die face")
        self._press(target)
        self.faces += 1
        settle(self.page)

    def sees(self, target: Locator) -> None:
        """``target`` is on the glass, not covered: the player reads it without scrolling."""
        expect(target).to_be_visible()
        where = on_glass(target)
        assert where == "ok", f"{_name(target)} is {where}; trail: {self.trail}"

    def mark(self) -> tuple[int, int]:
        return self.taps, self.scrolls

    def since(self, mark: tuple[int, int]) -> tuple[int, int]:
        """Taps and scrolls since ``mark``."""
        return self.taps - mark[0], self.scrolls - mark[1]

    def within(self, taps: int, scrolls: int = 0, since: tuple[int, int] = (0, 0)) -> None:
        """At most ``taps`` taps and ``scrolls`` scrolls (since ``since``): the flow's budget."""
        t, s = self.since(since)
        assert t <= taps and s <= scrolls, (
            f"{t} taps (at most {taps}), {s} scrolls (at most {scrolls}): {self.trail}"
        )


def settle(page: Page, looks: int = 3, timeout_ms: int = 30_000) -> None:
    """Wait until the page has done all that the last tap started: no engine call unanswered
    (``data-engine-busy``, web/engine-client.js) and nothing else in flight (``data-busy``, web/dom.js:
    a screen being drawn, a save or a read, a wait for typing to stop), seen so ``looks`` times in a
    row 20 ms apart, so that a step the page takes in a task of its own (a route after a link's
    tap) is not missed between two pieces of work. The screen then shows what the tap did. (Looking
    at every animation frame instead measured the same.)"""
    page.wait_for_function(
        """([looks]) => {
          const root = document.documentElement.dataset;
          const idle = (root.engineBusy ?? "0") === "0" && (root.busy ?? "0") === "0";
          window.__tcIdle = idle ? (window.__tcIdle ?? 0) + 1 : 0;
          return window.__tcIdle >= looks;
        }""",
        arg=[looks],
        polling=20,
        timeout=timeout_ms,
    )
    page.evaluate("window.__tcIdle = 0")


def _name(target: Locator) -> str:
    """A short name of what was tapped, for the trail."""
    try:
        text = target.evaluate(
            "el => (el.getAttribute('aria-label') || el.innerText || el.id || el.tagName).trim().slice(0, 40)"
        )
    except Exception:
        return "?"
    return " ".join(str(text).split())
