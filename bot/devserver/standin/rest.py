"""The REST API v10: the route table and its dispatch (tokens, injected errors, held
requests, Discord's error bodies, the records for tests) and every route's handler."""

from __future__ import annotations

import asyncio
import base64
import contextvars
import dataclasses
import json
import re
import time
import traceback
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

from bot.devserver.standin.activity_routes import ActivityRoutes
from bot.devserver.standin.constants import (
    ALLOWED_CALLBACKS,
    API_PREFIX,
    ATTACHMENT_SIZE_LIMIT,
    CB_AUTOCOMPLETE,
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_LAUNCH_ACTIVITY,
    CB_MESSAGE,
    CB_MODAL,
    CB_UPDATE,
    CHANNEL_MESSAGE_FLAGS,
    FLAG_EPHEMERAL,
    FLAG_IS_COMPONENTS_V2,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    INTERACTION_MESSAGE_FLAGS,
    IT_COMMAND,
)
from bot.devserver.standin.entry_points import (
    PRIMARY_ENTRY_POINT,
    check_entry_point,
    check_one_entry_point,
    omitted_entry_point,
    omitted_refusal,
)
from bot.devserver.standin.errors import DiscordHTTPError, FormErrors, unknown_message
from bot.devserver.standin.models import (
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    Rejection,
    RequestRecord,
    as_int,
    normalize_embeds,
    now_iso,
    number_components,
)
from bot.devserver.standin.openapi import SpecValidator
from bot.devserver.standin.permissions import (
    PERM_ADD_REACTIONS,
    PERM_ATTACH_FILES,
    PERM_EMBED_LINKS,
    PERM_MANAGE_MESSAGES,
    PERM_READ_MESSAGE_HISTORY,
    PERM_SEND_MESSAGES,
    PERM_SEND_MESSAGES_IN_THREADS,
    PERM_VIEW_CHANNEL,
    THREAD_TYPES,
)
from bot.devserver.standin.ratelimits import (
    RATE_LIMITED_MESSAGE,
    InvalidRequest,
    RateLimited,
    RateLimits,
    Scope,
    rate_limited,
)
from bot.devserver.standin.realism import OPENAPI_FIRST
from bot.devserver.standin.validation import (
    Path,
    check_list,
    validate_command,
    validate_message_fields,
    validate_modal,
)

# What the current request's handler found out (its JSON body, its interaction), for the
# rejection record; aiohttp runs each request in its own task, hence its own context.
_REQUEST_STATE: contextvars.ContextVar[dict[str, Any]] = contextvars.ContextVar("fake_discord")


def _json_response(
    data: Any, *, status: int = 200, headers: Mapping[str, str] | None = None
) -> web.Response:
    # Exactly "application/json", as Discord sends it: discord.py's json_or_text() only
    # parses a body whose content-type is that string (no "; charset=utf-8").
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


def _without_localizations(command: Any) -> Any:
    """A command as Discord's GET answers it without ?with_localizations=true: no
    name_localizations nor description_localizations, at any depth."""
    if isinstance(command, list):
        return [_without_localizations(item) for item in command]
    if not isinstance(command, dict):
        return command
    return {
        key: _without_localizations(value)
        for key, value in command.items()
        if key not in ("name_localizations", "description_localizations")
    }


def _send_permission(channel: FakeChannel) -> int:
    """What it takes to post in a channel: in a thread, Send Messages in Threads."""
    return PERM_SEND_MESSAGES_IN_THREADS if channel.type in THREAD_TYPES else PERM_SEND_MESSAGES


def _truthy_query(value: str | None) -> bool:
    return value is not None and value.lower() in {"1", "true", "yes"}


@dataclass
class _Route:
    method: str
    template: str  # the path as Discord's docs and OpenAPI spec write it
    pattern: re.Pattern[str]
    handler: Callable[..., Any]
    bot_token: bool  # authenticated by the bot token (interaction endpoints are not)


# Path parameters that are not snowflakes: tokens, a reaction's URL-encoded emoji, an
# activity instance's id.
_TOKEN_PARAMETERS = frozenset({"webhook_token", "interaction_token", "emoji", "instance_id"})
# Routes a person's OAuth2 access token may call instead of the bot token.
_BEARER_ROUTES = frozenset({"/users/@me"})
_CHANNEL_IN_PATH = re.compile(r"/channels/([0-9]+)")
# Discord's cap on follow-ups where only a person's install authorized the interaction
# (receiving-and-responding.mdx, Create Followup Message; opcodes-and-status-codes.mdx).
USER_INSTALL_FOLLOWUP_LIMIT = 5


def _route_pattern(template: str) -> re.Pattern[str]:
    """`/channels/{channel_id}/messages` -> a regex with a named group per parameter."""
    parts = re.split(r"\{(\w+)\}", template)
    regex = "".join(
        re.escape(part) if index % 2 == 0
        else f"(?P<{part}>{'[^/]+' if part in _TOKEN_PARAMETERS else '[0-9]+'})"
        for index, part in enumerate(parts)
    )  # fmt: skip
    return re.compile(f"^{regex}$")


@dataclass
class _InjectedError:
    method: str
    pattern: re.Pattern[str]
    status: int
    body: Any
    headers: dict[str, str]
    times: int


class Hold:
    """Requests kept waiting (FakeDiscord.hold): `arrived` is set when the first one
    comes; `drop()` lets them go unanswered, as when the client is gone."""

    def __init__(self, method: str, pattern: re.Pattern[str]) -> None:
        self.method = method
        self.pattern = pattern
        self.arrived = asyncio.Event()
        self._dropped = asyncio.Event()

    def drop(self) -> None:
        self._dropped.set()

    async def wait(self) -> None:
        self.arrived.set()
        await self._dropped.wait()


