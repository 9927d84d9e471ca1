"""Game content kept as JSON data files inside a system's package, read and validated at import.

Tables a rulebook prints (weapon rows, example units, conditions a card tracks)
are data the engine interprets, not code: each system keeps them in ``*.json``
files beside its modules, and its modules read them with :func:`load`, which
validates the file against a pydantic model so that a mistyped table stops the
import (and the build's tests) instead of reaching a player.  ``build.py`` packs
these files into the core's wheel next to the modules.
"""

from __future__ import annotations

from importlib import resources
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

ModelT = TypeVar("ModelT", bound=BaseModel)


def load(package: str, name: str, model: type[ModelT]) -> ModelT:
    """The data file ``name`` of ``package``, validated as ``model`` (ValidationError if it does not fit)."""
    return model.model_validate_json(resources.files(package).joinpath(name).read_bytes())


class Samples(BaseModel):
    """Units of the app's own making for a book that prints none (a package's samples file).

    ``units`` are profiles by catalogue key, validated by the system's own profile model when it reads them;
    ``forces`` are ready-made forces, by name, of those keys (two make a sample battle).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    note: str
    units: dict[str, dict[str, Any]]
    forces: dict[str, list[str]] = Field(default_factory=dict)
