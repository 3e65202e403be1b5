"""bot.connection.endpoints: pointing discord.py at another Discord, or leaving it
alone."""

from __future__ import annotations

import discord.gateway
import discord.http
import discord.webhook.async_
import pytest
import yarl

from bot.connection.endpoints import apply_endpoint_overrides

API = "http://127.0.0.1:8123/api/v10"
GATEWAY = "ws://127.0.0.1:8123/gateway"


def test_none_leaves_discord_py_talking_to_discord() -> None:
    apply_endpoint_overrides(None, None)
    apply_endpoint_overrides("", "")
    assert discord.http.Route("GET", "/users/@me").url == "https://discord.com/api/v10/users/@me"
    assert yarl.URL("wss://gateway.discord.gg/") == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY


def test_overrides_move_rest_and_gateway() -> None:
    apply_endpoint_overrides(API + "/", GATEWAY)
    assert discord.http.Route("GET", "/users/@me").url == API + "/users/@me"
    # Interaction callbacks and follow-ups are built by the webhook adapter from the same Route.
    assert discord.webhook.async_.Route is discord.http.Route
    callback = discord.http.Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=1,
        webhook_token="tok/en",
    )
    assert callback.url == API + "/interactions/1/tok%2Fen/callback"
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    assert gateway == yarl.URL(GATEWAY)
    # What DiscordWebSocket.from_client() connects to.
    assert str(gateway.with_query(v=10, encoding="json")).startswith("ws://127.0.0.1:8123/gateway?")


def test_each_override_is_independent() -> None:
    apply_endpoint_overrides(API, None)
    assert yarl.URL("wss://gateway.discord.gg/") == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    apply_endpoint_overrides(None, GATEWAY)
    assert discord.http.Route.BASE == API


@pytest.mark.parametrize(
    ("api_base", "gateway_url"),
    [
        ("ws://127.0.0.1:1/api/v10", None),
        ("127.0.0.1:1/api/v10", None),
        (None, "http://127.0.0.1:1/gateway"),
        (None, "wss://"),
    ],
)
def test_wrong_schemes_are_refused(api_base: str | None, gateway_url: str | None) -> None:
    with pytest.raises(ValueError, match="must be a"):
        apply_endpoint_overrides(api_base, gateway_url)
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
