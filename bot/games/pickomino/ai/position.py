"""What the solver needs to know about the game around a turn, and what it plays for.

None of it changes during a turn: the face-up grill, the player's own top tile (lost on
a failure) and the opponents' top tiles (stolen with an exact sum). With a `Table`
(the whole game) the ends of the turn are valued as Hard plays (outlook.py: the chance
to win, at three or more players blended with the finishing order; after the next
player's turn: with two players its best answer, `_after_answers`, with more its play
for its worms, `_after_next_turn`); without one, by the change of the player's own
worms (Normal, the odds).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter

from bot.games.pickomino.ai.batch import followed_start_values, start_values
from bot.games.pickomino.ai.memo import memoized
from bot.games.pickomino.ai.outlook import End, Standing, Table
from bot.games.pickomino.ai.rewards import Rewards
from bot.games.pickomino.ai.states import MAX_TOTAL
from bot.games.pickomino.engine.claims import ClaimOption, Source, claim_options
from bot.games.pickomino.engine.game import Game
from bot.games.pickomino.engine.rules import LowerTile
from bot.games.pickomino.engine.tiles import ALL_TILES, worms

ENDS_KEPT = 256  # positions' valued ends, a few kB each
# Hard plays out the next player's turn up to this many players, where it was measured:
# against Normals, paired deals at 3 to 5 seats (7,300 games), +1.1 [+0.2, +1.9] points
# of first places and +0.6 [-0.1, +1.3] of opponents beaten. At 6 and 7 it would cost
# more (a review of 7 players about five times) where the next turn is less of the round.
LOOKS_AHEAD_UP_TO = 5


class Objective(StrEnum):
    """What a turn is played for."""

    WORMS = "worms"  # the expected change of the player's own worms this turn
    # Hard's: the expected chance to win the game after the turn, at three or more
    # players blended with the finishing order (outlook.py's Standing.value)
    WIN = "win"


@dataclass(frozen=True, slots=True)
class Position:
    """The tiles around the turn of the player to move, and how its ends are valued."""

    grill: tuple[int, ...] = ALL_TILES  # face-up grill tiles, ascending
    own_top: int | None = None
    opponent_tops: tuple[tuple[str, int], ...] = ()  # (opponent, their top tile)
    lower_tile: LowerTile = LowerTile.HIGHEST
    table: Table | None = None  # the whole game, to value ends by the chance to win

    @classmethod
    def from_game(cls, game: Game, objective: Objective = Objective.WORMS) -> Position:
        """The position of the player to move in `game`, valued for `objective`."""
        player = game.current_player
        tops = tuple(
            (opponent, stack[-1])
            for opponent, stack in game.stacks.items()
            if stack and opponent != player
        )
        table = None
        if objective is Objective.WIN:
            stacks = tuple((name, tuple(game.stacks[name])) for name in game.players)
            looks_ahead = len(game.players) <= LOOKS_AHEAD_UP_TO
            table = Table(player, stacks, game.rules.flip_on_empty_failure, looks_ahead)
        return cls(tuple(game.grill), game.top_tile(player), tops, game.rules.lower_tile, table)

    @property
    def objective(self) -> Objective:
        return Objective.WORMS if self.table is None else Objective.WIN

    def claims(self, total: int, has_worm: bool) -> list[ClaimOption]:
        """Every tile stopping with `total` would take, as the engine lists them."""
        return claim_options(
            total,
            has_worm,
            list(self.grill),
            dict(self.opponent_tops),
            any_lower_tile=self.lower_tile is LowerTile.ANY,
        )

    def claim_value(self, option: ClaimOption) -> float:
        """What ending the turn by taking `option` is worth to the player."""
        if self.table is None:
            return float(option.worms)
        return _valued_ends(self).values[option]

    def best_claim(self, total: int, has_worm: bool) -> ClaimOption | None:
        """The claim worth most to the player; a steal wins a tie (it also hurts)."""
        options = self.claims(total, has_worm)
        if not options:
            return None
        return max(
            options,
            key=lambda option: (self.claim_value(option), option.source is Source.STEAL),
        )

    @property
    def fail_value(self) -> float:
        """What a failure is worth: the top tile goes back (and a grill tile may turn)."""
        if self.table is not None:
            return _valued_ends(self).values[FAILURE]
        return -float(worms(self.own_top)) if self.own_top is not None else 0.0

    def rewards(self) -> Rewards:
        """What stopping gives for each sum, the solver's view of this position."""
        if self.table is None:
            return _worm_rewards(self)
        return _valued_ends(self).rewards

    def win_ends(self) -> WinEnds | None:
        """With three or more players, the chance to win each end leaves (Hard plays for
        a blend of it and the finishing order); None otherwise, where Hard's values are
        the chance to win itself (two players) or worms (Normal)."""
        if self.table is None or len(self.table.stacks) < 3:
            return None
        return _win_ends(self)


