"""Start-up configuration: one typed object, and a clear exit without a token."""

from __future__ import annotations

import random
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import EXIT_CONFIG, GIL_SWITCH_SECONDS, main
from bot.config import ConfigError, LogFormat, Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
VARIABLES = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "BOT_STEP_SECONDS",
    "LOG_FORMAT",
    "HEALTH_ADDR",
    "SHARD_COUNT",
    "SHARD_IDS",
    "HEARTBEAT_FILE",
    "DICE_SEED",
    "DISCORD_CLIENT_SECRET",
    "ACTIVITY_ADDR",
    "DISCORD_PUBLIC_KEY",
)


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch, tmp_path):
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here


def test_defaults_and_blank_optional_values(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", " abc ")
    monkeypatch.setenv("DEV_GUILD_ID", "")
    monkeypatch.setenv("DISCORD_API_BASE", "")
    settings = load_settings()
    assert settings.token == "abc"
    assert settings.database_path == Path("data/pickomino.db")
    assert settings.dev_guild_id is None and settings.discord_api_base is None
    assert settings.log_level == "INFO"
    assert settings.bot_step_seconds == 1.0
    assert settings.log_format is LogFormat.TEXT
    assert settings.health_addr is None
    assert settings.dice_seed is None


def test_dice_seed_pins_the_dice_and_unset_leaves_them_to_the_os(monkeypatch):
    from bot.app.client import dice_source

    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DICE_SEED", "41")
    first, second = dice_source(load_settings()), dice_source(load_settings())
    assert [first.randint(1, 6) for _ in range(30)] == [second.randint(1, 6) for _ in range(30)]
    monkeypatch.setenv("DICE_SEED", "")
    assert isinstance(dice_source(load_settings()), random.SystemRandom)
    monkeypatch.setenv("DICE_SEED", "a few")
    with pytest.raises(ConfigError):
        load_settings()


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("127.0.0.1:8081", "127.0.0.1:8081"),
        (" 0.0.0.0:8081 ", "0.0.0.0:8081"),
        ("[::]:65535", "[::]:65535"),
        ("health:1", "health:1"),
        ("", None),
    ],
)
def test_the_health_endpoint_address(monkeypatch, value, expected):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("HEALTH_ADDR", value)
    assert load_settings().health_addr == expected


@pytest.mark.parametrize("value", ["8081", "127.0.0.1", ":8081", "localhost:0", "h:65536", "h:x"])
def test_a_health_address_without_host_and_port_is_refused(monkeypatch, value):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("HEALTH_ADDR", value)
    with pytest.raises(ConfigError, match=r"^HEALTH_ADDR: .*must be host:port"):
        load_settings()


@pytest.mark.parametrize(
    ("value", "expected"), [("json", LogFormat.JSON), (" JSON", "json"), ("text", "text")]
)
def test_the_log_format(monkeypatch, value, expected):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("LOG_FORMAT", value)
    assert load_settings().log_format == expected


def test_an_unknown_log_format_is_refused(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("LOG_FORMAT", "yaml")
    with pytest.raises(ConfigError, match=r"^LOG_FORMAT: .*'text' or 'json'"):
        load_settings()


def test_tools_can_read_the_settings_without_a_token(monkeypatch):
    monkeypatch.setenv("HEALTH_ADDR", "127.0.0.1:8081")
    assert load_settings(require_token=False).health_addr == "127.0.0.1:8081"


def test_the_pause_between_computer_player_steps(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("BOT_STEP_SECONDS", "0.25")
    assert load_settings().bot_step_seconds == 0.25
    monkeypatch.setenv("BOT_STEP_SECONDS", "-1")
    with pytest.raises(ConfigError, match="BOT_STEP_SECONDS"):
        load_settings()


def test_values_from_a_dotenv_file(tmp_path):
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=from-file\nDEV_GUILD_ID=42\nLOG_LEVEL=debug\n"
        "DATABASE_URL=sqlite:////srv/pickomino.db\n"
    )
    settings = load_settings()
    assert settings.token == "from-file"
    assert settings.dev_guild_id == 42
    assert settings.log_level == "DEBUG"
    assert settings.database_path == Path("/srv/pickomino.db")


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://bot:secret@db.internal:5432/pickomino",
        "postgres://bot@localhost/pickomino",
        "postgresql://bot@/pickomino?host=/run/postgresql",
    ],
)
def test_a_postgresql_url_selects_postgresql(monkeypatch, url):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DATABASE_URL", url)
    settings = load_settings()
    assert settings.database_dialect == "postgres" and settings.database_url == url


def test_without_shard_settings_one_process_owns_every_guild(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    settings = load_settings()
    assert settings.shards is None
    assert settings.owns_guild(123 << 22)


def test_a_process_runs_the_shards_it_is_given(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@db/pickomino")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", " 1, 0")
    settings = load_settings()
    assert settings.shards == (0, 1)
    owned = [shard for shard in range(8) if settings.owns_guild(shard << 22)]
    assert owned == [0, 1, 4, 5]


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "below SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
    ],
)
def test_shards_that_cannot_be_run_are_refused(monkeypatch, variables, message):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@db/pickomino")
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=message):
        load_settings()


