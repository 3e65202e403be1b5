"""Hints for the player to move: what each choice is worth under optimal play.

`hint_for(game)` returns structured data (a UI may draw it any way);
`format_hint(hint)` writes it as a few short lines through the `ai.hint.*` strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.games.pickomino.ai.policy import ActionValue, Move, evaluate_game
from bot.games.pickomino.engine.claims import ClaimOption, Source
from bot.games.pickomino.engine.dice import Face
from bot.games.pickomino.engine.game import Game, Phase
from bot.i18n import t


@dataclass(frozen=True, slots=True)
class KeepHint:
    """Keeping every die of one face from the table, then playing best."""

    face: Face
    count: int
    total: int  # the sum of the kept dice after keeping
    expected_worms: float
    tile_chance: float  # chance of ending the turn with a tile
    claim: ClaimOption | None  # the tile taken right after, when best play stops there
    fails: bool  # keeping it ends the turn with no tile


@dataclass(frozen=True, slots=True)
class RollHint:
    """Rolling the dice left, then playing best."""

    dice: int
    expected_worms: float
    tile_chance: float


@dataclass(frozen=True, slots=True)
class Hint:
    """What each choice open to the player to move is worth this turn.

    Expected worms are the expected change of the player's own worm count this turn
    (a failure loses their top tile's worms). `keeps` are filled when dice are on the
    table, best first; `roll` when rolling is possible; `stop` is the best claim when
    stopping is possible, and `claims` all of them.
    """

    player: str
    kept: tuple[Face, ...]
    total: int
    dice_left: int
    expected_worms: float  # of the turn from here, with best play
    recommended: ActionValue
    keeps: tuple[KeepHint, ...] = ()
    roll: RollHint | None = None
    stop: ClaimOption | None = None
    claims: tuple[ClaimOption, ...] = ()


def hint_for(game: Game) -> Hint:
    """The hint for the player to move; raises ValueError when the game is over."""
    evaluation = evaluate_game(game)
    values, state = evaluation.values, evaluation.state
    keeps = []
    for action in evaluation.keep_options():
        assert action.face is not None
        after = state.keep(action.face, action.count)
        keeps.append(
            KeepHint(
                face=action.face,
                count=action.count,
                total=after.total,
                expected_worms=action.value,
                tile_chance=values.reward_chance(after),
                claim=action.claim,
                fails=action.move is Move.KEEP_STOP and action.claim is None,
            )
        )
    roll = None
    roll_value = values.roll_value(state)
    if game.phase is Phase.ROLL and roll_value is not None:
        roll_chance = values.roll_reward_chance(state)
        assert roll_chance is not None
        roll = RollHint(game.dice_left, roll_value, roll_chance)
    claims = tuple(game.claim_options())
    stops = [action.claim for action in evaluation.actions if action.move is Move.STOP]
    return Hint(
        player=game.current_player,
        kept=tuple(game.kept),
        total=game.kept_total,
        dice_left=game.dice_left,
        expected_worms=evaluation.value,
        recommended=evaluation.best,
        keeps=tuple(keeps),
        roll=roll,
        stop=stops[0] if stops else None,
        claims=claims,
    )


def format_hint(hint: Hint, names: Mapping[str, str] | None = None) -> str:
    """The hint as a few short lines for a phone; `names` shows victims by name."""
    names = names or {}
    lines = [t("ai.hint.best", action=_describe(hint.recommended, hint, names))]
    for keep in hint.keeps:
        lines.append(_keep_line(keep, names))
    if hint.roll is not None:
        lines.append(
            t(
                "ai.hint.roll",
                dice=_dice(hint.roll.dice),
                worms=_worms(hint.roll.expected_worms),
                chance=_percent(hint.roll.tile_chance),
            )
        )
    if hint.stop is not None:
        lines.append(t("ai.hint.stop", claim=_claim(hint.stop, names)))
    return "\n".join(lines)


def _describe(action: ActionValue, hint: Hint, names: Mapping[str, str]) -> str:
    worms = _worms(action.value)
    if action.move is Move.ROLL:
        return t("ai.hint.do.roll", dice=_dice(hint.dice_left), worms=worms)
    if action.move is Move.STOP:
        assert action.claim is not None
        return t("ai.hint.do.stop", claim=_claim(action.claim, names), worms=worms)
    assert action.face is not None
    face = _face(action.face, action.count)
    if action.move is Move.KEEP_ROLL:
        return t("ai.hint.do.keep_roll", face=face, worms=worms)
    if action.claim is None:
        return t("ai.hint.do.keep_fail", face=face, worms=worms)
    return t("ai.hint.do.keep_stop", face=face, claim=_claim(action.claim, names), worms=worms)


def _keep_line(keep: KeepHint, names: Mapping[str, str]) -> str:
    face = _face(keep.face, keep.count)
    worms = _worms(keep.expected_worms)
    if keep.fails:
        return t("ai.hint.keep_fail", face=face, total=keep.total, worms=worms)
    if keep.claim is not None:
        claim = _claim(keep.claim, names)
        return t("ai.hint.keep_stop", face=face, total=keep.total, claim=claim, worms=worms)
    chance = _percent(keep.tile_chance)
    return t("ai.hint.keep", face=face, total=keep.total, worms=worms, chance=chance)


def _face(face: Face, count: int) -> str:
    name = t("ai.face.worm") if face is Face.WORM else str(int(face))
    return t("ai.hint.face_count", count=count, face=name)


def _dice(count: int) -> str:
    return t("ai.hint.die" if count == 1 else "ai.hint.dice", count=count)


def _claim(claim: ClaimOption, names: Mapping[str, str]) -> str:
    if claim.source is Source.STEAL:
        victim = names.get(claim.victim or "", claim.victim)
        return t("ai.hint.claim.steal", tile=claim.tile, victim=victim, worms=claim.worms)
    return t("ai.hint.claim.grill", tile=claim.tile, worms=claim.worms)


def _worms(value: float) -> str:
    # "+0.00" rather than "-0.00" for a value that rounds to nothing.
    text = f"{value:+.2f}"
    return "+0.00" if text == "-0.00" else text


def _percent(chance: float) -> str:
    return f"{chance:.0%}"
