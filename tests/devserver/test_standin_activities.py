"""The stand-in's side of an Activity (bot/devserver/standin/activity_routes.py): Entry
Point commands and their rules, the LAUNCH_ACTIVITY answer and the instances it opens,
the activity-instances route against Discord's OpenAPI spec, and OAuth2's code grant
with `/users/@me` for a person's token; driven by raw requests and a raw gateway client,
and once by discord.py itself. No bot process, nothing beyond 127.0.0.1."""

from __future__ import annotations

import asyncio
import base64
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from bot.devserver.standin import FakeDiscord, Realism, running_client
from bot.devserver.standin.oauth import CODE_SECONDS
from bot.devserver.standin.openapi import SpecValidator
from tests.devserver.test_realism import RawBot, call, error_at

GLOBAL = "/applications/{app}/commands"
OURS = {
    "type": 4,
    "handler": 1,
    "name": "table",
    "description": "Play at the table",
    "integration_types": [0, 1],
    "contexts": [0, 1, 2],
}
CHAT = {"type": 1, "name": "hello", "description": "Say hello"}


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """Activities enabled, every behaviour of Discord but latency; afterwards, no problem
    left that the test did not take."""
    stand_in = await FakeDiscord(realism=Realism.discord(latency=None), activities=True).start()
    yield stand_in
    await stand_in.close()
    stand_in.check()


def commands_route(fake: FakeDiscord, guild_id: int | None = None) -> str:
    base = f"/applications/{fake.application_id}"
    return f"{base}/guilds/{guild_id}/commands" if guild_id else f"{base}/commands"


def instance_route(fake: FakeDiscord, instance_id: str) -> str:
    return f"/applications/{fake.application_id}/activity-instances/{instance_id}"


def spec_errors(schema: str, body: Any) -> list[str]:
    return [f"{e.path}: {e.rule}" for e in SpecValidator().schema_errors(schema, body)]


# ---- Entry Point commands ------------------------------------------------------------


async def test_enabling_activities_makes_the_portals_entry_point_and_the_embedded_flag(
    http: aiohttp.ClientSession,
) -> None:
    fake = await FakeDiscord().start()
    try:
        _, application, _ = await call(http, fake, "GET", "/oauth2/applications/@me")
        assert not application["flags"] & (1 << 17)
        assert fake.entry_point() is None
        fake.enable_activities()
        _, application, _ = await call(http, fake, "GET", "/oauth2/applications/@me")
        assert application["flags"] & (1 << 17)  # EMBEDDED
        entry = fake.entry_point()
        assert entry is not None
        assert (entry["name"], entry["type"], entry["handler"]) == ("launch", 4, 2)
    finally:
        await fake.close()


