"""Shared set-up for the Picker tests: seat names and random play."""

from __future__ import annotations

import random

from bot.games.picker.ai import Level, decide
from bot.games.picker.engine import Colour, Event, Game, Pick, RollDice
from bot.games.picker.engine.colours import COLOUR_INDEX

NAMES = ("anne", "bob", "cara", "dan", "eve", "fay", "gus", "hal")


def seats(count: int) -> list[str]:
    return list(NAMES[:count])


def random_step(game: Game, rng: random.Random) -> list[Event]:
    """One random legal action: roll while the dice are to be rolled, else keep any die."""
    if game.legal_actions().can_roll:
        return game.roll_with(rng)
    return game.apply(Pick(rng.choice(game.available())))


def pick_all(game: Game, dice: list[int], colours: list[Colour]) -> list[Event]:
    """Roll `dice` and keep `colours` in order; return every event."""
    events = game.apply(RollDice(tuple(dice)))
    for colour in colours:
        events += game.apply(Pick(colour))
    return events


def play_rounds(seed: int, rounds: int) -> Game:
    """A 3-player game after `rounds` rounds of Normals (random keeps now and then, so
    colours repeat in all sorts of ways)."""
    rng = random.Random(seed)
    game = Game(seats(3), first=seed % 3)
    while game.round < rounds:
        if game.legal_actions().can_roll:
            game.roll_with(rng)
        elif rng.random() < 0.3:
            game.apply(Pick(rng.choice(game.available())))
        else:
            game.apply(decide(game, Level.NORMAL, rng))
    return game


def key_and_gaps(game: Game) -> tuple[tuple[int, tuple[int, ...]], int, int]:
    """The exact solvers' view of a game between rounds, seat 0 being solved for: who keeps
    first and the colours each seat kept (their `Key`), and the score gaps d1, d2."""
    sets = tuple(
        sum(1 << index for index in {COLOUR_INDEX[c] for c in game.colours_kept(p)})
        for p in game.players
    )
    scores = {standing.player: standing.score for standing in game.standings()}
    mine = scores[game.players[0]]
    gaps = [scores[player] - mine for player in game.players]
    return (game.first, sets), gaps[1], gaps[2]
