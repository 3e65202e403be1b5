"""bench_inflight times the journal of clicks in flight and prints one figure."""

import pytest

from benchmarks import bench_inflight


def test_it_prints_the_cost_of_a_click_kept_in_flight(capsys) -> None:
    bench_inflight.main(["--clicks", "50", "--repeats", "2"])
    said = capsys.readouterr().out
    assert said.startswith("bench_inflight: a click kept in flight")
    figure = float(said.split("payload: ")[1].split(" us")[0])
    assert figure > 0


def test_bad_input_is_an_error_line(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench_inflight.main(["--clicks", "0"])
    assert exit_.value.code == 2
    assert "error: --clicks and --repeats must be at least 1" in capsys.readouterr().err
