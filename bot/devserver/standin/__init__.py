"""A local stand-in for Discord, for end-to-end tests of the bot and `make play`.

``FakeDiscord`` is an aiohttp server on 127.0.0.1 (a free port) that speaks enough of
Discord's REST API v10 and gateway for discord.py 2.7: login, READY and GUILD_CREATE,
command sync, interactions with their callbacks and webhook follow-ups, and channel
messages. It keeps a model of every message, enforces the limits Discord enforces (answering
with Discord's own error bodies) and records every unknown route and every rejected request,
so that a test can fail on them (``fake.check()``, done by the ``fake_discord`` fixture).
By default it is an ideal Discord; ``FakeDiscord(realism=Realism.discord())`` adds what
the real one does besides: latency, rate limits, permissions, the application's own
emojis, bodies checked against its OpenAPI spec (``Realism`` switches each on).

Typical use::

    async with FakeDiscord() as fake:
        apply_endpoint_overrides(fake.api_base, fake.gateway_url)   # or env=fake.env()
        ... start the bot with fake.token, then await fake.wait_until_ready() ...
        reply = await fake.send_command("alice", "pickomino new", {"players": 2})
        board = fake.live_message()
        click = await fake.click("bob", board, label="Roll")
        assert "Bob" in board.embed_text and click.latency < 1

Everything that waits takes a timeout and raises an ``AssertionError`` subclass
(``FakeDiscordTimeout``) with what was seen, rather than hanging a test.
"""

from __future__ import annotations

from bot.devserver.standin.client import (
    running_client,
)
from bot.devserver.standin.constants import (
    ALLOWED_CALLBACKS,
    API_PREFIX,
    API_VERSION,
    ATTACHMENT_SIZE_LIMIT,
    CB_AUTOCOMPLETE,
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    CB_MODAL,
    CB_PONG,
    CB_UPDATE,
    CHANNEL_MESSAGE_FLAGS,
    CT_ACTION_ROW,
    CT_BUTTON,
    CT_CONTAINER,
    CT_LABEL,
    CT_SECTION,
    CT_STRING_SELECT,
    CT_TEXT_DISPLAY,
    CT_TEXT_INPUT,
    CT_THUMBNAIL,
    DEFAULT_TOKEN,
    DISCORD_EPOCH_MS,
    FLAG_EPHEMERAL,
    FLAG_IS_COMPONENTS_V2,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    GATEWAY_PATH,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILD_PRESENCES,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
    INTERACTION_MESSAGE_FLAGS,
    IT_AUTOCOMPLETE,
    IT_COMMAND,
    IT_COMPONENT,
    IT_MODAL_SUBMIT,
    IT_PING,
    OP_DISPATCH,
    OP_HEARTBEAT,
    OP_HEARTBEAT_ACK,
    OP_HELLO,
    OP_IDENTIFY,
    OP_INVALID_SESSION,
    OP_PRESENCE,
    OP_RECONNECT,
    OP_REQUEST_MEMBERS,
    OP_RESUME,
    OP_VOICE_STATE,
    OPT_ATTACHMENT,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_GROUP,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_SUB_COMMAND,
    OPT_USER,
    PRIVILEGED_INTENTS,
    RESUME_GATEWAY_PATH,
    SELECT_TYPES,
    V2_TOP_LEVEL,
)
from bot.devserver.standin.errors import (
    DiscordHTTPError,
    FakeDiscordTimeout,
)

# Names tests imported from the single module this package was; kept for them.
from bot.devserver.standin.errors import FormErrors as _FormErrors
from bot.devserver.standin.models import (
    FakeButton,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    Rejection,
    RequestRecord,
)
from bot.devserver.standin.models import walk as _walk
from bot.devserver.standin.openapi import (
    SpecValidator,
)
from bot.devserver.standin.permissions import (
    ALL_PERMISSIONS,
    BOT_ROLE_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    OVERWRITE_MEMBER,
    OVERWRITE_ROLE,
    PERM_ADD_REACTIONS,
    PERM_ADMINISTRATOR,
    PERM_ATTACH_FILES,
    PERM_CHANGE_NICKNAME,
    PERM_CONNECT,
    PERM_CREATE_INSTANT_INVITE,
    PERM_EMBED_LINKS,
    PERM_MANAGE_MESSAGES,
    PERM_MENTION_EVERYONE,
    PERM_READ_MESSAGE_HISTORY,
    PERM_SEND_MESSAGES,
    PERM_SEND_MESSAGES_IN_THREADS,
    PERM_SEND_TTS_MESSAGES,
    PERM_SPEAK,
    PERM_USE_APPLICATION_COMMANDS,
    PERM_USE_EXTERNAL_EMOJIS,
    PERM_VIEW_CHANNEL,
    Overwrite,
)
from bot.devserver.standin.ratelimits import (
    InvalidRequest,
    Limit,
    RateLimited,
    RateLimits,
)
from bot.devserver.standin.realism import (
    DISCORD_LATENCY,
    IDEAL,
    Latency,
    Realism,
)
from bot.devserver.standin.rest import (
    Hold,
)
from bot.devserver.standin.server import (
    FakeDiscord,
)
from bot.devserver.standin.validation import (
    Path,
)
from bot.devserver.standin.validation import validate_components as _validate_components
from bot.devserver.standin.validation import (
    validate_message_fields as _validate_message_fields,
)

