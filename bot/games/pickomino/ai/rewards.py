"""A turn's reward table and its tie margin: what both solvers of a turn read.

solver.py (one table, in Python) and batch.py (many tables at once, with numpy) solve
the same turn and must break ties alike; position.py makes the tables and hands them
to either. The shared pieces live here, below all three, so that none of them imports
another for them.
"""

from __future__ import annotations

Rewards = tuple[float | None, ...]
"""Per final sum 0 to 40 (with a worm kept): what stopping gives, None when nothing."""

TIE = 1e-9  # rolling must beat stopping by more than this: float noise is not a gain
