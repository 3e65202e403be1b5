"""The just-ended games' events kept in memory, as their stored text."""

from __future__ import annotations

import json
import random
import tracemalloc

from bot.sessions.endings import RecentEndings

FACES = (1, 2, 3, 4, 5, 6)


def _events(count: int, name: str = "Zoë") -> list[dict[str, object]]:
    """Events shaped like a Pickomino game's: a type, a player, dice, a name now and then."""
    return [
        {"type": "rolled", "player": 412345678901234567 + turn % 3, "dice": [1, 3, 3, 5, 6, 6]}
        if turn % 4
        else {"type": "took", "player": 412345678901234567, "tile": 21 + turn % 16, "by": name}
        for turn in range(count)
    ]


def _texts(events: list[dict[str, object]]) -> list[str]:
    return [json.dumps(event, ensure_ascii=False, separators=(",", ":")) for event in events]


def test_a_game_is_read_back_as_it_was_stored_in_order() -> None:
    endings = RecentEndings(kept=4)
    events = _events(30)
    endings.remember(7, _texts(events))
    assert endings.events(7) == events
    assert endings.events(8) is None


def test_each_read_is_a_fresh_list_that_the_reader_may_change() -> None:
    endings = RecentEndings(kept=4)
    endings.remember(7, _texts(_events(3)))
    first = endings.events(7)
    assert first is not None
    first[0]["type"] = "changed"
    first.append({"type": "added"})
    assert endings.events(7) == _events(3)


def test_the_oldest_ending_is_forgotten_first_and_remembering_again_renews() -> None:
    endings = RecentEndings(kept=2)
    endings.remember(1, _texts(_events(1)))
    endings.remember(2, _texts(_events(2)))
    endings.remember(1, _texts(_events(5)))  # 1 again: now the newest, with its new events
    endings.remember(3, _texts(_events(3)))
    assert 2 not in endings and endings.events(2) is None
    assert len(endings) == 2
    assert endings.events(1) == _events(5)
    assert endings.events(3) == _events(3)
    endings.forget_all()
    assert len(endings) == 0 and endings.events(1) is None


def test_a_game_with_no_events_is_kept_as_an_empty_list() -> None:
    endings = RecentEndings(kept=1)
    endings.remember(9, [])
    assert endings.events(9) == []


def test_a_kept_game_takes_a_fraction_of_its_events_decoded() -> None:
    # The reason for the text: a game of 400 events, decoded, is about 250 kB of small
    # objects for the garbage collector to walk; kept as text, one bytes object.
    texts = _texts(_events(400))
    endings = RecentEndings(kept=1)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        decoded = [json.loads(text) for text in texts]
        decoded_size = tracemalloc.get_traced_memory()[0] - before
        before = tracemalloc.get_traced_memory()[0]
        endings.remember(1, texts)
        kept_size = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(decoded) == 400
    assert kept_size * 4 < decoded_size, (kept_size, decoded_size)


def test_a_kept_game_takes_a_fraction_of_its_stored_text() -> None:
    # Kept compressed: a game's events repeat their keys and dice hundreds of times. The
    # dice are drawn, as a game's are, so that the text does not merely repeat one event.
    rng = random.Random(5)
    events = [
        {"type": "rolled", "player": 412345678901234567 + turn % 3, "dice": rng.choices(FACES, k=8)}
        for turn in range(400)
    ]
    texts = _texts(events)
    stored = sum(len(text.encode()) for text in texts)
    endings = RecentEndings(kept=1)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        endings.remember(1, texts)
        kept_size = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert endings.events(1) == events
    assert kept_size * 3 < stored, (kept_size, stored)
