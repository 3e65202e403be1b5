"""The Extrawurm expansion's turn rules: the steps Game takes when it has an expansion.

Game calls these only when `game.expansion` is set, so the base game's turn machine in
game.py stays as it was; every step follows RULES.md's "Extrawurm expansion" and its
"Exact order of events". The steps change the tiles, specialists and Bratwurms of a
GameState (state.py) and return what happened; ending the turn, after a claim or a
failure, is left to game.py, which owns the turn machine and imports this module.
"""

from __future__ import annotations

import bisect

from bot.games.pickomino.engine.claims import ClaimOption, Source
from bot.games.pickomino.engine.dice import FACE_OF, Face
from bot.games.pickomino.engine.errors import IllegalAction
from bot.games.pickomino.engine.events import (
    BratwurmGained,
    BratwurmReason,
    Event,
    Failed,
    FailReason,
    HenStolen,
    SpecialistGained,
    SpecialistLeft,
    SpecialistReturned,
    Stole,
    Took,
    WeaselRolled,
)
from bot.games.pickomino.engine.extrawurm import ExtrawurmState
from bot.games.pickomino.engine.phases import Phase
from bot.games.pickomino.engine.specialists import Specialist
from bot.games.pickomino.engine.state import GameState
from bot.games.pickomino.engine.tiles import EXTRA_TILES, LOWEST_TILE

CANNED_WORM_POINTS = 5  # the can counts as one worm
_KEEP, _NO_NEW_FACE, _OVER = Phase.KEEP, Phase.NO_NEW_FACE, Phase.OVER
_WORM = Face.WORM


def weasel_dice(game: GameState, dice: tuple[Face, ...]) -> tuple[Face, ...]:
    """The Weasel action's dice, checked: IllegalAction unless the Weasel may be used
    now and the dice are faces, as many as the roll on the table."""
    check_weasel(game)
    assert game.roll is not None  # check_weasel allows it only with a roll out
    if len(dice) != len(game.roll):
        raise IllegalAction("pickomino.illegal.weasel_count", count=len(game.roll), given=len(dice))
    try:
        return tuple(map(FACE_OF.__getitem__, dice))
    except (KeyError, TypeError):
        raise IllegalAction("pickomino.illegal.bad_face") from None


def weasel_roll(game: GameState, dice: tuple[Face, ...]) -> WeaselRolled:
    """Spend the Weasel: checked dice replace the roll on the table (RULES.md, Weasel).

    What the new roll leads to, a face to keep or a failure, is the caller's to play,
    as after any roll.
    """
    assert game.expansion is not None
    game.expansion.weasel_used = True
    game.roll = dice
    return WeaselRolled(game.players[game.current], dice)


def check_accept_failure(game: GameState) -> None:
    """Raise IllegalAction unless there is a roll with no new face to take as it is."""
    if game.phase is not _NO_NEW_FACE:
        raise IllegalAction("pickomino.illegal.accept_only_no_new_face")


def take(
    game: GameState, option: ClaimOption, player: str, expansion: ExtrawurmState
) -> list[Event]:
    """Take a claimed tile (RULES.md, Extrawurm): extras beside the stack, the Hen
    instead of its holder's tile, and the specialist the grill tile carried."""
    tile, victim = option.tile, option.victim
    if option.source is Source.STEAL:
        assert victim is not None
        if expansion.holds(victim, Specialist.HEN):
            return [HenStolen(player, victim, tile), *gain(game, Specialist.HEN, player)]
        game.stacks[victim].pop()
        game.stacks[player].append(tile)
        return [Stole(player, victim, tile)]
    game.grill.remove(tile)
    (expansion.extras[player] if tile in EXTRA_TILES else game.stacks[player]).append(tile)
    events: list[Event] = [Took(player, tile, game.claim_total)]
    on_tile = expansion.on_tile(tile)
    if on_tile is Specialist.RAVEN:
        # Never held: its taker gets a Bratwurm, and it moves on (RULES.md, Raven).
        events += bratwurm_for_raven(game, player, expansion)
        events += send_back(game, Specialist.RAVEN, None)
    elif on_tile is not None:
        events.append(SpecialistGained(player, on_tile, tile))
        events += gain(game, on_tile, player)
    return events


def gain(game: GameState, specialist: Specialist, player: str) -> list[Event]:
    """`player` holds `specialist` now; the one they held before goes back."""
    assert game.expansion is not None
    old = game.expansion.held_by(player)
    game.expansion.specialists[specialist] = player
    return [] if old is None else send_back(game, old, player)


