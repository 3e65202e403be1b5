"""Finished games' reviews (bot.plugin.review): computed once per game and stored.

When a game ends, `Reviews.game_ended` (the session service's ending listener, told
after the final commit) reviews it in the background from its events, still in memory
then (the final commit drops them from the database), off the event loop in a thread of
its own (`bot.process.worker_threads.REVIEWS`), and stores it (`ReviewStore`). The
Review button and `/<game> score game ... review` read the stored one; if it is missing
and the events are still there (the bot restarted before a compaction, or the background
task is still running) it is computed at that press, never on the click path of a game
in play.

A practice game's review is sent to the learner by itself when it is ready (an ephemeral
follow-up of the interaction that ended it), with its costliest decision explained.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import discord

from bot.i18n import t, with_locale
from bot.plugin import Games
from bot.plugin.review import GameReview, ReviewFailed, ReviewSetup
from bot.plugin.review_message import practice_text, review_message
from bot.process.background import BackgroundTasks
from bot.process.worker_threads import REVIEWS, run_in
from bot.render.layout import Divider, Text
from bot.sessions.adapter import GameEvent
from bot.sessions.model import Ending, Session, Status
from bot.sessions.service import SessionService
from bot.storage.protocols import DatabaseUnavailable
from bot.storage.reviews import ReviewStore, StoredReview
from bot.storage.waiting import when_the_database_answers
from bot.ui.click_tokens import InteractionTokens
from bot.ui.components import message_view
from bot.ui.replies import tell

log = logging.getLogger(__name__)

# A review is stored once, after its game's events were dropped (the final commit's
# compaction): one not stored is never had again. So a busy or restarting database is
# waited out, up to about 30 s (a restart of PostgreSQL took 21 to 24 s in the soaks).
STORE_TRIES = 7
STORE_RETRY_SECONDS = 5.0


class Missing(StrEnum):
    """Why a game has no review to show (each a `review.missing.*` key)."""

    UNKNOWN = "unknown"  # no such game of this game kind in this community, or unfinished
    ABANDONED = "abandoned"
    OLD = "old"  # ended before reviews were kept: no review and no events


@dataclass(frozen=True, slots=True)
class Found:
    review: GameReview | None
    missing: Missing | None = None


PracticeDone = Callable[[Session, GameReview], Awaitable[None]]


def compute_review(games: Games, session: Session, events: list[GameEvent]) -> GameReview:
    """The review of an ended session from its events (pure, CPU-bound: run in a thread)."""
    reviewer = games.plugin(session.kind).reviewer
    assert reviewer is not None
    setup = ReviewSetup(
        players=tuple(seat.player_id for seat in session.seats),
        options=dict(session.options),
        practice=session.practice,
        computers=session.computer_levels(),
    )
    review = reviewer.review(setup, events)
    names = {seat.player_id: seat.name for seat in session.seats}
    bots = frozenset(seat.player_id for seat in session.seats if seat.is_bot)
    return replace(review, names=names, bots=bots)


def reviewable(games: Games, session: Session) -> bool:
    """A finished game (not abandoned, not cancelled) of a game that reviews its games."""
    return (
        session.status is Status.OVER
        and session.ending is Ending.FINISHED
        and session.id is not None
        and session.kind in games
        and games.plugin(session.kind).reviewer is not None
    )


class Reviews:
    def __init__(self, games: Games, sessions: SessionService, store: ReviewStore) -> None:
        self.games = games
        self.sessions = sessions
        self.store = store
        self._running: dict[int, asyncio.Task[GameReview | None]] = {}
        self._tasks = BackgroundTasks()
        # Told when a practice game's review is ready (the UI sends it to the learner).
        self.practice_done: PracticeDone | None = None

    def game_ended(self, session: Session) -> None:
        """A game just ended (its final commit is done): review it in the background."""
        if not reviewable(self.games, session):
            return
        assert session.id is not None
        task = self._tasks.start(self._review_and_store(session), f"review {session.id}")
        self._running[session.id] = task

    async def _review_and_store(self, session: Session) -> GameReview | None:
        assert session.id is not None
        try:
            events = await self.sessions.ended_events(session.id)
            if not events:
                return None
            review = await run_in(REVIEWS, compute_review, self.games, session, events)
            stored = StoredReview(session.id, session.kind, session.community_id, review.to_dict())
            await self._put(stored)
        except ReviewFailed:
            log.warning("game %s (%s) could not be reviewed", session.id, session.kind)
            return None
        finally:
            self._running.pop(session.id, None)
        if session.practice and self.practice_done is not None:
            await self.practice_done(session, review)
        return review

    async def _put(self, stored: StoredReview) -> None:
        """Store a review, waiting out a database that is busy or away (a warning, no
        traceback, if it stays so)."""
        try:
            await when_the_database_answers(
                lambda: self.store.put(stored),
                what=f"game {stored.game_id}'s review",
                every=STORE_RETRY_SECONDS,
                tries=STORE_TRIES,
            )
        except DatabaseUnavailable as error:
            log.warning(
                "game %s's review was not stored: database %s (%s)",
                stored.game_id,
                error.state,
                error,
            )

    async def find(self, kind: str, community_id: int, game_id: int) -> Found:
        """The review of game `game_id` of `kind` in the community, or why there is none."""
        stored = await self.store.get(game_id)
        if stored is not None:
            if stored.kind != kind or stored.guild_id != community_id:
                return Found(None, Missing.UNKNOWN)
            return Found(GameReview.from_dict(stored.data))
        running = self._running.get(game_id)
        if running is not None:
            review = await asyncio.shield(running)
            return Found(review, None if review is not None else Missing.OLD)
        session = await self.sessions.by_id(game_id)
        if session is None or session.kind != kind or session.community_id != community_id:
            return Found(None, Missing.UNKNOWN)
        if session.status is Status.OVER and session.ending is Ending.ABANDONED:
            return Found(None, Missing.ABANDONED)
        if not reviewable(self.games, session):
            return Found(None, Missing.UNKNOWN)
        review = await self._review_and_store(session)
        return Found(review, None if review is not None else Missing.OLD)

    async def close(self, timeout: float | None = None) -> None:
        """Until every review being worked out is stored (and a practice one sent), or, at
        shutdown, for `timeout` seconds: those left then are cancelled, before the store
        closes under them. Such a game has no review after the restart (its events were
        compacted away at its end): its Review says so, as for a game from before reviews."""
        try:
            async with asyncio.timeout(timeout):
                await self._tasks.wait()
        except TimeoutError:
            log.warning(
                "shutdown: %d game review(s) not finished in %.0f s: those games will have none",
                len(self._tasks),
                timeout,
            )
            self._tasks.cancel()
            await self._tasks.wait()


async def answer_review(
    interaction: discord.Interaction[Any],
    reviews: Reviews,
    kind: str,
    community_id: int,
    game_id: int,
) -> None:
    """Answer whoever asked with game `game_id`'s review, ephemerally, in their language;
    or, without one, why (unknown, abandoned, from before reviews were kept): nothing
    changes either way. A review still to compute is worked out after the answer is
    deferred, so the interaction is acknowledged within Discord's 3 seconds."""
    stored = await reviews.store.get(game_id)
    if stored is None and not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    found = await reviews.find(kind, community_id, game_id)
    if found.review is None:
        missing = found.missing or Missing.UNKNOWN
        await tell(interaction, t(f"review.missing.{missing.value}", game_id=game_id))
        return
    game = reviews.games.plugin(kind)
    reader = str(interaction.user.id)
    view = message_view(review_message(found.review, game, game_id, reader))
    if interaction.response.is_done():
        await interaction.followup.send(view=view, ephemeral=True)
    else:
        await interaction.response.send_message(view=view, ephemeral=True)


def practice_followup(games: Games, tokens: InteractionTokens) -> PracticeDone:
    """What tells a learner their practice game's review: an ephemeral follow-up of their
    own latest interaction in the channel (so it reaches only them), in their language,
    opening with their costliest decision explained. Nothing when no token of theirs is
    left (the review stays stored for the end screen's Review)."""

    async def send(session: Session, review: GameReview) -> None:
        assert session.id is not None
        token = tokens.for_followup(session.channel_id, user_id=session.host_id)
        if token is None:
            return
        game = games.plugin(session.kind)
        seat = session.seat(session.host_id)
        locale = seat.locale if seat is not None and seat.locale else session.language
        with with_locale(locale):
            lead = practice_text(review, game, str(session.host_id))
            message = review_message(review, game, session.id, str(session.host_id))
        if lead is not None:
            message = replace(message, blocks=(Text(lead), Divider(), *message.blocks))
        try:
            await token.interaction.followup.send(view=message_view(message), ephemeral=True)
        except discord.HTTPException as error:
            log.info("practice review of %s not sent: %s", session.id, error)
            tokens.spent(token)

    return send
