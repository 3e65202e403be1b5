"""python -m bot.health FILE: exit 0 if the bot touched its HEARTBEAT_FILE lately, else 1
with one `error:` line (bot.observability.heartbeat; compose.yaml's health check)."""

from __future__ import annotations

import sys

from bot.observability.heartbeat import main

if __name__ == "__main__":
    sys.exit(main())
