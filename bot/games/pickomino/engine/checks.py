"""Is a position one the rules allow? Checked for every position built or loaded."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.pickomino.engine.errors import InvalidState
from bot.games.pickomino.engine.extrawurm import ExtrawurmState
from bot.games.pickomino.engine.phases import Phase
from bot.games.pickomino.engine.specialists import Specialist
from bot.games.pickomino.engine.state import GameState
from bot.games.pickomino.engine.tiles import BASE_LAYOUT, Layout


def check_players(players: Sequence[str], layout: Layout = BASE_LAYOUT) -> None:
    """Raise InvalidState unless the seats suit the variant: its player limits, no repeats."""
    if not layout.min_players <= len(players) <= layout.max_players:
        raise InvalidState(
            f"A game has {layout.min_players} to {layout.max_players} players, not {len(players)}."
        )
    if len(set(players)) != len(players):
        raise InvalidState("Every player sits once.")


def check_position(game: GameState) -> None:
    """Raise InvalidState unless every tile is in one place and the seats and dice make
    sense; with the Extrawurm expansion also its extra tiles, specialists and Bratwurms."""
    layout = game.rules.layout
    if not game.abandoned:
        check_players(game.players, layout)
    if set(game.stacks) != set(game.players):
        raise InvalidState("every seated player needs a stack, and only they")
    expansion = game.expansion
    extras = [] if expansion is None else [t for e in expansion.extras.values() for t in e]
    stacked = [tile for stack in game.stacks.values() for tile in stack]
    placed = [*game.grill, *game.face_down, *stacked, *extras]
    if sorted(placed) != list(layout.all_tiles):
        raise InvalidState(_every_tile_once(layout))
    if any(tile in layout.extra_tiles for tile in (*game.face_down, *stacked)):
        raise InvalidState("11 and 13 lie on the grill or beside a stack, never elsewhere")
    if not 0 <= game.current < max(len(game.players), 1):
        raise InvalidState("the player to move is not seated")
    _check_turn(game)
    if expansion is not None:
        _check_expansion(game, expansion)


def _every_tile_once(layout: Layout) -> str:
    tiles = f"{layout.stack_tiles[0]} to {layout.stack_tiles[-1]}"
    if layout.extra_tiles:
        tiles = f"{', '.join(map(str, layout.extra_tiles))} and {tiles}"
    return f"every tile {tiles} must be in exactly one place"


def _check_turn(game: GameState) -> None:
    dice = game.turn_dice
    # A game over keeps the last turn's dice, kept by a player who may have lost the
    # Golden Die since: only a turn in progress must add up.
    too_many = game.phase is not Phase.OVER and len(game.kept) > dice
    if too_many or (game.roll is not None and len(game.roll) + len(game.kept) != dice):
        raise InvalidState(f"the turn's dice do not add up to {dice}")
    rolled = game.phase is Phase.KEEP or game.phase is Phase.NO_NEW_FACE
    if rolled != (game.roll is not None):
        raise InvalidState("a roll is on the table exactly while a face must be kept")
    if game.phase is Phase.NO_NEW_FACE and (
        game.expansion is None
        or game.expansion.weasel_used
        or not game.expansion.holds(game.current_player, Specialist.WEASEL)
    ):
        raise InvalidState("only the Weasel's holder may be asked to take a failed roll")


def _check_expansion(game: GameState, expansion: ExtrawurmState) -> None:
    players = set(game.players)
    if set(expansion.extras) != players or set(expansion.bratwurms) != players:
        raise InvalidState("every seated player has extra tiles and Bratwurms, and only they")
    if any(len(extras) > 1 for extras in expansion.extras.values()):
        raise InvalidState("a player holds 11 or 13, never both")
    if set(expansion.specialists) != set(Specialist):
        raise InvalidState("every specialist needs a place")
    places = list(expansion.specialists.values())
    if any(place is not None and type(place) not in (int, str) for place in places):
        raise InvalidState("a specialist is on a tile, with a player, or out of the game")
    for specialist, place in expansion.specialists.items():
        if type(place) is int and place not in game.grill:
            raise InvalidState(f"the {specialist} sits on {place}, which is not face up")
    tiles = [place for place in places if type(place) is int]
    holders = [place for place in places if isinstance(place, str)]
    if len(set(tiles)) != len(tiles):
        raise InvalidState("a grill tile carries one specialist at most")
    if any(holder not in players for holder in holders) or len(set(holders)) != len(holders):
        raise InvalidState("a specialist is held by a seated player, one to a player")
    if isinstance(expansion.specialists[Specialist.RAVEN], str):
        raise InvalidState("the Raven is never held")
    counts = [expansion.supply, *expansion.bratwurms.values()]
    total = game.rules.layout.bratwurms
    if any(type(count) is not int or count < 0 for count in counts) or sum(counts) != total:
        raise InvalidState(f"the supply and the players hold the {total} Bratwurms between them")
