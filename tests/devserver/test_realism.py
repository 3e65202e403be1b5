"""The stand-in's Discord behaviours (`Realism`), each against raw requests and, where the
bot would see it on the gateway, a raw gateway client: rate limits with their headers and
429s, the global limit that spares interaction endpoints, permissions with overwrites and
their codes, application emojis, bodies checked against Discord's OpenAPI spec, the count
of invalid requests, latency, and the command routes as Discord answers them. No bot
process, no network beyond 127.0.0.1."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.devserver.standin import (
    INTERACTION_MESSAGE_FLAGS,
    PERM_ATTACH_FILES,
    PERM_EMBED_LINKS,
    PERM_SEND_MESSAGES,
    PERM_VIEW_CHANNEL,
    FakeDiscord,
    Latency,
    RateLimits,
    Realism,
)
from bot.devserver.standin.openapi import SpecValidator
from bot.devserver.standin.realism import OPENAPI_FIRST

PNG = "data:image/png;base64," + "iVBORw0KGgo=" * 4


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def started(realism: Realism, **options: Any) -> FakeDiscord:
    return await FakeDiscord(realism=realism, **options).start()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """Every behaviour but latency (only the latency test times anything); after the
    test, no problem left that the test did not take."""
    stand_in = await started(Realism.discord(latency=None))
    yield stand_in
    await stand_in.close()
    stand_in.check()


async def call(
    http: aiohttp.ClientSession,
    fake: FakeDiscord,
    method: str,
    path: str,
    body: Any = None,
    *,
    token: str | None = None,
    form: aiohttp.FormData | None = None,
) -> tuple[int, Any, dict[str, str]]:
    headers = {"Authorization": f"Bot {token or fake.token}"}
    data = form if form is not None else (json.dumps(body) if body is not None else None)
    if form is None and body is not None:
        headers["Content-Type"] = "application/json"
    async with http.request(method, fake.api_base + path, data=data, headers=headers) as answer:
        text = await answer.text()
        return answer.status, json.loads(text) if text else None, dict(answer.headers)


def messages(fake: FakeDiscord, channel_id: int | None = None) -> str:
    return f"/channels/{channel_id or fake.channel.id}/messages"


async def error_at(answer: Any, *path: str | int) -> str:
    node = answer["errors"]
    for key in path:
        node = node[str(key)]
    return str(node["_errors"][0]["code"])


class RawBot:
    """A gateway client that identifies and reads dispatches, as the bot would."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws

    @classmethod
    async def connect(cls, http: aiohttp.ClientSession, fake: FakeDiscord) -> RawBot:
        ws = await http.ws_connect(fake.gateway_url + "?v=10&encoding=json")
        bot = cls(ws)
        await bot.next_op(10)  # HELLO
        identify = {"token": fake.token, "intents": 1, "properties": {}}
        await ws.send_json({"op": 2, "d": identify})
        await bot.event("GUILD_CREATE")
        return bot

    async def next_op(self, op: int) -> dict[str, Any]:
        while True:
            frame = await asyncio.wait_for(self.ws.receive_json(), 5)
            if frame["op"] == op:
                return frame

    async def event(self, name: str) -> dict[str, Any]:
        while True:
            frame = await self.next_op(0)
            if frame["t"] == name:
                return dict(frame["d"])


# ---- rate limits ---------------------------------------------------------------------


