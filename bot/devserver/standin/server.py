"""`FakeDiscord`: the stand-in as one server (REST API, gateway, the CDN of uploaded
files) on one port, with its options and lifecycle."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable, Sequence

from aiohttp import web

from bot.devserver.standin.actions import UserActions
from bot.devserver.standin.activity_routes import DEFAULT_CLIENT_SECRET
from bot.devserver.standin.constants import (
    ATTACHMENT_SIZE_LIMIT,
    DEFAULT_TOKEN,
    GATEWAY_PATH,
    PRIVILEGED_INTENTS,
    RESUME_GATEWAY_PATH,
)
from bot.devserver.standin.realism import IDEAL, Realism
from bot.devserver.standin.rest import Rest


class FakeDiscord(UserActions, Rest):
    """Discord's REST API v10 and gateway, on 127.0.0.1, for one bot in `guilds` guilds
    (one by default), each with the same members and `channel_names`.

    A bot may connect with several shards, from one process or several: each guild's
    events go to the session of the shard that owns it, (guild_id >> 22) % shard_count,
    as Discord sends them; `guild_ids` lists the guilds, consecutive in that number.

    `realism` says which of Discord's behaviours it has besides its rules (none by default:
    an ideal Discord; `Realism.discord()` all of them); it may be replaced while it runs.
    `seed` makes its own chances (the latency's jitter) repeatable. `token_lifetime` is how
    long, in seconds, an interaction's token works (Discord's 15 minutes by default; it may
    be changed while it runs, as `fake.token_lifetime`).

    Besides its guilds it has places for user-installed apps: the bot's DM with a person
    (`bot_dm`), group DMs (`add_group_dm`), DMs between people (`add_dm`) and servers
    without the bot (`add_guild_without_bot`).

    `activities`: the application has Activities enabled (`enable_activities` later),
    for the table: its OAuth2 client secret is `client_secret`; tests mint codes
    (`mint_code`), launch (`launch`), leave and end activity instances
    (bot.devserver.standin.activity_routes).
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        check_token: bool = True,
        players: Sequence[str] = ("alice", "bob", "carol", "dave"),
        channel_names: Sequence[str] = ("dice-games",),
        bot_name: str = "Dice Games",
        heartbeat_interval_ms: int = 41_250,
        interaction_deadline: float = 3.0,
        token_lifetime: float = 900.0,
        allowed_intents: int = PRIVILEGED_INTENTS,
        guilds: int = 1,
        host: str = "127.0.0.1",
        port: int = 0,
        realism: Realism = IDEAL,
        seed: int | None = None,
        activities: bool = False,
        client_secret: str = DEFAULT_CLIENT_SECRET,
    ) -> None:
        super().__init__(
            activities=activities,
            client_secret=client_secret,
            token=token,
            check_token=check_token,
            players=players,
            channel_names=channel_names,
            bot_name=bot_name,
            heartbeat_interval_ms=heartbeat_interval_ms,
            interaction_deadline=interaction_deadline,
            token_lifetime=token_lifetime,
            allowed_intents=allowed_intents,
            guilds=guilds,
            host=host,
            port=port,
            realism=realism,
            seed=seed,
        )
        self._runner: web.AppRunner | None = None
        self._sock: socket.socket | None = None

    # ---- lifecycle ---------------------------------------------------------------

    async def start(self, setup: Callable[[web.Application], None] | None = None) -> FakeDiscord:
        """Listen on `host`:`port` (a free port when 0); `setup` adds routes of its own
        (the page) before the catch-all of the REST API."""
        app = web.Application(client_max_size=ATTACHMENT_SIZE_LIMIT * 3)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        app.router.add_get(RESUME_GATEWAY_PATH, self._gateway)
        app.router.add_get(
            "/attachments/{channel_id:\\d+}/{attachment_id:\\d+}/{filename}", self._attachment
        )
        if setup is not None:
            setup(app)
        app.router.add_route("*", "/{tail:.*}", self._http)
        # A short shutdown_timeout: a bot still connected when we stop reconnects at once,
        # and aiohttp would otherwise wait up to a minute for that request's handler.
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.25)
        await self._runner.setup()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((self.host, self.port))
        self.port = self._sock.getsockname()[1]
        await web.SockSite(self._runner, self._sock).start()
        return self

    async def close(self) -> None:
        """Close every gateway socket and stop the server (a bot still running will retry
        its connection and fail until it is closed too)."""
        self._closing = True
        closing = [conn.close(1001, "stand-in shutting down") for conn in self._connections]
        await asyncio.wait_for(asyncio.gather(*closing), 5)
        if self._runner is not None:
            await asyncio.wait_for(self._runner.cleanup(), 10)
            self._runner = None
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
