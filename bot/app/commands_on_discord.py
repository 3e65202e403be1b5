"""The command sync: Discord's application commands made the tree's.

Each scope (global, or the dev guild's) is read with every language's texts, compared
with what the tree sends (bot.app.command_sync) and overwritten only where it differs.
The guilds synced are remembered in the database, so that a dev guild of before is
emptied. A failure is a warning, never a failed start.

The Entry Point (the App Launcher's command, when the table is on) is no command of the
tree: discord.py has no type for it (AppCommandType(4) raises), so it is a dict here,
and its use is answered before the tree looks it up (bot.ui.launch).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands
from discord.http import HTTPClient, Route

from bot.app.command_sync import (
    APP_HANDLER,
    ENTRY_POINT,
    ENTRY_POINT_OMITTED,
    Command,
    Outcome,
    Target,
    differences,
    guild_ids,
    is_entry_point,
    keeping_entry_point,
    targets,
)
from bot.storage.meta import command_guilds, delete_meta, get_meta, set_meta
from bot.storage.protocols import Database
from bot.storage.waiting import when_the_database_answers
from bot.ui.translator import command_text

log = logging.getLogger(__name__)

# How a request to Discord fails: an error answer (or a rate limit too long to wait), no
# answer, or an answer that is not what was asked for (MalformedCommands, bad JSON).
SYNC_ERRORS = (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError, ValueError)
SYNC_RETRY_SECONDS = 5.0  # the command sync, while the database is busy or away


async def sync_when_the_database_answers(sync: Callable[[], Awaitable[bool]]) -> bool:
    """The command sync, tried again while the database is busy or away: it reads
    and writes the guilds it synced, and a restart under load can find every pooled
    connection taken for a few seconds (a failed sync was a traceback, and no sync
    until the next start)."""
    return await when_the_database_answers(sync, what="command sync", every=SYNC_RETRY_SECONDS)


# Where the Entry Point is offered: to the server install and the user install, in
# servers, the bot's DM and group DMs (the Activity launches in any of them).
ENTRY_POINT_INSTALLS = [0, 1]
ENTRY_POINT_CONTEXTS = [0, 1, 2]


async def sync_commands(
    client: commands.Bot,
    db: Database,
    *,
    dev_guild: int | None,
    force: bool = False,
    table: bool = False,
) -> bool:
    """Make Discord's application commands the tree's: globally, or with a `dev_guild`
    in that guild only; a dev guild of before is emptied. With the `table` on, the
    global scope holds our Entry Point too; with it off, it keeps the Entry Point
    Discord has, if any. Each scope is read first and overwritten only if it differs
    (`force`: overwritten without reading). True if anything was written."""
    application_id = client.application_id
    if application_id is None:  # known once logged in, before setup_hook
        log.warning("application id unknown; application commands not synced")
        return False
    wanted = await command_payload(client.tree)
    entry_point = await entry_point_command(client.tree.translator) if table else None
    remembered = command_guilds(application_id)
    before = guild_ids(await get_meta(db, remembered))
    still: set[int] = set() if dev_guild is None else {dev_guild}
    written = False
    placed = targets(wanted, dev_guild=dev_guild, previous_guilds=before, entry_point=entry_point)
    for target in placed:
        outcome = await _sync_scope(client.http, application_id, target, force=force)
        written |= outcome is Outcome.WRITTEN
        if outcome is Outcome.FAILED and target.guild_id not in (None, dev_guild):
            still.add(target.guild_id)  # its commands may be there: emptied next time
    if still:
        await set_meta(db, remembered, json.dumps(sorted(still)))
    elif before:
        await delete_meta(db, remembered)
    return written


async def command_payload(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """The commands as a sync sends them, translations included, so a changed
    translation is a difference too."""
    translator = tree.translator
    return [
        await command.get_translated_payload(tree, translator)
        if translator is not None
        else command.to_dict(tree)
        for command in tree.get_commands()
    ]


async def entry_point_command(translator: app_commands.Translator | None) -> Command:
    """Our Entry Point: the table, opened by the App Launcher; its use comes to the bot
    (APP_HANDLER), which answers it by launching the Activity. Named and described in
    every language, as the tree's commands are."""
    name = command_text("command.name.table")
    description = command_text("command.table")
    return {
        "type": ENTRY_POINT,
        "handler": APP_HANDLER,
        "name": name.message,
        "name_localizations": await _localizations(translator, name),
        "description": description.message,
        "description_localizations": await _localizations(translator, description),
        "integration_types": ENTRY_POINT_INSTALLS,
        "contexts": ENTRY_POINT_CONTEXTS,
    }


async def _localizations(
    translator: app_commands.Translator | None, text: app_commands.locale_str
) -> dict[str, str]:
    """`text` in each of Discord's locales the translator has a text of its own for."""
    if translator is None:
        return {}
    context: app_commands.TranslationContext[Any, Any] = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.other, text.message
    )
    found: dict[str, str] = {}
    for locale in discord.Locale:
        translated = await translator.translate(text, locale, context)
        if translated is not None:
            found[locale.value] = translated
    return found


async def _sync_scope(
    http: HTTPClient, application_id: int, target: Target, *, force: bool
) -> Outcome:
    guild = target.guild_id is not None
    if not force:
        try:
            registered = await _registered_commands(http, application_id, target.guild_id)
            target = keeping_entry_point(target, registered)
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
        try:
            await _overwrite(http, application_id, target)
        except discord.HTTPException as error:
            target = await _after_refusal(http, application_id, target, error)
            await _overwrite(http, application_id, target)
    except SYNC_ERRORS as error:
        log.warning(
            "could not register the %s application commands: %s",
            target.where,
            _describe(error),
        )
        return Outcome.FAILED
    log.info("registered %d %s application commands", len(target.commands), target.where)
    return Outcome.WRITTEN


async def _after_refusal(
    http: HTTPClient, application_id: int, target: Target, error: discord.HTTPException
) -> Target:
    """What to send again after Discord refused an overwrite for its Entry Point, or
    raise `error`. Unread (forced, or the read failed), Discord's Entry Point was left
    out (50240): read it and send it back with the rest. Ours refused (an application
    whose Activities are not enabled in the portal; Discord documents no code for it):
    the other commands without it, so that they are not left behind at every start."""
    if error.code == ENTRY_POINT_OMITTED:
        log.info("%s application commands: keeping Discord's Entry Point", target.where)
        registered = await _registered_commands(http, application_id, target.guild_id)
        return keeping_entry_point(target, registered)
    ours = [c for c in target.commands if is_entry_point(c) and "id" not in c]
    if error.status != 400 or not ours:
        raise error
    log.warning(
        "Discord refused the table's Entry Point (%s): are Activities enabled for the "
        "application (Developer Portal > Activities)? The other commands are registered "
        "without it",
        _describe(error),
    )
    return Target(target.guild_id, [c for c in target.commands if c not in ours])


async def _overwrite(http: HTTPClient, application_id: int, target: Target) -> None:
    if target.guild_id is None:
        await http.bulk_upsert_global_commands(application_id, target.commands)
    else:
        await http.bulk_upsert_guild_commands(application_id, target.guild_id, target.commands)


async def _registered_commands(http: HTTPClient, application_id: int, guild_id: int | None) -> Any:
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
    return await http.request(route, params={"with_localizations": "true"})


def _describe(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text or error.response.reason}".strip()
    return str(error) or type(error).__name__
