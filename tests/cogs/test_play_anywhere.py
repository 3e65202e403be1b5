"""Play anywhere: a game where only interactions reach the channel (a group DM, a server
where only a person installed the app) runs on interaction tokens alone, shows its
Continue state before its last token runs out, and catches up at any click."""

from __future__ import annotations

from typing import Any

import discord

from bot.sessions.model import Place, Status
from tests.cogs.helpers import choose
from tests.cogs.test_turn_pings import pings
from tests.cogs.test_turn_timer import Clock
from tests.discord_harness import (
    CHANNEL_ID,
    GUILD_ID,
    BotHarness,
    FakeUser,
    PrivateChat,
    StoredMessage,
)

GROUP_DM = PrivateChat(CHANNEL_ID, group=True, name="Dice night")
TOKEN_LIFE = 15 * 60  # Discord's, which the bot uses unless told otherwise
# Where only the person installed the app: their permissions, Use External Apps included.
ALL_ALLOWED = discord.Permissions(view_channel=True, send_messages=True).value | 1 << 50


def bot_token_requests(harness: BotHarness) -> list[str]:
    """Requests the bot made with its own token into the game's channel."""
    return [
        f"{r.method} {r.path}"
        for r in harness.fake.requests
        if r.path.startswith("/channels/") and r.ids.get("channel_id") == str(CHANNEL_ID)
    ]


async def start_in_group_dm(
    harness: BotHarness, players: list[FakeUser], **options: Any
) -> StoredMessage:
    options.setdefault("turn_timer", 0)
    opened = await harness.slash(players[0], "pickomino", "start", private=GROUP_DM, **options)
    live = opened.message
    for player in players[1:]:
        await harness.click(player, harness.message(live.id), "Join", private=GROUP_DM)
    started = await harness.click(players[0], harness.message(live.id), "Start", private=GROUP_DM)
    assert started.edited, started.ephemeral
    return harness.message(live.id)


