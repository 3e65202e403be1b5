"""The chat's live message behind the table (Discord's rate limits, a 429): the table's
actions are answered and shown on every tab as ever, the message's edits are coalesced
(the newest change only, never a queue of them), and it catches up once Discord lets
the bot edit it again."""

from __future__ import annotations

import re
import time

from bot.devserver.standin.models import RequestRecord
from tests.table.server.conftest import SOON, WAIT, TabClient, Table, live_message_at, tracebacks

MOVES = 5
RETRY_AFTER = 2.0  # the 429's: longer than the moves take
EDIT = re.compile(r"^/api/v10/channels/\d+/messages/\d+$")  # an edit with the bot's token


async def game_opened_at_the_table(table: Table) -> tuple[TabClient, TabClient]:
    """Alice opens a Pickomino game at the table (its live message posted with the bot's
    token: no click's token to edit it with), Bob joins, Alice starts."""
    alice = await table.tab("alice")
    bob = await table.tab("bob")
    assert (await alice.act("open", "pickomino"))["t"] == "done"
    await bob.sees(lambda state: state["scene"]["phase"] == "lobby")
    assert (await bob.act("join"))["t"] == "done"
    await alice.sees(lambda state: len(state["scene"]["players"]) == 2)
    assert (await alice.act("start"))["t"] == "done"
    for tab in (alice, bob):
        await tab.sees(lambda state: state["scene"]["phase"] == "playing")
    return alice, bob


async def committed(table: Table) -> int:
    session = await table.bot.sessions.live(table.fake.channel.id)
    assert session is not None
    return int(session.version)


def edits_since(table: Table, began: float) -> list[RequestRecord]:
    return [
        r
        for r in table.fake.requests
        if r.method == "PATCH" and r.at >= began and EDIT.match(r.path) and r.bot_token
    ]


async def test_moves_are_answered_while_the_live_message_is_held_back_by_a_429(
    table: Table, caplog
):
    fake = table.fake
    alice, bob = await game_opened_at_the_table(table)
    start = await committed(table)
    await fake.wait_for(lambda: live_message_at(fake, start), what="the message at the start")
    began = time.monotonic()
    fake.inject_rate_limit("PATCH", r"^/channels/\d+/messages/\d+$", retry_after=RETRY_AFTER)
    for _ in range(MOVES):
        mover = next(tab for tab in (alice, bob) if tab.actions("move"))
        before = await committed(table)
        sent = time.monotonic()
        answer = await mover.act("move", mover.actions("move")[0]["arg"])
        assert answer["t"] == "done", answer
        assert time.monotonic() - sent < SOON  # the 429 holds no answer
        for tab in (alice, bob):
            await tab.sees(lambda state, after=before: state["version"] > after, timeout=SOON)
    newest = await committed(table)
    assert newest == start + MOVES
    # Held back: the first edit waits out its 429, the message shows none of the moves.
    assert time.monotonic() - began < RETRY_AFTER
    assert not live_message_at(fake, newest)

    # It catches up once the 429's time is over, with the newest move.
    await fake.wait_for(
        lambda: live_message_at(fake, newest), timeout=WAIT, what="the message caught up"
    )
    caught_up = time.monotonic() - began
    assert caught_up < RETRY_AFTER + SOON, caught_up
    # Coalesced: the edit refused, its retry, then the newest; not one edit per move.
    edits = edits_since(table, began)
    assert [r.status for r in edits][:2] == [429, 200]
    assert len(edits) <= 3 < 1 + MOVES, [(r.status, r.at - began) for r in edits]
    assert tracebacks(caplog) == []


async def test_a_message_left_behind_by_failed_edits_is_shown_again(table: Table, caplog):
    fake = table.fake
    alice, bob = await game_opened_at_the_table(table)
    start = await committed(table)
    await fake.wait_for(lambda: live_message_at(fake, start), what="the message at the start")
    began = time.monotonic()
    # The edit and the repair's first try refused: the repair tries again later.
    fake.inject_error("PATCH", r"^/channels/\d+/messages/\d+$", status=503, times=2)
    mover = next(tab for tab in (alice, bob) if tab.actions("move"))
    assert (await mover.act("move", mover.actions("move")[0]["arg"]))["t"] == "done"
    # Behind, never wrong: the repair shows it once Discord answers again.
    await fake.wait_for(
        lambda: live_message_at(fake, start + 1), timeout=WAIT, what="the message repaired"
    )
    assert [r.status for r in edits_since(table, began)] == [503, 503, 200]
    assert tracebacks(caplog) == []
