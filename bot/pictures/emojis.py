"""A book of named emoji pictures, uploaded once as the application's own emojis.

At start-up `await book.sync(client)` lists the application's emojis, uploads the ones
the book has and Discord lacks, and remembers each one's `<:name:id>` markup. Rendering
then writes `book.show(name, fallback)`: the custom emoji when Discord has it, else the
Unicode text the bot showed before pictures existed. Nothing here is required for a
game to work; every failure leaves the fallbacks in place.

Names are matched exactly, and an emoji that exists is never uploaded again, even when
its picture changed: a redesign takes new names (games put a version in their prefix,
e.g. `pk1_` -> `pk2_`). So a picture is only read for an upload: a game hands its set
over as a `bot.pictures.drawn.Drawn`, which draws each picture when first read, and a
start whose emojis Discord holds already draws none (Pickomino's 25 took 0.37 s of CPU,
holding the GIL, at each restart).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

import aiohttp
import discord

log = logging.getLogger(__name__)

NAME_PATTERN = re.compile(r"[A-Za-z0-9_]{2,32}")
"""What Discord accepts as an application emoji's name."""
MAX_IMAGE_BYTES = 256 * 1024
"""Discord refuses emoji images larger than 256 KiB."""

# Every way an emoji request can fail without it being a bug here: Discord's refusals
# (HTTPException and its Forbidden, NotFound, DiscordServerError; RateLimited when the
# client's max_ratelimit_timeout is shorter than the wait; MissingApplicationID before
# login) and the network giving up after discord.py's own retries.
_SYNC_FAILURES = (discord.DiscordException, aiohttp.ClientError, OSError)


class ApplicationEmojiClient(Protocol):
    """The two calls of `discord.Client` (discord.py 2.5+) the book needs."""

    async def fetch_application_emojis(self) -> list[discord.Emoji]: ...

    async def create_application_emoji(self, *, name: str, image: bytes) -> discord.Emoji: ...


@dataclass(frozen=True)
class SyncResult:
    """What one `EmojiBook.sync` did: found on Discord, uploaded, and left as fallback."""

    found: tuple[str, ...]
    uploaded: tuple[str, ...]
    missing: tuple[str, ...]

    @property
    def complete(self) -> bool:
        return not self.missing


class EmojiBook:
    """Named emoji pictures and, once synced, their markup on Discord."""

    def __init__(self, *image_sets: Mapping[str, bytes]) -> None:
        self._images: dict[str, Mapping[str, bytes]] = {}  # where each name's picture is
        self._markup: dict[str, str] = {}
        for images in image_sets:
            self.add(images)

    def add(self, images: Mapping[str, bytes]) -> None:
        """Add a game's set; a bad name is a ValueError, and so is a name another set
        holds with another picture. Pictures are read when needed (`image`)."""
        for name in images:
            if not NAME_PATTERN.fullmatch(name):
                raise ValueError(f"{name!r} is not an emoji name: 2-32 of A-Z a-z 0-9 _")
            held = self._images.get(name)
            if held is not None and held is not images and held[name] != images[name]:
                raise ValueError(f"two different pictures are both named {name}")
            self._images.setdefault(name, images)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._images)

    def image(self, name: str) -> bytes:
        """The PNG bytes of one emoji, drawn now if it was not (KeyError for a name the
        book does not hold; ValueError for a picture over Discord's 256 KiB)."""
        image = self._images[name][name]
        if len(image) > MAX_IMAGE_BYTES:
            raise ValueError(f"emoji {name} is {len(image)} bytes, over Discord's 256 KiB")
        return image

    def markup(self, name: str) -> str | None:
        """`<:name:id>` once Discord has the emoji, else None."""
        self._check_known(name)
        return self._markup.get(name)

    def synced(self) -> dict[str, str]:
        """Every synced emoji's markup, by name (what a restart may draw with at once)."""
        return dict(self._markup)

    def show(self, name: str, fallback: str) -> str:
        """The custom emoji's markup when synced, else `fallback` (today's Unicode text).

        A name the book does not hold is a KeyError, so a typo fails in tests instead of
        showing the fallback forever.
        """
        self._check_known(name)
        return self._markup.get(name, fallback)

    async def sync(self, client: ApplicationEmojiClient) -> SyncResult:
        """Make Discord hold every emoji of the book, and remember their markup.

        Uploads go one at a time, in the book's order. The first failure (a refusal, a
        429 that discord.py did not wait out, no application id, the network, a picture
        over 256 KiB) ends the
        sync with one warning: what failed for one emoji mostly fails for the next too,
        and hammering a rate limit only lengthens it. Emojis not synced keep their
        fallback; the next start-up tries again.
        """
        try:
            existing = await client.fetch_application_emojis()
        except _SYNC_FAILURES as error:
            log.warning("application emojis unavailable, showing text instead: %s", error)
            return SyncResult(found=(), uploaded=(), missing=self._unsynced())

        on_discord = {emoji.name: emoji for emoji in existing}
        found = [name for name in self._images if name in on_discord]
        for name in found:
            self._markup[name] = str(on_discord[name])

        uploaded: list[str] = []
        for name in self._unsynced():
            try:
                # Drawn in a thread: the loop answers clicks meanwhile.
                image = await asyncio.to_thread(self.image, name)
                emoji = await client.create_application_emoji(name=name, image=image)
            except (*_SYNC_FAILURES, ValueError) as error:
                missing = self._unsynced()
                log.warning(
                    "could not upload emoji %s (%s); %d emojis show text instead",
                    name,
                    error,
                    len(missing),
                )
                return SyncResult(found=tuple(found), uploaded=tuple(uploaded), missing=missing)
            self._markup[name] = str(emoji)
            uploaded.append(name)

        if uploaded:
            log.info("uploaded %d application emojis", len(uploaded))
        return SyncResult(found=tuple(found), uploaded=tuple(uploaded), missing=())

    def _unsynced(self) -> tuple[str, ...]:
        return tuple(name for name in self._images if name not in self._markup)

    def _check_known(self, name: str) -> None:
        if name not in self._images:
            raise KeyError(f"no emoji named {name} in the book")
