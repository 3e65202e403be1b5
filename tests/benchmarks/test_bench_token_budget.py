"""bench_token_budget counts a game's requests by route and what they spend of the bot
token's global limit."""

import re

from benchmarks import bench_token_budget


def test_a_game_spends_no_bot_token_request(capsys) -> None:
    bench_token_budget.main(["--games", "1"])
    lines = capsys.readouterr().out.splitlines()
    played = re.fullmatch(
        r"1 game\(s\) of 1 person and 3 computer players: (\d+) computer steps, (\d+) clicks, "
        r"([\d.]+) game-minutes at the default pace",
        lines[0],
    )
    assert played is not None, lines[0]
    assert int(played[1]) > 0 and int(played[2]) > 0 and float(played[3]) > 0
    routes = [re.fullmatch(r"  ([* ]) +(\d+)  (\w+ /\S+)", line) for line in lines[2:-2]]
    assert all(routes) and routes, lines
    # Every answer and edit goes through the interactions' tokens, none through the bot's.
    assert not any(route[1] == "*" for route in routes)
    assert lines[-2] == "bot-token requests: 0 (0.00 per game-minute)"
    assert lines[-1] == "games one token can run at once within 50/s: no limit from these games"
