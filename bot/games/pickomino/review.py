"""A finished Pickomino game reviewed (bot.plugin.review): every decision judged by
Hard's evaluation, the exact turn solver valuing each end by outlook.py's chance to win
(policy.evaluate_game; Extrawurm: extrawurm.evaluate_extrawurm).

The game is replayed from its start: the stored events become the actions that made them
(a roll's dice, a keep's face, a claim's tile; a failure or a claim the timer made, a
leave, an abandonment), each applied to the engine, whose own events are skipped over.
A decision is a choice among at least two options: which face to keep (then valued with
best play after), roll or stop (and which tile), the Weasel or the failure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.pickomino.ai.extrawurm import evaluate_extrawurm, turn_table
from bot.games.pickomino.ai.memo import private_memos
from bot.games.pickomino.ai.policy import ActionValue, Move, RankedActions, evaluate_game
from bot.games.pickomino.ai.position import Objective, Position
from bot.games.pickomino.engine import (
    AcceptFailure,
    Action,
    Claim,
    ClaimOption,
    Event,
    Failed,
    Game,
    Keep,
    Phase,
    Roll,
    Rules,
    Source,
)
from bot.games.pickomino.engine.actions import Weasel
from bot.games.pickomino.engine.errors import PickominoError
from bot.games.pickomino.engine.events import (
    FailReason,
    HenStolen,
    Kept,
    NinthDie,
    PlayerLeft,
    Rolled,
    Stole,
    Took,
    WeaselRolled,
    event_from_dict,
)
from bot.games.pickomino.learn.script import new_game as practice_game
from bot.games.pickomino.render.review import choice_words, decision_text
from bot.plugin.review import (
    CostlyDecision,
    GameReview,
    PlayerReview,
    ReviewFailed,
    ReviewSetup,
)
from bot.render.names import Namer
from bot.sessions.adapter import GameEvent

# A stored event that starts an action; every other one is caused by the action before.
_STARTS = (Rolled, WeaselRolled, Kept, Took, Stole, HenStolen, Failed, PlayerLeft)


def evaluation_of(game: Game) -> RankedActions:
    """Hard's values of every action open to the player to move."""
    if game.expansion is not None:
        return evaluate_extrawurm(game, Objective.WIN)
    return evaluate_game(game, Objective.WIN)


def failure_value(game: Game) -> float:
    """What a failure of the turn in progress is worth to its player, as Hard values it."""
    if game.expansion is not None:
        return turn_table(game, Objective.WIN).rewards.fail
    return Position.from_game(game, Objective.WIN).fail_value


def first_player(events: Sequence[Event]) -> str | None:
    """Who moved first: the player of the first event that starts an action."""
    for event in events:
        if isinstance(event, _STARTS) and not isinstance(event, PlayerLeft):
            return event.player
    return None


class PickominoReviewer:
    """Pickomino's `bot.plugin.review.Reviewer`."""

    def review(self, setup: ReviewSetup, events: Sequence[GameEvent]) -> GameReview:
        try:
            typed = [event_from_dict(dict(event)) for event in events]
            with private_memos():  # its tables are no game in progress's (ai/memo.py)
                return _Replay(_start(setup, typed), typed).run()
        except (PickominoError, KeyError, ValueError, TypeError, AssertionError) as error:
            raise ReviewFailed(str(error)) from error

    def draw_decision(self, decision: CostlyDecision, name_of: Namer) -> str:
        return decision_text(decision, name_of)

    def choice_words(self, decision: CostlyDecision, name_of: Namer) -> tuple[str, str]:
        position = decision.position
        return choice_words(position["did"], name_of), choice_words(position["best"], name_of)


def _start(setup: ReviewSetup, events: Sequence[Event]) -> Game:
    """The game as it began: the practice game's position, or a fresh game whose first
    player is whoever moved first."""
    players = list(setup.players)
    if setup.practice:
        return practice_game(players)
    first = first_player(events)
    if first is None or first not in players:
        raise ReviewFailed("no move of a seated player")
    return Game(players, Rules.from_dict(dict(setup.options)), first=players.index(first))


