"""What a game gives the platform: one object bundling everything the bot needs of it.

A game registers one `GamePlugin` in bot/games/registry.py; the platform (sessions,
the live message, clicks, commands, history) looks games up by a session's `kind` in
the `Games` it was given at start-up and meets them only through this object.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from discord.ext import commands

from bot.history.figures import HistoryFigures
from bot.i18n import t
from bot.plugin.review import Reviewer
from bot.plugin.table_scene import TableScene
from bot.plugin.tutorial import Tutorial
from bot.sessions.adapter import AnyAdapter

if TYPE_CHECKING:
    import discord

    from bot.render.layout import Rendered
    from bot.sessions.model import Session

ScenarioPlayer = Callable[[dict[str, Any]], dict[str, Any]]


class GameRenderer(Protocol):
    """How a game draws its own part of the live message; the platform draws the lobby,
    the closed lobby and the shared buttons (Play again, the end confirmation)."""

    colour: discord.Colour

    def playing(self, session: Session) -> Rendered:
        """The game in progress: its embed and its turn's components."""
        ...

    def final(self, session: Session, events: list[dict[str, Any]]) -> Rendered:
        """The ended game (finished or abandoned), told from all its stored events: its
        embed and maybe a picture (the platform adds Play again)."""
        ...

    def options_lines(
        self, options: dict[str, Any], timer_seconds: int | None, hints: bool
    ) -> list[str]:
        """The game's options, timer and hints, a line each (the lobby and /<game> rules)."""
        ...


@dataclass(frozen=True, slots=True)
class GamePlugin:
    kind: str  # the session kind, stored with every session and result
    adapter: AnyAdapter
    renderer: GameRenderer
    command: str  # the command group's name: /<command> start
    # The game's /<command> group: a bot.ui.game_cog.GameCog subclass, built by the
    # client with the platform (`cog(platform)`); the client attaches the score group.
    cog: type[commands.GroupCog]
    history: HistoryFigures  # what the score pages and the game's record show of it
    catalogs: Path  # the game's strings: <catalogs>/<locale>/<area>.json
    play_scenario: ScenarioPlayer | None = None
    # Builds shared tables before the first click; given a folder it may keep them in
    # (CACHE_DIR, shared by the bot's processes and restarts), or None.
    warm_up: Callable[[Path | None], None] | None = None
    # The game's pictures (emoji name -> PNG), uploaded as application emojis at start-up.
    emojis: Callable[[], Mapping[str, bytes]] | None = None
    # The prefix of the score pager's buttons posted before pager ids carried the game's
    # kind; such buttons keep working (bot.score.pager), and new ones keep the prefix.
    pager_prefix: str | None = None
    # A practice game that teaches the rules: with it the game's group has /<game> learn.
    tutorial: Tutorial | None = None
    # Reviews its finished games (bot.plugin.review): with it the end screen has Review.
    reviewer: Reviewer | None = None
    # Draws the game at the table, the Activity (bot.plugin.table_scene): without it the
    # table shows its players and whose turn it is, and no moves.
    table: TableScene | None = None

    @property
    def title(self) -> str:
        """The game's name as players read it."""
        return t(f"{self.kind}.title")

    @property
    def start_command(self) -> str:
        """/<game> start as the reader's Discord client names it."""
        return f"/{self.command} {t('command.name.start')}"
