"""Bad input at the table (issue 60): each is told in the person's language or closed
with the protocol's code, nothing committed changes, nothing is logged as a failure,
and the other tabs and the chat game go on."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest

from bot.devserver.standin import FakeDiscord
from bot.devserver.standin.models import RequestRecord
from bot.i18n import t, with_locale
from bot.sessions import actions
from bot.sessions.actions import Actor
from bot.table.identity import (
    REFUSAL_BURST,
    STALE_SECONDS,
    DiscordUnavailable,
    Identity,
    TokenRefused,
)
from bot.table.pace import TokenBucket
from tests.table.server.conftest import SOON, WAIT, TabClient, Table, live_message_at, tracebacks

PATIENCE = 0.5  # how long the server waits for Discord in these tests


def said(key: str, locale: str, **params: object) -> str:
    with with_locale(locale):
        return t(key, **params)


async def game_of_two(table: Table) -> tuple[TabClient, TabClient]:
    """Alice and Bob at the table, a Pickomino game begun from a lobby opened in the
    chat; Bob's tab speaks German."""
    await table.fake.send_command("alice", "pickomino start", {"turn_timer": 0})
    alice = await table.tab("alice")
    bob = await table.tab("bob", locale="de")
    assert (await bob.act("join"))["t"] == "done"
    await alice.sees(lambda state: len(state["scene"]["players"]) == 2)
    assert (await alice.act("start"))["t"] == "done"
    await alice.sees(lambda state: state["scene"]["phase"] == "playing")
    await bob.sees(lambda state: state["scene"]["phase"] == "playing")
    return alice, bob


async def committed(table: Table) -> int:
    session = await table.bot.sessions.live(table.fake.channel.id)
    assert session is not None
    return int(session.version)


async def the_game_goes_on(table: Table, *tabs: TabClient) -> None:
    """The player to move moves at the table: done, every tab shown it within a
    second, and the chat's live message too."""
    mover = next(tab for tab in tabs if tab.actions("move"))
    before = await committed(table)
    assert (await mover.act("move", mover.actions("move")[0]["arg"]))["t"] == "done"
    for tab in tabs:
        await tab.sees(lambda state: state["version"] > before, timeout=SOON)
    after = await committed(table)
    await table.fake.wait_for(lambda: live_message_at(table.fake, after), what="the chat")


def forget_instances(table: Table, *, stale: bool = False) -> None:
    """As if the few seconds the server remembers each activity instance had passed
    (`stale`: not the half minute an action takes it as it was, while asking again)."""
    assert table.bot.table is not None
    table.bot.table.identity._instances._items.clear()
    if not stale:
        table.bot.table.identity._last_known._items.clear()


def identity_of(table: Table) -> Identity:
    """The server's identity, asking Discord with a short patience (not the 5 s)."""
    assert table.bot.table is not None
    identity = table.bot.table.identity
    identity.call_seconds = PATIENCE
    return identity


# ---------------------------------------------------------------- who the tab is


async def test_no_token_or_a_made_up_one_is_closed_4401(table: Table, caplog):
    alice, bob = await game_of_two(table)
    before = await committed(table)
    instance = table.fake.activity_instances.in_channel(table.fake.channel.id)
    assert instance is not None
    for token in ("", "made-up-token"):
        tab = await table.connect("carol", token=token, instance=instance.instance_id)
        assert await tab.closed() == 4401
        assert tab.frames == []
    assert await committed(table) == before
    await the_game_goes_on(table, alice, bob)
    assert tracebacks(caplog) == []


async def test_someone_not_in_the_instance_is_closed_4403(table: Table, caplog):
    alice, bob = await game_of_two(table)
    instance = table.fake.activity_instances.in_channel(table.fake.channel.id)
    assert instance is not None
    # Dave signed in (his own token) but never opened the activity here.
    dave = await table.connect("dave", instance=instance.instance_id)
    assert await dave.closed() == 4403
    await the_game_goes_on(table, alice, bob)
    assert tracebacks(caplog) == []


