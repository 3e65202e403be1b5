"""The history pager: Previous and Next under a history list, for any game.

The pager keeps nothing in memory: each button's custom_id carries who may press it,
whose history it pages, which way, the page it leads to and the keyset cursor, so any
process serves the click from the database, after any restart. Ids spell
`hs:<kind>:...`, except a game's whose buttons were posted before history knew other
games: those keep the prefix the game's plugin names (`GamePlugin.pager_prefix`). Every
number in an id is bounded, so a forged one is refused as out of date instead of
reaching the database. `Pager` is built once at start-up with the games served; it
owns the button class registered with the bot, so no table of games is global.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

import discord

from bot.history.models import Cursor
from bot.i18n import t
from bot.render.custom_ids import MAX_CUSTOM_ID
from bot.ui.replies import answer_error, tell
from bot.ui.translator import use_interaction_locale

Interaction = discord.Interaction[Any]

PREFIX = "hs"
MAX_SNOWFLAKE = 2**64 - 1
MAX_SQLITE_INTEGER = 2**63 - 1
MAX_PAGE = 10**9

_FIELDS = (
    r":(?P<asker>[0-9]{1,20}):(?P<player>[0-9]{1,20}):(?P<direction>[np])"
    r":(?P<page>[0-9]{1,10}):(?P<ended_at>[0-9a-z]{1,13})\.(?P<game_id>[0-9a-z]{1,13})"
)
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
    """What a pager button does: `<prefix>:<asker>:<player or 0>:<n|p>:<page>:<cursor>`,
    the prefix `hs:<kind>` (or the game's own, see `PagerIds`), the cursor being the
    game's `ended_at` and `game_id` in base 36."""

    asker_id: int
    player_id: int | None  # None: the whole community's history (a server's or a chat's)
    direction: Direction
    page: int  # the number of the page the click leads to, for the footer
    cursor: Cursor
    kind: str

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


class PagerIds:
    """How page turns are spelled as custom_ids: `hs:<kind>:...`, or a game's own prefix
    from before the kind was in the id (`own_prefixes`: kind -> prefix), which its old
    buttons carry and its new ones keep."""

    def __init__(self, own_prefixes: Mapping[str, str] | None = None) -> None:
        self._prefix_of = dict(own_prefixes or {})
        self._kind_of = {prefix: kind for kind, prefix in self._prefix_of.items()}
        own = "|".join(re.escape(prefix) for prefix in self._kind_of)
        kind = rf"{PREFIX}:(?P<kind>[a-z][a-z0-9_]{{0,11}})"
        self.template = (rf"(?:{kind}|(?P<own>{own}))" if own else rf"(?:{kind})") + _FIELDS
        self._pattern = re.compile(rf"^{self.template}$")

    def encode(self, turn: PageTurn) -> str:
        prefix = self._prefix_of.get(turn.kind) or f"{PREFIX}:{turn.kind}"
        cursor = f"{base36(turn.cursor.ended_at)}.{base36(turn.cursor.game_id)}"
        custom_id = (
            f"{prefix}:{turn.asker_id}:{turn.player_id or 0}:{turn.direction}:{turn.page}:{cursor}"
        )
        if len(custom_id) > MAX_CUSTOM_ID:
            raise ValueError(f"custom_id longer than {MAX_CUSTOM_ID}: {custom_id!r}")
        if self.parse(custom_id) != turn:  # a click on it would be refused
            raise ValueError(f"custom_id out of the pager's bounds: {custom_id!r}")
        return custom_id

    def from_match(self, match: re.Match[str]) -> PageTurn:
        """The turn a matched custom_id asks for; ValueError if a number is out of range."""
        own = match.groupdict().get("own")
        turn = PageTurn(
            asker_id=int(match["asker"]),
            player_id=int(match["player"]) or None,
            direction=Direction(match["direction"]),
            page=max(1, int(match["page"])),
            cursor=Cursor(int(match["ended_at"], 36), int(match["game_id"], 36)),
            kind=self._kind_of[own] if own else match["kind"],
        )
        turn.check()
        return turn

    def parse(self, custom_id: str) -> PageTurn | None:
        """The turn of a custom_id, or None if it is not a pager id or is out of range."""
        match = self._pattern.match(custom_id)
        if match is None:
            return None
        try:
            return self.from_match(match)
        except ValueError:
            return None


class PageTurner(Protocol):
    """A game's score pages, as the pager reaches them on a click."""

    command: str

    async def turn_page(self, interaction: Interaction, turn: PageTurn) -> None: ...


class Pager:
    """Previous and Next for the games served: `serve(kind, pages)` for each game's
    score pages, `button(turn)` to post, and `item` the DynamicItem class that serves
    the clicks (registered with the bot once, at start-up)."""

    def __init__(self, ids: PagerIds) -> None:
        self.ids = ids
        self._turners: dict[str, PageTurner] = {}
        self.item = _page_button_class(self)

    def serve(self, kind: str, turner: PageTurner) -> None:
        self._turners[kind] = turner

    def turner(self, kind: str) -> PageTurner | None:
        return self._turners.get(kind)

    def button(self, turn: PageTurn, *, disabled: bool = False) -> discord.ui.Item[Any]:
        return self.item(turn, disabled=disabled)


def _page_button_class(pager: Pager) -> type[HistoryPageButton]:
    class ServedPageButton(HistoryPageButton, template=pager.ids.template):
        served_by = pager

    return ServedPageButton


class HistoryPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_FIELDS):
    """Previous or Next under a history list; only the person who asked can turn pages.

    `turn` is None for an id that matched the template but is out of range (forged, or
    from a game no longer served): the click is refused as out of date. The class that
    is served is a Pager's subclass (`served_by`), whose template knows the games.
    """

    served_by: Pager

    def __init__(
        self, turn: PageTurn | None, *, custom_id: str = "", disabled: bool = False
    ) -> None:
        if turn is None:
            label = "score.pager.next"
        else:
            next_page = turn.direction is Direction.NEXT
            label = "score.pager.next" if next_page else "score.pager.previous"
            custom_id = self.served_by.ids.encode(turn)
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
            turn = cls.served_by.ids.from_match(match)
        except ValueError:
            return cls(None, custom_id=match.string)
        if cls.served_by.turner(turn.kind) is None:
            return cls(None, custom_id=match.string)
        return cls(turn)

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        turn = self.turn
        if turn is None:
            await tell(interaction, t("score.pager.stale"))
            return False
        if interaction.user.id == turn.asker_id:
            return True
        turner = self.served_by.turner(turn.kind)
        assert turner is not None  # from_custom_id made no turn for a game not served
        await tell(interaction, t("score.pager.not_yours", command=turner.command))
        return False

    async def callback(self, interaction: Interaction) -> None:
        assert self.turn is not None  # interaction_check refused the rest
        use_interaction_locale(interaction)  # the page in the asker's own language
        turner = self.served_by.turner(self.turn.kind)
        assert turner is not None
        try:
            await turner.turn_page(interaction, self.turn)
        except Exception as error:
            await answer_error(interaction, error)
