"""Who a tab is and where, from Discord, never from the page.

- The page's OAuth2 code is traded for an access token at `POST /oauth2/token` with the
  application's id and client secret, which never leave the server.
- The person is whom the access token names: `GET /users/@me` with it (the identify
  scope gives the id, the name and the language). Remembered by a digest of the token,
  never the token itself, for a few minutes (or less, until the token expires).
- The place is the activity instance: `GET /applications/{app}/activity-instances/{id}`
  with the bot token (through discord.py, so paced with the bot's other requests, and
  urgent: before the live messages' edits waiting), remembered a few seconds. Its
  `location.channel_id` is the channel whose game the tab plays; its `users`, who may
  be there. For an action (`instance_for_action`) one asked within `STALE_SECONDS` is
  taken as it was while it is asked again in the background, within a budget of its
  own (`refreshes`: at 200 busy tables, asking each every few seconds would take most
  of the bot token's 45 a second): an action never waits on Discord at human pace.
  Asked and not answered, the instance as last known within `SEEN_SECONDS` stands for
  someone who was in it: Discord being slow refuses nobody's move.

Discord's failures (an error answer, no answer, a timeout) are `DiscordUnavailable`:
the tab is told, never a traceback. Discord's refusals (a made-up code, token or
instance id) are paced for the whole process: past a few a second nothing is asked
until the pace allows, so a flood of made-up tokens or instance ids cannot spend the
bot's allowance of failed requests at Discord; people who sign in as they should
spend none of it, however many come at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import aiohttp
import discord
from discord.http import Route

from bot.connection.global_pace import urgent
from bot.table.frames import INSTANCE_ID
from bot.table.pace import TokenBucket

log = logging.getLogger(__name__)

DEFAULT_API_BASE = "https://discord.com/api/v10"
CALL_SECONDS = 5.0  # one call to Discord, answer included
PERSON_SECONDS = 300.0  # a token's person is asked again after this
INSTANCE_SECONDS = 5.0  # an instance's people are asked again after this
# An action by someone in the instance as last asked within this goes ahead while it is
# asked again; the one after sees the answer (the instance ended: closed 4404).
STALE_SECONDS = 30.0
# Asked again and not answered (Discord slow or down), the instance as last known
# within this stands for someone who was in it.
SEEN_SECONDS = 300.0
# Instances asked again in the background for actions, a second (and at once after a
# quiet spell): every busy table's within STALE_SECONDS at 200 tables, a fifth of the
# bot token's 45 a second.
REFRESH_RATE = 9.0
REFRESH_BURST = 20
KEPT = 10_000  # people and instances remembered (least recently used dropped)
# Refusals Discord may give the whole process (401, 403, 404, invalid_grant): well
# under its 10,000 failed requests in 10 minutes.
REFUSAL_RATE = 10.0
REFUSAL_BURST = 50
CODE_CHARS = 128  # an authorization code is 30-ish characters

K = TypeVar("K")
V = TypeVar("V")


class DiscordUnavailable(Exception):
    """Discord did not say (an error answer, no answer, too slow, or too many asks)."""


class CodeRefused(Exception):
    """The OAuth2 code is not one Discord knows (made up, used or expired)."""


class TokenRefused(Exception):
    """The access token names nobody (made up, expired or revoked)."""


class InstanceUnknown(Exception):
    """No running activity instance has that id (made up, or ended)."""


@dataclass(frozen=True, slots=True)
class Person:
    user_id: int
    name: str  # the Discord display name (no guild nickname: that takes another scope)
    locale: str  # the client language Discord has for them ("" if none)


@dataclass(frozen=True, slots=True)
class Instance:
    instance_id: str
    channel_id: int
    guild_id: int | None  # None: a DM or group DM
    users: frozenset[int]


class Recent(Generic[K, V]):
    """What was learnt, each until its own expiry, at most `size` (least recent out)."""

    def __init__(self, size: int, clock: Callable[[], float]) -> None:
        self.size = size
        self.clock = clock
        self._items: OrderedDict[K, tuple[V, float]] = OrderedDict()

    def get(self, key: K) -> V | None:
        item = self._items.get(key)
        if item is None:
            return None
        if item[1] <= self.clock():
            del self._items[key]
            return None
        self._items.move_to_end(key)
        return item[0]

    def forget(self, key: K) -> None:
        self._items.pop(key, None)

    def put(self, key: K, value: V, seconds: float) -> None:
        self._items[key] = (value, self.clock() + seconds)
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


class Identity:
    """The application's view of tabs: `exchange` a code, `person` a token names,
    `instance` by id. `start()` before use, `close()` after."""

    def __init__(
        self,
        *,
        application_id: int,
        client_secret: str,
        bot_http: discord.http.HTTPClient,
        api_base: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        call_seconds: float = CALL_SECONDS,
        refusals: TokenBucket | None = None,
        refreshes: TokenBucket | None = None,
    ) -> None:
        self.application_id = application_id
        self._client_secret = client_secret
        self.bot_http = bot_http
        self.api_base = (api_base or DEFAULT_API_BASE).rstrip("/")
        self.clock = clock
        self.call_seconds = call_seconds
        self.refusals = refusals or TokenBucket(REFUSAL_RATE, REFUSAL_BURST, clock=clock)
        self.refreshes = refreshes or TokenBucket(REFRESH_RATE, REFRESH_BURST, clock=clock)
        self._people: Recent[bytes, Person] = Recent(KEPT, clock)
        self._token_ends: Recent[bytes, float] = Recent(KEPT, clock)  # tokens traded here
        self._instances: Recent[str, Instance | InstanceUnknown] = Recent(KEPT, clock)
        # Each instance as last answered, and when: kept SEEN_SECONDS.
        self._last_known: Recent[str, tuple[Instance, float]] = Recent(KEPT, clock)
        self._fetching: dict[str, asyncio.Future[Instance | InstanceUnknown]] = {}
        self._http: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        if self._http is None:
            self._http = aiohttp.ClientSession()

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    # ------------------------------------------------------------ the OAuth2 code

    async def exchange(self, code: str) -> str:
        """The access token for an authorization code; CodeRefused, DiscordUnavailable."""
        if not code or len(code) > CODE_CHARS:
            raise CodeRefused()
        self._may_ask()
        form = {
            "client_id": str(self.application_id),
            "client_secret": self._client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        status, body = await self._call("POST", "/oauth2/token", data=form)
        if status == 200 and isinstance(body.get("access_token"), str):
            token: str = body["access_token"]
            lasts = body.get("expires_in")
            if isinstance(lasts, int | float) and lasts > 0:
                self._token_ends.put(_digest(token), self.clock() + lasts, lasts)
            return token
        if status == 400 and body.get("error") == "invalid_grant":
            self.refusals.take()
            raise CodeRefused()
        if status == 401:  # invalid_client: our settings, not the person's doing
            self.refusals.take()
            log.warning(
                "Discord refused the table's client id and secret: check "
                "DISCORD_CLIENT_SECRET (Developer Portal > OAuth2)"
            )
        raise DiscordUnavailable(f"the token route answered {status}")

    # ------------------------------------------------------------ the person

    async def person(self, token: str) -> Person:
        """Whom an access token names; TokenRefused, DiscordUnavailable."""
        if not token:
            raise TokenRefused()
        digest = _digest(token)
        known = self._people.get(digest)
        if known is not None:
            return known
        self._may_ask()
        status, body = await self._call(
            "GET", "/users/@me", headers={"Authorization": f"Bearer {token}"}
        )
        if status in (401, 403):
            self.refusals.take()
            raise TokenRefused()
        if status != 200:
            raise DiscordUnavailable(f"/users/@me answered {status}")
        try:
            person = Person(int(body["id"]), _display_name(body), str(body.get("locale") or ""))
        except (KeyError, TypeError, ValueError):
            raise DiscordUnavailable("/users/@me answered no user") from None
        ends = self._token_ends.get(digest)
        lasts = PERSON_SECONDS if ends is None else min(PERSON_SECONDS, ends - self.clock())
        self._people.put(digest, person, lasts)
        return person

    # ------------------------------------------------------------ the instance

    async def instance(self, instance_id: str, *, member: int | None = None) -> Instance:
        """The running activity instance; InstanceUnknown, DiscordUnavailable. Asked
        again when `member` is not among its people as remembered (they just came)."""
        if not INSTANCE_ID.fullmatch(instance_id):
            raise InstanceUnknown()
        known = self._instances.get(instance_id)
        if known is None or (
            member is not None and isinstance(known, Instance) and member not in known.users
        ):
            known = await self._fetch_once(instance_id)
        if isinstance(known, InstanceUnknown):
            raise InstanceUnknown()
        return known

    async def instance_for_action(self, instance_id: str, member: int) -> Instance:
        """The instance as `instance`, but one asked within STALE_SECONDS that had
        `member` in it is answered at once and asked again in the background (as the
        budget allows); and when Discord does not answer, one asked within SEEN_SECONDS
        that had `member` in it stands."""
        if self._instances.get(instance_id) is not None:
            return await self.instance(instance_id, member=member)
        known = self._last_known.get(instance_id)
        if known is None or member not in known[0].users:
            return await self.instance(instance_id, member=member)
        last, answered = known
        if self.clock() - answered < STALE_SECONDS:
            if instance_id not in self._fetching and self.refreshes.take():
                self._fetch_in_background(instance_id)
            return last
        try:
            return await self.instance(instance_id, member=member)
        except DiscordUnavailable:
            return last  # Discord's silence refuses nobody seen in it of late

    def _fetch_in_background(self, instance_id: str) -> None:
        fetching = asyncio.ensure_future(self._fetch_once(instance_id))
        # Its failure was logged; the next action asks again.
        fetching.add_done_callback(lambda done: done.cancelled() or done.exception())

    async def _fetch_once(self, instance_id: str) -> Instance | InstanceUnknown:
        """One request for the instance, however many tabs ask for it at once."""
        fetching = self._fetching.get(instance_id)
        if fetching is None:
            fetching = asyncio.ensure_future(self._fetch_instance(instance_id))
            self._fetching[instance_id] = fetching
            fetching.add_done_callback(lambda _: self._fetching.pop(instance_id, None))
        return await asyncio.shield(fetching)

    async def _fetch_instance(self, instance_id: str) -> Instance | InstanceUnknown:
        self._may_ask()
        route = Route(
            "GET",
            "/applications/{application_id}/activity-instances/{instance_id}",
            application_id=self.application_id,
            instance_id=instance_id,
        )
        try:
            async with asyncio.timeout(self.call_seconds):
                with urgent():  # someone waits on it, or will at their next action
                    body = await self.bot_http.request(route)
        except discord.NotFound:
            self.refusals.take()
            unknown = InstanceUnknown()  # remembered too: a made-up id is asked once
            self._instances.put(instance_id, unknown, INSTANCE_SECONDS)
            self._last_known.forget(instance_id)
            return unknown
        except (
            discord.HTTPException,
            discord.RateLimited,
            aiohttp.ClientError,
            OSError,
            TimeoutError,
        ) as error:
            log.info("activity instance %s: Discord did not say (%r)", instance_id, error)
            raise DiscordUnavailable("the activity-instances route did not answer") from error
        instance = _instance(instance_id, body)
        self._instances.put(instance_id, instance, INSTANCE_SECONDS)
        self._last_known.put(instance_id, (instance, self.clock()), SEEN_SECONDS)
        return instance

    # ------------------------------------------------------------ calls

    def _may_ask(self) -> None:
        """Ask Discord only if the refusals so far leave room for one more."""
        if not self.refusals.has():
            raise DiscordUnavailable("too many refused lookups of late")

    async def _call(self, method: str, path: str, **options: Any) -> tuple[int, dict[str, Any]]:
        """Status and JSON object of a call at the API base (an empty object for a body
        that is not one); DiscordUnavailable when there is no answer in time."""
        assert self._http is not None, "Identity.start() first"
        timeout = aiohttp.ClientTimeout(total=self.call_seconds)
        url = self.api_base + path
        try:
            async with self._http.request(method, url, timeout=timeout, **options) as answer:
                try:
                    body = await answer.json(content_type=None)
                except ValueError:
                    body = None
                return answer.status, body if isinstance(body, dict) else {}
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            log.info("%s %s: Discord did not answer (%r)", method, path, error)
            raise DiscordUnavailable(f"{path} did not answer") from error


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def _display_name(user: dict[str, Any]) -> str:
    name = user.get("global_name") or user.get("username")
    if not isinstance(name, str) or not name:
        raise ValueError("no name")
    return name


def _instance(instance_id: str, body: Any) -> Instance:
    """The instance from Discord's EmbeddedActivityInstance; DiscordUnavailable for a
    body that is not one."""
    try:
        location = body["location"]
        guild = location.get("guild_id")
        return Instance(
            instance_id,
            int(location["channel_id"]),
            None if guild is None else int(guild),
            frozenset(int(user) for user in body["users"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        raise DiscordUnavailable("the activity-instances route answered no instance") from None
