"""The stored turn pings, on SQLite and PostgreSQL: one a channel, forgotten by message."""

from __future__ import annotations

from bot.storage.pings import PingStore, StoredPing

BIG = 1_300_000_000_000_000_001  # Discord ids need 64 bits


async def test_one_ping_a_channel_replaced_and_removed_by_its_message(database):
    store = PingStore(database)
    assert await store.get(BIG) is None and await store.all() == []
    first = StoredPing(BIG, BIG + 1, 7, "7:3:101", BIG + 2)
    await store.put(first)
    assert await store.get(BIG) == first
    second = StoredPing(BIG, BIG + 1, 7, "7:4:102", BIG + 3)
    await store.put(second)  # the next turn's ping replaces it
    other = StoredPing(BIG + 10, BIG + 1, 8, "8:1:103", BIG + 11)
    await store.put(other)
    assert await store.all() == [second, other]
    await store.remove(BIG, first.message_id)  # an older ping: the newer one stays
    assert await store.get(BIG) == second
    await store.remove(BIG, second.message_id)
    assert await store.all() == [other]


async def test_a_ping_that_lands_late_never_replaces_a_newer_one(database):
    """A put is one statement alone, which a server that hung may run after a newer
    one: the channel's record stays the newest ping (the larger message id)."""
    store = PingStore(database)
    newer = StoredPing(BIG, BIG + 1, 7, "7:5:104", BIG + 20)
    await store.put(newer)
    await store.put(StoredPing(BIG, BIG + 1, 7, "7:4:102", BIG + 19))
    assert await store.get(BIG) == newer
