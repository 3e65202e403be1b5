"""What each session component does, for every game: the lobby's buttons, computer
players, turn moves (and move menus), Hint, the end confirmation, Play again.

A click becomes one change to the channel's session (bot.sessions); a refused change
becomes an ephemeral answer, and an accepted one is shown by editing the clicked message.
Answers need no channel permission; when the click shows that the bot has lost one its
own messages and edits need there, the clicker is also told, once (bot.ui.permissions).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands

from bot.connection.inflight import Replayed
from bot.i18n import supported, t
from bot.plugin import Games
from bot.render.custom_ids import LIVE_CHANGE_ACTIONS, ClickAction, ComponentRef
from bot.render.lobby import bot_level_layout, end_confirm_layout, message_link
from bot.render.names import safe_name
from bot.sessions import actions, lobby
from bot.sessions.actions import Actor, mutation_for
from bot.sessions.errors import (
    AlreadyLive,
    NotInGame,
    SessionError,
    StaleButton,
    StaleVersion,
)
from bot.sessions.model import Seat, Session, Status
from bot.sessions.service import Change, Defer, Expect, Mutation, Post, SessionService
from bot.sessions.tools import ChangeTools
from bot.storage.reviews import ReviewStore
from bot.ui.callback import ALREADY_ACKNOWLEDGED, mark_deferred
from bot.ui.components import view_for
from bot.ui.computer_players import hint_text
from bot.ui.double_taps import Click, DoubleTaps, click_of
from bot.ui.launch import TableLaunch
from bot.ui.live import LiveMessages
from bot.ui.options import DEFAULT_TIMER_SECONDS
from bot.ui.permissions import LostPermissions, check_can_open, lost_notice, missing_here
from bot.ui.places import place_of
from bot.ui.replies import acknowledge, answer_error, refuse, tell
from bot.ui.reviews import Reviews, answer_review

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
MOVES = frozenset({ClickAction.MOVE, ClickAction.MENU})  # made on the version the player saw
# A click whose change waits this long for earlier ones to be shown is acknowledged
# (Discord wants a first answer within 3 s of the click; the rest is for the way there).
DEFER_AFTER_SECONDS = 1.5
# Clicks that open a lobby check the bot's permissions first and refuse, naming them.
OPENS_LOBBY = frozenset({ClickAction.AGAIN, ClickAction.REAL})
# Clicks after whose answer the bot tells nobody what permissions it lacks: those that
# name them already, and Open the table (whether a launch's token sends follow-ups is
# not documented).
NO_NOTICE = OPENS_LOBBY | {ClickAction.TABLE}


def acknowledge_by(received: float, interaction_id: int, now: datetime) -> float:
    """When a click whose change is held up is acknowledged (on time.monotonic(), as
    `received`): DEFER_AFTER_SECONDS after Discord made it, by its id's time. A click
    replayed after a restart (bot.connection.gateway_resume) arrives having waited part
    of its 3 s already, up to 2.5 s; a click that looks made in the future (this
    machine's clock behind Discord's) counts from its arrival."""
    made = discord.utils.snowflake_time(interaction_id)
    waited = min(DEFER_AFTER_SECONDS, max(0.0, (now - made).total_seconds()))
    return received + DEFER_AFTER_SECONDS - waited


def is_moderator(interaction: Interaction) -> bool:
    """A member who may manage messages here may cancel or end anyone's game."""
    return interaction.permissions.manage_messages


def actor_of(interaction: Interaction, *, moderator: bool = False) -> Actor:
    """The clicker, in their client language (`moderator`: as is_moderator says, where
    the click may close anyone's game)."""
    user = interaction.user
    return Actor(user.id, user.display_name, language_of(interaction), moderator)


def seat_for(interaction: Interaction) -> Seat:
    return actor_of(interaction).seat()


def tap_of(interaction: Interaction, ref: ComponentRef) -> Click:
    message = interaction.message
    return click_of(interaction.user.id, message.id if message is not None else None, ref)