FAILURE = None  # the failure's key among a position's ends


@dataclass(frozen=True, slots=True)
class _Ends:
    """What each way a turn can end is worth (each claim, and FAILURE), and the
    solver's reward table made of them."""

    values: dict[ClaimOption | None, float]
    rewards: Rewards


@dataclass(frozen=True, slots=True)
class WinEnds:
    """The chance to win each end leaves: each claim's and the failure's (FAILURE),
    and per sum, stopping with its best claim (the solver's choice). A hint follows
    Hard's play to them."""

    by_end: dict[ClaimOption | None, float]
    rewards: Rewards
    fail: float


@memoized(ENDS_KEPT)
def _valued_ends(position: Position) -> _Ends:
    # Memoized: a turn asks at every decision. The look-ahead's answer positions are
    # valued once each and call _value_ends directly, so they do not crowd this memo.
    return _value_ends(position)


def _turn_ends(
    position: Position,
) -> tuple[list[list[ClaimOption]], list[ClaimOption | None], list[End]]:
    """The claims per sum, every end's key (each claim, then FAILURE) and the end itself."""
    table = position.table
    assert table is not None
    claims = [position.claims(total, True) for total in range(MAX_TOTAL + 1)]
    options = list(dict.fromkeys(option for listed in claims for option in listed))
    ends = [table.claimed(position.grill, option) for option in options]
    ends.append(table.failed(position.grill))
    return claims, [*options, FAILURE], ends


def _value_ends(position: Position) -> _Ends:
    """What Hard plays for after each way the turn of `position` can end (it has a Table)."""
    table = position.table
    assert table is not None
    claims, keys, ends = _turn_ends(position)
    if table.looks_ahead and len(table.stacks) == 2:
        values = dict(zip(keys, _after_answers(position, ends), strict=True))
    elif table.looks_ahead:
        values = dict(zip(keys, _after_next_turn(position, ends, attrgetter("value")), strict=True))
    else:
        values = dict(zip(keys, (table.value(*end) for end in ends), strict=True))
    return _Ends(values, _best_rewards(claims, values))


@memoized(ENDS_KEPT)
def _win_ends(position: Position) -> WinEnds:
    """Three or more players: the chance to win after each end, valued as the blend is
    (after the next player's turn with a look-ahead). Only a hint tells it, so it is
    worked out when one asks: playing and reviewing need the blend alone."""
    table = position.table
    assert table is not None
    claims, keys, ends = _turn_ends(position)
    if table.looks_ahead:
        wins = dict(zip(keys, _after_next_turn(position, ends, attrgetter("win")), strict=True))
    else:
        wins = dict(zip(keys, (table.standing(*end).win for end in ends), strict=True))
    values = _valued_ends(position).values
    best = (
        max(listed, key=lambda option: (values[option], option.source is Source.STEAL))
        if listed
        else None
        for listed in claims
    )
    stops = tuple(None if option is None else wins[option] for option in best)
    return WinEnds(wins, stops, wins[FAILURE])


def _best_rewards(
    claims: list[list[ClaimOption]], values: dict[ClaimOption | None, float]
) -> Rewards:
    """Per sum, what stopping with it is worth: its best claim's value."""
    return tuple(max((values[option] for option in listed), default=None) for listed in claims)


def _after_answers(position: Position, ends: list[End]) -> list[float]:
    """Two players: the mover's chance to win after each end and the opponent's answer.

    The opponent plays its next turn for its own chance to win after it (the model of
    outlook.py, as Hard without look-ahead would), and the mover's chance is what the
    opponent leaves: one minus the opponent's expected chance, their best play solved
    exactly for every end at once (batch.py). So each end is valued by what the next
    turn can do to it, not by a formula: how exposed the mover's new top tile is to a
    steal, which tiles it leaves the opponent, and how likely the opponent is to fail.
    An end that empties the grill is the end of the game, valued exactly.
    """
    table = position.table
    assert table is not None
    (opponent,) = (player for player, _ in table.stacks if player != table.mover)
    values: dict[int, float] = {}
    answers: dict[int, Position] = {}
    for index, (grill, stacks) in enumerate(ends):
        if not grill:  # the game is over: the model's exact value
            values[index] = table.value(grill, stacks)
            continue
        mover_stack = stacks[table.mover]
        answers[index] = Position(
            grill,
            own_top=stacks[opponent][-1] if stacks[opponent] else None,
            opponent_tops=((table.mover, mover_stack[-1]),) if mover_stack else (),
            lower_tile=position.lower_tile,
            table=Table(opponent, tuple(stacks.items()), table.flip_on_empty_failure),
        )
    if answers:
        valued = [_value_ends(answer) for answer in answers.values()]
        solved = start_values([(ends.rewards, ends.values[FAILURE]) for ends in valued])
        for index, opponent_chance in zip(answers, solved, strict=True):
            values[index] = 1.0 - float(opponent_chance)
    return [values[index] for index in range(len(ends))]


