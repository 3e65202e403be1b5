"""A tab's action at the table, made through the click's path: the same change
(bot.sessions.actions), the channel's lock, the version check for a move, the commit
before anything is shown, and the double-tap rule. The actor is answered once the
change is committed; the live message follows in the background as a change nobody
clicked for does (SessionService.update_shown_later, bot.ui.live: the freshest click's
token, else the bot's where it works, the newest change only; where neither works,
the message waits for a click, and the session, marked played at the table, says so
in its last words). A message behind (Discord's rate limits, a 429) delays no action.

Only the process that owns the guild shows the live message: elsewhere it adopts the
change from the notification of the commit (bot.sessions.other_processes). The tabs
are not fed from here but by the commit listeners, so a slow Discord delays no tab.
"""

from __future__ import annotations

import itertools
import logging
import re
from dataclasses import dataclass
from typing import Protocol

from bot.connection.global_pace import urgent
from bot.i18n import t, with_locale
from bot.plugin import Games
from bot.plugin.review_message import review_message
from bot.render.custom_ids import ARG, ClickAction, ComponentRef
from bot.render.layout import Text
from bot.render.lobby import message_link
from bot.render.plain_text import plain_line, plain_lines
from bot.sessions import actions, lobby
from bot.sessions.actions import Actor
from bot.sessions.adapter import GameEvent
from bot.sessions.errors import AlreadyLive, DatabaseDown, SessionError, StaleButton, UnknownAction
from bot.sessions.model import Place, Session, Status
from bot.sessions.service import Expect, Mutation, SessionService
from bot.sessions.tools import ChangeTools
from bot.storage.protocols import DatabaseUnavailable
from bot.ui.computer_players import hint_text, solo_level
from bot.ui.double_taps import Click, DoubleTaps, click_of
from bot.ui.options import DEFAULT_TIMER_SECONDS
from bot.ui.reviews import Missing, Reviews

log = logging.getLogger(__name__)

OPEN = "open"  # no game in the channel: a lobby of game `arg`, the actor hosting it
# What a tab may ask (the `act` frame's `action`): click actions that make sense at a
# table, and `open`.
TABLE_ACTIONS = frozenset(
    {
        ClickAction.JOIN,
        ClickAction.LEAVE,
        ClickAction.START,
        ClickAction.CANCEL,
        ClickAction.MOVE,
        ClickAction.END,
        ClickAction.AGAIN,
        ClickAction.ADD_BOT,
        ClickAction.BOT,
        ClickAction.DROP_BOT,
        ClickAction.HINT,
        ClickAction.REVIEW,
        OPEN,
    }
)
_ARG = re.compile(f"(?:{ARG})?")  # as a button's custom_id carries it, or none


@dataclass(frozen=True, slots=True)
class Accepted:
    """Done: `session` as committed (None: the twin of an accepted action, not made again)."""

    session: Session | None = None


@dataclass(frozen=True, slots=True)
class Refused:
    """Nothing changed, for the reason `text` gives, in the actor's language."""

    text: str


@dataclass(frozen=True, slots=True)
class Private:
    """For the actor alone (a hint, a review): nothing changed."""

    title: str
    lines: tuple[str, ...]


Outcome = Accepted | Refused | Private


@dataclass(frozen=True, slots=True)
class Tap:
    """An action as the double-tap rule knows it: what it repeats (None: nothing, for
    `open`), when it arrived, and its own number (as a click's interaction id)."""

    click: Click | None
    arrived: float
    number: int


@dataclass(frozen=True, slots=True)
class Where:
    """Where a lobby opened at the table is played (from its activity instance's
    location): the guild (0 outside a server) and what the bot's token may do there."""

    guild_id: int
    place: Place


class ChatSide(Protocol):
    """What the chat shows of a lobby opened or ended at the table, beside the changes
    the session service shows (bot.ui.live.LiveMessages)."""

    async def post_new(self, session: Session) -> int | None: ...

    async def strip_buttons(self, session: Session) -> None: ...


