"""The Discord stand-in, driven by a small real discord.py client."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.http import Route

from bot.devserver.standin import (
    RESUME_GATEWAY_PATH,
    FakeDiscord,
    FakeDiscordTimeout,
    running_client,
)


class BoardView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Roll", custom_id="mini:roll", style=discord.ButtonStyle.primary)
    async def roll(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        embed = discord.Embed(title="Board", description=f"{interaction.user.display_name} rolled")
        await interaction.response.edit_message(content="rolled", embed=embed, view=self)

    @discord.ui.button(label="Stop", custom_id="mini:stop", style=discord.ButtonStyle.danger)
    async def stop_game(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        for item in self.children:
            if isinstance(item, discord.ui.Button):
                item.disabled = True
        await interaction.response.edit_message(content="stopped", view=self)


class TableModal(discord.ui.Modal, title="Name the table"):
    table = discord.ui.TextInput(label="Table name", custom_id="mini:table")

    def __init__(self, players: str) -> None:
        super().__init__()
        self.players = players

    async def on_submit(self, interaction: discord.Interaction) -> None:
        text = f"{self.table.value}: {self.players} players"
        await interaction.response.edit_message(content=text, view=None)


class PlayersView(discord.ui.View):
    @discord.ui.select(
        custom_id="mini:players",
        options=[
            discord.SelectOption(label="Two", value="2"),
            discord.SelectOption(label="Three", value="3"),
        ],
    )
    async def players(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_modal(TableModal(select.values[0]))


class MiniBot(discord.Client):
    """A tiny bot with one command group, enough to exercise the stand-in."""

    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(intents=intents, guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.errors: list[int] = []
        self.callbacks: list[discord.InteractionCallbackResponse] = []
        self.tree.add_command(self._build_group())

    def _build_group(self) -> app_commands.Group:
        group = app_commands.Group(name="pickomino", description="Play Pickomino")
        admin = app_commands.Group(name="admin", description="Set up a table", parent=group)
        bot = self

        @group.command(description="Say hello")
        async def hello(interaction: discord.Interaction, secret: bool = False) -> None:
            name = interaction.user.display_name
            sent = await interaction.response.send_message(f"Hello {name}!", ephemeral=secret)
            bot.callbacks.append(sent)

        @group.command(description="Show the board")
        async def board(interaction: discord.Interaction) -> None:
            embed = discord.Embed(title="Board", description="Nobody rolled yet")
            await interaction.response.send_message(embed=embed, view=BoardView())

        @group.command(description="Answer twice")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first")
            # discord.py refuses a second response itself; pretend it did not, so that the
            # request reaches Discord and Discord refuses it.
            interaction.response._response_type = None
            try:
                await interaction.response.send_message("second")
            except discord.HTTPException as exc:
                bot.errors.append(exc.code)

        @group.command(description="Send too much")
        async def huge(interaction: discord.Interaction) -> None:
            try:
                embed = discord.Embed(description="x" * 4097)
                await interaction.response.send_message(embed=embed)
            except discord.HTTPException as exc:
                bot.errors.append(exc.code)
            assert interaction.channel_id is not None
            rows = [
                {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": c}]}
                for c in "abcdef"
            ]
            route = Route(
                "POST", "/channels/{channel_id}/messages", channel_id=interaction.channel_id
            )
            try:
                await bot.http.request(route, json={"content": "rows", "components": rows})
            except discord.HTTPException as exc:
                bot.errors.append(exc.code)
            await interaction.response.send_message("rejected")

        @group.command(description="Answer late")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(0.3)
            try:
                await interaction.response.send_message("too late")
            except discord.NotFound as exc:
                bot.errors.append(exc.code)

        @group.command(description="Think, then answer")
        async def think(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("thought")
            await interaction.followup.send("and more", ephemeral=True)
            await interaction.edit_original_response(content="thought again")

        @group.command(description="Set up a table")
        async def table(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("How many?", view=PlayersView(), ephemeral=True)

        @admin.command(description="Seat the players")
        @app_commands.describe(players="How many players", rival="Who to beat")
        async def seat(
            interaction: discord.Interaction,
            players: app_commands.Range[int, 2, 7],
            rival: discord.Member,
            mode: str = "classic",
        ) -> None:
            text = f"{players} players, rival {rival.display_name}, {mode}"
            await interaction.response.send_message(text)

        return group


@pytest.fixture
async def bot(fake_discord: FakeDiscord) -> AsyncIterator[MiniBot]:
    client = MiniBot()
    async with running_client(fake_discord, client):
        await client.tree.sync()
        yield client


async def test_login_ready_and_guild_create(fake_discord: FakeDiscord) -> None:
    client = MiniBot()
    async with running_client(fake_discord, client):
        assert client.user is not None
        assert client.user.id == fake_discord.application_id
        assert client.application_id == fake_discord.application_id
        guild = client.get_guild(fake_discord.guild_id)
        assert guild is not None
        assert guild.name == fake_discord.guild_name
        channel = guild.get_channel(fake_discord.channel.id)
        assert isinstance(channel, discord.TextChannel)
        assert channel.name == "dice-games"
        # The members intent makes discord.py chunk the guild (op 8 -> GUILD_MEMBERS_CHUNK).
        assert guild.chunked
        assert {m.name for m in guild.members} == {"dice games", "alice", "bob", "carol", "dave"}
        assert guild.owner_id == fake_discord.user("alice").id
        assert guild.me.guild_permissions.send_messages
        session = fake_discord.session
        assert session is not None and session.conn is not None
        assert session.conn.compress == "zlib-stream"  # what discord.py asks for
        assert session.intents & discord.Intents.members.flag
    assert not fake_discord.ready
    assert fake_discord.unknown_routes == []


async def test_command_sync_stores_the_schema(fake_discord: FakeDiscord, bot: MiniBot) -> None:
    stored = fake_discord.find_command("pickomino")
    assert stored is not None
    subcommands = {o["name"]: o for o in stored["options"]}
    assert set(subcommands) == {
        "hello",
        "board",
        "twice",
        "huge",
        "slow",
        "think",
        "table",
        "admin",
    }
    admin = subcommands["admin"]
    assert admin["type"] == 2
    seat = admin["options"][0]
    assert seat["name"] == "seat" and seat["type"] == 1
    players = seat["options"][0]
    assert (players["type"], players["min_value"], players["max_value"]) == (4, 2, 7)
    fetched = await bot.tree.fetch_commands()
    assert [c.id for c in fetched] == [int(stored["id"])]
    # A second sync keeps the command's id, as Discord does.
    await bot.tree.sync()
    assert fake_discord.find_command("pickomino")["id"] == stored["id"]
    # Guild commands are stored apart, take precedence, and carry guild_id when invoked.
    guild = discord.Object(fake_discord.guild_id)
    bot.tree.copy_global_to(guild=guild)
    await bot.tree.sync(guild=guild)
    in_guild = fake_discord.find_command("pickomino")
    assert in_guild is not None and in_guild["guild_id"] == str(fake_discord.guild_id)
    assert in_guild["id"] != stored["id"]
    result = await fake_discord.send_command("carol", "pickomino hello")
    assert result.payload["data"]["guild_id"] == str(fake_discord.guild_id)
    assert result.content == "Hello Carol!"


async def test_slash_command_round_trip(fake_discord: FakeDiscord, bot: MiniBot) -> None:
    public = await fake_discord.send_command("alice", "pickomino hello")
    assert public.response_type == 4
    assert public.content == "Hello Alice!"
    assert not public.ephemeral
    assert public.latency is not None and public.latency < 2.0
    assert fake_discord.last_message().id == public.message.id
    assert public.message.type == 20
    # discord.py read the with_response body: the message id and the message itself.
    await fake_discord.wait_for(lambda: bot.callbacks, what="the command's callback")
    callback = bot.callbacks[-1]
    assert callback.message_id == public.message.id
    assert isinstance(callback.resource, discord.InteractionMessage)
    assert callback.resource.content == "Hello Alice!"

    secret = await fake_discord.send_command("bob", "pickomino hello", {"secret": True})
    assert secret.ephemeral and secret.content == "Hello Bob!"
    assert secret.message not in fake_discord.channel_messages()
    assert fake_discord.ephemeral_messages("bob") == [secret.message]
    assert fake_discord.ephemeral_messages("alice") == []
    # The stand-in has the answer before discord.py has read it: under load the
    # callback may still be on its way.
    await fake_discord.wait_for(lambda: len(bot.callbacks) >= 2, what="the second callback")
    assert bot.callbacks[-1].is_ephemeral()


async def test_subcommand_group_options(fake_discord: FakeDiscord, bot: MiniBot) -> None:
    result = await fake_discord.send_command(
        "alice", "pickomino admin seat", {"players": 3, "rival": "bob"}
    )
    assert result.content == "3 players, rival Bob, classic"
    data = result.payload["data"]
    assert data["options"][0]["name"] == "admin"
    assert data["options"][0]["options"][0]["name"] == "seat"
    assert str(fake_discord.user("bob").id) in data["resolved"]["members"]
    with pytest.raises(ValueError, match=r"within 2\.\.7"):
        await fake_discord.send_command("alice", "pickomino admin seat", {"players": 9, "rival": 1})
    with pytest.raises(LookupError, match="no subcommand"):
        await fake_discord.send_command("alice", "pickomino nope")


async def test_button_click_updates_the_message(fake_discord: FakeDiscord, bot: MiniBot) -> None:
    shown = await fake_discord.send_command("alice", "pickomino board")
    board = fake_discord.live_message()
    assert board.id == shown.message.id
    assert [b.label for b in board.buttons] == ["Roll", "Stop"]
    assert board.embed_text == "Board\nNobody rolled yet"

    roll = await fake_discord.click("bob", board, label="Roll")
    assert roll.response_type == 7
    assert roll.message is board
    assert board.content == "rolled"
    assert board.embed_text == "Board\nBob rolled"
    assert board.edits == 1
    assert roll.payload["message"]["id"] == str(board.id)

    await fake_discord.click("carol", board.id, "mini:stop")
    assert board.content == "stopped"
    assert all(b.disabled for b in board.buttons)
    with pytest.raises(ValueError, match="disabled"):
        await fake_discord.click("bob", board, label="Roll")


async def test_second_response_is_rejected(fake_discord: FakeDiscord, bot: MiniBot) -> None:
    result = await fake_discord.send_command("alice", "pickomino twice")
    assert result.content == "first"
    rejection = await fake_discord.wait_for_rejection(40060)
    assert (rejection.status, rejection.message) == (
        400,
        "Interaction has already been acknowledged.",
    )
    await fake_discord.wait_for(lambda: bot.errors == [40060])
    assert [m.content for m in fake_discord.channel_messages()] == ["first"]


async def test_oversized_embed_and_six_rows_are_rejected(
    fake_discord: FakeDiscord, bot: MiniBot
) -> None:
    result = await fake_discord.send_command("alice", "pickomino huge")
    assert result.content == "rejected"
    assert bot.errors == [50035, 50035]
    embed_error, rows_error = fake_discord.take_rejections(50035)
    too_long = {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 4096 or fewer in length."}
    assert embed_error.errors == {
        "data": {"embeds": {"0": {"description": {"_errors": [too_long]}}}}
    }
    assert embed_error.interaction_id == result.id
    too_many = {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 5 or fewer in length."}
    assert rows_error.errors == {"components": {"_errors": [too_many]}}
    assert [m.content for m in fake_discord.channel_messages()] == ["rejected"]


async def test_unknown_route_is_recorded(fake_discord: FakeDiscord, bot: MiniBot) -> None:
    route = Route("GET", "/guilds/{guild_id}/audit-logs", guild_id=fake_discord.guild_id)
    with pytest.raises(discord.NotFound):
        await bot.http.request(route)
    assert fake_discord.unknown_routes == [
        f"GET /api/v10/guilds/{fake_discord.guild_id}/audit-logs"
    ]
    with pytest.raises(AssertionError, match="unknown route"):
        fake_discord.check()
    fake_discord.unknown_routes.clear()


async def test_late_answer_gets_unknown_interaction(
    fake_discord: FakeDiscord, bot: MiniBot
) -> None:
    fake_discord.interaction_deadline = 0.1
    slow = await fake_discord.send_command("alice", "pickomino slow", wait=False)
    rejection = await fake_discord.wait_for_rejection(10062)
    assert (rejection.status, rejection.message) == (404, "Unknown interaction")
    assert rejection.interaction_id == slow.id
    with pytest.raises(FakeDiscordTimeout, match="an answer to /pickomino slow"):
        await slow.wait_answered(timeout=1)
    await fake_discord.wait_for(lambda: bot.errors == [10062])


async def test_deferred_reply_and_followups(fake_discord: FakeDiscord, bot: MiniBot) -> None:
    result = await fake_discord.send_command("alice", "pickomino think")
    assert result.response_type == 5
    await result.wait_for_followups(2)
    await result.wait_quiet(0.1)
    original = result.message
    assert original is not None and not original.is_loading
    assert original.content == "thought again"
    assert original.history[0]["content"] == ""  # the "is thinking..." message
    assert result.followups[0] is original  # the first follow-up filled it in
    extra = result.followups[1]
    assert extra.is_ephemeral and extra.content == "and more"
    assert [m.content for m in fake_discord.channel_messages()] == ["thought again"]


async def test_reconnect_resumes_the_session(fake_discord: FakeDiscord, bot: MiniBot) -> None:
    session = fake_discord.session
    assert session is not None
    await fake_discord.request_reconnect()
    await fake_discord.wait_for(lambda: session.resumes == 1 and fake_discord.ready)
    assert session.conn is not None and session.conn.path == RESUME_GATEWAY_PATH
    await fake_discord.drop_connection()
    await fake_discord.wait_for(lambda: session.resumes == 2 and fake_discord.ready)
    result = await fake_discord.send_command("dave", "pickomino hello")
    assert result.content == "Hello Dave!"
    assert fake_discord.identifies == 1


async def test_select_and_modal_on_an_ephemeral_message(
    fake_discord: FakeDiscord, bot: MiniBot
) -> None:
    asked = await fake_discord.send_command("alice", "pickomino table")
    menu = asked.message
    assert menu is not None and menu.is_ephemeral
    with pytest.raises(PermissionError):
        await fake_discord.select("bob", menu, "mini:players", ["3"])
    opened = await fake_discord.select("alice", menu, "mini:players", ["3"])
    assert opened.response_type == 9
    assert opened.modal is not None and opened.modal["title"] == "Name the table"
    submitted = await fake_discord.submit_modal("alice", opened, {"mini:table": "Worms"})
    assert submitted.response_type == 7
    assert menu.content == "Worms: 3 players"
    assert menu.components == []


async def test_channel_messages_through_discord_py(fake_discord: FakeDiscord, bot: MiniBot) -> None:
    channel = bot.get_channel(fake_discord.channel.id)
    assert isinstance(channel, discord.TextChannel)
    async with channel.typing():
        sent = await channel.send("hi", file=discord.File(io.BytesIO(b"abc"), "scores.txt"))
    stored = fake_discord.last_message()
    assert stored.id == sent.id
    assert [(a["filename"], a["size"]) for a in stored.attachments] == [("scores.txt", 3)]
    await sent.edit(content="edited", embed=discord.Embed(title="Scores"))
    fetched = await channel.fetch_message(sent.id)
    assert (fetched.content, fetched.embeds[0].title) == ("edited", "Scores")
    assert [a.filename for a in fetched.attachments] == ["scores.txt"]
    assert [m.content async for m in channel.history(limit=5)] == ["edited"]
    await sent.delete()
    assert fake_discord.channel_messages() == []
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(sent.id)
    assert [r.code for r in fake_discord.take_rejections()] == [10008]
    body = {"message": "Missing Permissions", "code": 50013}
    fake_discord.inject_error("POST", r"/channels/\d+/messages$", status=403, body=body)
    with pytest.raises(discord.Forbidden):
        await channel.send("refused")
    assert fake_discord.rejections == []  # injected on purpose, so not a rejection


async def test_stand_in_can_stop_before_the_client(fake_discord: FakeDiscord) -> None:
    async with running_client(fake_discord, MiniBot()):
        started = time.perf_counter()
        await fake_discord.close()
        assert time.perf_counter() - started < 3
        assert not fake_discord.ready


async def _post(
    fake: FakeDiscord, path: str, body: Any, *, token: str | None = None
) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {token or fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(fake.api_base + path, json=body, headers=headers) as resp,
    ):
        return resp.status, await resp.json()


def _button(custom_id: str, label: str = "b", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id, **extra}


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        ({"content": "x" * 2001}, ("content",), "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"title": "t" * 257}]}, ("embeds", "0", "title"), "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"title": "t"}] * 11}, ("embeds",), "BASE_TYPE_MAX_LENGTH"),
        (
            {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
            ("embeds", "0", "fields"),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
            ("embeds", "0", "fields", "0", "value"),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
        ),
        (
            {"embeds": [{"footer": {"text": "f" * 2049}}]},
            ("embeds", "0", "footer", "text"),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {
                "content": "x",
                "components": [{"type": 1, "components": [_button(c) for c in "abcdef"]}],
            },
            ("components", "0", "components"),
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {
                "content": "x",
                "components": [{"type": 1, "components": [_button("a"), _button("a")]}],
            },
            ("components", "0", "components", "1", "custom_id"),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
        ),
        (
            {"content": "x", "components": [{"type": 1, "components": [_button("a" * 101)]}]},
            ("components", "0", "components", "0", "custom_id"),
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"content": "x", "components": [{"type": 1, "components": [_button("a", "l" * 81)]}]},
            ("components", "0", "components", "0", "label"),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"content": "x", "components": [{"type": 1, "components": [_button("a", style=5)]}]},
            ("components", "0", "components", "0", "url"),
            "BASE_TYPE_REQUIRED",
        ),
    ],
)
async def test_message_limits(
    fake_discord: FakeDiscord, body: dict[str, Any], path: tuple[str, ...], code: str
) -> None:
    status, answer = await _post(
        fake_discord, f"/channels/{fake_discord.channel.id}/messages", body
    )
    assert status == 400
    assert (answer["code"], answer["message"]) == (50035, "Invalid Form Body")
    node = answer["errors"]
    for key in path:
        node = node[key]
    assert node["_errors"][0]["code"] == code
    assert len(fake_discord.take_rejections(50035)) == 1
    assert fake_discord.channel_messages() == []


async def test_empty_message_wrong_token_and_unknown_channel(fake_discord: FakeDiscord) -> None:
    channel = f"/channels/{fake_discord.channel.id}/messages"
    assert await _post(fake_discord, channel, {"content": " "}) == (
        400,
        {"message": "Cannot send an empty message", "code": 50006},
    )
    status, _ = await _post(fake_discord, channel, {"content": "hi"}, token="wrong")
    assert status == 401
    status, answer = await _post(fake_discord, "/channels/1/messages", {"content": "hi"})
    assert (status, answer["code"]) == (404, 10003)
    assert [r.code for r in fake_discord.take_rejections()] == [50006, 0, 10003]
    status, answer = await _post(fake_discord, channel, {"content": "hi"})
    assert status == 200 and answer["content"] == "hi"
    assert fake_discord.last_message().content == "hi"


async def test_raw_gateway_plain_text_bad_token_and_invalid_session(
    fake_discord: FakeDiscord,
) -> None:
    url = fake_discord.gateway_url + "?v=10&encoding=json"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        hello = await asyncio.wait_for(ws.receive_json(), 5)  # plain text without compress
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 41_250
        await ws.send_json({"op": 1, "d": None})
        assert (await asyncio.wait_for(ws.receive_json(), 5))["op"] == 11
        await ws.send_json({"op": 6, "d": {"token": fake_discord.token, "session_id": "x"}})
        invalid = await asyncio.wait_for(ws.receive_json(), 5)
        assert (invalid["op"], invalid["d"]) == (9, False)
        identify = {"token": "wrong", "intents": 1, "properties": {}}
        await ws.send_json({"op": 2, "d": identify})
        closed = await asyncio.wait_for(ws.receive(), 5)
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4004
    assert [r.code for r in fake_discord.take_rejections()] == [4004]


async def test_application_emojis_are_listed_created_and_checked(
    fake_discord: FakeDiscord, bot: MiniBot
) -> None:
    """The routes EmojiBook.sync uses, with Discord's refusals."""
    assert await bot.fetch_application_emojis() == []
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 64
    made = await bot.create_application_emoji(name="pk1_die_1", image=png)
    assert made.name == "pk1_die_1" and made.id
    listed = await bot.fetch_application_emojis()
    assert [(e.name, e.id) for e in listed] == [("pk1_die_1", made.id)]
    assert str(listed[0]) == f"<:pk1_die_1:{made.id}>"
    with pytest.raises(discord.HTTPException):  # a name is taken once
        await bot.create_application_emoji(name="pk1_die_1", image=png)
    with pytest.raises(discord.HTTPException):
        await bot.create_application_emoji(name="a bad name!", image=png)
    with pytest.raises(discord.HTTPException):  # over 256 KiB
        await bot.create_application_emoji(name="pk1_huge", image=png + b"\0" * 300_000)
    assert sorted(fake_discord.app_emojis) == ["pk1_die_1"]
    fake_discord.take_rejections(50035)


