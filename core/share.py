"""Share links: a squad or a whole game as a compact, versioned, checksummed URL token.

The token goes in the URL fragment (``#/open/<token>``), which browsers never
send to a server.  Layout, before base64url (no padding)::

    byte 0      format version (FORMAT)
    bytes 1-4   CRC-32 of the JSON below, big-endian
    bytes 5-    the JSON, raw-deflated at level 9

The JSON is ``{"k": kind, "s": system, "d": data}``, the kind one of squad,
game, the request and answer of secret choices made on another phone
(:mod:`core.remote`), a whole campaign and one battle's result for it
(:mod:`core.campaign`); a squad's units are
packed by their rule system (short positional arrays), so a typical squad fits
a QR code.  Decoding never raises anything but :class:`ShareError`, whose
message is meant for the player.

>>> from core.squad import Squad
>>> token = encode_squad(Squad(id="x", name="Empty", system="gunframe"))
>>> decode(token).squad.name
'Empty'
>>> decode(token[:-3])
Traceback (most recent call last):
...
core.share.ShareError: This link is damaged: it does not match its checksum (was it cut short or edited?).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from core import limits
from core.campaign import BattleResult, Campaign
from core.game import GAME_SCHEMA, NEWER_GAME, Game, upgrade
from core.remote import Answer, Request
from core.squad import MAX_UNITS, PROFILE_LIMITS, Squad, SquadUnit
from core.systems import implementation, unplayable

FORMAT = 1
#: Longest token accepted: a squad is far shorter; a long game may come near.
MAX_TOKEN = 200_000
TOKEN_CHARS = re.compile(r"[A-Za-z0-9_-]+")
#: Largest JSON a token may inflate to (a guard against deflate bombs).
MAX_JSON = 2_000_000
#: The shape an inflated token may have, checked before it is parsed (core.limits). A game
#: with a full log (5,000 events) holds about 30,000 lists and objects and 130,000 values;
#: a deeper nesting than 40 is no squad, game or choice of ours.
TOKEN_LIMITS = limits.Limits(max_chars=MAX_JSON, max_depth=40, max_containers=100_000, max_values=500_000)
#: Longest name a squad, game or side keeps (the models' limit): a longer one is shortened.
MAX_NAME = 80


class ShareError(ValueError):
    """A token that cannot be opened, with a message for the player."""


class Shared(BaseModel):
    """What a token held."""

    kind: Literal["squad", "game", "request", "answer", "campaign", "result"]
    squad: Squad | None = None
    game: Game | None = None
    request: Request | None = None
    answer: Answer | None = None
    campaign: Campaign | None = None
    result: BattleResult | None = None
    notes: list[str] = Field(
        default_factory=list, description="What was changed to open it (names shortened)."
    )


KINDS = {"squad", "game", "request", "answer", "campaign", "result"}


def _wrap(payload: dict[str, Any]) -> str:
    raw = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
    body = deflate.compress(raw) + deflate.flush()
    blob = bytes([FORMAT]) + zlib.crc32(raw).to_bytes(4, "big") + body
    return base64.urlsafe_b64encode(blob).rstrip(b"=").decode("ascii")


def encode_squad(squad: Squad) -> str:
    """The token of a squad, its units packed by their rule system."""
    system = implementation(squad.system)
    units = []
    for i, entry in enumerate(squad.units):
        packed = system.pack_profile(system.profile_model.model_validate(entry.profile))
        units.append(packed if entry.key == f"u{i + 1}" else [entry.key, packed])
    data: dict[str, Any] = {"n": squad.name, "u": units}
    if squad.limit is not None:
        data["l"] = squad.limit
    return _wrap({"k": "squad", "s": squad.system, "d": data})


def encode_game(game: Game) -> str:
    """The token of a whole game (its state and log)."""
    return _wrap({"k": "game", "s": game.system, "d": game.model_dump(mode="json")})


def encode_campaign(campaign: Campaign) -> str:
    """The token of a whole campaign (its state and log)."""
    return _wrap({"k": "campaign", "s": campaign.system, "d": campaign.model_dump(mode="json")})


def encode_result(result: BattleResult) -> str:
    """The token of one battle's result, for the same campaign on another phone."""
    return _wrap({"k": "result", "s": result.game.system, "d": result.model_dump(mode="json")})