class TableActions:
    def __init__(
        self,
        games: Games,
        sessions: SessionService,
        chat: ChatSide,
        reviews: Reviews,
        *,
        double_taps: DoubleTaps | None = None,
    ) -> None:
        self.games = games
        self.sessions = sessions
        self.chat = chat
        self.reviews = reviews
        self.double_taps = double_taps or DoubleTaps()
        self._numbers = itertools.count(1)  # each action's own, as a click's interaction id

    async def act(
        self,
        channel_id: int,
        actor: Actor,
        session_id: int | None,
        version: int,
        action: str,
        arg: str = "",
        *,
        where: Where | None = None,
    ) -> Outcome:
        """Do what a tab asks in the channel: `action` (with `arg`) on session
        `session_id` as the tab saw it at `version` (checked for a move), as `actor`.
        `where`: for `open`, where the channel is. Never raises for what it is asked."""
        tap = Tap(
            _click(actor, session_id, version, action, arg),
            self.double_taps.clock(),
            next(self._numbers),
        )
        with with_locale(actor.locale):
            try:
                return await self._act(
                    channel_id, actor, session_id, version, action, arg, where, tap
                )
            except SessionError as error:
                if tap.click is not None and self.double_taps.is_twin(
                    tap.click, tap.arrived, tap.number
                ):
                    return Accepted()
                return Refused(_said(error))
            except DatabaseUnavailable as error:
                log.info("table action in %s: database %s (%s)", channel_id, error.state, error)
                return Refused(_said(DatabaseDown()))
            except Exception:
                log.exception("table action %s in channel %s failed", action, channel_id)
                return Refused(t("error.generic"))

    async def _act(
        self,
        channel_id: int,
        actor: Actor,
        session_id: int | None,
        version: int,
        action: str,
        arg: str,
        where: Where | None,
        tap: Tap,
    ) -> Outcome:
        if action not in TABLE_ACTIONS or not _ARG.fullmatch(arg) or version < 0:
            raise UnknownAction()
        if action == OPEN:
            return await self._open(channel_id, actor, arg, where)
        if session_id is None or session_id <= 0:
            raise UnknownAction()
        if action == ClickAction.HINT:
            return await self._hint(channel_id, actor, session_id)
        if action == ClickAction.REVIEW:
            return await self._review(channel_id, actor, session_id)
        if action == ClickAction.AGAIN:
            return await self._again(channel_id, actor, session_id)
        mutate = actions.remembering_locale(actor, _mutation(actor, action, arg))
        expect = Expect(session_id, version if action == ClickAction.MOVE else None)
        return await self._change(channel_id, mutate, expect, tap)

    async def _change(self, channel_id: int, mutate: Mutation, expect: Expect, tap: Tap) -> Outcome:
        """A change of the channel's session, as the click of that action makes it."""

        def at_table(session: Session, tools: ChangeTools) -> list[GameEvent]:
            events = mutate(session, tools)
            session.at_table = True  # committed with it: every process knows
            if tap.click is not None:  # its twin is answered as done, not refused
                self.double_taps.accepted(tap.click, tap.arrived, tap.number)
            return events

        change = await self.sessions.update_shown_later(channel_id, at_table, expect=expect)
        return Accepted(change.session)

    async def _hint(self, channel_id: int, actor: Actor, session_id: int) -> Outcome:
        """The hint for the player to move, to them alone; nothing changes."""
        session = Expect(session_id=session_id).check(await self.sessions.live(channel_id))
        adapter = self.sessions.adapter(session.kind)
        text = await hint_text(session, adapter, actor.user_id)
        return Private(t("game.button.hint"), tuple(plain_lines(text)))

    async def _review(self, channel_id: int, actor: Actor, session_id: int) -> Outcome:
        """An ended game's review, for whoever asks; nothing changes."""
        session = await self.sessions.by_id(session_id)
        if session is None or session.channel_id != channel_id:
            raise StaleButton()
        found = await self.reviews.find(session.kind, session.community_id, session_id)
        if found.review is None:
            missing = found.missing or Missing.UNKNOWN
            why = t(f"review.missing.{missing.value}", game_id=session_id)
            return Private(plain_line(t("review.title", game_id=session_id)), (why,))
        game = self.games.plugin(session.kind)
        drawn = review_message(found.review, game, session_id, str(actor.user_id))
        text = "\n".join(block.content for block in drawn.blocks if isinstance(block, Text))
        title, *lines = plain_lines(text)
        return Private(title, tuple(lines))

    async def _again(self, channel_id: int, actor: Actor, session_id: int) -> Outcome:
        """Play again: the ended game's players in a new lobby the actor hosts."""
        old = actions.ended_game(await self.sessions.by_id(session_id), channel_id, actor.user_id)
        session = actions.play_again(old, actor, old.place)
        opened = await self._open_lobby(session, actor)
        if opened is not None and self.sessions.owns_guild(old.guild_id):
            with urgent():  # the actor waits on it: before the live messages' edits
                await self.chat.strip_buttons(old)
        return Accepted(opened)

    async def _open(self, channel_id: int, actor: Actor, kind: str, where: Where | None) -> Outcome:
        """A lobby of game `kind` in a channel with none, hosted by the actor."""
        if where is None or kind not in self.games:
            raise UnknownAction()
        adapter = self.games.plugin(kind).adapter
        session = Session(
            kind=kind,
            guild_id=where.guild_id,
            channel_id=channel_id,
            host_id=actor.user_id,
            seats=[actor.seat()],
            timer_seconds=DEFAULT_TIMER_SECONDS,  # and the game's own default options
            language=actor.locale,
            place=where.place,
        )
        if where.place is Place.BOT_DM:  # nobody else can join: a computer player sits in
            session.seats.append(lobby.bot_seat(session, adapter, solo_level(adapter)))
        return Accepted(await self._open_lobby(session, actor))

    async def _open_lobby(self, session: Session, actor: Actor) -> Session | None:
        """Open `session` as the channel's lobby, marked played at the table, and post
        it in the chat where this process may. The channel's lobby if the actor sits in
        it already (two people pressed Play again at once); else AlreadyLive refused."""
        session.at_table = True
        post = self._post_new if self.sessions.owns_guild(session.guild_id) else None
        try:
            return await self.sessions.open(session, post=post)
        except AlreadyLive as error:
            existing: Session = error.params["session"]
            if existing.status is Status.LOBBY and existing.seat(actor.user_id) is not None:
                return existing
            game = self.games.plugin(existing.kind).title
            raise AlreadyLive(game=game, link=message_link(existing)) from None

    async def _post_new(self, session: Session) -> int | None:
        """The lobby posted in the chat; the actor waits on it, so it goes before the
        live messages' edits waiting for the bot token's pace."""
        with urgent():
            return await self.chat.post_new(session)


def _mutation(actor: Actor, action: str, arg: str) -> Mutation:
    """What a change action asks, as the click's: Leave leaves a game in play too (the
    chat has /<game> leave for that), Add bot without a level seats the middle one."""
    if action == ClickAction.LEAVE:
        return actions.leave(actor)
    if action == ClickAction.ADD_BOT:
        return _add_bot(actor, arg)
    return actions.mutation_for(actor, action, arg)


def _add_bot(actor: Actor, level: str) -> Mutation:
    def add(session: Session, tools: ChangeTools) -> list[GameEvent]:
        chosen = level or solo_level(tools.adapter)
        return actions.add_bot(actor, chosen)(session, tools)

    return add


def _click(
    actor: Actor, session_id: int | None, version: int, action: str, arg: str
) -> Click | None:
    """What a double tap of this action repeats (None for `open`, which has no twin:
    its second finds the lobby open, with the actor in it)."""
    if action not in TABLE_ACTIONS or action == OPEN:
        return None
    ref = ComponentRef(ClickAction(action), session_id or 0, version, arg)
    return click_of(actor.user_id, None, ref)


def _said(error: SessionError) -> str:
    """A refusal's words, plain."""
    return " ".join(plain_lines(t(error.key, **error.params)))