async def test_a_repeated_delete_is_a_problem_unless_the_bot_was_killed(
    fake_discord: FakeDiscord, bot: MiniBot
) -> None:
    channel = bot.get_channel(fake_discord.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("your turn")
    await sent.delete()
    with pytest.raises(discord.NotFound):
        await sent.delete()  # as after a restart whose record outlived the message
    with pytest.raises(AssertionError, match="10008"):
        fake_discord.check()
    fake_discord.bot_was_killed = True
    fake_discord.check()  # the repeat is forgiven, and only it
    never_sent = channel.get_partial_message(sent.id + 1)
    with pytest.raises(discord.NotFound):
        await never_sent.delete()
    with pytest.raises(AssertionError, match="10008"):
        fake_discord.check()
    fake_discord.take_rejections()


async def _identified(fake: FakeDiscord, ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    """HELLO, IDENTIFY, then READY's data (GUILD_CREATE and the rest left unread)."""
    assert (await asyncio.wait_for(ws.receive_json(), 5))["op"] == 10
    await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "properties": {}}})
    while True:
        frame = await asyncio.wait_for(ws.receive_json(), 5)
        if frame.get("t") == "READY":
            return dict(frame["d"])


async def _resumed(
    fake: FakeDiscord, session_id: str, seq: int
) -> tuple[list[dict[str, Any]], aiohttp.ClientSession, aiohttp.ClientWebSocketResponse]:
    """A RESUME on a new connection: the frames up to RESUMED (or INVALID_SESSION)."""
    http = aiohttp.ClientSession()
    ws = await http.ws_connect(fake.gateway_url + "?v=10&encoding=json")
    assert (await asyncio.wait_for(ws.receive_json(), 5))["op"] == 10
    resume = {"token": fake.token, "session_id": session_id, "seq": seq}
    await ws.send_json({"op": 6, "d": resume})
    frames = []
    while True:
        frame = await asyncio.wait_for(ws.receive_json(), 5)
        frames.append(frame)
        if frame["op"] == 9 or frame.get("t") == "RESUMED":
            return frames, http, ws


