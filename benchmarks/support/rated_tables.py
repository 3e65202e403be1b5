"""The mixed tables of computer players bench_ratings rates, in either game.

A game's table (how many seats, each seat's level, with Pickomino whether Extrawurm is
on) and its dice come from its number alone, so a run is the same on any number of
workers. Every table seats at least two levels; the games are played by the engines and
the computer players, no Discord.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from benchmarks.support.stats import ratio_interval
from bot.games.picker.ai import Level as PickerLevel
from bot.games.picker.ai import decide as picker_decide
from bot.games.picker.engine import Game as PickerGame
from bot.games.picker.engine import Phase as PickerPhase
from bot.games.pickomino.ai.players import Level, carry_out, decide
from bot.games.pickomino.engine import Game, Rules

LEVELS = ("easy", "normal", "hard")  # weakest first, both games' level names
EXTRAWURM = "extrawurm"  # the variant's name, as the history keeps it


@dataclass(frozen=True, slots=True)
class Played:
    """One game: each seat's level, place and score, in seat order."""

    levels: tuple[str, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    variant: str | None = None  # the rule variant played (Pickomino's Extrawurm), if any


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A game as the benchmark seats it: its kind, table sizes, and how a table plays."""

    kind: str
    seats: range
    play_table: Callable[[Sequence[str], random.Random, bool], Played]
    extrawurm_share: float = 0.0  # the share of its games with the expansion on

    def play(self, number: int) -> Played:
        """Game `number`: its table and its dice drawn from `number` alone."""
        rng = random.Random(number)
        seats = rng.randint(self.seats.start, self.seats.stop - 1)
        levels = [rng.choice(LEVELS) for _ in range(seats)]
        while len(set(levels)) < 2:
            levels = [rng.choice(LEVELS) for _ in range(seats)]
        extrawurm = rng.random() < self.extrawurm_share
        return self.play_table(levels, rng, extrawurm)


def play_pickomino(levels: Sequence[str], rng: random.Random, extrawurm: bool = False) -> Played:
    """A Pickomino game of computer players at these levels, in seat order."""
    seats = len(levels)
    names = [f"s{seat}" for seat in range(seats)]
    level_of = {name: Level(level) for name, level in zip(names, levels, strict=True)}
    game = Game(names, Rules(extrawurm=extrawurm), first=rng.randrange(seats))
    while not game.is_over:
        carry_out(game, decide(game, level_of[game.current_player]), rng)
    place = {standing.player: standing.rank for standing in game.standings()}
    return Played(
        tuple(levels),
        tuple(place[name] for name in names),
        tuple(game.score(name) for name in names),
        EXTRAWURM if extrawurm else None,
    )


def play_picker(levels: Sequence[str], rng: random.Random, extrawurm: bool = False) -> Played:
    """A Picker game of computer players at these levels, in seat order; Hard is told
    the Normal seats, as the bot tells it its own computer players (`extrawurm` unused:
    Picker has no variant)."""
    seats = len(levels)
    names = [f"s{seat}" for seat in range(seats)]
    level_of = [PickerLevel(level) for level in levels]
    normal = frozenset(seat for seat, level in enumerate(level_of) if level is PickerLevel.NORMAL)
    game = PickerGame(names, first=rng.randrange(seats), computer=names)
    while not game.is_over:
        if game.phase is PickerPhase.ROLL:
            game.roll_with(rng)
            continue
        game.apply(picker_decide(game, level_of[game.current], rng, normal_seats=normal))
    by_player = {standing.player: standing for standing in game.standings()}
    return Played(
        tuple(levels),
        tuple(by_player[name].rank for name in names),
        tuple(by_player[name].score for name in names),
    )


GAMES = {
    "pickomino": RatedGame("pickomino", range(2, 6), play_pickomino, extrawurm_share=0.25),
    "picker": RatedGame("picker", range(3, 8), play_picker),
}


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """How often seats of one level finished ahead of seats of another at one table."""

    pairs: int  # (stronger seat, weaker seat) pairs counted
    share: float  # those the stronger finished ahead in (a shared place counts half)
    low: float  # its 95% interval, over games (a game's pairs are not independent)
    high: float


def head_to_head(
    games: Sequence[Played], stronger: str, weaker: str, seats: range
) -> HeadToHead | None:
    """Every pair of a `stronger` and a `weaker` seat at one table of `seats` seats;
    None when no game has such a pair."""
    ahead: list[float] = []
    counted: list[int] = []
    for game in games:
        if len(game.levels) not in seats:
            continue
        seated = list(zip(game.levels, game.ranks, strict=True))
        mine = [rank for level, rank in seated if level == stronger]
        theirs = [rank for level, rank in seated if level == weaker]
        if mine and theirs:
            ahead.append(sum((a < b) + 0.5 * (a == b) for a in mine for b in theirs))
            counted.append(len(mine) * len(theirs))
    if not counted:
        return None
    low, high = ratio_interval(ahead, counted)
    return HeadToHead(sum(counted), sum(ahead) / sum(counted), low, high)
