"""A unit laid out for the table: its card (squad editor, roster, game) and what it shows in play
beyond damage, conditions and counters (items it holds, tracks of cells to cross).

Every system builds these; :mod:`core.systems.base` names them too, as the rest of what a system
supplies.

>>> row = GridRow(label="", cells=[GridCell(text="1", mark="full")])
>>> CellGrid(title="Armor", rows=[row]).rows[0].cells[0].mark
'full'
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class CardLine(BaseModel):
    """One line of a unit card: a value, and what sits on it (an upgrade, a note)."""

    label: str
    value: str
    note: str = ""


class UnitCard(BaseModel):
    """A unit laid out for reading at the table (squad editor, roster, game)."""

    title: str
    kind: str = ""
    lines: list[CardLine] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list, description="What its special rules do, briefly.")


class ViewItem(BaseModel):
    """One thing a unit holds (a card in hand, a planned card...)."""

    id: str
    label: str
    detail: str = ""


class ViewBinding(BaseModel):
    """Lets the player act by picking items of a section: the chosen ids fill one input field."""

    action: str
    field: str
    count: int = Field(default=0, description="How many items must be picked; 0 for any number.")
    label: str
    fixed: dict[str, Any] = Field(default_factory=dict, description="The action's other inputs.")
    mode: Literal["act", "prefill"] = Field(
        default="act",
        description="'act' runs the action at once; 'prefill' fills the action form for the player "
        "to complete (e.g. a target) and roll.",
    )
    auto: bool = Field(
        default=False,
        description="'act' only: runs as soon as ``count`` items are picked, with no button to confirm "
        "(the change comes with Undo).",
    )


class ViewSection(BaseModel):
    """A group of items on a unit's card; a private one is hidden until its owner looks."""

    title: str
    items: list[ViewItem] = Field(default_factory=list)
    private: bool = False
    bind: ViewBinding | None = None


class GridCell(BaseModel):
    """One cell of a card's track as the player has it on paper."""

    text: str = Field(default="", max_length=12, description="What the cell shows (a label, a number).")
    mark: Literal["", "half", "full", "off"] = Field(
        default="",
        description="'half': partly crossed; 'full': crossed out; 'off': marked off before the game.",
    )
    star: bool = Field(default=False, description="A cell the card marks specially (a star).")
    current: bool = Field(default=False, description="The column the unit is at now.")


class GridRow(BaseModel):
    """A row of a card's track: its label and its cells, left to right."""

    label: str = Field(max_length=20)
    cells: list[GridCell] = Field(max_length=40)


class CellGrid(BaseModel):
    """A unit card's track of cells to cross, drawn as the rulebook prints it, with its current marks.

    The shell draws it on the unit's one-line card, always in view, so a hit shows where it landed.
    """

    title: str = Field(max_length=60)
    rows: list[GridRow] = Field(max_length=8)
    note: str = Field(default="", max_length=200, description="What the current column means, in words.")


class UnitView(BaseModel):
    """What a system shows of a unit in play beyond damage, conditions and counters."""

    sections: list[ViewSection] = Field(default_factory=list)
    grids: list[CellGrid] = Field(
        default_factory=list, description="Tracks of cells to cross, drawn as the card prints them."
    )
