"""Right-to-left names in left-to-right sentences: isolated, so the line keeps its order."""

from __future__ import annotations

import pytest

from bot.i18n.bidi import FSI, PDI, is_right_to_left, isolate
from bot.render.names import safe_name


@pytest.mark.parametrize("name", ["Anne", "Zoë ✨", "Дмитрий", "名前", "", "12"])
def test_a_left_to_right_name_is_left_as_it_is(name):
    assert isolate(name) == name
    assert not is_right_to_left(name)


@pytest.mark.parametrize("name", ["مرحبا بالعالم", "שלום", "Sami سامي", "אבי 7"])
def test_a_name_with_right_to_left_letters_is_isolated(name):
    assert is_right_to_left(name)
    assert isolate(name) == f"{FSI}{name}{PDI}"


def test_a_names_own_direction_controls_cannot_flip_the_line():
    # An override (RLO) or an unmatched isolate in a display name would reorder the
    # sentence after it: they are dropped.
    assert isolate("\u202eevil") == "evil"
    assert isolate("Bob\u2067") == "Bob"
    assert isolate("\u202bשלום\u202c") == f"{FSI}שלום{PDI}"


def test_message_names_are_isolated_after_markdown_escaping():
    assert safe_name("مرحبا_بالعالم") == f"{FSI}مرحبا\\_بالعالم{PDI}"