async def test_a_session_closed_with_1000_ends_and_a_dropped_one_replays_what_it_missed(
    fake_discord: FakeDiscord,
) -> None:
    """As Discord's gateway docs say (Disconnecting): closed with 1000 or 1001 a session
    is invalidated; otherwise it stays resumable, and a RESUME replays the events sent
    meanwhile, then RESUMED."""
    url = fake_discord.gateway_url + "?v=10&encoding=json"
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        ended = (await _identified(fake_discord, ws))["session_id"]
        await ws.close(code=1000)
    await fake_discord.wait_for(lambda: not fake_discord.ready)
    frames, http, ws = await _resumed(fake_discord, ended, 1)
    await ws.close()
    await http.close()
    assert [(f["op"], f["d"]) for f in frames] == [(9, False)]

    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        dropped = (await _identified(fake_discord, ws))["session_id"]
        await ws.close(code=4000)
    await fake_discord.wait_for(lambda: not fake_discord.ready)
    session = fake_discord.sessions[dropped]
    seen = session.seq
    await fake_discord.dispatch("TYPING_START", {"channel_id": "1", "user_id": "2"})
    frames, http, ws = await _resumed(fake_discord, dropped, seen)
    try:
        assert [frame.get("t") for frame in frames] == ["TYPING_START", "RESUMED"]
        assert frames[0]["s"] == seen + 1
        assert session.resumes == 1 and fake_discord.ready
    finally:
        await ws.close()
        await http.close()
