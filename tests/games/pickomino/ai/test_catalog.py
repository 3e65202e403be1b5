"""pickomino.ai.json: every key the AI code asks for exists, and every ai key is asked for."""

from __future__ import annotations

import re
from pathlib import Path

from bot.games.pickomino.ai.players import Level
from bot.games.pickomino.engine import Face
from bot.games.pickomino.engine.specialists import Specialist
from bot.i18n import catalog, t

SOURCES = sorted((Path(__file__).resolve().parents[4] / "bot/games/pickomino/ai").glob("*.py"))
LITERAL_KEY = re.compile(r"""["'](pickomino\.ai\.[a-z_.]+)["']""")


def used_keys() -> set[str]:
    literal = {key for path in SOURCES for key in LITERAL_KEY.findall(path.read_text("utf-8"))}
    # Specialists are named by value; the Raven, never held, has its own claim words.
    named = {
        f"pickomino.ai.extrawurm.specialist.{s.value}"
        for s in Specialist
        if s is not Specialist.RAVEN
    }
    faces = {"worm" if face is Face.WORM else str(int(face)) for face in Face}
    counted = {f"pickomino.ai.hint.kept.{face}" for face in faces} | {"pickomino.ai.hint.dice"}
    plurals = {f"{key}_{form}" for key in counted for form in ("one", "other")}
    levels = {f"pickomino.ai.level.{level.value}" for level in Level}
    return literal - counted | plurals | levels | named


def test_every_key_used_exists_and_every_ai_key_is_used() -> None:
    keys = {key for key in catalog() if key.startswith("pickomino.ai.")}
    assert used_keys() - keys == set()
    assert keys - used_keys() == set()


def test_every_template_formats() -> None:
    params = dict(name="Pip", level="hard", count=2, face="5", dice="3 dice", tile=30)
    params |= dict(worms=2, victim="Anne", claim="30", total=27, advice="Roll.", dice="3 dice")
    params |= dict(odds="about a 3 in 4", steal="about a 1 in 5", why="a tile", n=3, m=4)
    params |= dict(faces="5s", specialist="Weasel", number="two")
    for key in (key for key in catalog() if key.startswith("pickomino.ai.")):
        assert t(key, **params)
