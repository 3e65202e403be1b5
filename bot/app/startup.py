"""What the bot does at start-up (its setup_hook), once logged in and before the gateway
connects: the database opened, the session service and the platform built, every
served game's commands added, the turn timers and pings restored; then the work left
for once the clicks replayed at the start are answered, started in the background."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import urlsplit

from bot.app.emoji_sync import sync_emojis
from bot.config import ConfigError
from bot.config.address import parse_host_port
from bot.connection.global_pace import bot_token_share, pace_bot_requests
from bot.history.rating_sql import RATINGS_MIGRATION, rebuild_all
from bot.history.recorder import recorder
from bot.history.sql import SqlResultStore
from bot.observability.discord_http import count_on_session
from bot.observability.health import HealthServer, database_check, gateway_check
from bot.observability.heartbeat import keep_beating
from bot.observability.loop_stalls import watch_the_loop
from bot.plugin import Games
from bot.process.memory_trim import keep_large_blocks_mapped, keep_trimming
from bot.process.worker_threads import favour_the_event_loop
from bot.render.emoji import markup_from_store, remember
from bot.score import score_group, score_groups
from bot.sessions.service import SessionService
from bot.storage import apply_migrations, open_database
from bot.storage.meta import APPLICATION_EMOJIS, get_meta
from bot.storage.protocols import Database
from bot.table.actions import TableActions
from bot.table.assets import HOW_TO_BUILD, built_page
from bot.table.hub import Hub
from bot.table.identity import Identity
from bot.table.location import where_played
from bot.table.proxy_signature import ProxySignature
from bot.table.server import TableServer
from bot.ui.click_tokens import InteractionTokens
from bot.ui.platform import Platform, build_platform
from bot.ui.translator import CatalogTranslator, LocaleTree

if TYPE_CHECKING:
    from bot.app.client import DiceBot

log = logging.getLogger(__name__)

T = TypeVar("T")


async def start_up(bot: DiceBot) -> None:
    """Everything the bot needs before the gateway connects, in order; what can wait,
    started in the background (`start_background_work`)."""
    favour_the_event_loop()  # before any thread computes beside the loop
    # The session exists once logged in.
    count_on_session(bot.http, bot.metrics, bot.answered_at)
    settings = bot.settings
    share = bot_token_share(settings.shards, settings.shard_count)
    pace_bot_requests(bot.http, settings.discord_global_rate * share)
    bot.db = await open_storage(settings.database_url)
    if settings.health_addr:
        # Up before the gateway connects: /healthz says 503 until READY.
        bot.health = await serve_health(bot, settings.health_addr)
    # The table is on with the client secret set and its page built; without the page
    # the bot runs as it would without the secret (no server, no button, no Entry Point).
    page = built_page() if settings.table_on else None
    if settings.table_on and page is None:
        log.warning(HOW_TO_BUILD)
    bot.sessions = SessionService(
        bot.db,
        bot.games.adapters(),
        rng=bot.rng,
        clock=bot.clock,
        bot_step_seconds=settings.bot_step_seconds,
        owns_guild=settings.owns_guild,
        practice_dice=bot.games.practice_dice(),
        notify_commits=settings.table_on,  # other processes' tabs hear of every commit
    )
    bot.platform = build_platform(
        bot,
        bot.games,
        bot.sessions,
        rules_url=settings.rules_url,
        emojis_refused=bot.emojis_refused,
        tokens=InteractionTokens.lasting(settings.interaction_token_seconds, clock=bot.clock),
        table=page is not None,
    )
    if isinstance(bot.tree, LocaleTree):  # the App Launcher's Entry Point opens the table
        bot.tree.entry_point = bot.platform.launch.entry_point
    bot.sessions.observer = bot.metrics
    bot.metrics.watch_live_sessions(bot.sessions.live_counts)
    bot.platform.clicks.clicks_observed = bot.metrics.click_handled
    if bot.inflight is not None:
        bot.sessions.committed = bot.inflight.committed
        bot.platform.clicks.replayed = bot.inflight.replayed
    await bot.tree.set_translator(CatalogTranslator())
    await add_games(bot, bot.platform)
    if settings.emoji_sync:
        stored = await get_meta(bot.db, APPLICATION_EMOJIS)
        remember(markup_from_store(stored, bot.application_id))
    await restore_games(bot)
    if page is not None:
        bot.table = await serve_table(bot, page)
    start_background_work(bot)


async def open_storage(database_url: str) -> Database:
    """The database, opened for this process alone and migrated."""
    db = await open_database(database_url, exclusive=True)
    applied = await apply_migrations(db)
    if applied:
        log.info("database migrations applied: %s", applied)
    if RATINGS_MIGRATION in applied:  # the games stored before get their ratings
        rebuilt = await rebuild_all(db)
        log.info("ratings built from %s stored games (%s rated)", rebuilt.games, rebuilt.rated)
    return db


async def serve_health(bot: DiceBot, address: str) -> HealthServer:
    """The /healthz and /metrics endpoint, listening; ConfigError if it cannot."""
    health = HealthServer(address, [gateway_check(bot), database_check(bot.db)], bot.metrics)
    try:
        await health.start()
    except OSError as error:
        # Not the "cannot reach Discord" that __main__ says of other OSErrors.
        raise ConfigError(f"HEALTH_ADDR: cannot listen on {address}: {error}") from None
    return health


async def serve_table(bot: DiceBot, page: Path) -> TableServer:
    """The table's server on ACTIVITY_ADDR, its tabs told of every commit; ConfigError
    if it cannot listen."""
    settings = bot.settings
    address, secret = settings.activity_addr, settings.discord_client_secret
    assert address is not None and secret is not None and bot.application_id is not None
    platform = bot.platform
    hub = Hub(bot.sessions, bot.games)
    bot.sessions.commit_listeners.append(hub.committed)
    key = settings.discord_public_key
    host, port = parse_host_port(address)
    server = TableServer(
        host,
        port,
        page=page,
        application_id=bot.application_id,
        identity=Identity(
            application_id=bot.application_id,
            client_secret=secret.get_secret_value(),
            bot_http=bot.http,
            api_base=settings.discord_api_base,
        ),
        hub=hub,
        actions=TableActions(platform.games, bot.sessions, platform.live, platform.reviews),
        games=bot.games,
        where=where_played(bot, settings.owns_guild),
        signature=None if key is None else ProxySignature(key),
        # A stand-in's chat page (`make play`) frames the table too.
        frame_ancestors=[origin_of(settings.discord_api_base)] if settings.discord_api_base else [],
    )
    try:
        await server.start()
    except OSError as error:
        raise ConfigError(f"ACTIVITY_ADDR: cannot listen on {address}: {error}") from None
    return server


def origin_of(url: str) -> str:
    """scheme://host[:port] of a URL."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