async def test_a_whole_game_in_a_group_dm_needs_no_bot_token(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_in_group_dm(harness, [anne, bob], first_player="host")
        session = await harness.session()
        assert session.place is Place.GROUP_DM and session.guild_id == 0
        [ping] = pings(harness)  # a follow-up of the Start click
        assert ping.content.startswith(f"<@{anne.id}>")
        for _ in range(2000):
            message = harness.message(live.id)
            if any(":again:" in b["custom_id"] for b in message.buttons):
                break
            player = await harness.current_user()
            result = await harness.click(player, message, choose(message), private=GROUP_DM)
            assert result.edited, result.ephemeral
        final = harness.message(live.id)
        assert "game over" in final.text()
        assert bot_token_requests(harness) == []
        history = await harness.slash(anne, "pickomino", "score", "history", private=GROUP_DM)
        assert "Anne" in history.message.text() and "Bob" in history.message.text()


async def test_the_message_says_what_comes_and_offers_continue_then_any_click_catches_up(
    tmp_path,
):
    clock = Clock()
    async with BotHarness.running(tmp_path / "bot.db", clock=clock) as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_in_group_dm(harness, [anne, bob], first_player="host", turn_timer=60)
        seen = harness.message(live.id)
        # The token is kept without the message it was clicked on (a copy of the
        # interaction: bot.ui.click_tokens.kept), and edits all the same.
        kept = harness.bot.platform.live.tokens.usable(CHANNEL_ID, live.id)
        assert kept is not None and kept.message is None
        # Before the last token runs out: the last edit says what happens by itself.
        await harness.bot.platform.live.show_waiting(CHANNEL_ID)
        await harness.settle()
        waiting = harness.message(live.id)
        assert "Continue" in waiting.labels()
        assert "Nobody has clicked for a while" in waiting.text()
        assert "the turn ends by itself <t:" in waiting.text()

        # Everyone is away: the token dies, the turn timer ends Anne's turn meanwhile.
        clock.now += TOKEN_LIFE + 60
        await harness.bot.sessions.run_timer(CHANNEL_ID)
        await harness.settle()
        session = await harness.session()
        assert session.game.current_player == str(bob.id)  # committed...
        assert harness.message(live.id).text() == waiting.text()  # ...but not shown yet
        assert harness.bot.sessions.is_behind(session)
        assert bot_token_requests(harness) == []  # nothing tried where it would be refused

        # Anne clicks a button of the old state: it is out of date, and the answer
        # shows every change since.
        late = await harness.click(anne, seen, choose(seen), private=GROUP_DM)
        assert late.edited and "moved on before your click" in (late.ephemeral or "")
        assert not harness.bot.sessions.is_behind(await harness.session())
        assert "Continue" not in harness.message(live.id).labels()

        # And Continue brings it up to date too: it changes nothing.
        await harness.bot.platform.live.show_waiting(CHANNEL_ID)
        await harness.settle()
        version = (await harness.session()).version
        pressed = await harness.click(bob, harness.message(live.id), "Continue", private=GROUP_DM)
        assert pressed.edited and pressed.ephemeral is None
        assert (await harness.session()).version == version
        assert "Continue" not in harness.message(live.id).labels()
        outsider = harness.user("Carol")
        await harness.bot.platform.live.show_waiting(CHANNEL_ID)
        await harness.settle()
        refused = await harness.click(
            outsider, harness.message(live.id), "Continue", private=GROUP_DM
        )
        assert refused.ephemeral and not refused.edited
        assert bot_token_requests(harness) == []


async def start_in_server_without_bot(
    harness: BotHarness, user: FakeUser, permissions: int, **changes: Any
) -> Any:
    """/pickomino start in a server that never added the bot: only `user` installed the
    app, and the app's permissions are the person's own. `changes`: to the payload."""
    return await harness.slash(
        user, "pickomino", "start", app_permissions=permissions, user_install=True, **changes
    )


async def test_a_server_that_would_make_answers_ephemeral_is_told_what_would_work(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        may_send = discord.Permissions(view_channel=True, send_messages=True).value
        refused = await start_in_server_without_bot(harness, anne, may_send)
        assert "add the bot to the server" in (refused.ephemeral or "")
        assert "Use External Apps" in (refused.ephemeral or "")
        assert await harness.session() is None  # nothing opened
        allowed = may_send | 1 << 50  # Use External Apps
        opened = await start_in_server_without_bot(harness, anne, allowed)
        assert opened.ephemeral is None
        session = await harness.session()
        assert session.place is Place.SERVER_WITHOUT_BOT and session.status is Status.LOBBY
        assert session.guild_id != 0  # a server's game: its history is the server's


async def test_a_german_player_is_refused_in_german(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne", locale="de")
        may_send = discord.Permissions(view_channel=True, send_messages=True).value
        refused = await start_in_server_without_bot(harness, anne, may_send)
        assert "den Bot zum Server hinzuzufügen" in (refused.ephemeral or "")


def tracebacks(caplog: Any) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.exc_info]


async def test_owners_we_do_not_know_are_dropped_with_a_warning_and_the_command_served(
    tmp_path, caplog
):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        everything = discord.Permissions.all().value
        payload = harness.slash_payload(
            anne, "pickomino", "start", app_permissions=everything, user_install=True
        )
        # A key discord.py could not read, a value that is no id, an installation type
        # that does not exist yet: none may cost the person their answer.
        payload["authorizing_integration_owners"] = {
            "0": str(GUILD_ID),
            "abc": "1",
            "1": "someone",
            "7": "42",
        }
        opened = await harness.dispatch(payload)
        assert opened.ephemeral is None and "lobby" in opened.message.text()
        session = await harness.session()
        assert session.place is Place.SERVER  # the server install it still shows
        warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
        assert any("not understood" in w for w in warnings), warnings
        assert any("unknown installation types [7]" in w for w in warnings), warnings
        assert tracebacks(caplog) == []


async def test_a_channel_type_we_do_not_serve_is_refused(tmp_path, caplog):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        payload = harness.slash_payload(
            anne, "pickomino", "start", app_permissions=ALL_ALLOWED, user_install=True
        )
        payload["channel"].update(type=2, bitrate=64000, user_limit=0)  # a voice chat
        refused = await harness.dispatch(payload)
        assert "can't be played in this kind of channel" in (refused.ephemeral or "")
        assert await harness.session() is None
        assert tracebacks(caplog) == []


async def test_a_refused_followup_leaves_the_ping_to_the_next_token(tmp_path, caplog):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        # Discord forgot the token of the click that starts the game (10015).
        harness.fake.fail["POST /webhooks/{webhook_id}/{webhook_token}"] = 404
        await start_in_group_dm(harness, [anne, bob], first_player="host")
        [ping] = pings(harness)  # a follow-up of the command's token instead
        assert ping.content.startswith(f"<@{anne.id}>")
        assert bot_token_requests(harness) == []
        assert tracebacks(caplog) == []
