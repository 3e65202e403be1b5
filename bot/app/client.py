"""The bot, a discord.py client: what it is made of (`__init__`), how it connects, and
what it does at discord.py's events. Its start-up, command sync and shutdown are modules
of their own beside this one (bot.app.startup, bot.app.commands_on_discord,
bot.app.shutdown)."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands

from bot.app import commands_on_discord
from bot.app.answering import answers_in_flight
from bot.app.emoji_sync import sync_emojis
from bot.app.shutdown import shut_down
from bot.app.startup import start_up
from bot.app.takeover import Takeover
from bot.config import Settings
from bot.connection.gateway_resume import SessionFiles, use_resuming_websocket, watch_replays
from bot.connection.http_pool import discord_connector
from bot.connection.inflight import Held, Inflight
from bot.games.registry import GAMES
from bot.i18n import add_catalogs
from bot.observability.discord_http import discord_error_trace
from bot.observability.health import HealthServer
from bot.observability.loop_stalls import GcPauses
from bot.observability.metrics import Metrics
from bot.pictures.emojis import SyncResult
from bot.plugin import Games
from bot.process.background import BackgroundTasks
from bot.render.emoji import forget_all
from bot.sessions.service import SessionService
from bot.storage.protocols import Database
from bot.table.server import TableServer
from bot.ui.platform import Platform
from bot.ui.translator import LocaleTree

log = logging.getLogger(__name__)

MAX_RATELIMIT_WAIT_SECONDS = 30.0


class DiceBot(commands.Bot):
    """The bot: serves `games` (by default every registered one). What start-up builds
    (`db`, `sessions`, `platform`) is handed to what needs it, never looked up on the
    client."""

    db: Database
    sessions: SessionService
    platform: Platform
    health: HealthServer | None = None
    table: TableServer | None = None  # the table's server, when it is on
    startup_repair: asyncio.Task[int]  # shows again the messages a crash left behind
    ping_cleanup: asyncio.Task[int]  # deletes the turn pings of turns over at start-up
    warming: asyncio.Task[None]  # builds the computer players' tables
    command_sync: asyncio.Task[bool]  # makes Discord's application commands the tree's

    def __init__(
        self,
        settings: Settings,
        *,
        force_sync: bool = False,
        games: Games = GAMES,
        rng: Any = None,
        clock: Callable[[], float] = time.time,
        takeover: Takeover | None = None,
        **client_options: Any,
    ) -> None:
        # Guilds only: clicks and commands come as interactions whatever the intents, and
        # nothing here reads messages. Without the message intents Discord does not send
        # a MESSAGE_UPDATE for every edit of a live message (each parsed into a Message),
        # and without a message cache discord.py keeps none of them: less CPU per click,
        # and far less for the garbage collector to walk.
        intents = discord.Intents.none()
        intents.guilds = True
        self.metrics = Metrics(latencies=lambda: self.latencies)
        self.gc_pauses = GcPauses(self.metrics.gc_full_pause)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            http_trace=discord_error_trace(self.metrics, self.answered_at),
            tree_cls=LocaleTree,
            max_messages=None,
            # A rate limit asking for longer (a retry_after of hours, say) raises
            # discord.RateLimited instead of sleeping: the ping is skipped, the edit
            # repaired later. 30 s is the least discord.py allows.
            max_ratelimit_timeout=MAX_RATELIMIT_WAIT_SECONDS,
            **client_options,
        )
        self.settings = settings
        self.games = games
        add_catalogs(*games.catalogs())  # the games' strings, for whatever the bot says
        self.force_sync = force_sync
        self.rng = rng if rng is not None else dice_source(settings)
        self.clock = clock
        self.synced_commands = False
        self.emoji_sync: asyncio.Task[SyncResult | None] | None = None
        self.heartbeat: asyncio.Task[None] | None = None
        # What start-up leaves running beside the gateway: the tables, the command sync,
        # the allocator's trims.
        self.starting = BackgroundTasks()
        # Set once this process's shards are connected and the clicks Discord replayed
        # to them (bot.connection.gateway_resume) are answered. A replayed click arrives
        # with under a second of its 3 s left, so what start-up leaves for later (the
        # tables, the syncs, the repairs, turn timers come due) waits for it
        # (`_catch_up`).
        self.caught_up = asyncio.Event()
        self.add_listener(self._catch_up, "on_ready")
        self.add_listener(self._catch_up, "on_resumed")
        # Read by bot.connection.gateway_resume's websocket: None, every start
        # identifies afresh.
        self.gateway_sessions: SessionFiles | None = None
        # Beside them, the interactions this process has not answered yet
        # (bot.connection.inflight), its journal taken before the bot was built
        # (bot.app.takeover, by `python -m bot`; None: no journal): a process that takes
        # over from a killed one answers what it was holding.
        self.inflight: Inflight | None = None
        self.held: list[Held] = []  # what the killed one was holding, to play
        if settings.gateway_session_dir is not None:
            self.gateway_sessions = SessionFiles(
                settings.gateway_session_dir, settings.shard_count or 1
            )
            if takeover is not None:
                self.inflight, self.held = takeover.inflight, takeover.held
                # Inside the replays' watch: a click too late is not kept.
                self.inflight.watch(self)
            watch_replays(self, self.gateway_sessions)

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        from bot.connection.endpoints import apply_endpoint_overrides

        settings = self.settings
        if settings.discord_api_base or settings.discord_gateway_url:
            apply_endpoint_overrides(settings.discord_api_base, settings.discord_gateway_url)
            log.info(
                "Discord endpoints overridden: REST %s, gateway %s",
                settings.discord_api_base or "default",
                settings.discord_gateway_url or "default",
            )
        if self.gateway_sessions is not None:
            use_resuming_websocket()
        await super().start(token, reconnect=reconnect)

    async def login(self, token: str) -> None:
        # discord.py makes its connector at login unless given one; ours lets the
        # connections a burst opened close again (bot.connection.http_pool).
        if self.http.connector is discord.utils.MISSING:
            self.http.connector = discord_connector()
        await super().login(token)

    def answered_at(self, path: str) -> None:
        """A response to a request at this URL path came back from Discord."""
        if self.inflight is not None:
            self.inflight.answered_at(path)

    def is_ready(self) -> bool:
        """READY came, or every shard of this process resumed a saved session instead
        (Discord sends no READY to a RESUME)."""
        if super().is_ready():
            return True
        sessions = self.gateway_sessions
        return sessions is not None and sessions.resumed_every(self.shards_here)

    @property
    def shards_here(self) -> tuple[int | None, ...]:
        """The shards this process's gateway connections serve (None: unsharded)."""
        return self.settings.shards or (self.shard_id,)

    @property
    def latencies(self) -> list[tuple[int, float]]:
        """Gateway latency per shard, as discord.py's AutoShardedClient names it."""
        return [(self.shard_id or 0, self.latency)]

    async def setup_hook(self) -> None:
        """Once logged in, before the gateway connects (bot.app.startup)."""
        await start_up(self)

    async def _catch_up(self) -> None:
        """At READY or RESUMED: once every shard here is connected, wait for the clicks
        replayed to them to be answered (or for their 3 s to pass), then let the rest of
        start-up run and the turn timers fire."""
        if self.caught_up.is_set() or not self.is_ready():
            return
        replayed = await answers_in_flight()
        if replayed:
            log.info("clicks replayed at the start, answered first: %d", replayed)
        self.go_on_after_replay()

    def go_on_after_replay(self) -> None:
        """Let the start-up work held for the replay run, and the turn timers fire."""
        self.caught_up.set()
        self.sessions.timers.release()

    async def started(self) -> None:
        """Until the start-up work left to run beside the gateway is done (the tables
        built, the commands synced)."""
        await asyncio.gather(self.warming, self.command_sync)

    def emojis_refused(self) -> None:
        """Discord refused an emoji of ours: the messages fall back to Unicode at once
        (bot.ui.live resends the refused one), and the set is synced again in the
        background (an emoji deleted in the portal is uploaded anew)."""
        forget_all()
        if not self.settings.emoji_sync:
            return
        if self.emoji_sync is None or self.emoji_sync.done():
            self.emoji_sync = asyncio.create_task(sync_emojis(self), name="emoji-sync")

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Make Discord's application commands the tree's: globally, or with DEV_GUILD_ID
        in that guild only; a dev guild of before is emptied; the table's Entry Point
        globally when it is on (bot.app.command_sync). Each scope is read first
        and overwritten only if it differs (`force`: overwritten without reading). A
        failure is a warning, never a failed start. True if anything was written."""
        dev_guild = self.settings.dev_guild_id
        written = await commands_on_discord.sync_commands(
            self, self.db, dev_guild=dev_guild, force=force, table=self.table is not None
        )
        self.synced_commands = written
        return written

    async def _sync_commands_when_the_database_answers(self) -> bool:
        """The command sync of the start-up, tried again while the database is busy or
        away."""
        return await commands_on_discord.sync_when_the_database_answers(
            lambda: self.sync_commands(force=self.force_sync)
        )

    async def command_payload(self) -> list[dict[str, Any]]:
        """The commands as a sync sends them, translations included."""
        return await commands_on_discord.command_payload(self.tree)

    async def display_name(self, guild_id: int, user_id: int) -> str:
        """A member's name in a guild: the cache, then the API, then a placeholder."""
        guild = self.get_guild(guild_id)
        member = guild.get_member(user_id) if guild else None
        if member is not None:
            return member.display_name
        try:
            fetched = await self.http.get_member(guild_id, user_id)
        except discord.HTTPException:
            return f"<@{user_id}>"
        nick = fetched.get("nick")
        user = fetched["user"]
        return str(nick or user.get("global_name") or user["username"])

    async def close(self) -> None:
        """Stop the gateway, let changes in progress commit, then close the database
        (bot.app.shutdown)."""
        await shut_down(self, super().close)


class ShardedDiceBot(DiceBot, commands.AutoShardedBot):
    """The bot running shards SHARD_IDS of SHARD_COUNT on one gateway connection each;
    another process runs the other shards, on the same PostgreSQL database."""

    @property
    def latencies(self) -> list[tuple[int, float]]:
        """Each shard's own gateway latency (AutoShardedClient's, not DiceBot's one)."""
        return [(shard_id, shard.latency) for shard_id, shard in self.shards.items()]


def dice_source(settings: Settings) -> random.Random:
    """The OS's randomness, or a seeded generator when DICE_SEED pins the dice."""
    if settings.dice_seed is None:
        return secrets.SystemRandom()
    log.warning("DICE_SEED is set: the dice are predictable (for tests and demos only)")
    return random.Random(settings.dice_seed)


def create_bot(settings: Settings, **options: Any) -> DiceBot:
    """The bot the settings ask for: sharded when SHARD_COUNT is set, else as ever."""
    shards = settings.shards
    if shards is None:
        return DiceBot(settings, **options)
    return ShardedDiceBot(
        settings, shard_count=settings.shard_count, shard_ids=list(shards), **options
    )