async def add_games(bot: DiceBot, platform: Platform) -> None:
    """Each served game's /<game> group with its score group attached, its history
    recorded in its final commit, and the one score pager serving every game."""
    store = SqlResultStore()
    db = bot.db
    pager, pages = score_groups(
        bot.games, store, lambda interaction: db.transaction(), platform.reviews
    )
    bot.add_dynamic_items(pager.item)
    for game in bot.games:
        bot.sessions.game_over_hooks[game.kind] = recorder(game.history, store)
        cog = game.cog(platform, game)
        assert cog.app_command is not None  # a GroupCog always has its group
        cog.app_command.add_command(score_group(pages[game.kind]))
        await bot.add_cog(cog)


async def restore_games(bot: DiceBot) -> None:
    """The stored games' turn timers armed (held until caught up), their turn pings
    known, and the clicks a killed predecessor held played."""
    bot.sessions.timers.hold()  # until caught up
    # Other processes' commits (the table on PostgreSQL), heard before the stored games
    # are read: none falls between the read and the first notification.
    bot.sessions.follow_other_processes()
    armed = await bot.sessions.restore_timers()
    if bot.settings.shards is None:
        log.info("resumed %d turn timers", armed)
    else:
        log.info("resumed %d turn timers of shards %s", armed, bot.settings.shard_ids)
    # Turn pings posted before the start: known before the first click (one read, not
    # one per game's first change); those whose turn is over, deleted in the background.
    await bot.platform.pings.load(bot.sessions)
    if bot.inflight is not None:
        # The clicks a killed predecessor held (acknowledged already, those that
        # could be: bot.app.takeover), before the gateway's: the oldest first.
        replayed = bot.inflight.replay(bot, bot.held)
        if replayed:
            log.info("acting on %d interactions the process before left unanswered", replayed)


