"""The stand-in's Activity proxy (bot/devserver/standin/proxy.py) against a small
upstream of the test's own: HTTP and WebSocket forwarded, `/.proxy/` and a launch's
mount, the Content-Security-Policy, the signature headers checked with the public key
as Discord documents it, and the tab's socket closed with 1012 when the upstream goes
away. No browser, nothing beyond 127.0.0.1."""

from __future__ import annotations

import asyncio
import base64
import json
import socket
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
from aiohttp import WSMsgType, web
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from bot.devserver.standin import FakeDiscord
from bot.devserver.standin.proxy import ActivityProxy

WAIT = 5.0


@dataclass
class Upstream:
    """The table's server as the proxy sees it: what it was asked, and a socket that
    echoes, closes with a code, or dies."""

    requests: list[dict[str, Any]] = field(default_factory=list)
    sockets: list[web.WebSocketResponse] = field(default_factory=list)
    refuse_upgrade: int | None = None
    runner: web.AppRunner | None = None
    port: int = 0

    @property
    def addr(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def start(self) -> Upstream:
        app = web.Application()
        app.router.add_route("*", "/ws", self.socket)
        app.router.add_get("/moved", self.moved)
        app.router.add_route("*", "/{tail:.*}", self.echo)
        self.runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
        await self.runner.setup()
        sock = socket.socket()
        sock.bind(("127.0.0.1", self.port))
        self.port = sock.getsockname()[1]
        await web.SockSite(self.runner, sock).start()
        return self

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    def _record(self, request: web.Request, body: bytes = b"") -> dict[str, Any]:
        seen = {
            "method": request.method,
            "path": request.rel_url.raw_path,
            "query": request.rel_url.raw_query_string,
            "headers": dict(request.headers),
            "body": body.decode(),
        }
        self.requests.append(seen)
        return seen

    async def echo(self, request: web.Request) -> web.Response:
        seen = self._record(request, await request.read())
        return web.json_response(seen, headers={"X-Upstream": "yes"})

    async def moved(self, request: web.Request) -> web.Response:
        self._record(request)
        raise web.HTTPFound("/elsewhere?x=1")

    async def socket(self, request: web.Request) -> web.StreamResponse:
        self._record(request)
        if self.refuse_upgrade is not None:
            return web.json_response({"error": "refused"}, status=self.refuse_upgrade)
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.sockets.append(ws)
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            if message.data.startswith("close:"):
                await ws.close(code=int(message.data.split(":")[1]), message=b"told to")
            elif message.data == "die":
                assert request.transport is not None
                request.transport.abort()  # as a killed process: no close frame
            else:
                await ws.send_str(f"echo {message.data}")
        return ws


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    stand_in = await FakeDiscord(activities=True).start()
    yield stand_in
    await stand_in.close()


@pytest.fixture
async def upstream() -> AsyncIterator[Upstream]:
    server = await Upstream().start()
    yield server
    await server.stop()


@pytest.fixture
async def proxy(fake: FakeDiscord, upstream: Upstream) -> AsyncIterator[ActivityProxy]:
    async with ActivityProxy(fake, upstream.addr, sign=True, chat_port=fake.port) as started:
        yield started


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=WAIT)) as session:
        yield session


def verified(public_key: str, headers: dict[str, str]) -> dict[str, Any]:
    """The payload, checked as Discord's docs check it: the timestamp is the payload's
    created_at, the signature is over the decoded payload bytes, it has not expired."""
    payload_bytes = base64.b64decode(headers["X-Discord-Proxy-Payload"], validate=True)
    payload: dict[str, Any] = json.loads(payload_bytes)
    assert str(payload["created_at"]) == headers["X-Signature-Timestamp"]
    assert payload["expires_at"] >= time.time()
    signature = base64.b64decode(headers["X-Signature-Ed25519"], validate=True)
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key)).verify(signature, payload_bytes)
    return payload


