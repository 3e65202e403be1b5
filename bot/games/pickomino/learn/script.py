"""The practice game's dice: its first five turns are scripted to show a keep and a
claim, the computer player's claim, a bust, the computer's next claim and a steal
(in that order); every roll after them is random.

A roll's dice follow from the game as it stands when it is rolled (the turn, the dice
kept), so whatever the learner keeps, the lesson still happens, and a reload never
rolls differently. Pure: no discord, no I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from bot.games.pickomino.engine import DICE_COUNT, Face, Game, Rules
from bot.games.pickomino.engine.rules import FirstPlayer

W, ONE, TWO, THREE, FOUR, FIVE = (
    Face.WORM,
    Face.ONE,
    Face.TWO,
    Face.THREE,
    Face.FOUR,
    Face.FIVE,
)
# A short game: the tiles of one and two worms on the grill, the others out of play.
GRILL = tuple(range(21, 29))
OUT_OF_PLAY = tuple(range(29, 37))
RULES = Rules(first_player=FirstPlayer.HOST)
LEARNER = 0  # the learner's seat; the computer player's is 1
SCRIPTED_TURNS = 5
LOWEST_TILE = min(GRILL)

# The turns' dice, each a multiset of the 8 faces the turn's rolls show between them:
# every roll shows the faces not kept yet (all their dice), so any keep order ends at
# the same total.
# Turn 1, the learner: any order reaches 21 with a worm, stopping is theirs to choose.
FIRST_CLAIM = (W, W, W, FIVE, FIVE, FOUR, THREE, ONE)
# Turns 2 and 4, the computer player: the first keep leaves less than 21 (or no worm),
# so it cannot stop before the total: it takes 28, then 24.
COMPUTER_CLAIMS = {2: (W, W, W, W, TWO, TWO, TWO, TWO), 4: (W, W, W, W, ONE, ONE, ONE, ONE)}
# Turn 3, the learner: no worm in the first roll, and the next shows only the face kept.
BUST_FIRST_ROLL = (THREE, THREE, THREE, THREE, TWO, TWO, ONE, ONE)


def new_game(players: Sequence[str], rng: Any = None) -> Game:
    """The practice game: 21 to 28 on the grill, the learner (`players[0]`) first."""
    return Game.from_position(players, RULES, grill=GRILL, face_down=OUT_OF_PLAY, current=LEARNER)


def planned_roll(game: Game) -> tuple[Face, ...] | None:
    """The dice the script puts on the table for the roll about to be made, or None
    for a random roll (after the scripted turns, or when the game went another way)."""
    turn = game.turn_number
    if turn > SCRIPTED_TURNS or game.expansion is not None:
        return None
    learner = game.current == LEARNER
    if turn == 1 and learner:
        return _rest_of(FIRST_CLAIM, game.kept)
    if turn in COMPUTER_CLAIMS and not learner:
        return _rest_of(COMPUTER_CLAIMS[turn], game.kept)
    if turn == 3 and learner:
        if not game.kept:
            return BUST_FIRST_ROLL
        return (game.kept[0],) * game.dice_left  # no new face: a bust
    if turn == 5 and learner:
        target = steal_target(game)
        plan = None if target is None else STEAL_PLANS.get(target[1])
        return None if plan is None else _rest_of(plan, game.kept)
    return None


def steal_target(game: Game) -> tuple[str, int] | None:
    """The opponent whose top tile the learner could steal, and the tile (the highest)."""
    learner = game.players[LEARNER] if len(game.players) > LEARNER else None
    tops = [
        (tile, player)
        for player in game.players
        if player != learner and (tile := game.top_tile(player)) is not None
    ]
    if not tops:
        return None
    tile, player = max(tops)
    return player, tile


def _rest_of(plan: Sequence[Face], kept: Sequence[Face]) -> tuple[Face, ...] | None:
    """The planned faces not kept yet; None when the dice kept left the plan."""
    rest = Counter(plan)
    rest.subtract(kept)
    if any(count < 0 for count in rest.values()):
        return None
    return tuple(sorted(rest.elements()))


def _forced_plans() -> dict[int, tuple[Face, ...]]:
    """For each total, 8 dice of at most two faces, a worm among them, whose every
    partial keep with a worm stays below the lowest tile: a turn that can only stop at
    that exact total (so the steal is not missed by stopping early)."""
    plans: dict[int, tuple[Face, ...]] = {}
    for other in (ONE, TWO, THREE, FOUR, FIVE):
        for worms in range(1, DICE_COUNT):
            if worms * W.points >= LOWEST_TILE:
                continue
            total = worms * W.points + (DICE_COUNT - worms) * other.points
            plans.setdefault(total, (W,) * worms + (other,) * (DICE_COUNT - worms))
    return plans


STEAL_PLANS = _forced_plans()


class ScriptedDice:
    """The random source of one change to a practice game: the script's dice for a
    scripted roll (read from the game when the roll is made), else `rng`'s."""

    def __init__(self, game: Callable[[], Game | None], rng: Any) -> None:
        self._game = game
        self._rng = rng

    def randrange(self, stop: int) -> int:
        game = self._game()
        plan = None if game is None else planned_roll(game)
        if plan is None or 6 ** len(plan) != stop:
            return int(self._rng.randrange(stop))
        return encode(plan)

    def random(self) -> float:
        return float(self._rng.random())


def encode(dice: Sequence[Face]) -> int:
    """The number bot.games.pickomino.engine.dice.roll_dice reads as these dice: one
    base-6 digit a die, the digit being the face less one."""
    return sum((int(face) - 1) * 6**index for index, face in enumerate(dice))


__all__ = ["GRILL", "RULES", "ScriptedDice", "encode", "new_game", "planned_roll", "steal_target"]
