"""Cursors: opaque, unguessable, expiring handles to the next page of a stored result.

A cursor is the URL-safe base64 of::

    version (1 byte) | entry id (16 random bytes from ``secrets``) | expiry (uint32, unix seconds)
    | item offset (uint32) | part (uint16) | MAC (16 bytes)

where MAC = HMAC-SHA256(store secret, the fields above + tool name + argument fingerprint +
session id), truncated to 128 bits. So a cursor carries 128 bits of randomness, cannot be forged or
edited (a changed offset breaks the MAC; only the exact spelling ``mint_cursor`` produces is
accepted), and only verifies for the tool, the arguments (minus ``cursor``) and the client session
it was minted for. Nothing in it depends on the arguments but the MAC, which reveals nothing
without the secret; the plain fields are the random id, the expiry and the position. The
2026-07-28 MCP spec drops protocol sessions, so a missing session id (stdio, stateless HTTP) simply
binds to "no session". A cursor used from another session is told only that: not which tool or
arguments it belongs to.

Every failure raises ``CursorError`` (a ``ValueError``) whose message tells the model what to do,
e.g. ``cursor expired: call list_users again without cursor``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
import struct
import time
from dataclasses import dataclass
from typing import Any, Mapping

from .rendering import json_fallback
from .sdk_errors import flavoured

__all__ = ["CursorError", "CursorPosition", "fingerprint_arguments", "mint_cursor", "read_cursor",
           "new_entry_id", "ENTRY_ID_BYTES", "CURSOR_ARGUMENT"]

#: The tool argument that carries the cursor; excluded from the argument fingerprint.
CURSOR_ARGUMENT = "cursor"
#: Random bytes in an entry id (128 bits).
ENTRY_ID_BYTES = 16
_MAC_BYTES = 16
_VERSION = 1
_HEAD = struct.Struct(">B16sIIH")  # version, entry id, expiry, offset, part
_CURSOR_CHARS = 58  # base64url of the 43-byte token, unpadded


class CursorError(ValueError):
    """A cursor could not be honoured. ``str(err)`` is a message meant for the model.

    ``reason`` is one of ``"malformed"``, ``"tampered"``, ``"expired"``, ``"foreign"``,
    ``"evicted"``; ``tool`` is the tool to call again (without ``cursor``).
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> "CursorError":
        # an instance of a subclass that is also the loaded SDK's ToolError (sdk_errors.py)
        return super().__new__(flavoured(cls, "tool") if cls is CursorError else cls, *args)

    def __init__(self, message: str, *, reason: str, tool: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.tool = tool


@dataclass(frozen=True)
class CursorPosition:
    """What a verified cursor points at: a store entry, an item offset and a part of that item.

    ``offset`` counts records (record pages) or text pages (text results); ``part`` is the text
    page of a single record too large for the budget (0 when not inside such a record).
    """

    entry_id: str
    offset: int
    part: int
    expires_at: float


def fingerprint_arguments(arguments: Mapping[str, Any] | None) -> str:
    """SHA-256 hex digest of the tool arguments without ``cursor`` (canonical JSON, sorted keys;
    models, dataclasses and enums as the JSON ``next_action`` sends back, so the SDK's rebuilt
    objects on the next call fingerprint the same)."""
    args = {k: v for k, v in (arguments or {}).items() if k != CURSOR_ARGUMENT}
    canonical = json.dumps(args, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                           default=json_fallback)  # a model and its JSON form fingerprint alike
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def new_entry_id() -> str:
    """A fresh store entry id: 128 random bits from ``secrets``, as 32 hex characters."""
    return secrets.token_hex(ENTRY_ID_BYTES)


def _mac(secret: bytes, head: bytes, tool: str, fingerprint: str, session_id: str | None) -> bytes:
    binding = "\x00".join((tool, fingerprint, session_id or "")).encode("utf-8")
    return hmac.new(secret, head + b"\x00" + binding, hashlib.sha256).digest()[:_MAC_BYTES]


def mint_cursor(
    secret: bytes,
    *,
    entry_id: str,
    offset: int,
    part: int,
    expires_at: float,
    tool: str,
    fingerprint: str,
    session_id: str | None,
) -> str:
    """Encode a signed cursor (see the module docstring). Returns ASCII, 58 characters."""
    head = _HEAD.pack(_VERSION, bytes.fromhex(entry_id), int(expires_at), offset, part)
    return _encode(head + _mac(secret, head, tool, fingerprint, session_id))


def _encode(token: bytes) -> str:
    return base64.urlsafe_b64encode(token).decode("ascii").rstrip("=")


def _decode(cursor: str) -> tuple[bytes, tuple[int, bytes, int, int, int], bytes] | None:
    if not isinstance(cursor, str) or len(cursor) != _CURSOR_CHARS:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    except (binascii.Error, ValueError):
        return None
    # only the one spelling mint_cursor produces: the decoder would otherwise skip foreign
    # characters and ignore the 4 unused bits of the last character
    if len(raw) != _HEAD.size + _MAC_BYTES or _encode(raw) != cursor:
        return None
    head, mac = raw[: _HEAD.size], raw[_HEAD.size:]
    fields = _HEAD.unpack(head)
    if fields[0] != _VERSION:
        return None
    return head, fields, mac


def read_cursor(
    secret: bytes,
    cursor: str,
    *,
    tool: str,
    fingerprint: str,
    session_id: str | None,
    entry_binding: tuple[str, str, str | None] | None = None,
    now: float | None = None,
) -> CursorPosition:
    """Verify ``cursor`` for this call and return its position; raise ``CursorError`` otherwise.

    ``entry_binding`` is the (tool, fingerprint, session id) the store recorded for the cursor's
    entry, when the entry still exists: it tells a cursor of another call ("foreign") apart from
    an edited one ("tampered").
    """
    again = f"call {tool} again without cursor"
    decoded = _decode(cursor)
    if decoded is None:
        raise CursorError(f"invalid cursor: it was not issued by this server; {again}",
                          reason="malformed", tool=tool)
    head, (_, entry_raw, expires, offset, part), mac = decoded
    if not hmac.compare_digest(mac, _mac(secret, head, tool, fingerprint, session_id)):
        if entry_binding is not None and hmac.compare_digest(mac, _mac(secret, head, *entry_binding)):
            other_tool, other_fp, other_session = entry_binding
            if (other_session or "") != (session_id or ""):
                what = "another client session"  # and nothing about that session's call
            elif other_tool != tool:
                what = f"tool {other_tool}"
            else:
                what = "a call with different arguments"
            raise CursorError(
                f"cursor belongs to {what}: pass a cursor only with the same tool and the same "
                f"arguments it was returned with, or {again}",
                reason="foreign", tool=tool)
        raise CursorError(f"invalid cursor: it was modified or not issued for this call; {again}",
                          reason="tampered", tool=tool)
    now = time.time() if now is None else now
    if expires <= now:
        raise CursorError(f"cursor expired: {again}", reason="expired", tool=tool)
    return CursorPosition(entry_id=entry_raw.hex(), offset=offset, part=part,
                          expires_at=float(expires))


def peek_entry_id(cursor: str) -> str | None:
    """The entry id inside ``cursor`` without verifying it (to look up its binding), or None."""
    decoded = _decode(cursor)
    return None if decoded is None else decoded[1][1].hex()
