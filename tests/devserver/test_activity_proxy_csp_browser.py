"""The proxy's Content-Security-Policy in real Chromium: a page served through it reaches
its own origin (a fetch, a picture, its WebSocket, its script file) and nothing else,
as under Discord's proxy, even when the table's server sends no policy of its own. A
server on another port of the same machine (another origin) is never reached: not by
fetch, picture, script, style, frame, socket or form; inline code does not run."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from aiohttp import web
from playwright.async_api import Browser

from bot.devserver.standin import FakeDiscord
from bot.devserver.standin.proxy import ActivityProxy

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)
PAGE = """<!doctype html>
<html><head><meta charset="utf-8">
<link rel="stylesheet" href="OTHER/style.css">
<script>window.inlineRan = true;</script>
<script src="probe.js"></script>
</head><body>
<img id="own" src="own.png"><img id="other" src="OTHER/picture.png">
<iframe src="OTHER/frame.html"></iframe>
<form id="away" method="post" action="OTHER/form"></form>
</body></html>"""
# Before any of the page's own code (an init script is not the page's to block).
WATCH = """
window.violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.violations.push(e.violatedDirective.split(' ')[0]));
"""
PROBE = """
function outcome(promise) {
  return promise.then((r) => r === undefined ? 'ok' : String(r), (e) => 'blocked');
}
function socket(url) {
  return new Promise((resolve) => {
    let ws;
    try { ws = new WebSocket(url); } catch (e) { resolve('blocked'); return; }
    ws.onopen = () => { ws.close(); resolve('ok'); };
    ws.onerror = () => resolve('blocked');
  });
}
function picture(id) {
  const img = document.getElementById(id);
  if (img.complete) return Promise.resolve(img.naturalWidth > 0 ? 'ok' : 'blocked');
  return new Promise((resolve) => {
    img.onload = () => resolve('ok');
    img.onerror = () => resolve('blocked');
  });
}
window.probe = (async () => {
  const own = new URL('ws', location.href); own.protocol = 'ws:';
  const script = document.createElement('script');
  script.src = 'OTHER/script.js';
  const scriptRan = new Promise((resolve) => {
    script.onload = () => resolve('ok'); script.onerror = () => resolve('blocked');
  });
  document.head.append(script);
  const results = {
    own_fetch: await outcome(fetch('api/own').then((r) => r.ok ? undefined : r.status)),
    other_fetch: await outcome(fetch('OTHER/api').then(() => undefined)),
    own_socket: await socket(own.href),
    other_socket: await socket('OTHER_WS/ws'),
    own_picture: await picture('own'),
    other_picture: await picture('other'),
    other_script: await scriptRan,
    inline: window.inlineRan === true ? 'ran' : 'blocked',
  };
  // Last: allowed, the form would take the page away.
  document.getElementById('away').submit();
  await new Promise((resolve) => setTimeout(resolve, 500));
  return results;
})();
"""


@dataclass
class Origin:
    """One aiohttp server on a port of its own: the table's (`page`), or another origin
    that counts every request it gets."""

    page: str | None = None
    probe: str | None = None
    hits: list[str] = field(default_factory=list)
    port: int = 0
    runner: web.AppRunner | None = None

    async def start(self) -> Origin:
        app = web.Application()
        app.router.add_get("/ws", self.socket)
        app.router.add_route("*", "/{tail:.*}", self.serve)
        self.runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
        await self.runner.setup()
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self.runner, sock).start()
        return self

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        self.hits.append(request.path)
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for _ in ws:
            pass
        return ws

    async def serve(self, request: web.Request) -> web.StreamResponse:
        self.hits.append(request.path)
        # No policy of its own: what the browser enforces is the proxy's.
        if request.path == "/" and self.page is not None:
            return web.Response(text=self.page, content_type="text/html")
        if request.path == "/probe.js" and self.probe is not None:
            return web.Response(text=self.probe, content_type="text/javascript")
        if request.path.endswith(".png"):
            return web.Response(body=PNG, content_type="image/png")
        return web.json_response({"ok": True})


@pytest.fixture
async def origins() -> AsyncIterator[tuple[ActivityProxy, Origin, Origin]]:
    other = await Origin().start()
    base = f"http://127.0.0.1:{other.port}"
    table = Origin(
        PAGE.replace("OTHER", base),
        PROBE.replace("OTHER_WS", f"ws://127.0.0.1:{other.port}").replace("OTHER", base),
    )
    await table.start()
    proxy = await ActivityProxy(FakeDiscord(), f"127.0.0.1:{table.port}").start()
    yield proxy, table, other
    await proxy.close()
    await table.stop()
    await other.stop()


async def test_the_page_reaches_its_own_origin_and_no_other(
    browser: Browser, origins: tuple[ActivityProxy, Origin, Origin]
) -> None:
    proxy, table, other = origins
    context = await browser.new_context()
    await context.add_init_script(WATCH)
    try:
        page = await context.new_page()
        async with asyncio.timeout(30):
            for path in ("/", "/.proxy/"):
                # Not "load": the form's refused submission keeps the page loading.
                await page.goto(proxy.url + path, wait_until="commit")
                await page.wait_for_function("() => window.probe !== undefined")
                results = await page.evaluate("window.probe")
                assert results == {
                    "own_fetch": "ok",
                    "other_fetch": "blocked",
                    "own_socket": "ok",
                    "other_socket": "blocked",
                    "own_picture": "ok",
                    "other_picture": "blocked",
                    "other_script": "blocked",
                    "inline": "blocked",
                }, path
                violations = set(await page.evaluate("window.violations"))
                blocked = {"connect-src", "img-src", "script-src-elem", "style-src-elem"}
                assert blocked | {"frame-src", "form-action"} <= violations
    finally:
        await context.close()
    assert other.hits == [], "another origin was reached"
    assert {"/", "/probe.js", "/api/own", "/own.png", "/ws"} <= set(table.hits)
