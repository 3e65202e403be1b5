"""The game state and its round state machine.

A Game is mutable, but every action is checked in full before anything changes, so
an illegal move raises IllegalMove and leaves the game exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.games.picker.engine.actions import Action, Pick, RollDice
from bot.games.picker.engine.colours import COLOUR_INDEX, COLOURS, Colour
from bot.games.picker.engine.dice import DIE_VALUES, RandomSource, all_equal, roll_dice
from bot.games.picker.engine.errors import IllegalMove, InvalidState
from bot.games.picker.engine.events import (
    AllEqual,
    BecamePicker,
    Event,
    GameOver,
    Picked,
    PlayerLeft,
    Rolled,
    RoundOver,
    Standing,
)
from bot.games.picker.engine.scoring import colour_sets
from bot.history.ranking import shared_ranks

MIN_PLAYERS = 3
MAX_PLAYERS = len(COLOURS)  # one die colour each
ROUNDS_PER_PLAYER = 2


class Phase(StrEnum):
    ROLL = "roll"  # the round's dice are to be rolled (again, after all showed one number)
    PICK = "pick"  # dice are on the table: the player to move keeps one
    OVER = "over"  # the game has ended (finished or abandoned)


# Enum member lookups cost ~100 ns; the hot paths read these module aliases.
_ROLL, _PICK, _OVER = Phase.ROLL, Phase.PICK, Phase.OVER


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What may be done now, for a UI's buttons or a computer player."""

    can_roll: bool
    colours: tuple[Colour, ...]  # the dice the player to move may keep, in colour order


