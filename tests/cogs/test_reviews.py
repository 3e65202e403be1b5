"""Game reviews through the real handlers: the end screen's Review (whoever presses it,
in their language, ephemerally), `/pickomino score game ... review`, and the clear
refusals: an unknown game, an abandoned one, another community's, one stored before
reviews were kept."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from bot.app import shutdown
from bot.i18n import t, with_locale
from bot.storage.protocols import Statement
from tests.cogs.helpers import play_to_the_end, start_game
from tests.discord_harness import BotHarness, PrivateChat


def _line(language: str, key: str, **params: Any) -> str:
    with with_locale(language):
        return t(key, **params)


async def test_review_after_a_game_for_players_and_onlookers(tmp_path: Path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob", locale="de")
        live = await start_game(harness, [anne, bob])
        session = await harness.session()
        game_id = session.id
        final = await play_to_the_end(harness, live.id)
        assert "Review" in final.labels() and "Play again" in final.labels()
        await harness.bot.platform.reviews.close()  # computed in the background, stored
        rows = await harness.bot.db.fetchall("SELECT game_id, kind FROM game_reviews")
        assert [(row[0], row[1]) for row in rows] == [(game_id, "pickomino")]

        # Bob reads it in German: both players' lines, then his own costliest decisions.
        answer = await harness.click(bob, final, "Review")
        text = answer.message.text()
        assert answer.message.ephemeral
        assert _line("de", "review.title", game_id=game_id) in text
        assert "**Anne**" in text and "**Bob**" in text
        assert _line("de", "review.costly", name="Bob") in text
        assert "Siegchance" in text and "🎯" in text

        # An onlooker may read it too (her language, the first seat's decisions).
        eve = harness.user("Eve", locale="pl")
        looked = await harness.click(eve, final, "Review")
        assert _line("pl", "review.title", game_id=game_id) in looked.message.text()
        assert harness.message(final.id).text() == final.text()  # nothing changed

        # The same through the score command.
        scored = await harness.slash(anne, "pickomino", "score", "game", id=game_id, review=True)
        assert _line("en", "review.title", game_id=game_id) in scored.message.text()
        assert scored.message.ephemeral


async def test_a_missing_review_is_explained_and_changes_nothing(tmp_path: Path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob, zoe = harness.user("Anne"), harness.user("Bob"), harness.user("Zoé", locale="fr")

        async def review(game_id: int, **where: Any) -> str | None:
            asked = await harness.slash(
                zoe, "pickomino", "score", "game", id=game_id, review=True, **where
            )
            return asked.ephemeral

        assert await review(999) == _line("fr", "review.missing.unknown", game_id=999)

        # An abandoned game (ended with /pickomino end).
        live = await start_game(harness, [anne, bob])
        game_id = (await harness.session()).id
        confirm = (await harness.slash(anne, "pickomino", "end")).message
        await harness.click(anne, confirm, "End the game")
        assert "abandoned" in harness.message(live.id).text()
        assert "Review" not in harness.message(live.id).labels()
        assert await review(game_id) == _line("fr", "review.missing.abandoned", game_id=game_id)

        # A finished game stored before reviews were kept: no review, no events left.
        live = await start_game(harness, [anne, bob])
        game_id = (await harness.session()).id
        final = await play_to_the_end(harness, live.id)
        await harness.bot.platform.reviews.close()
        await harness.bot.db.execute_batch([Statement("DELETE FROM game_reviews")])
        harness.bot.sessions.endings.forget_all()  # as after a restart: the events are gone
        assert await review(game_id) == _line("fr", "review.missing.old", game_id=game_id)
        pressed = await harness.click(anne, final, "Review")
        assert pressed.message.text() == _line("en", "review.missing.old", game_id=game_id)
        assert await harness.bot.db.fetchall("SELECT * FROM game_reviews") == []

        # Another community's game (here, a DM's) is unknown there.
        elsewhere = await review(game_id, private=PrivateChat(555))
        assert elsewhere == _line("fr", "review.missing.unknown", game_id=game_id)


def _slow_reviews(monkeypatch: Any, seconds: float) -> None:
    """Reviews that take `seconds` to work out (in their thread, as the real ones do)."""
    from bot.ui import reviews

    compute = reviews.compute_review

    def slow(*args: Any) -> Any:
        time.sleep(seconds)
        return compute(*args)

    monkeypatch.setattr(reviews, "compute_review", slow)


async def _game_just_ended(harness: BotHarness) -> int:
    """A finished game whose review is still being worked out, as when the shutdown
    comes just after a game's last click (the harness's clicks wait for every task, so
    the review the end started is done: it is dropped and started again)."""
    anne, bob = harness.user("Anne"), harness.user("Bob")
    live = await start_game(harness, [anne, bob])
    game_id = (await harness.session()).id
    await play_to_the_end(harness, live.id)
    await harness.bot.db.execute_batch([Statement("DELETE FROM game_reviews")])
    session = await harness.bot.sessions.by_id(game_id)
    assert session is not None
    harness.bot.platform.reviews.game_ended(session)
    assert len(harness.bot.platform.reviews._tasks) == 1  # being worked out
    return game_id


async def _stored_reviews(database: Path) -> list[int]:
    async with BotHarness.running(database) as harness:
        rows = await harness.bot.db.fetchall("SELECT game_id FROM game_reviews")
        return [row[0] for row in rows]


async def test_a_review_still_being_worked_out_at_shutdown_is_stored_first(
    tmp_path: Path, monkeypatch: Any, caplog: Any
):
    # What is checked is that the shutdown waits, not how long it may: on a loaded
    # machine the review outlasted the bot's 5 s (the test below shortens it instead).
    monkeypatch.setattr(shutdown, "REVIEWS_AT_SHUTDOWN_SECONDS", 60.0)
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        _slow_reviews(monkeypatch, 0.5)
        game_id = await _game_just_ended(harness)
    # The shutdown waited for it: stored before the database closed, and nothing failed.
    assert await _stored_reviews(tmp_path / "bot.db") == [game_id]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_a_review_longer_than_shutdown_allows_is_dropped_without_a_traceback(
    tmp_path: Path, monkeypatch: Any, caplog: Any
):
    monkeypatch.setattr(shutdown, "REVIEWS_AT_SHUTDOWN_SECONDS", 0.1)
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        _slow_reviews(monkeypatch, 1.0)
        await _game_just_ended(harness)
        began = time.monotonic()
    assert time.monotonic() - began < 1.0  # the shutdown did not wait for it
    assert "1 game review(s) not finished" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert await _stored_reviews(tmp_path / "bot.db") == []


async def test_a_review_waits_out_a_busy_database_to_be_stored(
    tmp_path: Path, monkeypatch: Any, caplog: Any
):
    """The game's events are gone once it ended: a review not stored then is never had
    again. A database busy (or away) is waited out, with no traceback."""
    from bot.storage.protocols import DatabaseBusy
    from bot.ui import reviews

    monkeypatch.setattr(reviews, "STORE_RETRY_SECONDS", 0.01)
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        store = harness.bot.platform.reviews.store
        put = store.put
        refusals = [DatabaseBusy("all 10 pooled connections in use for 2 s")] * 2

        async def busy_then_free(stored: Any) -> None:
            if refusals:
                raise refusals.pop()
            await put(stored)

        monkeypatch.setattr(store, "put", busy_then_free)
        game_id = await _play_a_game(harness)
        await harness.bot.platform.reviews.close()
        rows = await harness.bot.db.fetchall("SELECT game_id FROM game_reviews")
    assert [row[0] for row in rows] == [game_id] and refusals == []
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


async def test_a_review_the_database_never_takes_is_a_warning_without_a_traceback(
    tmp_path: Path, monkeypatch: Any, caplog: Any
):
    from bot.storage.protocols import DatabaseBusy
    from bot.ui import reviews

    monkeypatch.setattr(reviews, "STORE_RETRY_SECONDS", 0.01)
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        store = harness.bot.platform.reviews.store

        async def busy(stored: Any) -> None:
            raise DatabaseBusy("all 10 pooled connections in use for 2 s")

        monkeypatch.setattr(store, "put", busy)
        game_id = await _play_a_game(harness)
        await harness.bot.platform.reviews.close()
    warned = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in warned] == [
        f"game {game_id}'s review was not stored: database busy "
        "(all 10 pooled connections in use for 2 s)"
    ]
    assert warned[0].exc_info is None


async def _play_a_game(harness: BotHarness) -> int:
    """A game of two played to its end (its review started there); its id."""
    anne, bob = harness.user("Anne"), harness.user("Bob")
    live = await start_game(harness, [anne, bob])
    game_id = (await harness.session()).id
    await play_to_the_end(harness, live.id)
    return int(game_id)
