"""Hints in an Extrawurm game: what Hard would do and why, the expansion's choices too.

As hints.py for the base game, plus the Weasel (roll the dice on the table again, or
keep; after a roll with no new face, roll again or take the failure), the specialist a
tile brings or the Hen a steal takes, the Raven's Bratwurm and the Bratwurm for two or
more 1s. Strings are the `ai.extrawurm.*` keys (catalog area `ai_extrawurm`) and the
base hint's `ai.hint.*`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.games.pickomino.ai.extrawurm import (
    FAILURE,
    ExtrawurmEvaluation,
    evaluate_extrawurm,
    stolen_after,
)
from bot.games.pickomino.ai.hints import _chances, _dice, _dice_kept, exposed_line, odds
from bot.games.pickomino.ai.policy import ActionValue, Move
from bot.games.pickomino.ai.position import Objective
from bot.games.pickomino.engine.claims import ClaimOption, Source
from bot.games.pickomino.engine.dice import Face
from bot.games.pickomino.engine.game import Game, Phase
from bot.games.pickomino.engine.specialists import Specialist
from bot.i18n import t


@dataclass(frozen=True, slots=True)
class ChoiceHint:
    """One choice open (a keep, a roll, the Weasel) and where best play after leads."""

    action: ActionValue
    total: int = 0  # the kept sum after a keep
    tile_chance: float = 0.0  # chance of ending the turn with a tile
    steal_chance: float = 0.0  # chance of ending it with a steal (the Hen's included)
    bratwurm: bool = False  # a keep of two or more 1s, with a Bratwurm in the supply


@dataclass(frozen=True, slots=True)
class ExtrawurmHint:
    """Hard's choice and every choice open, valued as Hard plays (outlook.py), and the
    chance to win Hard's play leads to."""

    player: str
    win_chance: float
    recommended: ChoiceHint
    keeps: tuple[ChoiceHint, ...] = ()  # best first
    roll: ChoiceHint | None = None
    weasel: ChoiceHint | None = None
    stop: ClaimOption | None = None  # the best claim when stopping is open
    no_new_face: bool = False  # the roll shows no new face: the Weasel or the failure
    dice_left: int = 0
    specialists_on: tuple[tuple[int, Specialist], ...] = ()  # grill tile, who sits there
    hen_holder: str | None = None  # a steal from them takes the Hen, not the tile
    stop_stolen: float = 0.0  # `stop`'s tile stolen before the next turn (3+ players)


def extrawurm_hint_for(game: Game) -> ExtrawurmHint:
    """The hint for the player to move in an Extrawurm game (ValueError once it is over)."""
    evaluation = evaluate_extrawurm(game, Objective.WIN)
    steals = _steal_totals(game, evaluation)
    choices = {}
    keeps = []
    for action in evaluation.keep_options():
        choice = _keep_choice(game, evaluation, action, steals)
        keeps.append(choice)
        choices[action.move, action.face] = choice
    roll = weasel = None
    for action in evaluation.actions:
        if action.move is Move.ROLL:
            roll = _roll_choice(evaluation, action, steals, weasel=evaluation.weasel)
        elif action.move is Move.WEASEL:
            weasel = _roll_choice(evaluation, action, steals, weasel=False)
    best = evaluation.best
    if best.move is Move.ROLL:
        recommended = roll
    elif best.move is Move.WEASEL:
        recommended = weasel
    elif best.face is not None:
        recommended = choices[best.move, best.face]  # the keep options hold every keep
    else:
        recommended = ChoiceHint(best)
    assert recommended is not None
    stops = [action.claim for action in evaluation.actions if action.move is Move.STOP]
    stop = stops[0] if stops else None
    return ExtrawurmHint(
        player=game.current_player,
        win_chance=win_chance(evaluation),
        recommended=recommended,
        keeps=tuple(keeps),
        roll=roll,
        weasel=weasel,
        stop=stop,
        no_new_face=game.phase is Phase.NO_NEW_FACE,
        dice_left=game.dice_left,
        specialists_on=_specialists_on(game),
        hen_holder=_hen_holder(game),
        stop_stolen=0.0 if stop is None else stolen_after(game, stop),
    )


