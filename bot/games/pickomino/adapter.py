"""Pickomino behind the session layer's GameAdapter protocol, and its move strings.

Moves: "roll", "keep:<face>" (1-5 or w), "claim:g<tile>" (from the grill) and
"claim:s<tile>.<victim id>" (a steal). They are what the buttons carry.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.pickomino.ai import (
    Level,
    RollDice,
    WeaselDice,
    bot_name,
    decide,
    format_hint,
    hint_for,
)
from bot.games.pickomino.ai.extrawurm_hints import extrawurm_hint_for, format_extrawurm_hint
from bot.games.pickomino.engine import (
    AcceptFailure,
    Claim,
    ClaimOption,
    Face,
    FirstPlayer,
    Game,
    IllegalAction,
    Keep,
    Rules,
    Source,
)
from bot.games.pickomino.engine.claims import best_claim
from bot.games.pickomino.engine.events import Event, event_to_dict
from bot.games.pickomino.engine.game import MAX_PLAYERS, MIN_PLAYERS
from bot.games.pickomino.engine.serialization import game_from_dict, game_to_dict
from bot.i18n import t
from bot.sessions.adapter import NO_COMPUTERS, EngineAdapter, GameEvent, IllegalMove

log = logging.getLogger(__name__)

KIND = "pickomino"
ROLL = "roll"
WEASEL = "weasel"  # Extrawurm: the Weasel's holder rolls the dice on the table again
ACCEPT_FAILURE = "accept"  # Extrawurm: take a roll with no new face as it is


def keep_move(face: Face) -> str:
    return f"keep:{face.symbol.lower()}"


def claim_move(option: ClaimOption) -> str:
    if option.source is Source.STEAL:
        return f"claim:s{option.tile}.{option.victim}"
    return f"claim:g{option.tile}"


def parse_move(move: str) -> Any:
    """The engine action a move string asks for (None for a roll, whose dice come later)."""
    kind, _, arg = move.partition(":")
    try:
        if kind == ROLL and not arg:
            return None
        if kind == ACCEPT_FAILURE and not arg:
            return AcceptFailure()
        if kind == "keep":
            return Keep(Face.parse(arg))
        if kind == "claim" and arg[:1] == "g":
            return Claim(ClaimOption.grill(int(arg[1:])))
        if kind == "claim" and arg[:1] == "s":
            tile, _, victim = arg[1:].partition(".")
            if victim:
                return Claim(ClaimOption.steal(int(tile), victim))
    except ValueError:
        pass
    raise IllegalMove()


class PickominoAdapter(EngineAdapter[Game]):
    kind = KIND
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    bot_levels = tuple(level.value for level in Level)

    def event_to_dict(self, event: Event) -> GameEvent:
        return event_to_dict(event)

    def new_game(self, players: Sequence[str], options: Mapping[str, Any], rng: Any) -> Game:
        rules = Rules.from_dict(dict(options))
        first = 0 if rules.first_player is FirstPlayer.HOST else rng.randrange(len(players))
        return Game(players, rules, first=first)

    def dump(self, game: Game) -> dict[str, Any]:
        return game_to_dict(game)

    def load(self, data: dict[str, Any]) -> Game:
        return game_from_dict(data)

    def turn_key(self, game: Game) -> str:
        return f"{game.turn_number}:{game.current_player if game.players else ''}"

    def play(self, game: Game, player: str, move: str, rng: Any) -> list[GameEvent]:
        if game.is_over or game.current_player != player:
            raise IllegalMove()
        try:
            if move == WEASEL:
                events = game.weasel_with(rng)
            else:
                action = parse_move(move)
                events = game.roll_with(rng) if action is None else game.apply(action)
        except IllegalAction as error:
            raise IllegalMove(error.key, **error.params) from None
        return [event_to_dict(event) for event in events]

    def timeout(self, game: Game, rng: Any) -> list[GameEvent]:
        return [event_to_dict(event) for event in game.end_turn_on_timeout()]

    def bot_name(self, level: str, index: int) -> str:
        """`Pip (Easy)`: the AI's name for the seat, with the level as the lobby's button
        says it (messages add the 🤖, so a computer player is named once)."""
        name = bot_name(Level(level), index)
        suffix = t("pickomino.ai.bot.name", name="", level=t(f"pickomino.ai.level.{level}"))
        plain = name.removesuffix(suffix) if suffix.strip() and name.endswith(suffix) else name
        return t("bot.name", name=plain, level=t(f"lobby.bot_level.{level}"))

    def bot_move(self, game: Game, level: str, computers: Mapping[str, str] = NO_COMPUTERS) -> str:
        # `computers` is not read: Hard plays every opponent for the win as it finds it.
        decision = decide(game, Level(level or Level.NORMAL))
        legal = game.legal_actions()
        if isinstance(decision, RollDice) and legal.can_roll:
            return ROLL
        if isinstance(decision, WeaselDice) and legal.can_weasel:
            return WEASEL
        if isinstance(decision, AcceptFailure) and legal.can_accept_failure:
            return ACCEPT_FAILURE
        if isinstance(decision, Keep) and decision.face in legal.keepable:
            return keep_move(decision.face)
        if isinstance(decision, Claim) and decision.option in legal.claims:
            return claim_move(decision.option)
        # The players' model covers every rule, base and Extrawurm, so this is a bug
        # (tests play random games to show it is never reached): log it, keep the game going.
        log.error("pickomino bot chose %r, not legal in phase %s", decision, game.phase)
        return _safe_move(game)

    def hint(
        self,
        game: Game,
        player: str,
        names: Mapping[str, str],
        computers: Mapping[str, str] = NO_COMPUTERS,
    ) -> str:
        if game.expansion is not None:
            return format_extrawurm_hint(extrawurm_hint_for(game.copy()), names=dict(names))
        return format_hint(hint_for(game.copy()), names=dict(names))


def _safe_move(game: Game) -> str:
    """The last resort when a computer player's choice is not legal (a bug): the best
    claim, else the face worth most, else the Weasel or taking the failure, else a roll."""
    legal = game.legal_actions()
    if legal.claims:
        return claim_move(best_claim(list(legal.claims)))
    if legal.keepable:
        return keep_move(max(legal.keepable, key=lambda face: (face.points, face is Face.WORM)))
    if legal.can_weasel:
        return WEASEL
    if legal.can_accept_failure:
        return ACCEPT_FAILURE
    return ROLL
