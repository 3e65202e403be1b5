"""Hints for the player to move: what Hard would do, and why, in plain words.

`hint_for(game)` returns structured data (a UI may draw it any way): Hard's choice
(what Hard plays for, see outlook.py: the chance to win, at three or more players
blended with the finishing order), the chance to win that play leads to, and, for each
choice open, the chance that best play after it ends the turn with a tile, or with a
steal.
`format_hint(hint)` writes it as a few short lines through the `ai.hint.*` strings,
chances as rough odds ("about a 3 in 4 chance") rather than figures.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from bot.games.pickomino.ai.outlook import STEALS, stolen_before_next_turn, stolen_in_turns
from bot.games.pickomino.ai.policy import ActionValue, Evaluation, Move, evaluate_game
from bot.games.pickomino.ai.position import Position, taken_by_the_next_player
from bot.games.pickomino.ai.solver import TurnValues
from bot.games.pickomino.ai.states import MAX_TOTAL, TurnState
from bot.games.pickomino.engine.claims import ClaimOption, Source
from bot.games.pickomino.engine.dice import Face
from bot.games.pickomino.engine.game import Game, Phase
from bot.i18n import t

# Chances are told as the nearest of these rough odds; "certain" from SURE on, and
# "no chance" below 1 - SURE.
ROUGH_ODDS = tuple(
    Fraction(n, m)
    for n, m in (
        (1, 20), (1, 10), (1, 6), (1, 5), (1, 4), (1, 3), (2, 5), (1, 2),
        (3, 5), (2, 3), (3, 4), (4, 5), (5, 6), (9, 10), (19, 20),
    )
)  # fmt: skip
SURE = 0.995
MENTION_STEAL = 0.05  # a steal's chance is told from this chance on
MENTION_EXPOSED = 0.1  # a stop's tile being stolen before the next turn, told from this on


@dataclass(frozen=True, slots=True)
class KeepHint:
    """Keeping every die of one face from the table, then playing as Hard."""

    face: Face
    count: int
    total: int  # the sum of the kept dice after keeping
    value: float  # Hard's value of the turn's end (outlook.py's Standing.value)
    tile_chance: float  # chance of ending the turn with a tile
    steal_chance: float  # chance of ending it with a stolen tile
    claim: ClaimOption | None  # the tile taken right after, when best play stops there
    fails: bool  # keeping it ends the turn with no tile


@dataclass(frozen=True, slots=True)
class RollHint:
    """Rolling the dice left, then playing as Hard."""

    dice: int
    value: float
    tile_chance: float
    steal_chance: float


@dataclass(frozen=True, slots=True)
class Hint:
    """What each choice open to the player to move is worth this turn.

    Values are what Hard plays for (outlook.py). `keeps` are
    filled when dice are on the table, best first; `roll` when rolling is possible;
    `stop` is the best claim when stopping is possible, and `claims` all of them.
    """

    player: str
    kept: tuple[Face, ...]
    total: int
    dice_left: int
    win_chance: float  # the estimated chance to win the game with Hard's play from here
    recommended: ActionValue
    keeps: tuple[KeepHint, ...] = ()
    roll: RollHint | None = None
    stop: ClaimOption | None = None
    claims: tuple[ClaimOption, ...] = ()
    # With three or more players: the chance that `stop`'s tile is stolen from the top
    # of the player's stack before their next turn (what Hard weighs, outlook.py).
    stop_stolen: float = 0.0


def hint_for(game: Game) -> Hint:
    """The hint for the player to move; raises ValueError when the game is over."""
    evaluation = evaluate_game(game)
    values, state = evaluation.values, evaluation.state
    steals = steal_totals(evaluation.position)
    keeps = []
    for action in evaluation.keep_options():
        assert action.face is not None
        after = state.keep(action.face, action.count)
        keeps.append(
            KeepHint(
                face=action.face,
                count=action.count,
                total=after.total,
                value=action.value,
                tile_chance=values.reward_chance(after),
                steal_chance=values.reward_chance(after, steals),
                claim=action.claim,
                fails=action.move is Move.KEEP_STOP and action.claim is None,
            )
        )
    roll = _roll_hint(game, evaluation, steals)
    stops = [action.claim for action in evaluation.actions if action.move is Move.STOP]
    stop = stops[0] if stops else None
    stolen = 0.0 if stop is None else _stolen(evaluation.position, stop, len(game.players) - 1)
    return Hint(
        player=game.current_player,
        kept=tuple(game.kept),
        total=game.kept_total,
        dice_left=game.dice_left,
        win_chance=win_chance(evaluation),
        recommended=evaluation.best,
        keeps=tuple(keeps),
        roll=roll,
        stop=stop,
        claims=tuple(game.claim_options()),
        stop_stolen=stolen,
    )


def _stolen(position: Position, stop: ClaimOption, opponents: int) -> float:
    """The chance that `stop`'s tile is stolen before the mover's next turn, as Hard
    sees it: the next player's turn worked out where Hard looks ahead to it, the
    measured steal rates for the players after (and for all, where it does not)."""
    by_the_next = taken_by_the_next_player(position, stop)
    if by_the_next is None:
        return stolen_before_next_turn(stop.tile, opponents, STEALS)
    by_the_others = stolen_in_turns(stop.tile, opponents - 1, STEALS)
    return by_the_next + (1.0 - by_the_next) * by_the_others


def win_chance(evaluation: Evaluation) -> float:
    """The chance to win Hard's play from here leads to: its value with two players;
    with more, the chance to win of each end Hard's play may reach, followed through
    the turn (the value blends it with the finishing order)."""
    wins = evaluation.position.win_ends()
    if wins is None:
        return evaluation.value
    best, state, values = evaluation.best, evaluation.state, evaluation.values
    if best.face is not None:
        state = state.keep(best.face, best.count)
    if best.move in (Move.ROLL, Move.KEEP_ROLL):
        rolled = values.roll_expected(state, wins.rewards, wins.fail)
        assert rolled is not None  # the best play rolls, so the turn goes on
        return rolled
    return wins.by_end[best.claim]  # a stop: its claim, or None (a keep that fails)


def steal_totals(position: Position) -> frozenset[int]:
    """The sums whose best claim is a steal."""
    stolen = set()
    for total in range(MAX_TOTAL + 1):
        claim = position.best_claim(total, has_worm=True)
        if claim is not None and claim.source is Source.STEAL:
            stolen.add(total)
    return frozenset(stolen)


def _roll_hint(game: Game, evaluation: Evaluation, steals: frozenset[int]) -> RollHint | None:
    values: TurnValues = evaluation.values
    state: TurnState = evaluation.state
    roll_value = values.roll_value(state)
    if game.phase is not Phase.ROLL or roll_value is None:
        return None
    chance = values.roll_reward_chance(state)
    steal = values.roll_reward_chance(state, steals)
    assert chance is not None and steal is not None
    return RollHint(game.dice_left, roll_value, chance, steal)


def format_hint(hint: Hint, names: Mapping[str, str] | None = None) -> str:
    """The hint as a few short lines for a phone; `names` shows victims by name."""
    names = names or {}
    lines = [t("pickomino.ai.hint.best", advice=_advice(hint, names))]
    for keep in hint.keeps[1:] if hint.recommended.face is not None else hint.keeps:
        lines.append(_keep_line(keep, names))
    if hint.roll is not None:
        chance = odds(hint.roll.tile_chance)
        lines.append(t("pickomino.ai.hint.roll", dice=_dice(hint.roll.dice), odds=chance))
    if hint.stop is not None:
        lines.append(t("pickomino.ai.hint.stop", claim=_claim(hint.stop, names)))
        lines += exposed_line(hint.stop.tile, hint.stop_stolen)
    lines.append(t("pickomino.ai.hint.win", odds=odds(hint.win_chance)))
    return "\n".join(lines)


def _advice(hint: Hint, names: Mapping[str, str]) -> str:
    """The recommended action and why, in one sentence."""
    action = hint.recommended
    if action.move is Move.ROLL:
        assert hint.roll is not None
        why = _chances(hint.roll.tile_chance, hint.roll.steal_chance)
        return t("pickomino.ai.hint.do.roll", dice=_dice(hint.dice_left), why=why)
    if action.move is Move.STOP:
        assert action.claim is not None
        claim = _claim(action.claim, names)
        if hint.roll is None:
            return t("pickomino.ai.hint.do.stop", claim=claim)
        return t("pickomino.ai.hint.do.stop_rather", claim=claim, odds=odds(hint.roll.tile_chance))
    keep = next(keep for keep in hint.keeps if keep.face is action.face)
    dice = _dice_kept(keep.face, keep.count)
    if action.move is Move.KEEP_ROLL:
        why = _chances(keep.tile_chance, keep.steal_chance)
        return t("pickomino.ai.hint.do.keep_roll", dice=dice, why=why)
    if action.claim is None:
        return t("pickomino.ai.hint.do.keep_fail", dice=dice)
    return t("pickomino.ai.hint.do.keep_stop", dice=dice, claim=_claim(action.claim, names))


def exposed_line(tile: int, stolen: float) -> list[str]:
    """The line telling how likely a stop's tile is stolen before the next turn, when
    that is worth telling (Hard may roll on rather than take an easy prey)."""
    if stolen < MENTION_EXPOSED:
        return []
    return [t("pickomino.ai.hint.exposed", tile=tile, odds=odds(stolen))]


def _chances(tile: float, steal: float) -> str:
    if steal >= MENTION_STEAL:
        return t("pickomino.ai.hint.why.tile_steal", odds=odds(tile), steal=odds(steal))
    return t("pickomino.ai.hint.why.tile", odds=odds(tile))


def _keep_line(keep: KeepHint, names: Mapping[str, str]) -> str:
    dice = _dice_kept(keep.face, keep.count)
    if keep.fails:
        return t("pickomino.ai.hint.keep_fail", dice=dice, total=keep.total)
    if keep.claim is not None:
        claim = _claim(keep.claim, names)
        return t("pickomino.ai.hint.keep_stop", dice=dice, total=keep.total, claim=claim)
    return t("pickomino.ai.hint.keep", dice=dice, total=keep.total, odds=odds(keep.tile_chance))


def odds(chance: float) -> str:
    """A chance in plain words: "about a 3 in 4", "certain", "no"."""
    if chance >= SURE:
        return t("pickomino.ai.odds.sure")
    if chance < 1 - SURE:
        return t("pickomino.ai.odds.none")
    rough = min(ROUGH_ODDS, key=lambda odds: abs(odds - Fraction(chance)))
    return t("pickomino.ai.odds.about", n=rough.numerator, m=rough.denominator)


def _dice_kept(face: Face, count: int) -> str:
    """`the worm`, `the three 5s`: a key per face, as some languages name each face
    (Polish `piątki`), with the plural form of `count`."""
    face_key = "worm" if face is Face.WORM else str(int(face))
    return t(f"pickomino.ai.hint.kept.{face_key}", count=count, number=_number(count))


def _number(count: int) -> str:
    return t("pickomino.ai.number.words").split(",")[count]


def _dice(count: int) -> str:
    return t("pickomino.ai.hint.dice", count=count)


def _claim(claim: ClaimOption, names: Mapping[str, str]) -> str:
    if claim.source is Source.STEAL:
        victim = names.get(claim.victim or "", claim.victim)
        return t("pickomino.ai.hint.claim.steal", tile=claim.tile, victim=victim, worms=claim.worms)
    return t("pickomino.ai.hint.claim.grill", tile=claim.tile, worms=claim.worms)
