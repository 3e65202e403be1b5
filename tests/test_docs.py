"""The players' rules document is there, linked from the README, with a place for each
game; the README's links point at files a clone has."""

from __future__ import annotations

import re
from pathlib import Path

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