async def test_a_forged_or_ended_instance_is_closed_4404(table: Table, caplog):
    alice, bob = await game_of_two(table)
    fake = table.fake
    for forged in ("i-1-gc-2-3", "../../users/@me", "x" * 200):
        tab = await table.connect("alice", instance=forged)
        assert await tab.closed() == 4404, forged
    # Carol's own instance in another channel ends: her tab there is closed when she acts.
    other = await fake.add_channel("other-table")
    carol = await table.tab("carol", instance=fake.launch("carol", other.id))
    fake.end_activity(fake.launch("carol", other.id))
    forget_instances(table)
    assert (await carol.send_act("open", "pickomino")) == 1
    assert await carol.closed() == 4404
    assert await table.bot.sessions.live(other.id) is None  # nothing opened
    tab = await table.connect("carol", instance=fake.launch("carol", other.id))
    await tab.until(lambda frame: frame["t"] == "welcome")  # a new one works
    await the_game_goes_on(table, alice, bob)
    assert tracebacks(caplog) == []


async def test_made_up_tokens_spend_the_pace_of_refusals_and_true_ones_none(table: Table):
    identity = identity_of(table)
    names = ("alice", "bob", "carol", "dave")
    tokens = [await table.sign_in(names[n % 4]) for n in range(REFUSAL_BURST + 10)]
    for token in tokens:  # more people than refusals are allowed: none is refused
        await identity.person(token)

    def asked() -> int:
        return sum(1 for request in table.fake.requests if request.path.endswith("/users/@me"))

    made_up = [f"made-up-{n}" for n in range(REFUSAL_BURST + 10)]
    refused, unavailable = 0, 0
    for token in made_up:
        before = asked()
        try:
            await identity.person(token)
        except TokenRefused:
            refused += 1
        except DiscordUnavailable:
            unavailable += 1
            assert asked() == before  # Discord was not asked
    assert REFUSAL_BURST <= refused < REFUSAL_BURST + 5 and unavailable > 0


async def test_an_action_waits_on_discord_for_no_instance_asked_of_late(table: Table, caplog):
    fake = table.fake
    alice, bob = await game_of_two(table)
    identity_of(table)
    # Discord says nothing while the move is made: the instance asked half a minute
    # ago at most is taken as it was, and asked again.
    forget_instances(table, stale=True)
    held = fake.hold("GET", r"/activity-instances/")
    try:
        await the_game_goes_on(table, alice, bob)
        await asyncio.wait_for(held.arrived.wait(), WAIT)
    finally:
        held.drop()
    assert tracebacks(caplog) == []


async def test_discord_silent_refuses_nobody_seen_in_the_instance_of_late(table: Table, caplog):
    fake = table.fake
    alice, bob = await game_of_two(table)
    identity = identity_of(table)
    # Asked over half a minute ago: the action asks again, and waits for the answer;
    # Discord erring or silent, the instance as last seen stands for Alice and Bob.
    for answer in ("error", "silence"):
        forget_instances(table, stale=True)
        for instance_id, ((instance, answered), until) in list(identity._last_known._items.items()):
            identity._last_known._items[instance_id] = ((instance, answered - STALE_SECONDS), until)
        if answer == "error":
            fake.inject_error("GET", r"/activity-instances/", status=503)
            await the_game_goes_on(table, alice, bob)
        else:
            held = fake.hold("GET", r"/activity-instances/")
            try:
                await the_game_goes_on(table, alice, bob)
            finally:
                held.drop()
    # Forgotten (nobody seen of late), Discord's silence refuses, as for a new tab.
    forget_instances(table)
    fake.inject_error("GET", r"/activity-instances/", status=503)
    mover = next(tab for tab in (alice, bob) if tab.actions("move"))
    assert (await mover.act("move", mover.actions("move")[0]["arg"]))["t"] == "refused"
    assert tracebacks(caplog) == []