def start_background_work(bot: DiceBot) -> None:
    """What start-up leaves running beside the gateway, most of it once caught up."""
    settings = bot.settings
    pings = bot.platform.pings
    bot.ping_cleanup = asyncio.create_task(
        once_caught_up(bot, lambda: pings.restore(bot.sessions)), name="turn-pings"
    )
    # In the background too: the gateway need not wait for Discord to take the edits.
    bot.startup_repair = asyncio.create_task(
        repair_after_pings(bot.sessions, bot.ping_cleanup), name="repair-live-messages"
    )
    # Neither before the gateway nor beside its replay: a restarted process answers
    # the clicks Discord replays to it (bot.connection.gateway_resume) within their
    # 3 s only if it connects within about 2 s of its start and has its loop for
    # them then; the tables took 1.3 s (a thread, but holding the GIL; 0.55 s of CPU
    # since their build was made faster) and the sync 0.4 s. A move or hint that
    # comes first builds the tables it needs itself; Discord serves the commands
    # registered before until the sync is done.
    bot.warming = bot.starting.start(
        once_caught_up(bot, lambda: warm_up(bot.games, settings.cache_dir)), "warm-up"
    )
    bot.command_sync = bot.starting.start(
        once_caught_up(bot, bot._sync_commands_when_the_database_answers), "command-sync"
    )
    if settings.emoji_sync:
        # In the background: drawing and uploading pictures must never delay or fail
        # start-up; messages show Unicode until (and unless) the emojis are there.
        bot.emoji_sync = asyncio.create_task(sync_emojis(bot), name="emoji-sync")
    # glibc keeps what the bot frees below its heaps' tops: handed back each minute;
    # and large blocks are mapped apart, so that no thread's heap keeps them.
    keep_large_blocks_mapped()
    bot.starting.start(keep_trimming(), "malloc-trim")
    # A held loop delays every click of the process at once: measured, and logged.
    bot.gc_pauses.install()
    bot.starting.start(watch_the_loop(bot.metrics.loop_lag, bot.gc_pauses), "loop-watch")
    if settings.heartbeat_file is not None:
        bot.heartbeat = asyncio.create_task(
            keep_beating(settings.heartbeat_file, lambda: bot.is_ready() and not bot.is_closed()),
            name="heartbeat",
        )


async def once_caught_up(bot: DiceBot, work: Callable[[], Awaitable[T]]) -> T:
    await bot.caught_up.wait()
    return await work()


async def warm_up(games: Games, cache_dir: Path | None) -> None:
    """The computer players' and hints' shared tables, built in a thread; then what
    start-up built is left out of later garbage collections."""
    for game in games:
        if game.warm_up is not None:
            await asyncio.to_thread(game.warm_up, cache_dir)
    freeze_startup_objects()


def freeze_startup_objects() -> None:
    """Leave what start-up built out of every later garbage collection.

    The computer players' tables, the catalogs and discord.py's own state are millions of
    objects that live as long as the process; the collector walked them all at each full
    collection, a pause of 20-160 ms every few hundred clicks (measured with the click
    benchmark). Collected first, so that no garbage of the start-up is kept for good."""
    gc.collect()
    gc.freeze()


async def repair_after_pings(sessions: SessionService, ping_cleanup: asyncio.Task[int]) -> int:
    """Show again the messages left behind, once the pings from before are sorted
    out: which of them comes first must not depend on how fast the database answers
    (a repaired message follows its turn, and so does a ping restored)."""
    await asyncio.wait({ping_cleanup})
    return await sessions.repair_stored()