def test_sqlite_is_not_shared_between_shard_processes(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("SHARD_COUNT", "2")
    assert load_settings().shards == (0, 1)  # both shards in one process: fine on SQLite
    monkeypatch.setenv("SHARD_IDS", "1")
    with pytest.raises(ConfigError, match=r"SQLite file serves one process.*postgresql://"):
        load_settings()


def test_a_missing_token_is_a_config_error():
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is not set"):
        load_settings()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEV_GUILD_ID", "abc"),
        ("LOG_LEVEL", "LOUD"),
        ("DATABASE_URL", "mysql://x"),
        ("SHARD_IDS", "0,one"),
    ],
)
def test_bad_values_name_the_variable(monkeypatch, name, value):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=name):
        load_settings()


def test_main_exits_2_with_one_line_without_a_token(capsys):
    default = sys.getswitchinterval()
    try:
        assert main([]) == EXIT_CONFIG
        # The bot's process hands the GIL back to the event loop within a millisecond.
        assert sys.getswitchinterval() == pytest.approx(GIL_SWITCH_SECONDS)
    finally:
        sys.setswitchinterval(default)
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert ".env" in err and ".env.example" in err and "discord.com/developers" in err


def test_python_dash_m_bot_exits_2(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: DISCORD_TOKEN is not set")


def test_an_unreachable_discord_is_one_error_line_not_a_traceback(tmp_path):
    closed_port = socket.socket()
    closed_port.bind(("127.0.0.1", 0))  # bound but never listening: connections refused
    port = closed_port.getsockname()[1]
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "token",
        "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/",
        "DATABASE_URL": f"sqlite:///{tmp_path}/bot.db",
    }
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bot"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        closed_port.close()
    assert done.returncode == 1
    last_line = done.stderr.strip().splitlines()[-1]
    assert last_line.startswith(f"error: cannot reach Discord (http://127.0.0.1:{port}/api/v10)")
    assert "Traceback" not in done.stderr


def test_settings_is_the_only_reader_of_the_environment():
    assert Settings.model_config.get("env_file") == ".env"


def test_every_setting_is_documented_in_env_example_and_configuration():
    example = (ROOT / ".env.example").read_text()
    reference = (ROOT / "docs" / "CONFIGURATION.md").read_text()
    variables = {name.upper() for name in Settings.model_fields}
    # Each has its paragraph, opening with its name in bold: none missing, none stale.
    assert set(re.findall(r"^\*\*`([A-Z_]+)`\*\*", reference, flags=re.MULTILINE)) == variables
    for variable in variables:
        assert f"{variable}=" in example, variable


def test_the_cache_folder_defaults_beside_the_database_and_blank_turns_it_off(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    assert load_settings().cache_dir == Path("data/cache")
    monkeypatch.setenv("CACHE_DIR", "/srv/bot/cache")
    assert load_settings().cache_dir == Path("/srv/bot/cache")
    monkeypatch.setenv("CACHE_DIR", " ")
    assert load_settings().cache_dir is None


KEY = "4d6f8a1c2b3e5f7091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7a8"


def test_the_table_is_off_without_a_client_secret(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", " ")
    settings = load_settings()
    assert not settings.table_on
    assert settings.discord_client_secret is None and settings.activity_addr is None
    assert settings.discord_public_key is None


def test_a_client_secret_turns_the_table_on_at_its_default_address(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", " s3cret ")
    settings = load_settings()
    assert settings.table_on
    assert settings.discord_client_secret is not None
    assert settings.discord_client_secret.get_secret_value() == "s3cret"
    assert "s3cret" not in repr(settings)  # a secret is never printed
    assert settings.activity_addr == "127.0.0.1:8082"


def test_the_tables_address_and_the_public_key(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", "s3cret")
    monkeypatch.setenv("ACTIVITY_ADDR", " 0.0.0.0:9000 ")
    monkeypatch.setenv("DISCORD_PUBLIC_KEY", f" {KEY.upper()} ")
    settings = load_settings()
    assert settings.activity_addr == "0.0.0.0:9000"
    assert settings.discord_public_key == KEY


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("ACTIVITY_ADDR", "8082", r"^ACTIVITY_ADDR: .*must be host:port"),
        ("ACTIVITY_ADDR", "127.0.0.1:70000", r"^ACTIVITY_ADDR: .*must be host:port"),
        ("DISCORD_PUBLIC_KEY", KEY[:-2], r"^DISCORD_PUBLIC_KEY: .*64 hex digits"),
        ("DISCORD_PUBLIC_KEY", KEY[:-1] + "g", r"^DISCORD_PUBLIC_KEY: .*64 hex digits"),
    ],
)
def test_a_bad_table_setting_is_one_clear_line(monkeypatch, name, value, message):
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", "s3cret")
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=message) as refused:
        load_settings()
    assert "\n" not in str(refused.value)


def test_python_dash_m_bot_names_a_bad_public_key_in_one_error_line(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "abc",
        "DISCORD_PUBLIC_KEY": "not-hex",
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: DISCORD_PUBLIC_KEY: ")
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
