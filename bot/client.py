"""The discord.py client: opens storage, loads the cogs, syncs the command tree."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands

from bot.config import Settings
from bot.games.registry import GAMES, all_adapters
from bot.health import keep_beating
from bot.sessions.service import SessionService
from bot.storage import apply_migrations, open_database
from bot.storage.meta import COMMAND_TREE_HASH, get_meta, set_meta
from bot.storage.protocols import Database
from bot.ui import Platform, install

log = logging.getLogger(__name__)


class DiceBot(commands.Bot):
    """The bot. Other areas read `db` (storage), `sessions`, `platform` (the shared
    Discord machinery) and `display_name()` from it."""

    db: Database
    sessions: SessionService
    platform: Platform

    def __init__(
        self,
        settings: Settings,
        *,
        force_sync: bool = False,
        rng: Any = None,
        clock: Callable[[], float] = time.time,
        **client_options: Any,
    ) -> None:
        intents = discord.Intents.default()  # no privileged intents: buttons need none
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **client_options,
        )
        self.settings = settings
        self.force_sync = force_sync
        self._rng = rng if rng is not None else secrets.SystemRandom()
        self._clock = clock
        self.synced_commands = False
        self._heartbeat: asyncio.Task[None] | None = None

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        from bot.endpoints import apply_endpoint_overrides

        settings = self.settings
        if settings.discord_api_base or settings.discord_gateway_url:
            apply_endpoint_overrides(settings.discord_api_base, settings.discord_gateway_url)
            log.info(
                "Discord endpoints overridden: REST %s, gateway %s",
                settings.discord_api_base or "default",
                settings.discord_gateway_url or "default",
            )
        await super().start(token, reconnect=reconnect)

    async def setup_hook(self) -> None:
        self.db = await open_database(self.settings.database_url, exclusive=True)
        applied = await apply_migrations(self.db)
        if applied:
            log.info("database migrations applied: %s", applied)
        self.sessions = SessionService(
            self.db,
            all_adapters(),
            rng=self._rng,
            clock=self._clock,
            bot_step_seconds=self.settings.bot_step_seconds,
            owns_guild=self.settings.owns_guild,
        )
        # The computer players' and hints' shared tables, built before the first click needs them.
        for game in GAMES:
            if game.warm_up is not None:
                await asyncio.to_thread(game.warm_up)
        self.platform = install(self, self.sessions)
        for game in GAMES:
            await self.load_extension(game.extension)
        armed = await self.sessions.restore_timers()
        shards = self.settings.shards
        if shards is None:
            log.info("resumed %d turn timers", armed)
        else:
            log.info("resumed %d turn timers of shards %s", armed, self.settings.shard_ids)
        await self.sync_commands(force=self.force_sync)
        if self.settings.heartbeat_file is not None:
            self._heartbeat = asyncio.create_task(
                keep_beating(self.settings.heartbeat_file, self._connected), name="heartbeat"
            )

    def _connected(self) -> bool:
        return self.is_ready() and not self.is_closed()

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Sync the command tree if it changed since the last sync (or if forced)."""
        digest = self.command_tree_hash()
        if not force and digest == await get_meta(self.db, COMMAND_TREE_HASH):
            log.info("application commands unchanged; not syncing")
            return False
        synced = await self.tree.sync()
        log.info("synced %d global application commands", len(synced))
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d application commands to guild %s", len(synced), guild_id)
        await set_meta(self.db, COMMAND_TREE_HASH, digest)
        self.synced_commands = True
        return True

    def command_tree_hash(self) -> str:
        commands_payload = [command.to_dict(self.tree) for command in self.tree.get_commands()]
        text = json.dumps(
            {"commands": commands_payload, "dev_guild": self.settings.dev_guild_id},
            sort_keys=True,
            default=str,
        )
        return hashlib.sha256(text.encode()).hexdigest()

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
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        sessions = getattr(self, "sessions", None)
        if sessions is not None:
            await sessions.close()
        await super().close()
        db = getattr(self, "db", None)
        if db is not None:
            await db.close()
        log.info("shut down cleanly")


class ShardedDiceBot(DiceBot, commands.AutoShardedBot):
    """The bot running shards SHARD_IDS of SHARD_COUNT on one gateway connection each;
    another process runs the other shards, on the same PostgreSQL database."""


def create_bot(settings: Settings, **options: Any) -> DiceBot:
    """The bot the settings ask for: sharded when SHARD_COUNT is set, else as ever."""
    shards = settings.shards
    if shards is None:
        return DiceBot(settings, **options)
    return ShardedDiceBot(
        settings, shard_count=settings.shard_count, shard_ids=list(shards), **options
    )
