"""A finished Picker game reviewed (bot.plugin.review): every keep judged by Hard's values
of the dice on the table, as a chance to win (share of first place): the exact tables
at 3 players once built (exact.py), else Hard's look-ahead (lookahead.py) with the
play-outs scored by the share of first place alone (no margin).

The game is replayed from its start: every round's dice are read back from its keeps
(every die is kept by exactly one player, and the first round's roll, made when the game
began, is not among the stored events), then each keep is applied. Only keeps with two
dice or more on the table are decisions. Dice luck is not measured for Picker yet (one
roll a round serves every player): its reviews carry no rolls.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any

from bot.games.picker.ai import exact
from bot.games.picker.ai.lookahead import PICK_BUDGET, candidate_values
from bot.games.picker.ai.players import Level
from bot.games.picker.ai.reading import greedy_chances
from bot.games.picker.engine import (
    COLOURS,
    Game,
    Phase,
    Pick,
    Picked,
    PickerError,
    PlayerLeft,
    RollDice,
    event_from_dict,
)
from bot.games.picker.engine.colours import COLOUR_INDEX
from bot.games.picker.engine.events import Event
from bot.games.picker.render.review import choice_words, decision_text
from bot.plugin.review import CostlyDecision, GameReview, PlayerReview, ReviewFailed, ReviewSetup
from bot.render.names import Namer
from bot.sessions.adapter import GameEvent

# Play-out steps per keep judged: half of Hard's own, so a 7-player game's review stays
# within a second of CPU (its values are a little noisier than Hard's decisions).
REVIEW_BUDGET = PICK_BUDGET // 2


def win_values(game: Game, normal_seats: Collection[int]) -> dict[int, float]:
    """Hard's chance to win after keeping each die on the table, by colour index."""
    values = exact.hard_values(game, normal_seats)
    if values is not None:
        return values
    rng = random.Random(f"{game.round}:{game.picks}:{game.dice}")  # the same every time
    chances = greedy_chances(game, normal_seats)
    return candidate_values(game, rng, REVIEW_BUDGET, chances=chances, margin=0.0)


class PickerReviewer:
    """Picker's `bot.plugin.review.Reviewer`."""

    def review(self, setup: ReviewSetup, events: Sequence[GameEvent]) -> GameReview:
        try:
            typed = [event_from_dict(dict(event)) for event in events]
            return _replay(setup, typed)
        except (PickerError, KeyError, ValueError, TypeError, AssertionError) as error:
            raise ReviewFailed(str(error)) from error

    def draw_decision(self, decision: CostlyDecision, name_of: Namer) -> str:
        return decision_text(decision, name_of)

    def choice_words(self, decision: CostlyDecision, name_of: Namer) -> tuple[str, str]:
        position = decision.position
        return choice_words(position, position["did"]), choice_words(position, position["best"])


def _replay(setup: ReviewSetup, events: list[Event]) -> GameReview:
    players = list(setup.players)
    first = next((event.player for event in events if isinstance(event, Picked)), None)
    if first is None or first not in players:
        raise ReviewFailed("no keep of a seated player")
    game = Game(players, first=players.index(first))
    normal = frozenset(
        seat
        for seat, player in enumerate(players)
        if player in setup.computers and (setup.computers[player] or Level.NORMAL) == Level.NORMAL
    )
    reviews = {player: PlayerReview(player) for player in players}
    for index, event in enumerate(events):
        if game.is_over:
            break
        if isinstance(event, PlayerLeft):
            game.remove_player(event.player)
            continue
        if not isinstance(event, Picked):
            continue  # rolls, the Picker, a round's end: read back or caused by the keeps
        if game.phase is Phase.ROLL:
            game.apply(RollDice(_round_dice(events, index, len(players))))
        if event.player != game.current_player:
            raise ReviewFailed(f"{event} is not by the player to move")
        if len(game.available()) > 1:
            _judge(game, event, reviews[event.player], normal)
        game.apply(Pick(event.colour))
    if not game.is_over:
        raise ReviewFailed("the keeps do not finish the game")
    return GameReview(tuple(reviews.values()))


def _round_dice(events: list[Event], start: int, count: int) -> tuple[int, ...]:
    """The round's dice, read from its keeps from `start` on (each die kept once)."""
    dice: dict[int, int] = {}
    for event in events[start:]:
        if isinstance(event, Picked):
            dice[COLOUR_INDEX[event.colour]] = event.value
            if len(dice) == count:
                return tuple(dice[index] for index in range(count))
    raise ReviewFailed("a round's keeps do not cover its dice")


def _judge(game: Game, event: Picked, review: PlayerReview, normal: frozenset[int]) -> None:
    values = win_values(game, normal)
    chosen = values.get(COLOUR_INDEX[event.colour])
    if chosen is None:
        return
    dice = game.dice
    assert dice is not None
    best_index = max(values, key=lambda i: (values[i], dice[i], -i))
    review.judge(values[best_index], chosen, game.round + 1, _position(game, event, best_index))


def _position(game: Game, event: Picked, best: int) -> dict[str, Any]:
    dice = game.dice
    assert dice is not None
    return {
        "dice": list(dice),
        "taken": [str(colour) for colour in game.picks],
        "kept": [str(colour) for colour, _ in game.kept[event.player]],
        "scores": [[player, game.points[player]] for player in game.players],
        "did": str(event.colour),
        "best": str(COLOURS[best]),
    }
