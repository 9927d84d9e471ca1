"""GUNFRAME's power attacks (L1208-1346), basic and special.

Every entry carries its rulebook line (``"L1226"`` is line 1226 of
``001_c60598db3e91d492.txt``) and a one-line summary in this project's own words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from core.systems.gunframe.effects import (
    UPGRADE_ID_SET,
    ActsOnTarget,
    Effect,
    HullBreach,
    KnocksDown,
    NeedsKill,
    PowerAttackId,
    Resolves,
    UpgradeId,
    WeaponOnly,
)

# --- power attacks (L1208-1346) ------------------------------------------------------


@dataclass(frozen=True)
class PowerAttackDef:
    """An effect bought with power points; ``cost`` None means "X", one or more points (L1226).

    ``effects`` say what power.py does with it (see :mod:`core.systems.gunframe.effects`); ``by_hand``
    what players do on the table.
    """

    id: PowerAttackId
    name: str
    cost: int | None
    kind: Literal["basic", "special"]
    ref: str
    summary: str
    condition: str = ""
    #: The upgrade that unlocks a special power attack (L1194, L1202).
    unlocked_by: UpgradeId | None = None
    effects: tuple[Effect, ...] = ()
    by_hand: str = ""

    def __post_init__(self) -> None:
        if self.id not in get_args(PowerAttackId):
            raise ValueError(f"unknown power attack id {self.id!r}: add it to effects.PowerAttackId")
        if self.unlocked_by is not None and self.unlocked_by not in UPGRADE_ID_SET:
            raise ValueError(f"unknown upgrade id {self.unlocked_by!r}")


_MOVED = "Players move the models on the table by the inches the app gives."

POWER_ATTACKS: dict[str, PowerAttackDef] = {
    p.id: p
    for p in (
        PowerAttackDef(
            "distract",
            "Distract",
            1,
            "basic",
            "L1264",
            "Its next activation has a single action.",
            effects=(Resolves("distract"), ActsOnTarget()),
        ),
        PowerAttackDef(
            "recoil",
            "Recoil",
            1,
            "basic",
            "L1288",
            "Pushed straight back one inch per damage.",
            condition="target standing and running",
            effects=(Resolves("recoil"), ActsOnTarget()),
            by_hand=_MOVED,
        ),
        PowerAttackDef(
            "swing",
            "Swing",
            1,
            "basic",
            "L1320",
            "Whirled around the attacker, who turns freely.",
            condition="Close",
            effects=(Resolves("swing"), ActsOnTarget(), WeaponOnly(("close",), "L1324")),
            by_hand="Where the target lands around the attacker, and what it hits, is seen on the table.",
        ),
        PowerAttackDef(
            "knock_down",
            "Knock Down",
            2,
            "basic",
            "L1282",
            "The target falls over.",
            effects=(Resolves("knock_down"), ActsOnTarget(), KnocksDown()),
        ),
        PowerAttackDef(
            "throw",
            "Throw",
            2,
            "basic",
            "L1340",
            "Hurled one inch per damage any way, then down.",
            condition="Close (Short with Reach)",
            effects=(Resolves("throw"), ActsOnTarget(), WeaponOnly(("close",), "L1344"), KnocksDown()),
            by_hand=_MOVED,
        ),
        PowerAttackDef(
            "shut_down",
            "Shut Down",
            3,
            "basic",
            "L1306",
            "The target stops working until rebooted.",
            effects=(Resolves("shut_down"), ActsOnTarget()),
        ),
        PowerAttackDef(
            "explode",
            "Explode",
            None,
            "basic",
            "L1272",
            "A wreck bursts: 1 damage to all within X inches.",
            condition="target destroyed",
            effects=(Resolves("explode"), NeedsKill(), HullBreach()),
            by_hand="Players name the units within reach of the blast; the app deals the damage.",
        ),
        PowerAttackDef(
            "suppression",
            "Suppression",
            None,
            "basic",
            "L1312",
            "An X-inch circle by the target is dangerous ground this turn.",
            effects=(Resolves("suppression"),),
            by_hand="The token and the dangerous ground around it sit on the table; the app only notes them.",
        ),
        PowerAttackDef(
            "target_painting",
            "Target Painting",
            1,
            "special",
            "L1332",
            "Strips its Evade, or else locks it.",
            unlocked_by="target_painting",
            effects=(Resolves("strip_or_lock"), ActsOnTarget()),
        ),
        PowerAttackDef(
            "blast",
            "Blast",
            None,
            "special",
            "L1230",
            "X hits on every unit within 3 inches.",
            unlocked_by="blast",
            effects=(Resolves("blast"), HullBreach()),
            by_hand="Players name the units within 3 inches and their cover; the app rolls the hits.",
        ),
        PowerAttackDef(
            "burn",
            "Burn",
            None,
            "special",
            "L1240",
            "X more hits, met with bare Defense dice.",
            unlocked_by="burn",
            effects=(Resolves("burn"), ActsOnTarget()),
        ),
        PowerAttackDef(
            "chain_attack",
            "Chain Attack",
            None,
            "special",
            "L1248",
            "2 hits on each of X enemies chained 2 inches apart.",
            unlocked_by="chain_attack",
            effects=(Resolves("chain"),),
            by_hand="Players name the enemies in the chain, each within 2 inches of the last.",
        ),
        PowerAttackDef(
            "run_and_gun",
            "Run and Gun",
            None,
            "special",
            "L1298",
            "The attacker repositions up to X inches.",
            unlocked_by="run_and_gun",
            effects=(Resolves("reposition"),),
            by_hand="The attacker's move is made on the table.",
        ),
    )
}
