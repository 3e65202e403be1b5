"""The "what now" line of the player to move, decided from the game alone: a catalog
key and its raw arguments (bot.render.prompt.Prompt), worded by what_now_words.py.

Pure: it reads the engine and nothing else, so a practice game can turn the same
decision into a coaching line. Keys (the player to move always has dice to keep: the
adapter rolls a round's dice as it begins):

- `picker.now.lowest` / `.lowest.bonus`: nobody kept the round's lowest number yet
  (`value`); keeping one makes the mover the Picker;
- `picker.now.picker` / `.picker.bonus`: `player` kept it first and keeps first next
  round;
- the `.bonus` forms when dice of `colours` the mover kept before are on the table;
- `picker.now.last`: one die left (`colour`, `value`): no choice.
"""

from __future__ import annotations

from bot.games.picker.engine import Game, Phase
from bot.render.prompt import Prompt

__all__ = ["Prompt", "what_now"]


def what_now(game: Game) -> Prompt | None:
    """What the player to move may do now and why; None when nobody is to keep a die."""
    if game.phase is not Phase.PICK:
        return None
    left = game.available()
    if len(left) == 1:
        return Prompt("picker.now.last", {"colour": left[0], "value": game.value_of(left[0])})
    kept_before = set(game.colours_kept(game.current_player))
    colours = tuple(colour for colour in left if colour in kept_before)
    if game.picker is None:
        key = "picker.now.lowest.bonus" if colours else "picker.now.lowest"
        return Prompt(key, {"value": game.lowest, "colours": colours})
    key = "picker.now.picker.bonus" if colours else "picker.now.picker"
    return Prompt(key, {"player": game.players[game.picker], "colours": colours})
