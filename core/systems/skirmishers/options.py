"""The game's toggles: each optional module and Advanced Combat rule (L352, L577, L811), and the
readings of unclear rules players may choose (digest section 9).

Modules are on by default so that the sample squads (crew-served weapon, vehicles, power armor,
sneak suit, experience) play at once.  Advanced body armor (L382-L393) is off by default, as the
standard rule (L198) is the core one; it is applied as the game starts (who goes first), from each
card's protected columns.  Vehicles and power
armor (L609-L908) are played by fielding them: their units bring their rules.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from core.systems.base import Readings


def _t(title: str, labels: dict[str, str] | None = None) -> Any:
    """A reading's name as players read it, and its choices' words."""
    return {"title": title, **({"json_schema_extra": {"x-labels": labels}} if labels else {})}


class SkOptions(Readings):
    crew_served: bool = Field(default=True, **_t("Crew-served weapons"))
    advanced_armor: bool = Field(default=False, **_t("Advanced body armor"))
    advanced_explosives: bool = Field(default=True, **_t("Launchers, incendiaries and smoke"))
    movement_fire: bool = Field(default=True, **_t("Movement fire"))
    sneak_suits: bool = Field(default=True, **_t("Sneak suits"))
    large_targets: bool = Field(default=True, **_t("Large targets"))
    experience: bool = Field(default=True, **_t("Trooper experience"))
    morale: bool = Field(default=True, **_t("Morale checks"))
    jet_packs: bool = Field(default=True, **_t("Jet packs"))
    collapse_literal: bool = Field(default=False, **_t("Collapse read as printed"))
    smoke_lasts: Literal["side_turns", "half_turns"] = Field(
        default="side_turns",
        **_t(
            "How long smoke lasts",
            {"side_turns": "12 of its side's turns", "half_turns": "12 turns, both sides counted"},
        ),
    )
    fire_lasts: Literal["next_round", "until_put_out"] = Field(
        default="next_round",
        **_t(
            "How long a fire burns",
            {"next_round": "To the end of the next round", "until_put_out": "Until put out"},
        ),
    )
    scatter_distance: Literal["one_dot", "d6_dots"] = Field(
        default="one_dot",
        **_t("How far a miss scatters", {"one_dot": "1 dot", "d6_dots": "1D6 dots for grenades"}),
    )
    morale_counts_out: bool = Field(default=False, **_t("Morale counts those out of action"))
    one_combat_action: bool = Field(default=False, **_t("One combat action a turn"))
    bayonets: Literal["rifle_class", "printed"] = Field(
        default="rifle_class",
        **_t(
            "Which guns carry a bayonet",
            {"rifle_class": "Every rifle- and SMG-class gun", "printed": "Only Rifle and SMG"},
        ),
    )
    water_blast: Literal["swimming", "any_water"] = Field(
        default="swimming",
        **_t(
            "Extra blast damage in water", {"swimming": "Swimmers only", "any_water": "Also in shallow water"}
        ),
    )
    power_armor_gear: bool = Field(default=True, **_t("Power armor exchanges its secondary"))
    morale_when: Literal["each_death", "turn_start"] = Field(
        default="each_death",
        **_t(
            "When morale checks fall due",
            {"each_death": "At each death from the 4th", "turn_start": "At each turn's start"},
        ),
    )