def language_of(interaction: Interaction) -> str:
    """The clicker's Discord client language, as our code (English where we have none)."""
    return supported(interaction.locale.value)


def unkept_live_message(session: Session, message: discord.Message | None) -> int | None:
    """The clicked message's id, if the session has no live message: its start was shown,
    then the process died before it committed the message's id (a SIGKILL 50 ms after a
    lobby was posted, at 1,000 games). Nothing else could edit that lobby again, so the
    table was stuck. The message carries the session's buttons: it is the live one. None
    otherwise; an ephemeral message (the host's level picker) never is."""
    if session.message_id is not None or message is None or message.flags.ephemeral:
        return None
    return message.id


class Clicks:
    """The click handler SessionComponents call (bot.ui.components.ClickHandler)."""

    def __init__(
        self,
        games: Games,
        sessions: SessionService,
        live: LiveMessages,
        reviews: Reviews | None = None,
        table: TableLaunch | None = None,
    ) -> None:
        self.games = games
        self.sessions = sessions
        self.live = live
        self.table = table or TableLaunch()  # Open the table: launched, or "not set up"
        # Finished games' reviews (the end screen's Review); stored in the bot's database.
        self.reviews = reviews or Reviews(games, sessions, ReviewStore(sessions.db))
        # Told each click's game and handling time (the bot's click histogram).
        self.clicks_observed: Callable[[str, float], None] = lambda game, seconds: None
        self.lost_permissions = LostPermissions()  # who was told the bot lost some, where
        self.double_taps = DoubleTaps()  # a second tap refused is acknowledged quietly
        # What is known of a click a process that died left unanswered
        # (bot.connection.inflight): whether its change was committed (then it is not
        # played again) and whether this process acknowledged it already. None for any
        # other click.
        self.replayed: Callable[[int], Replayed | None] = lambda interaction_id: None
        # Clicks that change the live session, answered by editing the clicked message
        # (LIVE_CHANGES), and clicks with an answer of their own.
        self._own_answers: dict[
            ClickAction, Callable[[Interaction, ComponentRef], Awaitable[None]]
        ] = {
            ClickAction.AGAIN: self._play_again,
            ClickAction.REAL: self._real_game,
            ClickAction.CANCEL: self._confirm_cancel,
            ClickAction.END: self._end,
            ClickAction.ADD_BOT: self._offer_levels,
            ClickAction.BOT: self._add_bot,
            ClickAction.HINT: self._hint,
            ClickAction.CONTINUE: self._continue,
            ClickAction.REVIEW: self._review,
            ClickAction.TABLE: self._open_table,
        }

    async def on_click(self, interaction: Interaction, ref: ComponentRef) -> None:
        began = time.perf_counter()
        arrived = self.double_taps.clock()
        try:
            await self._handle(interaction, ref, arrived)
        finally:
            live = self.sessions.in_memory(interaction.channel_id)
            self.clicks_observed(live.kind if live else "unknown", time.perf_counter() - began)
        await self.after_answer(interaction, tell=ref.action not in NO_NOTICE)

    async def after_answer(self, interaction: Interaction, *, tell: bool = True) -> None:
        """After a click or a command in a game's channel was answered: tell the person
        what the bot lacks there (once; `tell` False where the answer already did), and
        resume the channel's token work when its `app_permissions` show it back."""
        if tell:
            await self._tell_lost_permissions(interaction)
        await self._resume_if_granted(interaction)

    async def _resume_if_granted(self, interaction: Interaction) -> None:
        """A click in a channel where a 403 paused the bot's token work, whose
        `app_permissions` shows the permissions back (0 is unknown): resume it."""
        channel_id = interaction.channel_id
        if channel_id is None or channel_id not in self.live.paused:
            return
        if interaction.app_permissions.value and not missing_here(interaction):
            await self.live.resume(self.sessions.in_memory(channel_id), channel_id)

    async def _handle(self, interaction: Interaction, ref: ComponentRef, arrived: float) -> None:
        """Do what the click asks; a refusal is explained, unless the click is the second
        tap of a double tap (bot.ui.double_taps) whose first was accepted."""
        try:
            if interaction.channel_id is None:
                raise app_commands.NoPrivateMessage()
            replayed = self.replayed(interaction.id)
            if replayed is not None:
                if replayed.acknowledged:
                    mark_deferred(interaction)  # its answer is an edit of its message
                if replayed.committed or await self._played_before(interaction, ref):
                    await self._answer_committed(interaction, ref)
                    return
            answer = self._own_answers.get(ref.action)
            if answer is not None:
                await answer(interaction, ref)
            else:
                change_for = LIVE_CHANGES[ref.action]
                await self._change_live(interaction, ref, change_for, arrived)
        except SessionError as error:
            if self.double_taps.is_twin(tap_of(interaction, ref), arrived, interaction.id):
                log.info(
                    "double tap %s by %s refused quietly: %s", ref.text, interaction.user.id, error
                )
                await acknowledge(interaction)
            else:
                if isinstance(error, StaleVersion | StaleButton):
                    await self._show_if_behind(interaction, ref)
                await refuse(interaction, error)
        except Exception as error:
            await answer_error(interaction, error)

    async def _answer_committed(self, interaction: Interaction, ref: ComponentRef) -> None:
        """A click whose change a process that died had committed, but not seen answered:
        acknowledged, then its message shows the game as it is now, its change included
        (as a double tap's twin is answered: never played again). Its first answer may
        have reached Discord just before the kill: then there is nothing left to do."""
        try:
            await acknowledge(interaction)
        except discord.NotFound as error:  # 10062: too late by Discord's clock after all
            log.info("click %s from before the restart could not be answered: %s", ref.text, error)
            return
        except discord.HTTPException as error:
            if error.code != ALREADY_ACKNOWLEDGED:
                raise
            log.info("click %s was answered before the restart after all", ref.text)
            return
        log.info("click %s was committed before a restart: answered with the game", ref.text)
        with contextlib.suppress(SessionError):  # not at the table any more (a Leave)
            await self._bring_up_to_date(interaction, ref, only_behind=False)

    async def _played_before(self, interaction: Interaction, ref: ComponentRef) -> bool:
        """Whether this click's change is in its game already: a process that died
        committed it but had not marked it so in its journal yet."""
        session = await self.sessions.by_id(ref.session_id)
        return session is not None and interaction.id in session.clicks

    async def _tell_lost_permissions(self, interaction: Interaction) -> None:
        """After the click was answered as usual (answers need no channel permission): if
        the bot lacks what its own messages and edits need in this channel, tell the
        clicker once, in a follow-up only they see; the game goes on."""
        if not interaction.response.is_done():
            return  # the click got no answer, so no follow-up can be sent either
        lacking = self.lost_permissions.to_tell(interaction)
        if not lacking:
            return
        try:
            await interaction.followup.send(lost_notice(lacking), ephemeral=True)
        except discord.HTTPException as error:
            self.lost_permissions.forget(interaction, lacking)
            log.info("could not tell %s about lost permissions: %s", interaction.id, error)

    async def on_malformed(self, interaction: Interaction) -> None:
        await tell(interaction, t("error.malformed_id"))

    async def _change_live(
        self,
        interaction: Interaction,
        ref: ComponentRef,
        change_for: Callable[[Interaction, ComponentRef], Mutation],
        arrived: float,
    ) -> None:
        assert interaction.channel_id is not None
        received = time.monotonic()
        tap = tap_of(interaction, ref)
        mutate = actions.remembering_locale(actor_of(interaction), change_for(interaction, ref))

        message = interaction.message

        def accepted(session: Session, tools: ChangeTools) -> list[Any]:
            events = mutate(session, tools)
            self.double_taps.accepted(tap, arrived, interaction.id)  # its twin is answered quietly
            session.played(interaction.id)  # committed with it: known after a kill
            adopted = unkept_live_message(session, message)
            if adopted is not None:
                session.message_id = adopted  # committed with the click
            return events

        expect = Expect(
            session_id=ref.session_id,
            # Moves must be made on the state the player saw; lobby buttons need not.
            version=ref.version if ref.action in MOVES else None,
            message_id=message.id if message is not None else None,
        )

        async def show(change: Change) -> None:
            await self.live.reply_edit(interaction, change.session)
            await self.live.turn_changed(change)

        async def acknowledge_now() -> None:
            # Earlier changes of the channel are still being shown (Discord is slow, or
            # rate-limits them): acknowledge now, with no loading state for the player,
            # and edit through the interaction's webhook when its turn comes.
            await acknowledge(interaction)  # unless acknowledged at a restart already

        by = acknowledge_by(received, interaction.id, datetime.now(UTC))
        defer = Defer(acknowledge_now, by=by)
        await self.sessions.update(
            interaction.channel_id, accepted, expect=expect, publish=show, defer=defer
        )

    async def _on_this_message(self, interaction: Interaction, ref: ComponentRef) -> Session:
        """The channel's session, if the click was on its live message (read-only clicks)."""
        assert interaction.channel_id is not None
        message = interaction.message
        expect = Expect(
            session_id=ref.session_id, message_id=message.id if message is not None else None
        )
        session = expect.check(await self.sessions.live(interaction.channel_id))
        adopted = unkept_live_message(session, message)
        if adopted is None:
            return session

        def adopt(draft: Session, _: ChangeTools) -> list[Any]:
            draft.message_id = adopted
            return []

        same = Expect(session_id=session.id)
        change = await self.sessions.update(interaction.channel_id, adopt, expect=same, bump=False)
        return change.session

    async def _continue(self, interaction: Interaction, ref: ComponentRef) -> None:
        """Continue, on a message whose token ran out: anyone at the table brings it up
        to date (nothing changes; the answer is the game as it is now)."""
        if not await self._bring_up_to_date(interaction, ref, only_behind=False):
            raise StaleButton()

    async def _show_if_behind(self, interaction: Interaction, ref: ComponentRef) -> None:
        """A refused click on a message that fell behind its game (nothing could edit
        it): the answer shows every change since, before it says why nothing was done."""
        try:
            await self._bring_up_to_date(interaction, ref, only_behind=True)
        except Exception as error:  # the refusal still goes out
            log.info("could not bring message up to date for %s: %r", interaction.id, error)

    async def _bring_up_to_date(
        self, interaction: Interaction, ref: ComponentRef, *, only_behind: bool
    ) -> bool:
        """Answer a click on the session's live message by showing the session as it is
        (ended ones too); with `only_behind`, only if the message shows an older version.
        Whether it was shown. Someone not at the table is refused (NotInGame)."""
        message = interaction.message
        session = await self.sessions.by_id(ref.session_id)
        if (
            message is None
            or interaction.channel_id is None
            or session is None
            or session.message_id != message.id
            or (only_behind and not self.sessions.is_behind(session))
        ):
            return False
        if all(seat.user_id != interaction.user.id for seat in session.seats):
            if only_behind:
                return False
            raise NotInGame()
        if session.status is Status.OVER:
            await self.live.reply_edit(interaction, session)
            self.sessions.mark_shown(session)
            return True

        async def show(change: Change) -> None:
            await self.live.reply_edit(interaction, change.session)
            await self.live.turn_changed(change)  # a turn that began meanwhile is pinged

        expect = Expect(session_id=session.id, message_id=message.id)
        await self.sessions.show(interaction.channel_id, show, expect=expect)
        return True

    async def _offer_levels(self, interaction: Interaction, ref: ComponentRef) -> None:
        """Add bot on the lobby: the host alone is shown the levels to pick from."""
        session = await self._on_this_message(interaction, ref)
        adapter = self.sessions.adapter(session.kind)
        lobby.check_add_bot(session, interaction.user.id, adapter.max_players)
        view = view_for(bot_level_layout(session, adapter.bot_levels))
        await tell(interaction, t("lobby.bot.pick"), view=view or discord.utils.MISSING)

    async def _add_bot(self, interaction: Interaction, ref: ComponentRef) -> None:
        """A level picked (on the host's ephemeral message): seat a computer player."""
        assert interaction.channel_id is not None
        add = mutation_for(actor_of(interaction), ClickAction.BOT, ref.arg)

        async def show(change: Change) -> None:
            added = change.session.seats[-1]  # a computer player is seated last
            text = t("lobby.bot.added", name=added.name)
            levels = self.sessions.adapter(change.session.kind).bot_levels
            view = view_for(bot_level_layout(change.session, levels))
            # Both at once: the host's own message and the lobby are two requests, and
            # the lobby (another message, through another click's token) need not wait
            # for the first: one round trip to Discord less before the table shows the
            # new seat.
            answered, shown = await asyncio.gather(
                interaction.response.edit_message(content=text, view=view),
                self.live.edit(change.session),
                return_exceptions=True,
            )
            for failed in (answered, shown):
                if isinstance(failed, BaseException):
                    raise failed

        expect = Expect(session_id=ref.session_id)
        await self.sessions.update(interaction.channel_id, add, expect=expect, publish=show)

    async def _hint(self, interaction: Interaction, ref: ComponentRef) -> None:
        """The player to move asks for a hint: answered to them alone; nothing changes."""
        session = await self._on_this_message(interaction, ref)
        adapter = self.sessions.adapter(session.kind)
        await tell(interaction, await hint_text(session, adapter, interaction.user.id))

    async def _open_table(self, interaction: Interaction, ref: ComponentRef) -> None:
        """Open the table, on the live message of the channel's lobby or game: the
        Activity is launched for the clicker (nothing changes); an old copy or an ended
        game's button is refused as any of its buttons is."""
        assert interaction.channel_id is not None
        message = interaction.message
        expect = Expect(
            session_id=ref.session_id, message_id=message.id if message is not None else None
        )
        expect.check(await self.sessions.live(interaction.channel_id))
        await self.table.launch(interaction)

    async def _review(self, interaction: Interaction, ref: ComponentRef) -> None:
        """Review, on an ended game's message: its review for whoever asks, ephemerally
        (players, computer players' decisions included, and onlookers alike)."""
        session = await self.sessions.by_id(ref.session_id)
        if session is None or session.channel_id != interaction.channel_id:
            raise StaleButton()
        await answer_review(
            interaction, self.reviews, session.kind, session.community_id, ref.session_id
        )

    async def _confirm_cancel(self, interaction: Interaction, ref: ComponentRef) -> None:
        """The lobby's Cancel: the host (or a moderator) is asked first, on an ephemeral
        message whose button closes the lobby."""
        session = await self._on_this_message(interaction, ref)
        lobby.check_cancel(session, interaction.user.id, moderator=is_moderator(interaction))
        text = t("lobby.cancel.confirm", game=self.games.plugin(session.kind).title)
        view = view_for(end_confirm_layout(session))
        await tell(interaction, text, view=view or discord.utils.MISSING)

    async def _end(self, interaction: Interaction, ref: ComponentRef) -> None:
        """The confirm button of /<game> end and of the lobby's Cancel (ephemeral)."""
        assert interaction.channel_id is not None
        actor = actor_of(interaction, moderator=is_moderator(interaction))
        end = mutation_for(actor, ClickAction.END)

        async def show(change: Change) -> None:
            await interaction.response.edit_message(content=t("end.done"), view=None)
            await self.live.edit(change.session)
            await self.live.turn_changed(change)

        expect = Expect(session_id=ref.session_id)
        await self.sessions.update(interaction.channel_id, end, expect=expect, publish=show)

    async def _play_again(self, interaction: Interaction, ref: ComponentRef) -> None:
        """Open a lobby with the players of an ended game; the clicker hosts it."""
        assert interaction.channel_id is not None
        old = await self._ended_here(interaction, ref)
        session = actions.play_again(old, actor_of(interaction), place_of(interaction))
        await self._reopen(interaction, old, session)

    async def _real_game(self, interaction: Interaction, ref: ComponentRef) -> None:
        """Start a real game, after a practice one: the lobby /<game> start opens (the
        game's default options), hosted by the learner, the computer players left out."""
        assert interaction.channel_id is not None
        old = await self._ended_here(interaction, ref, practice=True)
        host = seat_for(interaction)
        session = Session(
            kind=old.kind,
            guild_id=old.guild_id,
            channel_id=interaction.channel_id,
            host_id=host.user_id,
            seats=[host],
            timer_seconds=DEFAULT_TIMER_SECONDS,
            language=old.language,
            place=place_of(interaction),
        )
        await self._reopen(interaction, old, session)

    async def _ended_here(
        self, interaction: Interaction, ref: ComponentRef, *, practice: bool = False
    ) -> Session:
        """The ended game (with `practice`, practice game) a button at its end was clicked
        on, in this channel, by one of its players (else StaleButton, or NotInGame)."""
        assert interaction.channel_id is not None
        old = await self.sessions.by_id(ref.session_id)
        user_id = interaction.user.id
        return actions.ended_game(old, interaction.channel_id, user_id, practice=practice)

    async def _reopen(self, interaction: Interaction, old: Session, session: Session) -> None:
        """Open `session`, the lobby that follows the ended game `old`; take `old`'s
        buttons off once it is open."""
        if await open_lobby(self.live, interaction, session):
            await self.live.strip_buttons(old)


