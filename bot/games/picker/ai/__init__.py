"""Picker's computer players and hints (pure: no Discord, no I/O)."""

from bot.games.picker.ai.hints import Hint, HintOption, HintReason, hint_for
from bot.games.picker.ai.players import Level, decide, timeout_pick

__all__ = ["Hint", "HintOption", "HintReason", "Level", "decide", "hint_for", "timeout_pick"]
