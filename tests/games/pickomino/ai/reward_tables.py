"""Reward tables for the batched turn solvers' tests (test_batch.py):
per final sum what stopping gives (None: no tile), and what a failure gives."""

from hypothesis import strategies as st

from bot.games.pickomino.ai.states import MAX_TOTAL, TurnState

START = TurnState.start()

reward_tables = st.tuples(
    st.lists(
        st.one_of(st.none(), st.floats(-3, 3, allow_nan=False)),
        min_size=MAX_TOTAL + 1,
        max_size=MAX_TOTAL + 1,
    ).map(tuple),
    st.floats(-3, 3, allow_nan=False),
)
