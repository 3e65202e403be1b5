"""Answer a click by updating the clicked message: one POST to Discord's interaction
callback, the bot's busiest request.

discord.py's `InteractionResponse.edit_message` sends the same callback, and serves
every other answer. For the live message it does work nobody here needs: it asks
Discord to return the edited message (`with_response`) and parses it into a Message,
builds the payload through its general message parameters, and takes a lock per
interaction token. Together that was a tenth of the bot's CPU per click
(benchmarks/bench_clicks.py). Here the payload is the components JSON the live
message already is (bot.ui.components.prebuilt_message), and Discord answers
204 No Content.

Retries and errors are discord.py's, so that callers (the repair after a failed
answer, `answer_error`) see what they would see from discord.py: a 429 from Discord
(with a `Via` header) waits `retry_after` and tries again, a 5xx waits 1, 3, 5, 7 s,
a connection reset is retried, and what is left raises `discord.NotFound` (10062 for
an answer too late), `discord.Forbidden`, `discord.DiscordServerError` or
`discord.HTTPException`. Once the answer got through, the interaction counts as
answered (`interaction.response.is_done()`), as after discord.py's own call.

Anything this path cannot take (a message with files, a discord.py without the
session it reads) goes through discord.py's `edit_message`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord
import orjson
from discord.http import Route, json_or_text

log = logging.getLogger(__name__)

UPDATE_MESSAGE = discord.InteractionResponseType.message_update
DEFERRED_UPDATE = discord.InteractionResponseType.deferred_message_update
ALREADY_ACKNOWLEDGED = 40060  # Discord's code for a second first answer to an interaction
UNKNOWN_INTERACTION = 10062  # Discord's code for an interaction past its 3 s (or never made)
COMPONENTS_V2 = 1 << 15  # the message flag of a Components V2 message
ATTEMPTS = 5
JSON = {"Content-Type": "application/json"}
# The longest 429 wait worth sleeping: an interaction is answered within 3 s of the click.
MAX_WAIT_SECONDS = 2.0
RESET_BY_PEER = (54, 10054)  # ECONNRESET as macOS and Windows number it; discord.py's check


def _retry_after(answer: dict[str, Any]) -> float:
    """The wait a 429 asks for. Discord always says how long; a proxy that does not, or
    says it in a form that is not a number, gets a second."""
    try:
        return max(0.0, float(answer.get("retry_after", 1.0)))
    except (TypeError, ValueError):
        return 1.0


def retry_delay(attempt: int) -> float:
    """Seconds before trying again after a 5xx or a reset connection (discord.py's)."""
    return 1 + attempt * 2


def session_of(interaction: discord.Interaction[Any]) -> aiohttp.ClientSession | None:
    """The aiohttp session discord.py answers interactions with, if this discord.py has it."""
    session = getattr(interaction, "_session", None)
    return session if isinstance(session, aiohttp.ClientSession) else None


async def update_message(
    interaction: discord.Interaction[Any], components: list[dict[str, Any]]
) -> bool:
    """Answer `interaction` by replacing its message with these Components V2
    `components` (no content, embeds or files); False if this discord.py cannot be
    answered this way, so the caller uses its own path. Raises as discord.py does."""
    session = session_of(interaction)
    if session is None or interaction.response.is_done():
        return False
    data: dict[str, Any] = {
        "content": None,
        "embeds": [],
        "components": components,
        "flags": COMPONENTS_V2,
        "attachments": [],
    }
    mentions = interaction.client.allowed_mentions
    if mentions is not None:
        data["allowed_mentions"] = mentions.to_dict()
    body = orjson.dumps({"type": UPDATE_MESSAGE.value, "data": data})
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    await post(session, route, body)
    # What discord.py records after its own callback (there is no public setter).
    interaction.response._response_type = UPDATE_MESSAGE
    return True


async def defer_update(session: aiohttp.ClientSession, interaction_id: int, token: str) -> bool:
    """Acknowledge a component interaction known only by its id and token (no
    discord.py Interaction yet): a deferred update, its message unchanged. False if
    there is nothing left to answer: Discord has its first answer already (40060), or
    it is too late (10062). Raises as `post` does otherwise."""
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction_id,
        webhook_token=token,
    )
    try:
        await post(session, route, orjson.dumps({"type": DEFERRED_UPDATE.value}))
    except discord.NotFound as error:
        log.info("interaction %s cannot be acknowledged any more: %s", interaction_id, error)
        return False
    except discord.HTTPException as error:
        if error.code != ALREADY_ACKNOWLEDGED:
            raise
        log.info("interaction %s was answered already", interaction_id)
        return False
    return True


def mark_deferred(interaction: discord.Interaction[Any]) -> None:
    """The interaction was acknowledged by `defer_update` before discord.py made it:
    its answer is an edit through its webhook, as after `interaction.response.defer()`."""
    interaction.response._response_type = DEFERRED_UPDATE


async def post(session: aiohttp.ClientSession, route: Route, body: bytes) -> None:
    """POST `body` (JSON) to `route` with discord.py's retries (a test's fake Discord
    replaces this, as it replaces discord.py's own request methods)."""
    response: aiohttp.ClientResponse | None = None
    answer: dict[str, Any] | str | None = None
    for attempt in range(ATTEMPTS):
        try:
            async with session.post(route.url, data=body, headers=JSON) as response:
                if 300 > response.status >= 200:
                    await response.read()  # a body left unread would cost the connection
                    return
                answer = await json_or_text(response)
                if response.status == 429:
                    if not response.headers.get("Via") or not isinstance(answer, dict):
                        # Not Discord's limit but its proxy's ban (Cloudflare): no retry.
                        raise discord.HTTPException(response, answer)
                    retry_after = _retry_after(answer)
                    if retry_after > MAX_WAIT_SECONDS:
                        # Past the answer's deadline: the caller shows it another way.
                        log.warning("interaction callback rate limited for %.1f s", retry_after)
                        raise discord.HTTPException(response, answer)
                    log.warning(
                        "interaction callback rate limited; retrying in %.2f s", retry_after
                    )
                    await asyncio.sleep(retry_after)
                    continue
                if response.status >= 500:
                    await asyncio.sleep(retry_delay(attempt))
                    continue
                if response.status == 403:
                    raise discord.Forbidden(response, answer)
                if response.status == 404:
                    raise discord.NotFound(response, answer)
                raise discord.HTTPException(response, answer)
        except OSError as error:
            if attempt < ATTEMPTS - 1 and error.errno in RESET_BY_PEER:
                await asyncio.sleep(retry_delay(attempt))
                continue
            raise
    assert response is not None and answer is not None
    if response.status >= 500:
        raise discord.DiscordServerError(response, answer)
    raise discord.HTTPException(response, answer)
