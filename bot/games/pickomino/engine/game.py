"""The game state and its turn state machine.

A Game is mutable, but every action is checked in full before anything changes, so
an illegal action raises IllegalAction and leaves the game exactly as it was.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.games.pickomino.engine.actions import Action, Claim, Keep, Roll
from bot.games.pickomino.engine.claims import ClaimOption, Source, best_claim, claim_options
from bot.games.pickomino.engine.dice import (
    ALL_FACES,
    DICE_COUNT,
    FACE_OF,
    Face,
    RandomSource,
    roll_dice,
)
from bot.games.pickomino.engine.errors import IllegalAction, InvalidState
from bot.games.pickomino.engine.events import (
    Event,
    Failed,
    FailReason,
    GameOver,
    Kept,
    PlayerLeft,
    Rolled,
    Standing,
    Stole,
    Took,
)
from bot.games.pickomino.engine.rules import LowerTile, Rules
from bot.games.pickomino.engine.tiles import ALL_TILES, LOWEST_TILE, worms

MIN_PLAYERS = 2
MAX_PLAYERS = 7


class Phase(StrEnum):
    ROLL = "roll"  # roll the dice left; with dice kept, stopping may be possible too
    KEEP = "keep"  # a roll is on the table: keep one face from it
    CLAIM = "claim"  # the turn ended by itself (all dice or all faces kept): take a tile
    OVER = "over"  # the game has ended


# Enum member lookups cost ~110 ns on 3.11; the hot paths read these module aliases.
_ROLL, _KEEP, _CLAIM, _OVER = Phase.ROLL, Phase.KEEP, Phase.CLAIM, Phase.OVER
_WORM = Face.WORM


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to move may do now, for a UI's buttons or a computer player."""

    can_roll: bool
    keepable: tuple[Face, ...]
    claims: tuple[ClaimOption, ...]


