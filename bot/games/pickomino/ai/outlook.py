"""Hard's value of each way a turn can end: how the game stands for the mover after it.

The model, for the player who has just moved (m):

- When the turn empties the grill the game is over, and the standing is exact: the
  chance to win is 1/k for a first place shared by k players (most worms, then the
  highest single tile), else 0; each opponent finished ahead of counts 1, one sharing
  m's place a half.
- Otherwise, for each opponent j, the chance that m finishes ahead of j is

      sigma(scale * (gap + tie_break * higher) / (grill + grill_shift) ** power + offset)

  with gap = worms of m - worms of j, higher = +1, 0 or -1 as m holds the higher
  single tile (the tie-break), grill = worms still face up on the grill (what is left
  to play for, so the same gap is worth more near the end), and sigma the logistic
  function. The constants are fitted from self-play by tools/fitting/win_chance.py,
  one set for two players and one for three or more (FITS).
- The chance to win is the product of these chances over the opponents, as if the
  races were independent. The leader's factor is the smallest and its logarithm the
  steepest, so worms taken from the leader weigh most: a steal counts its full swing
  (the victim loses what the thief gains), most of all against the leader or the
  only opponent. The share of opponents m is expected to finish ahead of is their mean.

What Hard plays for (`Standing.value`): with two players the chance to win (the two
are one). With three or more, the chance to win alone plays long shots that finish
last when they fail, and a person at the table meets a Hard that beats them less often
than Normal does; so Hard plays for `WIN_WEIGHT` of the chance to win plus the rest of
the share of opponents finished ahead of: the whole finishing order, the win first.

So the turn's ends differ as the game does: a failure costs the top tile and shortens
the game by the grill tile it turns over (good for the leader, bad for the others),
and near the end the solver plays for the win rather than for worms.

With two players Hard looks one turn further (`Table.looks_ahead`, position.py): each
end is worth what the opponent's best answer to it leaves, the answer's ends valued by
this model from the opponent's side.

With three or more players the mover's new top tile faces every opponent's turn before
the mover moves again, and the pairwise model, reading only scores, does not see it.
So each end is valued as a mix (`TopTile`): with the chance that each opponent's turn
steals the top tile (`STEALS`, measured on Normal self-play), the standing with those
worms moved from the mover to that opponent; otherwise the standing as it lies. In
four-player games a top tile of 21-26 is taken before its owner moves again about a
third of the time. Measured over paired deals against three Normals: `EXPOSURE`'s comment.
In the base game, up to five players, Hard also plays out the next player's turn
(position.py's `_after_next_turn`), so the mix covers only the players after it.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping
from dataclasses import dataclass

from bot.games.pickomino.engine.claims import ClaimOption, Source
from bot.games.pickomino.engine.tiles import worms


@dataclass(frozen=True, slots=True)
class FitConstants:
    """One fitted pairwise model (see the module's docstring)."""

    scale: float
    offset: float
    grill_shift: float
    power: float
    tie_break: float


# Fitted by `python -m tools.fitting.win_chance` with the power held at 0.5 (the
# grid's other knobs chose no shift): 44,324 samples of 1,500 two-player games and
# 56,436 of 500 four-player games of OptimalBot self-play (log-loss 0.519 and 0.555,
# against 0.693 for a coin flip).
TWO_PLAYERS = FitConstants(scale=0.7976, offset=-0.1255, grill_shift=0.0, power=0.5, tie_break=0.25)
MORE_PLAYERS = FitConstants(scale=0.8390, offset=-0.1567, grill_shift=0.0, power=0.5, tie_break=0.5)


# The chance that one opponent's turn steals a top tile, per tile: measured by `python -m
# tools.fitting.steal_chances --games 400` (four-player Normal self-play, seed 1; every
# opponent turn a top tile faced before its owner's next turn). Low tiles are taken most: a total of
# 21-26 is the easiest to stop on, and late in the game many totals have no grill tile left.
STEALS: dict[int, float] = {
    21: 0.174, 22: 0.152, 23: 0.158, 24: 0.118, 25: 0.181, 26: 0.167, 27: 0.116, 28: 0.099,
    29: 0.096, 30: 0.047, 31: 0.025, 32: 0.015, 33: 0.012, 34: 0.008, 35: 0.008, 36: 0.0,
}  # fmt: skip
# Hard weighs the measured chances by this, chosen on paired deals against three Normals
# (2,000 games a seed): every weight tried from 1.0 to 2.0 gained about 1 to 2.5 points in
# four-player Extrawurm games, with no sharp best among them; 1.3 sits in the middle.
# Seeds 2 to 5, 8,000 four-player Extrawurm games: 26.4% against 25.1%, paired +1.3 [+0.2, +2.4].
EXPOSURE = 1.3

# Three or more players: the chance to win's share of what Hard plays for (the rest is
# the share of opponents finished ahead of; `Standing.value`). Measured against three
# Normals at four players, 2,000 games of paired deals, seed 11 (the same deals each):
#   weight 1.0 (the chance to win alone): 27.8% first places, 47.3% of opponents beaten;
#   0.0: 26.3%, 52.3%;  0.5: 27.1%, 52.1%;  0.8: 28.7%, 52.1%.
# Chosen on what people meet, Hard ahead of Normal in each pair of seats at mixed tables
# of 3 to 5 (bench_ratings, 2,000 Pickomino games, a quarter Extrawurm):
#   seed 1: 0.5 52.9% [50.3, 55.5], 0.8 50.6% [48.0, 53.1];
#   seed 2: 0.5 49.9% [47.4, 52.4], 0.8 49.4% [46.8, 51.9];
#   seed 3: 0.5 49.8% [47.2, 52.3], 0.8 49.8% [47.3, 52.3] (Extrawurm alone 50.9%, 47.9%).
WIN_WEIGHT = 0.5


@dataclass(frozen=True, slots=True)
class TopTile:
    """The mover's top tile, open to a steal until the mover's next turn."""

    tile: int
    highest_below: int  # the mover's highest single tile once it is gone (0: none)
    steal_chance: float  # that one opponent's turn takes it


def stolen_before_next_turn(tile: int, opponents: int, steals: Mapping[int, float]) -> float:
    """The measured chance that `tile`, just put on top of a stack, is stolen in one of
    the `opponents`' turns before its owner moves again (hints tell it; 0 for 11 and 13,
    which lie beside the stack, and with one opponent, whose answer the look-ahead plays)."""
    if opponents < 2:
        return 0.0
    return stolen_in_turns(tile, opponents, steals)


def stolen_in_turns(tile: int, turns: int, steals: Mapping[int, float]) -> float:
    """The measured chance that `tile`, on top of a stack, is stolen in one of `turns`
    other players' turns."""
    return 1.0 - (1.0 - steals.get(tile, 0.0)) ** turns


End = tuple[tuple[int, ...], dict[str, tuple[int, ...]]]
"""How a turn can end: the grill left face up, and every player's stack (bottom first)."""


@dataclass(frozen=True, slots=True)
class Table:
    """The whole game around a turn: every seated player's stack and the failure rule.

    `stacks` holds (player, tiles bottom first) for every seated player, the mover
    among them.
    """

    mover: str
    stacks: tuple[tuple[str, tuple[int, ...]], ...]
    flip_on_empty_failure: bool = False
    # Value each end after the next player's turn (position.py): with two players its
    # best answer for the win, with more its play for its worms.
    looks_ahead: bool = False

    def claimed(self, grill: tuple[int, ...], option: ClaimOption) -> End:
        """The grill and the stacks after the mover takes `option`."""
        stacks = dict(self.stacks)
        if option.source is Source.STEAL:
            assert option.victim is not None
            stacks[option.victim] = stacks[option.victim][:-1]
        else:
            grill = tuple(tile for tile in grill if tile != option.tile)
        stacks[self.mover] = (*stacks[self.mover], option.tile)
        return grill, stacks

    def failed(self, grill: tuple[int, ...]) -> End:
        """The grill and the stacks after the mover fails: its top tile goes back, and
        the highest grill tile (unless that is the one returned) is turned over."""
        stacks = dict(self.stacks)
        own = stacks[self.mover]
        board = list(grill)
        if own:
            returned = own[-1]
            stacks[self.mover] = own[:-1]
            bisect.insort(board, returned)
            if board[-1] != returned:
                board.pop()
        elif self.flip_on_empty_failure and board:
            board.pop()
        return tuple(board), stacks

    def standing(
        self, grill: tuple[int, ...], stacks: dict[str, tuple[int, ...]], moved: str | None = None
    ) -> Standing:
        """The mover's standing with this grill and these stacks, the mover's turn over
        (and `moved`'s, the next player's, when given: it can no longer steal the top)."""
        strengths = {
            player: (sum(map(worms, tiles)), max(tiles, default=0))
            for player, tiles in stacks.items()
        }
        own = stacks[self.mover]
        top = None
        if own:
            top = TopTile(own[-1], max(own[:-1], default=0), STEALS.get(own[-1], 0.0))
        return standing(self.mover, strengths, sum(map(worms, grill)), top, moved)

    def value(self, grill: tuple[int, ...], stacks: dict[str, tuple[int, ...]]) -> float:
        """What Hard plays for with this grill and these stacks (`Standing.value`)."""
        return self.standing(grill, stacks).value


@dataclass(frozen=True, slots=True)
class Standing:
    """How the game stands for the mover, by the model: its chance to win, and the
    share of its opponents it is expected to finish ahead of (the same number with one
    opponent)."""

    win: float
    ahead: float
    opponents: int

    @property
    def value(self) -> float:
        """What Hard plays for: the chance to win with one opponent; with more,
        WIN_WEIGHT of it and the rest of the share of opponents finished ahead of."""
        if self.opponents < 2:
            return self.win
        return WIN_WEIGHT * self.win + (1.0 - WIN_WEIGHT) * self.ahead


def standing(
    mover: str,
    strengths: Mapping[str, tuple[float, int]],
    grill_worms: int,
    top: TopTile | None = None,
    moved: str | None = None,
) -> Standing:
    """The model of the module's docstring: the mover's standing, each player's
    strength being (worms, highest single tile), `grill_worms` the worms still face up
    on the grill (none: the game is over, and the standing exact). With three or more
    players and the mover's `top` tile given, the mix over who may steal it first
    (`moved`, who has had its turn already, not among them)."""
    now = _pairwise(mover, strengths, grill_worms)
    opponents = len(strengths) - 1
    thieves = opponents - (moved is not None)
    if top is None or opponents < 2 or not thieves or not grill_worms or not top.steal_chance:
        return now
    # Each opponent steals it with the same chance, capped so the chances add up to 1 at
    # most; a tile stolen by one is no longer there for the next.
    each = min(EXPOSURE * top.steal_chance, 1.0 / thieves)
    lost = worms(top.tile)
    kept = 1.0 - each * thieves
    win, ahead = kept * now.win, kept * now.ahead
    for thief, (score, highest) in strengths.items():
        if thief in (mover, moved):
            continue
        after = dict(strengths)
        after[mover] = (strengths[mover][0] - lost, top.highest_below)
        after[thief] = (score + lost, max(highest, top.tile))
        stolen = _pairwise(mover, after, grill_worms)
        win += each * stolen.win
        ahead += each * stolen.ahead
    return Standing(win, ahead, opponents)


def _pairwise(mover: str, strengths: Mapping[str, tuple[float, int]], grill_worms: int) -> Standing:
    """The product and the mean of the pairwise chances (exact when the grill is empty)."""
    mine = strengths[mover]
    opponents = len(strengths) - 1
    if not grill_worms:
        best = max(strengths.values())
        win = 0.0 if mine != best else 1 / sum(1 for s in strengths.values() if s == best)
        if opponents < 2:
            return Standing(win, win, opponents)
        others = [theirs for player, theirs in strengths.items() if player != mover]
        ahead = sum((mine > theirs) + 0.5 * (mine == theirs) for theirs in others)
        return Standing(win, ahead / opponents, opponents)
    fit = TWO_PLAYERS if opponents == 1 else MORE_PLAYERS
    spread = fit.scale / (grill_worms + fit.grill_shift) ** fit.power
    chance = 1.0
    total = 0.0
    for player, theirs in strengths.items():
        if player == mover:
            continue
        higher = (mine[1] > theirs[1]) - (mine[1] < theirs[1])
        gap = mine[0] - theirs[0] + fit.tie_break * higher
        denominator = 1 + math.exp(-(spread * gap + fit.offset))
        chance /= denominator
        total += 1 / denominator
    return Standing(chance, chance if opponents < 2 else total / opponents, opponents)
