"""The one door from the score pages to the ephemeral replies: when the platform's error
funnel exists, this import is the one line to change."""

from cogs.pickomino._replies import fail, tell

__all__ = ["fail", "tell"]
