"""Every string of the preview's catalog is used by the preview."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_preview_key_is_used():
    keys = json.loads((ROOT / "bot/i18n/en/preview.json").read_text(encoding="utf-8"))
    code = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "bot/preview").glob("*.py"))
    quoted = {f'"{key}"' for key in keys} | {f"'{key}'" for key in keys}
    used = {text[1:-1] for text in quoted if text in code}
    unused = [key for key in keys if key not in used]
    assert unused == []
