"""Computer players through the real handlers: Add bot, their turns, restarts, history."""

from __future__ import annotations

import asyncio
import json
import sqlite3

from bot.games.pickomino.adapter import PickominoAdapter
from bot.render.custom_ids import ComponentRef
from tests.cogs.helpers import add_bots, choose, open_lobby
from tests.discord_harness import CHANNEL_ID, BotHarness, StoredMessage

EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
WEBHOOK_EDIT = ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def is_over(message: StoredMessage) -> bool:
    return any(":again:" in button["custom_id"] for button in message.buttons)


# ---------------------------------------------------------------------- the lobby


async def test_the_host_adds_a_bot_of_each_level_and_removes_the_last(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        lobby = await open_lobby(harness, anne)
        assert "Remove bot" not in lobby.labels()

        lobby = await add_bots(harness, anne, lobby, "Easy", "Normal", "Hard")
        text = lobby.text()
        assert "Players (4/7)" in text
        assert "2. 🤖 Pip (Easy)" in text
        assert "3. 🤖 Sprout (Normal)" in text
        assert "4. 🤖 Crumb (Hard)" in text
        session = await harness.session()
        bots = [seat for seat in session.seats if seat.is_bot]
        assert [seat.bot_level for seat in bots] == ["easy", "normal", "hard"]
        assert len({seat.user_id for seat in bots}) == 3 and all(s.user_id < 0 for s in bots)

        # Two bots of one level get different names.
        lobby = await add_bots(harness, anne, lobby, "Easy")
        assert "5. 🤖 Nibbles (Easy)" in lobby.text()

        removed = await harness.click(anne, lobby, "Remove bot")
        assert removed.edited and "Nibbles" not in removed.message.text()
        assert "Players (4/7)" in removed.message.text()

        refused = await harness.click(bob, harness.message(lobby.id), "Add bot")
        assert refused.ephemeral == "Only the host (Anne) can do that."
        refused = await harness.click(bob, harness.message(lobby.id), "Remove bot")
        assert refused.ephemeral == "Only the host (Anne) can do that."
        assert len((await harness.session()).seats) == 4


async def test_the_lobby_shows_a_new_computer_player_without_waiting_for_the_hosts_answer(
    tmp_path, monkeypatch
):
    """A level picked is two requests: the host's own message (the click's callback) and
    the lobby (another message, through the Start command's token). Sent one after the
    other, the table saw the new seat a round trip to Discord later."""
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        lobby = await open_lobby(harness, anne)
        offered = await harness.click(anne, harness.message(lobby.id), "Add bot")
        handle = harness.fake.handle
        seen: list[str] = []

        async def slow_callbacks(route, payload, params=None):
            kind = (
                "callback" if route.path.endswith("/callback") else f"{route.method} {route.path}"
            )
            seen.append(f"{kind} sent")
            if kind == "callback":
                await asyncio.sleep(0.2)  # Discord's round trip, long
            answer = await handle(route, payload, params)
            seen.append(f"{kind} answered")
            return answer

        monkeypatch.setattr(harness.fake, "handle", slow_callbacks)
        picked = await harness.click(anne, harness.message(offered.message.id), "Normal")
        assert "sits at the table" in picked.message.text()
        assert "Sprout (Normal)" in harness.message(lobby.id).text()
        lobby_edit = f"{WEBHOOK_EDIT[0]} {WEBHOOK_EDIT[1]}"
        assert seen.index(f"{lobby_edit} sent") < seen.index("callback answered"), seen


async def test_a_full_table_of_seven_refuses_an_eighth_bot_or_person(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        lobby = await open_lobby(harness, anne)
        offered = await harness.click(anne, lobby, "Add bot")
        picker = offered.message
        for level in ("Easy", "Normal", "Hard", "Easy", "Normal", "Hard"):
            await harness.click(anne, harness.message(picker.id), level)
        assert "Players (7/7)" in harness.message(lobby.id).text()

        full = "The game is full (7 players)."
        assert (await harness.click(anne, harness.message(lobby.id), "Add bot")).ephemeral == full
        assert (await harness.click(anne, harness.message(picker.id), "Hard")).ephemeral == full
        assert (await harness.click(bob, harness.message(lobby.id), "Join")).ephemeral == full
        assert len((await harness.session()).seats) == 7


async def test_the_host_leaving_a_lobby_of_bots_closes_it(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        lobby = await add_bots(harness, anne, await open_lobby(harness, anne), "Easy")
        left = await harness.click(anne, lobby, "Leave")
        assert "This lobby was closed." in left.message.text()
        assert await harness.session() is None


# ---------------------------------------------------------------------- a game


async def test_one_person_and_two_bots_play_to_the_final_standings(tmp_path):
    database = tmp_path / "bot.db"
    async with BotHarness.running(database) as harness:
        anne = harness.user("Anne")
        lobby = await add_bots(harness, anne, await open_lobby(harness, anne), "Easy", "Hard")
        started = await harness.click(anne, lobby, "Start")
        assert started.edited, started.ephemeral

        bot_steps = 0
        seen: list[tuple[int, dict]] = []  # the events as they were before the game ended
        for _ in range(1000):
            seen = await versioned_events(harness) or seen
            bot_steps += await harness.run_bots()
            message = harness.message(lobby.id)
            if is_over(message):
                break
            assert "Anne's turn" in message.text()
            clicked = await harness.click(anne, message, choose(message))
            assert clicked.edited, clicked.ephemeral
        else:
            raise AssertionError("the game did not end")
        final = harness.message(lobby.id)
        assert bot_steps > 10
        text = final.text()
        assert "game over" in text and "Pip (Easy)" in text and "Crumb (Hard)" in text

        # The steps of computer players were shown: the live message was edited (through
        # Anne's last click's webhook, or the channel) at their versions, but for a step
        # whose edit a newer change of the channel superseded before it went out (here
        # they step with no pause at all).
        # (The version is in the components' custom_ids; the footer no longer shows it.)
        shown = {
            ComponentRef.from_custom_id(component["custom_id"]).version
            for request in harness.fake.sent(*EDIT) + harness.fake.sent(*WEBHOOK_EDIT)
            for row in StoredMessage(request.payload).rows
            for component in row
        }
        bots = {"-1", "-2"}
        bot_versions = {v for v, event in seen if event.get("player") in bots}
        skipped = bot_versions - shown
        assert bot_versions and len(skipped) < len(bot_versions)
        assert all(any(later > version for later in shown) for version in skipped)
        # Only legal moves: a refused move would have ended the bot's turn as a timeout.
        events = [event for _, event in seen]
        assert not [e for e in events if e["type"] == "failed" and e["reason"] == "timeout"]
        bot_moves = [e for e in events if e.get("player") in bots]
        assert {e["type"] for e in bot_moves} >= {"rolled", "kept"}

    with sqlite3.connect(database) as db:
        # The finished game keeps its story in its history, not its events.
        assert db.execute("SELECT COUNT(*) FROM session_events").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM game_stories").fetchone() == (1,)

        (has_bots,) = db.execute("SELECT has_bots FROM history_games WHERE game_id = 1").fetchone()
        assert has_bots == 1
        seats = db.execute("SELECT user_id, is_bot FROM history_players ORDER BY seat").fetchall()
        assert sorted(seats) == sorted([(anne.id, 0), (-1, 1), (-2, 1)])
        ranked = {row[0] for row in db.execute("SELECT user_id FROM history_totals")}
        assert ranked == {anne.id}


async def versioned_events(harness: BotHarness) -> list[tuple[int, dict]]:
    """(version, event) of every stored event, in order."""
    rows = await harness.bot.db.fetchall("SELECT version, data FROM session_events ORDER BY seq")
    return [(row["version"], json.loads(row["data"])) for row in rows]


async def test_a_bot_turn_in_progress_survives_a_restart(tmp_path):
    clock = Clock()
    database = tmp_path / "bot.db"
    # A long pause, so that only the test moves the computer player before the "kill -9".
    async with BotHarness.running(database, clock=clock, close=False, bot_step_seconds=30) as first:
        anne = first.user("Anne")
        lobby = await open_lobby(first, anne, first_player="host")
        lobby = await add_bots(first, anne, lobby, "Hard")
        await first.click(anne, lobby, "Start")
        for _ in range(100):  # Anne plays her first turn
            message = first.message(lobby.id)
            await first.click(anne, message, choose(message))
            if (await first.session()).game.current_player != str(anne.id):
                break
        # The bot rolls and keeps once: its turn is in progress.
        for _ in range(2):
            assert (await first.session()).clock.bot_due == clock.now + 30
            clock.now += 30
            await first.bot.sessions.run_timer(CHANNEL_ID)
            await first.settle()
        before = await first.session()
        assert before.game.current_player == "-1" and before.game.kept
        armed = first.bot.sessions.timers.pending()
        assert armed == {CHANNEL_ID: clock.now + 30}
        fake = first.fake

    restarted = BotHarness.running(database, clock=clock, fake=fake, seed=99, bot_step_seconds=30)
    async with restarted as second:
        assert second.bot.sessions.timers.pending() == armed
        resumed = await second.session()
        assert resumed.version == before.version and resumed.game == before.game
        clock.now += 30
        await second.bot.sessions.run_timer(CHANNEL_ID)  # the stored step is now due
        await second.settle()
        after = await second.session()
        assert after.version == before.version + 1
        # No pause from now on: it finishes its turn by itself.
        second.bot.sessions.bot_step_seconds = 0
        clock.now += 30
        await second.bot.sessions.run_timer(CHANNEL_ID)
        await second.run_bots()
        after = await second.session()
        assert after.game.current_player == str(anne.id)
        assert after.clock.bot_due is None and "Anne's turn" in second.message(lobby.id).text()
        resumed = [e.get("player") for v, e in await versioned_events(second) if v > before.version]
        assert set(resumed) == {"-1"}
        rows = await second.bot.db.fetchall("SELECT data FROM session_events ORDER BY seq")
        last = json.loads(rows[-1]["data"])
        assert last["player"] == "-1" and last["type"] in ("took", "stole", "failed")


async def test_a_failing_computer_player_ends_its_turn_and_the_game_goes_on(tmp_path, monkeypatch):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        lobby = await open_lobby(harness, anne, first_player="host")
        lobby = await add_bots(harness, anne, lobby, "Normal")
        await harness.click(anne, lobby, "Start")
        for _ in range(100):  # Anne plays her first turn
            message = harness.message(lobby.id)
            await harness.click(anne, message, choose(message))
            if (await harness.session()).game.current_player != str(anne.id):
                break

        def broken(self, game, level, computers):
            raise RuntimeError("the solver is broken")

        monkeypatch.setattr(PickominoAdapter, "bot_move", broken)
        await harness.run_bots()
        session = await harness.session()
        assert session.game.current_player == str(anne.id)
        assert "Sprout (Normal) ran out of time" in harness.message(lobby.id).text()


async def test_a_game_left_to_bots_alone_is_abandoned(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        lobby = await open_lobby(harness, anne, first_player="host")
        lobby = await add_bots(harness, anne, lobby, "Easy", "Hard")
        await harness.click(anne, lobby, "Start")
        left = await harness.slash(anne, "pickomino", "leave")
        assert left.ephemeral == "You left the game."
        assert await harness.session() is None
        assert "game abandoned" in harness.message(lobby.id).text()


async def test_at_a_pace_every_step_of_a_computer_player_is_shown(tmp_path):
    """With a pause between steps longer than an edit takes, no step's edit is
    superseded: people watching see each roll and keep."""
    async with BotHarness.running(tmp_path / "bot.db", bot_step_seconds=0.05) as harness:
        anne = harness.user("Anne")
        lobby = await add_bots(harness, anne, await open_lobby(harness, anne), "Hard")
        await harness.click(anne, lobby, "Start")
        seen: list[tuple[int, dict]] = []
        for _ in range(200):  # until the computer player has made a few steps
            await harness.run_bots()
            seen = await versioned_events(harness)
            message = harness.message(lobby.id)
            if is_over(message) or sum(e.get("player") == "-1" for _, e in seen) >= 6:
                break
            await harness.click(anne, message, choose(message))
        shown = {
            ComponentRef.from_custom_id(component["custom_id"]).version
            for request in harness.fake.sent(*EDIT) + harness.fake.sent(*WEBHOOK_EDIT)
            for row in StoredMessage(request.payload).rows
            for component in row
        }
        bot_versions = {v for v, event in seen if event.get("player") == "-1"}
        assert bot_versions and bot_versions <= shown


async def test_every_move_and_hint_is_told_the_levels_of_the_computers_at_the_table(
    tmp_path, monkeypatch
):
    told: list[tuple[str, dict[str, str]]] = []
    decide, hint = PickominoAdapter.bot_move, PickominoAdapter.hint

    def bot_move(self, game, level, computers):
        told.append(("move", dict(computers)))
        return decide(self, game, level, computers)

    def hinted(self, game, player, names, computers):
        told.append(("hint", dict(computers)))
        return hint(self, game, player, names, computers)

    monkeypatch.setattr(PickominoAdapter, "bot_move", bot_move)
    monkeypatch.setattr(PickominoAdapter, "hint", hinted)
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        lobby = await open_lobby(harness, anne, first_player="host")
        lobby = await add_bots(harness, anne, lobby, "Normal", "Hard")
        started = await harness.click(anne, lobby, "Start")
        asked = await harness.click(anne, started.message, "Hint")
        assert asked.ephemeral and "💡" in asked.message.text()
        for _ in range(100):  # Anne plays her first turn; the computers play theirs
            message = harness.message(lobby.id)
            await harness.click(anne, message, choose(message))
            if (await harness.session()).game.current_player != str(anne.id):
                break
        await harness.run_bots()
    table = {"-1": "normal", "-2": "hard"}
    assert told[0] == ("hint", table)
    moves = [computers for kind, computers in told if kind == "move"]
    assert moves and all(computers == table for computers in moves)
