"""How close to Discord the stand-in is. By default it is an ideal Discord: answers at
once, never rate-limits, lets the bot do anything in any channel, takes any emoji and
checks bodies only against the rules of `validation`. `Realism` switches on, one by one,
what the real Discord does besides; `Realism.discord()` switches on all of it."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Latency:
    """The network between the bot and Discord: each way is half the round trip, give or
    take half the jitter (uniformly)."""

    round_trip: float = 0.080  # seconds
    jitter: float = 0.020  # seconds, the spread of a round trip

    def one_way(self, rng: random.Random) -> float:
        return max(0.0, (self.round_trip + rng.uniform(-self.jitter, self.jitter)) / 2)


DISCORD_LATENCY = Latency()  # about what a bot in Europe or the US sees


@dataclass(frozen=True)
class Realism:
    """Which of Discord's behaviours the stand-in has (all off: the ideal Discord).

    - `latency`: every REST answer and every gateway frame arrives this much later.
    - `rate_limits`: per-route buckets and the global limit, with Discord's headers and
      429 answers (`bot.devserver.standin.ratelimits`).
    - `permissions`: the bot's permissions in each channel, its roles and the channel's
      overwrites, are enforced on every bot-token channel route (403, 50001 or 50013).
    - `app_emojis`: a component's custom emoji must be one of this application's emojis.
    - `openapi`: every request body is validated against Discord's OpenAPI spec
      (`bot.devserver.standin.openapi`), before the rules of `validation`.
    - `openapi_every`: with `openapi`, after each route's first `OPENAPI_FIRST` bodies,
      one body in this many is validated. 1 (every body) everywhere but the soak, whose
      stand-in would otherwise spend half its core on validation, on payloads the
      e2e tests validate in full.
    """

    latency: Latency | None = None
    rate_limits: bool = False
    permissions: bool = False
    app_emojis: bool = False
    openapi: bool = False
    openapi_every: int = 1

    @classmethod
    def discord(cls, latency: Latency | None = DISCORD_LATENCY) -> Realism:
        """Every behaviour of Discord on (with this latency)."""
        return cls(
            latency=latency, rate_limits=True, permissions=True, app_emojis=True, openapi=True
        )


IDEAL = Realism()
OPENAPI_FIRST = 20  # bodies of each route validated before `openapi_every` applies