async def test_a_channel_takes_five_messages_in_five_seconds_with_discords_headers(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    remaining, buckets = [], set()
    for number in range(5):
        status, _, headers = await call(
            http, fake, "POST", messages(fake), {"content": f"{number}"}
        )
        assert status == 200
        assert headers["X-RateLimit-Limit"] == "5"
        assert 4.0 < float(headers["X-RateLimit-Reset-After"]) <= 5.0
        assert float(headers["X-RateLimit-Reset"]) > time.time()
        remaining.append(headers["X-RateLimit-Remaining"])
        buckets.add(headers["X-RateLimit-Bucket"])
    assert remaining == ["4", "3", "2", "1", "0"] and len(buckets) == 1

    status, body, headers = await call(http, fake, "POST", messages(fake), {"content": "6"})
    assert status == 429
    assert body["message"] == "You are being rate limited." and body["global"] is False
    assert 0 < body["retry_after"] <= 5
    assert headers["X-RateLimit-Scope"] == "user"
    assert headers["X-RateLimit-Remaining"] == "0"
    assert int(headers["Retry-After"]) >= body["retry_after"]
    assert headers["Via"]  # without it discord.py takes a 429 for Cloudflare's ban
    assert [m.content for m in fake.channel_messages()] == ["0", "1", "2", "3", "4"]

    # Another channel has a bucket of its own; an edit is another route's bucket.
    other = await fake.add_channel("second")
    status, _, headers = await call(http, fake, "POST", messages(fake, other.id), {"content": "a"})
    assert (status, headers["X-RateLimit-Remaining"]) == (200, "4")
    first = fake.channel_messages()[0]
    status, _, edit = await call(
        http, fake, "PATCH", f"{messages(fake)}/{first.id}", {"content": "b"}
    )
    assert status == 200 and edit["X-RateLimit-Bucket"] not in buckets

    # The 429 the bot drew is a problem for the test, and one invalid request.
    with pytest.raises(AssertionError, match="429 0 You are being rate limited"):
        fake.check()
    assert [r.status for r in fake.invalid_requests] == [429]
    assert [r.status for r in fake.take_rejections()] == [429]


async def test_the_global_limit_counts_bot_token_routes_and_not_interaction_endpoints(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    now = [1000.0]
    fake.rate_limits = RateLimits(clock=lambda: now[0])  # a second that does not pass
    for _ in range(50):
        assert (await call(http, fake, "GET", "/users/@me"))[0] == 200
    status, body, headers = await call(http, fake, "GET", f"/channels/{fake.channel.id}")
    assert status == 429 and body["global"] is True
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert "X-RateLimit-Bucket" not in headers

    # The interaction endpoints are not counted: their handlers still answer (here that
    # the interaction is unknown, as it is), where a bot-token route gets a 429.
    callback = "/interactions/123/token/callback"
    status, body, _ = await call(
        http, fake, "POST", callback, {"type": 4, "data": {"content": "x"}}
    )
    assert (status, body["code"]) == (404, 10062)
    hook = f"/webhooks/{fake.application_id}/token/messages/@original"
    status, body, _ = await call(http, fake, "PATCH", hook, {"content": "x"})
    assert (status, body["code"]) == (404, 10015)  # a token never issued: Unknown Webhook
    assert (await call(http, fake, "GET", "/users/@me"))[0] == 429

    now[0] += 1.0  # the next second
    assert (await call(http, fake, "GET", "/users/@me"))[0] == 200
    fake.take_rejections()


def test_buckets_are_kept_per_major_parameter_and_reset_after_their_window() -> None:
    now = [0.0]
    limits = RateLimits(clock=lambda: now[0], wall=lambda: 1_700_000_000.0)
    route = "/channels/{channel_id}/messages/{message_id}"
    for message in range(5):  # editing any message of a channel spends the channel's bucket
        verdict = limits.take("PATCH", route, {"channel_id": "1", "message_id": str(message)},
                              global_limit=True)  # fmt: skip
        assert verdict.refused is None
    refused = limits.take("PATCH", route, {"channel_id": "1", "message_id": "9"}, global_limit=True)
    assert refused.refused is not None and refused.refused.retry_after == 5.0
    assert refused.headers["X-RateLimit-Reset"] == "1700000005.000"
    other = limits.take("PATCH", route, {"channel_id": "2", "message_id": "9"}, global_limit=True)
    assert other.refused is None
    now[0] = 5.0
    again = limits.take("PATCH", route, {"channel_id": "1", "message_id": "9"}, global_limit=True)
    assert again.refused is None and again.headers["X-RateLimit-Remaining"] == "4"
    # Follow-ups: 5 per 2 s per interaction (its token), no global limit.
    hook = "/webhooks/{webhook_id}/{webhook_token}"
    for _ in range(5):
        assert limits.take("POST", hook, {"webhook_id": "7", "webhook_token": "a"},
                           global_limit=False).refused is None  # fmt: skip
    assert limits.take("POST", hook, {"webhook_id": "7", "webhook_token": "a"},
                       global_limit=False).refused is not None  # fmt: skip
    assert limits.take("POST", hook, {"webhook_id": "7", "webhook_token": "b"},
                       global_limit=False).refused is None  # fmt: skip


async def test_an_injected_burst_of_429s_is_counted_but_not_a_rejection(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake.inject_rate_limit("POST", r"^/channels/\d+/messages$", times=2, retry_after=0.25)
    for _ in range(2):
        status, body, headers = await call(http, fake, "POST", messages(fake), {"content": "x"})
        assert status == 429 and body == {
            "message": "You are being rate limited.",
            "retry_after": 0.25,
            "global": False,
        }
        assert headers["Retry-After"] == "1" and headers["Via"]
        assert headers["X-RateLimit-Remaining"] == "0" and headers["X-RateLimit-Scope"] == "user"
    assert (await call(http, fake, "POST", messages(fake), {"content": "x"}))[0] == 200
    assert [(r.status, r.injected) for r in fake.invalid_requests] == [(429, True)] * 2
    fake.check()  # deliberate, so no problem


# ---- the invalid-request count -----------------------------------------------------


async def test_every_401_403_and_429_is_counted_as_discord_counts_them(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    assert (await call(http, fake, "POST", messages(fake), {"content": "x"}, token="no"))[0] == 401
    await fake.deny(PERM_SEND_MESSAGES)
    assert (await call(http, fake, "POST", messages(fake), {"content": "x"}))[0] == 403
    assert (await call(http, fake, "POST", messages(fake), {"content": ""}))[0] == 403
    await fake.grant(PERM_SEND_MESSAGES)
    assert (await call(http, fake, "POST", messages(fake), {"content": " "}))[0] == 400
    assert (await call(http, fake, "GET", "/channels/1"))[0] == 404
    fake.inject_rate_limit("GET", "^/users/@me$", scope="shared")
    assert (await call(http, fake, "GET", "/users/@me"))[0] == 429  # shared: not counted
    counted = fake.invalid_requests_within(600)
    assert [r.status for r in counted] == [401, 403, 403]
    assert fake.invalid_requests_within(0) == []
    fake.take_rejections()


# ---- permissions ---------------------------------------------------------------------


async def test_missing_access_without_view_channel_and_missing_permissions_otherwise(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake.realism = dataclasses.replace(fake.realism, rate_limits=False)  # many posts here
    path = messages(fake)
    await fake.deny(PERM_VIEW_CHANNEL, target="everyone")
    assert fake.app_permissions_in(fake.channel.id) & PERM_VIEW_CHANNEL == 0
    for method, route in (("POST", path), ("GET", path), ("GET", f"/channels/{fake.channel.id}")):
        status, body, _ = await call(http, fake, method, route, {"content": "x"})
        assert (status, body["code"], body["message"]) == (403, 50001, "Missing Access"), route
    # The bot's role allows it back: a role's overwrite beats @everyone's.
    await fake.grant(PERM_VIEW_CHANNEL, target="bot_role")
    assert (await call(http, fake, "GET", path))[0] == 200

    await fake.deny(PERM_SEND_MESSAGES, target="bot_role")
    status, body, _ = await call(http, fake, "POST", path, {"content": "x"})
    assert (status, body["code"], body["message"]) == (403, 50013, "Missing Permissions")
    # ...and the bot's own member overwrite beats its roles'.
    await fake.grant(PERM_SEND_MESSAGES, target="bot")
    assert (await call(http, fake, "POST", path, {"content": "x"}))[0] == 200

    await fake.deny(PERM_EMBED_LINKS)
    status, body, _ = await call(http, fake, "POST", path, {"embeds": [{"title": "t"}]})
    assert (status, body["code"]) == (403, 50013)
    assert (await call(http, fake, "POST", path, {"content": "no embed"}))[0] == 200

    await fake.deny(PERM_ATTACH_FILES)
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "a file"}))
    form.add_field("files[0]", b"abc", filename="scores.txt", content_type="text/plain")
    status, body, _ = await call(http, fake, "POST", path, form=form)
    assert (status, body["code"]) == (403, 50013)
    # In another channel nothing is denied.
    other = await fake.add_channel("second")
    assert (await call(http, fake, "POST", messages(fake, other.id), {"content": "x"}))[0] == 200
    assert [r.code for r in fake.take_rejections()] == [50001, 50001, 50001, 50013, 50013, 50013]


async def test_without_send_messages_a_channel_takes_no_embeds_or_files_either() -> None:
    from bot.devserver.standin.permissions import Overwrite, channel_permissions

    everyone, bot_role, bot = 1, 2, 3
    base = PERM_VIEW_CHANNEL | PERM_SEND_MESSAGES | PERM_EMBED_LINKS | PERM_ATTACH_FILES
    deny_send = [Overwrite(everyone, 0, deny=PERM_SEND_MESSAGES)]
    have = channel_permissions(
        base, member_id=bot, roles=[bot_role], everyone_id=everyone, overwrites=deny_send
    )
    assert have == PERM_VIEW_CHANNEL  # Discord's implicit permissions
    in_thread = channel_permissions(
        base, member_id=bot, roles=[bot_role], everyone_id=everyone, overwrites=deny_send,
        thread=True,
    )  # fmt: skip
    assert in_thread & PERM_EMBED_LINKS


async def test_the_bot_sees_a_permission_change_as_discord_shows_it(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    bot = await RawBot.connect(http, fake)
    command = {"name": "hello", "description": "Say hello", "type": 1}
    put = f"/applications/{fake.application_id}/commands"
    assert (await call(http, fake, "PUT", put, [command]))[0] == 200

    before = await fake.send_command("alice", "hello", wait=False)
    payload = await bot.event("INTERACTION_CREATE")
    assert payload["id"] == str(before.id)
    allowed = int(payload["app_permissions"])
    assert allowed & PERM_SEND_MESSAGES and allowed & PERM_VIEW_CHANNEL

    await fake.deny(PERM_SEND_MESSAGES | PERM_EMBED_LINKS)
    update = await bot.event("CHANNEL_UPDATE")
    assert update["id"] == str(fake.channel.id)
    assert update["permission_overwrites"] == [
        {
            "id": str(fake.bot_role_id),
            "type": 0,
            "allow": "0",
            "deny": str(PERM_SEND_MESSAGES | PERM_EMBED_LINKS),
        }
    ]
    await fake.send_command("alice", "hello", wait=False)
    payload = await bot.event("INTERACTION_CREATE")
    now = int(payload["app_permissions"])
    assert now == allowed & ~(PERM_SEND_MESSAGES | PERM_EMBED_LINKS | PERM_ATTACH_FILES)
    assert payload["member"]["permissions"] != payload["app_permissions"]  # alice is owner

    await fake.set_role_permissions("bot_role", 0)
    role = await bot.event("GUILD_ROLE_UPDATE")
    assert role["role"]["id"] == str(fake.bot_role_id) and role["role"]["permissions"] == "0"
    await bot.ws.close()
    fake.interactions.clear()  # never answered: there is no bot behind the socket


# ---- application emojis ------------------------------------------------------------


def button_with_emoji(emoji_id: Any) -> dict[str, Any]:
    button = {"type": 2, "style": 1, "custom_id": "roll", "emoji": {"id": emoji_id, "name": "d"}}
    return {"content": "x", "components": [{"type": 1, "components": [button]}]}


async def test_a_component_emoji_must_be_one_of_the_applications_own(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    status, body, _ = await call(http, fake, "POST", messages(fake), button_with_emoji("12345"))
    assert (status, body["code"], body["message"]) == (400, 50035, "Invalid Form Body")
    path = ("components", 0, "components", 0, "emoji", "id")
    assert await error_at(body, *path) == "BUTTON_COMPONENT_INVALID_EMOJI"

    emojis = f"/applications/{fake.application_id}/emojis"
    status, emoji, _ = await call(http, fake, "POST", emojis, {"name": "die_1", "image": PNG})
    assert status == 200
    assert (await call(http, fake, "POST", messages(fake), button_with_emoji(emoji["id"])))[
        0
    ] == 200

    # Deleted in the developer portal: the bot is not told, and its next use is refused.
    fake.delete_app_emoji("die_1")
    status, body, _ = await call(http, fake, "POST", messages(fake), button_with_emoji(emoji["id"]))
    assert status == 400 and await error_at(body, *path) == "BUTTON_COMPONENT_INVALID_EMOJI"
    assert [r.code for r in fake.take_rejections()] == [50035, 50035]


async def test_without_the_behaviour_any_emoji_id_goes(http: aiohttp.ClientSession) -> None:
    ideal = await started(Realism())
    try:
        assert (await call(http, ideal, "POST", messages(ideal), button_with_emoji("1")))[0] == 200
    finally:
        await ideal.close()


# ---- the OpenAPI spec ----------------------------------------------------------------


async def test_a_body_the_spec_refuses_is_a_400_with_its_path_and_recorded(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    # Discord's own rules in the stand-in do not look at tts or allowed_mentions; the
    # spec does.
    body = {"content": "x", "tts": "yes", "allowed_mentions": {"parse": ["nobody"]}}
    status, answer, _ = await call(http, fake, "POST", messages(fake), body)
    assert (status, answer["code"]) == (400, 50035)
    assert await error_at(answer, "tts") == "BASE_TYPE_BOOLEAN"
    assert await error_at(answer, "allowed_mentions", "parse", 0) == "BASE_TYPE_CHOICES"
    (rejection,) = fake.take_rejections(50035)
    assert rejection.detail is not None and rejection.detail.startswith("OpenAPI spec: ")
    assert "allowed_mentions.parse.0" in rejection.detail
    assert rejection.request_body == body
    assert fake.channel_messages() == []


async def test_the_spec_takes_integer_snowflakes_as_discord_does(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    status, first, _ = await call(http, fake, "POST", messages(fake), {"content": "first"})
    assert status == 200
    reply = {"content": "reply", "message_reference": {"message_id": int(first["id"])}}
    assert (await call(http, fake, "POST", messages(fake), reply))[0] == 200
    bad = {"content": "reply", "message_reference": {"message_id": "first"}}
    status, answer, _ = await call(http, fake, "POST", messages(fake), bad)
    assert status == 400
    assert await error_at(answer, "message_reference", "message_id") == "NUMBER_TYPE_COERCE"
    fake.take_rejections(50035)


async def test_a_sampled_spec_check_sees_each_routes_first_bodies_then_one_in_n(
    http: aiohttp.ClientSession,
) -> None:
    sampled = await started(Realism(openapi=True, openapi_every=3))
    try:
        refused = {"content": "x", "tts": "yes"}  # only the spec looks at tts
        firsts = [(await call(http, sampled, "POST", messages(sampled), refused))[0]]
        for _ in range(OPENAPI_FIRST - 1):
            firsts.append(
                (await call(http, sampled, "POST", messages(sampled), {"content": "ok"}))[0]
            )
        later = [
            (await call(http, sampled, "POST", messages(sampled), refused))[0] for _ in range(6)
        ]
        assert firsts == [400] + [200] * (OPENAPI_FIRST - 1)
        # Bodies 21 to 26 of the route: the 21st and the 24th are checked.
        assert later == [400, 200, 200, 400, 200, 200]
        assert len(sampled.take_rejections(50035)) == 3
    finally:
        await sampled.close()


def test_the_spec_points_into_the_component_of_a_callback() -> None:
    spec = SpecValidator()
    route = "/interactions/{interaction_id}/{interaction_token}/callback"
    button = {"type": 2, "style": 1, "custom_id": "x", "label": "l" * 81}
    body = {"type": 7, "data": {"components": [{"type": 1, "components": [button]}]}}
    (error,) = spec.errors("POST", route, body)
    assert error.path == ("data", "components", 0, "components", 0, "label")
    assert (error.code, error.message) == ("BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.")
    (wrong,) = spec.errors("POST", route, {"type": 99})
    assert (wrong.path, wrong.code) == (("type",), "BASE_TYPE_CHOICES")
    assert spec.errors("POST", route, {"type": [4]})  # refused, not a crash
    flags = {"type": 4, "data": {"content": "x", "flags": INTERACTION_MESSAGE_FLAGS}}
    assert spec.errors("POST", route, flags) == []
    assert spec.errors("GET", "/users/@me", None) == []  # no body in the spec


# ---- latency -------------------------------------------------------------------------


async def test_latency_delays_every_answer_and_every_gateway_frame(
    http: aiohttp.ClientSession,
) -> None:
    slow = await started(Realism(latency=Latency(round_trip=0.2, jitter=0.0)))
    try:
        began = time.perf_counter()
        assert (await call(http, slow, "GET", "/users/@me"))[0] == 200
        assert time.perf_counter() - began >= 0.2
        began = time.perf_counter()
        async with http.ws_connect(slow.gateway_url + "?v=10&encoding=json") as ws:
            hello = await asyncio.wait_for(ws.receive_json(), 5)
            assert hello["op"] == 10 and time.perf_counter() - began >= 0.1
            began = time.perf_counter()
            await ws.send_json({"op": 1, "d": None})
            assert (await asyncio.wait_for(ws.receive_json(), 5))["op"] == 11
            assert time.perf_counter() - began >= 0.1
    finally:
        await slow.close()


# ---- application commands as Discord answers them ------------------------------------


async def test_commands_are_listed_without_localizations_unless_asked(
    http: aiohttp.ClientSession,
) -> None:
    fake = await started(Realism(), guilds=2)
    try:
        command = {
            "name": "hello",
            "description": "Say hello",
            "name_localizations": {"fr": "bonjour"},
            "options": [
                {"type": 3, "name": "who", "description": "Who",
                 "description_localizations": {"fr": "Qui"}},
            ],
        }  # fmt: skip
        second_guild = fake.guild_ids[1]
        route = f"/applications/{fake.application_id}/guilds/{second_guild}/commands"
        status, stored, _ = await call(http, fake, "PUT", route, [command])
        assert status == 200 and stored[0]["name_localizations"] == {"fr": "bonjour"}
        assert stored[0]["guild_id"] == str(second_guild)

        status, listed, _ = await call(http, fake, "GET", route)
        assert status == 200 and [c["id"] for c in listed] == [stored[0]["id"]]
        assert "name_localizations" not in listed[0]
        assert "description_localizations" not in listed[0]["options"][0]
        status, full, _ = await call(http, fake, "GET", route + "?with_localizations=true")
        assert full[0]["options"][0]["description_localizations"] == {"fr": "Qui"}

        unknown = f"/applications/{fake.application_id}/guilds/42/commands"
        status, body, _ = await call(http, fake, "GET", unknown)
        assert (status, body["code"]) == (403, 50001)
        assert (await call(http, fake, "DELETE", f"{route}/{stored[0]['id']}"))[0] == 204
        assert (await call(http, fake, "GET", route))[1] == []
        assert (await call(http, fake, "GET", f"/applications/{fake.application_id}/commands"))[
            1
        ] == []
        fake.take_rejections(50001)
        fake.check()
    finally:
        await fake.close()


# ---- make play's options -------------------------------------------------------------


def test_make_play_real_discord_has_every_behaviour_but_those_it_leaves_out() -> None:
    from bot.devserver import play

    assert play.realism(play.parse_args([])) == Realism()
    assert play.realism(play.parse_args(["--real-discord"])) == Realism.discord()
    some = play.realism(
        play.parse_args(["--real-discord", "--without", "latency", "--without", "rate_limits"])
    )
    assert some == Realism(permissions=True, app_emojis=True, openapi=True)
    with pytest.raises(SystemExit):
        play.parse_args(["--without", "openapi"])  # nothing to leave out of the ideal one
