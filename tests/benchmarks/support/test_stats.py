import math

import pytest

from benchmarks.support.stats import (
    deal_interval,
    deal_means,
    first_place_share,
    mean_interval,
    percentile,
    wilson,
)


def test_wilson_interval_of_a_half_is_symmetric_and_matches_the_formula():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.40383, abs=1e-4)  # the textbook value for 50 of 100
    assert low + high == pytest.approx(1.0)


def test_wilson_interval_of_no_successes_starts_at_zero_and_is_not_empty():
    low, high = wilson(0, 10)
    assert low == pytest.approx(0.0, abs=1e-12) and 0.25 < high < 0.3


def test_percentile_is_the_nearest_rank_of_unsorted_values():
    values = [float(v) for v in range(100, 0, -1)]
    assert percentile(values, 0.5) == 51.0
    assert percentile(values, 0.99) == 100.0
    assert percentile([3.0], 0.99) == 3.0


def test_mean_interval_is_centred_on_the_mean_and_narrows_with_the_square_root_of_n():
    low, high = mean_interval([0.0, 1.0] * 50)
    assert (low + high) / 2 == pytest.approx(0.5)
    # sample standard deviation 0.5025 over 100 values: half-width 1.96 * 0.05025
    assert high - low == pytest.approx(2 * 1.959964 * math.sqrt(0.25 * 100 / 99) / 10)
    wider = mean_interval([0.0, 1.0] * 25)
    assert (wider[1] - wider[0]) / (high - low) == pytest.approx(math.sqrt(99 / 49))


def test_first_place_share_splits_a_shared_win_and_deal_means_average_each_deal():
    from types import SimpleNamespace

    standings = [SimpleNamespace(rank=1, player="a"), SimpleNamespace(rank=1, player="b")]
    standings.append(SimpleNamespace(rank=3, player="c"))
    assert [first_place_share(standings, p) for p in "abc"] == [0.5, 0.5, 0.0]
    assert deal_means([1.0, 0.0, 0.5, 0.5], 2) == [0.5, 0.5]


def test_a_single_deal_gives_the_whole_range_and_more_give_the_mean_interval():
    assert deal_interval([0.5]) == (0.0, 1.0)
    assert deal_interval([0.0, 1.0, 0.5]) == mean_interval([0.0, 1.0, 0.5])
