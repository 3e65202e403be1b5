"""The bot's permissions in a channel, checked before they fail: a start where the bot
could not do its part is refused, naming what it lacks in the person's language, and
opens nothing; a click after a permission was taken away mid-game still plays, and tells
the clicker once. Discord sends the bot's permissions with each interaction
(`app_permissions`); without them, nothing is refused."""

from __future__ import annotations

import pytest

from bot.ui.permissions import needed
from tests.discord_harness import CHANNEL_ID, BotHarness

THREAD_ID = 700_000_000_000_000_778


def without(*names: str, in_thread: bool = False) -> int:
    """The permissions a game needs (in a channel, or a thread) but `names`."""
    granted = needed(in_thread=in_thread)
    for name in names:
        setattr(granted, name, False)
    return granted.value


def nothing_opened(harness: BotHarness, channel_id: int = CHANNEL_ID) -> bool:
    """No message but ephemeral answers in the channel."""
    return all(message.ephemeral for message in harness.fake.channel_messages(channel_id))


@pytest.mark.parametrize("game", ["pickomino", "picker"])
async def test_a_start_where_the_bot_cannot_send_is_refused_and_opens_nothing(tmp_path, game):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        refused = await harness.slash(anne, game, "start", app_permissions=without("send_messages"))
        assert refused.ephemeral is not None
        assert "No game can be opened here" in refused.ephemeral
        assert "**Send Messages**" in refused.ephemeral
        assert "Attach Files" not in refused.ephemeral  # only what is missing
        assert await harness.session() is None
        assert nothing_opened(harness)


async def test_a_start_where_the_bot_cannot_attach_files_names_them(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        lacking = without("attach_files", "read_message_history")
        refused = await harness.slash(anne, "pickomino", "start", app_permissions=lacking)
        assert refused.ephemeral is not None
        assert "- **Attach Files**\n- **Read Message History**" in refused.ephemeral
        assert "Send Messages" not in refused.ephemeral
        assert await harness.session() is None
        assert nothing_opened(harness)


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (
            "de",
            ["Hier kann keine Partie beginnen", "**Nachrichten senden**", "**Dateien anhängen**"],
        ),
        (
            "pl",
            ["Nie można tu otworzyć partii", "**Wysyłanie wiadomości**", "**Załączanie plików**"],
        ),
    ],
)
async def test_the_refusal_is_in_the_person_s_language(tmp_path, locale, words):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        user = harness.user("Anne", locale=locale)
        lacking = without("send_messages", "attach_files")
        refused = await harness.slash(user, "pickomino", "start", app_permissions=lacking)
        for word in words:
            assert word in (refused.ephemeral or "")
        assert "Send Messages" not in (refused.ephemeral or "")
        assert await harness.session() is None


