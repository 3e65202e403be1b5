"""Discord's rules for Entry Point commands (type 4, PRIMARY_ENTRY_POINT: the App
Launcher's command, which opens the application's Activity).

What the docs say (application-commands.mdx): an application has at most one, only
globally, and only with Activities enabled; its `handler` says who answers its use, the
application (1) or Discord, which launches the Activity by itself (2). Enabling
Activities in the portal creates one, "launch" with handler 2. What they do not say,
and bots have met (the design notes of issue 60): a bulk overwrite of the global scope
that leaves out the existing Entry Point is refused whole, 400, code 50240. The form
error codes below are the stand-in's own words for refusals whose exact codes Discord
does not document.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.devserver.standin.errors import DiscordHTTPError, FormErrors
from bot.devserver.standin.validation import Path

PRIMARY_ENTRY_POINT = 4
APP_HANDLER, DISCORD_LAUNCH_ACTIVITY = 1, 2
ENTRY_POINT_OMITTED = 50240
OMITTED_MESSAGE = (
    "You cannot remove this app's Entry Point command in a bulk update operation. Please "
    "include the Entry Point command in your update request or delete it separately."
)


def default_entry_point() -> dict[str, Any]:
    """The Entry Point the portal creates when Activities are enabled."""
    return {
        "type": PRIMARY_ENTRY_POINT,
        "name": "launch",
        "description": "",
        "handler": DISCORD_LAUNCH_ACTIVITY,
        "integration_types": [0, 1],
        "contexts": [0, 1, 2],
    }


def check_entry_point(
    errors: FormErrors, path: Path, command: Any, *, guild: bool, activities: bool
) -> None:
    """One command: an Entry Point only globally and only with Activities enabled, with
    a handler; `handler` on no other type."""
    if not isinstance(command, dict):
        return
    if command.get("type", 1) != PRIMARY_ENTRY_POINT:
        if command.get("handler") is not None:
            errors.add(
                (*path, "handler"),
                "APPLICATION_COMMAND_HANDLER_INVALID",
                "Only PRIMARY_ENTRY_POINT commands can have a handler",
            )
        return
    if guild:
        errors.add(
            (*path, "type"),
            "APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_GUILD",
            "Cannot have a PRIMARY_ENTRY_POINT guild command",
        )
    elif not activities:
        errors.add(
            (*path, "type"),
            "APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_NOT_EMBEDDED",
            "PRIMARY_ENTRY_POINT commands need Activities enabled for the application",
        )
    if command.get("handler") not in (APP_HANDLER, DISCORD_LAUNCH_ACTIVITY):
        errors.add(
            (*path, "handler"),
            "BASE_TYPE_CHOICES",
            f"Value must be one of {{{APP_HANDLER}, {DISCORD_LAUNCH_ACTIVITY}}}.",
        )


def check_one_entry_point(errors: FormErrors, path: Path, commands: Iterable[Any]) -> None:
    """A scope holds at most one Entry Point."""
    count = sum(1 for c in commands if isinstance(c, dict) and c.get("type") == PRIMARY_ENTRY_POINT)
    if count > 1:
        errors.add(
            path,
            "APPLICATION_COMMANDS_PRIMARY_ENTRY_POINT_DUPLICATE",
            "An application can have only one PRIMARY_ENTRY_POINT command",
        )


def omitted_entry_point(existing: Iterable[dict[str, Any]], sent: Iterable[Any]) -> bool:
    """Whether a global bulk overwrite leaves out the Entry Point the scope has."""
    had = any(command.get("type") == PRIMARY_ENTRY_POINT for command in existing)
    keeps = any(
        isinstance(command, dict) and command.get("type") == PRIMARY_ENTRY_POINT for command in sent
    )
    return had and not keeps


def omitted_refusal() -> DiscordHTTPError:
    return DiscordHTTPError(400, ENTRY_POINT_OMITTED, OMITTED_MESSAGE)
