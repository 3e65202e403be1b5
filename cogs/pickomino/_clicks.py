"""What each button does: lobby buttons, computer players, turn moves (and the claim
menu), Hint, the end confirmation, Play again.

A click becomes one change to the channel's session (bot.sessions); a refused change
becomes an ephemeral answer, and an accepted one is shown by editing the clicked message.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.games.pickomino.ai import Level
from bot.games.pickomino.render import bot_level_layout
from bot.i18n import t
from bot.render.custom_ids import Action, ButtonRef
from bot.sessions import lobby, play
from bot.sessions.errors import (
    AlreadyLive,
    MoveRefused,
    NotInGame,
    SessionError,
    StaleButton,
)
from bot.sessions.model import Seat, Session, Status
from bot.sessions.service import Change, Expect, Mutation, SessionService
from bot.sessions.tools import ChangeTools
from cogs.pickomino._ai import bot_seat, hint_text
from cogs.pickomino._buttons import view_for
from cogs.pickomino._live import LiveMessages, jump_url, reply_edit, reply_new
from cogs.pickomino._replies import fail, refuse, tell

log = logging.getLogger(__name__)

MOVES = frozenset({Action.MOVE, Action.CLAIMS})  # made on the version the player saw
MENU_MOVE_PREFIX = "claim:"  # the claim menu offers claims only


def is_moderator(interaction: discord.Interaction[Any]) -> bool:
    """A member who may manage messages here may cancel or end anyone's game."""
    return interaction.permissions.manage_messages


def seat_for(interaction: discord.Interaction[Any]) -> Seat:
    user = interaction.user
    return Seat(user.id, user.display_name, is_bot=False)


