"""Activity instances: one per place an Activity runs in, with the people in it.

A launch (the LAUNCH_ACTIVITY callback, or the Entry Point with Discord's own handler)
puts the person in the running instance of the interaction's channel, or starts one; the
instance ends when its last person leaves, and the next launch there starts another.
Ids as Discord's docs show them: `i-<launch_id>-gc-<guild_id>-<channel_id>` in a server,
`i-<launch_id>-pc-<channel_id>` in a DM or group DM (private channels).
`GET /applications/{application_id}/activity-instances/{instance_id}` answers
`payload()`, Discord's `EmbeddedActivityInstance`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class ActivityInstance:
    instance_id: str
    launch_id: int
    channel_id: int
    guild_id: int | None  # None: a DM or group DM
    users: list[int] = field(default_factory=list)  # in the order they came
    ended: bool = False

    @property
    def location_id(self) -> str:
        if self.guild_id is None:
            return f"pc-{self.channel_id}"
        return f"gc-{self.guild_id}-{self.channel_id}"

    def payload(self, application_id: int) -> dict[str, Any]:
        location: dict[str, Any] = {
            "id": self.location_id,
            "kind": "pc" if self.guild_id is None else "gc",
            "channel_id": str(self.channel_id),
        }
        if self.guild_id is not None:
            location["guild_id"] = str(self.guild_id)
        return {
            "application_id": str(application_id),
            "instance_id": self.instance_id,
            "launch_id": str(self.launch_id),
            "location": location,
            "users": [str(user) for user in self.users],
        }


class ActivityInstances:
    """Every instance, running or ended, by id; the running one of each channel."""

    def __init__(self, snowflake: Callable[[], int]) -> None:
        self._snowflake = snowflake
        self.by_id: dict[str, ActivityInstance] = {}
        self._running: dict[int, ActivityInstance] = {}  # channel id -> its instance

    def launch(self, user_id: int, channel_id: int, guild_id: int | None) -> ActivityInstance:
        """Put `user_id` in the channel's running instance, starting one if there is none."""
        instance = self._running.get(channel_id)
        if instance is None:
            launch_id = self._snowflake()
            place = f"pc-{channel_id}" if guild_id is None else f"gc-{guild_id}-{channel_id}"
            instance = ActivityInstance(f"i-{launch_id}-{place}", launch_id, channel_id, guild_id)
            self.by_id[instance.instance_id] = instance
            self._running[channel_id] = instance
        if user_id not in instance.users:
            instance.users.append(user_id)
        return instance

    def running(self, instance_id: str) -> ActivityInstance | None:
        """The instance if it is running (Discord answers 404 for an ended one)."""
        instance = self.by_id.get(instance_id)
        return None if instance is None or instance.ended else instance

    def in_channel(self, channel_id: int) -> ActivityInstance | None:
        return self._running.get(channel_id)

    def leave(self, user_id: int, instance_id: str) -> None:
        """The person closed the Activity; the last one out ends it."""
        instance = self._known(instance_id)
        if user_id in instance.users:
            instance.users.remove(user_id)
        if not instance.users:
            self.end(instance_id)

    def end(self, instance_id: str) -> None:
        """The instance ends, whoever is in it."""
        instance = self._known(instance_id)
        instance.ended = True
        instance.users.clear()
        if self._running.get(instance.channel_id) is instance:
            del self._running[instance.channel_id]

    def _known(self, instance_id: str) -> ActivityInstance:
        instance = self.by_id.get(instance_id)
        if instance is None:
            raise LookupError(f"no activity instance {instance_id!r}")
        return instance
