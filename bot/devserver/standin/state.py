"""The stand-in's world and records: the guilds with their members, channels and roles,
the places the bot is not (group DMs, DMs between people, servers without the bot) and
its own DMs, the messages, commands, emojis and interactions, what was refused; the lookups and
waits tests use, and the objects as Discord's API shows them (members, roles,
channels, guilds, the application)."""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.devserver.standin.constants import (
    API_PREFIX,
    GATEWAY_PATH,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_PRESENCES,
    INTENT_MESSAGE_CONTENT,
    RESUME_GATEWAY_PATH,
)
from bot.devserver.standin.errors import FakeDiscordTimeout
from bot.devserver.standin.models import (
    CHANNEL_DM,
    CHANNEL_GROUP_DM,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    Rejection,
    RequestRecord,
    Snowflakes,
)
from bot.devserver.standin.permissions import (
    ALL_PERMISSIONS,
    BOT_DM_APP_PERMISSIONS,
    BOT_ROLE_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    PERM_ADMINISTRATOR,
    PRIVATE_CHANNEL_APP_PERMISSIONS,
    PRIVATE_CHANNEL_USER_PERMISSIONS,
    THREAD_TYPES,
    Overwrite,
    channel_permissions,
)
from bot.devserver.standin.ratelimits import INVALID_REQUEST_BAN, InvalidRequest
from bot.devserver.standin.realism import Realism

ALREADY_ACKNOWLEDGED = 40060  # Discord's code for a second first answer to an interaction


