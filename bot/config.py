"""Settings: one typed object read from the environment and `.env`."""

from __future__ import annotations

import logging
from enum import StrEnum
from pathlib import Path

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.observability.address import parse_host_port

SQLITE_PREFIX = "sqlite:///"


class ConfigError(Exception):
    """The configuration cannot start the bot; the message says how to fix it."""


class LogFormat(StrEnum):
    """How log lines look: for people reading a terminal, or one JSON object per line."""

    TEXT = "text"
    JSON = "json"


class Settings(BaseSettings):
    """Everything the bot reads from its environment (names as in `.env.example`)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_url: str = "sqlite:///data/pickomino.db"
    # A rate-limit proxy or local stand-in: REST base (".../api/v10") and gateway websocket.
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    dev_guild_id: int | None = None
    log_level: str = Field(default="INFO")
    log_format: LogFormat = LogFormat.TEXT
    # host:port of the /healthz and /metrics endpoint; None: no endpoint.
    health_addr: str | None = None
    # The pause before each step of a computer player's turn, so people can follow it.
    bot_step_seconds: float = Field(default=1.0, ge=0, le=60)
    # Upload the games' dice and tile pictures as application emojis at start-up (in the
    # background; until it is done, and whenever it fails, messages show Unicode instead).
    emoji_sync: bool = True
    # Where players read docs/RULES.md (e.g. its page in the bot's repository); linked
    # from /pickomino rules. Unset: the rules name the file instead.
    rules_url: str | None = None

    @field_validator(
        "discord_token",
        "discord_api_base",
        "discord_gateway_url",
        "dev_guild_id",
        "health_addr",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # `DEV_GUILD_ID=` in a copied .env.example means "not set", not "invalid".
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if not isinstance(logging.getLevelName(level), int):
            raise ValueError(f"unknown log level {value!r}")
        return level

    @field_validator("log_format", mode="before")
    @classmethod
    def _format_any_case(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("health_addr")
    @classmethod
    def _host_and_port(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parse_host_port(value)  # a ValueError names the expected form
        return value.strip()

    @field_validator("database_url")
    @classmethod
    def _sqlite_only(cls, value: str) -> str:
        if not value.startswith(SQLITE_PREFIX):
            raise ValueError(f"must start with {SQLITE_PREFIX} (e.g. sqlite:///data/pickomino.db)")
        return value

    @property
    def database_path(self) -> Path:
        """The SQLite file: `sqlite:///data/x.db` is relative, `sqlite:////srv/x.db` absolute."""
        return Path(self.database_url.removeprefix(SQLITE_PREFIX))

    @property
    def token(self) -> str:
        if self.discord_token is None:
            raise ConfigError(MISSING_TOKEN)
        return self.discord_token.get_secret_value().strip()


MISSING_TOKEN = (
    "DISCORD_TOKEN is not set: create a bot at https://discord.com/developers/applications "
    "(Bot > Reset Token), then put DISCORD_TOKEN=<token> in .env (see .env.example) "
    "or in the environment."
)


def load_settings(*, require_token: bool = True, **overrides: object) -> Settings:
    """Read and check the settings; raise ConfigError with one line a user can act on.

    ``require_token=False`` is for tools that read other settings (the health probe).
    """
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as error:
        first = error.errors()[0]
        name = str(first["loc"][0]).upper() if first["loc"] else "configuration"
        raise ConfigError(f"{name}: {first['msg']}") from None
    if require_token and (settings.discord_token is None or not settings.token):
        raise ConfigError(MISSING_TOKEN)
    return settings
