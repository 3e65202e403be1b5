"""A turn ping the channel's rate limit would hold is skipped at once, never queued; the
channel's next change pings whoever's turn it is then (one ping, never a stale one).

TurnPings alone, with discord.py's own HTTPClient holding the buckets (as Discord's
headers leave them) and a fake channel: no harness, so nothing waits for a held task."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import discord.http

from bot.sessions.model import Seat, Session, Status
from bot.sessions.service import Change
from bot.storage.pings import StoredPing
from bot.ui.live import LiveMessages
from bot.ui.pings import TurnPings
from bot.ui.rate_limits import delete_route, send_route, wait_before

CHANNEL = 700_000_000_000_000_001
GUILD = 600_000_000_000_000_001
ANNE, BOB = 101, 102


class Adapter:
    """A game of whose turn it is: {"player": "101", "turn": 1}."""

    def current_player(self, game: dict[str, Any]) -> str | None:
        return game["player"]

    def turn_key(self, game: dict[str, Any]) -> str:
        return str(game["turn"])


class Games:
    def plugin(self, kind: str) -> Any:
        return SimpleNamespace(adapter=Adapter(), title="Pickomino")


class Settings:
    async def turn_pings(self, user_id: int) -> bool:
        return True


@dataclass
class Store:
    pings: dict[int, StoredPing] = field(default_factory=dict)

    async def get(self, channel_id: int) -> StoredPing | None:
        return self.pings.get(channel_id)

    async def all(self) -> list[StoredPing]:
        return list(self.pings.values())

    async def put(self, ping: StoredPing) -> None:
        self.pings[ping.channel_id] = ping

    async def remove(self, channel_id: int, message_id: int) -> None:
        if channel_id in self.pings and self.pings[channel_id].message_id == message_id:
            del self.pings[channel_id]


class Channel:
    """Records what is sent and deleted; `refuse` makes the next send raise it."""

    def __init__(self) -> None:
        self.sent: dict[int, str] = {}
        self.deleted: list[int] = []
        self.refuse: Exception | None = None

    async def send(self, content: str, **_: Any) -> Any:
        if self.refuse is not None:
            error, self.refuse = self.refuse, None
            raise error
        message_id = 900 + len(self.sent)
        self.sent[message_id] = content
        return SimpleNamespace(id=message_id)

    def get_partial_message(self, message_id: int) -> Any:
        async def delete() -> None:
            self.deleted.append(message_id)

        return SimpleNamespace(delete=delete)


class Client:
    def __init__(self) -> None:
        self.http = discord.http.HTTPClient(asyncio.get_running_loop(), max_ratelimit_timeout=30)
        self.channel = Channel()

    def get_partial_messageable(self, channel_id: int) -> Channel:
        return self.channel

    def rate_limit(self, route: discord.http.Route, *, remaining: int, reset_after: float) -> None:
        """Leave the route's bucket as discord.py does after Discord's answer."""
        self.http._bucket_hashes[route.key] = "bucket-of-" + route.key
        key = f"bucket-of-{route.key}:{route.major_parameters}"
        headers = {
            "X-Ratelimit-Limit": "5",
            "X-Ratelimit-Remaining": str(remaining),
            "X-Ratelimit-Reset-After": str(reset_after),
        }
        self.http.get_ratelimit(key).update(SimpleNamespace(headers=headers))


def session(player: int, turn: int) -> Session:
    return Session(
        kind="pickomino",
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANNE,
        seats=[Seat(ANNE, "Anne"), Seat(BOB, "Bob")],
        id=7,
        status=Status.PLAYING,
        game={"player": str(player), "turn": turn},
    )


def pings(client: Client, store: Store) -> TurnPings:
    return TurnPings(client, Games(), Settings(), store)  # type: ignore[arg-type]


async def test_the_bucket_tells_what_would_wait():
    client = Client()
    route = send_route(CHANNEL)
    assert wait_before(client.http, route) == 0  # nothing known yet: it goes
    client.rate_limit(route, remaining=3, reset_after=5)
    assert wait_before(client.http, route) == 0
    client.rate_limit(route, remaining=1, reset_after=5)  # it would empty the bucket
    assert 4 < wait_before(client.http, route) <= 5
    client.rate_limit(route, remaining=0, reset_after=5)
    assert 4 < wait_before(client.http, route) <= 5
    assert wait_before(client.http, send_route(CHANNEL + 1)) == 0  # a bucket per channel
    client.rate_limit(route, remaining=0, reset_after=0.0)  # the window is over
    await asyncio.sleep(0.01)
    assert wait_before(client.http, route) == 0


async def test_a_held_ping_is_skipped_and_the_next_change_pings_the_player_then():
    client, store = Client(), Store()
    turn_pings = pings(client, store)
    await turn_pings.after(Change(None, session(ANNE, 1), []))
    [annes] = client.channel.sent
    assert client.channel.sent[annes].startswith(f"<@{ANNE}>")

    client.rate_limit(delete_route(CHANNEL, annes), remaining=0, reset_after=30)
    await asyncio.wait_for(turn_pings.after(Change(None, session(BOB, 2), [])), timeout=1)
    assert client.channel.deleted == [] and len(client.channel.sent) == 1  # skipped, at once
    assert store.pings[CHANNEL].message_id == annes  # kept, to be deleted next time

    client.rate_limit(delete_route(CHANNEL, annes), remaining=5, reset_after=5)
    client.rate_limit(send_route(CHANNEL), remaining=0, reset_after=30)
    await asyncio.wait_for(turn_pings.after(Change(None, session(ANNE, 3), [])), timeout=1)
    assert client.channel.deleted == [annes]  # the stale ping goes
    assert len(client.channel.sent) == 1 and CHANNEL not in store.pings  # no new one yet

    client.rate_limit(send_route(CHANNEL), remaining=5, reset_after=5)
    await turn_pings.after(Change(None, session(ANNE, 3), []))  # the same turn goes on
    [merged] = [m for m in client.channel.sent if m != annes]
    assert client.channel.sent[merged].startswith(f"<@{ANNE}>")  # whose turn it is now
    assert store.pings[CHANNEL].turn == "7:3" and store.pings[CHANNEL].message_id == merged
    turn_pings.close()


async def test_the_last_ping_of_a_game_goes_once_the_limit_resets_with_no_change_after():
    client, store = Client(), Store()
    turn_pings = pings(client, store)
    await turn_pings.after(Change(None, session(ANNE, 1), []))
    [annes] = client.channel.sent
    client.rate_limit(delete_route(CHANNEL, annes), remaining=0, reset_after=0.2)
    over = session(ANNE, 1)
    over.status = Status.OVER
    await asyncio.wait_for(turn_pings.after(Change(None, over, [])), timeout=1)
    assert client.channel.deleted == []  # held: skipped for now
    await asyncio.sleep(0.4)  # the limit resets; nothing else happens in the channel
    assert client.channel.deleted == [annes] and store.pings == {}
    assert len(client.channel.sent) == 1  # and nobody is pinged: the game is over


async def test_a_look_again_sees_the_newest_state_even_if_an_older_change_comes_last():
    client, store = Client(), Store()
    turn_pings = pings(client, store)
    client.rate_limit(send_route(CHANNEL), remaining=0, reset_after=0.2)
    bobs_turn = session(BOB, 2)
    bobs_turn.version = 5
    await turn_pings.after(Change(None, bobs_turn, []))  # skipped: held
    annes_turn = session(ANNE, 1)
    annes_turn.version = 4
    await turn_pings.after(Change(None, annes_turn, []))  # an older change, looked at late
    assert client.channel.sent == {}
    await asyncio.sleep(0.4)
    [ping] = client.channel.sent.values()
    assert ping.startswith(f"<@{BOB}>")  # the turn of the newest state


async def test_a_429_longer_than_the_client_waits_skips_the_ping_until_the_next_change():
    client, store = Client(), Store()
    turn_pings = pings(client, store)
    client.channel.refuse = discord.RateLimited(64.0)  # discord.py raises it at once
    await asyncio.wait_for(turn_pings.after(Change(None, session(ANNE, 1), [])), timeout=1)
    assert client.channel.sent == {} and store.pings == {}
    await turn_pings.after(Change(None, session(BOB, 2), []))
    [bobs] = client.channel.sent.values()
    assert bobs.startswith(f"<@{BOB}>")


async def test_a_connection_lost_under_a_ping_is_logged_and_tried_at_the_next_change(caplog):
    import logging

    import aiohttp

    caplog.set_level(logging.INFO, logger="bot.ui.pings")
    client, store = Client(), Store()
    turn_pings = pings(client, store)
    client.channel.refuse = aiohttp.ServerDisconnectedError()  # the session closed under it
    await turn_pings.after(Change(None, session(ANNE, 1), []))  # raises nothing
    assert client.channel.sent == {} and CHANNEL not in store.pings
    assert "turn ping in channel" in caplog.text
    await turn_pings.after(Change(None, session(ANNE, 1), []))
    [annes] = client.channel.sent
    assert client.channel.sent[annes].startswith(f"<@{ANNE}>")
    turn_pings.close()


async def test_the_live_messages_pause_where_their_pings_were_refused():
    # Built without a set of its own, the live message shares the pings' paused
    # channels: a 403 to a ping stops the channel's edits too, and a resume frees both.
    client = Client()
    turn_pings = pings(client, Store())
    live = LiveMessages(client, Games(), sessions=None, pings=turn_pings)  # type: ignore[arg-type]
    turn_pings.paused.pause(CHANNEL, RuntimeError("403 to a ping"))
    assert CHANNEL in live.paused
    live.paused.resume(CHANNEL)
    assert CHANNEL not in turn_pings.paused
    # Without pings it keeps a set of its own.
    alone = LiveMessages(client, Games(), sessions=None)  # type: ignore[arg-type]
    assert CHANNEL not in alone.paused
    alone.paused.pause(CHANNEL, RuntimeError("403 to an edit"))
    assert CHANNEL not in turn_pings.paused
