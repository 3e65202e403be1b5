"""Benchmark the exact solver: a whole turn from 8 fresh dice, and each decision after.

Usage: python -m benchmarks.bench_solver [--positions N] [--seed S] [--players P]
                                         [--only {base,extrawurm}]

With the Extrawurm expansion it times a fresh turn from 9 dice (the Golden Die's
holder) and from 8 with the Weasel (two passes over the graph), the ends of the turn
valued by playing them out on the engine included, and every decision after.

"fresh turn" solves a new position from scratch (the memo cleared each time), as the
first decision of a turn does; "decision" is every later decision of that turn, from
the memoized solution; "first hint" adds the tile chances a hint shows. Each line
gives wall-clock and CPU time: on a shared machine the CPU time is the fairer one.
The one-off build of the state graph is timed apart. Positions are of P players (2 by
default: Hard's look-ahead at the opponent's answer); with three or more, Hard values
each end by its blend of the chance to win and the finishing order, and a hint follows
its play to the chance to win.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from benchmarks.support.arguments import positive
from benchmarks.support.stats import percentile
from bot.games.pickomino.ai import extrawurm
from bot.games.pickomino.ai.batch import start_values
from bot.games.pickomino.ai.batch import warm_up as batch_warm_up
from bot.games.pickomino.ai.extrawurm import evaluate_extrawurm
from bot.games.pickomino.ai.extrawurm_hints import extrawurm_hint_for
from bot.games.pickomino.ai.extrawurm_solver import solve as extrawurm_solve
from bot.games.pickomino.ai.extrawurm_solver import warm_up as extrawurm_warm_up
from bot.games.pickomino.ai.hints import hint_for
from bot.games.pickomino.ai.players import Level, carry_out, decide
from bot.games.pickomino.ai.policy import evaluate, evaluate_game
from bot.games.pickomino.ai.position import Objective, Position
from bot.games.pickomino.ai.solver import TurnValues, solve
from bot.games.pickomino.ai.states import state_graph
from bot.games.pickomino.engine import (
    ALL_TILES,
    EXTRAWURM_LAYOUT,
    SETUP_TILES,
    Game,
    Rules,
    Specialist,
)
from bot.games.pickomino.engine.game import PLAYER_COUNTS


class Timings:
    """Wall-clock and CPU samples of one kind of call."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def time(self, call: Callable[[], object]) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        call()
        self.cpu.append(time.process_time() - cpu)
        self.wall.append(time.perf_counter() - wall)

    def report(self) -> str:
        if not self.wall:  # the positions alternate between kinds: too few for this one
            return f"{self.label:<36} no samples"
        return (
            f"{self.label:<36} wall {percentiles(self.wall)}   cpu {percentiles(self.cpu)}"
            f"   ({len(self.wall)} samples)"
        )


def percentiles(samples: list[float]) -> str:
    p50, p99 = percentile(samples, 0.5), percentile(samples, 0.99)
    return f"p50 {p50 * 1000:6.2f} ms p99 {p99 * 1000:6.2f} ms"


def split_tiles(rng: random.Random) -> tuple[list[int], list[int]]:
    """Grill tiles partway through a game: some taken (in stacks), some turned over."""
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    taken = rng.randrange(0, 12)
    return tiles[:taken], tiles[taken : taken + rng.randrange(0, 3)]


def seat_names(players: int) -> list[str]:
    """The bot last, after anne and the other opponents."""
    return ["anne", *(f"opponent{seat}" for seat in range(2, players)), "bot"]


def random_game(rng: random.Random, players: int = 2) -> Game:
    """A game partway through: some tiles in stacks, some turned over; the bot to move."""
    held, turned = split_tiles(rng)
    names = seat_names(players)
    return Game.from_position(
        names,
        grill=set(ALL_TILES) - set(held) - set(turned),
        face_down=turned,
        stacks={name: held[seat::players] for seat, name in enumerate(names)},
        current=players - 1,
    )


