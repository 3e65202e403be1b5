"""What a tab may send: a hello and acts of a known shape, typed, at most 4 KiB;
anything else is Malformed (the socket closes 4400). The server's frames are JSON the
page reads, the scene passed through as encoded."""

from __future__ import annotations

import json

import pytest

from bot.table import frames
from bot.table.frames import MAX_FRAME_BYTES, Act, Hello, Malformed, parse

HELLO = {"t": "hello", "v": 1, "token": "tok", "instance": "i-1-gc-2-3", "locale": "de"}
ACT = {"t": "act", "n": 3, "session": 42, "version": 7, "action": "move", "arg": "roll"}


def test_a_hello_and_an_act_as_the_page_sends_them():
    assert parse(json.dumps(HELLO)) == Hello("tok", "i-1-gc-2-3", "de")
    assert parse(json.dumps(ACT).encode()) == Act(3, 42, 7, "move", "roll")
    # No token yet, no locale, no argument, no session (the start scene): all allowed.
    assert parse(json.dumps({"t": "hello", "v": 1, "instance": "i"})) == Hello("", "i", "")
    bare = {"t": "act", "n": 1, "session": None, "version": 0, "action": "open"}
    assert parse(json.dumps(bare)) == Act(1, None, 0, "open", "")


@pytest.mark.parametrize(
    "frame",
    [
        "",
        "not json",
        "[1, 2]",
        '"hello"',
        "{}",
        json.dumps({**HELLO, "t": "goodbye"}),
        json.dumps({**HELLO, "v": 2}),
        json.dumps({**HELLO, "v": True}),
        json.dumps({**HELLO, "token": 5}),
        json.dumps({**HELLO, "instance": None}),
        json.dumps({**HELLO, "extra": 1}),
        json.dumps({**HELLO, "locale": "x" * 17}),
        json.dumps({**ACT, "n": -1}),
        json.dumps({**ACT, "n": 1.5}),
        json.dumps({**ACT, "n": "1"}),
        json.dumps({**ACT, "n": 2**53}),
        json.dumps({**ACT, "version": True}),
        json.dumps({**ACT, "session": "42"}),
        json.dumps({**ACT, "action": ["move"]}),
        json.dumps({**ACT, "arg": "x" * 101}),
        json.dumps({k: v for k, v in ACT.items() if k != "version"}),
    ],
)
def test_anything_else_is_malformed(frame):
    with pytest.raises(Malformed):
        parse(frame)


def test_a_frame_over_4_kib_is_malformed_whatever_it_holds():
    padded = {**ACT, "arg": ""}
    text = json.dumps(padded)
    fits = text[:-1] + " " * (MAX_FRAME_BYTES - len(text)) + "}"
    assert parse(fits) == Act(3, 42, 7, "move", "")
    with pytest.raises(Malformed):
        parse(text[:-1] + " " * (MAX_FRAME_BYTES - len(text) + 1) + "}")
    wide = json.dumps({**ACT, "arg": "ż" * 100}, ensure_ascii=False)
    wide = wide[:-1] + " " * (4000 - len(wide)) + "}"  # 4,000 characters, 4,100 bytes
    with pytest.raises(Malformed):
        parse(wide)


def test_the_servers_frames():
    scene = json.dumps({"phase": "start", "title": "Würfel <b>"}, ensure_ascii=False)
    state = json.loads(frames.state(42, 7, 1_700_000_000_000, scene))
    assert state == {
        "t": "state",
        "session": 42,
        "version": 7,
        "now": 1_700_000_000_000,
        "scene": {"phase": "start", "title": "Würfel <b>"},
    }
    welcome = json.loads(frames.welcome(101, "Anne", "de", {"retry": "Nochmal"}))
    assert welcome == {
        "t": "welcome",
        "you": {"id": "101", "name": "Anne"},
        "locale": "de",
        "words": {"retry": "Nochmal"},
    }
    assert json.loads(frames.done(3)) == {"t": "done", "n": 3}
    assert json.loads(frames.refused(3, "No")) == {"t": "refused", "n": 3, "text": "No"}
    private = json.loads(frames.private(3, "Hint", ["a", "b"]))
    assert private == {"t": "private", "n": 3, "title": "Hint", "lines": ["a", "b"]}
