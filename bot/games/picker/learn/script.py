"""The practice game's dice: its first three rounds are scripted, to show a keep and
who becomes the Picker, a roll of one number on every die (rolled again) and a colour
kept twice (the bonus); every round after them is random. Pure: no discord, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.games.picker.engine import Game
from bot.games.picker.engine.dice import FACES

LEARNER = 0  # the learner's seat: first to keep in round 1
# Each round's rolls in colour order (red, orange, yellow), the last one kept from.
ROUNDS: tuple[tuple[tuple[int, ...], ...], ...] = (
    ((2, 6, 4),),  # a low 2 against a high 6: points now, or keeping first next round
    ((4, 4, 4), (5, 1, 3)),  # one number on every die: rolled again
    ((6, 3, 5),),
)


def new_game(players: Sequence[str], rng: Any) -> Game:
    """The practice game, the learner (`players[0]`) keeping first, round 1 rolled."""
    game = Game(players, first=LEARNER)
    game.roll_with(rng)
    return game


def planned_values(round_index: int) -> tuple[int, ...]:
    """Every die the script rolls in a round (0-based), one roll after another."""
    if round_index >= len(ROUNDS):
        return ()
    return tuple(value for roll in ROUNDS[round_index] for value in roll)


class ScriptedDice:
    """The random source of one change to a practice game: the round's scripted dice,
    one draw a die, then `rng`'s. The round is read from the game (none yet: round 1)."""

    def __init__(self, game: Callable[[], Game | None], rng: Any) -> None:
        self._game = game
        self._rng = rng
        self._drawn: dict[int, int] = {}  # draws made this change, by round

    def random(self) -> float:
        game = self._game()
        round_index = 0 if game is None else game.round
        plan = planned_values(round_index)
        drawn = self._drawn.get(round_index, 0)
        if drawn >= len(plan):
            return float(self._rng.random())
        self._drawn[round_index] = drawn + 1
        return (plan[drawn] - 0.5) / FACES  # the middle of the number's share of [0, 1)

    def randrange(self, stop: int) -> int:
        return int(self._rng.randrange(stop))
