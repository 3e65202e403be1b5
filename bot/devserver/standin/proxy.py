"""The stand-in's Activity proxy: a listener of its own playing
`https://<application id>.discordsays.com`, the one origin an Activity's page may reach.

- `/.discord/client.html?ticket=...` is Discord's client for one launch (the iframe's
  parent, static/discord_client.*), on this same origin: the SDK listens only to its
  own origin and Discord's. Its socket `/.discord/ws` relays the SDK's postMessage
  frames to `sdk_parent.ParentSide`.
- Every other path, and `/.proxy/<path>`, goes to the bot's ACTIVITY_ADDR, HTTP and
  WebSocket. A launch is mounted under a prefix of its own, `/.proxy/t-<ticket>/...` ->
  `/...`, so that two people in one browser are two launches, each signed as itself.
- What it answers carries a Content-Security-Policy as strict as Discord's proxy: the
  page may reach only this origin; the chat page (`chat_port`, on the host the browser
  used) may frame it. Forwarded requests say that host in X-Forwarded-Host, so the
  bot's table lets the chat page frame it under that name too.
- With `sign`, each forwarded request of a launch carries fresh signature headers for
  its person (proxy_signature), which a bot given the stand-in's public key checks.
- A tab's socket is closed with 1012 when the upstream goes away (the bot restarting),
  so the page reconnects; a close code the upstream sends reaches the tab as it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import socket
import time
from collections.abc import Iterable
from html import escape
from importlib import resources
from typing import Any

import aiohttp
from aiohttp import WSMsgType, web
from multidict import CIMultiDict
from yarl import URL

from bot.devserver.language import page_locale
from bot.devserver.standin.models import FakeUser
from bot.devserver.standin.proxy_signature import HEADERS as SIGNATURE_HEADERS
from bot.devserver.standin.proxy_signature import signed_headers
from bot.devserver.standin.sdk_parent import Launch, ParentSide
from bot.devserver.standin.server import FakeDiscord
from bot.i18n import t
from bot.process.background import BackgroundTasks

log = logging.getLogger(__name__)

CLIENT_PREFIX = "/.discord/"
PROXY_PREFIX = "/.proxy/"
LAUNCH_PATH = re.compile(r"/\.proxy/t-([A-Za-z0-9_-]{8,64})(/.*)?")
UPSTREAM_GONE = 1012  # "service restart": the page reconnects
BODY_LIMIT = 1024 * 1024
PARENT_FRAME_LIMIT = 64 * 1024
UPSTREAM_TIMEOUT = aiohttp.ClientTimeout(total=30, sock_connect=3)
# Close codes a proxy may not send on, or that mean the connection was lost.
LOST = frozenset({1005, 1006, 1015})
HOP_BY_HOP = frozenset(
    {
        "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
        "trailer", "transfer-encoding", "upgrade", "host", "content-length",
    }
)  # fmt: skip
WEBSOCKET_OWN = frozenset(
    {"sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
     "sec-websocket-protocol", "sec-websocket-accept"}
)  # fmt: skip
CLIENT_FILES = {
    "client.html": ("discord_client.html", "text/html"),
    "client.js": ("discord_client.js", "text/javascript"),
    "client.css": ("discord_client.css", "text/css"),
}
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


class ActivityProxy:
    """The proxy origin for one stand-in, forwarding to `upstream` (host:port)."""

    def __init__(
        self,
        fake: FakeDiscord,
        upstream: str,
        *,
        sign: bool = False,
        chat_port: int | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.fake = fake
        self.upstream = upstream
        self.sign = sign
        self.chat_port = chat_port  # the chat page's port, whose page may frame ours
        self.host = host
        self.port = port
        self.launches: dict[str, Launch] = {}
        self.parents: set[ParentSide] = set()
        self.sockets: set[web.WebSocketResponse] = set()  # tabs' and parents' sockets
        self.forwarded = 0  # requests sent upstream, for tests
        self._by_person: dict[tuple[int, int], Launch] = {}
        self._tasks = BackgroundTasks()
        self._session: aiohttp.ClientSession | None = None
        self._runner: web.AppRunner | None = None
        fake.listeners.append(self._changed)

    # ---- lifecycle --------------------------------------------------------------------

    async def start(self) -> ActivityProxy:
        self._session = aiohttp.ClientSession(
            timeout=UPSTREAM_TIMEOUT, auto_decompress=False, cookie_jar=aiohttp.DummyCookieJar()
        )
        app = web.Application(client_max_size=BODY_LIMIT)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.25)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        return self

    async def close(self) -> None:
        for ws in list(self.sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001, message=b"proxy stopping")
        self._tasks.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._session is not None:
            await self._session.close()
            self._session = None
        with contextlib.suppress(ValueError):
            self.fake.listeners.remove(self._changed)

    async def __aenter__(self) -> ActivityProxy:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return str(URL.build(scheme="http", host=host, port=self.port))

    # ---- launches ---------------------------------------------------------------------

    def launch(self, user: FakeUser | str | int, channel_id: int) -> Launch:
        """The launch of `user` in a channel: one ticket each, kept while this runs."""
        person = self.fake.user(user)
        found = self._by_person.get((person.id, channel_id))
        if found is None:
            found = Launch(secrets.token_urlsafe(12), person.id, channel_id)
            self.launches[found.ticket] = found
            self._by_person[person.id, channel_id] = found
        return found

    def client_url(
        self,
        user: FakeUser | str | int,
        channel_id: int,
        *,
        host: str | None = None,
        platform: str = "desktop",
    ) -> str:
        """Discord's client page for `user`'s launch in a channel, on the proxy origin as
        reached through `host` (the name the browser used for the chat page)."""
        launch = self.launch(user, channel_id)
        base = URL(self.url).with_host(host) if host else URL(self.url)
        query = {"ticket": launch.ticket, "platform": platform}
        return str(base.with_path(f"{CLIENT_PREFIX}client.html").with_query(query))

    # ---- requests ---------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        path = request.rel_url.raw_path
        if path.startswith(CLIENT_PREFIX):
            return await self._client(request, path.removeprefix(CLIENT_PREFIX))
        launch: Launch | None = None
        mounted = LAUNCH_PATH.fullmatch(path)
        if mounted is not None:
            launch = self.launches.get(mounted.group(1))
            if launch is None:
                return self._plain(request, 404, "No such launch: open the table again.")
            if mounted.group(2) is None:  # relative URLs need the slash
                query = request.rel_url.raw_query_string
                raise web.HTTPFound(path + "/" + (f"?{query}" if query else ""))
            path = mounted.group(2)
        elif path.startswith(PROXY_PREFIX):
            path = path[len(PROXY_PREFIX) - 1 :]
        if _is_upgrade(request):
            return await self._forward_socket(request, path, launch)
        return await self._forward(request, path, launch)

    def _upstream_url(self, request: web.Request, path: str, scheme: str) -> URL:
        query = request.rel_url.raw_query_string
        return URL(
            f"{scheme}://{self.upstream}{path}" + (f"?{query}" if query else ""), encoded=True
        )

    def _upstream_headers(
        self, request: web.Request, launch: Launch | None, drop: Iterable[str] = ()
    ) -> CIMultiDict[str]:
        dropped = HOP_BY_HOP | {name.lower() for name in (*SIGNATURE_HEADERS, *drop)}
        headers = CIMultiDict(
            (name, value) for name, value in request.headers.items() if name.lower() not in dropped
        )
        # The name the browser used, for the table's own frame-ancestors (bot.table.server).
        headers["X-Forwarded-Host"] = request.host
        if self.sign and launch is not None:
            signed = signed_headers(
                self.fake.application_key, self.fake.application_id, launch.user_id, time.time()
            )
            headers.update(signed)
        return headers

    async def _forward(
        self, request: web.Request, path: str, launch: Launch | None
    ) -> web.StreamResponse:
        assert self._session is not None
        body = await request.read()
        try:
            async with self._session.request(
                request.method,
                self._upstream_url(request, path, "http"),
                headers=self._upstream_headers(request, launch),
                data=body or None,
                allow_redirects=False,
            ) as upstream:
                payload = await upstream.read()
                status = upstream.status
                headers = CIMultiDict(
                    (name, value)
                    for name, value in upstream.headers.items()
                    if name.lower() not in HOP_BY_HOP
                )
        except (aiohttp.ClientError, TimeoutError, OSError):
            return self._plain(request, 502, "The table's server is not answering.")
        self.forwarded += 1
        location = headers.get("Location")
        if (
            launch is not None
            and location
            and location.startswith("/")
            and not location.startswith("//")
        ):
            headers["Location"] = launch.path.rstrip("/") + location  # stays in the mount
        headers.add("Content-Security-Policy", self._table_policy(request))
        return web.Response(status=status, body=payload, headers=headers)

    async def _forward_socket(
        self, request: web.Request, path: str, launch: Launch | None
    ) -> web.StreamResponse:
        assert self._session is not None
        protocols = [
            p.strip()
            for p in request.headers.get("Sec-WebSocket-Protocol", "").split(",")
            if p.strip()
        ]
        upstream: aiohttp.ClientWebSocketResponse | None
        try:
            upstream = await self._session.ws_connect(
                self._upstream_url(request, path, "ws"),
                headers=self._upstream_headers(request, launch, WEBSOCKET_OWN),
                protocols=protocols,
            )
        except aiohttp.WSServerHandshakeError as refused:
            # The upstream answered the upgrade with a refusal: the tab gets it as is.
            return self._plain(request, refused.status, refused.message or "refused")
        except (aiohttp.ClientError, TimeoutError, OSError):
            upstream = None
        self.forwarded += 1
        chosen = (upstream.protocol,) if upstream is not None and upstream.protocol else ()
        tab = web.WebSocketResponse(protocols=chosen, max_msg_size=BODY_LIMIT)
        tab.headers["Content-Security-Policy"] = self._table_policy(request)
        await tab.prepare(request)
        if upstream is None:
            await tab.close(code=UPSTREAM_GONE, message=b"the table's server is not answering")
            return tab
        self.sockets.add(tab)
        try:
            await _pipe(tab, upstream)
        finally:
            self.sockets.discard(tab)
            await upstream.close()
        return tab

    # ---- the Discord client page -----------------------------------------------------

    async def _client(self, request: web.Request, name: str) -> web.StreamResponse:
        if name == "ws":
            return await self._parent_socket(request)
        if name not in CLIENT_FILES or request.method not in ("GET", "HEAD"):
            return self._plain(request, 404, "Not found.")
        file, kind = CLIENT_FILES[name]
        text = resources.files("bot.devserver").joinpath(f"static/{file}").read_text("utf-8")
        if name == "client.html":
            language = self._language(request)
            text = _PLACEHOLDER.sub(
                lambda m: escape(t(f"play.discord.{m.group(1)}", language)), text
            ).replace("$lang", language)
        headers = {
            "Content-Security-Policy": self._client_policy(request),
            "Cache-Control": "no-store",
        }
        return web.Response(text=text, content_type=kind, headers=headers)

    def _language(self, request: web.Request) -> str:
        """The launch's person's language, else the browser's."""
        launch = self.launches.get(request.query.get("ticket", ""))
        if launch is not None:
            return page_locale(self.fake.user(launch.user_id).locale)
        return page_locale(request.headers.get("Accept-Language", ""))

    async def _parent_socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=PARENT_FRAME_LIMIT, heartbeat=20)
        await ws.prepare(request)
        launch = self.launches.get(request.query.get("ticket", ""))
        if launch is None:
            text = t("play.discord.unknown_launch", self._language(request))
            await ws.send_json({"op": "gone", "text": text})
            await ws.close(code=4404)
            return ws
        outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        writer = self._tasks.start(_write(ws, outbox), "discord-parent")
        parent = ParentSide(
            self.fake, launch, outbox.put_nowait, platform=request.query.get("platform", "")
        )
        self.sockets.add(ws)
        try:
            parent.open()
        except (PermissionError, LookupError) as refused:
            outbox.put_nowait({"op": "gone", "text": str(refused)})
            await outbox.join()
            await ws.close(code=4403)
            self.sockets.discard(ws)
            writer.cancel()
            return ws
        self.parents.add(parent)
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    break
                with contextlib.suppress(ValueError):
                    parent.receive(json.loads(message.data))
        finally:
            self.parents.discard(parent)
            self.sockets.discard(ws)
            writer.cancel()
            if not any(
                p.launch.user_id == launch.user_id and p.instance_id == parent.instance_id
                for p in self.parents
            ):
                parent.leave()
        return ws

    def _changed(self) -> None:
        for parent in list(self.parents):
            parent.changed()

    # ---- headers ----------------------------------------------------------------------

    def _ancestors(self, request: web.Request) -> str:
        """Who may frame our pages: this origin, and the chat page on the host the
        browser used to reach us."""
        if self.chat_port is None or request.url.host is None:
            return "'self'"
        chat = URL.build(scheme=request.url.scheme, host=request.url.host, port=self.chat_port)
        return f"'self' {chat}"

    def _table_policy(self, request: web.Request) -> str:
        """Discord's proxy's rule for what the Activity's page may reach: its own origin
        (form-action too, which default-src does not cover)."""
        return (
            "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; "
            f"form-action 'self'; frame-ancestors {self._ancestors(request)}"
        )

    def _client_policy(self, request: web.Request) -> str:
        return (
            "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
            f"frame-ancestors {self._ancestors(request)}"
        )

    def _plain(self, request: web.Request, status: int, text: str) -> web.Response:
        headers = {"Content-Security-Policy": self._table_policy(request)}
        return web.Response(status=status, text=text, headers=headers)


