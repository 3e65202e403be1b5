"""Which application commands belong where, and whether Discord holds them already.

Pure: no discord import, no I/O. The sync (bot.app.commands_on_discord) reads what
Discord has (Get Global / Guild Application Commands, `with_localizations=true`), asks
`differences`, and overwrites a scope (Bulk Overwrite) only where they differ.

Discord answers with more than was sent: `id`, `application_id`, `version`,
`guild_id`, the defaults it fills in (`type` 1, `nsfw` false, `dm_permission` true,
`integration_types` from the application's settings), null for an empty
localization, and the permissions as a string. `normalise` keeps the fields a command
is made of, each with its default spelt one way, so that a command and Discord's copy
of it compare equal; the order of keys and of the commands does not count, the order
of options and choices (as people see them) does.

The global scope may hold one Entry Point (type 4, PRIMARY_ENTRY_POINT: the App
Launcher's command, which opens the application's Activity). Discord creates one when
Activities are enabled in the portal, and refuses a bulk overwrite of the global scope
that leaves it out (400, code 50240), whole. So the global set carries ours when the
table is on, else Discord's own, read back and sent again as it is; a guild's never
holds one (Discord allows it only globally).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

Command = dict[str, Any]

CHAT_INPUT = 1
ENTRY_POINT = 4  # PRIMARY_ENTRY_POINT
APP_HANDLER = 1  # an Entry Point's use comes to the bot (2: Discord launches alone)
# What a bulk overwrite takes back of Discord's Entry Point: its id keeps it the same
# command; `version`, `application_id` and the derived `dm_permission` are Discord's.
_ENTRY_POINT_FIELDS = (
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
# Discord's refusal of a bulk overwrite that leaves out the application's Entry Point.
ENTRY_POINT_OMITTED = 50240
_LOCALIZED = ("name_localizations", "description_localizations")
_OPTION_FIELDS = ("channel_types", "min_value", "max_value", "min_length", "max_length")


class MalformedCommands(ValueError):
    """Discord's answer is not a list of application commands."""


class Outcome(Enum):
    """What became of one scope's commands at a sync."""

    UNCHANGED = "unchanged"  # Discord had them already: nothing sent
    WRITTEN = "written"  # overwritten with the wanted ones
    FAILED = "failed"  # the overwrite failed: as they were, whatever that is


@dataclass(frozen=True, slots=True)
class Target:
    """One scope's commands as they should be: global (`guild_id` None) or a guild's."""

    guild_id: int | None
    commands: list[Command]

    @property
    def where(self) -> str:
        return "global" if self.guild_id is None else f"guild {self.guild_id}"


def targets(
    wanted: list[Command],
    *,
    dev_guild: int | None,
    previous_guilds: Sequence[int] = (),
    entry_point: Command | None = None,
) -> list[Target]:
    """Where the commands go. Without a dev guild: globally. With one: in that guild only,
    and the global set empty (a command in both would be listed twice there) but for the
    `entry_point`, which is global only. Any guild they were registered in before, and no
    longer the dev guild, is emptied. The scope that gains the commands comes first, so
    that they are never missing for long."""
    extra = [entry_point] if entry_point is not None else []
    if dev_guild is None:
        placed = [Target(None, [*wanted, *extra])]
    else:
        placed = [Target(dev_guild, wanted), Target(None, extra)]
    left = sorted({guild for guild in previous_guilds if guild != dev_guild})
    return placed + [Target(guild, []) for guild in left]


def keeping_entry_point(target: Target, registered: Any) -> Target:
    """`target`, and if it is the global scope and has no Entry Point of its own,
    Discord's among `registered` (that scope as Discord answered it), as it is: an
    overwrite without it would be refused whole."""
    if target.guild_id is not None or any(is_entry_point(c) for c in target.commands):
        return target
    theirs = entry_point_of(registered)
    return target if theirs is None else Target(None, [*target.commands, theirs])


def entry_point_of(registered: Any) -> Command | None:
    """The Entry Point among a scope's commands as Discord answered them, with what a
    bulk overwrite takes back; None if there is none (or the answer is not a list)."""
    if not isinstance(registered, Sequence) or isinstance(registered, str | bytes):
        return None
    for command in registered:
        if is_entry_point(command):
            return {field: command[field] for field in _ENTRY_POINT_FIELDS if field in command}
    return None


def is_entry_point(command: Any) -> bool:
    return isinstance(command, Mapping) and command.get("type") == ENTRY_POINT


def guild_ids(stored: str | None) -> list[int]:
    """The guilds a JSON list of ids names; none if it is missing or not such a list
    (forgetting a guild leaves its commands, a crash would stop the bot)."""
    try:
        ids = json.loads(stored or "[]")
    except ValueError:
        return []
    if not isinstance(ids, list):
        return []
    return [guild for guild in ids if isinstance(guild, int)]


