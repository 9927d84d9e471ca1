"""Share links: a squad or a whole game as a compact, versioned, checksummed URL token.

The token goes in the URL fragment (``#/open/<token>``), which browsers never
send to a server.  Layout, before base64url (no padding)::

    byte 0      format version (FORMAT)
    bytes 1-4   CRC-32 of the JSON below, big-endian
    bytes 5-    the JSON, raw-deflated at level 9

The JSON is ``{"k": kind, "s": system, "d": data}``, the kind one of squad,
game, and the request and answer of secret choices made on another phone
(:mod:`core.remote`); a squad's units are
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

from pydantic import BaseModel, ValidationError

from core.game import Game, upgrade
from core.remote import Answer, Request
from core.squad import Squad, SquadUnit
from core.systems import implementation

FORMAT = 1
#: Longest token accepted: a squad is far shorter; a long game may come near.
MAX_TOKEN = 200_000
TOKEN_CHARS = re.compile(r"[A-Za-z0-9_-]+")
#: Largest JSON a token may inflate to (a guard against deflate bombs).
MAX_JSON = 2_000_000


class ShareError(ValueError):
    """A token that cannot be opened, with a message for the player."""


class Shared(BaseModel):
    """What a token held."""

    kind: Literal["squad", "game", "request", "answer"]
    squad: Squad | None = None
    game: Game | None = None
    request: Request | None = None
    answer: Answer | None = None


KINDS = {"squad", "game", "request", "answer"}


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
        payload = json.loads(raw)
    except ValueError as bad:
        raise ShareError("This link is damaged: its contents are not readable.") from bad
    if not isinstance(payload, dict) or payload.get("k") not in KINDS:
        raise ShareError("This link is damaged: it holds neither a squad nor a game.")
    return payload


def _squad(system_id: str, data: Any) -> Squad:
    try:
        system = implementation(system_id)
    except ValueError as bad:
        raise ShareError(f"This link is for a rule system this app cannot open: {bad}.") from bad
    if not isinstance(data, dict) or not isinstance(data.get("u"), list):
        raise ShareError("This link is damaged: its squad is incomplete.")
    units = []
    for i, item in enumerate(data["u"]):
        key, packed = f"u{i + 1}", item
        if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str):
            key, packed = item
        try:
            profile = system.unpack_profile(packed)
        except (ValueError, TypeError, IndexError, KeyError) as bad:
            raise ShareError(f"This link is damaged: unit {i + 1} cannot be read ({bad}).") from bad
        units.append(SquadUnit(key=key, profile=profile.model_dump(mode="json")))
    try:
        return Squad(
            id="shared",
            name=data.get("n", "Shared squad"),
            system=system_id,
            limit=data.get("l"),
            units=units,
        )
    except ValidationError as bad:
        raise ShareError(f"This link is damaged: {bad.errors(include_url=False)[0]['msg']}.") from bad


#: Kinds stored whole (not packed like a squad): their model, and what a damaged one fails to hold.
_WHOLE: dict[str, tuple[type[BaseModel], str]] = {
    "game": (Game, "its game"),
    "request": (Request, "the choices it asks for"),
    "answer": (Answer, "the choices it carries"),
}


def decode(token: str) -> Shared:
    """Open a token; raises only :class:`ShareError`, with a message for the player."""
    payload = _unwrap(token)
    system_id = payload.get("s")
    if not isinstance(system_id, str):
        raise ShareError("This link is damaged: it names no rule system.")
    if payload["k"] == "squad":
        return Shared(kind="squad", squad=_squad(system_id, payload.get("d")))
    kind = payload["k"]
    model, what = _WHOLE[kind]
    data = payload.get("d")
    if kind == "game" and isinstance(data, dict):
        data = upgrade(data)  # a game shared by an older build, in today's format
    try:
        value = model.model_validate(data)
    except ValidationError as bad:
        raise ShareError(f"This link is damaged: {what} cannot be read.") from bad
    if getattr(value, "system", system_id) != system_id:
        raise ShareError(f"This link is damaged: its {kind} is for another rule system.")
    return Shared.model_validate({"kind": kind, kind: value})
