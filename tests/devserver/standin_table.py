"""The fake table server (tests/table/page/fake_table.py) playing the bot's against a
stand-in, as the real one will: `api/config` names the application the proxy's signed
payload names, and `api/token` trades the code at the stand-in's OAuth2 route with the
client secret, then asks `/users/@me` whose token it is; and the stand-in's chat page
(on the API's origin) may frame it, as the bot lets it. For the tests of Discord's
client page without a bot process (test_discord_client_browser); make play's own test
runs the bot's table (bot/table/server.py)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import aiohttp
from aiohttp import web
from yarl import URL

from bot.devserver.standin.proxy_signature import PAYLOAD
from tests.table.page.fake_table import CSP, FakeTable
from tests.table.page.samples import WORDS


class StandInTable(FakeTable):
    """`signed` keeps the headers of each token and socket request, for the tests to
    check the proxy's signatures."""

    def __init__(self, dist: Path, api_base: str, client_secret: str) -> None:
        super().__init__(dist, WORDS)
        self.api_base = api_base
        self.client_secret = client_secret
        self.signed: list[dict[str, str]] = []

    def _file(self, path: Path, content_type: str, cache: str) -> web.Response:
        answer = super()._file(path, content_type, cache)
        if self.api_base:
            chat = URL(self.api_base).origin()
            answer.headers["Content-Security-Policy"] = CSP.replace(
                "frame-ancestors 'self'", f"frame-ancestors 'self' {chat}"
            )
        return answer

    async def config(self, request: web.Request) -> web.Response:
        words = WORDS["de" if request.query.get("locale", "").startswith("de") else "en"]
        return web.json_response({"client_id": application_of(request), "words": words})

    async def token(self, request: web.Request) -> web.Response:
        self.signed.append(dict(request.headers))
        code = str((await request.json())["code"])
        form = {
            "client_id": application_of(request),
            "client_secret": self.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{self.api_base}/oauth2/token", data=form) as answer:
                if answer.status != 200:
                    return web.json_response({"error": "code_refused"}, status=403)
                token = str((await answer.json())["access_token"])
            me = {"Authorization": f"Bearer {token}"}
            async with http.get(f"{self.api_base}/users/@me", headers=me) as answer:
                self.tokens[token] = str((await answer.json())["id"])
        return web.json_response({"access_token": token})

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        self.signed.append(dict(request.headers))
        return await super().socket(request)


def application_of(request: web.Request) -> str:
    """The application id in the proxy's signed payload (the stand-in's proxy signs
    every request of a launch); not checked here: test_activity_proxy checks it."""
    payload = json.loads(base64.b64decode(request.headers[PAYLOAD]))
    return str(payload["application_id"])
