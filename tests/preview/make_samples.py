"""Write tests/preview/samples/pickomino.json: the bot's own messages (a lobby, a
5-player game mid-turn, the tallest turn, the final screen) as discord.py sends them,
drawn by the tests and by
`python -m bot.preview tests/preview/samples/pickomino.json --out previews`.

Run again after the game's rendering changes: python -m tests.preview.make_samples
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from bot.games.pickomino.adapter import PickominoAdapter
from bot.games.pickomino.ai import Level
from bot.games.pickomino.engine import ALL_TILES, Face, Game, LowerTile, Phase, Rules
from bot.games.pickomino.plugin import PICKOMINO
from bot.plugin.session_message import render_session
from bot.sessions.model import Ending, Seat, Session, Status
from bot.ui.components import message_view

ADAPTER = PickominoAdapter()
COMPONENTS_V2 = 1 << 15
SAMPLES = Path(__file__).parent / "samples" / "pickomino.json"
PEOPLE = ["Anne", "Bartholomew", "Chloé 🌻", "dmitri_the_dice_lord", "Eve", "Fatima", "Gus"]
BASE_ID = 412_345_678_901_234_560
STARTED = 1_790_000_000.0  # a fixed clock: the turn timer's <t:…:R> is "in 5 minutes"


def _payload(session: Session) -> dict[str, Any]:
    """The message body discord.py sends for the live message."""
    rendered = render_session(session, PICKOMINO)
    return {"flags": COMPONENTS_V2, "components": message_view(rendered).to_components()}


def _session(people: int, bots: int = 0, rules: Rules | None = None) -> Session:
    seats = [Seat(BASE_ID + i, PEOPLE[i]) for i in range(people)]
    seats += [
        Seat(-1 - i, ADAPTER.bot_name("normal", i), is_bot=True, bot_level=Level.NORMAL.value)
        for i in range(bots)
    ]
    return Session(
        kind="pickomino",
        guild_id=BASE_ID,
        channel_id=BASE_ID + 99,
        host_id=seats[0].user_id,
        seats=seats,
        options=(rules or Rules()).to_dict(),
        timer_seconds=300,
        id=1042,
        version=3,
    )


def lobby() -> Session:
    return _session(3, bots=1)


def mid_turn(seed: int = 7) -> Session:
    """A 5-player game some turns in: a person to move, who has kept dice and may roll
    again or take a tile."""
    session = _session(4, bots=1)
    game = Game([seat.player_id for seat in session.seats])
    session.game, session.status = game, Status.PLAYING
    adapter = PickominoAdapter()
    rng = random.Random(seed)
    while not game.is_over:
        to_move = session.seat_by_player(game.current_player)
        assert to_move is not None
        ready = (
            game.turn_number >= 14
            and not to_move.is_bot
            and game.phase is Phase.ROLL
            and len(game.kept) >= 4
            and game.claim_options()
        )
        if ready:
            session.clock.turn_started = STARTED
            return session
        level = to_move.bot_level or "normal"
        session.remember(
            adapter.play(game, game.current_player, adapter.bot_move(game, level), rng)
        )
        session.version += 1
    return mid_turn(seed + 1)  # this game never stopped at such a moment: play another


def most_buttons() -> Session:
    """The tallest turn: 7 players, any lower tile, 8 worms kept (40) and 14 grill tiles
    below it, so 14 claim buttons in 5 rows; a few tiles already in stacks."""
    rules = Rules(lower_tile=LowerTile.ANY)
    session = _session(7, rules=rules)
    game = Game([seat.player_id for seat in session.seats], rules)
    game.kept, game.phase = [Face.WORM] * 8, Phase.CLAIM
    game.grill, game.face_down = list(ALL_TILES[:14]), []
    for player, tile in zip(game.players[1:], ALL_TILES[14:], strict=False):
        game.stacks[player].append(tile)
    session.game, session.status, session.clock.turn_started = game, Status.PLAYING, STARTED
    session.version = 212
    return session


def final(seed: int = 7) -> Session:
    session = mid_turn(seed)
    game = session.game
    adapter = PickominoAdapter()
    rng = random.Random(seed)
    while not game.is_over:
        session.remember(
            adapter.play(game, game.current_player, adapter.bot_move(game, "normal"), rng)
        )
        session.version += 1
    session.status, session.ending, session.clock.turn_started = Status.OVER, Ending.FINISHED, None
    return session


def samples() -> list[dict[str, Any]]:
    names = {str(BASE_ID + i): name for i, name in enumerate(PEOPLE)}
    command = {"user": PEOPLE[0], "command": "pickomino start"}
    now = STARTED + 60
    return [
        {"name": "lobby", "payload": _payload(lobby()), "command": command, "now": now},
        {"name": "turn-5-players", "payload": _payload(mid_turn()), "names": names, "now": now},
        {"name": "turn-7-players-14-claims", "payload": _payload(most_buttons()), "now": now},
        {"name": "final", "payload": _payload(final()), "names": names, "now": now},
    ]


def main() -> None:
    SAMPLES.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(samples(), indent=1, ensure_ascii=False)
    SAMPLES.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {SAMPLES}")


if __name__ == "__main__":
    main()