async def test_any_path_and_the_proxy_path_reach_the_upstream_under_a_strict_policy(
    fake: FakeDiscord, proxy: ActivityProxy, upstream: Upstream, http: aiohttp.ClientSession
) -> None:
    for path, seen in (("/assets/a%20b.js?v=1&w", "/assets/a%20b.js"), ("/.proxy/api/x", "/api/x")):
        async with http.get(proxy.url + path) as answer:
            assert answer.status == 200
            assert answer.headers["X-Upstream"] == "yes"
            assert answer.headers["Content-Security-Policy"] == (
                "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; "
                f"form-action 'self'; frame-ancestors 'self' http://127.0.0.1:{fake.port}"
            )
        assert upstream.requests[-1]["path"] == seen
    assert upstream.requests[0]["query"] == "v=1&w"
    async with http.post(proxy.url + "/api/token", json={"code": "c"}) as answer:
        assert (await answer.json())["body"] == '{"code": "c"}'
    # Without a launch nobody is signed for; a page cannot pass off headers of its own.
    forged = {
        "X-Signature-Ed25519": "x",
        "X-Discord-Proxy-Payload": "e30=",
        "X-Forwarded-Host": "evil.example",
    }
    async with http.get(proxy.url + "/api/config", headers=forged) as answer:
        headers = (await answer.json())["headers"]
    assert not {"X-Signature-Ed25519", "X-Discord-Proxy-Payload"} & set(headers)
    # The upstream is told the name the browser used (for the table's frame-ancestors).
    assert headers["X-Forwarded-Host"] == f"127.0.0.1:{proxy.port}"
    localhost = proxy.url.replace("127.0.0.1", "localhost")
    async with http.get(localhost + "/api/config") as answer:
        headers = (await answer.json())["headers"]
    assert headers["X-Forwarded-Host"] == f"localhost:{proxy.port}"
    assert proxy.forwarded == 5


async def test_each_launch_is_mounted_under_its_prefix_and_signed_as_its_person(
    fake: FakeDiscord, proxy: ActivityProxy, upstream: Upstream, http: aiohttp.ClientSession
) -> None:
    alice = proxy.launch("alice", fake.channel.id)
    bob = proxy.launch("bob", fake.channel.id)
    assert proxy.launch("alice", fake.channel.id) == alice, "one launch a person and channel"
    assert alice.path != bob.path
    for launch, who in ((alice, "alice"), (bob, "bob")):
        async with http.get(f"{proxy.url}{launch.path}api/config?locale=de") as answer:
            seen = await answer.json()
        assert (seen["path"], seen["query"]) == ("/api/config", "locale=de")
        payload = verified(fake.public_key, seen["headers"])
        assert payload["user_id"] == str(fake.user(who).id)
        assert payload["application_id"] == str(fake.application_id)
        assert payload["is_developer"] is False
        assert payload["expires_at"] > payload["created_at"]

    # The mount without its slash: redirected, so that the page's relative URLs work.
    bare = f"{proxy.url}{alice.path.rstrip('/')}?instance_id=i-1"
    async with http.get(bare, allow_redirects=False) as answer:
        assert answer.status == 302
        assert answer.headers["Location"].endswith(f"{alice.path}?instance_id=i-1")
    # A redirect of the upstream's stays inside the mount.
    async with http.get(f"{proxy.url}{alice.path}moved", allow_redirects=False) as answer:
        assert answer.headers["Location"] == f"{alice.path}elsewhere?x=1"
    async with http.get(f"{proxy.url}/.proxy/t-unknownticket/") as answer:
        assert answer.status == 404
    assert len(upstream.requests) == 3, "neither the bare mount nor an unknown one went on"


async def test_without_sign_nothing_is_signed(
    fake: FakeDiscord, upstream: Upstream, http: aiohttp.ClientSession
) -> None:
    async with ActivityProxy(fake, upstream.addr) as proxy:
        launch = proxy.launch("alice", fake.channel.id)
        async with http.get(f"{proxy.url}{launch.path}x") as answer:
            headers = (await answer.json())["headers"]
    assert "X-Signature-Ed25519" not in headers
    assert "frame-ancestors 'self'" in answer.headers["Content-Security-Policy"]


