"""The discord.py client: opens storage, builds the platform, adds every served game's
commands, score pages and history, syncs the command tree."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
import discord
from discord.ext import commands
from discord.http import Route

from bot.app.command_sync import Outcome, Target, differences, guild_ids, targets
from bot.app.takeover import Takeover
from bot.config import ConfigError, Settings
from bot.connection.gateway_resume import SessionFiles, use_resuming_websocket, watch_replays
from bot.connection.global_pace import bot_token_share, pace_bot_requests
from bot.connection.http_pool import discord_connector
from bot.connection.inflight import Held, Inflight
from bot.games.registry import GAMES
from bot.history.rating_sql import RATINGS_MIGRATION, rebuild_all
from bot.history.recorder import recorder
from bot.history.sql import SqlResultStore
from bot.i18n import add_catalogs
from bot.observability.discord_http import count_on_session, discord_error_trace
from bot.observability.health import HealthServer, database_check, gateway_check
from bot.observability.heartbeat import keep_beating
from bot.observability.loop_stalls import GcPauses, watch_the_loop
from bot.observability.metrics import Metrics
from bot.pictures.emojis import EmojiBook, SyncResult
from bot.plugin import Games
from bot.process.background import BackgroundTasks
from bot.process.memory_trim import keep_large_blocks_mapped, keep_trimming
from bot.process.worker_threads import favour_the_event_loop
from bot.render.emoji import forget_all, markup_from_store, remember, stored_markup, use_book
from bot.score import score_group, score_groups
from bot.sessions.service import SessionService
from bot.storage import apply_migrations, open_database
from bot.storage.meta import (
    APPLICATION_EMOJIS,
    command_guilds,
    delete_meta,
    get_meta,
    set_meta,
)
from bot.storage.protocols import Database
from bot.storage.waiting import when_the_database_answers
from bot.ui.click_tokens import InteractionTokens
from bot.ui.platform import Platform, build_platform
from bot.ui.translator import CatalogTranslator, LocaleTree

log = logging.getLogger(__name__)

MAX_RATELIMIT_WAIT_SECONDS = 30.0

# How a request to Discord fails: an error answer (or a rate limit too long to wait), no
# answer, or an answer that is not what was asked for (MalformedCommands, bad JSON).
SYNC_ERRORS = (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError, ValueError)
SYNC_RETRY_SECONDS = 5.0  # the command sync, while the database is busy or away
REVIEWS_AT_SHUTDOWN_SECONDS = 5.0  # inside a container's 10 s stop grace


# discord.py's names for the tasks that handle a command or a component's interaction.
_INTERACTION_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord-ui-dynamic-item")
T = TypeVar("T")
FIRST_ANSWER_SECONDS = 3.0  # Discord's deadline for a first answer


def _answers_an_interaction(task: asyncio.Task[Any]) -> bool:
    return task is not asyncio.current_task() and task.get_name().startswith(_INTERACTION_TASKS)


async def _answers_in_flight() -> int:
    """Wait for the interactions being handled now to be answered, at most Discord's
    deadline for a first answer (past it, their answers would be refused anyway); how
    many there were."""
    answering = [task for task in asyncio.all_tasks() if _answers_an_interaction(task)]
    if answering:
        await asyncio.wait(answering, timeout=FIRST_ANSWER_SECONDS)
    return len(answering)


def freeze_startup_objects() -> None:
    """Leave what start-up built out of every later garbage collection.

    The computer players' tables, the catalogs and discord.py's own state are millions of
    objects that live as long as the process; the collector walked them all at each full
    collection, a pause of 20-160 ms every few hundred clicks (measured with the click
    benchmark). Collected first, so that no garbage of the start-up is kept for good."""
    gc.collect()
    gc.freeze()


class DiceBot(commands.Bot):
    """The bot: serves `games` (by default every registered one). What start-up builds
    (`db`, `sessions`, `platform`) is handed to what needs it, never looked up on the
    client."""

    db: Database
    sessions: SessionService
    platform: Platform
    health: HealthServer | None = None
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
            http_trace=discord_error_trace(self.metrics, self._answered_at),
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
        self._rng = rng if rng is not None else dice_source(settings)
        self._clock = clock
        self.synced_commands = False
        self.emoji_sync: asyncio.Task[SyncResult | None] | None = None
        self._heartbeat: asyncio.Task[None] | None = None
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
        self._held: list[Held] = []  # what the killed one was holding, to play
        if settings.gateway_session_dir is not None:
            self.gateway_sessions = SessionFiles(
                settings.gateway_session_dir, settings.shard_count or 1
            )
            if takeover is not None:
                self.inflight, self._held = takeover.inflight, takeover.held
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

    def _answered_at(self, path: str) -> None:
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
        favour_the_event_loop()  # before any thread computes beside the loop
        # The session exists once logged in.
        count_on_session(self.http, self.metrics, self._answered_at)
        settings = self.settings
        share = bot_token_share(settings.shards, settings.shard_count)
        pace_bot_requests(self.http, settings.discord_global_rate * share)
        self.db = await open_database(self.settings.database_url, exclusive=True)
        applied = await apply_migrations(self.db)
        if applied:
            log.info("database migrations applied: %s", applied)
        if RATINGS_MIGRATION in applied:  # the games stored before get their ratings
            rebuilt = await rebuild_all(self.db)
            log.info("ratings built from %s stored games (%s rated)", rebuilt.games, rebuilt.rated)
        if self.settings.health_addr:
            # Up before the gateway connects: /healthz says 503 until READY.
            self.health = HealthServer(
                self.settings.health_addr,
                [gateway_check(self), database_check(self.db)],
                self.metrics,
            )
            try:
                await self.health.start()
            except OSError as error:
                # Not the "cannot reach Discord" that __main__ says of other OSErrors.
                self.health = None
                raise ConfigError(
                    f"HEALTH_ADDR: cannot listen on {self.settings.health_addr}: {error}"
                ) from None
        self.sessions = SessionService(
            self.db,
            self.games.adapters(),
            rng=self._rng,
            clock=self._clock,
            bot_step_seconds=self.settings.bot_step_seconds,
            owns_guild=self.settings.owns_guild,
            practice_dice=self.games.practice_dice(),
        )
        self.platform = build_platform(
            self,
            self.games,
            self.sessions,
            rules_url=self.settings.rules_url,
            emojis_refused=self._emojis_refused,
            tokens=InteractionTokens.lasting(
                self.settings.interaction_token_seconds, clock=self._clock
            ),
        )
        self.sessions.observer = self.metrics
        self.metrics.watch_live_sessions(self.sessions.live_counts)
        self.platform.clicks.clicks_observed = self.metrics.click_handled
        if self.inflight is not None:
            self.sessions.committed = self.inflight.committed
            self.platform.clicks.replayed = self.inflight.replayed
        await self.tree.set_translator(CatalogTranslator())
        await self._add_games(self.platform)
        if self.settings.emoji_sync:
            stored = await get_meta(self.db, APPLICATION_EMOJIS)
            remember(markup_from_store(stored, self.application_id))
        self.sessions.timers.hold()  # until caught up
        armed = await self.sessions.restore_timers()
        shards = self.settings.shards
        if shards is None:
            log.info("resumed %d turn timers", armed)
        else:
            log.info("resumed %d turn timers of shards %s", armed, self.settings.shard_ids)
        # Turn pings posted before the start: known before the first click (one read, not
        # one per game's first change); those whose turn is over, deleted in the background.
        pings = self.platform.pings
        await pings.load(self.sessions)
        if self.inflight is not None:
            # The clicks a killed predecessor held (acknowledged already, those that
            # could be: bot.app.takeover), before the gateway's: the oldest first.
            replayed = self.inflight.replay(self, self._held)
            if replayed:
                log.info("acting on %d interactions the process before left unanswered", replayed)
        self.ping_cleanup = asyncio.create_task(
            self._once_caught_up(lambda: pings.restore(self.sessions)), name="turn-pings"
        )
        # In the background too: the gateway need not wait for Discord to take the edits.
        self.startup_repair = asyncio.create_task(
            self._repair_after_pings(self.ping_cleanup), name="repair-live-messages"
        )
        # Neither before the gateway nor beside its replay: a restarted process answers
        # the clicks Discord replays to it (bot.connection.gateway_resume) within their
        # 3 s only if it connects within about 2 s of its start and has its loop for
        # them then; the tables took 1.3 s (a thread, but holding the GIL; 0.55 s of CPU
        # since their build was made faster) and the sync 0.4 s. A move or hint that
        # comes first builds the tables it needs itself; Discord serves the commands
        # registered before until the sync is done.
        self.warming = self.starting.start(self._once_caught_up(self._warm_up), "warm-up")
        self.command_sync = self.starting.start(
            self._once_caught_up(self._sync_commands_when_the_database_answers),
            "command-sync",
        )
        if self.settings.emoji_sync:
            # In the background: drawing and uploading pictures must never delay or fail
            # start-up; messages show Unicode until (and unless) the emojis are there.
            self.emoji_sync = asyncio.create_task(self._sync_emojis(), name="emoji-sync")
        # glibc keeps what the bot frees below its heaps' tops: handed back each minute;
        # and large blocks are mapped apart, so that no thread's heap keeps them.
        keep_large_blocks_mapped()
        self.starting.start(keep_trimming(), "malloc-trim")
        # A held loop delays every click of the process at once: measured, and logged.
        self.gc_pauses.install()
        self.starting.start(watch_the_loop(self.metrics.loop_lag, self.gc_pauses), "loop-watch")
        if self.settings.heartbeat_file is not None:
            self._heartbeat = asyncio.create_task(
                keep_beating(self.settings.heartbeat_file, self._connected), name="heartbeat"
            )

    async def _catch_up(self) -> None:
        """At READY or RESUMED: once every shard here is connected, wait for the clicks
        replayed to them to be answered (or for their 3 s to pass), then let the rest of
        start-up run and the turn timers fire."""
        if self.caught_up.is_set() or not self.is_ready():
            return
        replayed = await _answers_in_flight()
        if replayed:
            log.info("clicks replayed at the start, answered first: %d", replayed)
        self.go_on_after_replay()

    def go_on_after_replay(self) -> None:
        """Let the start-up work held for the replay run, and the turn timers fire."""
        self.caught_up.set()
        self.sessions.timers.release()

    async def _once_caught_up(self, work: Callable[[], Awaitable[T]]) -> T:
        await self.caught_up.wait()
        return await work()

    async def _sync_commands_when_the_database_answers(self) -> bool:
        """The command sync, tried again while the database is busy or away: it reads
        and writes the guilds it synced, and a restart under load can find every pooled
        connection taken for a few seconds (a failed sync was a traceback, and no sync
        until the next start)."""
        return await when_the_database_answers(
            lambda: self.sync_commands(force=self.force_sync),
            what="command sync",
            every=SYNC_RETRY_SECONDS,
        )

    async def _warm_up(self) -> None:
        """The computer players' and hints' shared tables, built in a thread; then what
        start-up built is left out of later garbage collections."""
        for game in self.games:
            if game.warm_up is not None:
                await asyncio.to_thread(game.warm_up, self.settings.cache_dir)
        freeze_startup_objects()

    async def started(self) -> None:
        """Until the start-up work left to run beside the gateway is done (the tables
        built, the commands synced)."""
        await asyncio.gather(self.warming, self.command_sync)

    async def _add_games(self, platform: Platform) -> None:
        """Each served game's /<game> group with its score group attached, its history
        recorded in its final commit, and the one score pager serving every game."""
        store = SqlResultStore()
        db = self.db
        pager, pages = score_groups(
            self.games, store, lambda interaction: db.transaction(), platform.reviews
        )
        self.add_dynamic_items(pager.item)
        for game in self.games:
            self.sessions.game_over_hooks[game.kind] = recorder(game.history, store)
            cog = game.cog(platform, game)
            assert cog.app_command is not None  # a GroupCog always has its group
            cog.app_command.add_command(score_group(pages[game.kind]))
            await self.add_cog(cog)

    async def _repair_after_pings(self, ping_cleanup: asyncio.Task[int]) -> int:
        """Show again the messages left behind, once the pings from before are sorted
        out: which of them comes first must not depend on how fast the database answers
        (a repaired message follows its turn, and so does a ping restored)."""
        await asyncio.wait({ping_cleanup})
        return await self.sessions.repair_stored()

    def _connected(self) -> bool:
        return self.is_ready() and not self.is_closed()

    def _emojis_refused(self) -> None:
        """Discord refused an emoji of ours: the messages fall back to Unicode at once
        (bot.ui.live resends the refused one), and the set is synced again in the
        background (an emoji deleted in the portal is uploaded anew)."""
        forget_all()
        if not self.settings.emoji_sync:
            return
        if self.emoji_sync is None or self.emoji_sync.done():
            self.emoji_sync = asyncio.create_task(self._sync_emojis(), name="emoji-sync")

    async def _sync_emojis(self) -> SyncResult | None:
        # Drawing the pictures holds the GIL: after the replay, and after the tables'
        # thread, so that the loop competes with one such thread at a time.
        await self.caught_up.wait()
        await asyncio.wait({self.warming})
        try:
            sets = [await asyncio.to_thread(g.emojis) for g in self.games if g.emojis is not None]
            book = EmojiBook(*sets)
            # The application id is known once logged in (setup_hook runs after login).
            result = await book.sync(self)
        except Exception:  # a picture bug must not take the bot down: Unicode stays
            log.exception("emoji sync failed; messages show Unicode")
            return None
        use_book(book)
        markup = stored_markup(book.synced(), self.application_id)
        await set_meta(self.db, APPLICATION_EMOJIS, markup)
        log.info(
            "application emojis: %d found, %d uploaded, %d missing",
            len(result.found),
            len(result.uploaded),
            len(result.missing),
        )
        return result

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Make Discord's application commands the tree's: globally, or with DEV_GUILD_ID
        in that guild only; a dev guild of before is emptied. Each scope is read first
        and overwritten only if it differs (`force`: overwritten without reading). A
        failure is a warning, never a failed start. True if anything was written."""
        application_id = self.application_id
        if application_id is None:  # known once logged in, before setup_hook
            log.warning("application id unknown; application commands not synced")
            return False
        wanted = await self.command_payload()
        remembered = command_guilds(application_id)
        before = guild_ids(await get_meta(self.db, remembered))
        dev_guild = self.settings.dev_guild_id
        still: set[int] = set() if dev_guild is None else {dev_guild}
        written = False
        for target in targets(wanted, dev_guild=dev_guild, previous_guilds=before):
            outcome = await self._sync_scope(application_id, target, force=force)
            written |= outcome is Outcome.WRITTEN
            if outcome is Outcome.FAILED and target.guild_id not in (None, dev_guild):
                still.add(target.guild_id)  # its commands may be there: emptied next time
        if still:
            await set_meta(self.db, remembered, json.dumps(sorted(still)))
        elif before:
            await delete_meta(self.db, remembered)
        self.synced_commands = written
        return written

    async def _sync_scope(self, application_id: int, target: Target, *, force: bool) -> Outcome:
        guild = target.guild_id is not None
        if not force:
            try:
                registered = await self._registered_commands(application_id, target.guild_id)
                changes = differences(target.commands, registered, guild=guild)
            except SYNC_ERRORS as error:
                log.warning(
                    "cannot read the %s application commands (%s); overwriting them",
                    target.where,
                    _describe(error),
                )
            else:
                if not changes:
                    log.info("%s application commands unchanged", target.where)
                    return Outcome.UNCHANGED
                log.info("%s application commands: %s", target.where, "; ".join(changes))
        try:
            if target.guild_id is None:
                await self.http.bulk_upsert_global_commands(application_id, target.commands)
            else:
                await self.http.bulk_upsert_guild_commands(
                    application_id, target.guild_id, target.commands
                )
        except SYNC_ERRORS as error:
            log.warning(
                "could not register the %s application commands: %s",
                target.where,
                _describe(error),
            )
            return Outcome.FAILED
        log.info("registered %d %s application commands", len(target.commands), target.where)
        return Outcome.WRITTEN

    async def _registered_commands(self, application_id: int, guild_id: int | None) -> Any:
        """Discord's commands of one scope, with every language's texts (by default it
        answers only the requester's)."""
        if guild_id is None:
            route = Route(
                "GET", "/applications/{application_id}/commands", application_id=application_id
            )
        else:
            route = Route(
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                application_id=application_id,
                guild_id=guild_id,
            )
        return await self.http.request(route, params={"with_localizations": "true"})

    async def command_payload(self) -> list[dict[str, Any]]:
        """The commands as a sync sends them, translations included, so a changed
        translation is a difference too."""
        tree, translator = self.tree, self.tree.translator
        return [
            await command.get_translated_payload(tree, translator)
            if translator is not None
            else command.to_dict(tree)
            for command in tree.get_commands()
        ]

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
        """Stop the gateway, let changes in progress commit, then close the database."""
        log.info("shutting down")
        if self.health is not None:
            # First, so no probe is told "healthy" by a bot that is going away.
            await self.health.stop()
            self.health = None
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        sessions = getattr(self, "sessions", None)
        if sessions is not None:
            await sessions.close()
        platform = getattr(self, "platform", None)
        if platform is not None:
            # The reviews of games just ended: stored before the database closes, and a
            # practice game's sent before the HTTP session closes.
            await platform.reviews.close(timeout=REVIEWS_AT_SHUTDOWN_SECONDS)
            # The pings of the last changes, briefly: a ping posted but not recorded
            # would be left in the channel.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(platform.live.pings_done(), timeout=5)
            platform.pings.close()  # those waiting for a rate limit: the next start
        # Answers on their way (a command or a click being answered as the signal came,
        # a score page, say): let them arrive before the HTTP session closes under them.
        await _answers_in_flight()
        if self.emoji_sync is not None and not self.emoji_sync.done():
            self.emoji_sync.cancel()
        self.starting.cancel()
        self.gc_pauses.remove()
        for name in ("startup_repair", "ping_cleanup"):
            task = getattr(self, name, None)
            if task is not None and not task.done():
                task.cancel()
        await super().close()
        if self.gateway_sessions is not None:
            self.gateway_sessions.close()
        if self.inflight is not None:
            self.inflight.close()
        db = getattr(self, "db", None)
        if db is not None:
            await db.close()
        log.info("shut down cleanly")


def _describe(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text or error.response.reason}".strip()
    return str(error) or type(error).__name__


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