class Rest(ActivityRoutes):
    """Discord's REST API v10 on top of the world and the gateway."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._injected: list[_InjectedError] = []
        self._holds: list[Hold] = []
        self._routes = self._build_routes()
        # By the path's first part ("channels", "webhooks", "interactions" ...): a
        # request is matched against its own few routes, not all of them.
        self._routes_by_root: dict[str, list[_Route]] = {}
        for route in self._routes:
            self._routes_by_root.setdefault(route.template.split("/", 2)[1], []).append(route)
        self.rate_limits = RateLimits()
        self._spec: SpecValidator | None = None
        self._bodies_seen: Counter[str] = Counter()  # per route template, for openapi_every

    # ---- errors and holds for tests ----------------------------------------------

    def inject_error(
        self,
        method: str,
        path_regex: str,
        *,
        status: int = 500,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
        times: int = 1,
    ) -> None:
        """Answer the next ``times`` matching requests (path after /api/v10) with an error.

        Injected errors are deliberate, so they are not recorded as rejections.
        """
        if body is None:
            body = {"message": "500: Internal Server Error", "code": 0}
        self._injected.append(
            _InjectedError(
                method.upper(), re.compile(path_regex), status, body, dict(headers or {}), times
            )
        )

    def inject_rate_limit(
        self,
        method: str,
        path_regex: str,
        *,
        times: int = 1,
        retry_after: float = 1.0,
        scope: Scope = "user",
    ) -> None:
        """Answer the next ``times`` matching requests (path after /api/v10) with a 429
        as Discord sends it (body, Retry-After, X-RateLimit-* headers): a burst of rate
        limits. Deliberate, so not a rejection; counted among the invalid requests."""
        limited = rate_limited(retry_after, scope=scope, bucket=f"{method} {path_regex}")
        self.inject_error(
            method,
            path_regex,
            status=429,
            body=limited.body(),
            headers=limited.all_headers(),
            times=times,
        )

    def hold(self, method: str, path_regex: str) -> Hold:
        """Keep the next matching request (path after /api/v10) waiting without an answer
        until ``drop()``, which ends it unprocessed: a reply still in flight when the bot
        dies never reaches Discord."""
        held = Hold(method.upper(), re.compile(path_regex))
        self._holds.append(held)
        return held

    # ---- the REST API: dispatch --------------------------------------------------

    def _build_routes(self) -> list[_Route]:
        app = "/applications/{application_id}"
        guild_app = app + "/guilds/{guild_id}"
        hook = "/webhooks/{webhook_id}/{webhook_token}"
        chan = "/channels/{channel_id}"
        table: list[tuple[str, str, Callable[..., Any], bool]] = [
            ("GET", "/gateway", self._get_gateway, False),
            ("GET", "/gateway/bot", self._get_gateway_bot, True),
            ("GET", "/users/@me", self._get_me, True),
            ("GET", "/users/{user_id}", self._get_user, True),
            ("GET", "/oauth2/applications/@me", self._get_application, True),
            ("GET", "/applications/@me", self._get_application, True),
            ("GET", app + "/emojis", self._get_app_emojis, True),
            ("POST", app + "/emojis", self._post_app_emoji, True),
            ("DELETE", app + "/emojis/{emoji_id}", self._delete_app_emoji, True),
            *(
                route
                for base in (app, guild_app)
                for route in (
                    ("GET", base + "/commands", self._get_commands, True),
                    ("PUT", base + "/commands", self._put_commands, True),
                    ("POST", base + "/commands", self._post_command, True),
                    ("GET", base + "/commands/{command_id}", self._get_command, True),
                    ("PATCH", base + "/commands/{command_id}", self._patch_command, True),
                    ("DELETE", base + "/commands/{command_id}", self._delete_command, True),
                )
            ),
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
             self._interaction_callback, False),
            ("POST", hook, self._webhook_execute, False),
            *(
                route
                for message in ("@original", "{message_id}")
                for route in (
                    ("GET", f"{hook}/messages/{message}", self._webhook_get_message, False),
                    ("PATCH", f"{hook}/messages/{message}", self._webhook_edit_message, False),
                    ("DELETE", f"{hook}/messages/{message}", self._webhook_delete_message,
                     False),
                )
            ),
            ("GET", chan, self._get_channel, True),
            ("GET", chan + "/messages", self._get_channel_messages, True),
            ("POST", chan + "/messages", self._create_channel_message, True),
            ("GET", chan + "/messages/{message_id}", self._get_channel_message, True),
            ("PATCH", chan + "/messages/{message_id}", self._edit_channel_message, True),
            ("DELETE", chan + "/messages/{message_id}", self._delete_channel_message, True),
            ("POST", chan + "/typing", self._typing, True),
            ("PUT", chan + "/messages/{message_id}/reactions/{emoji}/@me", self._react, True),
            ("DELETE", chan + "/messages/{message_id}/reactions/{emoji}/@me", self._unreact,
             True),
            ("GET", "/guilds/{guild_id}", self._get_guild, True),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels, True),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member, True),
            *self._activity_routes(),
        ]  # fmt: skip
        return [_Route(m, t, _route_pattern(t), h, b) for m, t, h, b in table]

    async def _http(self, request: web.Request) -> web.StreamResponse:
        """A request to the REST API, its answer as late as the network makes it, and
        the answer counted if Discord counts it toward its ban."""
        _REQUEST_STATE.set({})
        if self.realism.latency is not None:
            await asyncio.sleep(self._one_way())
        response = await self._answer(request)
        if InvalidRequest.counts(response.status, response.headers):
            injected = bool(_REQUEST_STATE.get({}).get("injected"))
            self.invalid_requests.append(
                InvalidRequest(
                    time.monotonic(), request.method, request.path, response.status, injected
                )
            )
        if self.realism.latency is not None:
            await asyncio.sleep(self._one_way())
        return response

    def _record(self, method: str, path: str, status: int) -> None:
        """Keep a request for tests: with which token it came and which channel it
        concerns (the route's, or for an interaction's token its interaction's)."""
        state = _REQUEST_STATE.get({})
        interaction: FakeInteraction | None = state.get("interaction")
        channel = _CHANNEL_IN_PATH.search(path)
        channel_id = int(channel.group(1)) if channel else None
        if channel_id is None and interaction is not None:
            channel_id = interaction.channel_id
        bot_token = bool(state.get("bot_token"))
        self.requests.append(
            RequestRecord(method, path, status, bot_token=bot_token, channel_id=channel_id)
        )

    async def _answer(self, request: web.Request) -> web.StreamResponse:
        method, path = request.method, request.path
        authorization = request.headers.get("Authorization", "")
        _REQUEST_STATE.get({})["bot_token"] = authorization.startswith("Bot ")
        if not path.startswith(API_PREFIX + "/"):
            return self._unknown(method, path, 404)
        sub = path[len(API_PREFIX) :]
        for held in self._holds:
            if held.method == method and held.pattern.search(sub):
                self._holds.remove(held)
                self._record(method, path, 503)
                await held.wait()
                return _json_response({"message": "dropped", "code": 0}, status=503)
        for injected in self._injected:
            if injected.times > 0 and injected.method == method and injected.pattern.search(sub):
                injected.times -= 1
                self._record(method, path, injected.status)
                _REQUEST_STATE.get({})["injected"] = True
                return _json_response(
                    injected.body, status=injected.status, headers=injected.headers
                )
        candidates = self._routes_by_root.get(sub.split("/", 2)[1], ())
        matches = [(r, m) for r in candidates if (m := r.pattern.match(sub)) is not None]
        route_match = next(((r, m) for r, m in matches if r.method == method), None)
        if route_match is None:
            return self._unknown(method, path, 405 if matches else 404)
        route, match = route_match
        _REQUEST_STATE.get({})["route"] = route
        headers: dict[str, str] = {}
        try:
            bearer = authorization.startswith("Bearer ") and route.template in _BEARER_ROUTES
            if (
                route.bot_token
                and not bearer
                and not self._token_ok(authorization.removeprefix("Bot "))
            ):
                raise DiscordHTTPError(401, 0, "401: Unauthorized")
            if self.realism.rate_limits:
                verdict = self.rate_limits.take(
                    method, route.template, match.groupdict(), global_limit=route.bot_token
                )
                headers = verdict.headers
                if verdict.refused is not None:
                    return self._rate_limited(method, path, verdict.refused)
            result = await route.handler(request, **match.groupdict())
        except DiscordHTTPError as exc:
            body = _REQUEST_STATE.get({}).get("json_body")
            interaction = _REQUEST_STATE.get({}).get("interaction")
            self.rejections.append(
                Rejection(
                    method,
                    path,
                    exc.status,
                    exc.code,
                    exc.message,
                    exc.errors,
                    body,
                    interaction.id if interaction is not None else None,
                    detail=exc.detail,
                )
            )
            self._record(method, path, exc.status)
            self._notify()
            return _json_response(exc.body(), status=exc.status, headers=headers)
        except ConnectionResetError:
            # The bot went away in the middle of its request (killed, or stopped): no one
            # reads this answer, and it is nobody's problem.
            self._record(method, path, 499)
            return web.Response(status=499)
        except Exception:
            # A bug in the stand-in, not the bot. Answer 400, not 500: discord.py retries a
            # 500 for seconds. check() reports it with the traceback.
            self.internal_errors.append(f"{method} {path}\n{traceback.format_exc()}")
            self._record(method, path, 400)
            self._notify()
            body = {"message": "fake Discord internal error (see fake.internal_errors)"}
            return _json_response(body | {"code": 0}, status=400)
        if isinstance(result, web.Response):  # a body of another shape (OAuth2's)
            self._record(method, path, result.status)
            if result.status >= 400:
                self.rejections.append(
                    Rejection(method, path, result.status, 0, result.text or "", None, None)
                )
            self._notify()
            return result
        status = 204 if result is None else 200
        self._record(method, path, status)
        self._notify()
        if result is None:
            return web.Response(status=204, headers=headers)
        return _json_response(result, headers=headers)

    def _rate_limited(self, method: str, path: str, refused: RateLimited) -> web.Response:
        """A 429 the bot drew: recorded as a rejection, so that a test fails on it."""
        bucket = refused.headers.get("X-RateLimit-Bucket")
        detail = f"scope {refused.scope}, retry after {refused.retry_after:.3f} s"
        self.rejections.append(
            Rejection(
                method,
                path,
                429,
                0,
                RATE_LIMITED_MESSAGE,
                detail=detail + (f", bucket {bucket}" if bucket else ""),
            )
        )
        self._record(method, path, 429)
        self._notify()
        return _json_response(refused.body(), status=429, headers=refused.all_headers())

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        """An uploaded file, as Discord's CDN serves it."""
        stored = self.files.get(int(request.match_info["attachment_id"]))
        if stored is None:
            return web.Response(status=404, text="404: Not Found")
        content_type, data = stored
        return web.Response(body=data, content_type=content_type)

    def _unknown(self, method: str, path: str, status: int) -> web.Response:
        self.unknown_routes.append(f"{method} {path}")
        self._record(method, path, status)
        self._notify()
        text = "404: Not Found" if status == 404 else "405: Method Not Allowed"
        return _json_response({"message": text, "code": 0}, status=status)

    async def _read_body(self, request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
        """The JSON body (or multipart payload_json) and any uploaded files."""
        files: list[dict[str, Any]] = []
        if request.content_type == "multipart/form-data":
            body: Any = {}
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    try:
                        body = json.loads(await part.text())
                    except ValueError as exc:
                        raise DiscordHTTPError(
                            400, 50109, "The request body contains invalid JSON."
                        ) from exc
                elif part.name and part.name.startswith("files["):
                    content = await part.read()
                    if len(content) > ATTACHMENT_SIZE_LIMIT:
                        raise DiscordHTTPError(413, 40005, "Request entity too large")
                    index = as_int(part.name[len("files[") : -1]) or 0
                    files.append(
                        {
                            "index": index,
                            "filename": part.filename or "file",
                            "size": len(content),
                            "content_type": part.headers.get("Content-Type"),
                            "data": content,
                        }
                    )
            self._check_spec(request, body)
            return body, files
        raw = await request.read()
        if not raw:
            return None, files
        try:
            body = json.loads(raw)
        except ValueError as exc:
            raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.") from exc
        self._check_spec(request, body)
        return body, files

    def _check_spec(self, request: web.Request, body: Any) -> None:
        """Keep the body for the record; with Realism.openapi, refuse it as Discord does
        if its OpenAPI spec does (a multipart request's payload_json is the JSON body)."""
        state = _REQUEST_STATE.get({})
        state["json_body"] = body
        route: _Route | None = state.get("route")
        if not self.realism.openapi or route is None:
            return
        seen = self._bodies_seen[route.template] = self._bodies_seen[route.template] + 1
        if seen > OPENAPI_FIRST and seen % self.realism.openapi_every:
            return  # sampled (Realism.openapi_every)
        if self._spec is None:
            self._spec = SpecValidator()
        self._spec.check(request.method, route.template, body)

    async def _json_object(self, request: web.Request) -> tuple[dict[str, Any], list[dict]]:
        body, files = await self._read_body(request)
        if body is None:
            body = {}
        if not isinstance(body, dict):
            raise DiscordHTTPError(
                400, 50035, "Invalid Form Body", {"_errors": [{"code": "MODEL_TYPE_CONVERT",
                "message": "Only dictionaries may be used in a ModelType"}]}
            )  # fmt: skip
        return body, files

    # ---- REST: login, gateway, users, guild ----------------------------------------

    async def _get_gateway(self, request: web.Request) -> dict[str, Any]:
        return {"url": self.gateway_url}

    async def _get_gateway_bot(self, request: web.Request) -> dict[str, Any]:
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000 - self.identifies,
                "reset_after": 86_400_000,
                "max_concurrency": 1,
            },
        }

    async def _get_me(self, request: web.Request) -> dict[str, Any]:
        authorization = request.headers.get("Authorization", "")
        if authorization.startswith("Bearer "):
            return self._bearer_user(authorization)
        return self._bot_user_me()

    async def _get_user(self, request: web.Request, user_id: str) -> dict[str, Any]:
        try:
            return self.user(int(user_id)).payload()
        except LookupError as exc:
            raise DiscordHTTPError(404, 10013, "Unknown User") from exc

    async def _get_application(self, request: web.Request) -> dict[str, Any]:
        return self._application_payload()

    def _check_guild(self, guild_id: str | None) -> None:
        if guild_id is not None and int(guild_id) in self.botless_guilds:
            raise DiscordHTTPError(
                403, 50001, "Missing Access", detail="the bot is not a member of this guild"
            )
        if guild_id is not None and int(guild_id) not in self.guild_ids:
            raise DiscordHTTPError(404, 10004, "Unknown Guild")

    async def _get_guild(self, request: web.Request, guild_id: str) -> dict[str, Any]:
        self._check_guild(guild_id)
        data = self._guild_payload(0, int(guild_id))
        for key in ("joined_at", "large", "unavailable", "member_count", "members", "channels",
                    "threads", "presences", "voice_states", "stage_instances",
                    "guild_scheduled_events", "soundboard_sounds", "embedded_activities",
                    "activity_instances", "lazy", "version"):  # fmt: skip
            data.pop(key, None)
        if _truthy_query(request.query.get("with_counts")):
            data["approximate_member_count"] = len(self._all_members())
            data["approximate_presence_count"] = 0
        return data

    async def _get_guild_channels(self, request: web.Request, guild_id: str) -> list[dict]:
        self._check_guild(guild_id)
        channels = [self.category, *self.guild_channels[int(guild_id)]]
        return [self._channel_payload(c, with_guild=True) for c in channels]

    async def _get_member(self, request: web.Request, guild_id: str, user_id: str) -> dict:
        self._check_guild(guild_id)
        try:
            return self._member_payload(self.user(int(user_id)))
        except LookupError as exc:
            raise DiscordHTTPError(404, 10007, "Unknown Member") from exc

    def _text_channel(self, channel_id: str) -> FakeChannel:
        """A channel a bot-token route names: Missing Access where the bot is not (a
        group DM, a DM between people, a server without the bot), whatever its roles."""
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise DiscordHTTPError(404, 10003, "Unknown Channel")
        if not self.bot_is_in(channel.id):
            raise DiscordHTTPError(
                403, 50001, "Missing Access", detail="the bot is not a member there"
            )
        return channel

    def _require(self, channel: FakeChannel, *needed: int) -> None:
        """With Realism.permissions, Discord's refusal of a bot-token request in a channel
        where the bot lacks a permission: Missing Access without View Channel, Missing
        Permissions for any other."""
        if not self.realism.permissions:
            return
        have = self.app_permissions_in(channel.id)
        if not have & PERM_VIEW_CHANNEL:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        if any(not have & bit for bit in needed):
            raise DiscordHTTPError(403, 50013, "Missing Permissions")

    def _require_for_content(
        self, channel: FakeChannel, body: Mapping[str, Any], files: list[dict[str, Any]]
    ) -> None:
        """Uploads need Attach Files, embeds Embed Links."""
        if files:
            self._require(channel, PERM_ATTACH_FILES)
        if body.get("embeds"):
            self._require(channel, PERM_EMBED_LINKS)

    async def _get_channel(self, request: web.Request, channel_id: str) -> dict[str, Any]:
        if int(channel_id) == self.category.id:
            return self._channel_payload(self.category, with_guild=True)
        channel = self._text_channel(channel_id)
        self._require(channel)
        return self._channel_payload(channel, with_guild=True)

    async def _typing(self, request: web.Request, channel_id: str) -> None:
        channel = self._text_channel(channel_id)
        self._require(channel, _send_permission(channel))
        return None

    async def _react(
        self, request: web.Request, channel_id: str, message_id: str, emoji: str
    ) -> None:
        """The bot's own reaction: Add Reactions and Read Message History needed; the
        stand-in keeps no reactions (nothing reads them yet)."""
        self._require(self._text_channel(channel_id), PERM_READ_MESSAGE_HISTORY)
        self._require(self._text_channel(channel_id), PERM_ADD_REACTIONS)
        self._channel_message(channel_id, message_id)
        return None

    async def _unreact(
        self, request: web.Request, channel_id: str, message_id: str, emoji: str
    ) -> None:
        self._require(self._text_channel(channel_id), PERM_READ_MESSAGE_HISTORY)
        self._channel_message(channel_id, message_id)
        return None

    # ---- REST: application emojis ---------------------------------------------------

    async def _get_app_emojis(self, request: web.Request, application_id: str) -> dict[str, Any]:
        self._command_scope(application_id, None)
        return {"items": list(self.app_emojis.values())}

    async def _post_app_emoji(self, request: web.Request, application_id: str) -> dict[str, Any]:
        """Discord's checks: a 2-32 character name of A-Z a-z 0-9 _, unique in the
        application; a base64 data URI image of at most 256 KiB."""
        self._command_scope(application_id, None)
        body, _ = await self._read_body(request)
        errors = FormErrors()
        name = body.get("name") if isinstance(body, dict) else None
        image = body.get("image") if isinstance(body, dict) else None
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_]{2,32}", name):
            errors.add(("name",), "BASE_TYPE_BAD_EMOJI_NAME", "Invalid emoji name")
        elif name in self.app_emojis:
            errors.add(("name",), "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Name already taken")
        match = re.fullmatch(r"data:image/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/=]+)", str(image))
        if match is None:
            errors.add(("image",), "BINARY_TYPE_INVALID_IMAGE", "Invalid image data")
        elif len(match.group(2)) * 3 // 4 > 256 * 1024:
            errors.add(("image",), "BINARY_TYPE_MAX_SIZE", "Image too large (256 KiB at most)")
        errors.raise_if_any()
        emoji: dict[str, Any] = {
            "id": str(self._snowflake()),
            "name": name,
            "roles": [],
            "user": self.bot_user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }
        self.app_emojis[str(name)] = emoji
        assert match is not None  # else raise_if_any raised
        self.emoji_images[str(name)] = base64.b64decode(match.group(2))
        return emoji

    async def _delete_app_emoji(
        self, request: web.Request, application_id: str, emoji_id: str
    ) -> None:
        self._command_scope(application_id, None)
        emoji = next((e for e in self.app_emojis.values() if e["id"] == emoji_id), None)
        if emoji is None:
            raise DiscordHTTPError(404, 10014, "Unknown Emoji")
        self.delete_app_emoji(emoji["name"])
        return None

    # ---- REST: application commands ------------------------------------------------

    def _command_scope(self, application_id: str, guild_id: str | None) -> int | None:
        """The commands' scope (None: global) a route names, if it is this application's
        and one of the stand-in's guilds; Discord's Missing Access otherwise."""
        if int(application_id) != self.application_id:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        if guild_id is not None and int(guild_id) not in self.guild_ids:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        return int(guild_id) if guild_id is not None else None

    def _store_command(
        self, scope: int | None, body: dict[str, Any], existing: dict[str, Any] | None
    ) -> dict[str, Any]:
        command_id = int(existing["id"]) if existing else self._snowflake()
        perms = body.get("default_member_permissions")
        stored: dict[str, Any] = {
            "id": str(command_id),
            "application_id": str(self.application_id),
            "version": str(self._snowflake()),
            "default_member_permissions": str(perms) if perms is not None else None,
            "type": body.get("type", 1),
            "name": body["name"],
            "name_localizations": body.get("name_localizations") or None,
            "description": body.get("description") or "",
            "description_localizations": body.get("description_localizations") or None,
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types") or [0],
            "nsfw": bool(body.get("nsfw", False)),
        }
        if body.get("options"):
            stored["options"] = json.loads(json.dumps(body["options"]))
        if stored["type"] == PRIMARY_ENTRY_POINT:
            stored["handler"] = body.get("handler")
        if scope is None:
            dm_permission = body.get("dm_permission")
            stored["dm_permission"] = True if dm_permission is None else bool(dm_permission)
        else:
            stored["guild_id"] = str(scope)
        self.commands.setdefault(scope, {})[command_id] = stored
        return stored

    async def _get_commands(
        self, request: web.Request, application_id: str, guild_id: str | None = None
    ) -> list[dict[str, Any]]:
        scope = self._command_scope(application_id, guild_id)
        commands = self.commands.get(scope, {}).values()
        if _truthy_query(request.query.get("with_localizations")):
            return list(commands)
        return [_without_localizations(c) for c in commands]

    async def _put_commands(
        self, request: web.Request, application_id: str, guild_id: str | None = None
    ) -> list[dict[str, Any]]:
        scope = self._command_scope(application_id, guild_id)
        body, _ = await self._read_body(request)
        errors = FormErrors()
        commands = check_list(errors, (), body, max_len=130)
        keys: set[tuple[str, int]] = set()
        per_type: dict[int, int] = {}
        for index, cmd in enumerate(commands):
            validate_command(errors, (index,), cmd)
            check_entry_point(
                errors, (index,), cmd, guild=scope is not None, activities=self.activities
            )
            if isinstance(cmd, dict):
                key = (str(cmd.get("name")), cmd.get("type", 1))
                if key in keys:
                    errors.add(
                        (index, "name"),
                        "APPLICATION_COMMANDS_DUPLICATE_NAME",
                        f"Application command names must be unique: {key[0]}",
                    )
                keys.add(key)
                per_type[key[1]] = per_type.get(key[1], 0) + 1
        if per_type.get(1, 0) > 100 or per_type.get(2, 0) > 15 or per_type.get(3, 0) > 15:
            errors.add((), "APPLICATION_COMMANDS_TOO_MANY", "Maximum number of commands reached")
        check_one_entry_point(errors, (), commands)
        errors.raise_if_any()
        if scope is None and omitted_entry_point(self.commands.get(None, {}).values(), commands):
            raise omitted_refusal()
        old = {(c["name"], c["type"]): c for c in self.commands.get(scope, {}).values()}
        self.commands[scope] = {}
        stored = [
            self._store_command(scope, cmd, old.get((cmd["name"], cmd.get("type", 1))))
            for cmd in commands
        ]
        self.command_syncs += 1
        return stored

    async def _post_command(
        self, request: web.Request, application_id: str, guild_id: str | None = None
    ) -> dict[str, Any]:
        scope = self._command_scope(application_id, guild_id)
        body, _ = await self._json_object(request)
        errors = FormErrors()
        validate_command(errors, (), body)
        check_entry_point(errors, (), body, guild=scope is not None, activities=self.activities)
        others = [c for c in self.commands.get(scope, {}).values() if c["name"] != body.get("name")]
        check_one_entry_point(errors, (), [*others, body])
        errors.raise_if_any()
        existing = next(
            (
                c
                for c in self.commands.get(scope, {}).values()
                if c["name"] == body["name"] and c["type"] == body.get("type", 1)
            ),
            None,
        )
        self.command_syncs += 1
        return self._store_command(scope, body, existing)

    def _command(self, scope: int | None, command_id: str) -> dict[str, Any]:
        cmd = self.commands.get(scope, {}).get(int(command_id))
        if cmd is None:
            raise DiscordHTTPError(404, 10063, "Unknown application command")
        return cmd

    async def _get_command(
        self,
        request: web.Request,
        application_id: str,
        command_id: str,
        guild_id: str | None = None,
    ) -> dict[str, Any]:
        return _without_localizations(
            self._command(self._command_scope(application_id, guild_id), command_id)
        )

    async def _patch_command(
        self,
        request: web.Request,
        application_id: str,
        command_id: str,
        guild_id: str | None = None,
    ) -> dict[str, Any]:
        scope = self._command_scope(application_id, guild_id)
        cmd = self._command(scope, command_id)
        body, _ = await self._json_object(request)
        merged = {k: v for k, v in cmd.items() if k not in ("id", "version")} | body
        errors = FormErrors()
        validate_command(errors, (), merged)
        errors.raise_if_any()
        self.command_syncs += 1
        return self._store_command(scope, merged, cmd)

    async def _delete_command(
        self,
        request: web.Request,
        application_id: str,
        command_id: str,
        guild_id: str | None = None,
    ) -> None:
        scope = self._command_scope(application_id, guild_id)
        self._command(scope, command_id)
        del self.commands[scope][int(command_id)]
        return None

    # ---- REST: messages (shared) ---------------------------------------------------

    def _usable_emoji_ids(self) -> set[str] | None:
        """With Realism.app_emojis, the custom emojis a component may show: this
        application's; None (any) otherwise."""
        if not self.realism.app_emojis:
            return None
        return {str(emoji["id"]) for emoji in self.app_emojis.values()}

    def _attachments(
        self,
        channel_id: int,
        existing: list[dict[str, Any]],
        refs: Any,
        files: list[dict[str, Any]],
    ) -> list[dict[str, Any]]:
        """Keep the existing attachments listed in ``refs`` and add the uploaded files."""
        kept: list[dict[str, Any]] = []
        if isinstance(refs, list):
            by_id = {a["id"]: a for a in existing}
            kept = [by_id[str(r.get("id"))] for r in refs if str(r.get("id")) in by_id]
        else:
            kept = list(existing)
        for upload in files:
            attachment_id = str(self._snowflake())
            content_type = upload["content_type"] or "application/octet-stream"
            self.files[int(attachment_id)] = (content_type, bytes(upload["data"]))
            url = f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{upload['filename']}"
            kept.append(
                {
                    "id": attachment_id,
                    "filename": upload["filename"],
                    "size": upload["size"],
                    "url": url,
                    "proxy_url": url,
                    "content_type": upload["content_type"],
                    "content_scan_version": 0,
                }
            )
        return kept

    def _new_message(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: list[dict[str, Any]],
        *,
        prefix: Path,
        allowed_flags: int,
        extra_flags: int = 0,
        **fields: Any,
    ) -> FakeMessage:
        errors = FormErrors()
        validate_message_fields(
            errors, prefix, body, allowed_flags=allowed_flags, emoji_ids=self._usable_emoji_ids()
        )
        errors.raise_if_any()
        flags = ((body.get("flags") or 0) & allowed_flags) | extra_flags
        message = FakeMessage(
            id=self._snowflake(),
            channel_id=channel_id,
            guild_id=self.guild_of(channel_id) or None,
            author=self.bot_user.payload(),
            content=body.get("content") or "",
            embeds=normalize_embeds(body.get("embeds") or []),
            components=number_components(body.get("components") or []),
            attachments=self._attachments(channel_id, [], body.get("attachments"), files),
            flags=flags,
            tts=bool(body.get("tts")),
            **fields,
        )
        if not flags & FLAG_LOADING:
            self._check_not_empty(message, body)
        return message

    @staticmethod
    def _check_not_empty(message: FakeMessage, body: Mapping[str, Any]) -> None:
        if message.flags & FLAG_IS_COMPONENTS_V2:
            if not message.components:
                raise DiscordHTTPError(400, 50006, "Cannot send an empty message")
            return
        if (
            not message.content.strip()
            and not message.embeds
            and not message.attachments
            and not body.get("sticker_ids")
            and not body.get("poll")
        ):
            raise DiscordHTTPError(400, 50006, "Cannot send an empty message")

    def _store_message(self, message: FakeMessage) -> None:
        if message.is_ephemeral:
            self._ephemeral[message.id] = message
        else:
            self._messages[message.id] = message
            channel = self.channels.get(message.channel_id)
            if channel is not None:
                channel.last_message_id = message.id

    def _edit_message(
        self,
        message: FakeMessage,
        body: dict[str, Any],
        files: list[dict[str, Any]],
        *,
        prefix: Path,
    ) -> None:
        """Apply a PATCH (or an update callback): fields present replace, ``null`` clears."""
        errors = FormErrors()
        body = dict(body)
        flags_given = body.get("flags")
        if flags_given is not None and message.flags & FLAG_IS_COMPONENTS_V2:
            body["flags"] = flags_given | FLAG_IS_COMPONENTS_V2
        elif flags_given is None and message.flags & FLAG_IS_COMPONENTS_V2:
            body["flags"] = FLAG_IS_COMPONENTS_V2
        validate_message_fields(
            errors,
            prefix,
            body,
            allowed_flags=INTERACTION_MESSAGE_FLAGS | FLAG_LOADING,
            emoji_ids=self._usable_emoji_ids(),
        )
        errors.raise_if_any()
        candidate = dataclasses.replace(message, history=[])
        if "content" in body:
            candidate.content = body["content"] or ""
        if "embeds" in body:
            candidate.embeds = normalize_embeds(body["embeds"] or [])
        if "components" in body:
            candidate.components = number_components(body["components"] or [])
        if "attachments" in body or files:
            candidate.attachments = self._attachments(
                message.channel_id, message.attachments, body.get("attachments"), files
            )
        keep = FLAG_EPHEMERAL | FLAG_IS_COMPONENTS_V2
        if flags_given is not None:
            changeable = FLAG_SUPPRESS_EMBEDS | FLAG_IS_COMPONENTS_V2
            candidate.flags = (message.flags & keep) | (flags_given & changeable)
        else:
            candidate.flags = message.flags & ~FLAG_LOADING
        candidate.flags &= ~FLAG_LOADING
        self._check_not_empty(candidate, body)
        message.history.append(message.payload())
        message.content = candidate.content
        message.embeds = candidate.embeds
        message.components = candidate.components
        message.attachments = candidate.attachments
        message.flags = candidate.flags
        message.edited_timestamp = now_iso()

    # ---- REST: channel messages ----------------------------------------------------

    def _reference(self, channel_id: int, message_id: int) -> dict[str, Any]:
        """A reply's message_reference: no guild_id in a DM."""
        reference: dict[str, Any] = {
            "type": 0,
            "message_id": str(message_id),
            "channel_id": str(channel_id),
        }
        guild_id = self.guild_of(channel_id)
        if guild_id:
            reference["guild_id"] = str(guild_id)
        return reference

    def _channel_message(self, channel_id: str, message_id: str) -> FakeMessage:
        self._text_channel(channel_id)
        message = self._messages.get(int(message_id))
        if message is None or message.deleted or message.channel_id != int(channel_id):
            raise unknown_message()
        return message

    def _check_bot_can_send(self, channel: FakeChannel) -> None:
        if self.realism.permissions:
            self._require(channel, _send_permission(channel))
            return
        # The ideal Discord looks at the bot's roles only, not at the channel.
        perms = self.app_permissions
        if not perms & PERM_VIEW_CHANNEL:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        if not perms & PERM_SEND_MESSAGES:
            raise DiscordHTTPError(403, 50013, "Missing Permissions")

    async def _create_channel_message(
        self, request: web.Request, channel_id: str
    ) -> dict[str, Any]:
        channel = self._text_channel(channel_id)
        self._check_bot_can_send(channel)
        body, files = await self._json_object(request)
        self._require_for_content(channel, body, files)
        reference = body.get("message_reference")
        fields: dict[str, Any] = {}
        if isinstance(reference, dict) and reference.get("message_id"):
            self._require(channel, PERM_READ_MESSAGE_HISTORY)  # a reply shows what it quotes
            target = self._messages.get(int(reference["message_id"]))
            if target is None and reference.get("fail_if_not_exists", True):
                raise DiscordHTTPError(
                    400, 50035, "Invalid Form Body", {"message_reference": {"_errors": [
                        {"code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                         "message": "Unknown message"}]}}
                )  # fmt: skip
            fields = {
                "type": 19,
                "message_reference": self._reference(channel.id, int(reference["message_id"])),
            }
        message = self._new_message(
            channel.id, body, files, prefix=(), allowed_flags=CHANNEL_MESSAGE_FLAGS, **fields
        )
        self._store_message(message)
        await self._dispatch_message_event("MESSAGE_CREATE", message)
        return message.payload()

    async def _get_channel_messages(self, request: web.Request, channel_id: str) -> list[dict]:
        channel = self._text_channel(channel_id)
        self._require(channel)
        limit = as_int(request.query.get("limit", "50"))
        if limit is None or not 1 <= limit <= 100:
            raise DiscordHTTPError(
                400, 50035, "Invalid Form Body", {"limit": {"_errors": [
                    {"code": "NUMBER_TYPE_MAX", "message": "Must be between 1 and 100."}]}}
            )  # fmt: skip
        messages = self.channel_messages(int(channel_id))
        before = as_int(request.query.get("before"))
        after = as_int(request.query.get("after"))
        if before is not None:
            messages = [m for m in messages if m.id < before]
        if after is not None:
            messages = [m for m in messages if m.id > after][:limit]
        if self.realism.permissions and not (
            self.app_permissions_in(channel.id) & PERM_READ_MESSAGE_HISTORY
        ):
            return []  # Discord shows no history to whom may not read it
        newest_first = list(reversed(messages))[:limit]
        return [m.payload() for m in newest_first]

    async def _get_channel_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> dict[str, Any]:
        self._require(self._text_channel(channel_id), PERM_READ_MESSAGE_HISTORY)
        return self._channel_message(channel_id, message_id).payload()

    async def _edit_channel_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> dict[str, Any]:
        channel = self._text_channel(channel_id)
        self._require(channel)
        message = self._channel_message(channel_id, message_id)
        if message.author.get("id") != str(self.bot_user.id):
            raise DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await self._json_object(request)
        self._require_for_content(channel, body, files)
        self._edit_message(message, body, files, prefix=())
        await self._dispatch_message_event("MESSAGE_UPDATE", message)
        return message.payload()

    async def _delete_channel_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> None:
        channel = self._text_channel(channel_id)
        self._require(channel)
        message = self._channel_message(channel_id, message_id)
        is_own = message.author.get("id") == str(self.bot_user.id)
        if self.realism.permissions and not is_own:
            self._require(channel, PERM_MANAGE_MESSAGES)
        elif not is_own and not self.app_permissions & PERM_MANAGE_MESSAGES:
            raise DiscordHTTPError(403, 50013, "Missing Permissions")
        message.deleted = True
        await self._dispatch_message_event("MESSAGE_DELETE", message)
        return None

    # ---- REST: interaction callback ------------------------------------------------

    def _interaction_message_fields(
        self, interaction: FakeInteraction, *, followup: bool = False
    ) -> dict[str, Any]:
        metadata: dict[str, Any] = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": interaction.user.payload(),
            "authorizing_integration_owners": dict(interaction.owners),
        }
        fields: dict[str, Any] = {
            "webhook_id": self.application_id,
            "application_id": self.application_id,
            "interaction_id": interaction.id,
            "interaction_metadata": metadata,
        }
        if interaction.type == IT_COMMAND:
            metadata["name"] = interaction.name.lstrip("/")
            metadata["command_type"] = 1
            fields["interaction"] = {
                "id": str(interaction.id),
                "type": IT_COMMAND,
                "name": interaction.name.lstrip("/"),
                "user": interaction.user.payload(),
            }
            fields["type"] = 20
        elif interaction.source_message_id is not None:
            metadata["interacted_message_id"] = str(interaction.source_message_id)
            if not followup:
                fields["type"] = 19
                fields["message_reference"] = self._reference(
                    interaction.channel_id, interaction.source_message_id
                )
        if followup:
            fields["type"] = 0
            if interaction.original_message_id is not None:
                metadata["original_response_message_id"] = str(interaction.original_message_id)
        return fields

    @staticmethod
    def _forced_flags(interaction: FakeInteraction) -> int:
        """EPHEMERAL on every answer Discord shows only to the person (see
        FakeInteraction.forced_ephemeral)."""
        return FLAG_EPHEMERAL if interaction.forced_ephemeral else 0

    async def _interaction_callback(
        self, request: web.Request, interaction_id: str, interaction_token: str
    ) -> dict[str, Any] | None:
        arrived = time.perf_counter()
        interaction = self._interactions_by_id.get(int(interaction_id))
        if interaction is None or interaction.token != interaction_token:
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        _REQUEST_STATE.get({})["interaction"] = interaction
        body, files = await self._json_object(request)
        # No await below this point until the acknowledgement is recorded: two racing
        # callbacks must not both get through.
        if interaction.response_type is not None:
            interaction.calls.append((arrived, "POST", "callback", 400))
            raise DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")
        assert interaction.dispatched_at is not None
        if arrived - interaction.dispatched_at > self.interaction_deadline:
            interaction.calls.append((arrived, "POST", "callback", 404))
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        kind = body.get("type")
        data = body.get("data") or {}
        if kind not in ALLOWED_CALLBACKS.get(interaction.type, set()):
            interaction.calls.append((arrived, "POST", "callback", 400))
            raise DiscordHTTPError(
                400, 50035, "Invalid Form Body", {"type": {"_errors": [
                    {"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                     "message": f"Interaction response type {kind} is not valid here"}]}}
            )  # fmt: skip
        if not isinstance(data, dict):
            raise DiscordHTTPError(400, 50035, "Invalid Form Body", {"data": {"_errors": [
                {"code": "MODEL_TYPE_CONVERT", "message": "Only dictionaries may be used"}]}}
            )  # fmt: skip
        message: FakeMessage | None = None
        launched: str | None = None  # the activity instance a LAUNCH_ACTIVITY opened
        if kind == CB_MESSAGE:
            message = self._new_message(
                interaction.channel_id,
                data,
                files,
                prefix=("data",),
                allowed_flags=INTERACTION_MESSAGE_FLAGS,
                extra_flags=self._forced_flags(interaction),
                recipient_id=interaction.user.id,
                **self._interaction_message_fields(interaction),
            )
        elif kind == CB_DEFERRED_MESSAGE:
            flags = FLAG_LOADING | ((data.get("flags") or 0) & FLAG_EPHEMERAL)
            flags |= self._forced_flags(interaction)
            message = self._new_message(
                interaction.channel_id,
                {},
                [],
                prefix=("data",),
                allowed_flags=0,
                extra_flags=flags,
                recipient_id=interaction.user.id,
                **self._interaction_message_fields(interaction),
            )
        elif kind in (CB_DEFERRED_UPDATE, CB_UPDATE):
            source = self.get_message(interaction.source_message_id or 0)
            if source is None or source.deleted:
                raise unknown_message()
            if kind == CB_UPDATE:
                self._edit_message(source, data, files, prefix=("data",))
            message = source
        elif kind == CB_MODAL:
            errors = FormErrors()
            validate_modal(errors, ("data",), data, emoji_ids=self._usable_emoji_ids())
            errors.raise_if_any()
            interaction.modal = json.loads(json.dumps(data))
            interaction.modal["components"] = number_components(data.get("components") or [])
        elif kind == CB_AUTOCOMPLETE:
            errors = FormErrors()
            check_list(errors, ("data", "choices"), data.get("choices"), max_len=25)
            errors.raise_if_any()
            interaction.autocomplete_choices = data.get("choices") or []
        elif kind == CB_LAUNCH_ACTIVITY:
            launched = self._launch_answer(interaction).instance_id
            interaction.activity_instance_id = launched

        interaction.response_type = kind
        interaction.response = body
        interaction.latency = arrived - interaction.dispatched_at
        interaction.calls.append((arrived, "POST", "callback", 200))
        resource: dict[str, Any] = {"type": kind}
        if message is not None:
            interaction.original_message_id = message.id
            if kind in (CB_MESSAGE, CB_DEFERRED_MESSAGE):
                self._store_message(message)
            resource["message"] = message.payload()
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_loading": kind == CB_DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and message.is_ephemeral),
            }
        }
        if message is not None:
            answer["interaction"]["response_message_id"] = str(message.id)
        if kind in (CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_UPDATE, CB_MODAL):
            answer["resource"] = resource
        if launched is not None:
            answer["interaction"]["activity_instance_id"] = launched
            answer["resource"] = {"type": kind, "activity_instance": {"id": launched}}
        if message is not None and kind in (CB_MESSAGE, CB_DEFERRED_MESSAGE):
            await self._dispatch_message_event("MESSAGE_CREATE", message)
        elif message is not None and kind == CB_UPDATE:
            await self._dispatch_message_event("MESSAGE_UPDATE", message)
        if not _truthy_query(request.query.get("with_response")):
            return None
        return answer

    # ---- REST: webhooks (follow-ups and the original response) ---------------------

    def _webhook_interaction(
        self, request: web.Request, webhook_id: str, webhook_token: str
    ) -> FakeInteraction:
        if int(webhook_id) != self.application_id:
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        interaction = self._interactions_by_token.get(webhook_token)
        if interaction is None:
            if webhook_token in self._forgotten_tokens:
                raise DiscordHTTPError(401, 50027, "Invalid Webhook Token")
            raise DiscordHTTPError(404, 10015, "Unknown Webhook", detail="no such token issued")
        _REQUEST_STATE.get({})["interaction"] = interaction
        if interaction.response_type is None:
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        assert interaction.dispatched_at is not None
        age = time.perf_counter() - interaction.dispatched_at
        if age > self.token_lifetime:
            raise DiscordHTTPError(
                401,
                50027,
                "Invalid Webhook Token",
                detail=f"the token expired {age - self.token_lifetime:.1f} s ago",
            )
        return interaction

    def _webhook_message(self, interaction: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            target = interaction.original_message_id
        else:
            target = int(message_id)
            if target != interaction.original_message_id and target not in interaction.followup_ids:
                raise unknown_message()
        message = self.get_message(target) if target is not None else None
        if message is None or message.deleted:
            raise unknown_message()
        return message

    async def _webhook_execute(
        self, request: web.Request, webhook_id: str, webhook_token: str
    ) -> dict[str, Any] | None:
        arrived = time.perf_counter()
        interaction = self._webhook_interaction(request, webhook_id, webhook_token)
        body, files = await self._json_object(request)
        original = interaction.message
        if (
            interaction.response_type == CB_DEFERRED_MESSAGE
            and original is not None
            and original.is_loading
        ):
            # The first follow-up after a deferred reply fills in the "thinking" message.
            self._edit_message(original, body, files, prefix=())
            message = original
            await self._dispatch_message_event("MESSAGE_UPDATE", message)
        else:
            if (
                set(interaction.owners) == {"1"}
                and interaction.created_followups >= USER_INSTALL_FOLLOWUP_LIMIT
            ):
                raise DiscordHTTPError(
                    400,
                    40094,
                    "This interaction has hit the maximum number of follow up messages",
                )
            message = self._new_message(
                interaction.channel_id,
                body,
                files,
                prefix=(),
                allowed_flags=INTERACTION_MESSAGE_FLAGS,
                extra_flags=self._forced_flags(interaction),
                recipient_id=interaction.user.id,
                **self._interaction_message_fields(interaction, followup=True),
            )
            self._store_message(message)
            interaction.created_followups += 1
            await self._dispatch_message_event("MESSAGE_CREATE", message)
        interaction.followup_ids.append(message.id)
        interaction.calls.append((arrived, "POST", "followup", 200))
        if not _truthy_query(request.query.get("wait")):
            return None
        return message.payload()

    async def _webhook_get_message(
        self,
        request: web.Request,
        webhook_id: str,
        webhook_token: str,
        message_id: str = "@original",
    ) -> dict[str, Any]:
        interaction = self._webhook_interaction(request, webhook_id, webhook_token)
        return self._webhook_message(interaction, message_id).payload()

    async def _webhook_edit_message(
        self,
        request: web.Request,
        webhook_id: str,
        webhook_token: str,
        message_id: str = "@original",
    ) -> dict[str, Any]:
        arrived = time.perf_counter()
        interaction = self._webhook_interaction(request, webhook_id, webhook_token)
        message = self._webhook_message(interaction, message_id)
        body, files = await self._json_object(request)
        self._edit_message(message, body, files, prefix=())
        interaction.calls.append((arrived, "PATCH", f"messages/{message_id}", 200))
        await self._dispatch_message_event("MESSAGE_UPDATE", message)
        return message.payload()

    async def _webhook_delete_message(
        self,
        request: web.Request,
        webhook_id: str,
        webhook_token: str,
        message_id: str = "@original",
    ) -> None:
        arrived = time.perf_counter()
        interaction = self._webhook_interaction(request, webhook_id, webhook_token)
        message = self._webhook_message(interaction, message_id)
        message.deleted = True
        interaction.calls.append((arrived, "DELETE", f"messages/{message_id}", 204))
        await self._dispatch_message_event("MESSAGE_DELETE", message)
        return None
