"""Discord messages drawn offline: HTML that looks like Discord's dark theme, and
screenshots of it in headless Chromium at phone and desktop widths.

    from bot.preview import message_html
    from bot.preview.shoot import screenshot
    html = message_html(payload, names={"123": "Anne"})
    shots = await screenshot([("turn", html)], widths=(390, 800), out_dir="previews")

Platform code: it knows Discord's payloads, no game. `bot.preview.shoot` needs
Playwright and Chromium (dev tools); the HTML needs nothing.
"""

from __future__ import annotations

from bot.preview.html import Author, CommandUse, message_html, page_html, stylesheet

__all__ = ["Author", "CommandUse", "message_html", "page_html", "stylesheet"]