class Game:
    """One game of Pickomino: grill, stacks, seats, and the turn in progress."""

    __slots__ = (
        "abandoned",
        "current",
        "face_down",
        "grill",
        "kept",
        "left",
        "phase",
        "players",
        "roll",
        "rules",
        "stacks",
        "turn_number",
    )

    def __init__(
        self,
        players: Sequence[str],
        rules: Rules | None = None,
        *,
        first: int = 0,
    ) -> None:
        """A fresh game: all tiles face up on the grill, `players[first]` to move."""
        players = list(players)
        _check_players(players)
        if not 0 <= first < len(players):
            raise InvalidState(f"first seat {first} is not a seat of this game")
        self.players: list[str] = players
        self.rules: Rules = rules or Rules()
        self.grill: list[int] = list(ALL_TILES)
        self.face_down: list[int] = []
        self.stacks: dict[str, list[int]] = {player: [] for player in players}
        self.left: list[str] = []
        self.current: int = first
        self.phase: Phase = Phase.ROLL
        self.kept: list[Face] = []
        self.roll: tuple[Face, ...] | None = None
        self.turn_number: int = 1
        self.abandoned: bool = False

    # ----------------------------------------------------------------- reading

    @property
    def current_player(self) -> str:
        return self.players[self.current]

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def dice_left(self) -> int:
        return DICE_COUNT - len(self.kept)

    @property
    def kept_total(self) -> int:
        return _total(self.kept)

    @property
    def has_worm(self) -> bool:
        return Face.WORM in self.kept

    def top_tile(self, player: str) -> int | None:
        """The visible tile of a player's stack, or None for an empty stack."""
        stack = self.stacks[player]
        return stack[-1] if stack else None

    def score(self, player: str) -> int:
        """Worms on every tile in the player's stack."""
        return sum(worms(tile) for tile in self.stacks[player])

    def scores(self) -> dict[str, int]:
        """Worms of every seated player."""
        return {player: self.score(player) for player in self.stacks}

    def keepable_faces(self) -> tuple[Face, ...]:
        """Faces on the table that have not been kept yet this turn."""
        roll = self.roll
        if roll is None or self.phase is not _KEEP:
            return ()
        return tuple(sorted(set(roll).difference(self.kept)))

    def claim_options(self) -> list[ClaimOption]:
        """The tiles stopping now would take (empty when stopping is not possible)."""
        phase = self.phase
        if phase is _CLAIM or (phase is _ROLL and self.kept):
            return self._options_for_kept()
        return []

    def legal_actions(self) -> LegalActions:
        """Whether the player to move may roll, which faces they may keep, and the claims."""
        if self.phase is Phase.OVER:
            return LegalActions(False, (), ())
        return LegalActions(
            can_roll=self.phase is Phase.ROLL,
            keepable=self.keepable_faces(),
            claims=tuple(self.claim_options()),
        )

    def standings(self) -> tuple[Standing, ...]:
        """Seated players by worms, then by their highest tile (RULES.md tie-break)."""

        def strength(player: str) -> tuple[int, int]:
            return (self.score(player), max(self.stacks[player], default=0))

        ordered = sorted(self.players, key=strength, reverse=True)
        standings: list[Standing] = []
        for position, player in enumerate(ordered):
            shares_place = position and strength(ordered[position - 1]) == strength(player)
            rank = standings[-1].rank if shares_place else position + 1
            standings.append(Standing(rank, player, self.score(player), tuple(self.stacks[player])))
        return tuple(standings)

    # ----------------------------------------------------------------- acting

    def apply(self, action: Action) -> list[Event]:
        """Play an action for the player to move and return what it caused."""
        if self.phase is _OVER:
            raise IllegalAction("The game is over.")
        if isinstance(action, Keep):  # the most frequent action first
            return self._keep(action.face)
        if isinstance(action, Roll):
            return self._roll(action.dice)
        if isinstance(action, Claim):
            return self._claim(action.option)
        raise IllegalAction(f"Unknown action {action!r}.")

    def roll_with(self, rng: RandomSource) -> list[Event]:
        """Roll the dice left with an injected random source."""
        if self.phase is not _ROLL:
            raise IllegalAction(self._why_no_roll())
        return self._put_roll(roll_dice(rng, DICE_COUNT - len(self.kept)))

    def end_turn_on_timeout(self) -> list[Event]:
        """The turn timer ran out: take the best claim the kept dice allow, else fail."""
        if self.phase is Phase.OVER:
            raise IllegalAction("The game is over.")
        options = self._options_for_kept() if self.kept else []
        if not options:
            return self._fail(FailReason.TIMEOUT)
        return self._take(best_claim(options))

    def remove_player(self, player: str) -> list[Event]:
        """A player leaves: their tiles go back to the grill face up.

        With fewer than two players left the game ends as abandoned.
        """
        if self.phase is Phase.OVER:
            raise IllegalAction("The game is over.")
        if player not in self.stacks:
            raise IllegalAction("You're not in this game.")
        seat = self.players.index(player)
        was_moving = seat == self.current
        returned = tuple(sorted(self.stacks.pop(player)))
        for tile in returned:
            bisect.insort(self.grill, tile)
        self.players.pop(seat)
        self.left.append(player)
        events: list[Event] = [PlayerLeft(player, returned)]
        # Keep `current` on a seat even when the game ends here: an abandoned game is
        # stored and loaded again like any other.
        if seat < self.current:
            self.current -= 1
        elif was_moving:
            # The next seat slid into this index; wrap round past the last seat.
            self.current %= len(self.players)
        if len(self.players) < MIN_PLAYERS:
            return events + self.abandon()
        if was_moving:
            self._start_turn()
        return events

    def abandon(self) -> list[Event]:
        """End the game now as abandoned, with the standings of the moment.

        A roll on the table is cleared, as at any game over, so the state stays one
        that serialization accepts.
        """
        if self.phase is Phase.OVER:
            raise IllegalAction("The game is over.")
        self.abandoned = True
        self.phase = Phase.OVER
        self.roll = None
        return [GameOver(self.standings(), abandoned=True)]

    # ----------------------------------------------------------------- steps

    def _roll(self, dice: tuple[Face, ...]) -> list[Event]:
        if self.phase is not _ROLL:
            raise IllegalAction(self._why_no_roll())
        if len(dice) != DICE_COUNT - len(self.kept):
            raise IllegalAction(f"A roll here has {self.dice_left} dice, not {len(dice)}.")
        try:
            dice = tuple(map(FACE_OF.__getitem__, dice))
        except (KeyError, TypeError):
            raise IllegalAction("A die shows 1 to 5 or a worm.") from None
        return self._put_roll(dice)

    def _put_roll(self, dice: tuple[Face, ...]) -> list[Event]:
        """Put checked dice on the table (roll_with's come from roll_dice, checked already)."""
        kept = self.kept
        self.roll = dice
        rolled = Rolled(self.players[self.current], dice)
        # With nothing kept any roll shows a new face: skip building the set.
        if kept and set(kept).issuperset(dice):
            return [rolled, *self._fail(FailReason.NO_NEW_FACE)]
        self.phase = _KEEP
        return [rolled]

    def _keep(self, face: Face) -> list[Event]:
        roll = self.roll
        if roll is None or self.phase is not _KEEP:
            raise IllegalAction("Roll the dice first.")
        face = FACE_OF.get(face)  # type: ignore[assignment]
        if face is None:
            raise IllegalAction("A die shows 1 to 5 or a worm.")
        kept = self.kept
        if face not in roll:
            raise IllegalAction(f"There is no {_face_name(face)} in this roll.")
        if face in kept:
            raise IllegalAction(f"You have kept {_face_name(face)}s already this turn.")
        count = roll.count(face)
        kept.extend([face] * count)
        self.roll = None
        total = sum(kept) - kept.count(_WORM)  # _total(kept) inlined: one call less a keep
        events: list[Event] = [Kept(self.players[self.current], face, count, total)]
        # Fewer than six dice kept cannot show all six faces: skip building the set.
        if len(kept) < len(ALL_FACES) or (len(kept) < DICE_COUNT and len(set(kept)) < 6):
            self.phase = _ROLL
            return events
        # All dice kept, or every face kept so any roll would fail: the turn ends.
        if self._options_for_kept():
            self.phase = _CLAIM
        else:
            reason = FailReason.NO_TILE if _WORM in kept else FailReason.NO_WORM
            events.extend(self._fail(reason))
        return events

    def _claim(self, option: ClaimOption) -> list[Event]:
        options = self.claim_options()
        if option not in options:
            raise IllegalAction(self._why_not_claimable(option, options))
        return self._take(option)

    def _take(self, option: ClaimOption) -> list[Event]:
        player = self.current_player
        event: Event
        if option.source is Source.STEAL:
            assert option.victim is not None
            self.stacks[option.victim].pop()
            event = Stole(player, option.victim, option.tile)
        else:
            self.grill.remove(option.tile)
            event = Took(player, option.tile, self.kept_total)
        self.stacks[player].append(option.tile)
        return [event, *self._end_turn()]

    def _fail(self, reason: FailReason) -> list[Event]:
        player = self.current_player
        stack = self.stacks[player]
        returned = stack.pop() if stack else None
        turned = None
        if returned is not None:
            bisect.insort(self.grill, returned)
            if self.grill[-1] != returned:
                turned = self.grill.pop()
        elif self.rules.flip_on_empty_failure and self.grill:
            turned = self.grill.pop()
        if turned is not None:
            bisect.insort(self.face_down, turned)
        return [Failed(player, reason, returned, turned), *self._end_turn()]

    def _end_turn(self) -> list[Event]:
        if not self.grill:
            self.phase = Phase.OVER
            self.roll = None
            return [GameOver(self.standings(), tie_break=self._tie_break())]
        self.current = (self.current + 1) % len(self.players)
        self._start_turn()
        return []

    def _start_turn(self) -> None:
        self.phase = _ROLL
        self.kept = []
        self.roll = None
        self.turn_number += 1

    # ----------------------------------------------------------------- helpers

    def _options_for_kept(self) -> list[ClaimOption]:
        kept = self.kept
        if _WORM not in kept:
            return []  # the common case, answered before building anything
        total = sum(kept) - kept.count(_WORM)  # _total(kept) inlined: hot as keepable_faces
        if total < LOWEST_TILE:
            return []  # no tile, on the grill or a stack, is that low: skip the rest
        player = self.players[self.current]
        tops = {
            opponent: stack[-1]
            for opponent, stack in self.stacks.items()
            if stack and opponent != player
        }
        return claim_options(
            total,
            True,
            self.grill,
            tops,
            any_lower_tile=self.rules.lower_tile is LowerTile.ANY,
        )

    def _why_no_roll(self) -> str:
        if self.phase is Phase.KEEP:
            return "Keep a face from the dice on the table first."
        return "The turn is over: every die or every face is kept. Take a tile."

    def _why_not_claimable(self, option: ClaimOption, options: list[ClaimOption]) -> str:
        if self.phase is Phase.KEEP:
            return "Keep a face from the dice on the table first."
        if not self.kept:
            return "Roll and keep some dice before you stop."
        if not self.has_worm:
            return "You need at least one worm kept to take a tile."
        if option.source is Source.STEAL and option.victim == self.current_player:
            return "You can't steal from your own stack."
        if not options:
            return f"No tile can be taken with {self.kept_total}."
        return f"You can't take {option.tile} with {self.kept_total}."

    def _tie_break(self) -> str:
        standings = self.standings()
        if len(standings) < 2 or standings[0].worms != standings[1].worms:
            return ""
        return "shared" if standings[1].rank == 1 else "highest_tile"

    def copy(self) -> Game:
        """An independent copy, for look-ahead by computer players and tests."""
        clone = Game.__new__(Game)
        clone.players = list(self.players)
        clone.rules = self.rules
        clone.grill = list(self.grill)
        clone.face_down = list(self.face_down)
        clone.stacks = {player: list(stack) for player, stack in self.stacks.items()}
        clone.left = list(self.left)
        clone.current = self.current
        clone.phase = self.phase
        clone.kept = list(self.kept)
        clone.roll = self.roll
        clone.turn_number = self.turn_number
        clone.abandoned = self.abandoned
        return clone

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in Game.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable


def _check_players(players: list[str]) -> None:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidState(f"A game has 2 to 7 players, not {len(players)}.")
    if len(set(players)) != len(players):
        raise InvalidState("Every player sits once.")


def _total(kept: list[Face]) -> int:
    """The points of kept dice: faces are their numbers, less one for each worm (6 -> 5).

    sum() over the IntEnum faces then one count() is ~170 ns for five dice, against
    ~460 ns mapping each through POINTS. _keep and _options_for_kept inline it.
    """
    return sum(kept) - kept.count(_WORM)


def _face_name(face: Face) -> str:
    return "worm" if face is Face.WORM else str(int(face))
