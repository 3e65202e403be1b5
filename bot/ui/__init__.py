"""The Discord machinery every game shares: the one session component class, the click
dispatch, the live message, the shared commands of a game's group, the error funnel.

`install(bot, sessions)` wires it once, before the games' extensions load; a game's
extension reaches it with `platform_of(bot)`.
"""

from __future__ import annotations

from dataclasses import dataclass

from discord.ext import commands

from bot.sessions.service import SessionService
from bot.storage.notify import NotifyStore
from bot.storage.pings import PingStore
from bot.ui.clicks import Clicks
from bot.ui.components import SessionComponent, serve_clicks_directly
from bot.ui.live import LiveMessages
from bot.ui.pings import TurnPings


@dataclass(frozen=True, slots=True)
class Platform:
    sessions: SessionService
    live: LiveMessages
    clicks: Clicks
    pings: TurnPings


def install(bot: commands.Bot, sessions: SessionService) -> Platform:
    """Serve every session component and tell the live messages about timer changes."""
    pings = TurnPings(bot, NotifyStore(sessions.db), PingStore(sessions.db))
    live = LiveMessages(bot, pings)
    platform = Platform(sessions, live, Clicks(sessions, live), pings)
    sessions.listener = live
    bot.add_dynamic_items(SessionComponent)
    serve_clicks_directly(bot)
    return platform


def platform_of(bot: commands.Bot) -> Platform:
    """The platform the bot installed (bot.client.DiceBot.platform)."""
    platform: Platform = getattr(bot, "platform")  # noqa: B009 - any Bot subclass
    return platform
