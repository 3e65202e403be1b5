"""The page's server side without a bot: what a tab is sent, and what it may not do.

A stand-in with the page routes, a message posted over REST as the bot would post it, and
WebSocket clients as tabs. Every bad request is refused to that tab only, changes
nothing, and leaves the server running; a saved world comes back in a new stand-in.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.devserver import world
from bot.devserver.names import NameRefused, display_name
from bot.devserver.page import MAX_FRAME, NAME_REFUSED, Page
from bot.devserver.standin import FakeDiscord


@pytest.fixture
async def table() -> AsyncIterator[tuple[FakeDiscord, Page, aiohttp.ClientSession]]:
    fake = FakeDiscord(players=(), channel_names=("dice-games",))
    page = Page(fake)
    await fake.start(setup=page.setup)
    async with aiohttp.ClientSession() as http:
        yield fake, page, http
    await page.close()
    await fake.close()


async def post(fake: FakeDiscord, http: aiohttp.ClientSession, body: dict[str, Any]) -> int:
    url = f"{fake.api_base}/channels/{fake.channel.id}/messages"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with http.post(url, json=body, headers=headers) as response:
        assert response.status == 200, await response.text()
        return int((await response.json())["id"])


async def frame(ws: aiohttp.ClientWebSocketResponse, op: str) -> dict[str, Any]:
    while True:
        message = await ws.receive(timeout=5)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        data = json.loads(message.data)
        if data["op"] == op:
            return data


async def tab(fake: FakeDiscord, http: aiohttp.ClientSession, name: str) -> Any:
    ws = await http.ws_connect(f"{fake.base_url}/play/ws")
    await ws.send_json({"op": "hello", "name": name})
    welcome = await frame(ws, "welcome")
    assert welcome["name"] == name
    return ws


BUTTON_ROW = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "x"}]}


async def test_a_tab_is_sent_the_channel_and_each_change(table: Any) -> None:
    fake, _, http = table
    first = await post(fake, http, {"content": "Hello <@1>", "components": [BUTTON_ROW]})
    ws = await tab(fake, http, "Anne")
    sync = await frame(ws, "sync")
    assert sync["order"] == [str(first)]
    assert 'data-custom-id="x"' in sync["upsert"][str(first)]
    assert sync["channels"] == [
        {
            "id": str(fake.channel.id),
            "name": "dice-games",
            "label": "#dice-games",
            "kind": "channel",
        }
    ]
    second = await post(fake, http, {"content": "again"})
    sync = await frame(ws, "sync")
    assert sync["order"] == [str(first), str(second)]
    assert list(sync["upsert"]) == [str(second)]  # the first one is not sent again
    await ws.close()


async def test_the_same_name_is_the_same_person_and_any_discord_name_sits_down(
    table: Any,
) -> None:
    fake, page, http = table
    assert page.person("Anne") is page.person(" anne ")
    assert page.person("Zoe\u0308") is page.person("zoë")  # decomposed or composed ë
    assert len(fake.users) == 2
    family = "👨\u200d👩\u200d👧"
    for name in ("🦄 Zoë ✨", "مرحبا", "<script>", "O'Brien-Smith (AFK) #1", "x", family):
        ws = await tab(fake, http, name)  # welcomed under that very name
        await ws.close()
    ws = await http.ws_connect(f"{fake.base_url}/play/ws")
    await ws.send_json({"op": "hello", "name": "  🦄   Zoë ✨ "})  # trimmed, as Discord does
    assert (await frame(ws, "welcome"))["name"] == "🦄 Zoë ✨"
    await ws.close()
    assert sum(u.display_name == "🦄 Zoë ✨" for u in fake.users.values()) == 1


@pytest.mark.parametrize(
    ("name", "says"),
    [
        (None, "at least one visible character"),  # never a member called "None"
        ("", "at least one visible character"),
        ("   ", "at least one visible character"),
        ("\u200d\u0301", "at least one visible character"),
        ("x" * 33, "That name has 33 characters; Discord allows at most 32."),
        ("🦄" * 33, "That name has 33 characters"),  # code points, not UTF-16 units
        ("Anne\u200bBob", "invisible character U+200B"),
        ("a\u202eb", "invisible character U+202E"),
        ("Everyone", "Discord keeps “Everyone” for itself"),
        ("Discord Mod", "“discord”"),
    ],
)
async def test_a_name_discord_would_refuse_is_refused_with_its_reason_and_the_socket_closed(
    table: Any, name: object, says: str
) -> None:
    fake, _, http = table
    ws = await http.ws_connect(f"{fake.base_url}/play/ws")
    await ws.send_json({"op": "hello", "name": name})
    refused = await frame(ws, "name_refused")
    assert says in refused["text"] and refused["name"] == name
    closing = await ws.receive(timeout=5)
    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert ws.close_code == NAME_REFUSED  # the page asks for a name: no reconnecting
    assert not fake.users


async def test_thirty_two_emoji_are_a_name() -> None:
    assert display_name("🦄" * 32) == "🦄" * 32
    with pytest.raises(NameRefused) as refused:
        display_name("🦄" * 33)
    assert refused.value.params == {"count": 33, "limit": 32}


@pytest.mark.parametrize(
    ("request_", "says"),
    [
        ({"op": "click", "message": "12345", "custom_id": "x"}, "not here any more"),
        ({"op": "click", "message": "first", "custom_id": "pko:move:1:1:roll"}, "not on this"),
        ({"op": "click", "message": "first", "custom_id": ""}, "not a button"),
        ({"op": "select", "message": "first", "custom_id": "x", "values": [1]}, "Pick an"),
        ({"op": "command", "text": "/chess"}, "/chess is not a command"),
        ({"op": "channel", "name": "Not a channel!"}, "A channel name is"),
        ({"op": "switch", "channel": "99"}, "no such channel"),
        ({"op": "teleport"}, "does not know"),
    ],
)
async def test_bad_requests_are_refused_to_that_tab_and_change_nothing(
    table: Any, request_: dict[str, Any], says: str
) -> None:
    fake, _, http = table
    first = await post(fake, http, {"content": "board", "components": [BUTTON_ROW]})
    ws = await tab(fake, http, "Bob")
    await frame(ws, "sync")
    requests, messages = len(fake.requests), len(fake.channel_messages())
    if request_.get("message") == "first":
        request_ = request_ | {"message": str(first)}
    await ws.send_json(request_ | {"seq": 7})
    refusal = await frame(ws, "refusal")
    assert says in refusal["text"] and refusal["seq"] == 7
    assert not fake.interactions
    assert (len(fake.requests), len(fake.channel_messages())) == (requests, messages)
    await ws.send_json({"op": "teleport"})  # the socket still answers
    assert (await frame(ws, "refusal"))["text"]
    await ws.close()


async def test_unreadable_and_oversized_frames(table: Any) -> None:
    fake, _, http = table
    ws = await tab(fake, http, "Carol")
    await ws.send_str("{not json")
    assert "unreadable" in (await frame(ws, "refusal"))["text"]
    await ws.send_str(json.dumps({"op": "command", "text": "x" * MAX_FRAME}))
    closing = await ws.receive(timeout=5)
    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert ws.close_code == 1009  # message too big: the page says so and reconnects
    again = await tab(fake, http, "Carol")  # the server is fine
    await again.close()


async def test_a_second_channel_is_opened_and_shown(table: Any) -> None:
    fake, _, http = table
    ws = await tab(fake, http, "Anne")
    await frame(ws, "sync")
    await ws.send_json({"op": "channel", "name": "Second Table"})
    switched = await frame(ws, "switched")
    channel = fake.channels[int(switched["channel"])]
    assert channel.name == "second-table"
    assert channel in fake.guild_channels[fake.guild_id]
    await ws.send_json({"op": "channel", "name": "second-table"})
    assert "already there" in (await frame(ws, "refusal"))["text"]
    await ws.close()


async def test_the_world_comes_back_in_a_new_stand_in(table: Any, tmp_path: Path) -> None:
    fake, page, http = table
    page.person("Anne")
    message = await post(fake, http, {"content": "kept", "components": [BUTTON_ROW]})
    fake.files[1] = ("image/png", b"\x89PNG")
    path = tmp_path / "world.json"
    world.save(fake, path)

    again = FakeDiscord(players=(), channel_names=("other",))
    assert world.load(again, path)
    assert (again.application_id, again.guild_id) == (fake.application_id, fake.guild_id)
    assert again.bot_user.id == fake.bot_user.id
    assert [c.name for c in again.guild_channels[again.guild_id]] == ["dice-games"]
    restored = again.get_message(message)
    assert restored is not None and restored.content == "kept"
    assert again.user("anne").display_name == "Anne"
    assert again._snowflake() > message
    assert not world.load(again, tmp_path / "missing.json")


async def test_the_page_and_its_refusals_speak_the_browsers_language(table: Any) -> None:
    fake, _, http = table
    async with http.get(fake.base_url + "/", headers={"Accept-Language": "de-AT,de;q=0.9"}) as page:
        html = await page.text()
    assert '<html lang="de" ' in html and ">Senden</button>" in html
    assert '"reconnecting": "Verbinde wieder mit dem Tisch …"' in html
    ws = await http.ws_connect(f"{fake.base_url}/play/ws")
    await ws.send_json({"op": "hello", "name": "Amélie", "locale": "fr-FR"})
    await frame(ws, "welcome")
    assert fake.user("amlie").locale == "fr"  # the bot answers her in French
    await ws.send_json({"op": "command", "text": "/échecs"})
    assert (await frame(ws, "refusal"))["text"].startswith("/échecs n’est pas une commande ici")
    await ws.close()


async def test_each_tab_reads_the_messages_in_its_own_language(table: Any) -> None:
    fake, _, http = table
    soon = int(time.time()) + 300
    message = await post(fake, http, {"content": f"Turn ends <t:{soon}:R>"})
    shown = {}
    for name, locale in (("Anne", "de-DE"), ("Bob", "en-GB"), ("Ola", "pl")):
        ws = await http.ws_connect(f"{fake.base_url}/play/ws")
        await ws.send_json({"op": "hello", "name": name, "locale": locale})
        shown[name] = (await frame(ws, "sync"))["upsert"][str(message)]
        await ws.close()
    assert "in 5 Minuten" in shown["Anne"] and "Heute um" in shown["Anne"]
    assert "in 5 minutes" in shown["Bob"] and "Today at" in shown["Bob"]
    assert "za 5 minut" in shown["Ola"]


async def test_lang_in_the_address_wins_over_the_browsers_language(table: Any) -> None:
    fake, _, http = table
    german = {"Accept-Language": "de-DE,de;q=0.9"}
    async with http.get(fake.base_url + "/?lang=pt-br", headers=german) as page:
        html = await page.text()
    assert '<html lang="pt-BR" data-discord-locale="pt-BR">' in html
    async with http.get(fake.base_url + "/?lang=es", headers=german) as page:
        assert 'data-discord-locale="es-ES"' in await page.text()
    async with http.get(fake.base_url + "/play/ping") as ping:
        assert ping.status == 204


async def test_commands_the_bot_registers_later_reach_open_tabs_with_their_names(
    table: Any,
) -> None:
    """The suggestions are the bot's own command tree: a command added in a release (say
    `/pickomino learn`) shows up in the page without a change to the page."""
    fake, _, http = table
    ws = await tab(fake, http, "Anne")
    await frame(ws, "sync")
    learn = {"name": "learn", "type": 1, "description": "Learn by playing",
             "name_localizations": {"de": "lernen"}}  # fmt: skip
    command = {"name": "pickomino", "type": 1, "description": "Pickomino", "options": [learn]}
    url = f"{fake.api_base}/applications/{fake.application_id}/commands"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with http.put(url, json=[command], headers=headers) as response:
        assert response.status == 200, await response.text()
    while "commands" not in (sync := await frame(ws, "sync")):
        pass
    [shown] = [c for c in sync["commands"] if c["name"] == "pickomino"]
    assert shown["options"][0]["name_localizations"] == {"de": "lernen"}
    await ws.close()


async def test_a_group_dm_and_a_server_without_the_bot_are_opened_and_listed(
    table: Any,
) -> None:
    fake, page, http = table
    page.person("Bea")
    ws = await tab(fake, http, "Anne")
    await frame(ws, "sync")
    await ws.send_json({"op": "group_dm", "name": "Friends"})
    group = fake.channels[int((await frame(ws, "switched"))["channel"])]
    assert (group.type, group.name) == (3, "Friends")
    assert sorted(fake.user(u).display_name for u in group.recipients) == ["Anne", "Bea"]
    await ws.send_json({"op": "botless", "name": "Elsewhere"})
    botless = fake.channels[int((await frame(ws, "switched"))["channel"])]
    assert fake.botless_guild_of(botless.id) is not None
    assert not fake.bot_is_in(botless.id) and not fake.bot_is_in(group.id)
    listed = (await frame(ws, "sync"))["channels"]
    assert [(p["kind"], p["label"]) for p in listed] == [
        ("channel", "#dice-games"),
        ("group_dm", "Group DM: Friends"),
        ("botless", "#general (Elsewhere, without the bot)"),
    ]
    late = await tab(fake, http, "Cleo")  # not at the table when it was opened
    await late.send_json({"op": "switch", "channel": str(group.id)})
    await frame(late, "switched")
    assert fake.user("cleo").id in group.recipients  # she joined it by opening it
    await late.close()
    await ws.send_json({"op": "botless", "name": " "})
    assert "2 to 100 characters" in (await frame(ws, "refusal"))["text"]
    await ws.close()


async def test_group_dms_and_servers_without_the_bot_come_back(table: Any, tmp_path: Path) -> None:
    fake, page, _ = table
    page.person("Anne")
    group = await fake.add_group_dm("friends", ["anne"])
    dm = fake.bot_dm("anne")
    guild_id = await fake.add_guild_without_bot("Elsewhere", ("general", "games"))
    await fake.set_external_apps(guild_id, False)
    path = tmp_path / "world.json"
    world.save(fake, path)

    again = FakeDiscord(players=(), channel_names=("other",))
    assert world.load(again, path)
    assert again.channels[group.id].recipients == group.recipients
    assert again.bot_dm("anne").id == dm.id
    assert [c.name for c in again.guild_channels_of(guild_id)] == ["general", "games"]
    assert again.botless_guilds[guild_id].everyone_permissions == (
        fake.botless_guilds[guild_id].everyone_permissions
    )
    assert not again.bot_is_in(group.id) and again.bot_is_in(dm.id)
