"""The history pager: Previous and Next under a history list, for any game.

The pager keeps nothing in memory: each button's custom_id carries who may press it,
whose history it pages, which way, the page it leads to and the keyset cursor, so any
process serves the click from the database, after any restart. Pickomino's buttons
(posted before history knew other games) spell `pks:h:...`; other games' spell
`hs:<kind>:...`. Every number in an id is bounded, so a forged one is refused as out
of date instead of reaching the database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

import discord

from bot.history.models import Cursor
from bot.i18n import t
from bot.render.custom_ids import MAX_CUSTOM_ID
from bot.ui.replies import fail, tell
from bot.ui.translator import use_interaction_locale

Interaction = discord.Interaction[Any]

LEGACY_PREFIX = "pks:h"  # Pickomino's pager, before the game kind was in the id
LEGACY_KIND = "pickomino"
PREFIX = "hs"
MAX_SNOWFLAKE = 2**64 - 1
MAX_SQLITE_INTEGER = 2**63 - 1
MAX_PAGE = 10**9

PAGER_TEMPLATE = (
    rf"(?:{LEGACY_PREFIX}|{PREFIX}:(?P<kind>[a-z][a-z0-9_]{{0,11}}))"
    r":(?P<asker>[0-9]{1,20}):(?P<player>[0-9]{1,20}):(?P<direction>[np])"
    r":(?P<page>[0-9]{1,10}):(?P<ended_at>[0-9a-z]{1,13})\.(?P<game_id>[0-9a-z]{1,13})"
)
_PATTERN = re.compile(rf"^{PAGER_TEMPLATE}$")
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


class Direction(StrEnum):
    NEXT = "n"  # older games
    PREVIOUS = "p"  # newer games


def base36(number: int) -> str:
    """The shortest spelling `int(text, 36)` reads back: cursors stay short in custom_ids."""
    if number < 0:
        raise ValueError(f"no base-36 spelling for a negative number: {number}")
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = _BASE36[digit] + digits
        if number == 0:
            return digits


@dataclass(frozen=True, slots=True)
class PageTurn:
    """What a pager button does: `pks:h:<asker>:<player or 0>:<n|p>:<page>:<cursor>`
    (Pickomino) or `hs:<kind>:...` with the same fields, the cursor being the game's
    `ended_at` and `game_id` in base 36."""

    asker_id: int
    player_id: int | None  # None: the whole server's history
    direction: Direction
    page: int  # the number of the page the click leads to, for the footer
    cursor: Cursor
    kind: str = LEGACY_KIND

    def encode(self) -> str:
        prefix = LEGACY_PREFIX if self.kind == LEGACY_KIND else f"{PREFIX}:{self.kind}"
        cursor = f"{base36(self.cursor.ended_at)}.{base36(self.cursor.game_id)}"
        custom_id = (
            f"{prefix}:{self.asker_id}:{self.player_id or 0}:{self.direction}:{self.page}:{cursor}"
        )
        if len(custom_id) > MAX_CUSTOM_ID:
            raise ValueError(f"custom_id longer than {MAX_CUSTOM_ID}: {custom_id!r}")
        if PageTurn.parse(custom_id) != self:  # a click on it would be refused
            raise ValueError(f"custom_id out of the pager's bounds: {custom_id!r}")
        return custom_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> PageTurn:
        """The turn a matched custom_id asks for; ValueError if a number is out of range."""
        turn = cls(
            asker_id=int(match["asker"]),
            player_id=int(match["player"]) or None,
            direction=Direction(match["direction"]),
            page=max(1, int(match["page"])),
            cursor=Cursor(int(match["ended_at"], 36), int(match["game_id"], 36)),
            kind=match["kind"] or LEGACY_KIND,
        )
        turn.check()
        return turn

    @classmethod
    def parse(cls, custom_id: str) -> PageTurn | None:
        """The turn of a custom_id, or None if it is not a pager id or is out of range."""
        match = _PATTERN.match(custom_id)
        if match is None:
            return None
        try:
            return cls.from_match(match)
        except ValueError:
            return None

    def check(self) -> None:
        if not 0 < self.asker_id <= MAX_SNOWFLAKE:
            raise ValueError(f"asker out of range: {self.asker_id}")
        if self.player_id is not None and not 0 < self.player_id <= MAX_SNOWFLAKE:
            raise ValueError(f"player out of range: {self.player_id}")
        if self.page > MAX_PAGE:
            raise ValueError(f"page out of range: {self.page}")
        for value in (self.cursor.ended_at, self.cursor.game_id):
            if not 0 <= value <= MAX_SQLITE_INTEGER:
                raise ValueError(f"cursor out of range: {self.cursor}")

    @property
    def before(self) -> Cursor | None:
        """`history_page`'s `before` (Next pages to older games)."""
        return self.cursor if self.direction is Direction.NEXT else None

    @property
    def after(self) -> Cursor | None:
        """`history_page`'s `after` (Previous pages to newer games)."""
        return self.cursor if self.direction is Direction.PREVIOUS else None


class PageTurner(Protocol):
    """A game's score pages, as the pager reaches them on a click."""

    command: str

    async def turn_page(self, interaction: Interaction, turn: PageTurn) -> None: ...


# The score pages of each game kind, filled as score groups are made (score_group).
_TURNERS: dict[str, PageTurner] = {}


def register(kind: str, turner: PageTurner) -> None:
    _TURNERS[kind] = turner


class HistoryPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGER_TEMPLATE):
    """Previous or Next under a history list; only the person who asked can turn pages.

    `turn` is None for an id that matched the template but is out of range (forged, or
    from a game no longer served): the click is refused as out of date.
    """

    def __init__(
        self, turn: PageTurn | None, *, custom_id: str = "", disabled: bool = False
    ) -> None:
        if turn is None:
            label = "score.pager.next"
        else:
            next_page = turn.direction is Direction.NEXT
            label = "score.pager.next" if next_page else "score.pager.previous"
            custom_id = turn.encode()
        super().__init__(
            discord.ui.Button(
                label=t(label),
                style=discord.ButtonStyle.secondary,
                custom_id=custom_id,
                disabled=disabled,
            )
        )
        self.turn = turn

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HistoryPageButton:
        try:
            turn = PageTurn.from_match(match)
        except ValueError:
            return cls(None, custom_id=match.string)
        if turn.kind not in _TURNERS:
            return cls(None, custom_id=match.string)
        return cls(turn)

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        turn = self.turn
        if turn is None:
            await tell(interaction, t("score.pager.stale"))
            return False
        if interaction.user.id == turn.asker_id:
            return True
        command = _TURNERS[turn.kind].command
        await tell(interaction, t("score.pager.not_yours", command=command))
        return False

    async def callback(self, interaction: Interaction) -> None:
        assert self.turn is not None  # interaction_check refused the rest
        use_interaction_locale(interaction)  # the page in the asker's own language
        try:
            await _TURNERS[self.turn.kind].turn_page(interaction, self.turn)
        except Exception as error:
            await fail(interaction, error)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (HistoryPageButton,)
