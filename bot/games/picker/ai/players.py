"""Computer players: three levels behind one interface, pure and reproducible.

`decide(game, level, rng)` returns the die the player to move keeps, always legal.
Rolling is not a decision: whoever runs the game rolls (`game.roll_with(rng)`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from enum import StrEnum

from bot.games.picker.ai import exact
from bot.games.picker.ai.greedy import greedy_choice
from bot.games.picker.ai.lookahead import candidate_values
from bot.games.picker.ai.reading import greedy_chances
from bot.games.picker.engine import COLOURS, Colour, Game, Pick, RandomSource
from bot.games.picker.engine.colours import COLOUR_INDEX

EASY_TAKES_HIGHEST = 0.7  # how often Easy keeps the highest number; else any die


class Level(StrEnum):
    EASY = "easy"  # usually the highest number, now and then any die
    NORMAL = "normal"  # the highest number; its colour sets break ties; likes to be Picker
    HARD = "hard"  # the best keep against the opponents it reads: exact at 3 players


def decide(
    game: Game, level: Level | str, rng: RandomSource, normal_seats: Collection[int] = ()
) -> Pick:
    """The die the player to move keeps at `level` (a Level or its name, "hard");
    ValueError for an unknown level, or when no die is to be kept.

    `normal_seats`: the seats known to be played by Normal (the bot's own computer
    players, and seats kept for people who left): Hard plays against Normal's rule
    there instead of reading the seat's rule from its keeps.
    """
    level = _as_level(level)
    available = game.available()
    if not available:
        raise ValueError("no die is on the table to keep")
    if level is Level.HARD:
        return Pick(hard_choice(game, rng, normal_seats=normal_seats))
    if level is Level.NORMAL:
        return Pick(normal_choice(game))
    return Pick(_easy_choice(game, rng))


def _as_level(level: Level | str) -> Level:
    """`level` as a Level; ValueError naming the known levels if it is none of them.

    `decide` tells the levels apart by identity, so a plain "hard" must become
    Level.HARD first: compared as it is, it would silently play Easy.
    """
    try:
        return Level(level)
    except ValueError:
        known = ", ".join(member.value for member in Level)
        raise ValueError(f"unknown level {level!r}: the levels are {known}") from None


def timeout_pick(game: Game) -> Pick:
    """The keep made for a player whose turn timer ran out: Normal's choice."""
    return Pick(normal_choice(game))


def normal_choice(game: Game) -> Colour:
    """Normal's die: deterministic, so Hard can foresee it exactly."""
    dice = game.dice
    assert dice is not None
    player = game.current_player
    counts = [0] * len(game.players)
    for colour, _ in game.kept[player]:
        counts[COLOUR_INDEX[colour]] += 1
    available = [COLOUR_INDEX[colour] for colour in game.available()]
    more_rounds = game.round + 1 < game.rounds_total
    index = greedy_choice(dice, available, counts, game.picker is None, game.lowest, more_rounds)
    return COLOURS[index]


def hard_choice(
    game: Game,
    rng: RandomSource,
    chances: Sequence[float] | None = None,
    normal_seats: Collection[int] = (),
) -> Colour:
    """Hard's die. In a 3-player game once the exact tables are built (exact.py): the
    best keep against the mix of rules read from the record. Otherwise the best average
    over play-outs of each choice (lookahead.py; ties: higher number).

    `chances`: per seat, how likely it keeps like a greedy player rather than like
    Normal, for the play-outs (by default read from the record: reading.greedy_chances).
    `normal_seats`: seats known to keep by Normal's rule (see `decide`).
    """
    values = hard_values(game, rng, chances, normal_seats)
    dice = game.dice
    assert dice is not None
    index = max(values, key=lambda i: (values[i], dice[i], -i))
    return COLOURS[index]


def hard_values(
    game: Game,
    rng: RandomSource,
    chances: Sequence[float] | None = None,
    normal_seats: Collection[int] = (),
) -> dict[int, float]:
    """Hard's value of each die on the table (colour index): exact.py's where its tables
    answer (3 players, built), else the play-outs' average reward (lookahead.py), which
    `chances` given for the play-outs also asks for (used as they are). Otherwise every
    seat's rule is read from the record, but for `normal_seats`: Normal's, whatever their
    keeps so far suggest."""
    values = exact.hard_values(game, normal_seats) if chances is None else None
    if values is not None:
        return values
    if chances is None:
        chances = greedy_chances(game, normal_seats)
    return candidate_values(game, rng, chances=chances)


def _easy_choice(game: Game, rng: RandomSource) -> Colour:
    available = game.available()
    if rng.random() >= EASY_TAKES_HIGHEST:
        return available[int(rng.random() * len(available))]
    highest = max(game.value_of(colour) for colour in available)
    tops = [colour for colour in available if game.value_of(colour) == highest]
    return tops[int(rng.random() * len(tops))]
