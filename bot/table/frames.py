"""The table's socket protocol: the frames a tab may send, read strictly (a frame is
at most 4 KiB of JSON, an object of a known shape with fields of their types; anything
else is `Malformed` and closes the socket 4400), the frames the server sends, and the
close codes the page acts on (the table's protocol, /api/ws).

    tab -> server   {"t": "hello", "v": 1, "token", "instance", "locale"}  first
                    {"t": "act", "n", "session", "version", "action", "arg"?}
    server -> tab   welcome, state, done, refused, private
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import orjson

MAX_FRAME_BYTES = 4096
PROTOCOL_VERSION = 1
MAX_TOKEN_CHARS = 512  # Discord's access tokens are 30-ish characters
MAX_LOCALE_CHARS = 16
MAX_ACTION_CHARS = 16
MAX_ARG_CHARS = 100  # a button's argument (a custom_id is 100 characters at most)
MAX_NUMBER = 2**53 - 1  # the page's numbers are JavaScript's: exact below this
# An activity instance's id as Discord makes them (i-<launch>-gc-<guild>-<channel>, ...):
# anything else names no instance, and is never put into a URL.
INSTANCE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,199}")


class Close(IntEnum):
    """Why the server closes a tab's socket (the page says why, in the person's
    language; on 4401 it signs in again; on codes below 4400 it reconnects)."""

    SERVER_ERROR = 1011  # a bug of ours, logged: reconnect
    GOING_AWAY = 1012  # the server restarts: reconnect (to the next process)
    TRY_AGAIN = 1013  # Discord did not answer who the tab is: reconnect later
    MALFORMED = 4400
    TOKEN_REFUSED = 4401
    NOT_IN_INSTANCE = 4403
    INSTANCE_ENDED = 4404
    FLOOD = 4429


class Malformed(ValueError):
    """A frame the protocol has no place for."""


@dataclass(frozen=True, slots=True)
class Hello:
    token: str  # "" when the page has none
    instance: str
    locale: str


@dataclass(frozen=True, slots=True)
class Act:
    n: int
    session: int | None
    version: int
    action: str
    arg: str


ClientFrame = Hello | Act

_HELLO_KEYS = {"t", "v", "token", "instance", "locale", "seen"}
_ACT_KEYS = {"t", "n", "session", "version", "action", "arg"}


def parse(data: str | bytes) -> ClientFrame:
    """The frame a tab sent; Malformed for anything else."""
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > MAX_FRAME_BYTES:
        raise Malformed(f"a frame of {len(raw)} bytes (at most {MAX_FRAME_BYTES})")
    try:
        frame = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise Malformed("not JSON") from None
    if not isinstance(frame, dict):
        raise Malformed("not a JSON object")
    kind = frame.get("t")
    if kind == "hello":
        return _hello(frame)
    if kind == "act":
        return _act(frame)
    raise Malformed(f"no frame {str(kind)[:20]!r}")


def _hello(frame: dict[str, Any]) -> Hello:
    _known(frame, _HELLO_KEYS)
    if _number(frame, "v") != PROTOCOL_VERSION:
        raise Malformed("hello: v must be 1")
    seen = frame.get("seen")
    if seen is not None and not _is_number(seen):
        raise Malformed("hello: seen must be a number or null")
    return Hello(
        token=_text(frame, "token", MAX_TOKEN_CHARS, default=""),
        instance=_text(frame, "instance", 200),
        locale=_text(frame, "locale", MAX_LOCALE_CHARS, default=""),
    )


def _act(frame: dict[str, Any]) -> Act:
    _known(frame, _ACT_KEYS)
    session = frame.get("session")
    if session is not None and not _is_number(session):
        raise Malformed("act: session must be a number or null")
    return Act(
        n=_number(frame, "n"),
        session=session,
        version=_number(frame, "version"),
        action=_text(frame, "action", MAX_ACTION_CHARS),
        arg=_text(frame, "arg", MAX_ARG_CHARS, default=""),
    )


def _known(frame: dict[str, Any], keys: set[str]) -> None:
    unknown = set(frame) - keys
    if unknown:
        raise Malformed(f"{frame['t']}: unknown field {sorted(unknown)[0][:20]!r}")


def _is_number(value: object) -> bool:
    # bool is an int to Python, not to the protocol
    return type(value) is int and 0 <= value <= MAX_NUMBER


def _number(frame: dict[str, Any], key: str) -> int:
    value = frame.get(key)
    if not _is_number(value):
        raise Malformed(f"{frame['t']}: {key} must be a whole number")
    assert isinstance(value, int)
    return value


def _text(frame: dict[str, Any], key: str, longest: int, *, default: str | None = None) -> str:
    value = frame.get(key, default)
    if not isinstance(value, str) or len(value) > longest:
        raise Malformed(f"{frame['t']}: {key} must be text of at most {longest} characters")
    return value


# ------------------------------------------------------------------ server -> tab


def encode(frame: dict[str, Any]) -> str:
    return orjson.dumps(frame).decode()


def welcome(user_id: int, name: str, locale: str, words: dict[str, str]) -> str:
    you = {"id": str(user_id), "name": name}
    return encode({"t": "welcome", "you": you, "locale": locale, "words": words})


def state(session: int | None, version: int, now_ms: int, scene_json: str) -> str:
    """A state frame around a scene already encoded (shared by every tab that sees it)."""
    head = encode({"t": "state", "session": session, "version": version, "now": now_ms})
    return f'{head[:-1]},"scene":{scene_json}}}'


def done(n: int) -> str:
    return encode({"t": "done", "n": n})


def refused(n: int, text: str) -> str:
    return encode({"t": "refused", "n": n, "text": text})


def private(n: int, title: str, lines: list[str]) -> str:
    return encode({"t": "private", "n": n, "title": title, "lines": lines})
