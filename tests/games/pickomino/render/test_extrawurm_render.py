"""The live message of an Extrawurm game shows the expansion: 11 and 13 on the grill,
where each specialist sits or who holds it, extra tiles and Bratwurms, and the Weasel."""

from __future__ import annotations

import random

from bot.games.pickomino.adapter import PickominoAdapter
from bot.games.pickomino.engine import Phase
from bot.games.pickomino.plugin import PICKOMINO
from bot.render.session_message import render_session
from bot.sessions.model import Seat, Session, Status


def _session(seed: int) -> Session:
    seats = [Seat(101, "Anne"), Seat(102, "Bob")]
    session = Session("pickomino", 1, 2, 101, seats, id=5, version=1, status=Status.PLAYING)
    session.options = {"extrawurm": True}
    session.game = PickominoAdapter().new_game(["101", "102"], session.options, random.Random(seed))
    return session


def _text(session: Session) -> str:
    rendered = render_session(session, PICKOMINO)
    return "\n".join(getattr(block, "content", "") for block in rendered.blocks)


def test_the_grill_shows_11_and_13_and_the_specialists_on_their_tiles():
    text = _text(_session(1))
    assert "**11**🥫" in text and "**13**" in text
    for mark in ("**21**🐔", "**23**🦦", "**25**🐦‍⬛", "**27**🎲"):
        assert mark in text


def test_a_weasel_holder_with_no_new_face_chooses_between_the_weasel_and_the_bust():
    adapter = PickominoAdapter()
    for seed in range(400):
        session = _session(seed)
        game, rng = session.game, random.Random(seed)
        while not game.is_over and game.phase is not Phase.NO_NEW_FACE:
            move = adapter.bot_move(adapter.copy(game), "easy")
            if move == "weasel":  # the easy bot would take the Weasel: stop just before
                break
            adapter.play(game, game.current_player, move, rng)
        if game.phase is Phase.NO_NEW_FACE:
            labels = [b.label for row in render_session(session, PICKOMINO).layout for b in row]
            assert "Weasel" in labels and "Take the bust" in labels
            holder = game.current_player
            name = session.name_of(holder)
            player_lines = [line for line in _text(session).splitlines() if "▶️" in line]
            assert any(name in line and "🦦" in line for line in player_lines), player_lines
            return
    raise AssertionError("no game reached a roll with no new face for the Weasel's holder")
