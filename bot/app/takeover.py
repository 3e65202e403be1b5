"""What a process does first when it takes the place of a killed one: acknowledge the
clicks the killed one was holding (bot.connection.inflight), before the rest of the bot
is even imported.

Those clicks are the oldest there are, each with only what is left of Discord's 3 s.
Everything a start did before it could play them ate into that: importing the bot
(0.45 s of CPU beyond what `python -m bot` imports to read its settings), logging in
(two requests to Discord), opening and migrating the database, restoring 500 turn
timers. An acknowledgement (a deferred update: the message unchanged, no loading state)
needs only each interaction's id and token, so it goes out first, all together, on a
connection of its own. The bot plays them once it can and shows each through its
interaction's webhook (valid 15 minutes).

Only the clicks whose answer can be an edit of their message are acknowledged so (the
live changes: `LIVE_CHANGE_ACTIONS`) and any whose change was committed already; the
others (a hint, a review, Play again...) have answers of their own that must be their
first, and are played as before while still young enough. The application's id is not
known before logging in: an interaction made for another application (a journal left by
a run against a stand-in) is not known where it is acknowledged (a 404: nothing is done
with it), and the bot, logged in, plays only its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot.config import Settings
from bot.connection.endpoints import apply_endpoint_overrides
from bot.connection.inflight import Held, Inflight, folder_for
from bot.render.custom_ids import LIVE_CHANGE_ACTIONS, ComponentRef
from bot.ui.callback import defer_update

COMPONENT = discord.InteractionType.component.value  # a button's click or a menu's pick
# Past Discord's 3 s no acknowledgement can count: a Discord (or proxy) that does not
# answer holds the start no longer than this, and those clicks are played as before.
ACKNOWLEDGE_SECONDS = 3.0


@dataclass
class Takeover:
    """The journal this process keeps (locked, taken from its predecessor), and the
    interactions left in it to play."""

    inflight: Inflight
    held: list[Held] = field(default_factory=list)


def answers_by_editing(data: dict[str, Any]) -> bool:
    """Whether an interaction (its gateway payload) is a click whose answer can be an
    edit of its message after a deferred update."""
    try:
        custom_id = data["data"]["custom_id"]
    except (KeyError, TypeError):
        return False
    if data.get("type") != COMPONENT or not isinstance(custom_id, str):
        return False
    ref = ComponentRef.parse(custom_id)
    return ref is not None and ref.action in LIVE_CHANGE_ACTIONS


def acknowledged_early(held: Held) -> bool:
    """Whether a click left in flight is acknowledged before it is played."""
    return held.committed or answers_by_editing(held.data)


async def take_over(settings: Settings, *, timeout: float = ACKNOWLEDGE_SECONDS) -> Takeover | None:
    """Take the journal of this process's shards and acknowledge at once what its
    predecessor left in it that can be answered later, waiting `timeout` at most; None
    without a journal (GATEWAY_SESSION_DIR unset)."""
    if settings.gateway_session_dir is None:
        return None
    folder = folder_for(settings.gateway_session_dir, settings.shards, settings.shard_count or 1)
    inflight = Inflight(folder)
    held = inflight.read(inflight.take())
    if not held:
        return Takeover(inflight)
    apply_endpoint_overrides(settings.discord_api_base, settings.discord_gateway_url)
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as session:

        async def acknowledge(each: Held) -> bool:
            return await defer_update(session, each.interaction_id, each.data["token"])

        held = await inflight.acknowledge(held, acknowledge, early=acknowledged_early)
    return Takeover(inflight, held)
