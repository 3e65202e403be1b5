"""Settings: one typed object read from the environment and `.env`."""

from __future__ import annotations

import logging
from enum import StrEnum
from pathlib import Path

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.config.address import parse_host_port
from bot.storage.factory import dialect_of, sqlite_path

# The table's HTTP server when the secret is set and ACTIVITY_ADDR is not.
DEFAULT_ACTIVITY_ADDR = "127.0.0.1:8082"
PUBLIC_KEY_HEX_DIGITS = 64  # an Ed25519 public key: 32 bytes


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
    # from /<game> rules. Unset: that answer is the rules itself, in the reader's language.
    rules_url: str | None = None
    # Sharded processes: this process runs shards SHARD_IDS (e.g. "0,1") of SHARD_COUNT.
    shard_count: int | None = Field(default=None, ge=1)
    shard_ids: str | None = None
    # Requests a second Discord allows the bot token, every shard together (50, unless
    # Discord raised it for a large bot); each process paces its share
    # (bot.connection.global_pace).
    discord_global_rate: float = Field(default=50.0, ge=1, le=100_000)
    # Touched while connected to Discord, for a container health check
    # (bot.observability.heartbeat).
    heartbeat_file: Path | None = None
    # Where the games keep tables they take long to build (Picker's exact tables), so a
    # restart, or another process sharing the folder, loads them instead. Blank: none.
    cache_dir: Path | None = Path("data/cache")
    # Where each shard's gateway session is kept, so that a restarted process resumes it
    # and is sent the clicks made while it was down (bot.connection.gateway_resume), and
    # the clicks not answered yet, which the next process answers if this one dies
    # (bot.connection.inflight). Blank: none.
    gateway_session_dir: Path | None = Path("data/gateway")
    # Roll every die from random.Random(DICE_SEED): the same clicks give the same game,
    # for end-to-end tests and demos. Unset (always, in production): the OS's randomness.
    dice_seed: int | None = None
    # Tests only: how long an interaction's token lasts (Discord's: 15 minutes), so a
    # test against the stand-in can let tokens run out in seconds.
    interaction_token_seconds: float = Field(default=900.0, ge=5, le=900)
    # The table (the games as a Discord Activity): on when the application's OAuth2
    # client secret is set; the page and its API listen on ACTIVITY_ADDR; with the
    # application's public key, the proxy's signature on each request is checked.
    discord_client_secret: SecretStr | None = None
    activity_addr: str | None = None
    discord_public_key: str | None = None

    @field_validator(
        "discord_token",
        "discord_api_base",
        "discord_gateway_url",
        "dev_guild_id",
        "health_addr",
        "shard_count",
        "shard_ids",
        "heartbeat_file",
        "cache_dir",
        "gateway_session_dir",
        "dice_seed",
        "discord_client_secret",
        "activity_addr",
        "discord_public_key",
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

    @field_validator("health_addr", "activity_addr")
    @classmethod
    def _host_and_port(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parse_host_port(value)  # a ValueError names the expected form
        return value.strip()

    @field_validator("discord_client_secret")
    @classmethod
    def _secret_not_blank(cls, value: SecretStr | None) -> SecretStr | None:
        # The blank check above sees a string only before pydantic wraps it.
        if value is None or not value.get_secret_value().strip():
            return None
        return SecretStr(value.get_secret_value().strip())

    @field_validator("discord_public_key")
    @classmethod
    def _public_key_hex(cls, value: str | None) -> str | None:
        if value is None:
            return None
        key = value.strip().lower()
        if len(key) != PUBLIC_KEY_HEX_DIGITS or any(c not in "0123456789abcdef" for c in key):
            raise ValueError(
                f"must be the application's public key, {PUBLIC_KEY_HEX_DIGITS} hex digits "
                "(Developer Portal > General Information > Public Key)"
            )
        return key

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, value: str) -> str:
        dialect_of(value)  # a ValueError names the two accepted forms
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shard_id_list(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = [part.strip() for part in value.split(",")]
        if not all(part.isdigit() for part in parts):
            raise ValueError(f"must be shard numbers separated by commas (e.g. 0,1), not {value!r}")
        return ",".join(str(number) for number in sorted({int(part) for part in parts}))

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        ids = self.shards
        if ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT, the number of shards in all")
            if ids[-1] >= self.shard_count:
                raise ValueError(
                    f"SHARD_IDS {self.shard_ids} must be below SHARD_COUNT {self.shard_count}"
                )
            if self.database_dialect == "sqlite" and len(ids) < self.shard_count:
                raise ValueError(
                    "SHARD_IDS runs only some shards here, so other processes share the "
                    "database, and a SQLite file serves one process: set DATABASE_URL to "
                    "PostgreSQL (postgresql://user:password@host/database)"
                )
        return self

    @model_validator(mode="after")
    def _table_listens(self) -> Settings:
        if self.discord_client_secret is not None and self.activity_addr is None:
            self.activity_addr = DEFAULT_ACTIVITY_ADDR
        return self

    @property
    def table_on(self) -> bool:
        """Whether the table (the games as a Discord Activity) is served: the client
        secret is set."""
        return self.discord_client_secret is not None

    @property
    def database_dialect(self) -> str:
        """ "sqlite" or "postgres"."""
        return dialect_of(self.database_url)

    @property
    def database_path(self) -> Path:
        """The SQLite file: `sqlite:///data/x.db` is relative, `sqlite:////srv/x.db` absolute."""
        return sqlite_path(self.database_url)

    @property
    def shards(self) -> tuple[int, ...] | None:
        """The shard ids this process runs; None: discord.py's single connection, as ever
        (or all SHARD_COUNT shards when only that is set)."""
        if self.shard_ids is not None:
            return tuple(int(part) for part in self.shard_ids.split(","))
        if self.shard_count is not None:
            return tuple(range(self.shard_count))
        return None

    def owns_guild(self, guild_id: int) -> bool:
        """Whether a guild's events come to this process: its shard is one of ours."""
        shards = self.shards
        if shards is None or self.shard_count is None:
            return True
        return (guild_id >> 22) % self.shard_count in shards

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