def random_extrawurm_game(rng: random.Random, held: Specialist, players: int = 2) -> Game:
    """An Extrawurm game partway through, the bot to move holding `held`."""
    stacked, turned = split_tiles(rng)
    grill = sorted({11, 13, *ALL_TILES} - set(stacked) - set(turned))
    places: dict[Specialist, int | str | None] = {
        specialist: tile if tile in grill else None for specialist, tile in SETUP_TILES.items()
    }
    places[held] = "bot"
    if rng.random() < 0.5:
        other = rng.choice([s for s in Specialist if s not in (held, Specialist.RAVEN)])
        places[other] = "anne"
    names = seat_names(players)
    # Up to two Bratwurms each, while the supply lasts (7: five seats cannot all hold two).
    bratwurms, left = {}, EXTRAWURM_LAYOUT.bratwurms
    for name in names:
        bratwurms[name] = min(rng.randrange(3), left)
        left -= bratwurms[name]
    return Game.from_position(
        names,
        Rules(extrawurm=True),
        grill=grill,
        face_down=turned,
        stacks={name: stacked[seat::players] for seat, name in enumerate(names)},
        current=players - 1,
        specialists=places,
        bratwurms=bratwurms,
    )


def bench_extrawurm(rng: random.Random, positions: int, players: int = 2) -> None:
    started = time.perf_counter()
    extrawurm_warm_up()  # both graphs and their layouts for the hints' chances
    batch_warm_up()  # the look-ahead's answers (two players)
    elapsed = time.perf_counter() - started
    print(f"Extrawurm tables (once per process, as ai.warm_up): {elapsed:.3f} s")
    nine = Timings("Extrawurm fresh turn, 9 dice (Golden)")
    weasel = Timings("Extrawurm fresh turn, 8 dice + Weasel")
    hints = Timings("Extrawurm first hint of a turn")
    decisions = Timings("Extrawurm each decision after that")
    for index in range(positions):
        held = Specialist.GOLDEN_DIE if index % 2 == 0 else Specialist.WEASEL
        game = random_extrawurm_game(rng, held, players)
        extrawurm_solve.cache_clear()
        extrawurm._TABLES.clear()
        timings = nine if held is Specialist.GOLDEN_DIE else weasel
        timings.time(lambda game=game: evaluate_extrawurm(game))
        hints.time(lambda game=game: extrawurm_hint_for(game))
        turn = game.turn_number
        while not game.is_over and game.turn_number == turn:
            decisions.time(lambda game=game: evaluate_extrawurm(game))
            decision = decide(game, Level.HARD)
            carry_out(game, decision, rng)
    for timings in (nine, weasel, decisions, hints):
        print(timings.report())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=positive, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--players", type=int, choices=PLAYER_COUNTS, default=2, help="players a position"
    )
    parser.add_argument("--only", choices=("base", "extrawurm"), help="one part only")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"positions of {args.players} players")
    if args.only != "extrawurm":
        bench_base(rng, args.positions, args.players)
    if args.only != "base":
        bench_extrawurm(rng, args.positions, args.players)


def bench_base(rng: random.Random, positions: int, players: int = 2) -> None:
    started = time.perf_counter()
    graph = state_graph()
    print(
        f"state graph (once per process): {time.perf_counter() - started:.3f} s, "
        f"{len(graph.states)} states, {graph.outcome_count} outcomes"
    )

    fresh = Timings("fresh turn (solve from 8 dice)")
    hints = Timings("first hint of a turn")
    decisions = Timings("each decision after that")
    for _ in range(positions):
        game = random_game(rng, players)
        solve.cache_clear()
        fresh.time(lambda game=game: evaluate(Position.from_game(game, Objective.WIN)))
        hints.time(lambda game=game: hint_for(game))
        turn = game.turn_number
        while not game.is_over and game.turn_number == turn:
            decisions.time(lambda game=game: evaluate_game(game))
            carry_out(game, decide(game, Level.HARD), rng)
    for timings in (fresh, decisions, hints):
        print(timings.report())
    bench_answers(rng, positions)


ANSWERS = 18  # the ends of a turn early in a game: 16 grill tiles, a steal, a failure


def bench_answers(rng: random.Random, positions: int) -> None:
    """The look-ahead's work at a turn's first decision, batched and one table at a time."""
    batched = Timings(f"{ANSWERS} answers at once (batch.py)")
    one_by_one = Timings(f"{ANSWERS} answers one by one")
    for _ in range(max(1, positions // 10)):
        answers = [Position.from_game(random_game(rng)) for _ in range(ANSWERS)]
        tables = [(position.rewards(), position.fail_value) for position in answers]
        batched.time(lambda tables=tables: start_values(tables))
        one_by_one.time(lambda tables=tables: [TurnValues(*table) for table in tables])
    print(batched.report())
    print(one_by_one.report())


if __name__ == "__main__":
    main()