def win_chance(evaluation: ExtrawurmEvaluation) -> float:
    """The chance to win Hard's play from here leads to: its value with two players;
    with more, the chance to win of each end Hard's play may reach, followed through
    the turn (the value blends it with the finishing order)."""
    table = evaluation.table
    if table.wins is None or table.win_ends is None:
        return evaluation.value
    best, state, values, weasel = (
        evaluation.best,
        evaluation.state,
        evaluation.values,
        evaluation.weasel,
    )
    # A keep of two or more 1s gains a Bratwurm from the supply (0 when it is empty).
    ones = table.win_ends.bonus if best.face is Face.ONE and best.count > 1 else 0.0
    if best.move is Move.ACCEPT_FAILURE or (best.move is Move.KEEP_STOP and best.claim is None):
        return table.wins[FAILURE] + ones
    if best.claim is not None:  # a stop, now or after a keep
        return table.wins[best.claim] + ones
    if best.move is Move.WEASEL:
        weasel = False  # the same dice rolled again, the Weasel used
    elif best.face is not None:
        state = state.keep(best.face, best.count)
    rolled = values.roll_expected(state, weasel, table.win_ends)
    assert rolled is not None  # the best play rolls, so the turn goes on
    return rolled + ones


def _specialists_on(game: Game) -> tuple[tuple[int, Specialist], ...]:
    assert game.expansion is not None
    return tuple(
        (place, specialist)
        for specialist, place in game.expansion.specialists.items()
        if type(place) is int
    )


def _hen_holder(game: Game) -> str | None:
    assert game.expansion is not None
    place = game.expansion.specialists.get(Specialist.HEN)
    return place if isinstance(place, str) else None


def _steal_totals(game: Game, evaluation: ExtrawurmEvaluation) -> frozenset[int]:
    """The claim totals whose best claim is a steal (of a tile, or of the Hen)."""
    return frozenset(
        total
        for total, claim in enumerate(evaluation.table.best)
        if claim is not None and claim.source is Source.STEAL
    )


def _keep_choice(
    game: Game, evaluation: ExtrawurmEvaluation, action: ActionValue, steals: frozenset[int]
) -> ChoiceHint:
    assert action.face is not None
    after = evaluation.state.keep(action.face, action.count)
    values, weasel = evaluation.values, evaluation.weasel
    bratwurm = (
        action.face is Face.ONE
        and action.count > 1
        and game.expansion is not None
        and game.expansion.supply > 0
    )
    return ChoiceHint(
        action,
        total=after.total,
        tile_chance=values.reward_chance(after, weasel),
        steal_chance=values.reward_chance(after, weasel, steals),
        bratwurm=bratwurm,
    )


def _roll_choice(
    evaluation: ExtrawurmEvaluation, action: ActionValue, steals: frozenset[int], weasel: bool
) -> ChoiceHint:
    values, state = evaluation.values, evaluation.state
    chance = values.roll_reward_chance(state, weasel)
    steal = values.roll_reward_chance(state, weasel, steals)
    assert chance is not None and steal is not None
    return ChoiceHint(action, tile_chance=chance, steal_chance=steal)


# ------------------------------------------------------------------ in words


def format_extrawurm_hint(hint: ExtrawurmHint, names: Mapping[str, str] | None = None) -> str:
    """The hint as a few short lines for a phone; `names` shows victims by name."""
    names = names or {}
    lines = [t("pickomino.ai.hint.best", advice=_advice(hint, names))]
    best = hint.recommended.action
    for keep in hint.keeps:
        if keep.action.face is not best.face:
            lines.append(_keep_line(keep, names, hint))
    if hint.weasel is not None and best.move is not Move.WEASEL:
        dice = _dice(hint.weasel.action.count)
        lines.append(
            t("pickomino.ai.extrawurm.weasel", dice=dice, odds=odds(hint.weasel.tile_chance))
        )
    if hint.no_new_face and best.move is not Move.ACCEPT_FAILURE:
        lines.append(t("pickomino.ai.extrawurm.accept_failure"))
    if hint.roll is not None and best.move is not Move.ROLL:
        lines.append(
            t(
                "pickomino.ai.hint.roll",
                dice=_dice(hint.dice_left),
                odds=odds(hint.roll.tile_chance),
            )
        )
    if hint.stop is not None and best.move is not Move.STOP:
        lines.append(t("pickomino.ai.hint.stop", claim=claim_words(hint.stop, names, hint)))
    if hint.stop is not None:
        lines += exposed_line(hint.stop.tile, hint.stop_stolen)
    lines.append(t("pickomino.ai.hint.win", odds=odds(hint.win_chance)))
    return "\n".join(lines)


