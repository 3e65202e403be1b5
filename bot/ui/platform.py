"""The platform: the services every game's commands and clicks share, built once at
start-up (`build_platform`) and handed to each game's command group."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.plugin import Games
from bot.sessions.service import SessionService
from bot.storage.notify import NotifyStore
from bot.storage.pings import PingStore
from bot.storage.reviews import ReviewStore
from bot.ui.click_tokens import InteractionTokens
from bot.ui.clicks import Clicks
from bot.ui.components import serve_clicks
from bot.ui.launch import TableLaunch
from bot.ui.live import LiveMessages
from bot.ui.pings import TurnPings
from bot.ui.places import guard_interaction_payloads
from bot.ui.reviews import Reviews, practice_followup


@dataclass(frozen=True, slots=True)
class Platform:
    games: Games  # the games served, by kind
    sessions: SessionService
    live: LiveMessages
    clicks: Clicks
    pings: TurnPings
    notify: NotifyStore  # each person's turn-ping setting
    reviews: Reviews  # finished games' reviews: computed when they end, stored, shown
    launch: TableLaunch  # the table opened from Discord: the Entry Point, Open the table
    rules_url: str | None = None  # RULES_URL: where /<game> rules sends people


def build_platform(
    client: discord.Client,
    games: Games,
    sessions: SessionService,
    *,
    rules_url: str | None = None,
    emojis_refused: Callable[[], None] = lambda: None,
    tokens: InteractionTokens | None = None,
    table: bool = False,
) -> Platform:
    """Wire the shared machinery: the live messages are the sessions' listener (timer
    changes, computer players' steps), and every session component's click is served.
    With the `table` on (DISCORD_CLIENT_SECRET), live messages offer Open the table."""
    notify = NotifyStore(sessions.db)
    tokens = tokens or InteractionTokens()
    pings = TurnPings(client, games, notify, PingStore(sessions.db), tokens=tokens)
    # The live messages share the pings' paused channels (a 403 to a ping pauses the
    # channel's edits too) and their tokens (a click's token sends the next ping).
    live = LiveMessages(client, games, sessions, pings, emojis_refused=emojis_refused)
    live.table = table
    launch = TableLaunch(table)
    reviews = Reviews(games, sessions, ReviewStore(sessions.db))
    reviews.practice_done = practice_followup(games, tokens)
    sessions.ending_listeners.append(reviews.game_ended)
    clicks = Clicks(games, sessions, live, reviews, launch)
    sessions.listener = live
    guard_interaction_payloads(client)  # before any click or command is read
    serve_clicks(client, clicks)
    return Platform(games, sessions, live, clicks, pings, notify, reviews, launch, rules_url)