@memoized(ENDS_KEPT)
def _worm_rewards(position: Position) -> Rewards:
    # Memoized: a turn asks for the same table at every decision.
    return tuple(
        max((float(option.worms) for option in position.claims(total, True)), default=None)
        for total in range(MAX_TOTAL + 1)
    )


def _after_next_turn(
    position: Position, ends: list[End], worth: Callable[[Standing], float]
) -> list[float]:
    """Three or more players: what each end is worth to the mover (`worth` of its
    standing) after the next player's turn, that player playing for its own worms (as
    Normal does, and most people).

    The next player's turn is solved for every end at once, and followed to its own
    ends (batch.py's `followed_start_values`): its chance of taking the mover's new top
    tile, of taking the tile the mover left on the grill, of failing (which turns a grill
    tile over). Each of those ends is valued by outlook.py's model from the mover's
    side, the new top tile then open only to the players after (`Table.standing`'s
    `moved`). An end that empties the grill is the end of the game, valued exactly.
    The blend and the chance to win are linear in the chances, so their expectations
    are the blend and the chance to win of the expected standing.
    """
    table = position.table
    assert table is not None
    following = _next_player(table)
    worths: dict[int, float] = {}
    answers: dict[int, tuple[Rewards, float]] = {}
    valued: dict[int, tuple[Rewards, float]] = {}
    for index, (grill, stacks) in enumerate(ends):
        if not grill:
            worths[index] = worth(table.standing(grill, stacks))
            continue
        answers[index], chosen = _next_turn(position, grill, stacks)
        answering = Table(following, tuple(stacks.items()), table.flip_on_empty_failure)
        after = {
            option: worth(table.standing(*answering.claimed(grill, option), following))
            for option in dict.fromkeys(option for option in chosen if option is not None)
        }
        valued[index] = (
            tuple(None if option is None else after[option] for option in chosen),
            worth(table.standing(*answering.failed(grill), following)),
        )
    if answers:
        followed = followed_start_values(list(answers.values()), list(valued.values()))
        for index, value in zip(answers, followed, strict=True):
            worths[index] = float(value)
    return [worths[index] for index in range(len(ends))]


def _next_player(table: Table) -> str:
    players = [player for player, _ in table.stacks]
    return players[(players.index(table.mover) + 1) % len(players)]


def _next_turn(
    position: Position, grill: tuple[int, ...], stacks: dict[str, tuple[int, ...]]
) -> tuple[tuple[Rewards, float], list[ClaimOption | None]]:
    """The next player's turn after an end of the mover's, played for its worms: its
    reward table (rewards per sum, failure) and the claim it takes at each sum."""
    assert position.table is not None
    following = _next_player(position.table)
    own = stacks[following]
    tops = tuple(
        (player, tiles[-1]) for player, tiles in stacks.items() if tiles and player != following
    )
    answer = Position(grill, own[-1] if own else None, tops, position.lower_tile)
    chosen = [answer.best_claim(total, True) for total in range(MAX_TOTAL + 1)]
    rewards = tuple(None if option is None else float(option.worms) for option in chosen)
    return (rewards, answer.fail_value), chosen


def taken_by_the_next_player(position: Position, option: ClaimOption) -> float | None:
    """With Hard's look-ahead at three or more players, the chance that the next
    player's turn (played for its worms) ends by stealing the tile `option` puts on top
    of the mover's stack; None without it."""
    table = position.table
    if table is None or not table.looks_ahead or len(table.stacks) < 3:
        return None
    grill, stacks = table.claimed(position.grill, option)
    if not grill:
        return 0.0  # the game is over
    policy, chosen = _next_turn(position, grill, stacks)
    steals = tuple(
        None if claim is None else float(claim.victim == table.mover and claim.tile == option.tile)
        for claim in chosen
    )
    return float(followed_start_values([policy], [(steals, 0.0)])[0])
