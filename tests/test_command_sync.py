"""Command sync that matches Discord: the comparison of the wanted commands with Discord's
answer (bot/command_sync.py), then the sync at start-up through the in-process Discord
(`DiceBot.sync_commands`): reads first, overwrites only what differs."""

from __future__ import annotations

from typing import Any

import pytest

from bot.command_sync import (
    MalformedCommands,
    Target,
    differences,
    guild_ids,
    normalise,
    targets,
)
from bot.devserver.payloads import APPLICATION_ID, GUILD_ID

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
    assert differences(wanted()[:1], answer, guild=False) == ["/admin is not ours"]
    assert differences(wanted(), answer[:1], guild=False) == ["/dice is not registered"]
    assert differences([], answer, guild=False) == ["/admin is not ours", "/dice is not ours"]


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
