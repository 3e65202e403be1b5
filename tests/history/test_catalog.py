"""score.json and each game's score catalog: every key the history code asks for
exists, and every key is asked for."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from bot.games.pickomino.history import PICKOMINO_HISTORY
from bot.games.registry import GAMES
from bot.history.models import Period, Ranking
from bot.i18n import catalog, t

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    *sorted((ROOT / "bot/history").rglob("*.py")),
    *sorted((ROOT / "bot/score").rglob("*.py")),
    *(Path(inspect.getfile(type(game.history))) for game in GAMES),
]
SCORE_KEY = r"(?:[a-z_]+\.)?score\.[a-z0-9_.]+"  # the platform's score.*, a game's <kind>.score.*
LITERAL_KEY = re.compile(rf"""["']({SCORE_KEY})["']""")


def used_keys() -> set[str]:
    literal = {
        key for path in SOURCES for key in LITERAL_KEY.findall(path.read_text(encoding="utf-8"))
    }
    plain = [r for r in Ranking if r is not Ranking.AVERAGE_SCORE]
    by_enum = {f"score.ranking.{r}" for r in plain} | {f"score.period.{p}" for p in Period}
    return literal | by_enum


def score_keys() -> set[str]:
    """The catalog's score keys, a counted key (`_one`, `_other`...) by its base."""
    owners = {"score", *GAMES.kinds}  # a test's own game may have added keys of its own
    return {
        PLURAL.sub("", key)
        for key in catalog()
        if re.fullmatch(SCORE_KEY, key) and key.split(".")[0] in owners
    }


PLURAL = re.compile(r"_(zero|one|two|few|many|other)$")


def test_every_key_used_exists_and_every_score_key_is_used():
    keys = score_keys()
    assert used_keys() - keys == set()
    assert keys - used_keys() == set()


def test_pickomino_names_only_keys_of_the_catalog():
    figures = PICKOMINO_HISTORY
    named = [figures.score.name, figures.score.best]
    named += [f"{figures.score.per_game}_one", f"{figures.score.per_game}_other"]
    named += [figure.label for figure in figures.figures]
    assert figures.favourite is not None
    named += [figures.favourite.label, figures.favourite.value, figures.favourite.none]
    assert figures.variant is not None
    variant = figures.variant
    named += [variant.name, variant.mark, variant.only, variant.without, variant.describe]
    named += [variant.option_name]
    assert set(named) <= catalog().keys()


def test_every_template_formats():
    params = dict(
        name="Anne", guild="Here", game_id=1, when="<t:1:R>", players="Anne", worms=3,
        page=1, pages=2, total=3, count=4, rank=1, value="v", ranked=5, minimum=5, games=2,
        wins=1, rate=0.5, average=2.5, stored=3, tile=21, times=2, current=1, longest=2,
        channel_id=9, number=1, victim="Bob", turned=36, tiles="`21`", ranking="Wins",
        period="All time", command="/pickomino", score="7🪱", item=21, picks="Anne 🔴5",
        die="🔴5", points=5, bonus=3, colours="🔴🔴", variant=" 🌭", mark="🟧", turn="25",
        turns="🟧 25", title="Game #1", rating="1,512", top="1,790", level="Hard",
        levels="Hard 1,540",
    )  # fmt: skip
    for key in (k for k in catalog() if k.startswith("score.")):
        assert t(key, **params)
