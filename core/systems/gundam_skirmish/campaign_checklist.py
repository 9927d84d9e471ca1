"""Campaign mode (rulebook 000_3e12d4cbd0c8f6da.txt, L1620-L2228): the rule-by-rule checklist.

Each rule of the chapter, in the book's order, in our words, with its lines and where it stands:

``T`` implemented and tested: the test (in ``tests/test_gundam_campaign.py`` unless another file is
named; ``api:`` is ``tests/test_campaign_api.py``) and the code (``turn`` is :mod:`.campaign_turn`,
``battle`` :mod:`.campaign_battle`, ``data`` :mod:`.campaign_data` with ``campaign.json``, ``maps``
``campaign_maps.json``, ``rules`` :mod:`.campaign_rules`, ``setup`` :mod:`.campaign_setup`, ``state``
:mod:`.campaign_state`, ``view`` :mod:`.campaign_view`); ``U`` implemented, no test pins it yet;
``R`` a reading the code chose where the book is unclear or silent (``opt:`` a named option of
:class:`~.campaign_turn.CampaignReadings`, chosen per campaign; the others are listed in the README's
readings); ``P`` left to the players (the app records what they say); ``-`` not in the app yet.
``test_gundam_campaign_checklist`` checks that every test named here exists.

Factions (L1620-L1689)
  .  five factions described as flavour, no rule to play (L1622-L1689)

Running a campaign, set-up (L1702-L1733)
  T  two eras: One Year War with EFF and ZEON, Gryps Conflict with AEUG, TITANS and AXIS (L1707-L1715);
     test_setup_refusals, test_setup_form_defaults_start_at_once_l1723_l1731 (rules ``Setup._era``)
  T  an 8 by 8 map, coordinates 1-8 on each axis (L1717-L1719);
     test_move_is_orthogonal_and_never_through_enemies_l1743_l1752_l2127 (off the map; turn ``move``)
  T  faction colours: EFF blue, ZEON and AXIS red, AEUG yellow, TITANS purple (L1721-L1723);
     test_the_factions_colours_on_the_map_l1721_l1723 (view ``COLOURS``)
  T  priority rolled, ties roll again (L1725); test_priority_rolled_by_the_app_ties_roll_again
     (rules ``_priority``)
  T  four MS Teams each, on bases of the player's own zone (L1725-L1729); test_setup_l1723_l1740,
     test_setup_refuses_a_base_outside_the_zone_and_three_teams (rules ``Setup``)
  P  the players place their teams in turn (L1725): the set-up screen takes every team at once
  T  teams of equal points, the value agreed (L1727-L1728); test_setup_refusals,
     test_setup_form_own_squad_points_and_one_team_per_base_l1727_l1743_l1791 (setup ``form``)
     R  "equal" read as "at most the agreed points" (a team of ready-made units rarely hits it exactly)
  T  War Effort 10 and Requisition 10 each (L1731); test_setup_l1723_l1740 (data ``Start``)
  T  a ready-made start on every map (the table bar); test_every_preset_starts_a_campaign (setup)

General rules (L1736-L1764)
  R  at most 8 teams a player (L1738): the set-up allows 8, and no step of the campaign makes a new team
     (the book gives no way to raise one), so the limit holds by construction; untested
  T  a team is at most 1,000 points (L1740); (turn ``_buy``, rules ``Setup.points``)
     test_ordering_a_unit_of_another_faction_or_over_1000_points_l1740_l2154
  T  one team per tile (L1743-L1744); test_move_is_orthogonal_and_never_through_enemies_l1743_l1752_l2127,
     test_place_a_team_by_hand_one_per_tile_never_neutral_l1743_l2218 (turn ``end_turn``, ``place``)
  T  never through or past an enemy team; through friends over several moves, ending the turn on an
     empty tile (L1747-L1752); test_move_is_orthogonal_and_never_through_enemies_l1743_l1752_l2127
     (turn ``move``, ``end_turn``)
  T  damage, pilots' Health and Mind and deaths carry over (L1755-L1758);
     test_battle_starts_a_game_with_what_the_teams_carry_l2132_l1755,
     test_damage_chart_levels_carried_into_the_battle_and_back_l1111_l1113 (battle ``plan``, ``result``)
  T  a faction never fights its own teams nor captures its own base (L1761-L1764);
     test_a_faction_never_fights_itself_l1761_l1764, test_enter_base_capture_and_services_l2146_l2187
     (battle ``_adjacent``, turn ``enter_base``)

Winning (L1768-L1785)
  T  the first to hold every listed base of the map wins (L1770-L1771);
     test_victory_check_not_in_the_first_turn_l2042_l1770 (turn ``held_victory``)
  T  the five maps' listed bases, two misspelt place names corrected (L1773-L1785);
     test_five_maps_with_the_books_victory_bases_l1770_l1785 (maps)

Characters (L1791-L1846)
  T  named pilots are characters, as many as the players like (L1791-L1795);
     test_setup_form_own_squad_points_and_one_team_per_base_l1727_l1743_l1791 (setup ``_squad_units``)
     R  a squad's named pilot becomes a character, a nameless one does not
  T  a character adds 10 points per rank to its unit, starting at rank 1 (L1797-L1799);
     test_unit_cost_rises_with_rank_l1797_l3211, test_rank_up_and_a_trait_to_choose_l1815_l1826 (state
     ``CUnit.unit``)
  T  characters fly mobile suits of their own faction only (L1802-L1803);
     test_a_character_flies_only_a_mobile_suit_l1802,
     test_a_reserve_pilot_takes_a_unit_and_a_character_keeps_its_rewards_l1811_l1812 (turn ``assign``)
  T  a pilot killed at -4 Health or Mind (L1806-L1808); (turn ``remove_dead``, data ``dead``)
     test_a_pilot_killed_and_half_the_points_lost_l2200_l2203_l2135,
     test_pilot_risk_against_every_pair_of_faces
     R  ordinary pilots too ("like other pilots"), with Health and Mind 6 and the Destruction Table's
     losses read from the battle's log (battle ``DESTRUCTION_EFFECT``); a pilot whose unit is destroyed
     and who lives goes to the team's reserve: test_battle_result_flows_back_l2132_l2208_l1854_l1901
  T  a character flies one unit at a time and takes its traits and mods along (L1811-L1812);
     test_a_reserve_pilot_takes_a_unit_and_a_character_keeps_its_rewards_l1811_l1812 (turn ``assign``)
     R  changing pilots spends no action (the book names none)
  T  after a battle a survivor with 100 EXP banked ticks the next box; every 2 boxes a rank, EXP back
     to zero (L1815-L1820); (data ``rank_after``, battle ``_award``)
     test_boxes_ranks_and_exp_reset_l1815_l1820, test_rank_up_and_a_trait_to_choose_l1815_l1826
     R  opt: ``exp_boxes`` (A31): one box a battle (default) or as many as whole hundreds
  T  a trait at the "+Trait" ranks, every second rank, never the same one twice (L1821-L1826);
     test_traits_and_mods_by_rank_a31, test_a_pilot_may_not_take_the_same_trait_twice_l1826_l1832,
     test_base_services_and_rewards_are_offered_with_their_choices_l2151_l2164_l1821 (turn
     ``choose_reward``, data ``rewards_at``)
  T  a mod at the "+Mod" ranks, never the same one twice (L1827-L1832); test_traits_and_mods_by_rank_a31
     R  the "+Mod" ranks are not in the text (the chart is an image): 3, 5, 7 and 9 (A31), a house
     default in ``campaign.json`` (no option); test_traits_and_mods_by_rank_a31
  T  a Mobile Fighter's techniques and abilities by rank: 1/0, 2/1, 3/2, 4/3, 5/4, all at rank 10
     (L1834-L1844); test_mobile_fighter_techniques_by_rank_and_the_two_rank_drop_l1834_l1846 (turn
     ``fighter_reward``, data ``fighter_allowance``)
  T  a Mobile Fighter gains no traits or mods (L1836-L1837) (battle ``result``);
     test_a_mobile_fighter_ranks_up_without_traits_or_mods_l1834_l1837
  T  a Mobile Fighter's techniques are its attacks, in the place of weapons: its sheet lists them with
     close combat numbers next to its close combat weapon (L1837-L1840, L1320-L1321; units ``techniques``);
     a character chooses them from those by rank and strikes in battle with a learnt one only, asked
     which when it knows several, all at rank 10 (L1841-L1844); tests/test_gundam_campaign_rules.py
     test_a_mobile_fighters_techniques_are_the_only_attacks_it_makes_l1837_l1844
     (turn ``fighter_reward``, state ``CUnit.unit``, close_combat ``cc_weapon``)
     R  a Mobile Fighter whose character has learnt no technique yet fights Unarmed (L1063)
  T  moving to or from a Mobile Fighter: techniques lost, two ranks lower, rewards chosen again
     (L1844-L1846); test_mobile_fighter_techniques_by_rank_and_the_two_rank_drop_l1834_l1846
     R  the drop is to rank 1 at least, and traits and mods go too (the rewards are chosen again)

EXP and ranks (L1854-L1955)
  T  EXP: took part 10, won 30, an enemy unit destroyed 10, survived a Destruction roll 20, an enemy
     character's unit destroyed 10 x its rank (L1854-L1901); test_exp_table_l1854_l1901,
     test_battle_result_flows_back_l2132_l2208_l1854_l1901,
     test_defeating_an_ace_earns_10_per_rank_l1886_l1901 (battle ``result``)
     R  "took part": not still in reserve at the end (a unit that arrived by Ambush counts); "won": in
     play at the end and its faction among the winners; a kill counts for the unit whose action the
     log names (a unit lost to no one's action earns no one EXP)
  T  rank titles of the four branches, rank 1 to 10 (L1903-L1955); test_rank_titles_l1903_l1955 (data
     ``rank_title``)
  T  rank 10 the top, then Heroic Levels (L3208-L3211, outside the chapter);
     test_heroic_levels_l3208_l3211, test_heroic_level_after_rank_10_l3208_l3211

Traits (L1956-L2003) and Mobile Suit Modifications (L2007-L2036) in battle: the battle modules'
  T  Controlled Aim, Fortunate, Anti-Beam Coating, Heavy Plating: tests/test_gundam_effects.py
     test_each_shoot_effect_changes_exactly_its_number (shoot, shooting, damage)
  T  Rash and Swift (advantage, the extra die): tests/test_gundam_effects.py test_advantage_won_outright,
     test_each_close_combat_effect_changes_exactly_its_number (close_combat)
  P  Rash's compulsory charge (L1988-L1990): the players move the unit
  T  Gallant: tests/test_gundam_skirmish.py test_gallant_never_falls_back_and_piercing_needs_ps
  T  Stoic passes morale: tests/test_gundam_effects.py test_stoic_and_a_command_unit_in_sight_pass_morale
  T  Mechanic, once a battle: tests/test_gundam_skirmish_table.py
     test_abilities_offered_are_the_units_active_ones_and_mechanic (abilities, picks)
  T  Weapon Pack: tests/test_gundam_skirmish.py test_carried_weapon_allowance_and_weapon_pack (units)
  T  Ambusher arrives with no roll, Leader's 2 Command Points (L1960, L1975-L1976):
     tests/test_gundam_campaign_rules.py
     test_leader_gives_two_command_points_and_ambusher_arrives_without_a_roll_l1960_l1975 (ambush, turns)
  T  Reactive Armour: 1 less damage from Explosive shots only (L2028-L2030, shoot);
     tests/test_gundam_campaign_rules.py
     test_reactive_armour_takes_one_less_damage_from_explosive_shots_only_l2028_l2030
  T  Magnetic Coating: no Rotation Penalty (L2024, movement); Optimised Thrusters: Movement +2", Boost +4"
     (L2026-L2027, units); Reinforced Endoskeleton: Integrity +2 (L2033-L2034, units);
     test_magnetic_coating_thrusters_and_endoskeleton_change_movement_and_integrity_l2024_l2034
  T  Amphibious: a vehicle may enter Deep Water (Sheer terrain, L2010-L2012, L545-L550, movement);
     test_amphibious_lets_a_ground_vehicle_boost_into_deep_water_l2010_l2012
  P  Amphibious: no penalties for moving in water, an Ambush from water (L2010-L2012): the players say
     the terrain a Move crosses and where an Ambush comes from
  P  Newtype's all-round sight (L1985) and Improved Optics' longer reach (L2021): the players judge
     sight and measure range
  T  Fierce's free Shoot with the same weapon after a kill, one per kill (L1964-L1966; Blitzkrieg the same,
     Fire Support's second Shoot too), offered only then and refused otherwise;
     tests/test_gundam_campaign_rules.py
     test_fierce_earns_one_free_shoot_with_the_same_weapon_after_a_kill_l1964_l1966,
     test_fire_support_second_shoot_is_free_at_another_target_l2868_l2873 (traits, shoot)
     R  the free Shoot is for the same turn, and a free Shoot that destroys earns another (it is a Shoot)
  T  Responsive's free Shoot in an enemy's turn, once per such turn, with a loaded weapon (L1992-L1994);
     tests/test_gundam_campaign_rules.py test_responsive_shoots_free_once_in_each_enemy_turn_l1992_l1994
  P  the enemy moving into range (L1992-L1993): the players see it and take the shot (digest A44)
  T  Merciful: once a battle a successful Shoot or close combat strike deals no damage and 2 Integrity come
     back (L1981-L1983); tests/test_gundam_campaign_rules.py
     test_merciful_spares_the_target_and_restores_2_integrity_once_a_battle_l1981_l1983,
     test_merciful_in_close_combat_deals_nothing_and_restores_2_integrity_l1981_l1983 (shoot, close_combat)
     R  declared with the action ("if it deals damage"); one that deals none does not spend it; in close
     combat the spared strike counts as no damage when the fall-back is decided
  T  Terrifying: an enemy unit seen for the first time checks morale, once per Terrifying unit; Stoic and
     Terrifying units never do (L2002-L2003, L1996-L1997); tests/test_gundam_campaign_rules.py
     test_terrifying_forces_one_morale_check_per_enemy_unless_stoic_or_terrifying_l2002_l2003 (traits)
     R  sight is on the table (A52): the check is a step on the Terrifying unit's card

The campaign turn (L2037-L2066)
  T  the turn in order: victory check, War Effort, an Event Die per team, diplomacy, the actions
     (L2039-L2060); test_turn_in_order_l2037_l2066 (turn ``begin_turn``, ``event_die``, ``_turn``)
  T  no victory check in a player's first turn (L2042-L2044);
     test_victory_check_not_in_the_first_turn_l2042_l1770
  R  the Exhaustion Check at War Effort 0 is not defined (L2047-L2049, A30); opt: ``exhaustion``:
     'idle' (default, a D6 a team, on 1-2 the team does nothing this turn) or 'record';
     test_exhaustion_check_house_rule_a30, test_readings_are_changed_by_an_undoable_step
  R  War Effort never below 0 (it has no negative use);
     test_an_event_leaves_a_unit_1_integrity_and_war_effort_at_least_0
  T  the Event Die touches every unit and pilot of the team, the reserve's too (L2052-L2053);
     test_an_event_reaches_every_pilot_of_the_team_reserve_too_l2052_l2053 (turn ``_apply_row``)
  P  diplomacy and truces (L2056-L2057): the app keeps a written note;
     test_base_services_and_rewards_are_offered_with_their_choices_l2151_l2164_l1821 (turn ``note``)
  T  up to 3 actions a turn, spread over the teams (L2062-L2063); test_turn_in_order_l2037_l2066,
     test_enter_base_spends_one_of_the_three_actions_l2062,
     test_battle_starts_a_game_with_what_the_teams_carry_l2132_l1755 (turn ``_spend``)
  T  then the next player (L2066); test_turn_in_order_l2037_l2066 (turn ``end_turn``)

Event tables (L2070-L2122)
  T  Event Die: 1 Poor Fortune, 2-5 nothing, 6 Good Fortune (L2074-L2081); test_event_die_l2074_l2081
  T  Poor Fortune rows (L2083-L2106); test_poor_fortune_l2083_l2106,
     test_poor_fortune_provisions_and_damage_l2085_l2106 (data, turn ``_apply_row``, ``move``)
  R  an event's damage leaves a unit at least 1 Integrity (an event is no battle);
     test_an_event_leaves_a_unit_1_integrity_and_war_effort_at_least_0
  T  Good Fortune rows, Cartography's free step, New Parts' repair (L2108-L2122);
     test_good_fortune_l2108_l2122, test_good_fortune_cartography_free_step_and_new_parts_l2110_l2122
  T  exact odds of the events and of each pilot's death by them (data ``event_odds``,
     ``event_death_risk``); test_event_odds_against_every_pair_of_faces,
     test_pilot_risk_against_every_pair_of_faces,
     test_the_event_die_shows_its_exact_odds_and_each_pilots_risk_l2074_l2106

Actions (L2124-L2187)
  T  Move Team: one tile up, down, left or right (L2127-L2129);
     test_move_is_orthogonal_and_never_through_enemies_l1743_l1752_l2127 (turn ``move``)
  T  Battle against every enemy team next to it, up, down, left or right (L2132-L2133);
     test_battle_starts_a_game_with_what_the_teams_carry_l2132_l1755, api:
     test_a_turn_a_battle_and_its_result_through_the_seam (battle ``plan``)
  T  with several factions next to it, the others choose whether to join (L2133-L2134);
     test_a_third_faction_joins_a_battle_by_choice_l2132_l2135 (battle ``BattleInput``)
  T  the players agree the game type (L2136-L2137);
     test_a_battle_asks_the_game_type_and_plays_it_l2136_l2137
  R  the battle "on the initiator's tile": the tile is kept for the step back after a withdrawal
  T  a team with no unit or no pilot left leaves the map (L2137-L2138);
     test_a_pilot_killed_and_half_the_points_lost_l2200_l2203_l2135 (battle ``result``)
  T  voluntary withdrawal into the deployment zone only once 4 battle turns have passed (L2139-L2140):
     'Withdraw from the battle' greyed with the reason before, refused if sent, offered after, only in a
     campaign battle; tests/test_gundam_campaign_rules.py
     test_withdrawal_refused_before_4_turns_have_passed_offered_after_l2139_l2140 (movement ``withdraw``)
     R  opt: ``withdrawal`` (A51): from round 5, once four rounds are complete (default), or from round 4;
     the move back costs a Fast action (the Move into the zone); the battle's Withdraw order (L1524-L1529)
     stays a battle rule of its own
  P  a unit that routs off the table (L2141): the players mark it withdrawn on its card
  T  a team whose units all withdrew returns to its tile and steps one tile further from the battle
     (L2140-L2143); test_battle_result_flows_back_l2132_l2208_l1854_l1901 (battle ``_retreat``)
     R  the first free tile of north, east, south, west that is further away; none free: the players
     place it (turn ``place``, test_place_a_team_by_hand_one_per_tile_never_neutral_l1743_l2218)
  T  Enter Base at a base on the team's tile, any services in any order (L2146-L2148);
     test_enter_base_capture_and_services_l2146_l2187 (turn ``enter_base``)
  T  Repair: own base, 1 Requisition a unit back to full Integrity (L2151-L2153), which also clears its
     Damage Chart levels (L1111-L1113); test_repair_restores_integrity_and_clears_charts_l1111_l2151
  T  order a unit of the faction, 1 Requisition per 50 points rounded up (L2153-L2154);
     test_order_cost_l2153_l2154, test_ordering_a_unit_of_another_faction_or_over_1000_points_l1740_l2154
  T  Get Aid: own base, +3 Health and Mind to every pilot (L2157-L2158);
     test_repair_restores_integrity_and_clears_charts_l1111_l2151
     R  Health and Mind have no maximum
  T  Recruit a Pilot: own base, 2 Requisition, Health and Mind 1D6 each, no traits or EXP
     (L2161-L2164); test_enter_base_capture_and_services_l2146_l2187,
     test_base_services_and_rewards_are_offered_with_their_choices_l2151_l2164_l1821
     R  a recruit is a character (it can earn EXP), waiting in the team's reserve for a unit
  T  Capture Base: the base becomes the faction's, then the capture roll (L2167-L2170), also from an
     enemy (L2170-L2171); test_enter_base_capture_and_services_l2146_l2187, test_capture_table_l2175_l2187
  R  the faction that captured may not Enter Base there again this turn; services in the same action
     as the capture are allowed (L2171-L2172, A49); test_enter_base_capture_and_services_l2146_l2187

After a battle (L2190-L2208)
  T  War Effort and Mind: a unit withdrew -1/-1, a pilot killed -2/-2, half the points lost -3/-3,
     +1 War Effort per 50 points destroyed (rounded up), won +3/+3 (L2196-L2208);
     test_after_battle_table_l2190_l2208, test_battle_result_flows_back_l2132_l2208_l1854_l1901,
     test_a_pilot_killed_and_half_the_points_lost_l2200_l2203_l2135 (battle ``result``)
     R  "over 50% or more" read as half or more of the points the team fielded in that battle

Maps (L2209-L2228)
  R  the map images are missing: the grids, zones and places are the app's own layout, said on screen;
     test_five_maps_with_the_books_victory_bases_l1770_l1785 (maps ``note``)
  T  Side 6 is a neutral zone no team enters (L2218); test_neutral_zone_l2218,
     test_place_a_team_by_hand_one_per_tile_never_neutral_l1743_l2218
  T  the players may move a base, give it another holder, and set a tile's zone or make it neutral;
     test_the_map_edited_by_hand_a_base_moved_and_its_holder_l1770_l2218,
     test_a_tiles_zone_edited_by_hand_and_the_neutral_zone_closed_to_teams_l2218 (turn ``edit_base``,
     ``edit_tile``)
  T  tiles' terrain names ("unique geography", L1717-L1718): named in the map editor, shown in the tile and
     on the sheets of what stands there; tests/test_gundam_campaign_rules.py
     test_tiles_terrain_names_are_shown_on_the_map_and_edited_by_hand_l1717_l1718, tests/test_e2e_campaign.py
     (turn ``name_tile``, view ``terrain_step``)
     R  the book names no tile's terrain: the app's maps start with none, the players name them

Around the chapter (the issue's asks)
  T  undo and redo of every step; api: test_a_campaign_is_saved_as_a_record_and_a_damaged_one_set_aside;
     test_undo_and_redo_are_exact_over_a_campaign
  T  a battle's result applied once, to the same campaign at the same point;
     test_a_result_twice_stale_or_of_another_game_is_refused, api:
     test_one_battles_result_by_link_only_to_the_same_campaign_at_the_same_point,
     test_the_whole_campaign_as_a_link
"""

from __future__ import annotations

__all__: list[str] = []
