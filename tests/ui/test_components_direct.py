"""serve_clicks_directly hooks discord.py's dynamic-item dispatch, and leaves discord.py's
own path in place when that internal is missing."""

import logging
from types import SimpleNamespace

from bot.ui.components import serve_clicks_directly


def test_without_the_internal_hook_clicks_stay_on_discord_pys_path(caplog):
    store = SimpleNamespace()  # a discord.py whose view store has no such method
    client = SimpleNamespace(_connection=SimpleNamespace(_view_store=store))
    with caplog.at_level(logging.WARNING, logger="bot.ui.components"):
        serve_clicks_directly(client, None)  # type: ignore[arg-type]
    assert not hasattr(store, "schedule_dynamic_item_call")
    assert "view path" in caplog.text


def test_with_the_hook_session_clicks_are_served_directly():
    async def discord_pys_own(*args: object) -> None:
        return None

    store = SimpleNamespace(schedule_dynamic_item_call=discord_pys_own)
    client = SimpleNamespace(_connection=SimpleNamespace(_view_store=store))
    serve_clicks_directly(client, None)  # type: ignore[arg-type]
    assert store.schedule_dynamic_item_call is not discord_pys_own
