"""The table's built page (`make page` builds it from `page/` with Node into `page/dist/`,
which the package ships): where it is, and the one line saying how to build it."""

from __future__ import annotations

from pathlib import Path

DIST = Path(__file__).parent / "page" / "dist"

HOW_TO_BUILD = (
    "the table's page is not built, so the bot runs without the table: "
    "run `make page` (needs Node.js 18 or newer) and start the bot again"
)


def built_page(dist: Path = DIST) -> Path | None:
    """The folder holding the built `index.html` and its `assets/`, or None when the page
    was not built (a source checkout without Node)."""
    return dist if (dist / "index.html").is_file() else None
