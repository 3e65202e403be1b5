"""Reading the opponents: how likely each one keeps like a greedy player, not like Normal.

Hard's look-ahead needs a model of how the others keep. Two rules bracket the simple
players: Normal (a colour-bonus point only breaks ties) and a greedy player (it counts in
full). The record of the game (every seat's keeps, round by round) shows each keep with
the dice it was made from, so every keep where the two rules part is evidence: a keep
like Normal's makes Normal likelier, one like greedy's greedy, any other keep tells
nothing. Players of neither kind (people, stronger bots) stay near the prior, a mix.
A third rule read from the keeps neither rule explains (an opponent that plans its keep
as Hard does) lost 0.8 points against two look-ahead bots (600 paired games): about one
keep in eight of such a bot is unexplained, too few to tell it apart within one game.
All of this is public: every player sees what the others kept.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from bot.games.picker.ai.greedy import GREEDY_SET_WEIGHT, SET_GAIN, SET_WEIGHT, greedy_choice
from bot.games.picker.engine import Game
from bot.games.picker.engine.colours import COLOUR_INDEX

PRIOR_GREEDY = 0.5  # before any evidence: either rule, equally
MISS = 0.1  # how often a player keeps against its own rule where the rules part
EVIDENCE = math.log((1 - MISS) / MISS)  # log-odds one telling keep moves


@dataclass(frozen=True, slots=True)
class Keep:
    """One keep and what the keeper saw: the dice, those still on the table, its counts."""

    seat: int
    dice: tuple[int, ...]
    available: list[int]
    counts: list[int]  # the keeper's dice per colour before the round
    picker_open: bool
    more_rounds: bool
    chosen: int


def greedy_chances(game: Game) -> list[float]:
    """Per seat, the chance that it keeps like a greedy player rather than like Normal."""
    log_odds = [math.log(PRIOR_GREEDY / (1 - PRIOR_GREEDY))] * len(game.players)
    for keep in keeps(game):
        lowest = min(keep.dice)
        rule = (keep.dice, keep.available, keep.counts, keep.picker_open, lowest, keep.more_rounds)
        normal = greedy_choice(*rule, set_weight=SET_WEIGHT)
        greedy = greedy_choice(*rule, set_weight=GREEDY_SET_WEIGHT)
        if _alike(keep, normal, greedy):
            continue
        if _alike(keep, keep.chosen, normal):
            log_odds[keep.seat] -= EVIDENCE
        elif _alike(keep, keep.chosen, greedy):
            log_odds[keep.seat] += EVIDENCE
    return [1 / (1 + math.exp(-odds)) for odds in log_odds]


def _alike(keep: Keep, one: int, other: int) -> bool:
    """Two dice are the same keep for the keeper: the same number, the same bonus step."""
    counts = keep.counts
    return keep.dice[one] == keep.dice[other] and SET_GAIN[counts[one]] == SET_GAIN[counts[other]]


def keeps(game: Game) -> Iterator[Keep]:
    """Every keep so far whose order the record fixes, the round in play included.

    The record gives each round's dice (every die is kept by someone) but not who kept
    first in round 1; each round's first player is the previous round's Picker, so each
    guess of round 1's first player fixes the order of every round. Guesses that do not
    lead to today's first player are wrong; rounds on whose first player the guesses
    left still differ are skipped.
    """
    count = len(game.players)
    rows = [game.kept[player] for player in game.players]
    played = game.round
    rounds = [_round(rows, number, count) for number in range(played)]
    chains = [
        chain for start in range(count) if (chain := _firsts(start, rounds))[-1] == game.first
    ]
    counts = [[0] * count for _ in range(count)]
    for number, (dice, keeper) in enumerate(rounds):
        firsts = {chain[number] for chain in chains}
        if len(firsts) == 1:
            yield from _round_keeps(dice, keeper, firsts.pop(), counts, number, game)
        for seat, row in enumerate(rows):
            counts[seat][COLOUR_INDEX[row[number][0]]] += 1
    if game.dice is not None and game.picks:
        keeper = [-1] * count
        for offset, colour in enumerate(game.picks):
            keeper[COLOUR_INDEX[colour]] = (game.first + offset) % count
        yield from _round_keeps(game.dice, keeper, game.first, counts, played, game)


def _round(rows: list[list[tuple]], number: int, count: int) -> tuple[tuple[int, ...], list[int]]:
    """Round `number`'s dice by colour, and the seat that kept each."""
    dice = [0] * count
    keeper = [0] * count
    for seat, row in enumerate(rows):
        colour, value = row[number]
        dice[COLOUR_INDEX[colour]] = value
        keeper[COLOUR_INDEX[colour]] = seat
    return tuple(dice), keeper


def _firsts(start: int, rounds: list[tuple[tuple[int, ...], list[int]]]) -> list[int]:
    """Each round's first player if round 1's was `start`, then the next round's."""
    firsts = [start]
    for dice, keeper in rounds:
        count = len(dice)
        first = firsts[-1]
        lowest = min(dice)
        holders = {keeper[index] for index in range(count) if dice[index] == lowest}
        firsts.append(next(seat for seat in _order(first, count) if seat in holders))
    return firsts


def _order(first: int, count: int) -> list[int]:
    return [(first + offset) % count for offset in range(count)]


def _round_keeps(
    dice: tuple[int, ...],
    keeper: list[int],
    first: int,
    counts: list[list[int]],
    number: int,
    game: Game,
) -> Iterator[Keep]:
    """The keeps of one round in order, those with a choice (the last keep has none)."""
    count = len(game.players)
    lowest = min(dice)
    chosen_by = {seat: index for index, seat in enumerate(keeper) if seat >= 0}
    available = list(range(count))
    picker_open = True
    more_rounds = number + 1 < game.rounds_total
    for seat in _order(first, count):
        if seat not in chosen_by:
            return
        chosen = chosen_by[seat]
        if len(available) > 1:
            yield Keep(
                seat, dice, list(available), list(counts[seat]), picker_open, more_rounds, chosen
            )
        available.remove(chosen)
        if dice[chosen] == lowest:
            picker_open = False
