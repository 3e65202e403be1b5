"""The interaction tokens of each channel's game, while they last.

An interaction's token lets the bot edit the message it answered with (or the message
a click was on) for 15 minutes, through the interaction webhook
(`PATCH /webhooks/{application}/{token}/messages/@original`), and send follow-ups
(`POST /webhooks/{application}/{token}`). Those requests do not count against the bot's
global rate limit (50 a second, shared by every shard), and where only a person
installed the app (a group DM, a server without the bot) they are all the bot can do in
the channel. So a computer player's steps, the turn timer and the turn pings go through
the channel's freshest token, and through the channel with the bot's token only where
that works and no token is fresh.

Discord allows at most 5 follow-ups per interaction of a user-installed app, and a
follow-up can be edited or deleted only through the token that created it; each token's
follow-ups are counted here (the limit kept everywhere: a server install has none, but
the bot's token is there instead).
"""

from __future__ import annotations

import contextlib
import copy
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

TOKEN_LIFETIME_SECONDS = 15 * 60  # Discord's
# Stop using a token a little before Discord does: a request in flight must not outlive it.
TOKEN_MARGIN_SECONDS = 60
FOLLOWUPS_PER_INTERACTION = 5  # Discord's limit for user-installed apps
# The answered interactions of a channel kept for follow-ups: the newest first, and
# older ones when Discord refuses it one (its token forgotten, its follow-ups spent).
RECENT_TOKENS = 8
# Every this many answers, the channels whose tokens have all run out are forgotten, so
# a bot that has served many channels does not keep their interactions.
PRUNE_EVERY = 256


@dataclass(slots=True)
class Token:
    """An answered interaction of the channel: what its token edits, and how many
    follow-ups it has made."""

    interaction: discord.Interaction[Any]
    message_id: int | None  # the message its @original is (None: not the live message)
    at: float  # when it was answered (the token lives 15 minutes from its interaction)
    followups: int = 0


def kept(interaction: discord.Interaction[Any]) -> discord.Interaction[Any]:
    """The answered interaction as a token keeps it: a copy without what only its answer
    needed, the message it was on (parsed whole, with every component: most of the 12 to
    14 kB a kept interaction held) and its cached response, namespace and command. What a
    token does later (edit @original, send or delete follow-ups, say whose it is) reads
    none of them, and 8 are kept a channel for 15 minutes. The handler goes on with the
    interaction itself, untouched."""
    slim = copy.copy(interaction)
    slim.message = None
    for cached in ("_cs_response", "_cs_namespace", "_cs_command", "_cs_followup"):
        with contextlib.suppress(AttributeError):
            delattr(slim, cached)  # the response's holds the original interaction
    return slim


class InteractionTokens:
    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        lifetime: float = TOKEN_LIFETIME_SECONDS,
        margin: float = TOKEN_MARGIN_SECONDS,
    ) -> None:
        self._clock = clock
        self.lifetime = lifetime
        self.margin = margin
        # channel id -> message id -> the last answer on it (the live message, an old copy)
        self._for_edits: dict[int, dict[int, Token]] = {}
        # channel id -> its latest answered interactions, newest last (follow-ups' tokens)
        self._recent: dict[int, deque[Token]] = {}
        self._answers = 0

    @classmethod
    def lasting(
        cls, lifetime: float, clock: Callable[[], float] = time.monotonic
    ) -> InteractionTokens:
        """Tokens that last `lifetime` seconds (Discord's 15 minutes, or a test's few) on
        `clock`; the margin kept before the end shrinks with a short life."""
        return cls(clock, lifetime=lifetime, margin=min(TOKEN_MARGIN_SECONDS, lifetime / 6))

    def now(self) -> float:
        return self._clock()

    def remember(
        self, channel_id: int, interaction: discord.Interaction[Any], message_id: int | None
    ) -> None:
        """An interaction in the channel was answered; `message_id` is the live message
        its @original edits (the message clicked on, or its answer), if it is that."""
        self._answers += 1
        if self._answers % PRUNE_EVERY == 0:
            self._prune()
        token = Token(kept(interaction), message_id, self._clock())
        self._recent.setdefault(channel_id, deque(maxlen=RECENT_TOKENS)).append(token)
        if message_id is not None:
            messages = self._for_edits.setdefault(channel_id, {})
            for old_id in [old_id for old_id, old in messages.items() if not self._alive(old)]:
                del messages[old_id]
            messages[message_id] = token

    def _editing(self, channel_id: int, message_id: int) -> Token | None:
        token = self._for_edits.get(channel_id, {}).get(message_id)
        if token is None or not self._alive(token):
            return None
        return token

    def usable(self, channel_id: int, message_id: int) -> discord.Interaction[Any] | None:
        """The interaction whose token may edit `message_id` now, if any."""
        token = self._editing(channel_id, message_id)
        return None if token is None else token.interaction

    def expires(self, channel_id: int, message_id: int) -> float | None:
        """When (on the clock) the token that edits `message_id` stops being used."""
        token = self._editing(channel_id, message_id)
        return None if token is None else token.at + self.lifetime - self.margin

    def ending(self, channel_id: int, message_id: int) -> bool:
        """Whether the token that edits `message_id` is in its last margin: its edits
        are the last ones before nothing can edit the message (or there is none)."""
        expires = self.expires(channel_id, message_id)
        return expires is None or self._clock() >= expires - self.margin

    def for_followup(self, channel_id: int, user_id: int | None = None) -> Token | None:
        """The freshest interaction of the channel (with `user_id`, of that person: an
        ephemeral follow-up reaches only them) that may still send a follow-up, counted
        as sent; None where none is left."""
        for token in reversed(self._recent.get(channel_id, ())):
            if user_id is not None and token.interaction.user.id != user_id:
                continue
            if self._alive(token) and token.followups < FOLLOWUPS_PER_INTERACTION:
                token.followups += 1
                return token
        return None

    def has_followup(self, channel_id: int) -> bool:
        """Whether an interaction of the channel may still send a follow-up (not counted)."""
        return any(
            self._alive(token) and token.followups < FOLLOWUPS_PER_INTERACTION
            for token in self._recent.get(channel_id, ())
        )

    @staticmethod
    def spent(token: Token) -> None:
        """Discord refused a follow-up of the token's interaction (its limit, or its token
        is gone): it makes no more."""
        token.followups = FOLLOWUPS_PER_INTERACTION

    def alive(self, token: Token) -> bool:
        """Whether the token still works (to delete a follow-up it made)."""
        return self._alive(token)

    def forget(self, channel_id: int, message_id: int) -> None:
        """The token failed to edit `message_id` (expired early, or the message is gone)."""
        self._for_edits.get(channel_id, {}).pop(message_id, None)

    def _prune(self) -> None:
        for channel_id in [c for c, ts in self._recent.items() if not self._alive(ts[-1])]:
            del self._recent[channel_id]
        for channel_id, messages in list(self._for_edits.items()):
            if not any(self._alive(token) for token in messages.values()):
                del self._for_edits[channel_id]

    def channels(self) -> int:
        """How many channels have tokens kept (what the pruning test counts)."""
        return len(self._recent.keys() | self._for_edits.keys())

    def _alive(self, token: Token) -> bool:
        return self._clock() - token.at <= self.lifetime - self.margin
