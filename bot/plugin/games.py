"""The games a bot serves, by kind: built once (bot/games/registry.py, or a test with a
game of its own) and handed to everything that looks a game up."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from bot.plugin.game_plugin import GamePlugin, ScenarioPlayer
from bot.sessions.adapter import AnyAdapter
from bot.sessions.service import PracticeDice


class UnknownGame(KeyError):
    """A kind no registered game has (a stored session or result of a game not served)."""


class Games:
    """An ordered, read-only set of games; `with_game` makes a larger one."""

    def __init__(self, games: Iterable[GamePlugin]) -> None:
        self._by_kind: dict[str, GamePlugin] = {}
        for game in games:
            if game.kind in self._by_kind:
                raise ValueError(f"two games of kind {game.kind!r}")
            self._by_kind[game.kind] = game
        commands = [game.command for game in self._by_kind.values()]
        if len(set(commands)) != len(commands):
            raise ValueError(f"two games share a command name: {commands}")

    def __iter__(self) -> Iterator[GamePlugin]:
        return iter(self._by_kind.values())

    def __len__(self) -> int:
        return len(self._by_kind)

    def __contains__(self, kind: object) -> bool:
        return kind in self._by_kind

    def plugin(self, kind: str) -> GamePlugin:
        """The game of a session's `kind`; UnknownGame for a kind no game has."""
        try:
            return self._by_kind[kind]
        except KeyError:
            raise UnknownGame(kind) from None

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self._by_kind)

    def adapters(self) -> dict[str, AnyAdapter]:
        """Every game's adapter by kind (what the session layer plays)."""
        return {game.kind: game.adapter for game in self}

    def practice_dice(self) -> dict[str, PracticeDice]:
        """Kind -> the dice of its practice games, for the games that teach (a tutorial)."""
        return {game.kind: game.tutorial.dice for game in self if game.tutorial is not None}

    def scenario_player(self, kind: str) -> ScenarioPlayer | None:
        """The function that replays a scenario file of game `kind`, if it has one."""
        game = self._by_kind.get(kind)
        return None if game is None else game.play_scenario

    def catalogs(self) -> tuple[Path, ...]:
        """Each game's folder of catalogs (bot.i18n.add_catalogs reads them)."""
        return tuple(game.catalogs for game in self)

    def pager_prefixes(self) -> dict[str, str]:
        """Kind -> the score pager prefix of a game's buttons from before the kind was in
        the id (bot.score.pager)."""
        return {game.kind: game.pager_prefix for game in self if game.pager_prefix}

    def with_game(self, game: GamePlugin) -> Games:
        """These games and one more (a test's own game, for instance)."""
        return Games([*self, game])
