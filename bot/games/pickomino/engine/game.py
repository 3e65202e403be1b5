"""The game state and its turn state machine.

A Game is mutable, but every action is checked in full before anything changes, so
an illegal action raises IllegalAction and leaves the game exactly as it was.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.games.pickomino.engine import extrawurm_turns as ew
from bot.games.pickomino.engine.actions import AcceptFailure, Action, Claim, Keep, Roll, Weasel
from bot.games.pickomino.engine.checks import check_players, check_position
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
    NinthDie,
    PlayerLeft,
    Rolled,
    Standing,
    Stole,
    Took,
)
from bot.games.pickomino.engine.extrawurm import ExtrawurmState
from bot.games.pickomino.engine.phases import Phase
from bot.games.pickomino.engine.rules import LowerTile, Rules
from bot.games.pickomino.engine.setback import Setback, latest_setback
from bot.games.pickomino.engine.specialists import Place, Specialist
from bot.games.pickomino.engine.tiles import BASE_LAYOUT, EXTRA_TILES, LOWEST_TILE, Layout, worms
from bot.history.ranking import shared_ranks

# The base game's seat limits; a variant's own are in its Layout.
MIN_PLAYERS = BASE_LAYOUT.min_players
MAX_PLAYERS = BASE_LAYOUT.max_players
PLAYER_COUNTS = range(MIN_PLAYERS, MAX_PLAYERS + 1)  # every table size, for a --players choice

# Enum member lookups cost ~110 ns on 3.11; the hot paths read these module aliases.
_ROLL, _KEEP, _CLAIM, _OVER = Phase.ROLL, Phase.KEEP, Phase.CLAIM, Phase.OVER
_NO_NEW_FACE = Phase.NO_NEW_FACE
_WORM, _ONE = Face.WORM, Face.ONE


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to move may do now, for a UI's buttons or a computer player."""

    can_roll: bool
    keepable: tuple[Face, ...]
    claims: tuple[ClaimOption, ...]
    can_weasel: bool = False  # Extrawurm: roll the dice on the table again
    can_accept_failure: bool = False  # Extrawurm: take a roll with no new face as it is


