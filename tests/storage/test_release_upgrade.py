"""A database written by the release before the one-folder-per-game change opens,
migrates, keeps its lobbies and live games, and the buttons that release posted still
work. The fixture file was made with that release's code (fixtures/make_release_db.py.txt).
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from bot.games.pickomino.adapter import PickominoAdapter
from bot.sessions.model import Status
from tests.discord_harness import BUTTON, BotHarness, FakeUser, StoredMessage

RELEASE_DB = Path(__file__).parent / "fixtures" / "release_0_1.db"
LOBBY_CHANNEL, GAME_CHANNEL = 10, 11
GAME_SESSION, GAME_MESSAGE = 2, 900_011


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "release.db"
    shutil.copy(RELEASE_DB, target)
    return target


def _stored_sessions(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as connection:
        return connection.execute(
            "SELECT id, kind, channel_id, status, version, message_id, state FROM sessions"
            " ORDER BY id"
        ).fetchall()


def _release_message(harness: BotHarness, custom_ids: list[str]) -> StoredMessage:
    """The live message as the old release posted it (only its ids matter to a click),
    stored in the stand-in under the message id the release's database remembers."""
    buttons = [{"type": BUTTON, "custom_id": cid, "style": 1, "label": cid} for cid in custom_ids]
    message = harness.fake._store(
        GAME_CHANNEL, {"components": [{"type": 1, "components": buttons}]}
    )
    del harness.fake.messages[message.id]
    message.payload["id"] = str(GAME_MESSAGE)
    harness.fake.messages[GAME_MESSAGE] = message
    return message


async def test_the_release_database_migrates_and_keeps_every_session(tmp_path):
    path = _copy(tmp_path)
    before = _stored_sessions(path)
    async with BotHarness.running(path) as harness:
        lobby = await harness.bot.sessions.live(LOBBY_CHANNEL)
        game = await harness.bot.sessions.live(GAME_CHANNEL)
        assert lobby is not None and lobby.status is Status.LOBBY
        assert [seat.name for seat in lobby.seats] == ["Anne", "Bob"]
        assert lobby.options["lower_tile"] == "any" and lobby.timer_seconds == 300
        assert game is not None and game.status is Status.PLAYING
        assert (game.id, game.version, game.message_id) == (GAME_SESSION, 27, GAME_MESSAGE)
        ended = [await harness.bot.sessions.by_id(session_id) for session_id in (3, 4, 5)]
        assert [session.status for session in ended if session] == [Status.OVER] * 3
    # Nothing was lost: every row is still there with its version and state.
    after = _stored_sessions(path)
    assert [row[:6] for row in after] == [row[:6] for row in before]


async def test_a_button_posted_by_the_release_plays_the_move_it_names(tmp_path):
    path = _copy(tmp_path)
    async with BotHarness.running(path) as harness:
        game = await harness.bot.sessions.live(GAME_CHANNEL)
        assert game is not None
        adapter = PickominoAdapter()
        move = adapter.bot_move(adapter.copy(game.game), "normal")
        player_id = adapter.current_player(game.game)
        assert player_id is not None
        player = FakeUser(int(player_id), "Player")
        events_before = len(await harness.bot.sessions.store.events(GAME_SESSION))
        custom_id = f"pko:move:{GAME_SESSION}:{game.version}:{move}"  # the release's format
        message = _release_message(harness, [custom_id])

        result = await harness.click(player, message, custom_id)

        assert result.edited, result.ephemeral
        after = await harness.bot.sessions.live(GAME_CHANNEL)
        assert after is not None and after.version == game.version + 1
        new_events = (await harness.bot.sessions.store.events(GAME_SESSION))[events_before:]
        assert new_events and new_events[0]["player"] == player_id