__all__ = [
    "ALLOWED_CALLBACKS",
    "ALL_PERMISSIONS",
    "API_PREFIX",
    "API_VERSION",
    "ATTACHMENT_SIZE_LIMIT",
    "BOT_ROLE_PERMISSIONS",
    "CB_AUTOCOMPLETE",
    "CB_DEFERRED_MESSAGE",
    "CB_DEFERRED_UPDATE",
    "CB_MESSAGE",
    "CB_MODAL",
    "CB_PONG",
    "CB_UPDATE",
    "CHANNEL_MESSAGE_FLAGS",
    "CT_ACTION_ROW",
    "CT_BUTTON",
    "CT_CONTAINER",
    "CT_LABEL",
    "CT_SECTION",
    "CT_STRING_SELECT",
    "CT_TEXT_DISPLAY",
    "CT_TEXT_INPUT",
    "CT_THUMBNAIL",
    "DEFAULT_TOKEN",
    "DISCORD_EPOCH_MS",
    "DISCORD_LATENCY",
    "EVERYONE_PERMISSIONS",
    "FLAG_EPHEMERAL",
    "FLAG_IS_COMPONENTS_V2",
    "FLAG_LOADING",
    "FLAG_SUPPRESS_EMBEDS",
    "FLAG_SUPPRESS_NOTIFICATIONS",
    "GATEWAY_PATH",
    "IDEAL",
    "INTENT_GUILDS",
    "INTENT_GUILD_MEMBERS",
    "INTENT_GUILD_MESSAGES",
    "INTENT_GUILD_PRESENCES",
    "INTENT_MESSAGE_CONTENT",
    "INTERACTION_MESSAGE_FLAGS",
    "IT_AUTOCOMPLETE",
    "IT_COMMAND",
    "IT_COMPONENT",
    "IT_MODAL_SUBMIT",
    "IT_PING",
    "OPT_ATTACHMENT",
    "OPT_BOOLEAN",
    "OPT_CHANNEL",
    "OPT_GROUP",
    "OPT_INTEGER",
    "OPT_MENTIONABLE",
    "OPT_NUMBER",
    "OPT_ROLE",
    "OPT_STRING",
    "OPT_SUB_COMMAND",
    "OPT_USER",
    "OP_DISPATCH",
    "OP_HEARTBEAT",
    "OP_HEARTBEAT_ACK",
    "OP_HELLO",
    "OP_IDENTIFY",
    "OP_INVALID_SESSION",
    "OP_PRESENCE",
    "OP_RECONNECT",
    "OP_REQUEST_MEMBERS",
    "OP_RESUME",
    "OP_VOICE_STATE",
    "OVERWRITE_MEMBER",
    "OVERWRITE_ROLE",
    "PERM_ADD_REACTIONS",
    "PERM_ADMINISTRATOR",
    "PERM_ATTACH_FILES",
    "PERM_CHANGE_NICKNAME",
    "PERM_CONNECT",
    "PERM_CREATE_INSTANT_INVITE",
    "PERM_EMBED_LINKS",
    "PERM_MANAGE_MESSAGES",
    "PERM_MENTION_EVERYONE",
    "PERM_READ_MESSAGE_HISTORY",
    "PERM_SEND_MESSAGES",
    "PERM_SEND_MESSAGES_IN_THREADS",
    "PERM_SEND_TTS_MESSAGES",
    "PERM_SPEAK",
    "PERM_USE_APPLICATION_COMMANDS",
    "PERM_USE_EXTERNAL_EMOJIS",
    "PERM_VIEW_CHANNEL",
    "PRIVILEGED_INTENTS",
    "RESUME_GATEWAY_PATH",
    "SELECT_TYPES",
    "V2_TOP_LEVEL",
    "DiscordHTTPError",
    "FakeButton",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordTimeout",
    "FakeInteraction",
    "FakeMessage",
    "FakeUser",
    "Hold",
    "InvalidRequest",
    "Latency",
    "Limit",
    "Overwrite",
    "Path",
    "RateLimited",
    "RateLimits",
    "Realism",
    "Rejection",
    "RequestRecord",
    "SpecValidator",
    "_FormErrors",
    "_validate_components",
    "_validate_message_fields",
    "_walk",
    "running_client",
]
