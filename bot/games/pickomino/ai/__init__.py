"""Computer opponents and hints from an exact optimal-play solver (pure: no Discord, no I/O).

- `players`: `Level`, `decide(game, level)` -> Keep | Claim | RollDice (with Extrawurm
  also WeaselDice | AcceptFailure), `choose_action`,
  `bot_name(level, index)`.
- `hints`: `hint_for(game)` -> Hint (structured), `format_hint(hint)` -> text via `t()`.
- `policy`: `evaluate(position, kept, roll)` / `evaluate_game(game, objective)`: every
  open action valued, best first: Hard's estimated chance to win the game after the
  turn, at three or more players blended with the finishing order (`Objective.WIN`,
  the default; model in `outlook`), or the expected change of the player's worms this
  turn (`Objective.WORMS`, Normal's).
- `odds`: `tile_odds(kept)`: best chances of a sum >= T or == T with a worm;
  `python -m bot.games.pickomino.ai.odds` prints them as JSON. (Not imported here, so
  that running it as a module does not import it twice.)
- `solver`, `batch`, `rewards`, `states`, `rolls`, `position`: the dynamic programming
  underneath; `warm_up()` builds its shared tables (about 0.55 s with the Extrawurm
  graphs: `python -m benchmarks.bench_startup`) ahead of the first decision.
- `extrawurm`, `extrawurm_solver`, `extrawurm_hints`: the same for the Extrawurm
  expansion (nine dice, the Canned Worm, the Weasel, specialists, Bratwurms).
"""

from pathlib import Path

from bot.games.pickomino.ai.batch import warm_up as _warm_up_batch
from bot.games.pickomino.ai.extrawurm_solver import warm_up as _warm_up_extrawurm
from bot.games.pickomino.ai.hints import Hint, KeepHint, RollHint, format_hint, hint_for
from bot.games.pickomino.ai.players import (
    Decision,
    Level,
    RollDice,
    WeaselDice,
    bot_name,
    carry_out,
    choose_action,
    decide,
)
from bot.games.pickomino.ai.policy import ActionValue, Evaluation, Move, evaluate, evaluate_game
from bot.games.pickomino.ai.position import Objective, Position
from bot.games.pickomino.ai.solver import warm_up as _warm_up_base


def warm_up(cache: Path | None = None) -> None:
    """Build every shared table now rather than at the first decision (off the loop).
    `cache` is not used: these take about half a second to build."""
    _warm_up_base()
    _warm_up_batch()
    _warm_up_extrawurm()


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
    "WeaselDice",
    "bot_name",
    "carry_out",
    "choose_action",
    "decide",
    "evaluate",
    "evaluate_game",
    "format_hint",
    "hint_for",
    "warm_up",
]