async def test_ours_replaces_the_portals_entry_point_and_a_put_without_one_is_refused(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    route = commands_route(fake)
    status, stored, _ = await call(http, fake, "PUT", route, [CHAT, OURS])
    assert status == 200
    assert [(c["name"], c.get("handler")) for c in stored] == [("hello", None), ("table", 1)]
    status, body, _ = await call(http, fake, "PUT", route, [CHAT])
    assert status == 400 and body["code"] == 50240
    assert "Entry Point" in body["message"]
    assert [r.code for r in fake.take_rejections()] == [50240]
    assert fake.entry_point()["name"] == "table"  # refused whole: nothing changed
    # Sent back as Discord answered it (id and all), it is kept: the table off.
    theirs = fake.entry_point()
    kept = {k: theirs[k] for k in ("id", "type", "name", "description", "handler", "contexts")}
    assert (await call(http, fake, "PUT", route, [CHAT, kept]))[0] == 200
    assert fake.entry_point()["id"] == theirs["id"]


@pytest.mark.parametrize(
    ("commands", "where", "code"),
    [
        (
            [OURS, {**OURS, "name": "other"}],
            (),
            "APPLICATION_COMMANDS_PRIMARY_ENTRY_POINT_DUPLICATE",
        ),
        ([{**CHAT, "handler": 1}], (0, "handler"), "APPLICATION_COMMAND_HANDLER_INVALID"),
        ([{**OURS, "handler": 3}], (0, "handler"), "BASE_TYPE_CHOICES"),
        ([{**OURS, "options": [CHAT]}], (0, "options"), "APPLICATION_COMMAND_OPTIONS_INVALID"),
    ],
)
async def test_entry_point_rules(
    fake: FakeDiscord, http: aiohttp.ClientSession, commands: Any, where: Any, code: str
) -> None:
    status, body, _ = await call(http, fake, "PUT", commands_route(fake), commands)
    assert status == 400 and body["code"] == 50035
    if where:
        assert await error_at(body, *where) == code
    else:
        assert body["errors"]["_errors"][0]["code"] == code
    fake.take_rejections()


async def test_an_entry_point_is_global_only(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    route = commands_route(fake, fake.guild_id)
    status, body, _ = await call(http, fake, "PUT", route, [OURS])
    assert status == 400
    assert await error_at(body, 0, "type") == "APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_GUILD"
    status, body, _ = await call(http, fake, "POST", route, OURS)
    assert status == 400
    assert await error_at(body, "type") == "APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_GUILD"
    # Nor a second one beside the portal's, one at a time.
    status, body, _ = await call(http, fake, "POST", commands_route(fake), OURS)
    assert status == 400 and "DUPLICATE" in json.dumps(body)
    assert len(fake.take_rejections()) == 3


async def test_without_activities_no_entry_point_and_no_launch(http: aiohttp.ClientSession) -> None:
    fake = await FakeDiscord().start()
    try:
        status, body, _ = await call(http, fake, "PUT", commands_route(fake), [CHAT, OURS])
        assert status == 400
        assert "NOT_EMBEDDED" in await error_at(body, 1, "type")
        bot = await RawBot.connect(http, fake)
        assert (await call(http, fake, "PUT", commands_route(fake), [CHAT]))[0] == 200
        used = await fake.send_command("alice", "hello", wait=False)
        await bot.event("INTERACTION_CREATE")
        status, _ = await answer(http, fake, used.id, used.token, {"type": 12})
        assert status == 400
        assert "Activities are not enabled" in (fake.rejections[-1].detail or "")
        assert len(fake.take_rejections()) == 2
        await bot.ws.close()
    finally:
        await fake.close()


# ---- LAUNCH_ACTIVITY and the instances ---------------------------------------------


async def answer(
    http: aiohttp.ClientSession, fake: FakeDiscord, interaction_id: int, token: str, body: Any
) -> tuple[int, Any]:
    url = f"{fake.api_base}/interactions/{interaction_id}/{token}/callback?with_response=true"
    async with http.post(url, json=body) as response:
        text = await response.text()
        return response.status, json.loads(text) if text else None


async def posted_lobby(fake: FakeDiscord, http: aiohttp.ClientSession) -> int:
    """A message with one button, as the bot's lobby would be."""
    button = {"type": 2, "style": 2, "label": "Open the table", "custom_id": "pko:table:1:0"}
    body = {"content": "lobby", "components": [{"type": 1, "components": [button]}]}
    status, message, _ = await call(
        http, fake, "POST", f"/channels/{fake.channel.id}/messages", body
    )
    assert status == 200
    return int(message["id"])


async def test_a_click_answered_with_launch_activity_opens_the_channels_instance(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    bot = await RawBot.connect(http, fake)
    message = await posted_lobby(fake, http)
    opened: list[str] = []
    for person in ("alice", "bob"):
        click = await fake.click(person, message, "pko:table:1:0", wait=False)
        await bot.event("INTERACTION_CREATE")
        status, body = await answer(http, fake, click.id, click.token, {"type": 12})
        assert status == 200
        assert spec_errors("InteractionCallbackResponse", body) == []
        instance_id = body["resource"]["activity_instance"]["id"]
        assert body["resource"]["type"] == 12
        assert body["interaction"]["activity_instance_id"] == instance_id
        assert click.activity_instance_id == instance_id and click.response_type == 12
        assert click.message is None  # no message made or edited
        opened.append(instance_id)
    assert opened[0] == opened[1]  # bob joined alice's
    launch = re.fullmatch(rf"i-(\d+)-gc-{fake.guild_id}-{fake.channel.id}", opened[0])
    assert launch is not None

    status, instance, _ = await call(http, fake, "GET", instance_route(fake, opened[0]))
    assert status == 200
    assert spec_errors("EmbeddedActivityInstance", instance) == []
    assert instance == {
        "application_id": str(fake.application_id),
        "instance_id": opened[0],
        "launch_id": launch.group(1),
        "location": {
            "id": f"gc-{fake.guild_id}-{fake.channel.id}",
            "kind": "gc",
            "channel_id": str(fake.channel.id),
            "guild_id": str(fake.guild_id),
        },
        "users": [str(fake.user("alice").id), str(fake.user("bob").id)],
    }
    await bot.ws.close()


async def test_launch_activity_is_an_answer_to_commands_and_components_only(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    bot = await RawBot.connect(http, fake)
    assert (await call(http, fake, "PUT", commands_route(fake), [CHAT, OURS]))[0] == 200
    used = await fake.send_command("alice", "hello", wait=False)
    await bot.event("INTERACTION_CREATE")
    status, body = await answer(http, fake, used.id, used.token, {"type": 12})
    assert status == 200 and body["resource"]["activity_instance"]["id"]
    # Answered once: a second answer is refused as any would be.
    status, body = await answer(http, fake, used.id, used.token, {"type": 12})
    assert status == 400 and body["code"] == 40060
    assert [r.code for r in fake.take_rejections()] == [40060]
    await bot.ws.close()


async def test_a_launch_the_spec_refuses_is_refused_as_any_answer_and_opens_nothing(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """The table's REST bodies are checked against the OpenAPI spec as every other
    route's (Realism.openapi): a LAUNCH_ACTIVITY answer, an Entry Point's sync."""
    bot = await RawBot.connect(http, fake)
    message = await posted_lobby(fake, http)
    click = await fake.click("alice", message, "pko:table:1:0", wait=False)
    await bot.event("INTERACTION_CREATE")
    status, body = await answer(http, fake, click.id, click.token, {"type": "12"})
    assert status == 400 and body["code"] == 50035
    assert "OpenAPI spec: type: enum" in (fake.rejections[-1].detail or "")
    assert click.activity_instance_id is None
    assert fake.activity_instances.in_channel(fake.channel.id) is None
    status, body, _ = await call(
        http, fake, "PUT", commands_route(fake), [{**OURS, "handler": "2"}]
    )
    assert status == 400 and body["code"] == 50035
    assert "OpenAPI spec: 0.handler" in (fake.rejections[-1].detail or "")
    # The click can still be answered well: nothing was taken as an answer.
    status, body = await answer(http, fake, click.id, click.token, {"type": 12})
    assert status == 200 and click.activity_instance_id is not None
    assert len(fake.take_rejections()) == 2
    await bot.ws.close()


async def test_the_entry_points_use_comes_to_the_bot_or_launches_by_itself(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    bot = await RawBot.connect(http, fake)
    # The portal's default: Discord launches, the bot hears nothing.
    assert await fake.use_entry_point("carol") is None
    (instance,) = fake.activity_instances.by_id.values()
    assert instance.users == [fake.user("carol").id]
    # Ours (the application's handler): the interaction Discord sends for it.
    assert (await call(http, fake, "PUT", commands_route(fake), [CHAT, OURS]))[0] == 200
    used = await fake.use_entry_point("alice", wait=False)
    assert used is not None
    payload = await bot.event("INTERACTION_CREATE")
    entry = fake.entry_point()
    assert payload["type"] == 2
    assert payload["data"] == {"id": entry["id"], "name": "table", "type": 4}
    status, body = await answer(http, fake, used.id, used.token, {"type": 12})
    assert status == 200
    assert body["resource"]["activity_instance"]["id"] == instance.instance_id
    await bot.ws.close()


async def test_people_leave_and_the_last_one_out_ends_the_instance(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    first = fake.launch("alice")
    assert fake.launch("bob") == first
    route = instance_route(fake, first)
    fake.leave_activity("alice", first)
    _, instance, _ = await call(http, fake, "GET", route)
    assert instance["users"] == [str(fake.user("bob").id)]
    fake.leave_activity("bob", first)
    status, body, _ = await call(http, fake, "GET", route)
    assert (status, body) == (404, {"message": "404: Not Found", "code": 0})
    again = fake.launch("alice")  # a new launch there: a new instance
    assert again != first and fake.activity_instance(again) is not None
    fake.end_activity(again)
    assert fake.activity_instance(again) is None
    assert (await call(http, fake, "GET", instance_route(fake, again)))[0] == 404
    assert (await call(http, fake, "GET", instance_route(fake, "i-1-gc-2-3")))[0] == 404
    assert (await call(http, fake, "GET", route, token="not-the-bot"))[0] == 401
    assert [r.status for r in fake.take_rejections()] == [404, 404, 404, 401]


async def test_outside_servers_the_instance_is_the_private_channels(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    group = await fake.add_group_dm("friends", ["alice", "bob"])
    instance_id = fake.launch("bob", group.id)
    assert re.fullmatch(rf"i-\d+-pc-{group.id}", instance_id)
    _, instance, _ = await call(http, fake, "GET", instance_route(fake, instance_id))
    assert spec_errors("EmbeddedActivityInstance", instance) == []
    assert instance["location"] == {
        "id": f"pc-{group.id}",
        "kind": "pc",
        "channel_id": str(group.id),
    }
    with pytest.raises(PermissionError):
        fake.launch("carol", group.id)  # not in that group DM


async def test_discord_py_launches_and_reads_the_instance_it_opened(fake: FakeDiscord) -> None:
    launched: list[discord.InteractionCallbackResponse[Any]] = []

    class Launcher(discord.Client):
        async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
            launched.append(await interaction.response.launch_activity())

    client = Launcher(intents=discord.Intents.none())
    async with running_client(fake, client):
        status_message = await client.http.send_message(
            fake.channel.id,
            params=discord.http.handle_message_parameters(
                content="lobby",
                view=_one_button_view(),
            ),
        )
        click = await fake.click("dave", int(status_message["id"]), "pko:table:1:0")
        assert click.response_type == 12
    (response,) = launched
    assert response.type is discord.InteractionResponseType.launch_activity
    assert isinstance(response.resource, discord.InteractionCallbackActivityInstance)
    assert response.resource.id == click.activity_instance_id


def _one_button_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Open the table", custom_id="pko:table:1:0"))
    return view


# ---- OAuth2: the code grant and /users/@me -----------------------------------------


async def exchange(
    http: aiohttp.ClientSession, fake: FakeDiscord, code: str, changes: dict[str, str] | None = None
) -> tuple[int, Any]:
    """The page's server trading `code`, with the form's fields `changes` changed."""
    form = {
        "client_id": str(fake.application_id),
        "client_secret": fake.client_secret,
        "grant_type": "authorization_code",
        "code": code,
    } | (changes or {})
    async with http.post(f"{fake.api_base}/oauth2/token", data=form) as response:
        return response.status, await response.json()


async def me(http: aiohttp.ClientSession, fake: FakeDiscord, token: str) -> tuple[int, Any]:
    async with http.get(
        f"{fake.api_base}/users/@me", headers={"Authorization": f"Bearer {token}"}
    ) as response:
        return response.status, await response.json()


async def test_a_code_is_traded_once_for_a_token_that_says_who_the_person_is(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    code = fake.mint_code("bob")
    status, token = await exchange(http, fake, code)
    assert status == 200
    assert token["token_type"] == "Bearer" and token["scope"] == "identify"
    assert token["expires_in"] == 604_800 and token["refresh_token"]
    status, person = await me(http, fake, token["access_token"])
    assert status == 200
    assert (person["id"], person["username"], person["global_name"]) == (
        str(fake.user("bob").id),
        "bob",
        "Bob",
    )
    assert person["locale"] == "en-US"
    # The same code again: refused, RFC 6749's way.
    status, body = await exchange(http, fake, code)
    assert (status, body["error"]) == (400, "invalid_grant")
    assert [r.status for r in fake.take_rejections()] == [400]


@pytest.mark.parametrize(
    ("changes", "status", "error"),
    [
        ({"client_secret": "guessed"}, 401, "invalid_client"),
        ({"client_id": "1"}, 401, "invalid_client"),
        ({"client_secret": ""}, 401, "invalid_client"),
        ({"grant_type": "client_credentials"}, 400, "unsupported_grant_type"),
        ({"grant_type": ""}, 400, "invalid_request"),
        ({"code": ""}, 400, "invalid_request"),
        ({"code": "made-up"}, 400, "invalid_grant"),
    ],
)
async def test_a_refused_exchange(
    fake: FakeDiscord,
    http: aiohttp.ClientSession,
    changes: dict[str, str],
    status: int,
    error: str,
) -> None:
    code = fake.mint_code("alice")
    answered, body = await exchange(http, fake, code, changes)
    assert (answered, body["error"]) == (status, error)
    assert body["error_description"]
    fake.take_rejections()


async def test_the_client_may_authenticate_with_http_basic(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    pair = base64.b64encode(f"{fake.application_id}:{fake.client_secret}".encode()).decode()
    form = {"grant_type": "authorization_code", "code": fake.mint_code("carol")}
    async with http.post(
        f"{fake.api_base}/oauth2/token", data=form, headers={"Authorization": f"Basic {pair}"}
    ) as response:
        assert response.status == 200
        assert (await response.json())["access_token"]


async def test_a_json_body_and_an_old_code_are_refused(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    async with http.post(f"{fake.api_base}/oauth2/token", json={"code": "x"}) as response:
        assert response.status == 400
        assert (await response.json())["error"] == "invalid_request"
    now = [0.0]
    fake.oauth.clock = lambda: now[0]
    code = fake.mint_code("alice")
    now[0] += CODE_SECONDS + 1
    assert (await exchange(http, fake, code))[1]["error"] == "invalid_grant"
    assert len(fake.take_rejections()) == 2


async def test_users_me_refuses_a_made_up_token_and_answers_the_bot_as_ever(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    status, body = await me(http, fake, "made-up")
    assert (status, body["message"]) == (401, "401: Unauthorized")
    status, body = await me(http, fake, fake.token)  # the bot's token is no Bearer
    assert status == 401
    code = fake.mint_code("alice", scopes=("guilds",))  # no identify: not allowed
    _, token = await exchange(http, fake, code)
    assert (await me(http, fake, token["access_token"]))[0] == 401
    status, bot_user, _ = await call(http, fake, "GET", "/users/@me")
    assert status == 200 and bot_user["bot"] is True
    assert [r.status for r in fake.take_rejections()] == [401, 401, 401]


async def test_errors_and_silence_can_be_injected_on_these_routes(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake.inject_error("POST", r"^/oauth2/token$", status=503)
    assert (await exchange(http, fake, fake.mint_code("alice")))[0] == 503
    instance_id = fake.launch("alice")
    fake.inject_error("GET", r"/activity-instances/", status=500)
    assert (await call(http, fake, "GET", instance_route(fake, instance_id)))[0] == 500
    held = fake.hold("POST", r"^/oauth2/token$")
    trade = asyncio.create_task(exchange(http, fake, fake.mint_code("alice")))
    await asyncio.wait_for(held.arrived.wait(), 5)
    await asyncio.sleep(0.1)
    assert not trade.done()  # no answer
    trade.cancel()
    held.drop()
