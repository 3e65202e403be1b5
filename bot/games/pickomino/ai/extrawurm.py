"""Computer players' view of an Extrawurm turn: what each way it can end is worth, and
every action open valued under optimal play (extrawurm_solver.py does the solving).

Each end of the turn is played out on a copy of the game by the engine itself
(engine/extrawurm_turns.py: the tile taken, the specialist gained and the one sent
back, the Raven's Bratwurm, the Hen's steal, a failure with or without the Hen), so the
bots' model of the expansion is the referee's. The copy is then valued:

- `Objective.WORMS` (Normal): the change of the mover's score (worms on tiles, 11 and
  13, Bratwurms) plus the change of the worth of the specialist they hold.
- `Objective.WIN` (Hard): the chance to win after the turn, with outlook.py's fitted
  pairwise model; each player's strength is their score plus the worth of the
  specialist they hold (`WIN_WORTH`, fitted on who finished ahead); a turn that ends
  the game is valued exactly. With two players each end is worth what the opponent's
  best answer turn leaves (`_after_answers`, as position.py does in the base game):
  measured over the same 800 deals of bench_bots, 53.8% against Normal where the model
  alone gave 50.7%. With three or more players the value is outlook.py's blend of the
  chance to win and the share of opponents finished ahead of, and the mover's new top
  tile is valued as open to a steal in each opponent's turn (outlook.py's `TopTile`,
  with this module's `STEALS`; not under the Sitting Hen). A Bratwurm for two or more
  1s is valued exactly where it can decide the game (`_with_the_bratwurm`): a chance
  to win does not add up.

A specialist's worth (`WORTH`) is the extra score it brings its holder per own turn,
times the own turns it stays held, capped by the own turns the game has left: measured
by `python -m tools.fitting.specialist_worth` (see the constants' comment).

Measured ingredients (bench_bots, paired deals, seed 1; `LOOKS_AHEAD`, `FITTED_FOR_WIN`
and `EXACT_BRATWURM` switch them for such runs): each one's share is in its comment.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass

from bot.games.pickomino.ai import outlook
from bot.games.pickomino.ai.batch import start_values
from bot.games.pickomino.ai.extrawurm_solver import (
    MAX_CLAIM,
    ExtrawurmValues,
    OtherEnds,
    TurnRewards,
    claim_total,
    solve,
    state_of,
)
from bot.games.pickomino.ai.outlook import (
    Standing,
    TopTile,
    standing,
    stolen_before_next_turn,
)
from bot.games.pickomino.ai.policy import ActionValue, Move, RankedActions, best_first
from bot.games.pickomino.ai.position import Objective
from bot.games.pickomino.ai.rewards import Rewards
from bot.games.pickomino.ai.states import MAX_TOTAL, TurnState
from bot.games.pickomino.engine import extrawurm_turns as ew
from bot.games.pickomino.engine.claims import ClaimOption, Source
from bot.games.pickomino.engine.dice import Face
from bot.games.pickomino.engine.events import FailReason
from bot.games.pickomino.engine.game import Game
from bot.games.pickomino.engine.phases import Phase
from bot.games.pickomino.engine.specialists import Specialist
from bot.games.pickomino.engine.tiles import EXTRA_TILES, LOWEST_TILE, worms


@dataclass(frozen=True, slots=True)
class Worth:
    """What holding a specialist brings: score per own turn, for about `turns` own turns."""

    per_turn: float
    turns: float


# Measured by `python -m tools.fitting.specialist_worth --games 200` (seed 1: 200 two-player
# games of Normal against Normal, 2,548 turns measured, 375 to 453 holds each; the games
# were played with a first guess of these worths, about 1 each): `per_turn` is the mean
# gain of the solver's expected turn value (score gained, tiles lost) when the mover
# holds the specialist, against the same position holding none; `turns` the mean own
# turns a holder starts with it before it goes back or the game ends. Specialists
# change hands fast, so each is worth about one worm (the Golden Die nearly two) early
# in the game, and less as the grill empties. The Raven is never held.
WORTH: dict[Specialist, Worth] = {
    Specialist.CANNED_WORM: Worth(per_turn=0.61, turns=1.7),
    Specialist.HEN: Worth(per_turn=0.56, turns=1.6),
    Specialist.WEASEL: Worth(per_turn=0.58, turns=1.7),
    Specialist.GOLDEN_DIE: Worth(per_turn=0.83, turns=2.1),
    Specialist.RAVEN: Worth(per_turn=0.0, turns=0.0),
}
TURNS_PER_TILE = 1.62  # measured alongside: 26.0 turns a game for the 16 tiles of 21-36


# Hard's worths, in points of the win-chance model: fitted by `python -m
# tools.fitting.extrawurm_win_chance --games 600` (seed 7, Normal self-play: 14,767 turn
# ends, the worth each specialist adds to the score gap that best predicts who finishes
# ahead), spread over the same turns held as WORTH. The Weasel and the Golden Die are
# worth about a worm and a half, the Canned Worm about half a worm, and the Hen hardly
# anything: the tile it saves on a failure is one the holder was likely to lose anyway.
WIN_POINTS: dict[Specialist, float] = {
    Specialist.CANNED_WORM: 0.6,
    Specialist.HEN: 0.2,
    Specialist.WEASEL: 1.5,
    Specialist.GOLDEN_DIE: 1.5,
    Specialist.RAVEN: 0.0,
}
WIN_WORTH: dict[Specialist, Worth] = {
    specialist: Worth(WIN_POINTS[specialist] / worth.turns if worth.turns else 0.0, worth.turns)
    for specialist, worth in WORTH.items()
}
# Two players, bench_bots seed 1, 800 paired deals: 53.8% against Normal, as with WORTH.
FITTED_FOR_WIN = True  # Hard values specialists by WIN_WORTH (False: by WORTH, as Normal)


def specialist_worth(
    specialist: Specialist | None, game: Game, objective: Objective = Objective.WORMS
) -> float:
    """The worth of holding `specialist` now, in score points (for `objective`'s player)."""
    if specialist is None:
        return 0.0
    fitted = objective is Objective.WIN and FITTED_FOR_WIN
    worth = (WIN_WORTH if fitted else WORTH)[specialist]
    tiles_left = sum(1 for tile in game.grill if tile >= LOWEST_TILE)
    own_turns_left = tiles_left * TURNS_PER_TILE / len(game.players)
    return worth.per_turn * min(worth.turns, own_turns_left)


# The chance that one opponent's turn steals a top tile (outlook.py's STEALS), measured
# the same way on Extrawurm: `python -m tools.fitting.steal_chances --games 400
# --extrawurm`.
# Lower than in the base game: the 11 and 13 and the Canned Worm give low totals other
# claims, and a Hen holder's tile is not taken.
STEALS: dict[int, float] = {
    21: 0.168, 22: 0.118, 23: 0.098, 24: 0.095, 25: 0.124, 26: 0.132, 27: 0.069, 28: 0.085,
    29: 0.093, 30: 0.052, 31: 0.031, 32: 0.032, 33: 0.018, 34: 0.005, 35: 0.0, 36: 0.0,
}  # fmt: skip


# ------------------------------------------------------------------ ends of a turn


@dataclass(frozen=True, slots=True)
class TurnTable:
    """A position's rewards for the solver, and each claim option's value."""

    rewards: TurnRewards
    option_values: dict[ClaimOption, float]
    best: tuple[ClaimOption | None, ...]  # per claim total: the best claim
    best_after_ones: tuple[ClaimOption | None, ...]  # the same, the Bratwurm gained
    # Hard with three or more players, which plays for a blend of the chance to win and
    # the finishing order: the chance to win each end leaves (each claim's, FAILURE's),
    # and the same as the solver reads ends (per claim total its best claim's, ...). A
    # hint follows Hard's play to them.
    wins: dict[ClaimOption | None, float] | None = None
    win_ends: OtherEnds | None = None


_TABLES: OrderedDict[Hashable, TurnTable] = OrderedDict()
TABLES_KEPT = 256
# bench_bots, 800 two-player deals, seed 1: 53.8% of first places against Normal, 50.7% without.
LOOKS_AHEAD = True  # Hard with two players: each end after the opponent's answer
# Changes few decisions (none of 587 with a Bratwurm open, 40 games): no change of share measured.
EXACT_BRATWURM = True  # Hard: a Bratwurm that ends the game with it valued exactly


def position_key(game: Game, objective: Objective) -> Hashable:
    """Everything a turn's valuation reads (not the dice of the turn in progress)."""
    expansion = game.expansion
    assert expansion is not None
    return (
        objective,
        game.rules,
        tuple(game.players),
        game.current,
        game.turn_dice,
        tuple(game.grill),
        tuple(tuple(game.stacks[player]) for player in game.players),
        tuple(tuple(expansion.extras[player]) for player in game.players),
        tuple(sorted((str(s), str(p)) for s, p in expansion.specialists.items())),
        tuple(expansion.bratwurms[player] for player in game.players),
        expansion.supply,
    )


def turn_table(game: Game, objective: Objective) -> TurnTable:
    """The valued ends of the turn of the player to move (memoized per position)."""
    switches = (LOOKS_AHEAD, FITTED_FOR_WIN, EXACT_BRATWURM, outlook.WIN_WEIGHT)
    key = (position_key(game, objective), *switches)
    table = _TABLES.get(key)
    if table is not None:
        _TABLES.move_to_end(key)
        return table
    looks_ahead = objective is Objective.WIN and LOOKS_AHEAD and len(game.players) == 2
    table = _build_table(game, objective, looks_ahead)
    _TABLES[key] = table
    if len(_TABLES) > TABLES_KEPT:
        _TABLES.popitem(last=False)
    return table


Ends = dict[ClaimOption | None, Game]


def _ends(game: Game, valuer: _Valuer) -> tuple[Ends, list[list[ClaimOption]]]:
    """Every way the mover's turn can end, played out, and the claims per claim total."""
    expansion = game.expansion
    assert expansion is not None
    mover = game.current_player
    ends: Ends = {}
    listed: list[list[ClaimOption]] = []
    for total in range(MAX_CLAIM + 1):
        options = game.options_for_total(
            total, extra_tiles=EXTRA_TILES, may_take_extra=not expansion.extras[mover]
        )
        for option in options:
            if option not in ends:
                ends[option] = valuer.claimed(option)
        listed.append(options)
    ends[FAILURE] = valuer.failed()
    return ends, listed


def _best_claims(
    listed: list[list[ClaimOption]], values: dict[ClaimOption | None, float]
) -> tuple[ClaimOption | None, ...]:
    """Per claim total the claim worth most; a steal wins a tie (it also hurts)."""
    return tuple(
        max(
            options,
            key=lambda option: (values[option], option.source is Source.STEAL),
            default=None,
        )
        for options in listed
    )


def _build_table(game: Game, objective: Objective, looks_ahead: bool = False) -> TurnTable:
    expansion = game.expansion
    assert expansion is not None
    mover = game.current_player
    valuer = _Valuer(game, objective)
    ends, listed = _ends(game, valuer)
    wins = None
    if looks_ahead:
        values = _after_answers(ends, mover)
    elif objective is Objective.WIN and len(game.players) > 2:
        standings = {end: standing_of(after, mover) for end, after in ends.items()}
        values = {end: held.value for end, held in standings.items()}
        wins = {end: held.win for end, held in standings.items()}
    else:
        values = {end: valuer.value(after) for end, after in ends.items()}
    option_values = {option: value for option, value in values.items() if option is not None}
    best = _best_claims(listed, values)
    win_ends = None
    if wins is not None:
        stops = tuple(None if option is None else wins[option] for option in best)
        win_ends = OtherEnds(stops, wins[FAILURE], _win_bonus(game) if expansion.supply else 0.0)
    held = expansion.held_by(mover)
    bonus = valuer.bratwurm() if expansion.supply else 0.0
    exact = None
    if bonus and objective is Objective.WIN and EXACT_BRATWURM:
        exact = _with_the_bratwurm(game, ends, values, bonus, listed)
    rewards = TurnRewards(
        stops=_stops(best, values),
        fail=values[FAILURE],
        bonus=bonus,
        dice=game.turn_dice,
        can=held is Specialist.CANNED_WORM,
        weasel=held is Specialist.WEASEL,
        after_bonus=None if exact is None else (_stops(exact[1], exact[0]), exact[0][FAILURE]),
    )
    after_ones = best if exact is None else exact[1]
    return TurnTable(rewards, option_values, best, after_ones, wins, win_ends)


def _win_bonus(game: Game) -> float:
    """What a Bratwurm for 1s now adds to the mover's chance to win."""
    after = game.copy()
    ew.bratwurm_for_ones(after)
    mover = game.current_player
    return standing_of(after, mover).win - standing_of(game, mover).win


def _stops(
    best: tuple[ClaimOption | None, ...], values: dict[ClaimOption | None, float]
) -> tuple[float | None, ...]:
    return tuple(None if choice is None else values[choice] for choice in best)


def _with_the_bratwurm(
    game: Game,
    ends: Ends,
    values: dict[ClaimOption | None, float],
    bonus: float,
    listed: list[list[ClaimOption]],
) -> tuple[dict[ClaimOption | None, float], tuple[ClaimOption | None, ...]] | None:
    """Hard: each end's value once a Bratwurm for two or more 1s is gained, and the
    best claim per total then; None when that is each value plus `bonus`.

    A chance to win does not add up: a point that decides the game is worth the whole
    game, and the additive bonus (the Bratwurm's worth at the start of the turn) would
    miss it. An end that ends the game is valued exactly with the Bratwurm; any other
    end adds the bonus, the model being smooth while the game goes on.
    """
    over = [end for end, after in ends.items() if _is_over(after)]
    if not over:
        return None
    holding = game.copy()
    ew.bratwurm_for_ones(holding)
    valuer = _Valuer(holding, Objective.WIN)
    mover = game.current_player
    exact = {end: value + bonus for end, value in values.items()}
    for end in over:
        after = valuer.failed() if end is FAILURE else valuer.claimed(end)
        exact[end] = hard_value(after, mover)
    return exact, _best_claims(listed, exact)


FAILURE = None  # the failure's key among a turn's ends


def _after_answers(
    ends: dict[ClaimOption | None, Game], mover: str
) -> dict[ClaimOption | None, float]:
    """Two players: the mover's chance to win after each end and the opponent's answer.

    As position.py's look-ahead in the base game: the opponent plays its next turn for
    its own chance to win after it (this module's ends, valued by `hard_value` from
    its side), and the mover's chance is what it leaves, one minus the opponent's
    expected chance; the answers to every end are solved at once (batch.py). The
    answer is solved as a plain turn of eight dice: the opponent's Golden Die, Weasel
    or Canned Worm and a Bratwurm for 1s count only through the worths in the model,
    which differ little between the mover's ends. An end that ends the game is valued
    exactly.
    """
    values: dict[ClaimOption | None, float] = {}
    tables: dict[ClaimOption | None, tuple[Rewards, float]] = {}
    for end, after in ends.items():
        if _is_over(after):
            values[end] = hard_value(after, mover)
            continue
        answer = _answer_turn(after, mover)
        rewards = _build_table(answer, Objective.WIN).rewards
        tables[end] = (rewards.stops[: MAX_TOTAL + 1], rewards.fail)
    if tables:
        solved = start_values(list(tables.values()))
        for end, chance in zip(tables, solved, strict=True):
            values[end] = 1.0 - float(chance)
    return values


def _is_over(game: Game) -> bool:
    """The turn just played ended the game: no tile of 21-36 face up (RULES.md)."""
    return not game.grill or game.grill[-1] < LOWEST_TILE


def _answer_turn(after: Game, mover: str) -> Game:
    """`after` (a copy, changed in place) at the start of the next player's turn."""
    expansion = after.expansion
    assert expansion is not None
    after.current = (after.players.index(mover) + 1) % len(after.players)
    after.phase, after.kept, after.roll = Phase.ROLL, [], None
    expansion.weasel_used = False
    golden = expansion.holds(after.current_player, Specialist.GOLDEN_DIE)
    after.turn_dice = after.rules.layout.dice + (1 if golden else 0)
    return after


class _Valuer:
    """Plays each end of the turn out on a copy of the game and values the result."""

    def __init__(self, game: Game, objective: Objective) -> None:
        self.game = game
        self.mover = game.current_player
        self.objective = objective
        self.now = 0.0
        self.now = self._value(game)  # Normal's values are changes from here

    def claimed(self, option: ClaimOption) -> Game:
        """A copy of the game after the mover takes `option` (the turn not passed on)."""
        after = self.game.copy()
        assert after.expansion is not None
        ew.take(after, option, self.mover, after.expansion)
        return after

    def failed(self) -> Game:
        """A copy of the game after the mover fails."""
        after = self.game.copy()
        assert after.expansion is not None
        ew.fail(after, FailReason.NO_TILE, after.expansion)
        return after

    def value(self, after: Game) -> float:
        return self._value(after)

    def bratwurm(self) -> float:
        """A Bratwurm from the supply now (two or more 1s kept): what it adds."""
        after = self.game.copy()
        assert after.expansion is not None
        ew.bratwurm_for_ones(after)
        if self.objective is Objective.WORMS:
            return self._value(after)
        return self._value(after) - self.now

    def _value(self, game: Game) -> float:
        """Normal: the change of score and specialist worth; Hard: its standing's value."""
        if self.objective is Objective.WORMS:
            held = specialist_worth(game.specialist_of(self.mover), game)
            return game.score(self.mover) + held - self.now
        return hard_value(game, self.mover)


def standing_of(game: Game, mover: str) -> Standing:
    """The mover's standing with the tiles and tokens as they lie, the turn over
    (outlook.py's model, a player's strength being score plus specialist worth while
    the game goes on)."""
    left = sum(worms(tile) for tile in game.grill if tile >= LOWEST_TILE)
    strengths = {
        player: (
            game.score(player)
            + (specialist_worth(game.specialist_of(player), game, Objective.WIN) if left else 0.0),
            max(game.tiles_held(player), default=0),
        )
        for player in game.players
    }
    return standing(mover, strengths, left, _top_tile(game, mover))


def hard_value(game: Game, mover: str) -> float:
    """What Hard plays for, the turn over: `standing_of`'s value (the chance to win
    with two players)."""
    return standing_of(game, mover).value


def stolen_after(game: Game, option: ClaimOption) -> float:
    """The measured chance that the tile `option` puts on top of the mover's stack is
    stolen before their next turn (hints tell it): 0 with two players, for the 11 and
    13 (beside the stack), for a steal of the Hen and under the Hen."""
    after = _Valuer(game, Objective.WORMS).claimed(option)  # the engine's own steps
    top = _top_tile(after, game.current_player)
    if top is None or top.tile != option.tile:
        return 0.0
    return stolen_before_next_turn(top.tile, len(game.players) - 1, STEALS)


def _top_tile(game: Game, mover: str) -> TopTile | None:
    """The mover's top tile as open to a steal (outlook.py); under the Sitting Hen a
    steal takes the Hen, worth little (WIN_POINTS), so the tile counts as safe."""
    stack = game.stacks[mover]
    if not stack or game.specialist_of(mover) is Specialist.HEN:
        return None
    below = max((*stack[:-1], *game.extras(mover)), default=0)
    return TopTile(stack[-1], below, STEALS.get(stack[-1], 0.0))


# ------------------------------------------------------------------ the actions


@dataclass(frozen=True, slots=True)
class ExtrawurmEvaluation(RankedActions):
    """Every action open to the player to move, best first, and what is behind them."""

    table: TurnTable
    values: ExtrawurmValues
    state: TurnState
    weasel: bool  # the Weasel is the mover's and still to use this turn
    actions: tuple[ActionValue, ...]


def evaluate_extrawurm(game: Game, objective: Objective = Objective.WIN) -> ExtrawurmEvaluation:
    """Value every action open to the player to move in an Extrawurm game."""
    if game.phase is Phase.OVER:
        raise ValueError("the game is over")
    expansion = game.expansion
    if expansion is None:
        raise ValueError("not an Extrawurm game")
    table = turn_table(game, objective)
    values = solve(table.rewards)
    state = state_of(game.kept, game.turn_dice)
    weasel = table.rewards.weasel and not expansion.weasel_used
    actions: list[ActionValue] = []
    if game.phase in (Phase.ROLL, Phase.CLAIM):
        for option in game.claim_options():
            actions.append(ActionValue(Move.STOP, table.option_values[option], claim=option))
        roll = values.roll_value(state, weasel) if game.phase is Phase.ROLL else None
        if roll is not None:
            actions.append(ActionValue(Move.ROLL, roll))
    elif game.phase is Phase.KEEP:
        assert game.roll is not None
        actions += _keeps(table, values, state, game.roll, weasel)
    if ew.may_use_weasel(game):
        again = values.roll_value(state, weasel=False)
        assert again is not None  # a roll is on the table, so the turn goes on
        actions.append(ActionValue(Move.WEASEL, again, count=len(game.roll or ())))
    if game.phase is Phase.NO_NEW_FACE:
        actions.append(ActionValue(Move.ACCEPT_FAILURE, table.rewards.fail))
    if not actions:
        raise ValueError(f"no action is open in phase {game.phase}")
    return ExtrawurmEvaluation(table, values, state, weasel, tuple(sorted(actions, key=best_first)))


def _keeps(
    table: TurnTable,
    values: ExtrawurmValues,
    state: TurnState,
    roll: tuple[Face, ...],
    weasel: bool,
) -> list[ActionValue]:
    actions = []
    for face, count, after in state.keeps(roll):
        bonus = table.rewards.bonus if face is Face.ONE and count > 1 else 0.0
        solved, best = values, table.best
        if bonus and values.after_ones is not None:  # the rest of the turn, Bratwurm held
            solved, best, bonus = values.after_ones, table.best_after_ones, 0.0
        stop = solved.stop_value(after)
        claim = None if stop is None else best[claim_total(after)]
        if after.is_over:
            value = solved.value(after, weasel) + bonus
            actions.append(ActionValue(Move.KEEP_STOP, value, face, count, claim))
            continue
        roll_value = solved.roll_value(after, weasel)
        assert roll_value is not None
        actions.append(ActionValue(Move.KEEP_ROLL, roll_value + bonus, face, count))
        if stop is not None:
            actions.append(ActionValue(Move.KEEP_STOP, stop + bonus, face, count, claim))
    return actions