async def test_the_instances_asked_again_in_the_background_keep_to_their_budget(table: Table):
    fake = table.fake
    alice, bob = await game_of_two(table)
    identity = identity_of(table)
    identity.refreshes = TokenBucket(0.001, 1)  # one, then none for the test's length
    asked = len(instance_lookups(fake))
    for _ in range(3):
        forget_instances(table, stale=True)  # each action would ask again
        await the_game_goes_on(table, alice, bob)
    assert len(instance_lookups(fake)) == asked + 1


def instance_lookups(fake: FakeDiscord) -> list[RequestRecord]:
    return [r for r in fake.requests if "/activity-instances/" in r.path]


async def test_an_instance_ended_closes_the_tab_at_the_action_after_it_is_known(
    table: Table, caplog
):
    fake = table.fake
    alice, bob = await game_of_two(table)
    identity = identity_of(table)
    instance = fake.activity_instances.in_channel(fake.channel.id)
    assert instance is not None
    fake.end_activity(instance.instance_id)
    forget_instances(table, stale=True)
    mover = next(tab for tab in (alice, bob) if tab.actions("move"))
    before = await committed(table)
    await mover.act("move", mover.actions("move")[0]["arg"])  # taken: asked again
    async with asyncio.timeout(WAIT):  # its answer comes
        while identity._instances.get(instance.instance_id) is None:
            await asyncio.sleep(0.01)
    mover = next(tab for tab in (alice, bob) if tab.actions("move"))
    await mover.send_act("move", mover.actions("move")[0]["arg"])
    assert await mover.closed() == 4404
    assert await committed(table) == before + 1
    assert tracebacks(caplog) == []


# ---------------------------------------------------------------- what the tab asks


async def test_another_persons_seat_and_an_old_version_are_refused_in_their_language(
    table: Table, caplog
):
    alice, bob = await game_of_two(table)
    mover, other = (alice, bob) if alice.actions("move") else (bob, alice)
    move = mover.actions("move")[0]["arg"]
    before = await committed(table)
    other_locale = "de" if other is bob else "en"

    refused = await other.act("move", move)
    assert refused["t"] == "refused"
    name = "Alice" if mover is alice else "Bob"
    assert refused["text"] == said("error.not_your_turn", other_locale, name=name)
    stale = await mover.act("move", move, version=before - 1)
    assert stale["t"] == "refused"
    assert stale["text"].startswith(said("error.stale_version", "en" if mover is alice else "de"))
    nothing = await mover.act("fly", "away")
    assert nothing["t"] == "refused"
    assert await committed(table) == before
    await the_game_goes_on(table, alice, bob)
    assert tracebacks(caplog) == []


@pytest.mark.parametrize(
    "frame",
    [
        "not json",
        '{"t": "act"}',
        json.dumps({"t": "act", "n": 1, "session": 1, "version": 1, "action": "move", "x": 1}),
        json.dumps({"t": "hello", "v": 1, "token": "", "instance": "i", "locale": ""}),
        json.dumps({"t": "act", "n": 1, "session": 1, "version": 1, "action": "move"}) + " " * 5000,
        b"\x00binary",
    ],
)
async def test_a_malformed_or_oversized_frame_is_closed_4400(table: Table, caplog, frame):
    alice, bob = await game_of_two(table)
    before = await committed(table)
    if isinstance(frame, bytes):
        await bob.ws.send_bytes(frame)
    else:
        await bob.ws.send_str(frame)
    assert await bob.closed() == 4400
    assert await committed(table) == before
    await the_game_goes_on(table, alice)
    assert tracebacks(caplog) == []


async def test_a_first_frame_that_is_no_hello_or_none_at_all_is_closed_4400(table: Table):
    ws = await table.http.ws_connect(f"{table.url}/api/ws")
    await ws.send_json({"t": "act", "n": 1, "session": None, "version": 0, "action": "open"})
    assert (await ws.receive(timeout=WAIT)).type.name in ("CLOSE", "CLOSED")
    assert ws.close_code == 4400
    table.bot.table.hello_seconds = 0.2  # type: ignore[union-attr]
    silent = await table.http.ws_connect(f"{table.url}/api/ws")
    await silent.receive(timeout=WAIT)
    assert silent.close_code == 4400