async def test_the_tabs_socket_is_forwarded_and_closed_as_the_upstream_closes(
    fake: FakeDiscord, proxy: ActivityProxy, upstream: Upstream, http: aiohttp.ClientSession
) -> None:
    launch = proxy.launch("carol", fake.channel.id)
    url = f"{proxy.url}{launch.path}ws".replace("http:", "ws:")
    async with http.ws_connect(url, origin=proxy.url) as ws:
        assert "Content-Security-Policy" in ws._response.headers
        await ws.send_str("hello")
        assert (await ws.receive(WAIT)).data == "echo hello"
        await ws.send_str("close:4401")  # a refused token: the page signs in again
        assert (await ws.receive(WAIT)).type == WSMsgType.CLOSE
        assert ws.close_code == 4401
    upgrade = upstream.requests[-1]
    assert upgrade["path"] == "/ws" and upgrade["headers"]["Origin"] == proxy.url
    assert verified(fake.public_key, upgrade["headers"])["user_id"] == str(fake.user("carol").id)

    async with http.ws_connect(url) as ws:  # the bot killed: no close frame
        await ws.send_str("die")
        assert (await ws.receive(WAIT)).type == WSMsgType.CLOSE
        assert ws.close_code == 1012

    async with http.ws_connect(url) as ws:  # the tab leaves: the upstream's socket closes
        await ws.send_str("ping")
        await ws.receive(WAIT)
        await ws.close()
    async with asyncio.timeout(WAIT):
        while not upstream.sockets[-1].closed:
            await asyncio.sleep(0.01)


async def test_an_upgrade_the_upstream_refuses_is_refused_and_a_gone_upstream_is_1012(
    fake: FakeDiscord, proxy: ActivityProxy, upstream: Upstream, http: aiohttp.ClientSession
) -> None:
    url = proxy.url.replace("http:", "ws:") + "/ws"
    upstream.refuse_upgrade = 401  # a signature that does not verify
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await http.ws_connect(url)
    assert refused.value.status == 401

    await upstream.stop()  # the bot is restarting
    async with http.ws_connect(url) as ws:
        assert (await ws.receive(WAIT)).type == WSMsgType.CLOSE
        assert ws.close_code == 1012
    async with http.get(proxy.url + "/") as answer:
        assert answer.status == 502
        assert "Content-Security-Policy" in answer.headers


async def test_the_discord_client_page_is_served_in_the_persons_language(
    fake: FakeDiscord, proxy: ActivityProxy, http: aiohttp.ClientSession
) -> None:
    fake.user("alice").locale = "de"
    url = proxy.client_url("alice", fake.channel.id, host="localhost")
    assert url.startswith(f"http://localhost:{proxy.port}/.discord/client.html?ticket=")
    async with http.get(url.replace("localhost", "127.0.0.1")) as answer:
        page = await answer.text()
        policy = answer.headers["Content-Security-Policy"]
    assert '<html lang="de">' in page and "Autorisieren" in page and "{{" not in page
    assert f"frame-ancestors 'self' http://127.0.0.1:{fake.port}" in policy
    async with http.get(proxy.url + "/.discord/client.js") as answer:
        assert answer.status == 200 and "postMessage" in await answer.text()
    async with http.get(proxy.url + "/.discord/nothing.js") as answer:
        assert answer.status == 404

    # An unknown ticket's socket says so and closes; a known one launches the person.
    async with http.ws_connect(proxy.url + "/.discord/ws?ticket=nope") as ws:
        gone = await ws.receive_json(timeout=WAIT)
        assert gone["op"] == "gone" and (await ws.receive(WAIT)).type == WSMsgType.CLOSE
    ticket = url.split("ticket=")[1].split("&")[0]
    async with http.ws_connect(f"{proxy.url}/.discord/ws?ticket={ticket}") as ws:
        launch = await ws.receive_json(timeout=WAIT)
        assert launch["op"] == "launch" and launch["path"] == f"/.proxy/t-{ticket}/"
        instance = fake.activity_instance(launch["query"]["instance_id"])
        assert instance is not None and instance.users == [fake.user("alice").id]
    async with asyncio.timeout(WAIT):  # the page closed: the person left, the instance ended
        while fake.activity_instance(launch["query"]["instance_id"]) is not None:
            await asyncio.sleep(0.01)