def _is_upgrade(request: web.Request) -> bool:
    return request.method == "GET" and request.headers.get("Upgrade", "").lower() == "websocket"


async def _pipe(tab: web.WebSocketResponse, upstream: aiohttp.ClientWebSocketResponse) -> None:
    """Frames both ways until one side closes; the other is closed with its code, or
    with 1012 when the upstream went away without one."""
    loop = asyncio.get_running_loop()
    up = loop.create_task(_tab_to_upstream(tab, upstream))
    down = loop.create_task(_upstream_to_tab(upstream, tab))
    try:
        done, _ = await asyncio.wait((up, down), return_when=asyncio.FIRST_COMPLETED)
    finally:
        up.cancel()
        down.cancel()
    if down in done and not tab.closed:
        code = upstream.close_code
        reason = down.result() if down.exception() is None else None
        if reason is None or code is None or code in LOST:
            await tab.close(code=UPSTREAM_GONE, message=b"the table's server went away")
        else:
            await tab.close(code=code, message=reason.encode()[:120])
    elif up in done and not upstream.closed:
        code = tab.close_code
        await upstream.close(code=code if code and code not in LOST else 1000)


async def _tab_to_upstream(
    tab: web.WebSocketResponse, upstream: aiohttp.ClientWebSocketResponse
) -> None:
    async for message in tab:
        if message.type == WSMsgType.TEXT:
            await upstream.send_str(message.data)
        elif message.type == WSMsgType.BINARY:
            await upstream.send_bytes(message.data)


async def _upstream_to_tab(
    upstream: aiohttp.ClientWebSocketResponse, tab: web.WebSocketResponse
) -> str | None:
    """The upstream's frames to the tab; the reason of its close frame, or None when the
    connection was lost without one."""
    while True:
        message = await upstream.receive()
        if message.type == WSMsgType.TEXT:
            await tab.send_str(message.data)
        elif message.type == WSMsgType.BINARY:
            await tab.send_bytes(message.data)
        elif message.type == WSMsgType.CLOSE:
            return str(message.extra or "")
        elif message.type in (WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
            return None


async def _write(ws: web.WebSocketResponse, outbox: asyncio.Queue[dict[str, Any]]) -> None:
    """One writer per parent page: frames leave in the order they were made."""
    while True:
        frame = await outbox.get()
        try:
            if not ws.closed:
                await ws.send_json(frame)
        except (ConnectionError, RuntimeError):
            pass
        finally:
            outbox.task_done()
