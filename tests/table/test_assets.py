"""Where the table's built page is: a folder with index.html, or None before `make page`."""

from __future__ import annotations

from pathlib import Path

from bot.table.assets import HOW_TO_BUILD, built_page


def test_a_built_page_is_its_folder(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html>", "utf-8")
    assert built_page(tmp_path) == tmp_path


def test_without_index_html_there_is_no_page(tmp_path: Path) -> None:
    assert built_page(tmp_path) is None
    assert built_page(tmp_path / "missing") is None


def test_the_missing_page_line_says_how_to_build_it() -> None:
    assert "make page" in HOW_TO_BUILD
    assert "\n" not in HOW_TO_BUILD