async def open_lobby(live: LiveMessages, interaction: Interaction, session: Session) -> bool:
    """Open `session` as the channel's lobby, shown as the answer (open_here: a link to
    the channel's game instead, or BotLacksPermissions). Whether the lobby was opened."""
    return await open_here(
        live, interaction, session, post=lambda new: live.reply_new(interaction, new)
    )


async def open_here(
    live: LiveMessages,
    interaction: Interaction,
    session: Session,
    post: Post | None = None,
    *,
    begin: Mutation | None = None,
) -> bool:
    """Open `session` in the interaction's channel (`begin` its first change, `post`
    shows it; None: not yet), or answer with a link to the channel's game. Whether it was
    opened. Where the bot lacks a permission a game needs, BotLacksPermissions, and
    nothing is opened."""
    check_can_open(interaction)
    try:
        await live.sessions.open(session, post=post, begin=begin)
    except AlreadyLive as error:
        existing = error.params["session"]
        if existing.message_id is None and post is not None:
            # A lobby or game nobody can see (its start's process died while showing it):
            # this answer shows it, rather than link to a channel with no message of it.
            with contextlib.suppress(AlreadyLive):
                await live.sessions.show_unseen(existing, post)
                return False
        await tell_already_live(live, interaction, existing)
        return False
    return True


async def tell_already_live(
    live: LiveMessages, interaction: Interaction, existing: Session
) -> None:
    """Answer that the channel has a lobby or game already, with a link to it."""
    game = live.games.plugin(existing.kind).title
    link = message_link(existing)
    if existing.status is Status.LOBBY:
        # Say who opened it: after a game, several players click Play again at once.
        host = safe_name(existing.host_name)
        await tell(interaction, t("error.already_live.lobby", host=host, game=game, link=link))
    else:
        await tell(interaction, t("error.already_live", link=link, game=game))


def _live_change(interaction: Interaction, ref: ComponentRef) -> Mutation:
    """What a click on the live message changes (bot.sessions.actions, which the table
    shares): the clicker's action and its argument."""
    return mutation_for(actor_of(interaction), ref.action, ref.arg)


# Clicks that change the live session (LIVE_CHANGE_ACTIONS), answered by editing the
# clicked message (through its webhook if acknowledged before: a click held up, or a
# restart's first answer, bot.app.takeover).
LIVE_CHANGES: dict[ClickAction, Callable[[Interaction, ComponentRef], Mutation]] = dict.fromkeys(
    LIVE_CHANGE_ACTIONS, _live_change
)
