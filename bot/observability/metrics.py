"""The bot's Prometheus metrics, in a registry of its own.

Each bot instance owns one ``Metrics`` (and its ``CollectorRegistry``) instead of using
the process-wide default registry, so two bots in one test run never share counters.
Counters and histograms are updated by the code that sees the event, through the small
methods below; the gauges that describe "now" (gateway latency, live sessions) are read
from callables at scrape time, so nothing has to keep them up to date.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector

__all__ = [
    "CONTENT_TYPE",
    "GatewayLatencyCollector",
    "LiveSessionsCollector",
    "Metrics",
    "Outcome",
]

PREFIX = "bot"
CONTENT_TYPE = CONTENT_TYPE_LATEST

# A click must be answered within Discord's 3 s, so the buckets are dense below it.
CLICK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
# A commit is one SQLite transaction on a local file: milliseconds when all is well.
COMMIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
# A turn timer or a computer player's step wakes a few milliseconds late on an idle loop;
# a second late is a player left waiting. The buckets from 1 s are whole seconds apart
# up to 5 and reach 30, so a restart (steps due while it started, 2 to 5 s late) tells
# from a database outage (the timers due in it, as late as it was long).
TIMER_BUCKETS = (
    0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0, 2.0, 3.0, 4.0, 5.0, 7.5, 10.0, 15.0, 20.0, 30.0,
)  # fmt: skip
# The event loop's lag (bot.observability.loop_stalls): a few milliseconds when all is
# well; from a second on, Discord's 3 s for a click are in danger.
LAG_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
# A full garbage collection: milliseconds on a small heap, seconds on a large one.
GC_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

# (shard id, seconds); a client without shards reports shard 0.
Latencies = Callable[[], Iterable[tuple[int | None, float]]]
# Live sessions by game kind, e.g. {"pickomino": 3}.
LiveSessions = Callable[[], Mapping[str, int]]


class Outcome:
    """The ``outcome`` label values of the games-finished counter."""

    FINISHED = "finished"
    ABANDONED = "abandoned"


class GatewayLatencyCollector(Collector):
    """``bot_gateway_latency_seconds{shard}``, read from ``latencies()`` at each scrape."""

    NAME = f"{PREFIX}_gateway_latency_seconds"
    HELP = "Time between the last gateway heartbeat and its acknowledgement, per shard."

    def __init__(self, latencies: Latencies) -> None:
        self._latencies = latencies

    def describe(self) -> Iterator[Metric]:
        # Registration asks for the names; answering without samples keeps the callable
        # from being called before the client is ready.
        yield GaugeMetricFamily(self.NAME, self.HELP, labels=["shard"])

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily(self.NAME, self.HELP, labels=["shard"])
        for shard, seconds in self._latencies():
            # Before the first heartbeat is acknowledged discord.py reports nan or inf;
            # no sample is clearer on a dashboard than an infinite latency.
            if math.isfinite(seconds):
                family.add_metric([str(shard or 0)], seconds)
        yield family


class LiveSessionsCollector(Collector):
    """``bot_live_sessions{game}``, read from a callable at each scrape (none until set)."""

    NAME = f"{PREFIX}_live_sessions"
    HELP = "Lobbies and games in progress, by game."

    def __init__(self, source: LiveSessions | None = None) -> None:
        self.source = source

    def describe(self) -> Iterator[Metric]:
        yield GaugeMetricFamily(self.NAME, self.HELP, labels=["game"])

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily(self.NAME, self.HELP, labels=["game"])
        counts = self.source() if self.source is not None else {}
        for game, count in sorted(counts.items()):
            family.add_metric([game], count)
        yield family


def _no_latencies() -> list[tuple[int | None, float]]:
    return []


class Metrics:
    """Every metric the bot exports, and one method per thing worth counting."""

    def __init__(
        self,
        *,
        latencies: Latencies = _no_latencies,
        live_sessions: LiveSessions | None = None,
    ) -> None:
        self.registry = CollectorRegistry()
        self._live_sessions = LiveSessionsCollector(live_sessions)
        self.registry.register(GatewayLatencyCollector(latencies))
        self.registry.register(self._live_sessions)
        self._games_started = Counter(
            f"{PREFIX}_games_started",
            "Games started (lobby closed, first turn dealt), by game.",
            ["game"],
            registry=self.registry,
        )
        self._games_finished = Counter(
            f"{PREFIX}_games_finished",
            "Games that ended, by game and outcome (finished or abandoned).",
            ["game", "outcome"],
            registry=self.registry,
        )
        self._clicks = Histogram(
            f"{PREFIX}_click_seconds",
            "Time from receiving a button click to answering it, by game.",
            ["game"],
            buckets=CLICK_BUCKETS,
            registry=self.registry,
        )
        self._commits = self._histogram(
            "commit_seconds", "Time to commit one session change to the database.", COMMIT_BUCKETS
        )
        self._timer_lateness = self._histogram(
            "timer_lateness_seconds",
            "How late each turn timer or computer player's step woke, after its instant.",
            TIMER_BUCKETS,
        )
        self._loop_lag = self._histogram(
            "event_loop_lag_seconds",
            "How late the event loop's watch woke (every 0.25 s): the loop held by work.",
            LAG_BUCKETS,
        )
        self._gc_full_pauses = self._histogram(
            "gc_full_pause_seconds",
            "Each full garbage collection's pause (the whole process waits for it).",
            GC_BUCKETS,
        )
        self._version_conflicts = Counter(
            f"{PREFIX}_version_conflicts",
            "Commits refused because the stored session had moved on (optimistic locking).",
            registry=self.registry,
        )
        self._discord_errors = Counter(
            f"{PREFIX}_discord_http_errors",
            "Error responses (status 400 and above) from Discord's REST API, by status code; "
            "responses discord.py retried (429, 5xx) count too.",
            ["status"],
            registry=self.registry,
        )

    def _histogram(self, name: str, description: str, buckets: tuple[float, ...]) -> Histogram:
        """An unlabelled histogram `bot_<name>` in this bot's registry."""
        return Histogram(f"{PREFIX}_{name}", description, buckets=buckets, registry=self.registry)

    def watch_live_sessions(self, source: LiveSessions) -> None:
        """Read the live-session counts from ``source`` from the next scrape on."""
        self._live_sessions.source = source

    def game_started(self, game: str) -> None:
        self._games_started.labels(game=game).inc()

    def game_finished(self, game: str, abandoned: bool) -> None:
        outcome = Outcome.ABANDONED if abandoned else Outcome.FINISHED
        self._games_finished.labels(game=game, outcome=outcome).inc()

    def click_handled(self, game: str, seconds: float) -> None:
        self._clicks.labels(game=game).observe(seconds)

    def commit(self, seconds: float) -> None:
        self._commits.observe(seconds)

    def timer_late(self, seconds: float) -> None:
        self._timer_lateness.observe(seconds)

    def loop_lag(self, seconds: float) -> None:
        self._loop_lag.observe(seconds)

    def gc_full_pause(self, seconds: float) -> None:
        self._gc_full_pauses.observe(seconds)

    def version_conflict(self) -> None:
        self._version_conflicts.inc()

    def discord_error(self, code: int) -> None:
        self._discord_errors.labels(status=str(code)).inc()

    def exposition(self) -> bytes:
        """Every metric in Prometheus' text format (served with ``CONTENT_TYPE``)."""
        return generate_latest(self.registry)
