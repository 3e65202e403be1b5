import pytest

from benchmarks.stats import percentile, wilson


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