class Game:
    """One game of Pickomino: grill, stacks, seats, and the turn in progress."""

    __slots__ = (
        "abandoned",
        "current",
        "expansion",
        "face_down",
        "grill",
        "kept",
        "left",
        "phase",
        "players",
        "roll",
        "rules",
        "setback",
        "stacks",
        "turn_dice",
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
        rules = rules or Rules()
        layout = rules.layout
        check_players(players, layout)
        if not 0 <= first < len(players):
            raise InvalidState(f"first seat {first} is not a seat of this game")
        self.players: list[str] = players
        self.rules: Rules = rules
        self.grill: list[int] = list(layout.all_tiles)
        self.face_down: list[int] = []
        self.stacks: dict[str, list[int]] = {player: [] for player in players}
        self.left: list[str] = []
        self.current: int = first
        self.phase: Phase = Phase.ROLL
        self.kept: list[Face] = []
        self.roll: tuple[Face, ...] | None = None
        self.turn_number: int = 1
        self.abandoned: bool = False
        self.turn_dice: int = layout.dice  # 9 for the Golden Die's holder
        self.expansion: ExtrawurmState | None = (
            ExtrawurmState.setup(players) if rules.extrawurm else None
        )
        # The latest bust or steal, until its victim's next roll (setback.py).
        self.setback: Setback | None = None

    @classmethod
    def from_position(
        cls,
        players: Sequence[str],
        rules: Rules | None = None,
        *,
        grill: Iterable[int],
        face_down: Iterable[int] = (),
        stacks: Mapping[str, Sequence[int]] | None = None,
        current: int | str = 0,
        phase: Phase = Phase.ROLL,
        kept: Iterable[Face] = (),
        roll: Iterable[Face] | None = None,
        turn_number: int = 1,
        left: Iterable[str] = (),
        abandoned: bool = False,
        extras: Mapping[str, Sequence[int]] | None = None,
        specialists: Mapping[Specialist, Place] | None = None,
        bratwurms: Mapping[str, int] | None = None,
        supply: int | None = None,
        weasel_used: bool = False,
        setback: Setback | None = None,
    ) -> Game:
        """A game at an arbitrary position, checked in full (InvalidState if the rules
        do not allow it). The one way to build a position without playing up to it.

        `stacks` run bottom to top, missing players holding none; `current` is a seat
        or a name. The Extrawurm parts apply only with `rules.extrawurm`: missing
        `extras` and `bratwurms` entries are none, missing `specialists` keys sit on
        their setup tiles, and `supply` defaults to the tokens nobody holds. `setback`
        is the latest bust or steal still to be told (none by default).
        """
        game = cls.__new__(cls)
        rules = rules or Rules()
        game.players = list(players)
        game.rules = rules
        game.grill = sorted(grill)
        game.face_down = sorted(face_down)
        stacks = stacks or {}
        unknown = set(stacks).difference(game.players)
        if unknown:
            raise InvalidState(f"{sorted(unknown)[0]!r} has a stack but is not seated")
        game.stacks = {player: list(stacks.get(player, ())) for player in game.players}
        if isinstance(current, str):
            if current not in game.players:
                raise InvalidState(f"{current!r} is to move but is not seated")
            current = game.players.index(current)
        game.current = current
        game.phase = phase
        game.kept = list(kept)
        game.roll = None if roll is None else tuple(roll)
        game.turn_number = turn_number
        game.left = list(left)
        game.abandoned = abandoned
        game.setback = setback
        game.expansion = None
        if rules.extrawurm:
            game.expansion = ExtrawurmState.at(
                game.players, extras, specialists, bratwurms, supply, weasel_used
            )
        elif extras or specialists or bratwurms or supply or weasel_used:
            raise InvalidState("extra tiles, specialists and Bratwurms need the Extrawurm rules")
        game.turn_dice = game._dice_for_turn()
        check_position(game)
        return game

    # ----------------------------------------------------------------- reading

    @property
    def layout(self) -> Layout:
        """The tiles, seats and dice of the variant played."""
        return self.rules.layout

    @property
    def current_player(self) -> str:
        return self.players[self.current]

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def dice_left(self) -> int:
        return self.turn_dice - len(self.kept)

    @property
    def kept_total(self) -> int:
        return _total(self.kept)

    @property
    def has_worm(self) -> bool:
        return Face.WORM in self.kept

    @property
    def canned_worm_counts(self) -> bool:
        """Extrawurm: the player to move holds the Canned Worm and kept no worm die, so a
        claim counts the can as one worm worth 5 points."""
        expansion = self.expansion
        return (
            expansion is not None
            and _WORM not in self.kept
            and expansion.holds(self.players[self.current], Specialist.CANNED_WORM)
        )

    @property
    def claim_total(self) -> int:
        """The total a claim is made with: the kept dice, plus 5 for a Canned Worm."""
        return _total(self.kept) + (ew.CANNED_WORM_POINTS if self.canned_worm_counts else 0)

    def top_tile(self, player: str) -> int | None:
        """The visible tile of a player's stack, or None for an empty stack."""
        stack = self.stacks[player]
        return stack[-1] if stack else None

    def extras(self, player: str) -> list[int]:
        """Extrawurm: the 11 or 13 beside the player's stack (empty in a base game)."""
        expansion = self.expansion
        return [] if expansion is None else expansion.extras[player]

    def bratwurms(self, player: str) -> int:
        """Extrawurm: the player's Bratwurm tokens (0 in a base game)."""
        expansion = self.expansion
        return 0 if expansion is None else expansion.bratwurms[player]

    def specialist_of(self, player: str) -> Specialist | None:
        """Extrawurm: the specialist the player holds, if any."""
        expansion = self.expansion
        return None if expansion is None else expansion.held_by(player)

    def is_hen_steal(self, option: ClaimOption) -> bool:
        """Extrawurm: the steal would take the Sitting Hen from its holder, not the tile."""
        expansion = self.expansion
        return (
            expansion is not None
            and option.source is Source.STEAL
            and option.victim is not None
            and expansion.holds(option.victim, Specialist.HEN)
        )

    def score(self, player: str) -> int:
        """Worms on every tile the player holds, plus their Bratwurms (Extrawurm)."""
        points = sum(worms(tile) for tile in self.stacks[player])
        expansion = self.expansion
        if expansion is None:
            return points
        return points + len(expansion.extras[player]) + expansion.bratwurms[player]

    def scores(self) -> dict[str, int]:
        """Worms of every seated player."""
        return {player: self.score(player) for player in self.stacks}

    def tiles_held(self, player: str) -> tuple[int, ...]:
        """The player's stack bottom to top, then their extra tile (Extrawurm)."""
        return (*self.stacks[player], *self.extras(player))

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
            can_weasel=ew.may_use_weasel(self),
            can_accept_failure=self.phase is _NO_NEW_FACE,
        )

    def standings(self) -> tuple[Standing, ...]:
        """Seated players by worms, then by their highest tile (RULES.md tie-break)."""

        # 11 and 13 count as tiles for the tie-break (RULES.md, Extrawurm).
        def strength(player: str) -> tuple[int, int]:
            return (self.score(player), max(self.tiles_held(player), default=0))

        ordered = sorted(self.players, key=strength, reverse=True)
        ranks = shared_ranks([strength(player) for player in ordered])
        return tuple(
            Standing(
                rank,
                player,
                self.score(player),
                self.tiles_held(player),
                self.bratwurms(player),
            )
            for rank, player in zip(ranks, ordered, strict=True)
        )

    # ----------------------------------------------------------------- acting

    def apply(self, action: Action) -> list[Event]:
        """Play an action for the player to move and return what it caused."""
        if self.phase is _OVER:
            raise IllegalAction("pickomino.illegal.game_over")
        if isinstance(action, Keep):  # the most frequent action first
            return self._keep(action.face)
        if isinstance(action, Roll):
            return self._roll(action.dice)
        if isinstance(action, Claim):
            return self._claim(action.option)
        if isinstance(action, Weasel):
            return self._weasel_roll(ew.weasel_dice(self, action.dice))
        if isinstance(action, AcceptFailure):
            ew.check_accept_failure(self)
            return self._fail(FailReason.NO_NEW_FACE)
        raise IllegalAction("pickomino.illegal.unknown_action")

    def roll_with(self, rng: RandomSource) -> list[Event]:
        """Roll the dice left with an injected random source."""
        if self.phase is not _ROLL:
            raise self._why_no_roll()
        return self._put_roll(roll_dice(rng, self.turn_dice - len(self.kept)))

    def weasel_with(self, rng: RandomSource) -> list[Event]:
        """Extrawurm: roll the dice on the table again with the Weasel, with an injected
        random source."""
        ew.check_weasel(self)
        assert self.roll is not None  # check_weasel allows it only with a roll out
        return self._weasel_roll(roll_dice(rng, len(self.roll)))

    def end_turn_on_timeout(self) -> list[Event]:
        """The turn timer ran out: take the best claim the kept dice allow, else fail."""
        if self.phase is Phase.OVER:
            raise IllegalAction("pickomino.illegal.game_over")
        if self.phase is _NO_NEW_FACE:
            return self._fail(FailReason.NO_NEW_FACE)  # the roll is a failure already
        options = self._options_for_kept() if self.kept else []
        if not options:
            return self._fail(FailReason.TIMEOUT)
        return self._take(best_claim(options))

    def remove_player(self, player: str) -> list[Event]:
        """A player leaves: their tiles go back to the grill face up.

        With fewer than two players left the game ends as abandoned.
        """
        if self.phase is Phase.OVER:
            raise IllegalAction("pickomino.illegal.game_over")
        if player not in self.stacks:
            raise IllegalAction("pickomino.illegal.not_in_game")
        seat = self.players.index(player)
        was_moving = seat == self.current
        expansion = self.expansion
        extras = [] if expansion is None else expansion.extras.pop(player)
        returned = tuple(sorted((*self.stacks.pop(player), *extras)))
        for tile in returned:
            bisect.insort(self.grill, tile)
        events: list[Event] = [PlayerLeft(player, returned)]
        if expansion is not None:
            # Their Bratwurms go back to the supply and their specialist back (choice).
            expansion.supply += expansion.bratwurms.pop(player)
            held = expansion.held_by(player)
            if held is not None:
                events += ew.send_back(self, held, player)
        self.players.pop(seat)
        self.left.append(player)
        # Keep `current` on a seat even when the game ends here: an abandoned game is
        # stored and loaded again like any other.
        if self.setback is not None and self.setback.victim == player:
            self.setback = None  # nobody is left to tell
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
            raise IllegalAction("pickomino.illegal.game_over")
        self.abandoned = True
        self.phase = Phase.OVER
        self.roll = None
        self.turn_dice = self._dice_for_turn()  # as a loaded game would derive it
        return [GameOver(self.standings(), abandoned=True)]

    # ----------------------------------------------------------------- steps

    def _roll(self, dice: tuple[Face, ...]) -> list[Event]:
        if self.phase is not _ROLL:
            raise self._why_no_roll()
        if len(dice) != self.turn_dice - len(self.kept):
            raise IllegalAction(
                "pickomino.illegal.dice_count", count=self.dice_left, given=len(dice)
            )
        try:
            dice = tuple(map(FACE_OF.__getitem__, dice))
        except (KeyError, TypeError):
            raise IllegalAction("pickomino.illegal.bad_face") from None
        return self._put_roll(dice)

    def _put_roll(self, dice: tuple[Face, ...]) -> list[Event]:
        """Put checked dice on the table (roll_with's come from roll_dice, checked already)."""
        kept = self.kept
        self.roll = dice
        rolled = Rolled(self.players[self.current], dice)
        if not kept:  # any roll shows a new face: skip building the set
            setback = self.setback
            if setback is not None and setback.victim == rolled.player:
                self.setback = None  # its victim has seen it: their turn goes on
            self.phase = _KEEP
            if self.turn_dice == DICE_COUNT:
                return [rolled]
            return [NinthDie(self.players[self.current]), rolled]
        if set(kept).issuperset(dice):
            if ew.may_use_weasel(self, on_phase=False):
                self.phase = _NO_NEW_FACE  # the holder may still roll these dice again
                return [rolled]
            return [rolled, *self._fail(FailReason.NO_NEW_FACE)]
        self.phase = _KEEP
        return [rolled]

    def _weasel_roll(self, dice: tuple[Face, ...]) -> list[Event]:
        """Extrawurm: the Weasel's checked dice replace the roll on the table. With no
        new face among them the turn fails at once: the Weasel is spent, so there is no
        second chance to ask for (Phase.NO_NEW_FACE)."""
        rolled = ew.weasel_roll(self, dice)
        if self.kept and set(self.kept).issuperset(dice):
            return [rolled, *self._fail(FailReason.NO_NEW_FACE)]
        self.phase = _KEEP
        return [rolled]

    def _keep(self, face: Face) -> list[Event]:
        roll = self.roll
        if roll is None or self.phase is not _KEEP:
            raise self._why_no_keep()
        face = FACE_OF.get(face)  # type: ignore[assignment]
        if face is None:
            raise IllegalAction("pickomino.illegal.bad_face")
        kept = self.kept
        if face not in roll:
            raise _about_face(
                face, "pickomino.illegal.face_missing", "pickomino.illegal.worm_missing"
            )
        if face in kept:
            raise _about_face(face, "pickomino.illegal.face_kept", "pickomino.illegal.worms_kept")
        count = roll.count(face)
        kept.extend([face] * count)
        self.roll = None
        total = sum(kept) - kept.count(_WORM)  # _total(kept) inlined: one call less a keep
        events: list[Event] = [Kept(self.players[self.current], face, count, total)]
        if face is _ONE and count > 1 and self.expansion is not None:
            events += ew.bratwurm_for_ones(self)
        # Fewer than six dice kept cannot show all six faces: skip building the set.
        if len(kept) < len(ALL_FACES) or (len(kept) < self.turn_dice and len(set(kept)) < 6):
            self.phase = _ROLL
            return events
        # All dice kept, or every face kept so any roll would fail: the turn ends.
        if self._options_for_kept():
            self.phase = _CLAIM
        else:
            has_worm = _WORM in kept or self.canned_worm_counts
            events.extend(self._fail(FailReason.NO_TILE if has_worm else FailReason.NO_WORM))
        return events

    def _claim(self, option: ClaimOption) -> list[Event]:
        options = self.claim_options()
        if option not in options:
            raise self._why_not_claimable(option, options)
        return self._take(option)

    def _take(self, option: ClaimOption) -> list[Event]:
        player = self.current_player
        expansion = self.expansion
        if expansion is not None:
            taken = ew.take(self, option, player, expansion)
            self.setback = latest_setback(taken, self.setback)
            return [*taken, *self._end_turn()]
        event: Event
        if option.source is Source.STEAL:
            assert option.victim is not None
            self.stacks[option.victim].pop()
            event = Stole(player, option.victim, option.tile)
            self.setback = Setback(event)
        else:
            self.grill.remove(option.tile)
            event = Took(player, option.tile, self.kept_total)
        self.stacks[player].append(option.tile)
        return [event, *self._end_turn()]

    def _fail(self, reason: FailReason) -> list[Event]:
        if self.expansion is not None:
            failed = ew.fail(self, reason, self.expansion)
            self.setback = latest_setback(failed, self.setback)
            return [*failed, *self._end_turn()]
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
        event = Failed(player, reason, returned, turned)
        self.setback = Setback(event)
        return [event, *self._end_turn()]

    def _end_turn(self) -> list[Event]:
        grill = self.grill
        # The game ends with no tile of 21-36 face up, whatever 11 or 13 still lie there.
        if not grill or grill[-1] < LOWEST_TILE:
            self.phase = Phase.OVER
            self.roll = None
            self.turn_dice = self._dice_for_turn()  # as a loaded game would derive it
            return [GameOver(self.standings(), tie_break=self._tie_break())]
        self.current = (self.current + 1) % len(self.players)
        self._start_turn()
        return []

    def _start_turn(self) -> None:
        self.phase = _ROLL
        self.kept = []
        self.roll = None
        self.turn_number += 1
        self.turn_dice = self._dice_for_turn()
        if self.expansion is not None:
            self.expansion.weasel_used = False

    def _dice_for_turn(self) -> int:
        """Dice the player to move starts the turn with: nine with the Golden Die."""
        dice = self.rules.layout.dice
        expansion = self.expansion
        if (
            expansion is not None
            and self.players
            and expansion.holds(self.players[self.current], Specialist.GOLDEN_DIE)
        ):
            return dice + 1
        return dice

    # ----------------------------------------------------------------- helpers

    def _options_for_kept(self) -> list[ClaimOption]:
        if self.expansion is not None:
            return ew.claim_options_for(self, self.expansion)
        kept = self.kept
        if _WORM not in kept:
            return []  # the common case, answered before building anything
        total = sum(kept) - kept.count(_WORM)  # _total(kept) inlined: hot as keepable_faces
        if total < LOWEST_TILE:
            return []  # no tile, on the grill or a stack, is that low: skip the rest
        return self.options_for_total(total)

    def options_for_total(
        self, total: int, *, extra_tiles: tuple[int, ...] = (), may_take_extra: bool = True
    ) -> list[ClaimOption]:
        """The tiles the player to move could take with `total` and a worm (or the can)
        kept; `extra_tiles` and `may_take_extra` as in claims.claim_options (Extrawurm)."""
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
            extra_tiles=extra_tiles,
            may_take_extra=may_take_extra,
        )

    def _why_no_roll(self) -> IllegalAction:
        if self.phase is Phase.KEEP:
            return IllegalAction("pickomino.illegal.keep_first")
        if self.phase is _NO_NEW_FACE:
            return IllegalAction("pickomino.illegal.no_new_face_roll")
        return IllegalAction("pickomino.illegal.turn_done")

    def _why_no_keep(self) -> IllegalAction:
        if self.phase is _NO_NEW_FACE:
            return IllegalAction("pickomino.illegal.no_new_face_keep")
        return IllegalAction("pickomino.illegal.roll_first")

    def _why_not_claimable(self, option: ClaimOption, options: list[ClaimOption]) -> IllegalAction:
        if self.phase is Phase.KEEP or self.phase is _NO_NEW_FACE:
            return self._why_no_roll()
        if not self.kept:
            return IllegalAction("pickomino.illegal.keep_before_stop")
        if not self.has_worm and not self.canned_worm_counts:
            return IllegalAction("pickomino.illegal.need_worm")
        if option.source is Source.STEAL and option.victim == self.current_player:
            return IllegalAction("pickomino.illegal.own_stack")
        if option.tile in EXTRA_TILES and self.extras(self.current_player):
            return IllegalAction("pickomino.illegal.one_extra")
        if not options:
            return IllegalAction("pickomino.illegal.no_tile_for", total=self.claim_total)
        return IllegalAction("pickomino.illegal.not_for", tile=option.tile, total=self.claim_total)

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
        clone.turn_dice = self.turn_dice
        clone.setback = self.setback
        clone.expansion = None if self.expansion is None else self.expansion.copy()
        return clone

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in Game.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable


def _total(kept: list[Face]) -> int:
    """The points of kept dice: faces are their numbers, less one for each worm (6 -> 5).

    sum() over the IntEnum faces then one count() is ~170 ns for five dice, against
    ~460 ns mapping each through POINTS. _keep and _options_for_kept inline it.
    """
    return sum(kept) - kept.count(_WORM)


def _about_face(face: Face, key: str, worm_key: str) -> IllegalAction:
    """A refusal about one face: worms have words of their own (`no worm`, `no 5`)."""
    return IllegalAction(worm_key) if face is Face.WORM else IllegalAction(key, face=int(face))
