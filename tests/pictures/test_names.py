"""Names in pictures: drawn in their own script with the shipped font, never as boxes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from bot.pictures import names
from bot.pictures.names import (
    NAME_FONT,
    _font_for,
    draw_name,
    fit_runs,
    name_runs,
    runs_width,
    visual_order,
)


def drawn(name: str, width: float = 400) -> bytes:
    image = Image.new("RGB", (420, 60))
    draw_name(ImageDraw.Draw(image), (10, 30), name, 32, (255, 255, 255), width)
    return image.tobytes()


def text_of(name: str) -> str:
    return "".join(run.text for run in name_runs(name, 32))


def test_the_shipped_font_and_its_licence_are_in_the_package():
    assert NAME_FONT.stat().st_size > 100_000
    licence = (NAME_FONT.parent / "LICENSE-DejaVu.txt").read_text()
    assert "Bitstream" in licence and "DejaVu changes are in public domain" in licence


@pytest.mark.parametrize(
    ("name", "ascii_stand_in"),
    [("Zoë", "Zoe"), ("Łukasz", "Lukasz"), ("José", "Jose"), ("Dvořák", "Dvorak")],
)
def test_accented_names_keep_their_accents(name: str, ascii_stand_in: str):
    assert text_of(name) == name
    assert drawn(name) != drawn(ascii_stand_in)


@pytest.mark.parametrize("name", ["Дмитрий", "Σοφία", "שלום", "محمد"])
def test_other_scripts_are_drawn_not_replaced(name: str):
    assert text_of(name) == name
    assert drawn(name) != drawn("?" * len(name))


def test_emoji_and_joiners_are_left_out_of_a_name():
    assert text_of("Chloé 🌻") == "Chloé"
    assert text_of("\u202eevil\u200d") == "evil"  # direction marks and joiners
    assert text_of("🎲 Dice 🎲") == "Dice"
    assert text_of("👨‍👩‍👧‍👦") == "?"  # nothing left: a placeholder, never an empty row


def test_a_long_name_is_cut_with_an_ellipsis_within_its_width():
    runs = fit_runs(name_runs("Bartholomew-Zoë " * 6, 32), 200)
    assert runs[-1].text.endswith("…")
    assert runs_width(runs) <= 200


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40))
def test_any_name_gives_drawable_runs(name: str):
    runs = name_runs(name, 22)
    assert runs and all(run.text for run in runs)
    for run in runs:
        for char in run.text:
            assert char == " " or char == "?" or _font_for(char) is not None, repr(char)
    drawn(name, 150)


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Anne", "Anne"),
        ("שלום", "םולש"),  # right to left: the last letter leftmost
        ("Zoë שלום", "Zoë םולש"),  # a left-to-right start keeps its place
        ("שלום 12", "12 םולש"),  # a right-to-left start: its number on the left
    ],
)
def test_without_raqm_a_right_to_left_name_is_put_in_visual_order(name: str, shown: str):
    assert visual_order(name) == shown


def test_without_raqm_the_runs_of_a_right_to_left_name_are_in_visual_order(monkeypatch):
    """The Docker image has FriBiDi, so Pillow lays names out with raqm; without it the
    letters are put in visual order here (unjoined Arabic, but readable), never backwards."""
    monkeypatch.setattr(names, "has_raqm", lambda: False)
    assert text_of("שלום") == "םולש"
    assert text_of("Anne") == "Anne"