class Game:
    """One game of Picker: seats, the round in progress, and everything kept so far.

    `first` is the seat that keeps first in the round being played, `picks` the colours
    kept this round in order (the i-th by seat `first + i`), `picker` the seat that kept
    the round's lowest number first (None until someone has), `kept` each seat's dice in
    round order as (colour, number).
    """

    __slots__ = (
        "abandoned",
        "computer",
        "dice",
        "first",
        "kept",
        "left",
        "lowest",
        "phase",
        "picker",
        "picks",
        "players",
        "points",
        "round",
    )

    def __init__(
        self,
        players: Sequence[str],
        *,
        first: int = 0,
        computer: Iterable[str] = (),
    ) -> None:
        """A fresh game: `players` in seat order, `players[first]` keeps first in round 1.

        `computer` names the seats computer players sit in from the start.
        """
        players = [str(player) for player in players]
        check_players(players)
        if not 0 <= first < len(players):
            raise InvalidState(f"first seat {first} is not a seat of this game")
        computer = set(computer)
        if not computer <= set(players):
            raise InvalidState("a computer player must sit in a seat of this game")
        self.players: list[str] = players
        self.computer: set[str] = computer
        self.left: set[str] = set()
        self.first: int = first
        self.round: int = 0
        self.phase: Phase = _ROLL
        self.dice: tuple[int, ...] | None = None
        self.lowest: int = 0
        self.picks: list[Colour] = []
        self.picker: int | None = None
        self.kept: dict[str, list[tuple[Colour, int]]] = {player: [] for player in players}
        self.points: dict[str, int] = dict.fromkeys(players, 0)
        self.abandoned: bool = False

    # ----------------------------------------------------------------- reading

    @property
    def dice_count(self) -> int:
        """Dice in every roll: one per seat, whoever sits in it now."""
        return len(self.players)

    @property
    def colours(self) -> tuple[Colour, ...]:
        """The colours in play, in roll order."""
        return COLOURS[: len(self.players)]

    @property
    def rounds_total(self) -> int:
        return ROUNDS_PER_PLAYER * len(self.players)

    @property
    def round_number(self) -> int:
        """The round being played, from 1 (the last one's number once the game is over)."""
        return min(self.round + 1, self.rounds_total)

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def current(self) -> int:
        """The seat to move: the one keeping next, or the round's first player to roll."""
        return (self.first + len(self.picks)) % len(self.players)

    @property
    def current_player(self) -> str:
        return self.players[(self.first + len(self.picks)) % len(self.players)]

    @property
    def first_player(self) -> str:
        """Who keeps first in the round being played (the next one between rounds)."""
        return self.players[self.first]

    def is_computer(self, player: str) -> bool:
        """True for a seat a computer plays, from the start or since its person left."""
        return player in self.computer

    @property
    def people(self) -> list[str]:
        """The seats a person still plays, in seat order."""
        return [player for player in self.players if player not in self.computer]

    def available(self) -> tuple[Colour, ...]:
        """The dice on the table nobody has kept yet this round, in colour order."""
        if self.phase is not _PICK:
            return ()
        picks = self.picks
        return tuple([colour for colour in COLOURS[: len(self.players)] if colour not in picks])

    def value_of(self, colour: Colour) -> int:
        """The number the die of `colour` shows this round (the dice must be rolled)."""
        if self.dice is None:
            raise IllegalMove("picker.illegal.roll_first")
        return self.dice[COLOUR_INDEX[colour]]

    def colours_kept(self, player: str) -> list[Colour]:
        """The colours `player` kept, in round order."""
        return [colour for colour, _ in self.kept[player]]

    def legal_actions(self) -> LegalActions:
        """Whether the dice are to be rolled, and which dice may be kept."""
        return LegalActions(can_roll=self.phase is _ROLL, colours=self.available())

    def standings(self) -> tuple[Standing, ...]:
        """Every seat by score (numbers kept plus colour bonus); equal scores share a rank."""
        rows = []
        for player in self.players:
            sets = colour_sets(self.colours_kept(player))
            bonus = sum(s.bonus for s in sets)
            points = self.points[player]
            rows.append((player, points, bonus, sets))
        rows.sort(key=lambda row: row[1] + row[2], reverse=True)  # stable: seat order on ties
        ranks = shared_ranks([points + bonus for _, points, bonus, _ in rows])
        return tuple(
            Standing(
                rank=rank,
                player=player,
                points=points,
                bonus=bonus,
                score=points + bonus,
                sets=sets,
                left=player in self.left,
            )
            for rank, (player, points, bonus, sets) in zip(ranks, rows, strict=True)
        )

    # ----------------------------------------------------------------- acting

    def apply(self, action: Action) -> list[Event]:
        """Play an action (a roll, or a keep by the player to move); return what it caused."""
        if self.phase is _OVER:
            raise IllegalMove("picker.illegal.game_over")
        kind = type(action)
        if kind is Pick:
            return self._pick(action.colour)  # type: ignore[union-attr]
        if kind is RollDice:
            return self._roll(action.values)  # type: ignore[union-attr]
        raise IllegalMove("picker.illegal.unknown_action")

    def roll_with(self, rng: RandomSource) -> list[Event]:
        """Roll the dice with an injected random source, again while all show one number."""
        if self.phase is _OVER:
            raise IllegalMove("picker.illegal.game_over")
        if self.phase is not _ROLL:
            raise IllegalMove("picker.illegal.rolled_already")
        events: list[Event] = []
        count = len(self.players)
        while self.phase is _ROLL:
            events.extend(self._put_roll(roll_dice(rng, count)))
        return events

    def remove_player(self, player: str) -> list[Event]:
        """A person leaves: their seat stays, a Normal computer player plays it from now on.

        Their result is recorded as left. With no person left the game ends as abandoned.
        """
        if self.phase is _OVER:
            raise IllegalMove("picker.illegal.game_over")
        if player not in self.kept:
            raise IllegalMove("picker.illegal.not_in_game")
        if player in self.left:
            raise IllegalMove("picker.illegal.left_already")
        self.left.add(player)
        self.computer.add(player)
        events: list[Event] = [PlayerLeft(player)]
        if not self.people:
            events.extend(self.abandon())
        return events

    def abandon(self) -> list[Event]:
        """End the game now as abandoned, with the standings of the moment."""
        if self.phase is _OVER:
            raise IllegalMove("picker.illegal.game_over")
        self.abandoned = True
        self.phase = _OVER
        return [GameOver(self.standings(), abandoned=True)]

    # ----------------------------------------------------------------- steps

    def _roll(self, values: Sequence[int]) -> list[Event]:
        if self.phase is not _ROLL:
            raise IllegalMove("picker.illegal.rolled_already")
        values = tuple(values)
        if len(values) != len(self.players):
            raise IllegalMove(
                "picker.illegal.dice_count", expected=len(self.players), count=len(values)
            )
        for value in values:
            if type(value) is not int or value not in DIE_VALUES:
                raise IllegalMove("picker.illegal.die_value", value=value)
        return self._put_roll(values)

    def _put_roll(self, values: tuple[int, ...]) -> list[Event]:
        """Put checked dice on the table; all showing one number asks for another roll."""
        rolled = Rolled(self.round + 1, values)
        if all_equal(values):
            return [rolled, AllEqual(self.round + 1, values[0])]
        self.dice = values
        self.lowest = min(values)
        self.phase = _PICK
        return [rolled]

    def _pick(self, colour: Colour) -> list[Event]:
        dice = self.dice
        if dice is None:
            raise IllegalMove("picker.illegal.roll_first")
        try:
            index = COLOUR_INDEX[colour]
        except (KeyError, TypeError):
            raise IllegalMove("picker.illegal.unknown_colour", colour=str(colour)) from None
        colour = COLOURS[index]
        if index >= len(dice):
            raise IllegalMove("picker.illegal.colour_not_in_play", colour=str(colour))
        picks = self.picks
        if colour in picks:
            raise IllegalMove("picker.illegal.colour_taken", colour=str(colour))
        count = len(dice)
        seat = (self.first + len(picks)) % count
        player = self.players[seat]
        value = dice[index]
        picks.append(colour)
        self.kept[player].append((colour, value))
        self.points[player] += value
        if value == self.lowest and self.picker is None:
            self.picker = seat
            events: list[Event] = [Picked(player, colour, value), BecamePicker(player, value)]
        else:
            events = [Picked(player, colour, value)]
        if len(picks) == count:
            events.extend(self._end_round())
        return events

    def _end_round(self) -> list[Event]:
        assert self.picker is not None  # every die is kept, the lowest one too
        self.round += 1
        self.first = self.picker
        self.picker = None
        self.picks = []
        self.dice = None
        self.lowest = 0
        if self.round == ROUNDS_PER_PLAYER * len(self.players):
            self.phase = _OVER
            return [RoundOver(self.round, None), GameOver(self.standings())]
        self.phase = _ROLL
        return [RoundOver(self.round, self.players[self.first])]

    def copy(self) -> Game:
        """An independent copy, for look-ahead by computer players and tests."""
        clone = Game.__new__(Game)
        clone.players = list(self.players)
        clone.computer = set(self.computer)
        clone.left = set(self.left)
        clone.first = self.first
        clone.round = self.round
        clone.phase = self.phase
        clone.dice = self.dice
        clone.lowest = self.lowest
        clone.picks = list(self.picks)
        clone.picker = self.picker
        clone.kept = {player: list(kept) for player, kept in self.kept.items()}
        clone.points = dict(self.points)
        clone.abandoned = self.abandoned
        return clone

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in Game.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable


def check_players(players: list[str]) -> None:
    """Raise InvalidState unless there are 3 to 8 distinct players."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidState(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
    if len(set(players)) != len(players):
        raise InvalidState("every player sits once")