class Clicks:
    """The ClickHandler the SessionButtons call, for buttons and the claim menu (see
    _buttons.CLICK_HANDLER)."""

    def __init__(self, sessions: SessionService, live: LiveMessages) -> None:
        self.sessions = sessions
        self.live = live

    async def on_click(self, interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
        try:
            if ref.action is Action.AGAIN:
                await self._play_again(interaction, ref)
            elif ref.action is Action.END:
                await self._end(interaction, ref)
            elif ref.action is Action.ADD_BOT:
                await self._offer_levels(interaction, ref)
            elif ref.action is Action.BOT:
                await self._add_bot(interaction, ref)
            elif ref.action is Action.HINT:
                await self._hint(interaction, ref)
            else:
                await self._on_live_message(interaction, ref)
        except SessionError as error:
            await refuse(interaction, error)
        except Exception as error:
            await fail(interaction, error)

    async def _on_live_message(self, interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
        assert interaction.channel_id is not None
        mutate = self._mutation(interaction, ref)
        message = interaction.message
        expect = Expect(
            session_id=ref.session_id,
            # Moves must be made on the state the player saw; lobby buttons need not.
            version=ref.version if ref.action in MOVES else None,
            message_id=message.id if message is not None else None,
        )

        async def show(change: Change) -> None:
            await reply_edit(interaction, change.session)

        await self.sessions.update(interaction.channel_id, mutate, expect=expect, publish=show)

    def _mutation(self, interaction: discord.Interaction[Any], ref: ButtonRef) -> Mutation:
        user_id = interaction.user.id
        action = ref.action
        if action is Action.JOIN:
            seat = seat_for(interaction)
            return lambda session, tools: lobby.join(session, tools, seat)
        if action is Action.LEAVE:
            return lambda session, tools: lobby.leave(session, tools, user_id)
        if action is Action.START:
            return lambda session, tools: lobby.start(session, tools, user_id)
        if action is Action.CANCEL:
            moderator = is_moderator(interaction)
            return lambda session, tools: lobby.cancel(session, tools, user_id, moderator=moderator)
        if action is Action.DROP_BOT:
            return lambda session, tools: lobby.remove_bot(session, tools, user_id)
        if action is Action.MOVE:
            return lambda session, tools: play.make_move(session, tools, user_id, ref.arg)
        if action is Action.CLAIMS:
            if not ref.arg.startswith(MENU_MOVE_PREFIX):
                raise MoveRefused()
            return lambda session, tools: play.make_move(session, tools, user_id, ref.arg)
        raise StaleButton()

    async def _on_this_message(
        self, interaction: discord.Interaction[Any], ref: ButtonRef
    ) -> Session:
        """The channel's session, if the click was on its live message (read-only clicks)."""
        assert interaction.channel_id is not None
        message = interaction.message
        expect = Expect(
            session_id=ref.session_id, message_id=message.id if message is not None else None
        )
        return expect.check(await self.sessions.live(interaction.channel_id))

    async def _offer_levels(self, interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
        """Add bot on the lobby: the host alone is shown the levels to pick from."""
        session = await self._on_this_message(interaction, ref)
        max_players = self.sessions.adapter(session.kind).max_players
        lobby.check_add_bot(session, interaction.user.id, max_players)
        view = view_for(bot_level_layout(session))
        await tell(interaction, t("lobby.bot.pick"), view=view or discord.utils.MISSING)

    async def _add_bot(self, interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
        """A level picked (on the host's ephemeral message): seat a computer player."""
        assert interaction.channel_id is not None
        try:
            level = Level(ref.arg)
        except ValueError:
            raise StaleButton() from None
        user_id = interaction.user.id
        added: list[Seat] = []

        def add(session: Session, tools: ChangeTools) -> list[Any]:
            seat = bot_seat(session, level)
            added.append(seat)
            return lobby.add_bot(session, tools, user_id, seat)

        async def show(change: Change) -> None:
            text = t("lobby.bot.added", name=added[-1].name)
            view = view_for(bot_level_layout(change.session))
            await interaction.response.edit_message(content=text, view=view)
            await self.live.edit(change.session)

        expect = Expect(session_id=ref.session_id)
        await self.sessions.update(interaction.channel_id, add, expect=expect, publish=show)

    async def _hint(self, interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
        """The player to move asks for a hint: answered to them alone; nothing changes."""
        session = await self._on_this_message(interaction, ref)
        adapter = self.sessions.adapter(session.kind)
        await tell(interaction, await hint_text(session, adapter, interaction.user.id))

    async def _end(self, interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
        """The confirm button of /pickomino end (on an ephemeral message)."""
        assert interaction.channel_id is not None
        user_id = interaction.user.id
        moderator = is_moderator(interaction)

        def end(session: Session, tools: ChangeTools) -> list[Any]:
            if session.status is Status.LOBBY:
                return lobby.cancel(session, tools, user_id, moderator=moderator)
            return play.end(session, tools, user_id, moderator=moderator)

        async def show(change: Change) -> None:
            await interaction.response.edit_message(content=t("end.done"), view=None)
            await self.live.edit(change.session)

        expect = Expect(session_id=ref.session_id)
        await self.sessions.update(interaction.channel_id, end, expect=expect, publish=show)

    async def _play_again(self, interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
        """Open a lobby with the players of an ended game; the clicker hosts it."""
        assert interaction.channel_id is not None and interaction.guild_id is not None
        old = await self.sessions.by_id(ref.session_id)
        if old is None or old.status is not Status.OVER or old.channel_id != interaction.channel_id:
            raise StaleButton()
        if old.seat(interaction.user.id) is None:
            raise NotInGame()
        host = seat_for(interaction)
        others = [
            Seat(seat.user_id, seat.name, seat.is_bot, seat.bot_level)
            for seat in old.active_seats
            if seat.user_id != host.user_id
        ]
        session = Session(
            kind=old.kind,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=host.user_id,
            seats=[host, *others],
            options=dict(old.options),
            timer_seconds=old.timer_seconds,
            hints=old.hints,
        )
        try:
            await self.sessions.open(session, post=lambda new: reply_new(interaction, new))
        except AlreadyLive as error:
            existing: Session = error.params["session"]
            await tell(interaction, t("error.already_live", link=jump_url(existing)))
            return
        await self.live.strip_buttons(old.channel_id, old.message_id)