def _advice(hint: ExtrawurmHint, names: Mapping[str, str]) -> str:
    choice = hint.recommended
    action = choice.action
    if action.move is Move.WEASEL:
        dice = _dice(action.count)
        if hint.no_new_face:
            return t(
                "pickomino.ai.extrawurm.do.weasel_rescue", dice=dice, odds=odds(choice.tile_chance)
            )
        return t(
            "pickomino.ai.extrawurm.do.weasel",
            dice=dice,
            why=_chances(choice.tile_chance, choice.steal_chance),
        )
    if action.move is Move.ACCEPT_FAILURE:
        return t("pickomino.ai.extrawurm.do.accept_failure")
    if action.move is Move.ROLL:
        return t(
            "pickomino.ai.hint.do.roll",
            dice=_dice(hint.dice_left),
            why=_chances(choice.tile_chance, choice.steal_chance),
        )
    if action.move is Move.STOP:
        assert action.claim is not None
        claim = claim_words(action.claim, names, hint)
        if hint.roll is None:
            return t("pickomino.ai.hint.do.stop", claim=claim)
        return t("pickomino.ai.hint.do.stop_rather", claim=claim, odds=odds(hint.roll.tile_chance))
    dice = _kept_words(choice)
    if action.move is Move.KEEP_ROLL:
        return t(
            "pickomino.ai.hint.do.keep_roll",
            dice=dice,
            why=_chances(choice.tile_chance, choice.steal_chance),
        )
    if action.claim is None:
        return t("pickomino.ai.hint.do.keep_fail", dice=dice)
    return t(
        "pickomino.ai.hint.do.keep_stop", dice=dice, claim=claim_words(action.claim, names, hint)
    )


def _keep_line(keep: ChoiceHint, names: Mapping[str, str], hint: ExtrawurmHint) -> str:
    dice, action = _kept_words(keep), keep.action
    if action.move is Move.KEEP_STOP and action.claim is None:
        return t("pickomino.ai.hint.keep_fail", dice=dice, total=keep.total)
    if action.move is Move.KEEP_STOP:
        assert action.claim is not None
        claim = claim_words(action.claim, names, hint)
        return t("pickomino.ai.hint.keep_stop", dice=dice, total=keep.total, claim=claim)
    return t("pickomino.ai.hint.keep", dice=dice, total=keep.total, odds=odds(keep.tile_chance))


def _kept_words(choice: ChoiceHint) -> str:
    assert choice.action.face is not None
    dice = _dice_kept(choice.action.face, choice.action.count)
    return t("pickomino.ai.extrawurm.with_bratwurm", dice=dice) if choice.bratwurm else dice


def claim_words(claim: ClaimOption, names: Mapping[str, str], hint: ExtrawurmHint) -> str:
    """A claim in words, with what it brings in Extrawurm: the specialist on the tile,
    the Raven's Bratwurm, or the Hen a steal takes instead of the tile."""
    if claim.source is Source.STEAL:
        victim = names.get(claim.victim or "", claim.victim)
        if claim.victim == hint.hen_holder:
            return t("pickomino.ai.extrawurm.claim.hen", victim=victim, tile=claim.tile)
        return t("pickomino.ai.hint.claim.steal", tile=claim.tile, victim=victim, worms=claim.worms)
    words = t("pickomino.ai.hint.claim.grill", tile=claim.tile, worms=claim.worms)
    specialist = dict(hint.specialists_on).get(claim.tile)
    if specialist is Specialist.RAVEN:
        return t("pickomino.ai.extrawurm.claim.raven", claim=words)
    if specialist is not None:
        name = t(f"pickomino.ai.extrawurm.specialist.{specialist.value}")
        return t("pickomino.ai.extrawurm.claim.specialist", claim=words, specialist=name)
    return words
