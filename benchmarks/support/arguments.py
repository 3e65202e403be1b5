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


def seconds_range(text: str) -> tuple[float, float]:
    """A range of seconds, `2-8`, or one number (`0.5`: from 0.5 to 0.5), from 0 up."""
    low, dash, high = text.partition("-")
    try:
        bounds = float(low), float(high if dash else low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a range such as 2-8") from None
    if not 0 <= bounds[0] <= bounds[1]:
        raise argparse.ArgumentTypeError(f"{text!r}: from 0 up, the low end first")
    return bounds


def _at_least(text: str, lowest: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < lowest:
        raise argparse.ArgumentTypeError(f"{value} is less than {lowest}")
    return value
