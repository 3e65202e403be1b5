"""The table's HTTP server, in the bot process, on ACTIVITY_ADDR (where the developer
portal's URL mapping sends Discord's proxy): the built page and its assets, the games'
pictures, and the page's API.

    GET  /                          the page (index.html, never cached)
    GET  /assets/<name>             its bundle and style (hashed names: cached for good)
    GET  /pictures/<kind>/<name>.png  a game's emoji pictures, drawn once
    GET  /api/config?locale=        the client id and the page's words in that language
    POST /api/token                 {"code"} -> {"access_token"}: the OAuth2 code traded
    GET  /api/ws                    one socket per tab (bot.table.frames)

Every answer carries a Content-Security-Policy as strict as Discord's proxy's (the
page reaches its own origin only), and with DISCORD_PUBLIC_KEY every request must
carry the proxy's signature (bot.table.proxy_signature), else 401.

A tab's socket: `hello` within `hello_seconds`, then who it is comes from Discord
(bot.table.identity), the channel from its activity instance, and it is welcomed in
its language and sent the channel's game (bot.table.hub). Its actions are paced
(bot.table.pace) and made through the click's path (bot.table.actions); the instance
is asked again (a few seconds remembered) before each, so someone who left it acts
no more. At shutdown every socket is closed 1012: the page reconnects, to the next
process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from aiohttp import WSMessage, WSMsgType, web

from bot.i18n import DEFAULT_LOCALE, LOCALES, supported, t, with_locale
from bot.plugin import Games
from bot.plugin.table_scene import page_words
from bot.sessions.actions import Actor
from bot.table import frames
from bot.table.actions import Accepted, Private, Refused, TableActions, Where
from bot.table.frames import Act, ClientFrame, Close, Hello, Malformed
from bot.table.hub import SEND_SECONDS, Hub, Tab
from bot.table.identity import (
    CodeRefused,
    DiscordUnavailable,
    Identity,
    Instance,
    InstanceUnknown,
    Person,
    TokenRefused,
)
from bot.table.pace import Pace, Verdict
from bot.table.proxy_signature import ProxySignature, Signed

log = logging.getLogger(__name__)

HELLO_SECONDS = 5.0
CLOSE_SECONDS = 2.0  # for the tab's answer to our close frame
HEARTBEAT_SECONDS = 30.0  # pings keep the proxy from closing a quiet socket
# aiohttp closes a socket 1009 on a frame over this; frames.MAX_FRAME_BYTES and up to
# this are closed 4400, as the page's protocol says.
READ_LIMIT = 64 * 1024
BODY_LIMIT = 16 * 1024  # POST /api/token's body
# The kernel's send buffer of a tab's socket (Linux doubles it): a few states. Left to
# itself it grows to megabytes for a tab that stopped reading, before its send blocks
# and the tab is dropped (bot.table.hub).
SEND_BUFFER_BYTES = 64 * 1024
ASSET_NAME = re.compile(r"[A-Za-z0-9_-]+\.(?:js|css)")
ASSET_TYPES = {".js": "text/javascript", ".css": "text/css"}
PICTURE_NAME = re.compile(r"[a-z0-9_]{1,64}")
IMMUTABLE = "public, max-age=31536000, immutable"
PICTURE_CACHE = "public, max-age=86400"
# The page runs in Discord's iframe (discord.com, its ptb and canary, and the older
# discordapp.com) on the application's discordsays.com origin, which the proxy maps here.
DISCORD_ORIGINS = (
    "https://discord.com",
    "https://*.discord.com",
    "https://discordapp.com",
    "https://*.discordapp.com",
)


# The host (and port) a request was sent to, as a browser writes it in Host, or a proxy
# in X-Forwarded-Host: a name or IPv4 address, or an IPv6 one in brackets.
BROWSER_HOST = re.compile(r"(?P<name>[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?")


def content_security_policy(frame_ancestors: Sequence[str]) -> str:
    """The page may load and reach nothing but its own origin (as Discord's proxy
    allows it), run no inline code, and be framed by Discord only."""
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "connect-src 'self'",
            "font-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors " + " ".join(["'self'", *DISCORD_ORIGINS, *frame_ancestors]),
        ]
    )


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    content_type: str


class Closing(Exception):
    """Close the tab's socket with `code` (after sending `frame`, if any)."""

    def __init__(self, code: Close, frame: str | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.frame = frame


class TableServer:
    """The table's server; `start()` listens, `stop()` closes every tab 1012 and stops."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        page: Path,
        application_id: int,
        identity: Identity,
        hub: Hub,
        actions: TableActions,
        games: Games,
        where: Callable[[Instance], Where],
        signature: ProxySignature | None = None,
        frame_ancestors: Sequence[str] = (),
        hello_seconds: float = HELLO_SECONDS,
        send_seconds: float = SEND_SECONDS,
        pace: Callable[[], Pace] = Pace,
    ) -> None:
        self.host = host
        self.port = port  # 0: any free port, this one once listening
        self.page = page
        self.application_id = application_id
        self.identity = identity
        self.hub = hub
        self.actions = actions
        self.games = games
        self.where = where
        self.signature = signature
        self.frame_ancestors = tuple(frame_ancestors)
        self.csp = content_security_policy(frame_ancestors)
        self.hello_seconds = hello_seconds
        self.send_seconds = send_seconds
        self.pace = pace
        self._index = b""
        self._assets: dict[str, Asset] = {}
        self._pictures: dict[tuple[str, str], bytes] = {}
        self._sockets: set[web.WebSocketResponse] = set()
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Read the page and listen; OSError if the address cannot be listened on."""
        self._index = (self.page / "index.html").read_bytes()
        self._assets = _read_assets(self.page / "assets")
        await self.identity.start()
        app = web.Application(middlewares=[self._signed], client_max_size=BODY_LIMIT)
        app.router.add_get("/", self._page)
        app.router.add_get("/assets/{name}", self._asset)
        app.router.add_get("/pictures/{kind}/{name}.png", self._picture)
        app.router.add_get("/api/config", self._config)
        app.router.add_post("/api/token", self._token)
        app.router.add_get("/api/ws", self._socket)
        app.on_response_prepare.append(self._secure)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        listener = socket.create_server((self.host, self.port), family=family)
        self.port = listener.getsockname()[1]
        await web.SockSite(self._runner, listener).start()
        log.info("the table listens on %s:%s", self.host, self.port)

    async def stop(self) -> None:
        """Every tab told the server goes away (1012: it reconnects to the next
        process), then no more listening."""
        closing = [_close(ws, Close.GOING_AWAY) for ws in list(self._sockets)]
        await asyncio.gather(*closing)
        await self.hub.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.identity.close()

    # ------------------------------------------------------------ every answer

    @web.middleware
    async def _signed(
        self,
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        """With the public key set, only requests Discord's proxy signed are served."""
        if self.signature is not None:
            signed = self.signature.verify(request.headers)
            if signed is None:
                return web.json_response({"error": "unsigned"}, status=401)
            request["signed"] = signed
        return await handler(request)

    async def _secure(self, request: web.Request, response: web.StreamResponse) -> None:
        headers = response.headers
        headers["Content-Security-Policy"] = self._policy(request)
        headers["X-Content-Type-Options"] = "nosniff"
        headers["Referrer-Policy"] = "no-referrer"
        headers["Cross-Origin-Resource-Policy"] = "same-origin"
        headers.setdefault("Cache-Control", "no-store")

    def _policy(self, request: web.Request) -> str:
        """The page's policy. A stand-in's chat page among the frame ancestors
        (`make play`) may frame it under whichever name the browser reached it by
        (127.0.0.1 or localhost): the one it used for the table, which the stand-in's
        proxy passes on in X-Forwarded-Host, at the chat page's scheme and port."""
        if not self.frame_ancestors:
            return self.csp
        found = BROWSER_HOST.fullmatch(
            request.headers.get("X-Forwarded-Host") or request.headers.get("Host") or ""
        )
        if found is None:
            return self.csp
        name = found["name"]
        extra = [_on_host(origin, name) for origin in self.frame_ancestors]
        return content_security_policy(list(dict.fromkeys([*self.frame_ancestors, *extra])))

    # ------------------------------------------------------------ files

    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(
            body=self._index, content_type="text/html", headers={"Cache-Control": "no-cache"}
        )

    async def _asset(self, request: web.Request) -> web.Response:
        asset = self._assets.get(request.match_info["name"])
        if asset is None:
            raise web.HTTPNotFound()
        return web.Response(
            body=asset.body, content_type=asset.content_type, headers={"Cache-Control": IMMUTABLE}
        )

    async def _picture(self, request: web.Request) -> web.Response:
        """A game's emoji picture, drawn (in a thread) the first time it is asked for."""
        kind, name = request.match_info["kind"], request.match_info["name"]
        png = self._pictures.get((kind, name))
        if png is None:
            emojis = self.games.plugin(kind).emojis if kind in self.games else None
            if emojis is None or not PICTURE_NAME.fullmatch(name):
                raise web.HTTPNotFound()
            drawn = await asyncio.to_thread(_draw, emojis, name)
            if drawn is None:
                raise web.HTTPNotFound()
            png = self._pictures[(kind, name)] = drawn
        return web.Response(
            body=png, content_type="image/png", headers={"Cache-Control": PICTURE_CACHE}
        )

    # ------------------------------------------------------------ the API

    async def _config(self, request: web.Request) -> web.Response:
        words = page_words(_language(request.query.get("locale", "")))
        return web.json_response({"client_id": str(self.application_id), "words": words})

    async def _token(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
        except (ValueError, web.HTTPRequestEntityTooLarge):
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not code:
            return web.json_response({"error": "malformed"}, status=400)
        try:
            token = await self.identity.exchange(code)
        except CodeRefused:
            return web.json_response({"error": "code_refused"}, status=403)
        except DiscordUnavailable:
            return web.json_response({"error": "discord_unavailable"}, status=502)
        return web.json_response({"access_token": token})

    # ------------------------------------------------------------ a tab's socket

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(
            timeout=CLOSE_SECONDS,
            heartbeat=HEARTBEAT_SECONDS,
            compress=False,
            max_msg_size=READ_LIMIT,
        )
        if not ws.can_prepare(request).ok:
            return web.json_response({"error": "not a websocket"}, status=400)
        await ws.prepare(request)
        _limit_send_buffer(request)
        self._sockets.add(ws)
        try:
            await self._serve(ws, request)
        except Closing as closing:
            if closing.frame is not None:
                with contextlib.suppress(ConnectionError, RuntimeError, TimeoutError):
                    await asyncio.wait_for(ws.send_str(closing.frame), CLOSE_SECONDS)
            await _close(ws, closing.code)
        except Exception:
            log.exception("table: a tab's socket failed")
            await _close(ws, Close.SERVER_ERROR)
        finally:
            self._sockets.discard(ws)
        return ws

    async def _serve(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        hello = await self._hello(ws)
        locale = _language(hello.locale)
        person, instance = await self._who(hello, locale, request.get("signed"))
        locale = _language(hello.locale or person.locale)
        words = page_words(locale)
        tab = Tab(
            ws,
            _aborter(request),
            backlog=_backlog(request),
            user_id=person.user_id,
            channel_id=instance.channel_id,
            locale=locale,
            send_seconds=self.send_seconds,
        )
        if not await tab.send(frames.welcome(person.user_id, person.name, locale, words)):
            return
        self.hub.join(tab)
        try:
            await self._take_actions(ws, tab, person, hello.instance)
        finally:
            await self.hub.leave(tab)

    async def _hello(self, ws: web.WebSocketResponse) -> Hello:
        """The tab's first frame, a hello, within `hello_seconds`; else closed 4400."""
        try:
            message = await ws.receive(timeout=self.hello_seconds)
        except TimeoutError:
            raise Closing(Close.MALFORMED) from None
        frame = _frame(message)
        if not isinstance(frame, Hello):
            raise Closing(Close.MALFORMED)
        return frame

    async def _who(
        self, hello: Hello, locale: str, signed: Signed | None
    ) -> tuple[Person, Instance]:
        """Who the tab is and the instance it is in, from Discord; else closed with the
        reason (a refusal's words first when Discord did not say)."""
        try:
            person = await self.identity.person(hello.token)
            if signed is not None and signed.user_id != person.user_id:
                raise TokenRefused()  # someone else's token, through the proxy
            instance = await self.identity.instance(hello.instance, member=person.user_id)
        except TokenRefused:
            raise Closing(Close.TOKEN_REFUSED) from None
        except InstanceUnknown:
            raise Closing(Close.INSTANCE_ENDED) from None
        except DiscordUnavailable:
            unavailable = frames.refused(0, _word("unavailable", locale))
            raise Closing(Close.TRY_AGAIN, unavailable) from None
        if person.user_id not in instance.users:
            raise Closing(Close.NOT_IN_INSTANCE)
        return person, instance

    async def _take_actions(
        self, ws: web.WebSocketResponse, tab: Tab, person: Person, instance_id: str
    ) -> None:
        """The tab's frames after its hello, paced, until it goes."""
        pace = self.pace()
        actor = Actor(person.user_id, person.name, tab.locale)
        async for message in ws:
            frame = _frame(message)
            if not isinstance(frame, Act):
                raise Closing(Close.MALFORMED)  # a second hello
            verdict = pace.check()
            if verdict is Verdict.FLOOD:
                log.info("table: closed a tab of user %s flooding", person.user_id)
                raise Closing(Close.FLOOD)
            if verdict is Verdict.SLOW_DOWN:
                reply = frames.refused(frame.n, _word("slow_down", tab.locale))
            else:
                reply = await self._act(tab, actor, instance_id, frame)
            if not await tab.send(reply):
                return

    async def _act(self, tab: Tab, actor: Actor, instance_id: str, frame: Act) -> str:
        """The answer to an action, made if the person is still in the instance."""
        try:
            instance = await self.identity.instance_for_action(instance_id, actor.user_id)
        except InstanceUnknown:
            raise Closing(Close.INSTANCE_ENDED) from None
        except DiscordUnavailable:
            return frames.refused(frame.n, _word("unavailable", tab.locale))
        if actor.user_id not in instance.users:
            raise Closing(Close.NOT_IN_INSTANCE)
        # Shielded: a socket closed mid-action (the tab gone, the server stopping) does
        # not cut a change off on its way to the database.
        outcome = await asyncio.shield(
            self.actions.act(
                tab.channel_id,
                actor,
                frame.session,
                frame.version,
                frame.action,
                frame.arg,
                where=self.where(instance),
            )
        )
        if isinstance(outcome, Accepted):
            return frames.done(frame.n)
        if isinstance(outcome, Private):
            return frames.private(frame.n, outcome.title, list(outcome.lines))
        assert isinstance(outcome, Refused)
        self.hub.read_again(tab)  # the copy here may be behind: the tab gets the newest
        return frames.refused(frame.n, outcome.text)


def _frame(message: WSMessage) -> ClientFrame:
    """A tab's frame; closed 4400 if it is not one (binary, not JSON, of no shape)."""
    if message.type is not WSMsgType.TEXT:
        raise Closing(Close.MALFORMED)
    try:
        return frames.parse(message.data)
    except Malformed:
        raise Closing(Close.MALFORMED) from None


def _on_host(origin: str, name: str) -> str:
    """`origin` (scheme://host[:port]) on host `name` instead."""
    scheme, _, address = origin.partition("://")
    port = address.rpartition(":")[2] if address.rfind(":") > address.rfind("]") else ""
    return f"{scheme}://{name}" + (f":{port}" if port else "")


def _language(code: str) -> str:
    """Our language for a Discord or browser locale ("de-AT" -> "de"); else English."""
    if code in LOCALES or supported(code) != DEFAULT_LOCALE:
        return supported(code)
    return supported(code.split("-")[0])


def _word(key: str, locale: str) -> str:
    with with_locale(locale):
        return t(f"table.page.{key}")


def _read_assets(folder: Path) -> dict[str, Asset]:
    """The built bundle and style, by file name (a few hundred KB: kept in memory)."""
    return {
        path.name: Asset(path.read_bytes(), ASSET_TYPES[path.suffix])
        for path in sorted(folder.glob("*"))
        if ASSET_NAME.fullmatch(path.name)
    }


def _draw(emojis: Callable[[], Mapping[str, bytes]], name: str) -> bytes | None:
    return emojis().get(name)


def _limit_send_buffer(request: web.Request) -> None:
    transport = request.transport
    connection = None if transport is None else transport.get_extra_info("socket")
    if connection is not None:
        with contextlib.suppress(OSError):
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)


def _backlog(request: web.Request) -> Callable[[], int]:
    """Bytes written to the connection that the kernel has not taken yet."""

    def backlog() -> int:
        transport = request.transport
        return 0 if transport is None else transport.get_write_buffer_size()

    return backlog


def _aborter(request: web.Request) -> Callable[[], None]:
    """Drops the connection at once, whatever it has not sent (a tab that stopped
    reading)."""

    def abort() -> None:
        transport = request.transport
        if transport is not None:
            transport.abort()

    return abort


async def _close(ws: web.WebSocketResponse, code: Close) -> None:
    """Close with `code`, waiting briefly for the tab's answer; never raises."""
    with contextlib.suppress(ConnectionError, RuntimeError, TimeoutError):
        await asyncio.wait_for(ws.close(code=code), CLOSE_SECONDS * 2)
