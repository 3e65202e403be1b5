"""Text for a page (the table): the live message's functions write names as given, no
bold and Unicode pictures inside `plain_text()`, and markdown again after it."""

from __future__ import annotations

from bot.games.picker.words import die_text
from bot.render.emoji import remember, show
from bot.render.names import safe_name
from bot.render.plain_text import bold, is_plain, plain_text, unmarked


def test_names_are_escaped_for_a_message_and_as_given_on_a_page():
    name = "<b>Anne</b>_**x**"
    assert safe_name(name) == "<b>Anne</b>\\_\\*\\*x\\*\\*"
    with plain_text():
        assert is_plain()
        assert safe_name(name) == name
    assert not is_plain()
    assert safe_name(name) == "<b>Anne</b>\\_\\*\\*x\\*\\*"  # the cache keeps the two apart


def test_a_page_names_keep_their_clip_and_their_isolation():
    with plain_text():
        assert safe_name("x" * 40) == "x" * 31 + "…"
        assert safe_name("مرحبا") == "\u2068مرحبا\u2069"


def test_a_page_shows_the_unicode_fallback_even_when_the_application_has_the_emoji():
    remember({"pk1_die_5": "<:pk1_die_5:123>"})
    try:
        assert show("pk1_die_5", "5️⃣") == "<:pk1_die_5:123>"
        with plain_text():
            assert show("pk1_die_5", "5️⃣") == "5️⃣"
    finally:
        remember({})


def test_bold_and_a_die_are_markdown_in_a_message_only():
    assert bold("5") == "**5**" and die_text("red", 5) == "🔴**5**"
    with plain_text():
        assert bold("5") == "5" and die_text("red", 5) == "🔴5"
    assert unmarked("**Extrawurm:** on") == "Extrawurm: on"
