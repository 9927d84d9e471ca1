"""Smoke clouds and burning dots on the table, and how long they last (L439, L447).

The app does not see the map: a cloud or a fire is kept by the words the players aimed with
(``PendingExplosive.label``) and where it landed, with the turn it came.  What the book gives:

* smoke fills the dot it lands on and the 6 around it; at the end of the placing side's next
  movement it spreads to every dot within 2; it is removed after 12 turns (L447).  Which turns
  count is unclear (digest AMB-28): by default 12 turns of the placing side (the option
  ``smoke_lasts`` reads them as 12 turns of either side);
* every dot an incendiary hits burns (L439): 1X to a trooper entering it, 8X to one ending its
  movement there.  No duration is printed (AMB-26): by default a fire burns until the end of the
  next full round (both sides' turns after the one it started in); the option ``fire_lasts``
  keeps it until the players put it out.

Turns are counted as :class:`SkGame` counts them: ``turns`` is the side turn being played.
"""

from __future__ import annotations

from core.systems.skirmishers.options import SkOptions
from core.systems.skirmishers.state import Cloud, SkGame


def smoke_ends(c: Cloud, o: SkOptions) -> int:
    """The side turn at whose end the smoke lifts: 12 of the placing side's turns after the one it
    landed in (every other side turn), or 12 side turns with ``smoke_lasts`` = ``half_turns``."""
    return c.turn + (12 if o.smoke_lasts == "half_turns" else 24)


def fire_ends(c: Cloud, o: SkOptions) -> int | None:
    """The side turn at whose end the fire burns out: the end of the next full round (two side turns
    after the one it started in, AMB-26); never with ``fire_lasts`` = ``until_put_out``."""
    return None if o.fire_lasts == "until_put_out" else c.turn + 2


def describe(c: Cloud, g: SkGame, o: SkOptions) -> str:
    if c.kind == "smoke":
        left = (smoke_ends(c, o) - g.turns) // (1 if o.smoke_lasts == "half_turns" else 2) + 1
        return f"smoke at {c.label} ({c.radius} dot{'s' if c.radius != 1 else ''} around, {left} turns left)"
    end = fire_ends(c, o)
    return f"fire at {c.label}" + ("" if end is None else f" (burns out at the end of side turn {end})")


def end_of_turn(g: SkGame, o: SkOptions) -> list[str]:
    """Age the clouds as side turn ``g.turns`` ends: spread, lift, burn out; what changed, in words."""
    notes: list[str] = []
    kept: list[Cloud] = []
    for c in g.clouds:
        if c.kind == "smoke":
            if g.turns >= smoke_ends(c, o):
                notes.append(f"the smoke at {c.label} lifts (L447)")
                continue
            if c.radius == 1 and g.turns >= c.turn + 2:
                c.radius = 2
                notes.append(f"the smoke at {c.label} spreads to 2 dots around (L447)")
        else:
            end = fire_ends(c, o)
            if end is not None and g.turns >= end:
                notes.append(f"the fire at {c.label} burns out")
                continue
        kept.append(c)
    g.clouds = kept
    return notes
