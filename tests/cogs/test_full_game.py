"""A whole game through the real handlers: lobby, turns, final standings, Play again."""

from __future__ import annotations

import json
import re
import sqlite3

from bot.render.custom_ids import ComponentRef
from tests.cogs.helpers import play_to_the_end, start_game
from tests.discord_harness import BotHarness


async def test_lobby_to_final_standings_and_play_again(tmp_path):
    database = tmp_path / "bot.db"
    async with BotHarness.running(database) as harness:
        anne, bob, cleo = harness.user("Anne"), harness.user("Bob"), harness.user("Cleo")
        live = await start_game(harness, [anne, bob, cleo])
        assert "**21**" in live.text() and "▶️" in live.text()  # the grill, whose turn

        final = (await play_to_the_end(harness, live.id)).snapshot()

        text = final.text()
        assert "game over" in text
        # The end screen is told from every event of the game, although the final commit
        # compacted them out of the database: each tally counts the tiles taken in play.
        tiles_taken = sum(int(n) for n in re.findall(r"(\d+)\stiles?\staken", text))
        assert tiles_taken > 0, text
        assert "🥇 1." in text and "wins" in text
        assert [b.get("label") for b in final.buttons] == ["Play again", "Review"]
        # Only the final message's Play again is live in the channel.
        assert [m.id for m in harness.fake.live_messages()] == [live.id]

        again = await harness.click(bob, final, "Play again")
        lobby = again.message
        assert not lobby.ephemeral and "Pickomino lobby" in lobby.text()
        assert "1. Bob (host)" in lobby.text()
        assert "Anne" in lobby.text() and "Cleo" in lobby.text()
        assert harness.message(live.id).buttons == []  # the old Play again is gone
        twice = await harness.click(cleo, final, "Play again")  # a stale copy of it
        assert "already a Pickomino game" in (twice.ephemeral or "")
        assert "Bob just opened [its lobby]" in (twice.ephemeral or "")  # who, and a link
        assert f"/{lobby.id}" in (twice.ephemeral or "")

    with sqlite3.connect(database) as db:
        (status,) = db.execute("SELECT status FROM sessions WHERE id = 1").fetchone()
        assert status == "over"
        (stored,) = db.execute("SELECT COUNT(*) FROM history_games WHERE game_id = 1").fetchone()
        assert stored == 1
        # Compact once recorded: the story is in the history, the events are gone, and
        # the session keeps its final game without the message's log.
        (story,) = db.execute("SELECT turns FROM game_stories WHERE game_id = 1").fetchone()
        assert json.loads(story)
        events = db.execute("SELECT COUNT(*) FROM session_events WHERE session_id = 1")
        assert events.fetchone() == (0,)
        (state,) = db.execute("SELECT state FROM sessions WHERE id = 1").fetchone()
        assert "log" not in json.loads(state) and json.loads(state)["game"]


async def test_every_click_is_answered_by_editing_the_clicked_message(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        result = await harness.click(anne, live, "Roll")
        assert result.kinds == [7]
        # No channel message edit was needed for a click.
        assert harness.fake.sent("PATCH", "/channels/{channel_id}/messages/{message_id}") == []
        ref = ComponentRef.parse(result.message.buttons[0]["custom_id"])
        assert ref is not None and ref.version == 4