async def test_a_flood_is_slowed_then_closed_4429(table: Table, caplog):
    alice, bob = await game_of_two(table)
    before = await committed(table)
    session = bob.state["session"] if bob.state else None
    for _ in range(100):  # hints (not his turn: refused, nothing changes) as fast as it goes
        await bob.send_act("hint", session=session)
    assert await bob.closed() == 4429
    answers = [frame for frame in bob.frames if frame["t"] in ("done", "refused", "private")]
    slow_down = said("table.page.slow_down", "de")
    slowed = [frame for frame in answers if frame.get("text") == slow_down]
    assert len(slowed) >= 40
    assert len(answers) - len(slowed) <= 8 + 2  # the burst, and what the rate let through
    assert await committed(table) == before
    await the_game_goes_on(table, alice)
    assert tracebacks(caplog) == []


async def test_a_socket_that_never_reads_is_dropped_and_the_others_go_on(table: Table, caplog):
    fake, server = table.fake, table.bot.table
    assert server is not None
    server.send_seconds = 0.5
    await fake.send_command("alice", "pickomino start", {"turn_timer": 0})
    alice = await table.tab("alice")
    # Bob's tab takes its first frames, then reads no more: a socket with a small
    # receive window, which the server fills.
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.connect(("127.0.0.1", server.port))
    reader, writer = await asyncio.open_connection(sock=stuck)
    writer.write(
        b"GET /api/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        b"Sec-WebSocket-Version: 13\r\n\r\n"
    )
    await reader.readuntil(b"\r\n\r\n")
    hello = json.dumps(
        {
            "t": "hello",
            "v": 1,
            "token": await table.sign_in("bob"),
            "instance": fake.launch("bob"),
            "locale": "en",
        }
    ).encode()
    writer.write(_masked_text_frame(hello))
    hub = server.hub
    channel_id = fake.channel.id
    await fake.wait_for(lambda: len(hub.channels[channel_id].tabs) == 2, what="bob's tab")
    # The lobby changes, over and over (the host adds and drops computer players).
    host = Actor(fake.user("alice").id, "Alice", "en")
    for change in range(400):
        level = actions.mutation_for(host, "bot", "easy")
        drop = actions.mutation_for(host, "dropbot", "")
        await table.bot.sessions.update(channel_id, level if change % 2 == 0 else drop)
        if len(hub.channels[channel_id].tabs) == 1:
            break
        # What waits to be sent to a tab is one frame at most, never a queue.
        assert all(tab.backlog() < 16 * 1024 for tab in hub.channels[channel_id].tabs)
        await asyncio.sleep(0.005)
    await fake.wait_for(lambda: len(hub.channels[channel_id].tabs) == 1, what="bob dropped")
    version = await committed(table)
    await alice.sees(lambda state: state["version"] == version, timeout=SOON)
    writer.close()
    assert tracebacks(caplog) == []


def _masked_text_frame(payload: bytes) -> bytes:
    """A client's WebSocket text frame (clients mask theirs; a zero mask keeps it as is)."""
    assert len(payload) < 65_536
    header = bytes([0x81, 0x80 | 126]) + len(payload).to_bytes(2, "big")
    return header + b"\x00\x00\x00\x00" + payload


# ---------------------------------------------------------------- Discord failing


async def test_an_oauth_code_used_twice_is_refused_403(table: Table, caplog):
    alice, bob = await game_of_two(table)
    before = await committed(table)
    code = table.fake.mint_code("carol")
    token_url = f"{table.url}/api/token"
    async with table.http.post(token_url, json={"code": code}) as first:
        assert first.status == 200
    async with table.http.post(token_url, json={"code": code}) as again:
        assert (again.status, await again.json()) == (403, {"error": "code_refused"})
    assert await committed(table) == before
    await the_game_goes_on(table, alice, bob)
    assert tracebacks(caplog) == []


