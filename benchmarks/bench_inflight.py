"""Benchmark: what keeping a click in flight costs the event loop
(bot.connection.inflight).

Each interaction is written to the journal as it arrives, marked when its change
commits and freed when its answer is out: three calls on the loop for every click. This
times the three together for a click's gateway payload of about 3 KiB (25 buttons, the
message it was made on), the journal in a temporary folder, and prints the median of
the repeats.

Usage: python -m benchmarks.bench_inflight [--clicks 2000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from bot.connection import inflight

FIRST_ID = 1_300_000_000_000_000_000


def payload(interaction_id: int) -> dict[str, Any]:
    """A button click's INTERACTION_CREATE, as big as the bot's live messages make one."""
    buttons = [
        {"type": 2, "style": 2, "label": f"keep {i}", "custom_id": f"pko:move:123:45:keep:{i}"}
        for i in range(25)
    ]
    rows = [{"type": 1, "components": buttons[i : i + 5]} for i in range(0, 25, 5)]
    return {
        "id": str(interaction_id),
        "type": 3,
        "token": "t" * 200,
        "application_id": "1",
        "channel_id": "2",
        "guild_id": "3",
        "member": {"user": {"id": "4", "username": "alice"}, "roles": [], "permissions": "1"},
        "message": {"id": "5", "components": rows, "content": "x" * 500},
        "data": {"custom_id": "pko:move:123:45:roll", "component_type": 2},
        "locale": "en-US",
        "app_permissions": "1",
    }


def microseconds_a_click(folder: Path, clicks: int) -> float:
    """Received, committed and answered, for `clicks` clicks: the time of one."""
    journal = inflight.Inflight(folder)
    journal.take()
    payloads = [payload(FIRST_ID + index) for index in range(clicks)]
    began = time.perf_counter()
    for data in payloads:
        interaction_id = journal.received(data)
        with inflight.handling(interaction_id):
            journal.committed()
        journal.answered(FIRST_ID if interaction_id is None else interaction_id)
    elapsed = time.perf_counter() - began
    journal.close()
    return elapsed / clicks * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args(argv)
    if options.clicks < 1 or options.repeats < 1:
        parser.error("--clicks and --repeats must be at least 1")
    size = len(orjson.dumps(payload(FIRST_ID)))
    with tempfile.TemporaryDirectory(prefix="bench-inflight-") as folder:
        times = [
            microseconds_a_click(Path(folder) / str(repeat), options.clicks)
            for repeat in range(options.repeats)
        ]
    print(
        f"bench_inflight: a click kept in flight (received, committed, answered), "
        f"{size} bytes of payload: {statistics.median(times):.1f} us, "
        f"median of {options.repeats} x {options.clicks} clicks"
    )


if __name__ == "__main__":
    main()
