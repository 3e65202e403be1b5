"""picker.json: every key the Picker code names exists, every key is named, all format."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import catalog, t

SOURCES = sorted((Path(__file__).resolve().parents[3] / "bot/games/picker").rglob("*.py"))
LITERAL_KEY = re.compile(r"""["'](picker\.[a-z_.]+)["']""")


def used_keys() -> set[str]:
    return {key for path in SOURCES for key in LITERAL_KEY.findall(path.read_text("utf-8"))}


def test_every_key_used_exists_and_every_picker_key_is_used() -> None:
    keys = {key for key in catalog() if key.startswith("picker.")}
    assert used_keys() - keys == set()
    assert keys - used_keys() == set()


def test_every_template_formats() -> None:
    params = dict(expected=3, count=2, value=7, colour="red")
    for key in (key for key in catalog() if key.startswith("picker.")):
        assert t(key, **params)