async def test_the_token_route_erroring_or_silent_is_502_and_then_works(table: Table, caplog):
    fake = table.fake
    identity_of(table)
    token_url = f"{table.url}/api/token"
    fake.inject_error("POST", r"^/oauth2/token$", status=500)
    async with table.http.post(token_url, json={"code": fake.mint_code("alice")}) as erring:
        assert (erring.status, await erring.json()) == (502, {"error": "discord_unavailable"})
    held = fake.hold("POST", r"^/oauth2/token$")
    try:
        async with table.http.post(token_url, json={"code": fake.mint_code("alice")}) as silent:
            assert (silent.status, await silent.json()) == (
                502,
                {"error": "discord_unavailable"},
            )
    finally:
        held.drop()
    # Discord refusing the client secret is our settings' fault: one warning says so.
    fake.inject_error("POST", r"^/oauth2/token$", status=401, body={"error": "invalid_client"})
    async with table.http.post(token_url, json={"code": fake.mint_code("alice")}) as refused:
        assert refused.status == 502
    assert any("DISCORD_CLIENT_SECRET" in record.getMessage() for record in caplog.records)
    await table.sign_in("alice")  # Discord is back
    assert tracebacks(caplog) == []


async def test_users_me_erroring_or_silent_closes_the_tab_to_try_again(table: Table, caplog):
    alice, bob = await game_of_two(table)
    before = await committed(table)
    identity_of(table)
    token = await table.sign_in("carol")
    instance = table.fake.launch("carol")
    table.fake.inject_error("GET", r"^/users/@me$", status=502)
    erring = await table.connect("carol", token=token, instance=instance, locale="pl")
    assert await erring.closed() == 1013  # not 44xx: the page tries again
    assert [frame["text"] for frame in erring.frames] == [said("table.page.unavailable", "pl")]
    held = table.fake.hold("GET", r"^/users/@me$")
    try:
        silent = await table.connect("carol", token=token, instance=instance, locale="pl")
        assert await silent.closed() == 1013
    finally:
        held.drop()
    carol = await table.tab("carol", token=token, instance=instance)  # Discord is back
    assert carol.scene()["phase"] == "playing"
    assert await committed(table) == before
    await the_game_goes_on(table, alice, bob, carol)
    assert tracebacks(caplog) == []


async def test_the_activity_instances_route_erroring_or_silent_changes_nothing(
    table: Table, caplog
):
    fake = table.fake
    alice, bob = await game_of_two(table)
    before = await committed(table)
    identity_of(table)
    instances = r"/activity-instances/"
    # A new tab: closed to try again, told why in its language.
    fake.inject_error("GET", instances, status=503)
    carol = await table.connect("carol", locale="de")
    assert await carol.closed() == 1013
    assert [frame["text"] for frame in carol.frames] == [said("table.page.unavailable", "de")]
    # A tab already there acts once the instance is to be asked again: refused in its
    # language, nothing done, the tab still open.
    mover = next(tab for tab in (alice, bob) if tab.actions("move"))
    locale = "de" if mover is bob else "en"
    for answer in ("error", "silence"):
        forget_instances(table)
        if answer == "error":
            fake.inject_error("GET", instances, status=503)
            refused = await mover.act("move", mover.actions("move")[0]["arg"])
        else:
            held = fake.hold("GET", instances)
            try:
                refused = await mover.act("move", mover.actions("move")[0]["arg"])
            finally:
                held.drop()
        assert refused == {
            "t": "refused",
            "n": refused["n"],
            "text": said("table.page.unavailable", locale),
        }, answer
    assert await committed(table) == before
    forget_instances(table)
    await the_game_goes_on(table, alice, bob)
    assert tracebacks(caplog) == []