def differences(wanted: Sequence[Mapping[str, Any]], registered: Any, *, guild: bool) -> list[str]:
    """How Discord's commands of one scope (`registered`, its answer as it came) differ
    from `wanted`, one line per command, in the order of `wanted`; empty when they are
    the same. `guild`: a guild's commands, which have no `dm_permission`, `contexts`
    or `integration_types` (Discord keeps those for global commands only). Raises
    MalformedCommands if `registered` is not a list of commands."""
    theirs = _by_key(registered, guild=guild)
    ours = _by_key(wanted, guild=guild)
    lines = []
    for key, command in ours.items():
        other = theirs.get(key)
        if other is None:
            lines.append(f"/{key[1]} is not registered")
            continue
        if "integration_types" not in command:  # left to the application's settings
            other.pop("integration_types", None)
        if other != command:
            lines.append(f"/{key[1]} differs")
    lines += [f"/{key[1]} is not wanted here" for key in theirs if key not in ours]
    return lines


def normalise(command: Mapping[str, Any], *, guild: bool = False) -> Command:
    """A command with only the fields it is made of, each default spelt one way.
    Raises MalformedCommands for what is not a command."""
    if not isinstance(command, Mapping) or not isinstance(command.get("name"), str):
        raise MalformedCommands(f"not an application command: {_short(command)}")
    kind = command.get("type") or CHAT_INPUT
    result: Command = {
        "type": kind,
        "name": command["name"],
        "description": command.get("description") or "",
        "nsfw": bool(command.get("nsfw", False)),
        "default_member_permissions": _permissions(command.get("default_member_permissions")),
    }
    result.update(_localizations(command))
    if kind == ENTRY_POINT:  # who answers it: the bot, or Discord by launching alone
        result["handler"] = command.get("handler")
    options = _options(command.get("options"))
    if options:
        result["options"] = options
    if not guild:
        result.update(_availability(command))
    return result


def _by_key(commands: Any, *, guild: bool) -> dict[tuple[int, str], Command]:
    if not isinstance(commands, Sequence) or isinstance(commands, str | bytes):
        raise MalformedCommands(f"not a list of application commands: {_short(commands)}")
    normalised = [normalise(command, guild=guild) for command in commands]
    return {(command["type"], command["name"]): command for command in normalised}


def _availability(command: Mapping[str, Any]) -> Command:
    """Where a global command can be used: `contexts` when given (it replaced
    `dm_permission`, which Discord derives from it), else `dm_permission`."""
    found: Command = {}
    contexts = command.get("contexts")
    if contexts is None:
        found["dm_permission"] = bool(command.get("dm_permission", True))
    else:
        found["contexts"] = _sorted_ints(contexts, "contexts")
    integration_types = command.get("integration_types")
    if integration_types is not None:
        found["integration_types"] = _sorted_ints(integration_types, "integration_types")
    return found


def _options(options: Any) -> list[Command]:
    if options is None:
        return []
    if not isinstance(options, list):
        raise MalformedCommands(f"options are not a list: {_short(options)}")
    return [_option(option) for option in options]


def _option(option: Any) -> Command:
    if not isinstance(option, Mapping) or not isinstance(option.get("name"), str):
        raise MalformedCommands(f"not a command option: {_short(option)}")
    result: Command = {
        "type": option.get("type"),
        "name": option["name"],
        "description": option.get("description") or "",
    }
    result.update(_localizations(option))
    for flag in ("required", "autocomplete"):  # false unless said
        if option.get(flag):
            result[flag] = True
    choices = option.get("choices") or []
    if not isinstance(choices, list):
        raise MalformedCommands(f"choices are not a list: {_short(choices)}")
    if choices:
        result["choices"] = [_choice(choice) for choice in choices]
    nested = _options(option.get("options"))
    if nested:
        result["options"] = nested
    for field in _OPTION_FIELDS:
        if option.get(field) is not None:
            result[field] = option[field]
    if "channel_types" in result:
        result["channel_types"] = _sorted_ints(result["channel_types"], "channel_types")
    return result


def _choice(choice: Any) -> Command:
    if not isinstance(choice, Mapping) or "name" not in choice or "value" not in choice:
        raise MalformedCommands(f"not an option choice: {_short(choice)}")
    result: Command = {"name": choice["name"], "value": choice["value"]}
    result.update(_localizations(choice))
    return result


def _localizations(item: Mapping[str, Any]) -> Command:
    """The non-empty localization dictionaries (null, absent and {} are all none)."""
    found: Command = {}
    for field in _LOCALIZED:
        texts = item.get(field)
        if not texts:
            continue
        if not isinstance(texts, Mapping):
            raise MalformedCommands(f"{field} is not a dictionary: {_short(texts)}")
        found[field] = dict(texts)
    return found


def _permissions(value: Any) -> str | None:
    """Permission bits as Discord writes them: a string of digits (we send a number)."""
    return None if value is None else str(value)


def _sorted_ints(values: Any, field: str) -> list[int]:
    if not isinstance(values, list) or not all(isinstance(value, int) for value in values):
        raise MalformedCommands(f"{field} is not a list of numbers: {_short(values)}")
    return sorted(values)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
