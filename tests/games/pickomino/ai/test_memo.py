"""The solvers' memos (ai/memo.py): shared by the games in progress, private to a review."""

from __future__ import annotations

import random
import threading

from bot.games.pickomino.ai import memo
from bot.games.pickomino.ai.memo import PRIVATE_KEPT, Memoized, private_memos
from bot.games.pickomino.ai.players import Level
from bot.games.pickomino.ai.self_play import play_levels
from bot.games.pickomino.ai.solver import solve
from bot.games.pickomino.ai.states import MAX_TOTAL
from bot.games.pickomino.engine import Rules
from bot.games.pickomino.review import PickominoReviewer
from bot.plugin.review import ReviewSetup


class Counted:
    """A function that counts its calls: how often the memo let it work."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def __call__(self, n: int) -> list[int]:
        self.calls.append(n)
        return [n * n]


def test_the_shared_memo_answers_a_repeat_without_working_again():
    work = Counted()
    square = Memoized(work, kept=4)
    first = square(3)
    assert square(3) is first and work.calls == [3]
    assert square.cache_info().currsize == 1


def test_a_private_memo_neither_reads_nor_fills_the_shared_one():
    work = Counted()
    square = Memoized(work, kept=4)
    shared = square(3)
    with private_memos():
        private = square(3)
        assert private == shared and private is not shared  # made again, apart
        assert square(3) is private and square(5) == [25]
    assert square.cache_info().currsize == 1 and work.calls == [3, 3, 5]
    assert square(5) == [25] and work.calls == [3, 3, 5, 5]  # the private 5 was dropped


def test_a_private_memo_keeps_only_the_latest_results():
    work = Counted()
    square = Memoized(work, kept=100)
    with private_memos():
        for n in range(PRIVATE_KEPT + 1):
            square(n)
        square(PRIVATE_KEPT)  # kept
        square(1)  # kept: the most recent PRIVATE_KEPT
        square(0)  # pushed out by the last one
    assert work.calls == [*range(PRIVATE_KEPT + 1), 0]


def test_a_private_memo_is_its_own_thread_s_only():
    """A review runs in its thread while computer players decide in theirs."""
    work = Counted()
    square = Memoized(work, kept=4)
    inside, done = threading.Event(), threading.Event()

    def review() -> None:
        with private_memos():
            square(7)
            inside.set()
            done.wait(5)

    thread = threading.Thread(target=review)
    thread.start()
    assert inside.wait(5)
    square(7)  # a computer player meanwhile: the shared memo
    done.set()
    thread.join()
    assert square.cache_info().currsize == 1 and work.calls == [7, 7]
    assert memo._PRIVATE.get() is None


def test_a_review_leaves_the_games_in_progress_their_solved_turns():
    rules = Rules()
    players, events = play_levels([Level.HARD, Level.NORMAL, Level.EASY], random.Random(3), rules)
    solve.cache_clear()
    solve(tuple([None] * 21 + [1.0] * (MAX_TOTAL - 20)))  # a turn in progress, solved by its player
    before = solve.cache_info()
    review = PickominoReviewer().review(ReviewSetup(tuple(players), rules.to_dict()), events)
    assert sum(player.decisions for player in review.players) > 30
    after = solve.cache_info()
    assert (after.currsize, after.hits, after.misses) == (1, before.hits, before.misses)
