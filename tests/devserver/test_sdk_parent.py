"""Discord's side of the Embedded App SDK's protocol as the stand-in plays it
(bot/devserver/standin/sdk_parent.py), frame by frame, without a browser: the handshake
and READY, AUTHORIZE with the consent the first time, AUTHENTICATE, the locale, the
participants and their updates, errors. The browser tests hold the same frames against
the real SDK (test_discord_client_browser.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.devserver.standin import FakeDiscord
from bot.devserver.standin.sdk_parent import CLOSE, FRAME, HANDSHAKE, Launch, ParentSide


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    stand_in = FakeDiscord(activities=True)
    yield stand_in


class Parent:
    """A ParentSide and what it sent, as the relay page would see it."""

    def __init__(self, fake: FakeDiscord, user: str, ticket: str = "ticket-aaaa") -> None:
        self.fake = fake
        self.sent: list[dict[str, Any]] = []
        launch = Launch(ticket, fake.user(user).id, fake.channel.id)
        self.side = ParentSide(fake, launch, self.sent.append)
        self.nonces = 0

    def posted(self) -> list[list[Any]]:
        """The frames posted to the page since the last call."""
        found = [frame["message"] for frame in self.sent if frame["op"] == "post"]
        self.sent[:] = [frame for frame in self.sent if frame["op"] != "post"]
        return found

    def open(self) -> dict[str, Any]:
        self.side.open()
        launch = self.sent.pop(0)
        assert launch["op"] == "launch"
        return launch

    def handshake(self, **changes: Any) -> list[list[Any]]:
        payload = {
            "v": 1,
            "encoding": "json",
            "client_id": str(self.fake.application_id),
            "frame_id": self.side.frame_id,
            "sdk_version": "2.5.0",
        } | changes
        self.side.receive({"op": "sdk", "message": [HANDSHAKE, payload]})
        return self.posted()

    def command(self, cmd: str, args: Any = None, **extra: Any) -> str:
        self.nonces += 1
        nonce = f"nonce-{self.nonces}"
        payload = {"cmd": cmd, "args": args, "nonce": nonce} | extra
        self.side.receive({"op": "sdk", "message": [FRAME, payload]})
        return nonce

    def answer(self, cmd: str, args: Any = None, **extra: Any) -> dict[str, Any]:
        """The one frame answering the command."""
        nonce = self.command(cmd, args, **extra)
        frames = self.posted()
        assert len(frames) == 1, frames
        opcode, payload = frames[0]
        assert opcode == FRAME and payload["nonce"] == nonce and payload["cmd"] == cmd
        return dict(payload)

    def authorize(self) -> dict[str, Any]:
        args = {
            "client_id": str(self.fake.application_id),
            "response_type": "code",
            "state": "",
            "prompt": "none",
            "scope": ["identify"],
        }
        return {"cmd": "AUTHORIZE", "args": args}


def exchange(fake: FakeDiscord, code: str) -> str:
    """What the table's server does with the code: the stand-in's token route."""
    form = {
        "client_id": str(fake.application_id),
        "client_secret": fake.client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }
    return str(fake.oauth.exchange(form)["access_token"])


async def test_open_makes_the_iframe_with_discords_query_and_the_handshake_gets_ready(
    fake: FakeDiscord,
) -> None:
    alice = Parent(fake, "alice")
    launch = alice.open()
    instance = fake.activity_instances.in_channel(fake.channel.id)
    assert instance is not None and instance.users == [fake.user("alice").id]
    assert launch["path"] == "/.proxy/t-ticket-aaaa/"
    assert launch["query"] == {
        "instance_id": instance.instance_id,
        "location_id": f"gc-{fake.guild_id}-{fake.channel.id}",
        "launch_id": str(instance.launch_id),
        "channel_id": str(fake.channel.id),
        "guild_id": str(fake.guild_id),
        "frame_id": alice.side.frame_id,
        "platform": "desktop",
    }
    # Commands before the handshake are not answered: Discord is not ready yet.
    alice.command("USER_SETTINGS_GET_LOCALE")
    assert alice.posted() == []
    [ready] = alice.handshake()
    assert ready[0] == FRAME
    assert ready[1]["cmd"] == "DISPATCH" and ready[1]["evt"] == "READY"
    assert ready[1]["nonce"] is None
    user = ready[1]["data"]["user"]
    assert user == {"id": str(fake.user("alice").id), "username": "alice", "discriminator": "0"}
    assert "avatar" not in user, "READY's schema refuses avatar: null"


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"v": 2}, 4004),
        ({"encoding": "etf"}, 4005),
        ({"client_id": "1"}, 4000),
        ({"frame_id": "another"}, 4000),
    ],
)
async def test_a_wrong_handshake_is_closed(
    fake: FakeDiscord, changes: dict[str, Any], code: int
) -> None:
    alice = Parent(fake, "alice")
    alice.open()
    [closed] = alice.handshake(**changes)
    assert closed[0] == CLOSE and closed[1]["code"] == code
    alice.command("CAPTURE_LOG", {"level": "log", "message": "x"})
    assert alice.posted() == [], "no command is answered without a handshake"


async def test_authorize_asks_once_then_the_code_signs_in(fake: FakeDiscord) -> None:
    alice = Parent(fake, "alice")
    alice.open()
    alice.handshake()
    nonce = alice.command(**alice.authorize())
    assert alice.posted() == [], "nothing until the person answers the dialog"
    [ask] = alice.sent
    assert ask["op"] == "consent" and ask["nonce"] == nonce
    assert ask["title"] == "Dice Games wants to access your Discord account"
    assert ask["lines"] == ["Know your username, avatar and banner"]
    alice.side.receive({"op": "consent", "nonce": nonce, "granted": True})
    [(opcode, answer)] = alice.posted()
    assert opcode == FRAME
    assert answer == {"cmd": "AUTHORIZE", "evt": None, "nonce": nonce, "data": answer["data"]}
    token = exchange(fake, answer["data"]["code"])

    # USER_SETTINGS_GET_LOCALE needs identify: refused before AUTHENTICATE.
    refused = alice.answer("USER_SETTINGS_GET_LOCALE")
    assert refused["evt"] == "ERROR" and refused["data"]["code"] == 4006
    signed_in = alice.answer("AUTHENTICATE", {"access_token": token})
    assert signed_in["evt"] is None
    data = signed_in["data"]
    assert data["access_token"] == token and data["scopes"] == ["identify"]
    assert data["user"]["id"] == str(fake.user("alice").id)
    assert data["application"]["id"] == str(fake.application_id)
    fake.user("alice").locale = "de"
    assert alice.answer("USER_SETTINGS_GET_LOCALE")["data"] == {"locale": "de"}

    # Asked again (the page reloaded): no dialog, a code at once.
    alice.sent.clear()
    again = alice.answer(**alice.authorize())
    assert again["data"]["code"] and alice.sent == []


async def test_declined_consent_and_bad_tokens_are_refused_as_the_sdk_expects(
    fake: FakeDiscord,
) -> None:
    bob = Parent(fake, "bob")
    bob.open()
    bob.handshake()
    nonce = bob.command(**bob.authorize())
    bob.side.receive({"op": "consent", "nonce": nonce, "granted": False})
    [(_, declined)] = bob.posted()
    assert declined["evt"] == "ERROR" and declined["data"]["code"] == 5000
    assert fake.oauth.consented(fake.user("bob").id, ["identify"]) is False

    wrong_client = bob.authorize()
    wrong_client["args"]["client_id"] = "42"
    assert bob.answer(**wrong_client)["data"]["code"] == 4007
    made_up = bob.answer("AUTHENTICATE", {"access_token": "made-up"})
    assert made_up["evt"] == "ERROR" and made_up["data"]["code"] == 4009
    alices = exchange(fake, fake.mint_code("alice"))
    assert bob.answer("AUTHENTICATE", {"access_token": alices})["data"]["code"] == 4009
    assert bob.answer("OPEN_EXTERNAL_LINK", {"url": "https://x"})["data"]["code"] == 4002
    assert bob.answer("SUBSCRIBE", {}, evt="NOT_AN_EVENT")["data"]["code"] == 4004


async def test_participants_come_and_go_and_the_end_closes_the_activity(
    fake: FakeDiscord,
) -> None:
    alice, bob = Parent(fake, "alice"), Parent(fake, "bob", "ticket-bbbb")
    alice.open()
    alice.handshake()
    listed = alice.answer("GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS")["data"]
    assert [p["id"] for p in listed["participants"]] == [str(fake.user("alice").id)]
    subscribed = alice.answer("SUBSCRIBE", {}, evt="ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE")
    assert subscribed["data"] == {"evt": "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"}

    bob.open()  # the stand-in tells its listeners; here, by hand
    alice.side.changed()
    [(_, update)] = alice.posted()
    assert update["cmd"] == "DISPATCH" and update["nonce"] is None
    assert update["evt"] == "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"
    people = update["data"]["participants"]
    assert [p["username"] for p in people] == ["alice", "bob"]
    assert people[1] | {"avatar": None} == people[1] and people[1]["bot"] is False
    alice.side.changed()
    assert alice.posted() == [], "no update when nothing changed"

    bob.side.leave()
    alice.side.changed()
    [(_, update)] = alice.posted()
    assert [p["username"] for p in update["data"]["participants"]] == ["alice"]

    fake.end_activity(alice.side.instance_id)
    alice.side.changed()
    assert alice.sent[-1] == {"op": "ended", "text": "The activity has ended."}