def send_back(game: GameState, specialist: Specialist, former: str | None) -> list[Event]:
    """Move `specialist` onto the lowest face-up grill tile with no specialist, or out
    of the game when there is none (RULES.md, "back"). `former` held it, if anyone."""
    assert game.expansion is not None
    tile = game.expansion.free_tile(game.grill)
    game.expansion.specialists[specialist] = tile
    if tile is None:
        return [SpecialistLeft(specialist, former)]
    return [SpecialistReturned(specialist, tile, former)]


def bratwurm_for_ones(game: GameState) -> list[Event]:
    """Two or more 1s kept at once: a Bratwurm from the supply, if any is left."""
    expansion = game.expansion
    assert expansion is not None
    if not expansion.supply:
        return []
    player = game.players[game.current]
    expansion.supply -= 1
    expansion.bratwurms[player] += 1
    return [BratwurmGained(player, BratwurmReason.ONES, None)]


def bratwurm_for_raven(game: GameState, player: str, expansion: ExtrawurmState) -> list[Event]:
    """A Bratwurm from the supply, else from the other player holding most."""
    source = None if expansion.supply else expansion.richest_other(player, game.players)
    if source is None:
        if not expansion.supply:
            return []  # nobody has one to give
        expansion.supply -= 1
    else:
        expansion.bratwurms[source] -= 1
    expansion.bratwurms[player] += 1
    return [BratwurmGained(player, BratwurmReason.RAVEN, source)]


def fail(game: GameState, reason: FailReason, expansion: ExtrawurmState) -> list[Event]:
    """A failure in RULES.md's "Exact order of events": the top tile back (unless the
    Hen saves it), the player's specialist back, then the highest tile turned. The
    caller ends the turn after it."""
    player = game.current_player
    stack = game.stacks[player]
    held = expansion.held_by(player)
    hen_saves = held is Specialist.HEN and bool(stack)
    returned = stack.pop() if stack and not hen_saves else None
    grill = game.grill
    if returned is not None:
        bisect.insort(grill, returned)
    moves: list[Event] = [] if held is None else send_back(game, held, player)
    turned = None
    if grill and grill[-1] >= LOWEST_TILE and turns_highest(game, hen_saves, returned):
        turned = grill.pop()  # only tiles of 21-36 are ever turned
    if turned is not None:
        bisect.insort(game.face_down, turned)
        riding = expansion.on_tile(turned)
        if riding is not None:
            moves += send_back(game, riding, None)
    return [Failed(player, reason, returned, turned), *moves]


def turns_highest(game: GameState, hen_saves: bool, returned: int | None) -> bool:
    """Whether an Extrawurm failure turns the highest grill tile: always when the
    Hen saved the top tile, else as in the base game."""
    if hen_saves:
        return True
    if returned is None:
        return game.rules.flip_on_empty_failure
    return game.grill[-1] != returned


def claim_options_for(game: GameState, expansion: ExtrawurmState) -> list[ClaimOption]:
    """Claims with the expansion: the Canned Worm, and 11 and 13 taken exactly."""
    if _WORM not in game.kept and not game.canned_worm_counts:
        return []
    total = game.claim_total
    if total < EXTRA_TILES[0]:
        return []
    player = game.players[game.current]
    return game.options_for_total(
        total, extra_tiles=EXTRA_TILES, may_take_extra=not expansion.extras[player]
    )


def may_use_weasel(game: GameState, *, on_phase: bool = True) -> bool:
    """The player to move holds the Weasel, has not used it this turn, and (unless
    `on_phase` is False, for a roll being put out) has a roll on the table."""
    expansion = game.expansion
    if expansion is None or expansion.weasel_used:
        return False
    if on_phase and game.phase is not _KEEP and game.phase is not _NO_NEW_FACE:
        return False
    return expansion.holds(game.players[game.current], Specialist.WEASEL)


def check_weasel(game: GameState) -> None:
    """Raise IllegalAction unless the player to move may use the Weasel now."""
    if game.phase is _OVER:
        raise IllegalAction("pickomino.illegal.game_over")
    expansion = game.expansion
    if expansion is None or not expansion.holds(game.current_player, Specialist.WEASEL):
        raise IllegalAction("pickomino.illegal.weasel_holder")
    if expansion.weasel_used:
        raise IllegalAction("pickomino.illegal.weasel_once")
    if game.phase is not _KEEP and game.phase is not _NO_NEW_FACE:
        raise IllegalAction("pickomino.illegal.weasel_timing")
