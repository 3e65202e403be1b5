"""The places of a user-installed app besides the bot's guilds: the bot's DM with a
person, group DMs and DMs between people, servers without the bot; who may act in them,
and how Discord describes an interaction there (its context's owners, the app's
permissions, whether its answers are forced ephemeral)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.devserver.standin.gateway import Gateway
from bot.devserver.standin.models import (
    CHANNEL_DM,
    CHANNEL_GROUP_DM,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeUser,
)
from bot.devserver.standin.permissions import (
    BOTLESS_EVERYONE_PERMISSIONS,
    PERM_SEND_MESSAGES,
    PERM_USE_EXTERNAL_APPS,
)

GUILD_INSTALL, USER_INSTALL = 0, 1  # application integration types


class Places(Gateway):
    """Where people use the app: making the places, and Discord's rules in them."""

    async def add_group_dm(self, name: str, members: Sequence[FakeUser | str | int]) -> FakeChannel:
        """A group DM of `members` (the first one made it). The bot is not in it and is
        told nothing: people use the app there through their own install."""
        people = [self.user(member) for member in members]
        if not people:
            raise ValueError("a group DM needs at least one member")
        channel = FakeChannel(
            self._snowflake(),
            name,
            type=CHANNEL_GROUP_DM,
            recipients=[person.id for person in people],
            owner_id=people[0].id,
        )
        self._add_private_channel(channel)
        self._notify()
        return channel

    async def join_group_dm(self, channel_id: int, user: FakeUser | str | int) -> None:
        """Add a person to a group DM, as one of its members can."""
        channel = self.channels[channel_id]
        if channel.type != CHANNEL_GROUP_DM:
            raise ValueError(f"{channel_id} is not a group DM")
        person = self.user(user)
        if person.id not in channel.recipients:
            channel.recipients.append(person.id)
            self._notify()

    async def add_dm(
        self, first: FakeUser | str | int, second: FakeUser | str | int
    ) -> FakeChannel:
        """A DM between two people (context 2, as a group DM for the app): the bot is not
        in it."""
        people = [self.user(first), self.user(second)]
        channel = FakeChannel(
            self._snowflake(), "", type=CHANNEL_DM, recipients=[person.id for person in people]
        )
        self._add_private_channel(channel)
        self._notify()
        return channel

    async def add_guild_without_bot(
        self, name: str, channel_names: Sequence[str] = ("general",)
    ) -> int:
        """A server whose members are the stand-in's people but not the bot: no
        GUILD_CREATE, no events, its bot-token routes refused. Its owner is someone else,
        so every player has the @everyone role's permissions (Use External Apps on, as
        Discord's default). Returns its id; `guild_channels_of(id)` lists its channels."""
        guild = FakeGuild(
            self._snowflake(), name, BOTLESS_EVERYONE_PERMISSIONS, owner_id=self._snowflake()
        )
        self.botless_guilds[guild.id] = guild
        for channel_name in channel_names:
            self._add_botless_channel(guild, channel_name)
        self._notify()
        return guild.id

    async def add_channel_without_bot(self, guild_id: int, name: str) -> FakeChannel:
        """One more text channel in a server without the bot (the bot is told nothing)."""
        channel = self._add_botless_channel(self.botless_guilds[guild_id], name)
        self._notify()
        return channel

    def _add_botless_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        channel = FakeChannel(
            self._snowflake(), name, position=len(guild.channels), guild_id=guild.id
        )
        self.channels[channel.id] = channel
        guild.channels.append(channel)
        return channel

    # ---- who may act where, and what Discord says of it ----------------------------

    def _owners(
        self, channel_id: int, user: FakeUser, integration_types: Sequence[int]
    ) -> dict[str, str]:
        """authorizing_integration_owners (receiving-and-responding.mdx): "0" where the
        app is installed to the server (the guild's id, "0" in the bot's DM), "1" the id
        of the person if they installed it; each only for an integration type allowed."""
        owners: dict[str, str] = {}
        if GUILD_INSTALL in integration_types and self.bot_is_in(channel_id):
            in_dm = self.context_of(channel_id) == 1
            owners[str(GUILD_INSTALL)] = "0" if in_dm else str(self.guild_of(channel_id))
        if USER_INSTALL in integration_types and user.installed_app:
            owners[str(USER_INSTALL)] = str(user.id)
        return owners

    def _component_owners(self, msg: FakeMessage, user: FakeUser) -> dict[str, str]:
        """A click's owners are those of the interaction that made the message; a message
        the bot posted with its token belongs to the guild install."""
        metadata = msg.interaction_metadata or {}
        owners = metadata.get("authorizing_integration_owners")
        if owners:
            return dict(owners)
        return self._owners(msg.channel_id, user, [GUILD_INSTALL])

    def _answers_forced_ephemeral(self, user: FakeUser, channel_id: int) -> bool:
        """In a server without the bot, Discord shows the app's answers only to the person
        who used it if they may not use external apps or send messages there."""
        if self.botless_guild_of(channel_id) is None:
            return False
        have = self.permissions_in(user, channel_id)
        return not have & PERM_USE_EXTERNAL_APPS or not have & PERM_SEND_MESSAGES

    def _check_participant(self, user: FakeUser, channel_id: int) -> None:
        """Only its recipients see a DM or group DM, and act in it."""
        channel = self.channels[channel_id]
        if channel.is_private and user.id not in channel.recipients:
            raise PermissionError(f"{user.username} is not in the private channel {channel.id}")

    def _interaction_app_permissions(self, user: FakeUser, channel_id: int) -> int:
        """app_permissions: the bot's where it is a member (a DM's per Discord's docs);
        in a server without the bot the person's own, as the app must respect them."""
        if self.botless_guild_of(channel_id) is not None:
            return self.permissions_in(user, channel_id)
        return self.app_permissions_in(channel_id)