async def test_a_thread_needs_send_messages_in_threads_not_send_messages(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        lacking = (
            without("send_messages_in_threads", in_thread=True) | needed(in_thread=False).value
        )  # Send Messages alone does not post in a thread
        refused = await harness.slash(
            anne, "pickomino", "start", channel_id=THREAD_ID, thread=True, app_permissions=lacking
        )
        assert "**Send Messages in Threads**" in (refused.ephemeral or "")
        assert await harness.session(THREAD_ID) is None
        assert nothing_opened(harness, THREAD_ID)

        threads_only = without(in_thread=True)  # no Send Messages, which a thread ignores
        opened = await harness.slash(
            anne,
            "pickomino",
            "start",
            channel_id=THREAD_ID,
            thread=True,
            app_permissions=threads_only,
        )
        assert not opened.message.ephemeral
        assert await harness.session(THREAD_ID) is not None


async def test_without_app_permissions_nothing_is_refused(tmp_path):
    # Older payloads have no app_permissions: discord.py reads them as 0, taken as unknown.
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        opened = await harness.slash(anne, "pickomino", "start", app_permissions=None)
        assert not opened.message.ephemeral and "Pickomino lobby" in opened.message.text()
        joined = await harness.click(bob, opened.message, "Join", app_permissions=None)
        assert joined.edited and joined.ephemeral is None  # no notice either


async def test_discord_py_reads_the_permissions_it_is_sent(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        # A negative number has every bit set, as Python reads it: nothing is missing.
        opened = await harness.slash(anne, "pickomino", "start", app_permissions="-1")
        assert not opened.message.ephemeral
        # A value that is no number never reaches the bot: discord.py fails building the
        # Interaction, before any handler runs, and nothing is answered or opened.
        bob = harness.user("Bob")
        with pytest.raises(ValueError):
            await harness.slash(bob, "picker", "start", channel_id=THREAD_ID, app_permissions="x")
        assert await harness.session(THREAD_ID) is None


async def test_a_permission_lost_mid_game_still_plays_and_tells_each_clicker_once(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        opened = await harness.slash(anne, "pickomino", "start", first_player="host")
        lobby = opened.message
        lost = without("attach_files")

        joined = await harness.click(bob, harness.message(lobby.id), "Join", app_permissions=lost)
        assert joined.edited  # answered as usual: answers need no channel permission
        assert "Bob" in harness.message(lobby.id).text()
        notice = joined.ephemeral or ""
        assert "**Attach Files**" in notice and "The game goes on" in notice

        started = await harness.click(
            anne, harness.message(lobby.id), "Start", app_permissions=lost
        )
        assert started.edited and "Attach Files" in (started.ephemeral or "")
        rolled = await harness.click(anne, harness.message(lobby.id), "Roll", app_permissions=lost)
        assert rolled.edited and rolled.ephemeral is None  # told already
        assert (await harness.session()).game.roll is not None

        # Another permission gone too: a new set, told once more.
        worse = without("attach_files", "embed_links")
        menu = harness.message(lobby.id)
        kept = await harness.click(
            anne, menu, menu.enabled()[0]["custom_id"], app_permissions=worse
        )
        assert "**Embed Links**" in (kept.ephemeral or "")

        # Granted again: nothing is said, and a later loss is told anew.
        menu = harness.message(lobby.id)
        fine = await harness.click(anne, menu, menu.enabled()[0]["custom_id"])
        assert fine.ephemeral is None
        menu = harness.message(lobby.id)
        again = await harness.click(
            anne, menu, menu.enabled()[0]["custom_id"], app_permissions=lost
        )
        assert "**Attach Files**" in (again.ephemeral or "")


async def test_play_again_where_the_bot_lost_permissions_opens_nothing(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        opened = await harness.slash(anne, "pickomino", "start")
        await harness.click(bob, harness.message(opened.message.id), "Join")
        await harness.click(anne, harness.message(opened.message.id), "Start")
        await harness.slash(bob, "pickomino", "leave")
        final = harness.message(opened.message.id).snapshot()
        assert [b.get("label") for b in final.buttons] == ["Play again"]

        again = await harness.click(
            anne, final, "Play again", app_permissions=without("send_messages")
        )
        assert again.kinds == [4]  # one answer: the refusal, no second notice
        assert "No game can be opened here" in (again.ephemeral or "")
        assert "**Send Messages**" in (again.ephemeral or "")
        assert await harness.session() is None
        assert harness.message(final.id).buttons == final.buttons  # Play again stays


async def test_a_notice_that_cannot_be_sent_is_tried_at_the_next_click(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob, cleo = harness.user("Anne"), harness.user("Bob"), harness.user("Cleo")
        lobby = (await harness.slash(anne, "pickomino", "start")).message
        lost = without("embed_links")
        harness.fake.fail["/webhooks/{webhook_id}/{webhook_token}"] = 403
        joined = await harness.click(bob, harness.message(lobby.id), "Join", app_permissions=lost)
        assert joined.edited and joined.ephemeral is None  # played; the notice failed
        left = await harness.click(bob, harness.message(lobby.id), "Leave", app_permissions=lost)
        assert left.edited and "**Embed Links**" in (left.ephemeral or "")
        assert "Bob" not in harness.message(lobby.id).text()
        other = await harness.click(cleo, harness.message(lobby.id), "Join", app_permissions=lost)
        assert "**Embed Links**" in (other.ephemeral or "")  # each person is told


POST_MESSAGE = ("POST", "/channels/{channel_id}/messages")


async def test_a_403_pauses_the_bots_own_messages_until_a_click_shows_the_permission_back(
    tmp_path,
):
    from tests.cogs.helpers import choose, play_to_the_end, start_game
    from tests.cogs.test_turn_pings import pings

    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        lacking = without("send_messages")
        harness.fake.fail[f"{POST_MESSAGE[0]} {POST_MESSAGE[1]}"] = 403  # Send Messages gone
        # No interaction's token is fresh (they last 0 s here), so pings fall back to the
        # bot's token, which draws the 403.
        tokens = harness.bot.platform.pings.tokens
        tokens.lifetime = tokens.margin = 0

        async def play_turn_without_send_messages() -> None:
            player = await harness.current_user()
            while (session := await harness.session()) and (
                session.game.current_player == str(player.id)
            ):
                message = harness.message(live.id)
                played = await harness.click(
                    player, message, choose(message), app_permissions=lacking
                )
                assert played.edited  # the game goes on: answers need no permission

        await play_turn_without_send_messages()  # Anne's turn ends: Bob's ping draws a 403
        attempts = len(harness.fake.sent(*POST_MESSAGE))
        assert CHANNEL_ID in harness.bot.platform.live.paused  # its token work waits
        await play_turn_without_send_messages()  # Bob's: no ping tried, no 403 drawn
        assert len(harness.fake.sent(*POST_MESSAGE)) == attempts

        # The permission is back: the next click resumes, and the turn's player is pinged.
        player = await harness.current_user()
        message = harness.message(live.id)
        await harness.click(player, message, choose(message))
        assert CHANNEL_ID not in harness.bot.platform.live.paused
        [ping] = pings(harness)
        current = await harness.current_user()
        assert ping.content.startswith(f"<@{current.id}>")
        final = await play_to_the_end(harness, live.id)  # nothing lost: it ends normally
        assert "game over" in final.text()


async def test_status_where_the_bot_lost_a_permission_shows_the_game_and_says_what_is_missing(
    tmp_path,
):
    from tests.cogs.helpers import start_game

    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        lacking = without("send_messages")
        shown = await harness.slash(bob, "pickomino", "status", app_permissions=lacking)
        session = await harness.session()
        assert session.message_id != live.id  # the new copy is shown: it needs nothing
        assert "**Send Messages**" in (shown.ephemeral or "")  # and Bob is told, once
        again = await harness.slash(bob, "pickomino", "status", app_permissions=lacking)
        assert again.ephemeral is None


async def test_status_with_the_permission_back_resumes_a_paused_channel(tmp_path):
    from tests.cogs.helpers import start_game

    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        await start_game(harness, [anne, bob], first_player="host")
        harness.bot.platform.live.paused.pause(CHANNEL_ID, RuntimeError("403 in a test"))
        await harness.slash(bob, "pickomino", "status", app_permissions=without("send_messages"))
        assert CHANNEL_ID in harness.bot.platform.live.paused  # still lacking: still paused
        await harness.slash(bob, "pickomino", "status")
        assert CHANNEL_ID not in harness.bot.platform.live.paused
