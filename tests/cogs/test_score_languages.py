"""The score pages in the asker's language: German and Polish (the longest) within
Discord's limits on the longest cases, with their own plurals and numbers, and English
never saying "1 games"."""

from __future__ import annotations

import random
import re

import pytest

from bot.games.picker.history import PICKER_HISTORY
from bot.games.pickomino.history import PICKOMINO_HISTORY
from bot.history.models import LeaderboardEntry, PlayerStats, Ranking
from bot.history.text import games, leaderboard_value, player_fields
from bot.i18n import with_locale
from tests.cogs.test_score import check_embed_limits, command, save, seat
from tests.cogs.test_score import games as played_games
from tests.discord_harness import BotHarness
from tests.history.games import play, result_of


@pytest.fixture
async def harness(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as running:
        yield running


def test_counted_words_take_each_languages_plural_form():
    with with_locale("en"):
        assert [games(n) for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    with with_locale("pl"):
        assert [games(n) for n in (1, 2, 5, 22, 25)] == [
            "1 partia", "2 partie", "5 partii", "22 partie", "25 partii",
        ]  # fmt: skip
    entry = LeaderboardEntry(1, 1, "Anne", games=1, wins=1, score=7)
    two = LeaderboardEntry(1, 1, "Anne", games=22, wins=5, score=70)
    with with_locale("en"):
        assert leaderboard_value(Ranking.WINS, entry, PICKOMINO_HISTORY) == "1 win in 1 game"
        assert leaderboard_value(Ranking.GAMES, entry, PICKOMINO_HISTORY) == "1 game"
        assert leaderboard_value(Ranking.AVERAGE_SCORE, entry, PICKOMINO_HISTORY) == (
            "7.0 worms a game (1 game)"
        )
        assert leaderboard_value(Ranking.WIN_RATE, two, PICKER_HISTORY) == "22.7% (5 of 22 games)"
    with with_locale("pl"):
        assert leaderboard_value(Ranking.WINS, two, PICKOMINO_HISTORY) == "5 wygranych (22 partie)"
        assert leaderboard_value(Ranking.AVERAGE_SCORE, two, PICKOMINO_HISTORY) == (
            "3,2 robaka na partię (22 partie)"
        )
    with with_locale("de"):
        assert leaderboard_value(Ranking.WIN_RATE, two, PICKOMINO_HISTORY) == (
            "22,7\u00a0% (5 von 22 Partien)"  # a no-break space, as Babel writes it
        )
    with with_locale("fr"):
        assert leaderboard_value(Ranking.WIN_RATE, two, PICKOMINO_HISTORY).startswith("22,7\u00a0%")


def test_the_player_card_shows_rates_and_leavers_in_the_readers_language():
    stats = PlayerStats(
        user_id=1, name="Anne", games=7, wins=3, score=40, best_score=9, current_streak=1,
        longest_streak=2, figures={}, favourite=None, favourite_taken=0, stored_games=9,
        left_games=1,
    )  # fmt: skip
    with with_locale("de"):
        fields = dict(player_fields(stats, PICKOMINO_HISTORY))
    assert fields["Siegquote"] == "42,9\u00a0%" and fields["Würmer im Schnitt"] == "5,7"
    assert fields["Vorzeitig ausgestiegen"] == "1"


@pytest.mark.parametrize("locale", ["de", "pl", "en-US"])
async def test_every_score_page_fits_discords_limits_in_long_languages(harness, locale):
    people = [
        harness.user(f"Ein sehr langer Anzeigename Nr {index}", locale=locale) for index in range(7)
    ]
    results = played_games(people, 11, seed=9)
    # An Extrawurm game with a player leaving it, after them.
    seats = [seat(person) for person in people[:3]]
    extrawurm = result_of(
        play(random.Random(4), seats, extrawurm=True, leave_at_turn={people[2].id: 5}),
        seats,
        game_id=12,
        ended_at=results[-1].ended_at + 60,
        guild_id=results[-1].guild_id,
    )
    await save(harness, [*results, extrawurm])
    asker = people[0]
    texts: list[str] = []

    def shown(answer) -> str:
        check_embed_limits(answer.message.embed)
        embed = answer.message.embed
        parts = [embed.get("title", ""), embed.get("description", "")]
        parts += [(embed.get("footer") or {}).get("text", "")]
        parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
        return "\n".join(parts)

    texts.append(shown(await command(harness, asker, "history")))
    for ranking in ("wins", "win_rate", "average_worms", "games"):
        for variants in ("all", "only", "without"):
            answer = await command(
                harness, asker, "leaderboard", ranking=ranking, extrawurm=variants
            )
            texts.append(shown(answer) if answer.message.embeds else answer.ephemeral)
    texts.append(shown(await command(harness, asker, "player")))
    longest = max(results, key=lambda r: len(r.story))
    for game_id in (longest.game_id, 12):
        texts.append(shown(await command(harness, asker, "game", id=game_id)))
    everything = "\n".join(texts)
    wrong_singular = {"en-US": "games|wins", "de": "Partien|Siege", "pl": "partie|wygrane"}
    assert not re.search(rf"\b1 ({wrong_singular[locale]})\b", everything)
    assert "🌭" in everything  # the Extrawurm game is marked
    if locale == "de":
        assert "Seite 1 von 2 · 12 Partien" in everything and "Ohne Extrawurm-Partien" in everything
        assert "Endstand" in everything and "Würmer im Schnitt" in everything
    if locale == "pl":
        assert "Strona 1 z 2 · 12 partii" in everything and "Wyniki końcowe" in everything
