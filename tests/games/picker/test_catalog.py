"""The engine's refusals: every picker.illegal key it raises exists, every one is raised,
and each formats with the parameters the engine gives it."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import catalog, t

ENGINE = sorted((Path(__file__).resolve().parents[3] / "bot/games/picker/engine").glob("*.py"))
ILLEGAL_KEY = re.compile(r"""["'](picker\.illegal\.[a-z_]+)["']""")


def raised_keys() -> set[str]:
    return {key for path in ENGINE for key in ILLEGAL_KEY.findall(path.read_text("utf-8"))}


def test_every_refusal_key_exists_and_is_raised() -> None:
    keys = {key for key in catalog() if key.startswith("picker.illegal.")}
    assert raised_keys() == keys


def test_every_refusal_formats_with_the_engines_parameters() -> None:
    params = dict(expected=3, count=2, value=7, colour="red")
    for key in raised_keys():
        assert "{" not in t(key, **params)