class _Replay:
    def __init__(self, game: Game, events: list[Event]) -> None:
        self.game = game
        self.events = events
        self.reviews = {player: PlayerReview(player) for player in game.players}

    def run(self) -> GameReview:
        index = 0
        while index < len(self.events) and not self.game.is_over:
            event = self.events[index]
            if isinstance(event, NinthDie) and index + 1 < len(self.events):
                event = self.events[index + 1]  # the Golden Die's roll: told before it
            if not isinstance(event, _STARTS):
                raise ReviewFailed(f"unexpected {type(event).__name__} at {index}")
            index += len(self._step(event))
        # With three or more players Hard plays for its place too (ai/outlook.py).
        places = len(self.reviews) > 2
        return GameReview(tuple(self.reviews.values()), places=places)

    def _step(self, event: Event) -> list[Event]:
        game = self.game
        if isinstance(event, PlayerLeft):
            return game.remove_player(event.player)
        if getattr(event, "player", None) != game.current_player:
            raise ReviewFailed(f"{event} is not by the player to move")
        action = self._action(event)
        if action is None:  # the turn timer ended the turn: nobody's choice
            return game.end_turn_on_timeout()
        before = game.copy()
        evaluation = evaluation_of(before)
        caused = game.apply(action)
        self._judge(before, evaluation, action)
        if isinstance(action, Roll | Weasel):
            self._luck(before, evaluation, action, caused)
        return caused

    def _action(self, event: Event) -> Action | None:
        game = self.game
        if isinstance(event, Rolled):
            return Roll(event.dice)
        if isinstance(event, WeaselRolled):
            return Weasel(event.dice)
        if isinstance(event, Kept):
            return Keep(event.face)
        if isinstance(event, Failed):
            if event.reason is FailReason.NO_NEW_FACE and game.phase is Phase.NO_NEW_FACE:
                return AcceptFailure()
            return None
        option = _claimed(event)
        if option in game.claim_options():
            return Claim(option)
        return None

    def _judge(self, before: Game, evaluation: RankedActions, action: Action) -> None:
        choices = _choices(evaluation)
        if len(choices) < 2:
            return
        chosen = choices.get(_choice_key(action))
        if chosen is None:
            return  # not an option the evaluation values (cannot happen in a legal game)
        best = evaluation.best
        position = {
            **_position(before),
            "did": _did(action, chosen),
            "best": _choice(best),
        }
        review = self.reviews[before.current_player]
        review.judge(evaluation.value, chosen.value, before.turn_number, position)

    def _luck(
        self, before: Game, evaluation: RankedActions, action: Action, caused: list[Event]
    ) -> None:
        move = Move.ROLL if isinstance(action, Roll) else Move.WEASEL
        rolling = next((a.value for a in evaluation.actions if a.move is move), None)
        if rolling is None:
            return
        game = self.game
        if any(isinstance(event, Failed) for event in caused):
            after = failure_value(before)
        elif game.current_player == before.current_player and game.phase in (
            Phase.KEEP,
            Phase.NO_NEW_FACE,
        ):
            after = evaluation_of(game).value
        else:
            return
        review = self.reviews[before.current_player]
        review.luck += after - rolling
        review.rolls += 1


ChoiceKey = tuple[str, Any]


def _choices(evaluation: RankedActions) -> dict[ChoiceKey, ActionValue]:
    """The best action for each choice the player has (a face kept counts once)."""
    choices: dict[ChoiceKey, ActionValue] = {}
    for action in evaluation.actions:  # best first: the first of each key is its value
        choices.setdefault(_key(action), action)
    return choices


def _key(action: ActionValue) -> ChoiceKey:
    if action.face is not None:
        return ("keep", action.face)
    if action.move is Move.STOP:
        return ("stop", action.claim)
    return (action.move.value, None)


def _choice_key(action: Action) -> ChoiceKey:
    if isinstance(action, Keep):
        return ("keep", action.face)
    if isinstance(action, Claim):
        return ("stop", action.option)
    if isinstance(action, Roll):
        return (Move.ROLL.value, None)
    if isinstance(action, Weasel):
        return (Move.WEASEL.value, None)
    return (Move.ACCEPT_FAILURE.value, None)


def _claimed(event: Event) -> ClaimOption | None:
    if isinstance(event, Took):
        return ClaimOption.grill(event.tile)
    if isinstance(event, Stole | HenStolen):
        return ClaimOption.steal(event.tile, event.victim)
    return None


def _position(game: Game) -> dict[str, Any]:
    """The position a decision was made in, as the drawing needs it (JSON)."""
    return {
        "phase": game.phase.value,
        "roll": "".join(face.symbol for face in game.roll or ()),
        "kept": "".join(face.symbol for face in game.kept),
        "grill": list(game.grill),
        "tops": [
            [player, stack[-1]]
            for player in game.players
            if (stack := game.stacks[player]) and player != game.current_player
        ],
        "own": game.top_tile(game.current_player),
    }


def _claim_dict(option: ClaimOption | None) -> dict[str, Any]:
    if option is None:
        return {}
    if option.source is Source.STEAL:
        return {"tile": option.tile, "victim": option.victim}
    return {"tile": option.tile}


def _choice(action: ActionValue) -> dict[str, Any]:
    """An evaluated action as the drawing words it; a keep says what best play does next."""
    if action.face is not None:
        then = "roll" if action.move is Move.KEEP_ROLL else "stop"
        if action.move is Move.KEEP_STOP and action.claim is None:
            then = "fail"
        choice = {"move": "keep", "face": action.face.symbol, "count": action.count}
        return {**choice, "then": then, **_claim_dict(action.claim)}
    if action.move is Move.STOP:
        return {"move": "stop", **_claim_dict(action.claim)}
    return {"move": action.move.value}


def _did(action: Action, valued: ActionValue) -> dict[str, Any]:
    """What the player did: only the choice itself (what they did next is judged next)."""
    if isinstance(action, Keep):
        return {"move": "keep", "face": action.face.symbol, "count": valued.count}
    if isinstance(action, Claim):
        return {"move": "stop", **_claim_dict(action.option)}
    return {"move": valued.move.value}
