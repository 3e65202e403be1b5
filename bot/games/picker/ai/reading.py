"""Reading the opponents: how likely each one keeps by each of some rules.

Hard needs a model of how the others keep. Two rules bracket the simple players: Normal
(a colour-bonus point only breaks ties) and a greedy player (it counts in full); at 3
players exact.py adds a look-ahead rule. The record of the game (every seat's keeps,
round by round) shows each keep with the dice it was made from, so every keep where the
rules part is evidence: each rule that makes it gains against those that do not, and a
keep no rule makes tells nothing. Players of no such kind stay near the prior, a mix.
Hard's own planner as a third rule for the look-ahead (4 to 8 players) lost 0.8 points
against two look-ahead bots (600 paired games): about one keep in eight of such a bot
is unexplained by Normal and greedy, too few to tell it apart within one game.
All of this is public: every player sees what the others kept.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from bot.games.picker.ai.greedy import GREEDY_SET_WEIGHT, SET_GAIN, SET_WEIGHT, greedy_choice
from bot.games.picker.engine import Colour, Game
from bot.games.picker.engine.colours import COLOUR_INDEX

PRIOR_GREEDY = 0.5  # before any evidence: either rule, equally
MISS = 0.1  # how often a player keeps against its own rule where the rules part


@dataclass(frozen=True, slots=True)
class Keep:
    """One keep and what the keeper saw: the dice, those still on the table, its counts,
    and for rules that read the whole table, the round and what every seat kept."""

    seat: int
    dice: tuple[int, ...]
    available: list[int]
    counts: list[int]  # the keeper's dice per colour before the round
    picker_open: bool
    more_rounds: bool
    chosen: int
    round_index: int
    first: int  # the seat keeping first this round
    earlier: tuple[int, ...]  # the dice kept before this keep this round, in order
    history: tuple[
        tuple[tuple[int, int], ...], ...
    ]  # per seat: (colour, number) kept before the round


KeepRule = Callable[[Keep], int]  # the die (colour index) a rule keeps
NONE_KNOWN: Mapping[int, int] = MappingProxyType({})  # no seat's rule known beforehand


def normal_rule(keep: Keep) -> int:
    return greedy_choice(*_rule_input(keep), set_weight=SET_WEIGHT)


def greedy_rule(keep: Keep) -> int:
    return greedy_choice(*_rule_input(keep), set_weight=GREEDY_SET_WEIGHT)


def _rule_input(keep: Keep) -> tuple[tuple[int, ...], list[int], list[int], bool, int, bool]:
    lowest = min(keep.dice)
    return keep.dice, keep.available, keep.counts, keep.picker_open, lowest, keep.more_rounds


def greedy_chances(game: Game, normal_seats: Collection[int] = ()) -> list[float]:
    """Per seat, the chance that it keeps like a greedy player rather than like Normal
    (none for `normal_seats`, known to keep like Normal)."""
    prior = [1 - PRIOR_GREEDY, PRIOR_GREEDY]
    known = dict.fromkeys(normal_seats, 0)
    rules = (normal_rule, greedy_rule)
    return [chances[1] for chances in rule_chances(game, rules, prior, known=known)]


def rule_chances(
    game: Game,
    rules: Sequence[KeepRule],
    prior: Sequence[float],
    skip: int | None = None,
    known: Mapping[int, int] = NONE_KNOWN,
) -> list[list[float]]:
    """Per seat, the chance of each rule (the order of `rules`) given its keeps so far:
    a keep where the rules part counts for each rule that makes it, (1 - MISS) against
    MISS; keeps where every rule keeps alike tell nothing. `skip`: a seat not read.
    `known`: seats whose rule is known (the index of the rule), not read either."""
    log_likelihoods = [[math.log(chance) for chance in prior] for _ in game.players]
    for keep in keeps(game):
        if keep.seat == skip or keep.seat in known:
            continue
        kept = [rule(keep) for rule in rules]
        if all(_alike(keep, choice, kept[0]) for choice in kept[1:]):
            continue
        row = log_likelihoods[keep.seat]
        for index, choice in enumerate(kept):
            row[index] += (
                math.log(1 - MISS) if _alike(keep, keep.chosen, choice) else math.log(MISS)
            )
    chances = [_normalised(row) for row in log_likelihoods]
    for seat, rule in known.items():
        chances[seat] = [float(index == rule) for index in range(len(rules))]
    return chances


def _normalised(log_likelihoods: list[float]) -> list[float]:
    top = max(log_likelihoods)
    weights = [math.exp(value - top) for value in log_likelihoods]
    total = sum(weights)
    return [weight / total for weight in weights]


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
            yield from _round_keeps(dice, keeper, firsts.pop(), counts, number, game, rows)
        for seat, row in enumerate(rows):
            counts[seat][COLOUR_INDEX[row[number][0]]] += 1
    if game.dice is not None and game.picks:
        keeper = [-1] * count
        for offset, colour in enumerate(game.picks):
            keeper[COLOUR_INDEX[colour]] = (game.first + offset) % count
        yield from _round_keeps(game.dice, keeper, game.first, counts, played, game, rows)


def _round(
    rows: list[list[tuple[Colour, int]]], number: int, count: int
) -> tuple[tuple[int, ...], list[int]]:
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
    rows: list[list[tuple[Colour, int]]],
) -> Iterator[Keep]:
    """The keeps of one round in order, those with a choice (the last keep has none)."""
    count = len(game.players)
    history = tuple(
        tuple((COLOUR_INDEX[colour], value) for colour, value in row[:number]) for row in rows
    )
    earlier: list[int] = []
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
                seat,
                dice,
                list(available),
                list(counts[seat]),
                picker_open,
                more_rounds,
                chosen,
                number,
                first,
                tuple(earlier),
                history,
            )
        available.remove(chosen)
        earlier.append(chosen)
        if dice[chosen] == lowest:
            picker_open = False
