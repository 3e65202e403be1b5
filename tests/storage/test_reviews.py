"""The stored game reviews, on SQLite and PostgreSQL: one a game, the first one kept."""

from __future__ import annotations

from bot.storage.reviews import ReviewStore, StoredReview

BIG = 1_300_000_000_000_000_001  # Discord ids need 64 bits


async def test_a_review_is_stored_once_and_read_back(database):
    store = ReviewStore(database)
    assert await store.get(7) is None
    first = StoredReview(7, "somegame", BIG, {"players": [{"player": "1", "luck": -0.25}]})
    size = await store.put(first)
    assert size == len('{"players":[{"player":"1","luck":-0.25}]}')
    assert await store.get(7) == first
    await store.put(StoredReview(7, "somegame", BIG, {"players": []}))  # computed twice
    assert await store.get(7) == first
    other = StoredReview(BIG, "other", 5, {"names": {"2": "Zoë ✨"}})
    await store.put(other)
    assert await store.get(BIG) == other
