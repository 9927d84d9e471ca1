"""The attack's odds through a Burn spend (L1240-1246): what the headline says when the attacker's
weapon system can Burn.

Power points come from the attack's 6s once it has done damage (L1186-1188); a weapon system with
the Burn upgrade (L2432) may spend X of them on X more hits, met by the target's bare Defense
(L1246).  The odds before the roll stop at the attack itself ("destroyed"); this adds the chance
when the attacker spends every power point on Burn whenever the roll leaves the target standing
("destroyed with burn"), the spend that best finishes it.  Where the target can cancel the points
(Ablative Armour not yet used, L2366) or is immune, the fact is left out and the summary says why.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

from core.dice import Dist
from core.systems.gunframe.effects import CancelsPowerOnce, GrantsPowerAttack, ImmuneToPower
from core.systems.gunframe.environment import environment_of
from core.systems.gunframe.state import defense_value, hits_dist, upgrades_of, weapon_ups
from core.systems.gunframe.upgrades import effects_of, has_effect

if TYPE_CHECKING:
    from core.game import Game
    from core.systems.gunframe.attack import Plan

KEY = "destroyed with burn"


def burn_through(
    game: Game, plan: Plan, weapon: str, joint: Dist[tuple[int, int]]
) -> tuple[float | None, str]:
    """The chance to destroy the target with every power point spent on Burn (None where Burn cannot
    follow this attack), and a few words for the summary."""
    attacker, target = plan.attacker[2], plan.target[2]
    if not any(e.power == "burn" for e in effects_of(weapon_ups(attacker, weapon), GrantsPowerAttack)):
        return None, ""
    t_ups = upgrades_of(target)
    if environment_of(game) == "underwater":
        return None, "Burn does nothing underwater (L2095)"
    if plan.structure or plan.guardian is not None:
        return None, "Burn not counted: the damage may not fall on the target itself"
    if any(e.power == "burn" for e in effects_of(t_ups, ImmuneToPower)):
        return None, f"{target.name} is immune to Burn"
    if has_effect(t_ups, CancelsPowerOnce) and "ablative_armour" not in target.state.extra.get("used", []):
        return None, f"Burn not counted: {target.name}'s Ablative Armour can cancel the points (L2366)"
    defense = defense_value(target)
    if "shut_down" in target.state.conditions and not plan.options.base_defense_unhalved:
        defense = math.ceil(defense / 2)  # bare Defense, halved while shut down (L958, L1246)
    left = plan.armour_left
    total = Fraction(0)
    for (damage, points), p in joint.probabilities():
        if damage >= left:
            total += p
        elif damage > 0 and points > 0:
            burn = hits_dist(points, defense)
            total += p * sum((q for k, q in burn.probabilities() if k >= left - damage), Fraction(0))
    return float(
        total
    ), "'destroyed with burn' spends every power point on Burn when the roll leaves it standing"
