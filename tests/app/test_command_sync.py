"""Command sync that matches Discord: the comparison of the wanted commands with Discord's
answer (bot/app/command_sync.py), then the sync at start-up through the in-process Discord
(`DiceBot.sync_commands`): reads first, overwrites only what differs; the Entry Point
(the table's, or Discord's own kept) in the global scope."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.app.command_sync import (
    MalformedCommands,
    Target,
    differences,
    entry_point_of,
    guild_ids,
    keeping_entry_point,
    normalise,
    targets,
)
from bot.devserver.payloads import APPLICATION_ID, GUILD_ID
from bot.i18n import catalog
from bot.storage.protocols import DatabaseBusy
from tests.discord_harness import BotHarness, FakeDiscord

GLOBAL = "/applications/{application_id}/commands"
GUILD = "/applications/{application_id}/guilds/{guild_id}/commands"


# --------------------------------------------------------------------------- comparison


def wanted() -> list[dict[str, Any]]:
    """Two commands as discord.py sends them (a translated payload)."""
    return [
        {
            "name": "dice",
            "description": "Play dice",
            "type": 1,
            "nsfw": False,
            "dm_permission": False,
            "default_member_permissions": None,
            "contexts": [0],
            "integration_types": None,
            "name_localizations": {},
            "description_localizations": {"de": "Würfeln", "fr": "Jouer aux dés"},
            "options": [
                {
                    "name": "start",
                    "description": "Open a lobby",
                    "type": 1,
                    "name_localizations": {"de": "starten"},
                    "description_localizations": {},
                    "options": [
                        {
                            "type": 4,
                            "name": "timer",
                            "description": "Time per turn",
                            "required": False,
                            "choices": [
                                {"name": "1 min", "value": 60, "name_localizations": {}},
                                {"name": "5 min", "value": 300, "name_localizations": {}},
                            ],
                            "name_localizations": {},
                            "description_localizations": {"de": "Zeit pro Zug"},
                        },
                        {
                            "type": 5,
                            "name": "hints",
                            "description": "Offer hints",
                            "required": True,
                            "name_localizations": {},
                            "description_localizations": {},
                        },
                    ],
                },
            ],
        },
        {
            "name": "admin",
            "description": "Set the bot up",
            "type": 1,
            "nsfw": False,
            "dm_permission": True,
            "default_member_permissions": 32,
            "contexts": None,
            "integration_types": None,
            "name_localizations": {},
            "description_localizations": {},
        },
    ]


def discords_answer(commands: list[dict[str, Any]], *, guild: bool = False) -> list[dict[str, Any]]:
    """What Discord answers for them: in another order, with its own fields, its
    defaults filled in, nulls for empty localizations and `required` only when true."""

    def option(sent: dict[str, Any]) -> dict[str, Any]:
        answered = {key: value for key, value in sent.items() if key != "required"}
        if sent.get("required"):
            answered["required"] = True
        for field in ("name_localizations", "description_localizations"):
            answered[field] = sent.get(field) or None
        if "options" in sent:
            answered["options"] = [option(nested) for nested in sent["options"]]
        return answered

    answer = []
    for index, sent in enumerate(reversed(commands)):
        permissions = sent["default_member_permissions"]
        answered = {
            "id": str(1000 + index),
            "application_id": str(APPLICATION_ID),
            "version": str(2000 + index),
            "default_member_permissions": None if permissions is None else str(permissions),
            "type": 1,
            "name": sent["name"],
            "name_localizations": sent["name_localizations"] or None,
            "description": sent["description"],
            "description_localizations": sent["description_localizations"] or None,
            "nsfw": False,
            "default_permission": True,
        }
        if guild:
            answered["guild_id"] = str(GUILD_ID)
        else:
            answered["contexts"] = sent["contexts"]
            answered["integration_types"] = [0]
            answered["dm_permission"] = sent["dm_permission"]
        if "options" in sent:
            answered["options"] = [option(nested) for nested in sent["options"]]
        # Keys in another order too.
        answer.append(dict(reversed(list(answered.items()))))
    return answer


@pytest.mark.parametrize("guild", [False, True])
def test_discords_copy_of_the_commands_compares_equal(guild):
    assert differences(wanted(), discords_answer(wanted(), guild=guild), guild=guild) == []


def test_both_empty_compare_equal():
    assert differences([], [], guild=False) == []


def test_a_changed_description_differs():
    answer = discords_answer(wanted())
    changed = wanted()
    changed[1]["description"] = "Set the bot up, now"
    assert differences(changed, answer, guild=False) == ["/admin differs"]


def test_a_changed_or_added_localization_differs():
    answer = discords_answer(wanted())
    changed = wanted()
    timer = changed[0]["options"][0]["options"][0]
    timer["description_localizations"]["de"] = "Bedenkzeit"
    assert differences(changed, answer, guild=False) == ["/dice differs"]
    added = wanted()
    added[0]["options"][0]["options"][0]["choices"][1]["name_localizations"] = {"de": "5 Min."}
    assert differences(added, answer, guild=False) == ["/dice differs"]


def test_an_added_option_differs_and_so_does_the_order_of_options():
    answer = discords_answer(wanted())
    added = wanted()
    start = added[0]["options"][0]
    start["options"].append({"type": 3, "name": "language", "description": "Language"})
    assert differences(added, answer, guild=False) == ["/dice differs"]
    swapped = wanted()
    swapped[0]["options"][0]["options"].reverse()
    assert differences(swapped, answer, guild=False) == ["/dice differs"]


def test_a_removed_or_added_command_differs():
    answer = discords_answer(wanted())
    assert differences(wanted()[:1], answer, guild=False) == ["/admin is not wanted here"]
    assert differences(wanted(), answer[:1], guild=False) == ["/dice is not registered"]
    assert differences([], answer, guild=False) == [
        "/admin is not wanted here",
        "/dice is not wanted here",
    ]


def test_permissions_and_where_a_global_command_is_used_count():
    answer = discords_answer(wanted())
    changed = wanted()
    changed[1]["default_member_permissions"] = 8
    assert differences(changed, answer, guild=False) == ["/admin differs"]
    everywhere = wanted()
    everywhere[0]["contexts"] = [0, 1]
    assert differences(everywhere, answer, guild=False) == ["/dice differs"]
    # In a guild, where a command can be used is not the command's (Discord ignores it).
    assert differences(everywhere, discords_answer(wanted(), guild=True), guild=True) == []


def test_integration_types_left_unset_are_the_applications_and_not_compared():
    answer = discords_answer(wanted())
    for command in answer:
        command["integration_types"] = [0, 1]
    assert differences(wanted(), answer, guild=False) == []
    pinned = wanted()
    pinned[0]["integration_types"] = [0]
    assert differences(pinned, answer, guild=False) == ["/dice differs"]


def test_normalise_keeps_the_commands_fields_only():
    (admin,) = [c for c in discords_answer(wanted()) if c["name"] == "admin"]
    assert normalise(admin) == {
        "type": 1,
        "name": "admin",
        "description": "Set the bot up",
        "nsfw": False,
        "default_member_permissions": "32",
        "dm_permission": True,
        "integration_types": [0],
    }


@pytest.mark.parametrize(
    "answer",
    [
        None,
        "Not Found",
        {"message": "404: Not Found", "code": 0},
        [None],
        [{"description": "no name"}],
        [{"name": "dice", "options": "start"}],
        [{"name": "dice", "options": [{"name": "start", "choices": {"a": 1}}]}],
        [{"name": "dice", "description_localizations": ["de"]}],
        [{"name": "dice", "contexts": "guild"}],
    ],
)
def test_an_answer_that_is_not_a_list_of_commands_is_malformed(answer):
    with pytest.raises(MalformedCommands):
        differences(wanted(), answer, guild=False)


def test_the_commands_go_to_the_dev_guild_only_and_a_guild_of_before_is_emptied():
    commands = wanted()
    assert targets(commands, dev_guild=None) == [Target(None, commands)]
    assert targets(commands, dev_guild=5, previous_guilds=[5]) == [
        Target(5, commands),
        Target(None, []),
    ]
    assert targets(commands, dev_guild=None, previous_guilds=[5]) == [
        Target(None, commands),
        Target(5, []),
    ]
    assert targets(commands, dev_guild=6, previous_guilds=[5, 6]) == [
        Target(6, commands),
        Target(None, []),
        Target(5, []),
    ]


def test_remembered_guilds_that_cannot_be_read_are_none():
    assert guild_ids("[5, 6]") == [5, 6]
    for stored in (None, "", "{", '{"guild": 5}', '["5"]'):
        assert guild_ids(stored) == []


def our_entry_point() -> dict[str, Any]:
    return {
        "type": 4,
        "handler": 1,
        "name": "table",
        "name_localizations": {"de": "tisch"},
        "description": "Play at the table",
        "description_localizations": {"de": "Am Tisch spielen"},
        "integration_types": [0, 1],
        "contexts": [0, 1, 2],
    }


def discords_entry_point(handler: int = 2) -> dict[str, Any]:
    """The Entry Point as Discord answers it (the portal's default: Discord's handler)."""
    return {
        "id": "77",
        "application_id": str(APPLICATION_ID),
        "version": "78",
        "default_member_permissions": None,
        "type": 4,
        "name": "launch",
        "name_localizations": None,
        "description": "",
        "description_localizations": None,
        "handler": handler,
        "contexts": [0, 1, 2],
        "integration_types": [0, 1],
        "nsfw": False,
        "dm_permission": True,
    }


def test_an_entry_points_handler_counts_and_discords_copy_of_ours_compares_equal():
    ours = our_entry_point()
    answer = [
        {**ours, "id": "9", "version": "10", "nsfw": False, "dm_permission": True},
        *discords_answer(wanted()),
    ]
    assert differences([*wanted(), ours], answer, guild=False) == []
    assert normalise(answer[0])["handler"] == 1
    assert "handler" not in normalise(wanted()[0])  # no other type has one
    other = {**ours, "handler": 2}
    assert differences([*wanted(), other], answer, guild=False) == ["/table differs"]


def test_the_entry_point_is_global_only():
    commands, ours = wanted(), our_entry_point()
    assert targets(commands, dev_guild=None, entry_point=ours) == [Target(None, [*commands, ours])]
    assert targets(commands, dev_guild=5, previous_guilds=[6], entry_point=ours) == [
        Target(5, commands),
        Target(None, [ours]),
        Target(6, []),
    ]


def test_discords_entry_point_is_kept_as_it_is_where_we_have_none():
    theirs = discords_entry_point()
    kept = keeping_entry_point(Target(None, wanted()), [*discords_answer(wanted()), theirs])
    assert kept.commands[:-1] == wanted()
    # What a bulk overwrite takes back: its id keeps it the same command.
    assert kept.commands[-1] == {
        key: theirs[key]
        for key in (
            "id",
            "type",
            "name",
            "name_localizations",
            "description",
            "description_localizations",
            "handler",
            "contexts",
            "integration_types",
            "default_member_permissions",
            "nsfw",
        )
    }
    assert differences(kept.commands, [*discords_answer(wanted()), theirs], guild=False) == []
    # Ours replaces it; a guild's scope never holds one; none to keep, nothing added.
    ours = Target(None, [our_entry_point()])
    assert keeping_entry_point(ours, [theirs]) == ours
    assert keeping_entry_point(Target(5, []), [theirs]) == Target(5, [])
    assert keeping_entry_point(Target(None, []), discords_answer(wanted())) == Target(None, [])


@pytest.mark.parametrize("answer", [None, "Not Found", {"type": 4}, [None, 4]])
def test_no_entry_point_is_read_from_an_answer_that_is_not_a_list_of_commands(answer):
    assert entry_point_of(answer) is None


# --------------------------------------------------------------------------- at start-up


def command_requests(fake: FakeDiscord) -> list[tuple[str, str]]:
    """The command requests made, as (method, scope) with scope "global" or a guild id."""
    return [
        (request.method, request.ids.get("guild_id", "global"))
        for request in fake.requests
        if request.path in (GLOBAL, GUILD)
    ]


def names(commands: list[dict[str, Any]]) -> list[str]:
    return sorted(command["name"] for command in commands)


async def test_an_unchanged_tree_is_read_and_not_written(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as first:
        assert command_requests(first.fake) == [("GET", "global"), ("PUT", "global")]
        assert first.bot.synced_commands
        fake = first.fake
    fake.requests.clear()
    async with BotHarness.running(tmp_path / "other.db", fake=fake) as second:
        # Another database too: Discord, not what was last sent, is compared with.
        assert command_requests(fake) == [("GET", "global")]
        assert not second.bot.synced_commands
        (read,) = fake.sent("GET", GLOBAL)
        assert read.params == {"with_localizations": "true"}
        assert read.ids["application_id"] == str(APPLICATION_ID)


async def test_a_changed_translation_is_written(tmp_path, monkeypatch):
    async with BotHarness.running(tmp_path / "bot.db") as first:
        fake = first.fake
    monkeypatch.setitem(catalog("de"), "command.status", "Die Partie unten zeigen")
    fake.requests.clear()
    async with BotHarness.running(tmp_path / "bot.db", fake=fake) as second:
        assert command_requests(fake) == [("GET", "global"), ("PUT", "global")]
        assert second.bot.synced_commands
        picker = next(c for c in fake.commands["global"] if c["name"] == "picker")
        status = next(o for o in picker["options"] if o["name"] == "status")
        assert status["description_localizations"]["de"] == "Die Partie unten zeigen"


async def test_the_dev_guild_holds_the_commands_and_the_global_set_is_emptied(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as first:
        fake = first.fake
    assert names(fake.commands["global"]) == ["picker", "pickomino"]
    fake.requests.clear()
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, fake=fake, dev_guild_id=GUILD_ID):
        assert command_requests(fake) == [
            ("GET", str(GUILD_ID)),
            ("PUT", str(GUILD_ID)),
            ("GET", "global"),
            ("PUT", "global"),
        ]
        assert names(fake.commands[str(GUILD_ID)]) == ["picker", "pickomino"]
        assert fake.commands["global"] == []
    fake.requests.clear()
    async with BotHarness.running(database, fake=fake, dev_guild_id=GUILD_ID) as again:
        assert command_requests(fake) == [("GET", str(GUILD_ID)), ("GET", "global")]
        assert not again.bot.synced_commands


async def test_without_the_dev_guild_its_commands_are_removed_and_registered_globally(
    tmp_path,
):
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, dev_guild_id=GUILD_ID) as first:
        fake = first.fake
    assert fake.commands["global"] == []
    fake.requests.clear()
    async with BotHarness.running(database, fake=fake):
        assert command_requests(fake) == [
            ("GET", "global"),
            ("PUT", "global"),
            ("GET", str(GUILD_ID)),
            ("PUT", str(GUILD_ID)),
        ]
        assert names(fake.commands["global"]) == ["picker", "pickomino"]
        assert fake.commands[str(GUILD_ID)] == []
    fake.requests.clear()
    async with BotHarness.running(database, fake=fake):  # the guild is forgotten
        assert command_requests(fake) == [("GET", "global")]


@pytest.mark.parametrize(
    ("status", "answer"),
    [
        (500, None),  # Discord fails
        (404, None),  # a stand-in without the route
        (None, None),  # no body
        (None, {"message": "401: Unauthorized", "code": 0}),
        (None, [{"id": "1", "description": "a command without a name"}]),
    ],
)
async def test_a_read_that_fails_falls_back_to_an_overwrite(
    tmp_path, caplog, monkeypatch, status, answer
):
    async with BotHarness.running(tmp_path / "bot.db") as first:
        fake = first.fake
    fake.requests.clear()
    if status is not None:
        fake.fail[f"GET {GLOBAL}"] = status
    else:
        monkeypatch.setattr(fake, "_get_commands", lambda ids, payload: answer)
    caplog.set_level(logging.INFO, logger="bot.app.commands_on_discord")
    async with BotHarness.running(tmp_path / "bot.db", fake=fake) as second:
        assert command_requests(fake) == [("GET", "global"), ("PUT", "global")]
        assert second.bot.synced_commands
        assert names(fake.commands["global"]) == ["picker", "pickomino"]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "overwriting them" in warnings[0].getMessage()
    assert warnings[0].exc_info is None


async def test_a_failed_overwrite_is_a_warning_and_the_bot_starts(tmp_path, caplog):
    fake = FakeDiscord()
    fake.fail[f"PUT {GLOBAL}"] = 500
    caplog.set_level(logging.WARNING, logger="bot.app.commands_on_discord")
    async with BotHarness.running(tmp_path / "bot.db", fake=fake) as harness:
        assert command_requests(fake) == [("GET", "global"), ("PUT", "global")]
        assert not harness.bot.synced_commands
        anne = harness.user("Anne")
        started = await harness.slash(anne, "pickomino", "start")
        assert started.message is not None  # the bot serves commands all the same
    (warning,) = caplog.records
    assert "could not register the global application commands" in warning.getMessage()


async def test_a_guild_that_could_not_be_emptied_is_emptied_at_the_next_start(tmp_path):
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, dev_guild_id=GUILD_ID) as first:
        fake = first.fake
    fake.fail[f"PUT {GUILD}"] = 503
    async with BotHarness.running(database, fake=fake):
        assert names(fake.commands[str(GUILD_ID)]) == ["picker", "pickomino"]
    fake.requests.clear()
    async with BotHarness.running(database, fake=fake):
        assert command_requests(fake) == [
            ("GET", "global"),
            ("GET", str(GUILD_ID)),
            ("PUT", str(GUILD_ID)),
        ]
        assert fake.commands[str(GUILD_ID)] == []


async def test_another_application_on_the_same_database_syncs(tmp_path):
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, dev_guild_id=GUILD_ID) as first:
        fake = first.fake
    fake.application_id = APPLICATION_ID + 1
    fake.requests.clear()
    async with BotHarness.running(database, fake=fake) as second:
        # Its own commands, read and written; the first application's guild is not its.
        assert command_requests(fake) == [("GET", "global"), ("PUT", "global")]
        assert {r.ids["application_id"] for r in fake.requests if r.path == GLOBAL} == {
            str(APPLICATION_ID + 1)
        }
        assert second.bot.synced_commands
        assert names(fake.commands["global"]) == ["picker", "pickomino"]
    first_application = fake.command_sets[APPLICATION_ID]
    assert names(first_application[str(GUILD_ID)]) == ["picker", "pickomino"]


async def test_a_forced_sync_writes_without_reading(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as first:
        fake = first.fake
    fake.requests.clear()
    async with BotHarness.running(tmp_path / "bot.db", fake=fake, force_sync=True) as second:
        assert command_requests(fake) == [("PUT", "global")]
        assert second.bot.synced_commands
        assert await second.bot.sync_commands(force=True)
        assert command_requests(fake) == [("PUT", "global")] * 2


async def test_every_command_is_offered_to_both_installs_in_every_place(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as first:
        registered = first.fake.commands["global"]
        assert names(registered) == ["picker", "pickomino"]
        for command in registered:  # score is a subgroup: it goes where its game goes
            assert sorted(command["integration_types"]) == [0, 1]  # guild and user install
            assert sorted(command["contexts"]) == [0, 1, 2]  # server, bot DM, group DMs
        fake = first.fake
    # A copy of before (servers only) is brought up to date at the next start.
    for command in fake.commands["global"]:
        command["integration_types"], command["contexts"] = [0], [0]
    fake.requests.clear()
    async with BotHarness.running(tmp_path / "bot.db", fake=fake) as second:
        assert command_requests(fake) == [("GET", "global"), ("PUT", "global")]
        assert second.bot.synced_commands
        assert all(c["contexts"] == [0, 1, 2] for c in fake.commands["global"])


async def test_a_database_too_busy_for_the_sync_is_tried_again(tmp_path, caplog, monkeypatch):
    """A restart under load found every pooled connection taken for seconds: the sync's
    read of the guilds it synced failed, and the sync was a traceback and never done."""
    import bot.app.commands_on_discord

    real_get_meta = bot.app.commands_on_discord.get_meta
    refusals = [DatabaseBusy("all 10 pooled connections in use for 2 s")] * 2

    async def busy_then_free(db: Any, key: str) -> Any:
        if refusals:
            raise refusals.pop()
        return await real_get_meta(db, key)

    async with BotHarness.running(tmp_path / "bot.db") as harness:
        fake = harness.fake
        fake.requests.clear()
        monkeypatch.setattr(bot.app.commands_on_discord, "get_meta", busy_then_free)
        monkeypatch.setattr(bot.app.commands_on_discord, "SYNC_RETRY_SECONDS", 0.01)
        caplog.set_level(logging.INFO, logger="bot.storage.waiting")
        assert not await harness.bot._sync_commands_when_the_database_answers()
        assert not refusals and command_requests(fake) == [("GET", "global")]
    tries = [r for r in caplog.records if r.getMessage().startswith("command sync: database")]
    assert len(tries) == 2 and not any(r.exc_info for r in caplog.records)
    assert tries[0].getMessage() == (
        "command sync: database busy (all 10 pooled connections in use for 2 s); "
        "trying again in 0.01 s"
    )


# --------------------------------------------------------------------------- Entry Point

LOCALES = {"de", "fr", "it", "nl", "es-ES", "es-419", "pl", "pt-BR"}


def entry_points(fake: FakeDiscord, scope: str = "global") -> list[dict[str, Any]]:
    """A scope's Entry Points as Discord has them, but their version (each overwrite
    gives every command a new one)."""
    return [
        {key: value for key, value in command.items() if key != "version"}
        for command in fake.commands.get(scope, [])
        if command["type"] == 4
    ]


async def test_with_the_table_on_the_entry_point_is_registered_and_then_left(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db", table=True) as first:
        fake = first.fake
        assert names(fake.commands["global"]) == ["picker", "pickomino", "table"]
        (entry,) = entry_points(fake)  # the portal's "launch" replaced by ours
        assert entry["handler"] == 1  # its use comes to the bot
        assert entry["integration_types"] == [0, 1] and entry["contexts"] == [0, 1, 2]
        assert entry["name_localizations"]["de"] == "tisch"
        assert entry["name_localizations"]["pl"] == "stół"
        assert set(entry["description_localizations"]) >= LOCALES
    fake.requests.clear()
    async with BotHarness.running(tmp_path / "bot.db", fake=fake, table=True) as second:
        assert command_requests(fake) == [("GET", "global")]  # Discord's copy is ours
        assert not second.bot.synced_commands


async def test_with_the_table_off_discords_entry_point_is_kept(tmp_path, caplog):
    """Activities enabled in the portal (which made its "launch"), no client secret: an
    overwrite without the Entry Point is refused whole (50240), so the bot sends it back
    as it is, and registers its commands."""
    fake = FakeDiscord(activities=True)
    (theirs,) = entry_points(fake)
    caplog.set_level(logging.WARNING, logger="bot.app.commands_on_discord")
    async with BotHarness.running(tmp_path / "bot.db", fake=fake) as first:
        assert command_requests(fake) == [("GET", "global"), ("PUT", "global")]
        assert first.bot.synced_commands
        assert names(fake.commands["global"]) == ["launch", "picker", "pickomino"]
        assert entry_points(fake) == [theirs]  # the same command, unchanged
    assert caplog.records == []
    fake.requests.clear()
    async with BotHarness.running(tmp_path / "bot.db", fake=fake) as second:
        assert command_requests(fake) == [("GET", "global")]
        assert not second.bot.synced_commands


async def test_an_unread_overwrite_refused_for_the_entry_point_is_sent_again_with_it(tmp_path):
    fake = FakeDiscord(activities=True)
    (theirs,) = entry_points(fake)
    async with BotHarness.running(tmp_path / "bot.db", fake=fake, force_sync=True) as harness:
        assert command_requests(fake) == [("PUT", "global"), ("GET", "global"), ("PUT", "global")]
        assert harness.bot.synced_commands
        assert entry_points(fake) == [theirs]
        assert names(fake.commands["global"]) == ["launch", "picker", "pickomino"]


async def test_the_table_turned_off_keeps_the_entry_point_it_registered(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db", table=True) as first:
        fake = first.fake
    (ours,) = entry_points(fake)
    fake.requests.clear()
    async with BotHarness.running(tmp_path / "bot.db", fake=fake) as second:
        assert command_requests(fake) == [("GET", "global")]  # nothing else changed
        assert not second.bot.synced_commands
        assert entry_points(fake) == [ours]


async def test_with_a_dev_guild_the_entry_point_stays_global(tmp_path):
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, table=True, dev_guild_id=GUILD_ID) as harness:
        fake = harness.fake
        assert names(fake.commands[str(GUILD_ID)]) == ["picker", "pickomino"]
        assert entry_points(fake, str(GUILD_ID)) == []
        assert names(fake.commands["global"]) == ["table"]


async def test_an_entry_point_discord_refuses_leaves_the_other_commands_registered(
    tmp_path, caplog
):
    """The secret set, but Activities not enabled in the portal: Discord refuses an Entry
    Point, and with it the whole overwrite; the commands go without it, and the log says
    what to do."""
    fake = FakeDiscord(activities=False)
    caplog.set_level(logging.WARNING, logger="bot.app.commands_on_discord")
    async with BotHarness.running(tmp_path / "bot.db", fake=fake, table=True) as harness:
        assert command_requests(fake) == [("GET", "global"), ("PUT", "global"), ("PUT", "global")]
        assert harness.bot.synced_commands
        assert names(fake.commands["global"]) == ["picker", "pickomino"]
    (warning,) = caplog.records
    assert "Activities enabled" in warning.getMessage()