def encode_request(req: Request) -> str:
    """The token asking another phone for one side's secret choices."""
    return _wrap({"k": "request", "s": req.system, "d": req.model_dump(mode="json", exclude_defaults=True)})


def encode_answer(ans: Answer, system: str) -> str:
    """The token carrying those choices back to the host."""
    return _wrap({"k": "answer", "s": system, "d": ans.model_dump(mode="json")})


def _unwrap(token: str) -> dict[str, Any]:
    token = token.strip()
    if not token:
        raise ShareError("This link holds no squad or game.")
    if len(token) > MAX_TOKEN:
        raise ShareError("This link is too long to be one of ours.")
    if not TOKEN_CHARS.fullmatch(token):
        raise ShareError("This link is damaged: it has characters a share code never has.")
    try:
        blob = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError) as bad:
        raise ShareError("This link is damaged: it has characters a share code never has.") from bad
    if len(blob) < 6:
        raise ShareError("This link is damaged: it is too short.")
    if blob[0] > FORMAT:
        raise ShareError("This link was made by a newer version of the app: update the app to open it.")
    if blob[0] != FORMAT:
        raise ShareError("This link is not a Table Companion share code.")
    inflate = zlib.decompressobj(-15)
    try:
        raw = inflate.decompress(blob[5:], MAX_JSON + 1)
    except zlib.error as bad:
        raise ShareError(
            "This link is damaged: it does not match its checksum (was it cut short or edited?)."
        ) from bad
    if len(raw) > MAX_JSON or inflate.unconsumed_tail:
        raise ShareError("This link holds more than a squad or game could.")
    if zlib.crc32(raw) != int.from_bytes(blob[1:5], "big"):
        raise ShareError(
            "This link is damaged: it does not match its checksum (was it cut short or edited?)."
        )
    try:
        payload = limits.loads(raw.decode("utf-8"), TOKEN_LIMITS)
    except limits.TooBig as big:
        raise ShareError(f"This link holds more than a squad or game could: {big}.") from big
    except (ValueError, RecursionError) as bad:
        raise ShareError("This link is damaged: its contents are not readable.") from bad
    if not isinstance(payload, dict) or not isinstance(payload.get("k"), str) or payload["k"] not in KINDS:
        raise ShareError("This link is damaged: it holds neither a squad nor a game.")
    return payload


def _first_problem(error: ValidationError) -> str:
    """The first thing wrong, where and what, in a few words (never the value itself)."""
    first = error.errors(include_url=False, include_input=False, include_context=False)[0]
    where = ".".join(str(p) for p in first["loc"])
    message = str(first["msg"]).removeprefix("Value error, ")
    return limits.short(f"{where}: {message}" if where else message, 120)


def _shorten(data: dict[str, Any], key: str, what: str, notes: list[str]) -> None:
    """Cut a name longer than the models allow, and say so (a long name never blocks opening)."""
    value = data.get(key)
    if isinstance(value, str) and len(value) > MAX_NAME:
        data[key] = value[: MAX_NAME - 1].rstrip() + "…"
        notes.append(f"{what} was {len(value):,} characters long: it was shortened to {MAX_NAME}.")


