"""The bot's metrics count what the session layer and the clicks report: a game started
and finished, each commit, and each click's handling time, by game."""

from __future__ import annotations

from prometheus_client import generate_latest

from tests.cogs.helpers import play_to_the_end, start_game
from tests.discord_harness import BotHarness


async def test_a_played_game_shows_in_the_metrics(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob])
        mid_game = generate_latest(harness.bot.metrics.registry).decode()
        assert 'bot_live_sessions{game="pickomino"} 1.0' in mid_game
        await play_to_the_end(harness, live.id)
        text = generate_latest(harness.bot.metrics.registry).decode()
    assert 'bot_games_started_total{game="pickomino"} 1.0' in text
    assert 'bot_games_finished_total{game="pickomino",outcome="finished"} 1.0' in text
    assert 'bot_click_seconds_count{game="pickomino"}' in text
    commits = next(
        line for line in text.splitlines() if line.startswith("bot_commit_seconds_count")
    )
    assert float(commits.split()[-1]) > 10
