"""The proof that a game is one folder: higher or lower (tests/fixtures/games/hilo), which
no file of the project names, is served by handing the bot `GAMES.with_game(HILO)`. Its
commands reach the synced tree, a whole game is played through the live message with
the real handlers, and its history is recorded and shown by its own score pages."""

from __future__ import annotations

from bot.games.registry import GAMES
from tests.discord_harness import BotHarness, StoredMessage
from tests.fixtures.games.hilo.plugin import HILO

SERVED = GAMES.with_game(HILO)
CALLS = ("Higher", "Lower")


def _command(tree: list[dict], name: str) -> dict:
    return next(command for command in tree if command["name"] == name)


async def test_its_commands_are_in_the_synced_tree_beside_the_others(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db", games=SERVED) as harness:
        synced = harness.fake.sent("PUT", "/applications/{application_id}/commands")
        tree = synced[-1].payload
        assert sorted(command["name"] for command in tree) == ["hilo", "picker", "pickomino"]
        hilo = _command(tree, "hilo")
        assert hilo["description"] == "Play higher or lower with one die"
        subcommands = sorted(option["name"] for option in hilo["options"])
        assert subcommands == ["end", "leave", "notify", "rules", "score", "start", "status"]
        score = _command(hilo["options"], "score")
        assert sorted(o["name"] for o in score["options"]) == [
            "game",
            "history",
            "leaderboard",
            "player",
        ]


async def test_without_it_the_bot_serves_only_the_registered_games(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        synced = harness.fake.sent("PUT", "/applications/{application_id}/commands")
        assert sorted(command["name"] for command in synced[-1].payload) == [
            "picker",
            "pickomino",
        ]


async def _play_to_the_end(harness: BotHarness, live: StoredMessage, calls: int) -> StoredMessage:
    for _ in range(calls):
        message = harness.message(live.id)
        assert "The die shows" in message.text(), message.text()
        player = await harness.current_user()
        call = CALLS[len(message.text()) % 2]  # either call: the dice are pinned
        result = await harness.click(player, message, call)
        assert result.edited and result.ephemeral is None, result.ephemeral
    return harness.message(live.id)


async def test_a_whole_game_is_played_by_buttons_and_recorded_in_its_history(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db", games=SERVED) as harness:
        anne, bob, eve = harness.user("Anne"), harness.user("Bob"), harness.user("Eve")
        # Its own option beside the shared ones: two calls each.
        live = (await harness.slash(anne, "hilo", "start", calls=2, turn_timer=0)).message
        assert "Higher or lower" in live.text() and "Join" in live.labels()
        assert "2 calls each" in live.text()
        await harness.click(bob, harness.message(live.id), "Join")
        started = await harness.click(anne, harness.message(live.id), "Start")
        assert started.edited, started.ephemeral

        # The platform's refusals work for it as for any game.
        player = await harness.current_user()
        other = bob if player.id == anne.id else anne
        refused = await harness.click(other, harness.message(live.id), "Higher")
        assert refused.ephemeral is not None and "turn" in refused.ephemeral
        spectator = await harness.click(eve, harness.message(live.id), "Lower")
        assert spectator.ephemeral == "You're not in this game."
        hint = await harness.click(player, harness.message(live.id), "Hint")
        assert hint.ephemeral is not None and "of 6 faces" in hint.ephemeral

        final = await _play_to_the_end(harness, live, calls=2 * 2)
        assert "Game over after 4 calls." in final.text()
        assert "Play again" in final.labels()
        assert await harness.session() is None

        history = await harness.slash(anne, "hilo", "score", "history")
        assert history.ephemeral is None, history.ephemeral
        shown = history.message.embed
        assert "Anne" in str(shown) and "Bob" in str(shown)
        story = await harness.slash(anne, "hilo", "score", "game", id=1)
        lines = str(story.message.embed)
        assert lines.count("rolled") == 4  # one story line a call
        # Kept apart from the other games' history.
        other_game = await harness.slash(anne, "picker", "score", "history")
        assert other_game.ephemeral is not None
