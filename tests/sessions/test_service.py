"""The session layer with a toy game: it needs nothing from Pickomino."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from bot.sessions import lobby, play
from bot.sessions.adapter import IllegalMove
from bot.sessions.errors import (
    AlreadyLive,
    LobbyFull,
    MoveRefused,
    NotYourTurn,
    StaleButton,
    StaleMessage,
    StaleVersion,
)
from bot.sessions.model import Ending, Seat, Session, Status
from bot.sessions.service import Expect, SessionService
from bot.storage import Database, apply_migrations

CHANNEL = 5


class Race:
    """Players take turns adding 1; whoever makes it 3 wins."""

    kind = "race"
    min_players = 2
    max_players = 3
    bot_levels = ("easy",)

    def new_game(self, players: Sequence[str], options: Mapping[str, Any], rng: Any) -> dict:
        return {"players": list(players), "turn": 0, "total": 0, "abandoned": False}

    def dump(self, game: dict) -> dict:
        return dict(game, players=list(game["players"]))

    def load(self, data: dict) -> dict:
        return self.dump(data)

    def copy(self, game: dict) -> dict:
        return self.dump(game)

    def current_player(self, game: dict) -> str | None:
        return None if self.is_over(game) else game["players"][game["turn"] % len(game["players"])]

    def turn_key(self, game: dict) -> str:
        return str(game["turn"])

    def is_over(self, game: dict) -> bool:
        return game["total"] >= 3 or game["abandoned"]

    def is_abandoned(self, game: dict) -> bool:
        return game["abandoned"]

    def play(self, game: dict, player: str, move: str, rng: Any) -> list[dict]:
        if player != self.current_player(game) or move != "add":
            raise IllegalMove(move)
        game["total"] += 1
        game["turn"] += 1
        return [{"type": "added", "total": game["total"]}]

    def timeout(self, game: dict, rng: Any) -> list[dict]:
        game["turn"] += 1
        return [{"type": "timeout"}]

    def remove_player(self, game: dict, player: str) -> list[dict]:
        game["players"].remove(player)
        game["abandoned"] = len(game["players"]) < 2
        return [{"type": "left", "player": player}]

    def abandon(self, game: dict) -> list[dict]:
        game["abandoned"] = True
        return [{"type": "abandoned"}]

    def bot_name(self, level: str, index: int) -> str:
        return f"Robot {index + 1}"

    def bot_move(self, game: dict, level: str) -> str:
        return "add"

    def hint(self, game: dict, player: str, names: Mapping[str, str]) -> str:
        return f"{names.get(player, player)}: add one"


@pytest.fixture
async def service(tmp_path):
    db = await Database.open(tmp_path / "bot.db")
    await apply_migrations(db)
    service = SessionService(db, {"race": Race()}, rng=random.Random(1))
    yield service
    await service.close()
    await db.close()


def _lobby(host: int = 1) -> Session:
    return Session("race", guild_id=9, channel_id=CHANNEL, host_id=host, seats=[Seat(host, "A")])


async def _join(service: SessionService, user: int) -> None:
    seat = Seat(user, f"P{user}")
    await service.update(CHANNEL, lambda s, c: lobby.join(s, c, seat))


async def test_a_game_from_lobby_to_end_with_the_result_hook(service):
    recorded: list[tuple[int | None, list[dict]]] = []

    async def hook(connection, session, events):
        recorded.append((session.id, events))

    service.game_over_hooks["race"] = hook
    await service.open(_lobby())
    with pytest.raises(AlreadyLive):
        await service.open(_lobby(host=2))
    await _join(service, 2)
    await service.update(CHANNEL, lambda s, c: lobby.start(s, c, 1))
    for user in (1, 2, 1):
        await service.update(CHANNEL, lambda s, c, u=user: play.make_move(s, c, u, "add"))
    assert await service.live(CHANNEL) is None
    ended = await service.by_id(1)
    assert ended is not None and ended.status is Status.OVER and ended.ending is Ending.FINISHED
    assert recorded == [(1, [{"type": "added", "total": n} for n in (1, 2, 3)])]


async def test_refusals_change_nothing(service):
    await service.open(_lobby())
    await _join(service, 2)
    await _join(service, 3)
    with pytest.raises(LobbyFull):
        await _join(service, 4)
    await service.update(CHANNEL, lambda s, c: lobby.start(s, c, 1))
    before = await service.live(CHANNEL)
    with pytest.raises(NotYourTurn):
        await service.update(CHANNEL, lambda s, c: play.make_move(s, c, 2, "add"))
    with pytest.raises(MoveRefused):
        await service.update(CHANNEL, lambda s, c: play.make_move(s, c, 1, "jump"))
    assert await service.live(CHANNEL) is before
    row = await service.store.get(before.id)
    assert row.version == before.version


async def test_expect_recognises_stale_clicks(service):
    await service.open(_lobby())
    session = await service.live(CHANNEL)
    session.message_id = 77
    noop = lambda s, c: []  # noqa: E731
    with pytest.raises(StaleButton):
        await service.update(CHANNEL, noop, expect=Expect(session_id=999))
    with pytest.raises(StaleMessage):
        await service.update(CHANNEL, noop, expect=Expect(session.id, message_id=78))
    with pytest.raises(StaleVersion):
        await service.update(CHANNEL, noop, expect=Expect(session.id, version=session.version - 1))
    change = await service.update(CHANNEL, noop, expect=Expect(session.id, session.version, 77))
    assert change.session.version == session.version + 1


async def test_a_failing_history_hook_does_not_keep_a_game_from_ending(service):
    async def broken(connection, session, events):
        await connection.execute("CREATE TABLE scratch (x)")
        raise RuntimeError("bug in history")

    service.game_over_hooks["race"] = broken
    await service.open(_lobby())
    await _join(service, 2)
    await service.update(CHANNEL, lambda s, c: lobby.start(s, c, 1))
    change = await service.update(CHANNEL, lambda s, c: play.end(s, c, 2, moderator=True))
    assert change.ended and change.session.ending is Ending.ABANDONED
    tables = await service.db.fetchall("SELECT name FROM sqlite_master WHERE name = 'scratch'")
    assert tables == []  # the hook's work was rolled back to its savepoint
