"""The bot's settings, read from the environment and `.env`."""

from bot.config.settings import ConfigError, LogFormat, Settings, load_settings

__all__ = ["ConfigError", "LogFormat", "Settings", "load_settings"]
