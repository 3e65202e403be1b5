"""Computer opponents and hints from an exact optimal-play solver (pure: no Discord, no I/O).

- `players`: `Level`, `decide(game, level)` -> Keep | Claim | RollDice, `choose_action`,
  `bot_name(level, index)`.
- `hints`: `hint_for(game)` -> Hint (structured), `format_hint(hint)` -> text via `t()`.
- `policy`: `evaluate(position, kept, roll)` / `evaluate_game(game, objective)`: every
  open action valued, best first: Hard's estimated chance to win the game after the
  turn (`Objective.WIN`, the default; model in `outlook`) or the expected change of the
  player's worms this turn (`Objective.WORMS`, Normal's).
- `odds`: `tile_odds(kept)`: best chances of a sum >= T or == T with a worm;
  `python -m bot.games.pickomino.ai.odds` prints them as JSON. (Not imported here, so
  that running it as a module does not import it twice.)
- `solver`, `states`, `rolls`, `position`: the dynamic programming underneath;
  `warm_up()` builds its shared tables (about 0.3 s) ahead of the first decision.
"""

from bot.games.pickomino.ai.hints import Hint, KeepHint, RollHint, format_hint, hint_for
from bot.games.pickomino.ai.players import (
    Decision,
    Level,
    RollDice,
    bot_name,
    choose_action,
    decide,
)
from bot.games.pickomino.ai.policy import ActionValue, Evaluation, Move, evaluate, evaluate_game
from bot.games.pickomino.ai.position import Objective, Position
from bot.games.pickomino.ai.solver import warm_up

__all__ = [
    "ActionValue",
    "Decision",
    "Evaluation",
    "Hint",
    "KeepHint",
    "Level",
    "Move",
    "Objective",
    "Position",
    "RollDice",
    "RollHint",
    "bot_name",
    "choose_action",
    "decide",
    "evaluate",
    "evaluate_game",
    "format_hint",
    "hint_for",
    "warm_up",
]
