"""The metrics: what each method counts, the scrape-time gauges, one registry per bot."""

from __future__ import annotations

import math

from prometheus_client.parser import text_string_to_metric_families

from bot.observability.metrics import Metrics


def samples(metrics: Metrics) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of the exposition, parsed back: (name, labels) -> value."""
    text = metrics.exposition().decode()
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(metrics: Metrics, name: str, **labels: str) -> float | None:
    return samples(metrics).get((name, frozenset(labels.items())))


def test_every_metric_is_named_before_anything_happens() -> None:
    text = Metrics().exposition().decode()
    for name in (
        "bot_gateway_latency_seconds",
        "bot_live_sessions",
        "bot_games_started_total",
        "bot_games_finished_total",
        "bot_click_seconds",
        "bot_commit_seconds",
        "bot_timer_lateness_seconds",
        "bot_event_loop_lag_seconds",
        "bot_gc_full_pause_seconds",
        "bot_version_conflicts_total",
        "bot_discord_http_errors_total",
    ):
        assert f"# HELP {name} " in text, name


def test_games_started_and_finished_by_game_and_outcome() -> None:
    metrics = Metrics()
    metrics.game_started("pickomino")
    metrics.game_started("pickomino")
    metrics.game_started("picker")
    metrics.game_finished("pickomino", abandoned=False)
    metrics.game_finished("pickomino", abandoned=True)
    metrics.game_finished("pickomino", abandoned=True)
    assert value(metrics, "bot_games_started_total", game="pickomino") == 2
    assert value(metrics, "bot_games_started_total", game="picker") == 1
    finished = "bot_games_finished_total"
    assert value(metrics, finished, game="pickomino", outcome="finished") == 1
    assert value(metrics, finished, game="pickomino", outcome="abandoned") == 2
    assert value(metrics, finished, game="picker", outcome="finished") is None


def test_click_and_commit_times_fall_into_their_buckets() -> None:
    metrics = Metrics()
    metrics.click_handled("pickomino", 0.02)
    metrics.click_handled("pickomino", 0.7)
    metrics.commit(0.003)
    click = "bot_click_seconds"
    assert value(metrics, f"{click}_count", game="pickomino") == 2
    assert math.isclose(value(metrics, f"{click}_sum", game="pickomino") or 0, 0.72)
    assert value(metrics, f"{click}_bucket", game="pickomino", le="0.025") == 1
    assert value(metrics, f"{click}_bucket", game="pickomino", le="1.0") == 2
    assert value(metrics, "bot_commit_seconds_bucket", le="0.0025") == 0
    assert value(metrics, "bot_commit_seconds_bucket", le="0.005") == 1


def test_timer_lateness_falls_into_its_buckets() -> None:
    metrics = Metrics()
    metrics.timer_late(0.003)
    metrics.timer_late(0.3)
    lateness = "bot_timer_lateness_seconds"
    assert value(metrics, f"{lateness}_count") == 2
    assert value(metrics, f"{lateness}_bucket", le="0.005") == 1
    assert value(metrics, f"{lateness}_bucket", le="0.5") == 2


def test_conflicts_and_discord_errors_by_status() -> None:
    metrics = Metrics()
    metrics.version_conflict()
    metrics.discord_error(404)
    metrics.discord_error(429)
    metrics.discord_error(429)
    assert value(metrics, "bot_version_conflicts_total") == 1
    assert value(metrics, "bot_discord_http_errors_total", status="404") == 1
    assert value(metrics, "bot_discord_http_errors_total", status="429") == 2


def test_gauges_are_read_at_scrape_time() -> None:
    latencies: list[tuple[int | None, float]] = [(None, 0.1)]
    sessions = {"pickomino": 3}
    metrics = Metrics(latencies=lambda: latencies)
    assert value(metrics, "bot_gateway_latency_seconds", shard="0") == 0.1
    assert value(metrics, "bot_live_sessions", game="pickomino") is None  # no source yet
    metrics.watch_live_sessions(lambda: sessions)
    assert value(metrics, "bot_live_sessions", game="pickomino") == 3
    latencies[:] = [(0, 0.2), (1, 0.3)]
    sessions.update(pickomino=1, picker=2)
    assert value(metrics, "bot_gateway_latency_seconds", shard="1") == 0.3
    assert value(metrics, "bot_live_sessions", game="pickomino") == 1
    assert value(metrics, "bot_live_sessions", game="picker") == 2


def test_a_latency_not_measured_yet_is_left_out() -> None:
    metrics = Metrics(latencies=lambda: [(0, math.nan), (1, math.inf), (2, 0.05)])
    latency = {
        labels: sample
        for (name, labels), sample in samples(metrics).items()
        if name == "bot_gateway_latency_seconds"
    }
    assert latency == {frozenset({("shard", "2")}): 0.05}


def test_each_bot_has_its_own_registry() -> None:
    first, second = Metrics(), Metrics()
    first.version_conflict()
    assert value(first, "bot_version_conflicts_total") == 1
    assert value(second, "bot_version_conflicts_total") == 0
