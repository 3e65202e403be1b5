"""The players' rules document is there, linked from the README, with a place for each
game; the README's links point at files a clone has, and its invite link asks for the
permissions the bot checks."""

from __future__ import annotations

import re
from pathlib import Path

from bot.ui.permissions import INVITE

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_links_only_files_of_the_repository():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\((?!https?://|#)([^)#]+)", readme)
    assert "docs/RULES.md" in targets
    missing = [target for target in targets if not (ROOT / target).exists()]
    assert missing == []


def test_the_rules_have_a_section_per_game():
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", rules, flags=re.MULTILINE)
    assert headings == ["Pickomino", "Pickomino with the Extrawurm expansion", "Picker"]


def test_the_invite_link_asks_for_what_the_bot_checks_before_a_game():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (asked,) = re.findall(r"oauth2/authorize\?[^`\s]*permissions=(\d+)", readme)
    # View Channels, Send Messages, Embed Links, Attach Files, Read Message History, and
    # Send Messages in Threads, by Discord's bit numbers.
    bits = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 38)
    assert int(asked) == bits == INVITE.value
    named = ("View Channels", "Send Messages", "Send Messages in Threads", "Embed Links")
    for name in (*named, "Attach Files", "Read Message History"):
        assert f"**{name}**" in readme
