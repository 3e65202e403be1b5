"""Embeds and button layouts built from a session (no I/O, no state)."""
