"""The first thing a process does in place of a killed one (bot.app.takeover): the clicks
the killed one held, acknowledged with a deferred update before the bot is imported,
against a server that answers as Discord's interaction callbacks do."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import discord.http
import pytest
from aiohttp import web

from bot.app.takeover import answers_by_editing, take_over
from bot.config import Settings
from bot.connection.inflight import Inflight, folder_for, handling
from bot.render.custom_ids import LIVE_CHANGE_ACTIONS, ClickAction, ComponentRef
from bot.ui.clicks import LIVE_CHANGES

APPLICATION_ID = "900000000000000001"


def click(action: ClickAction, *, seconds_ago: float = 0.5, kind: int = 3) -> dict[str, Any]:
    """A click's gateway payload on a Pickomino game's button."""
    when = datetime.now(UTC) - timedelta(seconds=seconds_ago)
    snowflake = discord.utils.time_snowflake(when, high=True)
    ref = ComponentRef(action, 7, 3, "roll" if action is ClickAction.MOVE else "")
    return {
        "id": str(snowflake),
        "application_id": APPLICATION_ID,
        "type": kind,
        "token": f"token-{snowflake}",
        "data": {"custom_id": ref.encode(), "component_type": 2},
    }


@pytest.mark.parametrize("action", list(ClickAction))
def test_only_clicks_answered_by_an_edit_of_their_message_are_acknowledged_early(
    action: ClickAction,
) -> None:
    assert answers_by_editing(click(action)) == (action in LIVE_CHANGE_ACTIONS)


def test_the_early_actions_are_the_clicks_that_change_the_live_session() -> None:
    assert set(LIVE_CHANGES) == LIVE_CHANGE_ACTIONS


@pytest.mark.parametrize(
    "data",
    [
        click(ClickAction.MOVE, kind=2),  # a command has no message to edit
        {**click(ClickAction.MOVE), "data": {"custom_id": "dice:move:forged"}},
        {**click(ClickAction.MOVE), "data": {"custom_id": 12}},
        {**click(ClickAction.MOVE), "data": None},
        {"id": "1", "type": 3},
    ],
)
def test_anything_else_is_not_acknowledged_early(data: dict[str, Any]) -> None:
    assert not answers_by_editing(data)


def error(status: int, code: int, message: str) -> web.Response:
    """An error as Discord sends it (its content type exactly `application/json`)."""
    body = json.dumps({"code": code, "message": message}).encode()
    return web.Response(status=status, body=body, content_type="application/json")


class Discord:
    """Interaction callbacks as Discord answers them: 204 once, 400 (40060) for a second
    first answer, 404 (10062) for an interaction it does not know."""

    def __init__(self) -> None:
        self.known: set[str] = set()
        self.answered: dict[str, int] = {}  # interaction id -> callback type
        self.hang = False  # answer nothing (a Discord, or a proxy, that is stuck)...
        self.released = asyncio.Event()  # ...until the test is over

    async def callback(self, request: web.Request) -> web.Response:
        if self.hang:
            await self.released.wait()
        interaction_id = request.match_info["id"]
        if interaction_id not in self.known:
            return error(404, 10062, "Unknown interaction")
        if interaction_id in self.answered:
            return error(400, 40060, "Interaction has already been acknowledged.")
        self.answered[interaction_id] = int((await request.json())["type"])
        return web.Response(status=204)


@pytest.fixture
async def discord_api(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[Discord, str]]:
    # take_over points discord.py's routes at DISCORD_API_BASE: put them back after.
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(gateway, "DEFAULT_GATEWAY", gateway.DEFAULT_GATEWAY)
    fake = Discord()
    app = web.Application()
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", fake.callback)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield fake, f"http://127.0.0.1:{port}/api/v10"
    finally:
        fake.released.set()
        await runner.cleanup()


def settings_for(folder: Path, api_base: str) -> Settings:
    return Settings(
        discord_token="token",  # type: ignore[arg-type]
        gateway_session_dir=folder,
        discord_api_base=api_base,
        discord_gateway_url="ws://127.0.0.1:1/gateway",
    )


def killed_holding(folder: Path, left: list[tuple[dict[str, Any], bool]]) -> None:
    """A process of the unsharded bot that died holding these (payload, committed)."""
    inflight = Inflight(folder_for(folder, None, 1))
    inflight.take()
    for data, committed in left:
        inflight.received(data)
        if committed:
            with handling(int(data["id"])):  # as the task playing it would
                inflight.committed()
    inflight.close()


async def test_the_clicks_left_are_acknowledged_before_the_bot_is_built(
    tmp_path: Path, discord_api: tuple[Discord, str]
) -> None:
    fake, api_base = discord_api
    move = click(ClickAction.MOVE, seconds_ago=1.4)
    hint = click(ClickAction.HINT, seconds_ago=1.3)  # an answer of its own: not now
    committed_again = click(ClickAction.AGAIN, seconds_ago=1.2)  # committed: shown later
    answered = click(ClickAction.JOIN, seconds_ago=1.1)  # its answer got through
    unknown = click(ClickAction.START, seconds_ago=1.0)  # Discord does not know it
    too_old = click(ClickAction.MOVE, seconds_ago=2.9)  # no time left to answer
    fake.known = {d["id"] for d in (move, hint, committed_again, answered, too_old)}
    fake.answered[answered["id"]] = 7
    killed_holding(
        tmp_path,
        [
            (move, False),
            (hint, False),
            (committed_again, True),
            (answered, False),
            (unknown, False),
            (too_old, False),
        ],
    )

    takeover = await take_over(settings_for(tmp_path, api_base))

    assert takeover is not None and takeover.inflight.journaling
    assert fake.answered == {answered["id"]: 7, move["id"]: 6, committed_again["id"]: 6}
    left = [(str(each.interaction_id), each.committed, each.acknowledged) for each in takeover.held]
    assert left == [
        (too_old["id"], False, False),  # the bot drops it, too late, when it plays the rest
        (move["id"], False, True),
        (hint["id"], False, False),
        (committed_again["id"], True, True),
    ]
    takeover.inflight.close()


async def test_a_discord_that_does_not_answer_holds_the_start_no_longer_than_the_timeout(
    tmp_path: Path, discord_api: tuple[Discord, str], caplog: pytest.LogCaptureFixture
) -> None:
    fake, api_base = discord_api
    move = click(ClickAction.MOVE, seconds_ago=0.5)
    fake.known = {move["id"]}
    fake.hang = True
    killed_holding(tmp_path, [(move, False)])

    started = time.monotonic()
    takeover = await take_over(settings_for(tmp_path, api_base), timeout=0.3)
    assert time.monotonic() - started < 2.0

    assert takeover is not None
    # Not acknowledged: the bot plays it as before, if it is still young enough.
    assert [(str(each.interaction_id), each.acknowledged) for each in takeover.held] == [
        (move["id"], False)
    ]
    assert "could not acknowledge" in caplog.text
    takeover.inflight.close()


async def test_without_a_journal_there_is_nothing_to_take_over(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, "http://127.0.0.1:1/api/v10")
    assert await take_over(settings.model_copy(update={"gateway_session_dir": None})) is None


async def test_a_journal_with_nothing_left_asks_nothing_of_discord(tmp_path: Path) -> None:
    # No server listens at this address: a request would fail.
    takeover = await take_over(settings_for(tmp_path, "http://127.0.0.1:1/api/v10"))
    assert takeover is not None and takeover.held == [] and takeover.inflight.journaling
    takeover.inflight.close()
