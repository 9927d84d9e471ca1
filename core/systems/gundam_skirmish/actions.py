"""The battle's actions as the game screen offers them: each one's input, resolution, odds and picks,
assembled from the chapter modules.
"""

from __future__ import annotations

from core.systems.base import ActionSpec
from core.systems.gundam_skirmish.abilities import AbilityInput, ability, ability_odds
from core.systems.gundam_skirmish.aimed_shot import AimedInput, aimed, aimed_odds
from core.systems.gundam_skirmish.ambush import ambush, ambush_odds
from core.systems.gundam_skirmish.battle import SideInput, UnitInput
from core.systems.gundam_skirmish.close_combat import CloseInput, close_combat, close_odds
from core.systems.gundam_skirmish.game_types import SetupInput, environment, game_length, setup
from core.systems.gundam_skirmish.morale import MoraleInput, morale, morale_odds, rout_roll
from core.systems.gundam_skirmish.movement import (
    MoveInput,
    WeaponInput,
    idle,
    move,
    reload,
    switch,
    withdraw,
)
from core.systems.gundam_skirmish.orders import OrderInput, order
from core.systems.gundam_skirmish.picks import (
    ability_picks,
    aimed_picks,
    reload_picks,
    shot_picks,
    switch_picks,
)
from core.systems.gundam_skirmish.shoot import ShootInput, shoot, shoot_odds
from core.systems.gundam_skirmish.traits import TerrorInput, terror, terror_odds
from core.systems.gundam_skirmish.turns import NextTurnInput, PriorityInput, next_turn, priority

ACTIONS: dict[str, ActionSpec] = {
    "shoot": ActionSpec(
        "shoot",
        "Shoot",
        ShootInput,
        shoot,
        shoot_odds,
        help="Fast (L595-L801).",
        headline=("damage", "destroyed"),
        primary=True,
        picks=shot_picks,
        needs=("shot",),
    ),
    "aimed_shot": ActionSpec(
        "aimed_shot",
        "Aimed Shot",
        AimedInput,
        aimed,
        aimed_odds,
        help="Slow (L875-L899).",
        picks=aimed_picks,
        needs=("acting",),
    ),
    "close_combat": ActionSpec(
        "close_combat",
        "Close combat",
        CloseInput,
        close_combat,
        close_odds,
        help="When units meet (L945-L1070).",
        headline=("damage to the target", "destroyed", "attacker destroyed", "advantage"),
        primary=True,
    ),
    "move": ActionSpec(
        "move",
        "Move or Boost",
        MoveInput,
        move,
        help="Fast Move or Slow Boost (L452-L550, L902).",
        primary=True,
    ),
    "reload": ActionSpec(
        "reload",
        "Reload",
        WeaponInput,
        reload,
        help="Quick (Fast) or Slow (L415-L422, L925).",
        picks=reload_picks,
        rolls=False,  # only an Obsolete unit's die (L2958-L2962), which the app rolls
        needs=("acting",),
    ),
    "switch_weapon": ActionSpec(
        "switch_weapon",
        "Switch Weapon",
        WeaponInput,
        switch,
        help="Fast (L424-L451).",
        picks=switch_picks,
        rolls=False,
        needs=("acting",),
    ),
    "idle": ActionSpec(
        "idle", "Idle", UnitInput, idle, help="Fast (L409-L413).", rolls=False, needs=("acting",)
    ),
    "withdraw": ActionSpec(
        "withdraw",
        "Withdraw from the battle",
        UnitInput,
        withdraw,
        help="A campaign battle, once 4 turns have passed: back into the deployment zone (L2139-L2140).",
        rolls=False,
        needs=("withdrawal",),
    ),
    "ability": ActionSpec(
        "ability",
        "Use an ability",
        AbilityInput,
        ability,
        ability_odds,
        help="Fast (L402-L407).",
        picks=ability_picks,
    ),
    "morale": ActionSpec(
        "morale", "Morale check", MoraleInput, morale, morale_odds, help="2D6 (L1561-L1602)."
    ),
    "terror": ActionSpec(
        "terror",
        "Terrify an enemy",
        TerrorInput,
        terror,
        terror_odds,
        help="An enemy unit in its sight for the first time checks morale (L2002-L2003).",
        needs=("terrifying",),
    ),
    "rout": ActionSpec(
        "rout",
        "Routed roll",
        UnitInput,
        rout_roll,
        help="When a Routed unit acts (L1554-L1558).",
        needs=("routed",),
    ),
    "order": ActionSpec(
        "order", "Give an order", OrderInput, order, help="Command Points (L1415-L1534).", rolls=False
    ),
    "ambush": ActionSpec(
        "ambush", "Ambush", UnitInput, ambush, ambush_odds, help="In an Upkeep (L1253-L1269)."
    ),
    "priority": ActionSpec(
        "priority", "Priority roll", PriorityInput, priority, help="Turn order (L278-L282)."
    ),
    "next_turn": ActionSpec(
        "next_turn",
        "Next turn",
        NextTurnInput,
        next_turn,
        help="Final Upkeep, then the next player's turn.",
        rolls=False,
    ),
    "setup": ActionSpec(
        "setup", "Set up the battle", SetupInput, setup, help="Game type, space, weather.", rolls=False
    ),
    "game_length": ActionSpec(
        "game_length", "Roll game length", SideInput, game_length, help="L181, L197, L207."
    ),
    "environment": ActionSpec(
        "environment", "Roll the environment", SideInput, environment, help="Before the game (L3301-L3397)."
    ),
}
