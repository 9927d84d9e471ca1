"""Action declarations built by systems/base's helpers: texts from actions.json, input read from resolve."""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import pytest
from pydantic import ValidationError

from core.dice import DiceSource
from core.game import Game
from core.systems import SYSTEMS, implementation
from core.systems.base import ActionResult, ActionSpec, ActionTexts, Closed, action_flow, enemy_unit, own_unit


def _packages_with_texts() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for info in SYSTEMS:
        if info.status != "playable":
            continue
        files = resources.files(f"core.systems.{info.id}")
        if files.joinpath("actions.json").is_file():
            found.append((info.id, json.loads(files.joinpath("actions.json").read_text())))
    return found


def test_gunframe_keeps_its_action_texts_in_actions_json() -> None:
    assert [sid for sid, _ in _packages_with_texts()] == ["gunframe"]


@pytest.mark.parametrize(("system_id", "texts"), _packages_with_texts())
def test_every_text_is_an_action_the_system_offers_as_written(system_id: str, texts: dict[str, Any]) -> None:
    actions = implementation(system_id).actions
    assert set(texts) <= set(actions), set(texts) - set(actions)
    for name, text in texts.items():
        assert (actions[name].label, actions[name].help) == (text["label"], text.get("help", ""))


def test_gunframe_texts_read_as_the_game_screen_shows_them() -> None:
    actions = implementation("gunframe").actions
    assert actions["evade"].label == "Evade"
    assert actions["evade"].help == (
        "Remove a Target Lock on the unit, or give it an Evade counter, once a turn (L1381-1394)."
    )
    assert actions["wingman_move"].label == "Wingman: copy a move"
    uncited = [name for name, a in actions.items() if not re.search(r"\bL\d+", a.help)]
    assert uncited == []


def test_a_text_with_a_field_it_does_not_know_stops_the_import() -> None:
    with pytest.raises(ValidationError):
        ActionTexts.model_validate({"aim": {"label": "Aim", "hint": "Take aim."}})
    with pytest.raises(KeyError):
        ActionTexts.model_validate({}).spec("aim", _resolve_aim)


class Aim(Closed):
    unit: str = own_unit("Who aims.")
    at: str = enemy_unit("At whom.")
    spotter: str | None = own_unit("A friend who spots.", default=None)


def _resolve_aim(game: Game, inp: Aim, dice: DiceSource) -> ActionResult:
    return ActionResult(changes=[], text=f"{inp.unit} aims at {inp.at}")


def _unannotated(game, inp, dice):  # type: ignore[no-untyped-def]
    return ActionResult(changes=[], text="")


def test_the_input_model_is_read_from_the_resolve_functions_signature() -> None:
    spec = ActionSpec.of("aim", "Aim", _resolve_aim, "Take aim.", rolls=False)
    assert (spec.input, spec.name, spec.label, spec.rolls) == (Aim, "aim", "Aim", False)
    assert spec.help == "Take aim."
    flow = action_flow(spec)
    assert (flow.actor, flow.target) == ("unit", "at")
    schema = Aim.model_json_schema()
    assert schema["properties"]["spotter"] == {
        "anyOf": [{"type": "string"}, {"type": "null"}],
        "default": None,
        "description": "A friend who spots.",
        "title": "Spotter",
        "ui": "own-unit",
    }
    assert schema["required"] == ["unit", "at"]
    with pytest.raises(TypeError, match="_unannotated"):
        ActionSpec.of("x", "X", _unannotated, "")
