"""The built page and its source, read as files: index.html names hashed assets by
relative URLs and holds no inline script or style (the proxy's CSP allows neither), no
source writes markup (every text, names included, is set as text), and the words the
tests serve have every key the page uses."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import LOCALES
from bot.plugin.table_scene import page_words as catalog_words
from tests.table.page.samples import WORDS

SOURCE = Path(__file__).resolve().parents[3] / "bot/table/page/src"
ASSET = re.compile(r'(?:src|href)="(assets/(?:main|style)-[A-Z0-9]+\.(?:js|css))"')


def test_index_html_names_its_hashed_assets_relatively(dist: Path) -> None:
    html = (dist / "index.html").read_text("utf-8")
    assets = ASSET.findall(html)
    assert sorted(Path(name).suffix for name in assets) == [".css", ".js"]
    assert all((dist / name).is_file() for name in assets)
    assert '="/' not in html, "absolute paths break under the proxy's path prefix"


def test_index_html_has_no_inline_script_or_style(dist: Path) -> None:
    html = (dist / "index.html").read_text("utf-8")
    assert re.findall(r"<script(?![^>]*\ssrc=)[^>]*>", html) == []
    assert "<style" not in html and " style=" not in html
    assert re.findall(r"\son\w+=", html) == [], "no inline event handlers"


def test_the_page_source_never_writes_markup() -> None:
    writers = ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "DOMParser")
    found = [
        f"{path.name}: {writer}"
        for path in sorted(SOURCE.rglob("*"))
        if path.is_file()
        for writer in writers
        if writer in path.read_text("utf-8")
    ]
    assert found == []


def page_words() -> set[str]:
    """The keys words.ts lists in PAGE_WORDS (tsc holds the page's w() calls to them)."""
    source = (SOURCE / "words.ts").read_text("utf-8")
    listed = re.search(r"PAGE_WORDS = \[(.*?)\] as const", source, flags=re.DOTALL)
    assert listed is not None
    return set(re.findall(r"'([a-z_]+)'", listed.group(1)))


def test_the_words_have_every_key_the_page_uses() -> None:
    keys = page_words()
    assert "reconnecting" in keys and len(keys) > 20
    for lang, words in WORDS.items():
        assert keys - set(words) == set(), lang


def test_every_language_has_every_word_the_page_uses() -> None:
    keys = page_words()
    for lang in LOCALES:
        assert keys - set(catalog_words(lang)) == set(), lang