def _squad(system_id: str, data: Any, notes: list[str]) -> Squad:
    try:
        system = implementation(system_id)
    except ValueError as bad:
        raise ShareError("This link is for a rule system this app cannot open.") from bad
    if not isinstance(data, dict) or not isinstance(data.get("u"), list):
        raise ShareError("This link is damaged: its squad is incomplete.")
    if len(data["u"]) > MAX_UNITS:
        raise ShareError(f"This link is damaged: a squad holds at most {MAX_UNITS} units.")
    _shorten(data, "n", "The squad's name", notes)
    units = []
    for i, item in enumerate(data["u"]):
        key, packed = f"u{i + 1}", item
        if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str):
            key, packed = item
        try:
            limits.check(json.dumps(packed), PROFILE_LIMITS)
        except limits.TooBig as big:
            raise ShareError(f"This link is damaged: unit {i + 1} is too large to be one ({big}).") from big
        try:
            profile = system.unpack_profile(packed)
        except ValidationError as bad:
            raise ShareError(
                f"This link is damaged: unit {i + 1} cannot be read ({_first_problem(bad)})."
            ) from bad
        except (ValueError, TypeError, IndexError, KeyError, AttributeError, RecursionError) as bad:
            raise ShareError(f"This link is damaged: unit {i + 1} cannot be read.") from bad
        units.append(SquadUnit.model_construct(key=key, profile=profile.model_dump(mode="json")))
    try:
        return Squad.model_validate(
            {
                "id": "shared",
                "name": data.get("n", "Shared squad"),
                "system": system_id,
                "limit": data.get("l"),
                "units": [u.model_dump() for u in units],
            }
        )
    except ValidationError as bad:
        raise ShareError(f"This link is damaged: {_first_problem(bad)}.") from bad


#: Kinds stored whole (not packed like a squad): their model, and what a damaged one fails to hold.
_WHOLE: dict[str, tuple[type[BaseModel], str]] = {
    "game": (Game, "its game"),
    "request": (Request, "the choices it asks for"),
    "answer": (Answer, "the choices it carries"),
    "campaign": (Campaign, "its campaign"),
    "result": (BattleResult, "its battle result"),
}


def _game_names(data: Any, notes: list[str]) -> None:
    """Shorten a shared game's over-long names (the game, its sides) before it is read."""
    if not isinstance(data, dict):
        return
    _shorten(data, "name", "The game's name", notes)
    sides = data.get("sides")
    for n, side in enumerate(sides if isinstance(sides, list) else []):
        if isinstance(side, dict):
            _shorten(side, "name", f"The name of side {n + 1}", notes)
            _shorten(side, "squad_name", f"The squad name of side {n + 1}", notes)


def _playable(system_id: str, data: Any) -> None:
    """A game link this build cannot play is refused in plain words, before it can be saved."""
    schema = data.get("schema_version") if isinstance(data, dict) else None
    if isinstance(schema, int) and not isinstance(schema, bool) and schema > GAME_SCHEMA:
        raise ShareError(NEWER_GAME)
    why = unplayable(system_id)
    if why is not None:
        raise ShareError(f"This game cannot be opened. {why}")


def decode(token: str) -> Shared:
    """Open a token; raises only :class:`ShareError`, with a message for the player.

    The token's text and its inflated JSON are measured before anything is parsed
    (``TOKEN_LIMITS``), and no message echoes what the link holds.
    """
    if not isinstance(token, str):
        raise ShareError("This link holds no squad or game.")
    payload = _unwrap(token)
    system_id = payload.get("s")
    if not isinstance(system_id, str):
        raise ShareError("This link is damaged: it names no rule system.")
    notes: list[str] = []
    if payload["k"] == "squad":
        return Shared(kind="squad", squad=_squad(system_id, payload.get("d"), notes), notes=notes)
    kind = payload["k"]
    model, what = _WHOLE[kind]
    data = payload.get("d")
    if kind == "game":
        _playable(system_id, data)
    try:
        if kind == "game" and isinstance(data, dict):
            data = upgrade(data)  # a game shared by an older build, in today's format
            _game_names(data, notes)
        value = model.model_validate(data)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as bad:
        raise ShareError(f"This link is damaged: {what} cannot be read.") from bad
    if getattr(getattr(value, "game", value), "system", system_id) != system_id:
        raise ShareError(f"This link is damaged: its {kind} is for another rule system.")
    return Shared.model_validate({"kind": kind, kind: value, "notes": notes})
