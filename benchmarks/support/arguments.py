"""The numbers the benchmark scripts read from their command line.

A count that cannot be played (a negative number of games, no worker, a word) is
refused by argparse with its usual `error:` line and exit status 2, before any game is
played, rather than failing with a traceback from deep inside a run.
"""

from __future__ import annotations

import argparse


def count(text: str) -> int:
    """A whole number, 0 or more (for games: 0 leaves that table out)."""
    return _at_least(text, 0)


def positive(text: str) -> int:
    """A whole number, 1 or more."""
    return _at_least(text, 1)


def duration(text: str) -> float:
    """A length of time (seconds or minutes, as the option says), more than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:  # nan too
        raise argparse.ArgumentTypeError(f"{text} is not more than 0")
    return value


def _at_least(text: str, lowest: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < lowest:
        raise argparse.ArgumentTypeError(f"{value} is less than {lowest}")
    return value