class StandinState:
    """The world the stand-in keeps, its records for tests, and how Discord shows them."""

    def __init__(
        self,
        *,
        token: str,
        check_token: bool,
        players: Sequence[str],
        channel_names: Sequence[str],
        bot_name: str,
        interaction_deadline: float,
        token_lifetime: float = 900.0,
        allowed_intents: int,
        guilds: int,
        host: str,
        port: int,
        realism: Realism,
        seed: int | None,
    ) -> None:
        self.token = token
        self.realism = realism
        # The stand-in's own chances (latency's jitter): a seed makes them repeatable.
        self._random = random.Random(seed)
        self.host = host
        # The bot runs on this machine: it connects over loopback even when the server
        # listens on every interface.
        self.local_host = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
        self.check_token = check_token
        self.interaction_deadline = interaction_deadline
        # Seconds an interaction's token works for webhook routes (Discord: 15 minutes).
        self.token_lifetime = token_lifetime
        self.allowed_privileged_intents = allowed_intents
        self._snowflake = Snowflakes()

        self.application_id = self._snowflake()
        self.bot_user = FakeUser(self.application_id, bot_name.lower(), bot_name, bot=True)
        self.guild_id = self._snowflake()
        self.guild_name = "Dice Games Test Server"
        self.everyone_role_id = self.guild_id
        self.bot_role_id = self._snowflake()
        self.everyone_permissions = EVERYONE_PERMISSIONS
        self.bot_role_permissions = BOT_ROLE_PERMISSIONS
        self.bot_user.roles = [self.bot_role_id]
        self.overwrites: dict[int, list[Overwrite]] = {}  # channel id -> its overwrites
        self.users: dict[str, FakeUser] = {}
        for name in players:
            self.add_user(name)
        self.owner_id = next(iter(self.users.values())).id if self.users else self.bot_user.id
        self.category = FakeChannel(self._snowflake(), "Text Channels", type=4)
        self.channels: dict[int, FakeChannel] = {}
        for position, name in enumerate(channel_names):
            channel = FakeChannel(
                self._snowflake(), name, position=position, parent_id=self.category.id
            )
            self.channels[channel.id] = channel
        self.channel = next(iter(self.channels.values()))
        # More guilds: ids one apart in the bits that pick the shard, so guild i of n sits in
        # shard (first + i) % shard_count.
        self.guild_ids = [self.guild_id]
        self.guild_names = {self.guild_id: self.guild_name}
        self.guild_channels: dict[int, list[FakeChannel]] = {
            self.guild_id: list(self.channels.values())
        }
        for index in range(1, guilds):
            guild_id = ((self.guild_id >> 22) + index) << 22 | (self.guild_id & 0x3FFFFF)
            self.guild_ids.append(guild_id)
            self.guild_names[guild_id] = f"Dice Games Test Server {index + 1}"
            self.guild_channels[guild_id] = []
            for position, name in enumerate(channel_names):
                channel = FakeChannel(
                    self._snowflake(),
                    name,
                    position=position,
                    parent_id=self.category.id,
                    guild_id=guild_id,
                )
                self.channels[channel.id] = channel
                self.guild_channels[guild_id].append(channel)

        # Places the bot is not in, and its own DMs.
        self.botless_guilds: dict[int, FakeGuild] = {}
        self.private_channels: dict[int, FakeChannel] = {}  # DMs and group DMs, by id
        self._bot_dms: dict[int, FakeChannel] = {}  # user id -> the bot's DM with them

        # Recorded state, for tests.
        self.commands: dict[int | None, dict[int, dict[str, Any]]] = {None: {}}
        self.app_emojis: dict[str, dict[str, Any]] = {}  # the application's emojis, by name
        self.interactions: list[FakeInteraction] = []
        self.unknown_routes: list[str] = []
        self.internal_errors: list[str] = []
        self.rejections: list[Rejection] = []
        # Set when a test SIGKILLs the bot: a delete the kill cut short between the
        # message going and its record going is repeated after the restart, by design.
        self.bot_was_killed = False
        # Likewise when a test takes the bot's database away: the record could not go.
        self.database_was_down = False
        self.requests: list[RequestRecord] = []
        # Every 401, 403 and 429 the bot drew: Discord bans an address for too many.
        self.invalid_requests: list[InvalidRequest] = []
        self.command_syncs = 0
        self._messages: dict[int, FakeMessage] = {}  # channel messages, in order
        self._ephemeral: dict[int, FakeMessage] = {}  # ephemeral ones, by id
        self._interactions_by_id: dict[int, FakeInteraction] = {}
        self._interactions_by_token: dict[str, FakeInteraction] = {}
        self._forgotten_tokens: set[str] = set()  # issued once, expired for Discord now
        self._waiters: set[asyncio.Future[None]] = set()  # wait_for's, woken by changes
        self.port = port
        # Kept for the page (bot.devserver.page): the pictures the bot uploaded.
        self.emoji_images: dict[str, bytes] = {}  # application emoji name -> PNG
        self.files: dict[int, tuple[str, bytes]] = {}  # attachment id -> (type, bytes)
        self.listeners: list[Callable[[], None]] = []  # told of every change

    # ---- addresses ---------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://{self.local_host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.local_host}:{self.port}{GATEWAY_PATH}"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://{self.local_host}:{self.port}{RESUME_GATEWAY_PATH}"

    def env(self) -> dict[str, str]:
        """Environment variables that point ``python -m bot`` at this stand-in."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }

    # ---- checks and waits for tests ----------------------------------------------

    def check(self) -> None:
        """Raise AssertionError if an unknown route was hit or a request was rejected."""
        problems = [f"unknown route: {r}" for r in self.unknown_routes]
        problems += [
            f"rejected: {r}"
            for r in self.rejections
            if not ((self.bot_was_killed or self.database_was_down) and self._is_repeated_delete(r))
            and not (self.bot_was_killed and self._is_repeated_answer(r))
        ]
        problems += [f"stand-in error: {e}" for e in self.internal_errors]
        if problems:
            raise AssertionError("the fake Discord saw problems:\n" + "\n".join(problems))

    def describe(self) -> str:
        """A dump of the channel, the ephemeral messages and the problems, for debugging."""
        lines = ["channel:"] + [f"  {m.render()}" for m in self.channel_messages()]
        lines += ["ephemeral:"] + [f"  {m.render()}" for m in self.ephemeral_messages()]
        lines += [f"unknown route: {r}" for r in self.unknown_routes]
        lines += [f"rejected: {r}" for r in self.rejections]
        return "\n".join(lines)

    def _is_repeated_delete(self, rejection: Rejection) -> bool:
        """A DELETE answered "Unknown Message" for a message that was deleted before."""
        if rejection.method != "DELETE" or rejection.code != 10008:
            return False
        message = self._messages.get(int(rejection.path.rsplit("/", 1)[-1]))
        return message is not None and message.deleted

    @staticmethod
    def _is_repeated_answer(rejection: Rejection) -> bool:
        """An interaction answered a second time (40060): after a kill, the next process
        acknowledges the clicks the killed one held (bot.connection.inflight), and one
        whose answer reached Discord just before the kill is refused so, as Discord
        does."""
        return rejection.code == ALREADY_ACKNOWLEDGED and rejection.path.endswith("/callback")

    def take_rejections(self, code: int | None = None) -> list[Rejection]:
        """Remove and return the rejections (with Discord error ``code``), once asserted on."""
        taken = [r for r in self.rejections if code is None or r.code == code]
        self.rejections = [r for r in self.rejections if r not in taken]
        return taken

    async def wait_for_rejection(self, code: int, timeout: float = 10.0) -> Rejection:
        found = await self.wait_for(
            lambda: next((r for r in self.rejections if r.code == code), None),
            timeout=timeout,
            what=f"a rejection with code {code}",
        )
        self.rejections.remove(found)
        return found

    def _notify(self) -> None:
        waiters, self._waiters = self._waiters, set()
        for waiter in waiters:
            _wake(waiter)
        for listener in self.listeners:
            listener()

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        *,
        timeout: float = 10.0,
        what: str = "a condition",
        details: Callable[[], str] | None = None,
    ) -> Any:
        """Until ``predicate()`` is truthy (re-checked on every change); returns its value."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = end - loop.time()
            if remaining <= 0:
                text = f"timed out after {timeout:.1f}s waiting for {what}"
                if details is not None:
                    text += "\n" + details()
                problems = [f"rejected: {r}" for r in self.rejections]
                problems += [f"unknown route: {r}" for r in self.unknown_routes]
                if problems:
                    text += "\n" + "\n".join(problems)
                raise FakeDiscordTimeout(text)
            # Woken by every change here; also re-checked every 20 ms, for predicates on
            # state outside the stand-in (the bot's own objects). A bare future and a
            # timer, not asyncio.wait_for's task per wait: a soak has hundreds waiting.
            waiter = loop.create_future()
            self._waiters.add(waiter)
            timer = loop.call_later(min(remaining, 0.02), _wake, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
                self._waiters.discard(waiter)

    def guild_of(self, channel_id: int) -> int:
        """The guild a channel belongs to; 0 for a DM or group DM (Discord sends their
        events on shard 0)."""
        channel = self.channels.get(channel_id)
        if channel is not None and channel.is_private:
            return 0
        return channel.guild_id if channel is not None and channel.guild_id else self.guild_id

    # ---- places: the bot's DMs, group DMs, servers without the bot ----------------

    def bot_dm(self, user: FakeUser | str | int) -> FakeChannel:
        """The DM between `user` and the bot (made on first use, as Discord makes a DM
        channel when it is first opened; the bot is told of it by its first message)."""
        person = self.user(user)
        channel = self._bot_dms.get(person.id)
        if channel is None:
            channel = FakeChannel(self._snowflake(), "", type=CHANNEL_DM, recipients=[person.id])
            self._bot_dms[person.id] = channel
            self._add_private_channel(channel)
        return channel

    def _add_private_channel(self, channel: FakeChannel) -> None:
        self.channels[channel.id] = channel
        self.private_channels[channel.id] = channel

    def is_bot_dm(self, channel_id: int) -> bool:
        return any(channel.id == channel_id for channel in self._bot_dms.values())

    def botless_guild_of(self, channel_id: int) -> FakeGuild | None:
        """The server without the bot a channel is in, if it is in one."""
        channel = self.channels.get(channel_id)
        if channel is None or channel.is_private:
            return None
        return self.botless_guilds.get(channel.guild_id)

    def bot_is_in(self, channel_id: int) -> bool:
        """Whether the bot is a member where this channel is: a guild of the bot's, or its
        own DM; not a group DM, a DM between people, or a server without the bot."""
        channel = self.channels.get(channel_id)
        if channel is None:
            return True  # an unknown channel is refused as unknown, not as out of reach
        if channel.is_private:
            return self.is_bot_dm(channel_id)
        return self.botless_guild_of(channel_id) is None

    def context_of(self, channel_id: int) -> int:
        """An interaction's context there: 0 a server, 1 the bot's DM, 2 a private channel
        (a group DM, or a DM between people)."""
        channel = self.channels[channel_id]
        if not channel.is_private:
            return 0
        return 1 if self.is_bot_dm(channel_id) else 2

    def guild_channels_of(self, guild_id: int) -> list[FakeChannel]:
        """The text channels of any guild, the bot's or one without it."""
        if guild_id in self.botless_guilds:
            return list(self.botless_guilds[guild_id].channels)
        return list(self.guild_channels[guild_id])

    async def wait_for_commands(self, *names: str, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Until commands with these names are registered (globally or in the guild)."""

        def registered() -> list[dict[str, Any]] | None:
            found = [self.find_command(name) for name in names]
            if all(found) and (names or self.command_syncs):
                return [c for c in found if c]
            return None

        return await self.wait_for(registered, timeout=timeout, what=f"commands {names}")

    # ---- users, commands, messages -----------------------------------------------

    def add_user(self, username: str, *, locale: str = "en-US") -> FakeUser:
        user = FakeUser(self._snowflake(), username, username.capitalize(), locale=locale)
        self.users[username] = user
        return user

    def delete_app_emoji(self, name: str) -> dict[str, Any]:
        """Delete one of the application's emojis, as its owner can in the developer
        portal: the bot is not told (Discord sends no event for application emojis)."""
        emoji = self.app_emojis.pop(name)
        self.emoji_images.pop(name, None)
        self._notify()
        return emoji

    def user(self, who: FakeUser | str | int) -> FakeUser:
        if isinstance(who, FakeUser):
            return who
        if isinstance(who, str) and who in self.users:
            return self.users[who]
        for user in [*self.users.values(), self.bot_user]:
            if user.id == who or user.username == who:
                return user
        raise LookupError(f"no user {who!r}; users: {list(self.users)}")

    def _all_members(self) -> list[FakeUser]:
        return [self.bot_user, *self.users.values()]

    def member_permissions(self, user: FakeUser, guild_id: int | None = None) -> int:
        """A member's permissions from their roles in a guild (the first by default)."""
        botless = self.botless_guilds.get(guild_id or 0)
        if botless is not None:
            if user.id == botless.owner_id:
                return ALL_PERMISSIONS
            perms = botless.everyone_permissions
            return ALL_PERMISSIONS if perms & PERM_ADMINISTRATOR else perms
        if user.id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.everyone_permissions
        if self.bot_role_id in user.roles:
            perms |= self.bot_role_permissions
        return ALL_PERMISSIONS if perms & PERM_ADMINISTRATOR else perms

    @property
    def app_permissions(self) -> int:
        return self.member_permissions(self.bot_user)

    def permissions_in(self, user: FakeUser, channel_id: int) -> int:
        """A member's permissions in a channel: their roles', with the channel's overwrites
        (a thread's are its parent's) applied as Discord applies them."""
        channel = self.channels.get(channel_id)
        if channel is not None and channel.is_private:
            return PRIVATE_CHANNEL_USER_PERMISSIONS
        base = self.member_permissions(user, self.guild_of(channel_id))
        if channel is None:
            return base
        thread = channel.type in THREAD_TYPES
        source = channel.parent_id if thread and channel.parent_id else channel.id
        return channel_permissions(
            base,
            member_id=user.id,
            roles=user.roles,
            everyone_id=self.guild_of(channel_id),
            overwrites=self.overwrites.get(source, []),
            thread=thread,
        )

    def app_permissions_in(self, channel_id: int) -> int:
        """The bot's permissions in a channel of its own: a guild's (its roles', with the
        channel's overwrites) or its DM's."""
        if self.is_bot_dm(channel_id):
            return BOT_DM_APP_PERMISSIONS
        channel = self.channels.get(channel_id)
        if channel is not None and channel.is_private:
            return PRIVATE_CHANNEL_APP_PERMISSIONS
        return self.permissions_in(self.bot_user, channel_id)

    def invalid_requests_within(
        self, seconds: float = INVALID_REQUEST_BAN[1]
    ) -> list[InvalidRequest]:
        """The 401, 403 and 429 answers of the last `seconds` (Discord bans an address at
        10,000 in 10 minutes)."""
        since = time.monotonic() - seconds
        return [r for r in self.invalid_requests if r.at >= since]

    def longest_round_trip(self) -> float:
        """The most a request and its answer spend on the network (0 without latency)."""
        latency = self.realism.latency
        return latency.round_trip + latency.jitter if latency is not None else 0.0

    def _one_way(self) -> float:
        """The network's delay, one way, for this frame or answer."""
        latency = self.realism.latency
        return latency.one_way(self._random) if latency is not None else 0.0

    def _token_ok(self, token: Any) -> bool:
        return not self.check_token or token == self.token

    def find_command(self, name: str, *, type: int = 1) -> dict[str, Any] | None:
        """A registered command (guild commands of our guild first, then global ones)."""
        for scope in (self.guild_id, None):
            for cmd in self.commands.get(scope, {}).values():
                if cmd["name"] == name and cmd.get("type", 1) == type:
                    return cmd
        return None

    def all_commands(self) -> list[dict[str, Any]]:
        return [cmd for scope in self.commands.values() for cmd in scope.values()]

    def forget_interactions(self, *, keep: int) -> None:
        """Forget all but the newest `keep` interactions (answers to older ones are unknown)."""
        old = self.interactions[:-keep]
        del self.interactions[:-keep]
        for interaction in old:
            self._interactions_by_id.pop(interaction.id, None)
            self._interactions_by_token.pop(interaction.token, None)
            self._forgotten_tokens.add(interaction.token)

    def bot_token_requests(self, channel_id: int | None = None) -> list[RequestRecord]:
        """The requests made with the bot token (not an interaction's), in `channel_id`
        if given: where the bot is not, Discord refuses every one of them."""
        return [
            r
            for r in self.requests
            if r.bot_token and (channel_id is None or r.channel_id == channel_id)
        ]

    def get_message(self, message_id: int) -> FakeMessage | None:
        return self._messages.get(message_id) or self._ephemeral.get(message_id)

    def channel_messages(
        self, channel_id: int | None = None, *, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """Messages everyone sees in the channel (not ephemeral ones), oldest first."""
        channel_id = channel_id or self.channel.id
        return [
            m
            for m in self._messages.values()
            if m.channel_id == channel_id and (include_deleted or not m.deleted)
        ]

    def ephemeral_messages(self, user: FakeUser | str | int | None = None) -> list[FakeMessage]:
        """Ephemeral messages (to ``user`` only, if given), oldest first."""
        recipient = self.user(user).id if user is not None else None
        return [
            m
            for m in self._ephemeral.values()
            if not m.deleted and (recipient is None or m.recipient_id == recipient)
        ]

    def last_message(self, channel_id: int | None = None) -> FakeMessage:
        messages = self.channel_messages(channel_id)
        if not messages:
            raise LookupError("the channel has no messages")
        return messages[-1]

    def live_message(
        self,
        channel_id: int | None = None,
        *,
        predicate: Callable[[FakeMessage], bool] | None = None,
    ) -> FakeMessage:
        """The newest message by the bot that still has components (the game's board)."""
        for message in reversed(self.channel_messages(channel_id)):
            if message.author.get("id") != str(self.bot_user.id) or not message.components:
                continue
            if predicate is None or predicate(message):
                return message
        dump = "\n".join(m.render() for m in self.channel_messages(channel_id)[-5:])
        raise LookupError(f"no live bot message with components; last messages:\n{dump}")

    async def wait_for_message(
        self, predicate: Callable[[FakeMessage], bool], *, timeout: float = 10.0
    ) -> FakeMessage:
        """Until a channel or ephemeral message satisfies ``predicate``; the newest such."""

        def find() -> FakeMessage | None:
            candidates = [*self._messages.values(), *self._ephemeral.values()]
            matches = [m for m in candidates if not m.deleted and predicate(m)]
            return max(matches, key=lambda m: m.id) if matches else None

        return await self.wait_for(find, timeout=timeout, what="a matching message")

    # ---- payload builders --------------------------------------------------------

    def _member_payload(self, user: FakeUser, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "avatar": None,
            "banner": None,
            "collectibles": None,
            "communication_disabled_until": None,
            "deaf": False,
            "flags": 0,
            "joined_at": user.joined_at,
            "mute": False,
            "nick": user.nick,
            "pending": False,
            "premium_since": None,
            "roles": [str(r) for r in user.roles],
            "unusual_dm_activity_until": None,
        }
        if with_user:
            data["user"] = user.payload()
        return data

    def _roles_payload(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        def role(role_id: int, name: str, perms: int, position: int, **extra: Any) -> dict:
            return {
                "id": str(role_id),
                "name": name,
                "description": None,
                "permissions": str(perms),
                "position": position,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "icon": None,
                "unicode_emoji": None,
                "managed": False,
                "mentionable": False,
                "flags": 0,
                **extra,
            }

        return [
            # @everyone has its guild's id.
            role(guild_id or self.everyone_role_id, "@everyone", self.everyone_permissions, 0),
            role(
                self.bot_role_id,
                self.bot_user.global_name or self.bot_user.username,
                self.bot_role_permissions,
                1,
                managed=True,
                tags={"bot_id": str(self.bot_user.id)},
            ),
        ]

    def _channel_payload(self, channel: FakeChannel, *, with_guild: bool) -> dict[str, Any]:
        if channel.is_private:
            return self._private_channel_payload(channel)
        data: dict[str, Any] = {
            "id": str(channel.id),
            "type": channel.type,
            "name": channel.name,
            "position": channel.position,
            "flags": 0,
            "parent_id": str(channel.parent_id) if channel.parent_id else None,
            "permission_overwrites": [o.payload() for o in self.overwrites.get(channel.id, [])],
        }
        if channel.type == 0:
            last = channel.last_message_id
            data |= {
                "topic": channel.topic,
                "nsfw": False,
                "rate_limit_per_user": 0,
                "last_message_id": str(last) if last else None,
            }
        if with_guild:
            data["guild_id"] = str(self.guild_of(channel.id))
        return data

    def _private_channel_payload(self, channel: FakeChannel) -> dict[str, Any]:
        """A DM (type 1) or group DM (type 3) as Discord's API shows it (the OpenAPI
        spec's PrivateChannelResponse and PrivateGroupChannelResponse)."""
        last = channel.last_message_id
        data: dict[str, Any] = {
            "id": str(channel.id),
            "type": channel.type,
            "last_message_id": str(last) if last else None,
            "flags": 0,
            "recipients": [self.user(user_id).payload() for user_id in channel.recipients],
        }
        if channel.type == CHANNEL_GROUP_DM:
            data |= {"name": channel.name, "icon": None, "owner_id": str(channel.owner_id)}
        return data

    def _guild_payload(self, intents: int, guild_id: int | None = None) -> dict[str, Any]:
        guild_id = guild_id or self.guild_id
        members = self._all_members()
        shown = members if intents & INTENT_GUILD_PRESENCES else [self.bot_user]
        channels = [self.category, *self.guild_channels[guild_id]]
        return {
            "id": str(guild_id),
            "name": self.guild_names[guild_id],
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "widget_enabled": False,
            "verification_level": 1,
            "default_message_notifications": 1,
            "explicit_content_filter": 2,
            "roles": self._roles_payload(guild_id),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": str(self.guild_channels[guild_id][0].id),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_presences": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "nsfw": False,
            "nsfw_level": 0,
            "incidents_data": None,
            "hub_type": None,
            "latest_onboarding_question_id": None,
            "home_header": None,
            "inventory_settings": None,
            "lazy": True,
            "joined_at": self.bot_user.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "members": [self._member_payload(m) for m in shown],
            "channels": [self._channel_payload(c, with_guild=False) for c in channels],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "embedded_activities": [],
            "activity_instances": [],
            "version": int(time.time() * 1000),
        }

    def _bot_user_me(self) -> dict[str, Any]:
        return self.bot_user.payload() | {
            "verified": True,
            "mfa_enabled": False,
            "email": None,
            "locale": "en-US",
            "flags": 0,
            "premium_type": 0,
            "bio": "",
        }

    def _application_flags(self) -> int:
        """Flags the application's settings add (Activities: EMBEDDED)."""
        return 0

    def _application_payload(self) -> dict[str, Any]:
        owner = self.user(self.owner_id) if self.users else self.bot_user
        flags = 0
        if self.allowed_privileged_intents & INTENT_GUILD_PRESENCES:
            flags |= 1 << 13
        if self.allowed_privileged_intents & INTENT_GUILD_MEMBERS:
            flags |= 1 << 15
        if self.allowed_privileged_intents & INTENT_MESSAGE_CONTENT:
            flags |= 1 << 19
        flags |= self._application_flags()
        return {
            "id": str(self.application_id),
            "name": self.bot_user.global_name,
            "icon": None,
            "description": "Dice games in Discord (local stand-in)",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": secrets.token_hex(32),
            "flags": flags,
            "owner": owner.payload(),
            "team": None,
            "bot": self.bot_user.payload(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "event_webhooks_url": None,
            "event_webhooks_status": 1,
            "tags": [],
            # Both installation contexts: to a server (0) and to a person's account (1).
            "integration_types_config": {"0": {}, "1": {}},
            "approximate_guild_count": len(self.guild_ids),
            "approximate_user_install_count": sum(
                user.installed_app for user in self.users.values()
            ),
        }


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)
