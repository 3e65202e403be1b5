"""The table's server as the page's tests need it, without the real one: the built page
under the Content-Security-Policy Discord's proxy imposes, the games' pictures, a stand-in
for Discord's client page on the same origin (static/discord_parent.*), `api/config`,
`api/token` and a scripted `api/ws` (the test sends the frames and reads the tab's)."""

from __future__ import annotations

import asyncio
import json
import secrets
import socket
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from bot.games.pickomino.pictures import pickomino_emojis

STATIC = Path(__file__).parent / "static"
CLIENT_ID = "123456789012345678"
# What Discord's proxy allows the page (issue 60): its own origin only, no inline code.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; frame-ancestors 'self'"
)
WAIT = 10.0
# The games' emoji sets, served as the table serves them (`pictures/<kind>/<name>.png`);
# each picture is drawn once a test run.
PICTURES = {"pickomino": cache(pickomino_emojis)}


def language(locale: str, words: Mapping[str, object]) -> str:
    """The catalog language for a Discord or browser locale: de-DE -> de, else en."""
    for candidate in (locale, locale.split("-")[0]):
        if candidate in words:
            return candidate
    return "en"


class FakeTable:
    """One aiohttp server; `url` once started. `state` is sent after every welcome."""

    def __init__(self, dist: Path, words: dict[str, dict[str, str]]) -> None:
        self.dist = dist
        self.words = words
        self.state: dict[str, Any] | None = None
        self.codes: dict[str, str] = {}  # one-use OAuth2 code -> user id
        self.tokens: dict[str, str] = {}  # access token -> user id
        self.hellos: list[dict[str, Any]] = []
        self.sockets: list[web.WebSocketResponse] = []
        self.frames: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.config_locales: list[str] = []
        self.url = ""
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/", self.page)
        app.router.add_get("/assets/{name}", self.asset)
        app.router.add_get("/pictures/{kind}/{name}.png", self.picture)
        app.router.add_get("/.discord/{name}", self.parent_file)
        app.router.add_post("/.discord/authorize", self.authorize)
        app.router.add_post("/.discord/authenticate", self.authenticate)
        app.router.add_get("/api/config", self.config)
        app.router.add_post("/api/token", self.token)
        app.router.add_get("/api/ws", self.socket)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        await web.SockSite(self._runner, sock).start()
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"

    async def stop(self) -> None:
        for ws in list(self.sockets):
            await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()

    # ---- the test's side of the socket

    async def frame(self, kind: str) -> dict[str, Any]:
        """The next frame of this kind (`hello`, `act`) a tab sent; others are skipped."""
        async with asyncio.timeout(WAIT):
            while True:
                frame = await self.frames.get()
                if frame.get("t") == kind:
                    return frame

    async def send(self, frame: dict[str, Any]) -> None:
        for ws in list(self.sockets):
            if not ws.closed:
                await ws.send_json(frame)

    async def show(self, state: dict[str, Any]) -> None:
        """A new committed state: sent now, and after every later welcome."""
        self.state = state
        await self.send(state)

    async def drop(self, code: int = 1012) -> None:
        """Closes every tab's socket, as a restarting server (1012) or a refusal (44xx)."""
        for ws in list(self.sockets):
            await ws.close(code=code)

    # ---- the page

    def _file(self, path: Path, content_type: str, cache: str) -> web.Response:
        headers = {
            "Content-Security-Policy": CSP,
            "Cache-Control": cache,
            "X-Content-Type-Options": "nosniff",
        }
        return web.Response(body=path.read_bytes(), content_type=content_type, headers=headers)

    async def page(self, request: web.Request) -> web.Response:
        return self._file(self.dist / "index.html", "text/html", "no-cache")

    async def asset(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        path = self.dist / "assets" / name
        if "/" in name or not path.is_file():
            raise web.HTTPNotFound()
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return self._file(path, kind, "public, max-age=31536000, immutable")

    async def picture(self, request: web.Request) -> web.Response:
        kind, name = request.match_info["kind"], request.match_info["name"]
        pictures = PICTURES[kind]() if kind in PICTURES else {}
        if name not in pictures:
            raise web.HTTPNotFound()
        return web.Response(body=pictures[name], content_type="image/png")

    # ---- Discord's client (the parent page) and its OAuth2 side

    async def parent_file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        path = STATIC / name
        if not name.startswith("discord_parent.") or not path.is_file():
            raise web.HTTPNotFound()
        kind = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}[path.suffix]
        return web.Response(text=path.read_text("utf-8"), content_type=kind)

    async def authorize(self, request: web.Request) -> web.Response:
        body = await request.json()
        code = secrets.token_urlsafe(12)
        self.codes[code] = str(body["user_id"])
        return web.json_response({"code": code})

    async def authenticate(self, request: web.Request) -> web.Response:
        body = await request.json()
        user_id = self.tokens.get(str(body.get("access_token")))
        if user_id is None:
            return web.json_response({"code": 4009, "message": "Invalid token"}, status=400)
        return web.json_response(
            {
                "access_token": body["access_token"],
                "user": {
                    "id": user_id,
                    "username": f"user{user_id}",
                    "discriminator": "0",
                    "public_flags": 0,
                    "global_name": f"User {user_id}",
                },
                "scopes": ["identify"],
                "expires": "2099-01-01T00:00:00+00:00",
                "application": {"id": CLIENT_ID, "name": "Dice Games", "description": ""},
            }
        )

    # ---- the table server's routes, as the page uses them

    async def config(self, request: web.Request) -> web.Response:
        locale = request.query.get("locale", "")
        self.config_locales.append(locale)
        words = self.words[language(locale, self.words)]
        return web.json_response({"client_id": CLIENT_ID, "words": words})

    async def token(self, request: web.Request) -> web.Response:
        try:
            code = str((await request.json())["code"])
        except (ValueError, KeyError, TypeError):
            return web.json_response({"error": "malformed"}, status=400)
        user_id = self.codes.pop(code, None)  # a code works once
        if user_id is None:
            return web.json_response({"error": "code_refused"}, status=403)
        token = secrets.token_urlsafe(16)
        self.tokens[token] = user_id
        return web.json_response({"access_token": token})

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=4096)
        await ws.prepare(request)
        self.sockets.append(ws)
        try:
            await self._serve(ws)
        finally:
            self.sockets.remove(ws)
        return ws

    async def _serve(self, ws: web.WebSocketResponse) -> None:
        hello = await ws.receive_json(timeout=5)
        self.hellos.append(hello)
        await self.frames.put(hello)
        user_id = self.tokens.get(str(hello.get("token")))
        if hello.get("t") != "hello" or user_id is None:
            await ws.close(code=4401)
            return
        lang = language(str(hello.get("locale", "")), self.words)
        await ws.send_json(
            {
                "t": "welcome",
                "you": {"id": user_id, "name": f"User {user_id}"},
                "locale": lang,
                "words": self.words[lang],
            }
        )
        if self.state is not None:
            await ws.send_json(self.state)
        async for message in ws:
            if message.type == WSMsgType.TEXT:
                await self.frames.put(json.loads(message.data))
