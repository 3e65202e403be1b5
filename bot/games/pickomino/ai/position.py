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

from dataclasses import dataclass
from enum import StrEnum

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
            table = Table(player, stacks, game.rules.flip_on_empty_failure, looks_ahead=True)
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
        if self.table is None:
            return None
        return _valued_ends(self).wins


FAILURE = None  # the failure's key among a position's ends


@dataclass(frozen=True, slots=True)
class _Ends:
    """What each way a turn can end is worth (each claim, and FAILURE), and the
    solver's reward table made of them; with three or more players also the chance to
    win the same ends leave (`WinEnds`), which the value blends with the finishing order."""

    values: dict[ClaimOption | None, float]
    rewards: Rewards
    wins: WinEnds | None = None


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


def _value_ends(position: Position) -> _Ends:
    """What Hard plays for after each way the turn of `position` can end (it has a Table)."""
    table = position.table
    assert table is not None
    claims = [position.claims(total, True) for total in range(MAX_TOTAL + 1)]
    options = list(dict.fromkeys(option for listed in claims for option in listed))
    ends = [table.claimed(position.grill, option) for option in options]
    ends.append(table.failed(position.grill))
    if table.looks_ahead and len(table.stacks) == 2:
        values = dict(zip([*options, FAILURE], _after_answers(position, ends), strict=True))
        rewards = _best_rewards(claims, values)
        return _Ends(values, rewards)
    if table.looks_ahead:
        standings = _after_next_turn(position, ends)
    else:
        standings = [table.standing(*end) for end in ends]
    values = dict(zip([*options, FAILURE], (s.value for s in standings), strict=True))
    rewards = _best_rewards(claims, values)
    if len(table.stacks) < 3:
        return _Ends(values, rewards)
    wins = dict(zip([*options, FAILURE], (s.win for s in standings), strict=True))
    best = (
        max(listed, key=lambda option: (values[option], option.source is Source.STEAL))
        if listed
        else None
        for listed in claims
    )
    stops = tuple(None if option is None else wins[option] for option in best)
    won = WinEnds(wins, stops, wins[FAILURE])
    return _Ends(values, rewards, won)


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


def _after_next_turn(position: Position, ends: list[End]) -> list[Standing]:
    """Three or more players: the mover's standing after each end and the next player's
    turn, that player playing for its own worms (as Normal does, and most people).

    The next player's turn is solved for every end at once, and followed to its own
    ends (batch.py's `followed_start_values`): its chance of taking the mover's new top
    tile, of taking the tile the mover left on the grill, of failing (which turns a grill
    tile over). Each of those ends is valued by outlook.py's model from the mover's
    side, the new top tile then open only to the players after (`Table.standing`'s
    `moved`). An end that empties the grill is the end of the game, valued exactly.
    """
    table = position.table
    assert table is not None
    players = [player for player, _ in table.stacks]
    following = players[(players.index(table.mover) + 1) % len(players)]
    standings: dict[int, Standing] = {}
    answers: dict[int, tuple[Rewards, float]] = {}
    valued: dict[int, list[tuple[Rewards, float]]] = {}
    for index, (grill, stacks) in enumerate(ends):
        if not grill:
            standings[index] = table.standing(grill, stacks)
            continue
        own = stacks[following]
        tops = tuple(
            (player, tiles[-1]) for player, tiles in stacks.items() if tiles and player != following
        )
        answer = Position(grill, own[-1] if own else None, tops, position.lower_tile)
        answering = Table(following, tuple(stacks.items()), table.flip_on_empty_failure)
        after: dict[ClaimOption, Standing] = {}
        chosen = [answer.best_claim(total, True) for total in range(MAX_TOTAL + 1)]
        for option in dict.fromkeys(option for option in chosen if option is not None):
            after[option] = table.standing(*answering.claimed(grill, option), following)
        failed = table.standing(*answering.failed(grill), following)
        answers[index] = (
            tuple(None if option is None else float(option.worms) for option in chosen),
            answer.fail_value,
        )
        valued[index] = [
            (
                tuple(None if option is None else after[option].ahead for option in chosen),
                failed.ahead,
            ),
            (tuple(None if option is None else after[option].win for option in chosen), failed.win),
        ]
    if answers:
        followed = followed_start_values(list(answers.values()), list(valued.values()))
        for index, (ahead, win) in zip(answers, followed, strict=True):
            standings[index] = Standing(float(win), float(ahead), len(players) - 1)
    return [standings[index] for index in range(len(ends))]
