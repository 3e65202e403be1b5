"""What people do in Discord's client, for tests and the page: slash commands built
from the registered schema, clicks, menu choices, modal submissions, a new channel, a
group DM or a server without the bot; each becomes the INTERACTION_CREATE (or
CHANNEL_CREATE) Discord would dispatch, or nothing where the bot is not."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from bot.devserver.standin.activity_routes import ActivityRoutes
from bot.devserver.standin.constants import (
    ATTACHMENT_SIZE_LIMIT,
    CT_ACTION_ROW,
    CT_BUTTON,
    CT_LABEL,
    CT_STRING_SELECT,
    CT_TEXT_INPUT,
    IT_COMMAND,
    IT_COMPONENT,
    IT_MODAL_SUBMIT,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_USER,
    SELECT_TYPES,
)
from bot.devserver.standin.entry_points import DISCORD_LAUNCH_ACTIVITY, PRIMARY_ENTRY_POINT
from bot.devserver.standin.models import (
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeUser,
)
from bot.devserver.standin.permissions import (
    ALL_PERMISSIONS,
    OVERWRITE_MEMBER,
    OVERWRITE_ROLE,
    PERM_USE_EXTERNAL_APPS,
    Overwrite,
)
from bot.devserver.standin.places import GUILD_INSTALL, USER_INSTALL

# Where a command may be used (its `contexts`), by name, for error messages.
CONTEXT_NAMES = {0: "a server", 1: "the bot's DM", 2: "a group DM or a DM between people"}

# Whose overwrite a permission change is: a role's, the bot's own, or a member's.
OverwriteTarget = Literal["bot_role", "everyone", "bot"] | FakeUser | str


class UserActions(ActivityRoutes):
    """The people of the guild, acting through Discord's client."""

    async def add_channel(self, name: str) -> FakeChannel:
        """A new text channel in the first guild, announced to the bot (CHANNEL_CREATE)."""
        channels = self.guild_channels[self.guild_id]
        channel = FakeChannel(
            self._snowflake(), name, position=len(channels), parent_id=self.category.id
        )
        self.channels[channel.id] = channel
        channels.append(channel)
        session = self.session_for(self.guild_id)
        if session is not None:
            await self._dispatch(
                session, "CHANNEL_CREATE", self._channel_payload(channel, with_guild=True)
            )
        self._notify()
        return channel

    # ---- permissions, as a server admin changes them -----------------------------

    async def deny(
        self,
        permissions: int,
        channel_id: int | None = None,
        *,
        target: OverwriteTarget = "bot_role",
    ) -> Overwrite:
        """Deny `permissions` in a channel (the first one by default) through the overwrite
        of `target`: "bot_role" (the bot's role), "everyone" (the @everyone role), "bot"
        (the bot as a member) or a member. The bot is told (CHANNEL_UPDATE), and sees it
        in the next interaction's app_permissions."""
        return await self._change_overwrite(channel_id, target, deny=permissions)

    async def grant(
        self,
        permissions: int,
        channel_id: int | None = None,
        *,
        target: OverwriteTarget = "bot_role",
    ) -> Overwrite:
        """Allow `permissions` in a channel through `target`'s overwrite (see `deny`)."""
        return await self._change_overwrite(channel_id, target, allow=permissions)

    async def set_role_permissions(self, role: Literal["everyone", "bot_role"], perms: int) -> None:
        """Give a role these permissions in every guild, as a server admin would; the bot
        is told (GUILD_ROLE_UPDATE)."""
        if role == "everyone":
            self.everyone_permissions = perms
        else:
            self.bot_role_permissions = perms
        for guild_id in self.guild_ids:
            # The @everyone role has its guild's id.
            role_id = guild_id if role == "everyone" else self.bot_role_id
            changed = next(r for r in self._roles_payload(guild_id) if r["id"] == str(role_id))
            session = self.session_for(guild_id)
            if session is not None:
                data = {"guild_id": str(guild_id), "role": changed}
                await self._dispatch(session, "GUILD_ROLE_UPDATE", data)
        self._notify()

    async def set_external_apps(self, guild_id: int, allowed: bool) -> None:
        """Allow or deny Use External Apps to @everyone in a guild, as its admin would:
        where it is denied, the answers of an app the server did not install are shown
        only to the person who used it."""
        botless = self.botless_guilds.get(guild_id)
        if botless is None:
            perms = self.everyone_permissions
            changed = perms | PERM_USE_EXTERNAL_APPS if allowed else perms & ~PERM_USE_EXTERNAL_APPS
            await self.set_role_permissions("everyone", changed)
            return
        if allowed:
            botless.everyone_permissions |= PERM_USE_EXTERNAL_APPS
        else:
            botless.everyone_permissions &= ~PERM_USE_EXTERNAL_APPS
        self._notify()

    async def _change_overwrite(
        self, channel_id: int | None, target: OverwriteTarget, *, allow: int = 0, deny: int = 0
    ) -> Overwrite:
        channel = self.channels[channel_id or self.channel.id]
        guild_id = self.guild_of(channel.id)
        if target == "everyone":
            key = (guild_id, OVERWRITE_ROLE)
        elif target == "bot_role":
            key = (self.bot_role_id, OVERWRITE_ROLE)
        else:
            key = (self.user(self.bot_user if target == "bot" else target).id, OVERWRITE_MEMBER)
        overwrites = self.overwrites.setdefault(channel.id, [])
        old = next((o for o in overwrites if (o.id, o.type) == key), Overwrite(*key))
        new = Overwrite(
            old.id, old.type, allow=(old.allow & ~deny) | allow, deny=(old.deny & ~allow) | deny
        )
        overwrites[:] = [o for o in overwrites if o is not old] + [new]
        session = self.session_for(guild_id) if guild_id in self.guild_ids else None
        if session is not None:  # a server without the bot tells it nothing
            payload = self._channel_payload(channel, with_guild=True)
            await self._dispatch(session, "CHANNEL_UPDATE", payload)
        self._notify()
        return new

    # ---- interactions for tests --------------------------------------------------

    async def send_command(
        self,
        user: FakeUser | str | int,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel_id: int | None = None,
        wait: bool = True,
        timeout: float = 10.0,
    ) -> FakeInteraction:
        """Dispatch a slash command as ``user`` typed it, built from the registered schema.

        ``command`` is the path as typed, without the slash ("pickomino new" or
        "pickomino admin reset"); ``options`` the leaf options by name (a user option takes
        a FakeUser or username, a choice option its value or its name). With ``wait`` this
        returns once the bot answered (and a deferred reply was filled in).
        """
        member = self.user(user)
        path = command.lstrip("/").split()
        if not path:
            raise ValueError("empty command")
        place = channel_id or self.channel.id
        cmd = self._command_in(path[0], place)
        if cmd is None:
            names = sorted(c["name"] for c in self.all_commands())
            raise LookupError(f"/{path[0]} is not registered; registered: {names}")
        owners = self._check_command_usable(cmd, member, place)
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        schema: list[dict[str, Any]] = cmd.get("options") or []
        node = data
        for name in path[1:]:
            sub = next(
                (o for o in schema if o["name"] == name and o["type"] in (1, 2)),
                None,
            )
            if sub is None:
                subs = [o["name"] for o in schema if o["type"] in (1, 2)]
                raise LookupError(f"/{command}: no subcommand {name!r}; choices: {subs}")
            child: dict[str, Any] = {"name": sub["name"], "type": sub["type"], "options": []}
            node.setdefault("options", []).append(child)
            node, schema = child, sub.get("options") or []
        if any(o["type"] in (1, 2) for o in schema):
            subs = [o["name"] for o in schema if o["type"] in (1, 2)]
            raise ValueError(f"/{command} needs a subcommand: {subs}")
        resolved: dict[str, dict[str, Any]] = {}
        values = self._build_options(command, schema, dict(options or {}), resolved)
        if values or node is not data:
            node["options"] = values
        if self.channels[place].is_private:
            resolved.pop("members", None)  # outside a server a user is no member
        if resolved:
            data["resolved"] = resolved
        payload = self._interaction_payload(IT_COMMAND, member, place, owners=owners)
        payload["data"] = data
        interaction = self._new_interaction(payload, member, f"/{' '.join(path)}")
        return await self._run_interaction(interaction, wait=wait, timeout=timeout)

    def entry_point_payload(
        self, user: FakeUser | str | int, channel_id: int | None = None
    ) -> dict[str, Any]:
        """The INTERACTION_CREATE of `user` using the application's Entry Point (the App
        Launcher's command) in a channel (the first by default)."""
        member = self.user(user)
        place = channel_id or self.channel.id
        command = self.entry_point()
        if command is None:
            raise LookupError("the application has no Entry Point command")
        owners = self._check_command_usable(command, member, place)
        payload = self._interaction_payload(IT_COMMAND, member, place, owners=owners)
        payload["data"] = {
            "id": command["id"],
            "name": command["name"],
            "type": PRIMARY_ENTRY_POINT,
        }
        return payload

    def entry_point(self) -> dict[str, Any] | None:
        """The application's Entry Point command, as stored (global only)."""
        return next(
            (
                c
                for c in self.commands.get(None, {}).values()
                if c.get("type") == PRIMARY_ENTRY_POINT
            ),
            None,
        )

    async def use_entry_point(
        self,
        user: FakeUser | str | int,
        *,
        channel_id: int | None = None,
        wait: bool = True,
        timeout: float = 10.0,
    ) -> FakeInteraction | None:
        """`user` opens the application from the App Launcher in a channel: with the
        application's handler, the interaction it is sent; with Discord's own (the
        portal's default "launch"), Discord launches the Activity and the bot hears
        nothing (None)."""
        command = self.entry_point()
        if command is not None and command.get("handler") == DISCORD_LAUNCH_ACTIVITY:
            self._check_command_usable(command, self.user(user), channel_id or self.channel.id)
            self.launch(user, channel_id)
            return None
        payload = self.entry_point_payload(user, channel_id)
        interaction = self._new_interaction(payload, self.user(user), f"/{payload['data']['name']}")
        return await self._run_interaction(interaction, wait=wait, timeout=timeout)

    async def click(
        self,
        user: FakeUser | str | int,
        message: FakeMessage | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        wait: bool = True,
        timeout: float = 10.0,
    ) -> FakeInteraction:
        """Click a button on a message, by ``custom_id`` or by ``label``, as ``user``."""
        member = self.user(user)
        msg = self._message_for_user(message, member)
        if label is not None:
            button = msg.button(label)
        else:
            found = next((b for b in msg.buttons if b.custom_id == custom_id), None)
            if found is None:
                ids = [b.custom_id for b in msg.buttons]
                raise LookupError(f"no button {custom_id!r} on message {msg.id}; ids: {ids}")
            button = found
        if button.url is not None or button.custom_id is None:
            raise ValueError(f"{button.label!r} is a link button: clicking it opens a URL")
        if button.disabled:
            raise ValueError(f"{button.label!r} is disabled: Discord does not let users click it")
        data = {
            "custom_id": button.custom_id,
            "component_type": CT_BUTTON,
            "id": button.component_id,
        }
        return await self._component_interaction(member, msg, data, button.custom_id, wait, timeout)

    async def select(
        self,
        user: FakeUser | str | int,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[str],
        *,
        wait: bool = True,
        timeout: float = 10.0,
    ) -> FakeInteraction:
        """Choose ``values`` in a string select menu."""
        member = self.user(user)
        msg = self._message_for_user(message, member)
        comp = msg.component(custom_id)
        if comp.get("type") not in SELECT_TYPES or comp.get("disabled"):
            raise ValueError(f"{custom_id!r} is not an enabled select menu")
        allowed = {o["value"] for o in comp.get("options") or []}
        if comp["type"] == CT_STRING_SELECT and not set(values) <= allowed:
            raise ValueError(f"{values} are not all options of {custom_id!r}: {sorted(allowed)}")
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"{custom_id!r} takes {low}..{high} values")
        data = {
            "custom_id": custom_id,
            "component_type": comp["type"],
            "id": comp.get("id"),
            "values": list(values),
        }
        return await self._component_interaction(member, msg, data, custom_id, wait, timeout)

    async def submit_modal(
        self,
        user: FakeUser | str | int,
        opened_by: FakeInteraction,
        values: Mapping[str, str],
        *,
        wait: bool = True,
        timeout: float = 10.0,
    ) -> FakeInteraction:
        """Fill in and submit the modal the bot answered ``opened_by`` with."""
        member = self.user(user)
        modal = opened_by.modal
        if modal is None:
            raise ValueError(f"{opened_by.name} was not answered with a modal")
        components: list[dict[str, Any]] = []
        for row in modal.get("components") or []:
            inner = row.get("component") if row.get("type") == CT_LABEL else None
            inputs = [inner] if inner else list(row.get("components") or [])
            answered = []
            for comp in inputs:
                if comp.get("type") != CT_TEXT_INPUT:
                    continue
                value = values.get(comp["custom_id"], "")
                if comp.get("required", True) and not value:
                    raise ValueError(f"modal field {comp['custom_id']!r} is required")
                answered.append(
                    {
                        "type": CT_TEXT_INPUT,
                        "id": comp.get("id"),
                        "custom_id": comp["custom_id"],
                        "value": value,
                    }
                )
            if not answered:
                continue
            if inner is not None:
                components.append({"type": CT_LABEL, "id": row.get("id"), "component": answered[0]})
            else:
                components.append(
                    {"type": CT_ACTION_ROW, "id": row.get("id"), "components": answered}
                )
        payload = self._interaction_payload(
            IT_MODAL_SUBMIT, member, opened_by.channel_id, owners=opened_by.owners
        )
        payload["data"] = {"custom_id": modal["custom_id"], "components": components}
        source = opened_by.source_message_id
        source_message = self.get_message(source) if source else None
        if source_message is not None:
            payload["message"] = source_message.payload()
        interaction = self._new_interaction(payload, member, f"modal {modal['custom_id']}")
        interaction.source_message_id = source
        return await self._run_interaction(interaction, wait=wait, timeout=timeout)

    # ---- interaction internals ---------------------------------------------------

    def _command_in(self, name: str, channel_id: int) -> dict[str, Any] | None:
        """The command a person sees under `name` in a channel: the guild's own commands
        there (only in a guild of the bot's), then the global ones."""
        guild_id = self.guild_of(channel_id)
        scopes = (guild_id, None) if guild_id in self.guild_ids else (None,)
        for scope in scopes:
            for cmd in self.commands.get(scope, {}).values():
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        return None

    def _check_command_usable(
        self, cmd: dict[str, Any], user: FakeUser, channel_id: int
    ) -> dict[str, str]:
        """Discord's client offers a command only where its `contexts` allow, through an
        installation its `integration_types` allow, to whom its permissions allow; the
        authorizing integration owners it will send."""
        self._check_participant(user, channel_id)
        context = self.context_of(channel_id)
        if context not in self._command_contexts(cmd):
            raise PermissionError(f"/{cmd['name']} is not available in {CONTEXT_NAMES[context]}")
        owners = self._owners(channel_id, user, cmd.get("integration_types") or [GUILD_INSTALL])
        if not owners:
            raise PermissionError(
                f"/{cmd['name']} is not installed where {user.username} uses it (the bot is "
                f"not there and the command or the person has no user install)"
            )
        required = cmd.get("default_member_permissions")
        if required is not None and context == 0:
            needed = int(required)
            have = self.member_permissions(user, self.guild_of(channel_id))
            if (needed == 0 and have != ALL_PERMISSIONS) or have & needed != needed:
                raise PermissionError(f"{user.username} cannot see /{cmd['name']} (permissions)")
        return owners

    @staticmethod
    def _command_contexts(cmd: dict[str, Any]) -> list[int]:
        """A command's contexts; without them, as before contexts existed: a server, and
        the bot's DM for a global command with dm_permission."""
        contexts = cmd.get("contexts")
        if contexts is not None:
            return list(contexts)
        in_dms = cmd.get("guild_id") is None and cmd.get("dm_permission", True)
        return [0, 1] if in_dms else [0]

    def _build_options(
        self,
        command: str,
        schema: list[dict[str, Any]],
        given: dict[str, Any],
        resolved: dict[str, dict[str, Any]],
    ) -> list[dict[str, Any]]:
        names = {o["name"] for o in schema}
        unknown = set(given) - names
        if unknown:
            raise ValueError(f"/{command}: unknown options {sorted(unknown)}; known: {names}")
        out = []
        for opt in schema:
            value = given.get(opt["name"])
            if value is None:
                if opt.get("required"):
                    raise ValueError(f"/{command}: option {opt['name']!r} is required")
                continue
            out.append(
                {
                    "name": opt["name"],
                    "type": opt["type"],
                    "value": self._option_value(command, opt, value, resolved),
                }
            )
        return out

    def _option_value(
        self,
        command: str,
        opt: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
    ) -> Any:
        kind, name = opt["type"], opt["name"]
        bad = ValueError(f"/{command}: {value!r} is not valid for option {name!r}")
        choices = opt.get("choices")
        if choices:
            for choice in choices:
                if value == choice["name"] and value not in [c["value"] for c in choices]:
                    value = choice["value"]
            if value not in [c["value"] for c in choices]:
                raise ValueError(f"/{command}: {name!r} must be one of {choices}")
        if kind == OPT_STRING:
            if not isinstance(value, str):
                raise bad
            if not opt.get("min_length", 0) <= len(value) <= opt.get("max_length", 6000):
                raise bad
            return value
        if kind in (OPT_INTEGER, OPT_NUMBER):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise bad
            if kind == OPT_INTEGER and not isinstance(value, int):
                raise bad
            low, high = opt.get("min_value"), opt.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise ValueError(f"/{command}: {name!r} must be within {low}..{high}")
            return value
        if kind == OPT_BOOLEAN:
            if not isinstance(value, bool):
                raise bad
            return value
        if kind in (OPT_USER, OPT_MENTIONABLE):
            member = self.user(value)
            resolved.setdefault("users", {})[str(member.id)] = member.payload()
            member_data = self._member_payload(member, with_user=False)
            member_data["permissions"] = str(self.member_permissions(member))
            resolved.setdefault("members", {})[str(member.id)] = member_data
            return str(member.id)
        if kind == OPT_CHANNEL:
            channel = value if isinstance(value, FakeChannel) else self.channels.get(int(value))
            if channel is None:
                raise bad
            resolved.setdefault("channels", {})[str(channel.id)] = {
                "id": str(channel.id),
                "name": channel.name,
                "type": channel.type,
                "permissions": str(ALL_PERMISSIONS),
                "parent_id": str(channel.parent_id) if channel.parent_id else None,
                "guild_id": str(self.guild_of(channel.id)),
            }
            return str(channel.id)
        if kind == OPT_ROLE:
            role = next((r for r in self._roles_payload() if r["id"] == str(value)), None)
            if role is None:
                raise bad
            resolved.setdefault("roles", {})[role["id"]] = role
            return role["id"]
        raise ValueError(f"/{command}: option type {kind} is not supported by the stand-in")

    def _message_for_user(self, message: FakeMessage | int, user: FakeUser) -> FakeMessage:
        message_id = message.id if isinstance(message, FakeMessage) else int(message)
        msg = self.get_message(message_id)
        if msg is None or msg.deleted:
            raise LookupError(f"message {message_id} does not exist (or was deleted)")
        if msg.is_ephemeral and msg.recipient_id != user.id:
            raise PermissionError(f"{user.username} cannot see ephemeral message {msg.id}")
        self._check_participant(user, msg.channel_id)
        return msg

    async def _component_interaction(
        self,
        member: FakeUser,
        msg: FakeMessage,
        data: dict[str, Any],
        name: str,
        wait: bool,
        timeout: float,
    ) -> FakeInteraction:
        owners = self._component_owners(msg, member)
        payload = self._interaction_payload(IT_COMPONENT, member, msg.channel_id, owners=owners)
        payload["data"] = data
        payload["message"] = msg.payload()
        interaction = self._new_interaction(payload, member, name)
        interaction.source_message_id = msg.id
        return await self._run_interaction(interaction, wait=wait, timeout=timeout)

    def _interaction_payload(
        self,
        kind: int,
        user: FakeUser,
        channel_id: int | None,
        *,
        owners: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        channel = self.channels[channel_id or self.channel.id]
        if owners is None:
            owners = self._owners(channel.id, user, [GUILD_INSTALL, USER_INSTALL])
        # As Discord: the person's and the app's permissions in this channel, overwrites
        # included; where the bot is not a member, the app has the person's.
        user_permissions = self.permissions_in(user, channel.id)
        channel_data = self._channel_payload(channel, with_guild=True)
        channel_data.pop("permission_overwrites", None)
        channel_data["permissions"] = str(user_permissions)
        payload: dict[str, Any] = {
            "app_permissions": str(self._interaction_app_permissions(user, channel.id)),
            "application_id": str(self.application_id),
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "authorizing_integration_owners": owners,
            "channel": channel_data,
            "channel_id": str(channel.id),
            "context": self.context_of(channel.id),
            "entitlement_sku_ids": [],
            "entitlements": [],
            "id": str(self._snowflake()),
            "locale": user.locale,
            "token": "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(96),
            "type": kind,
            "version": 1,
        }
        if channel.is_private:
            payload["user"] = user.payload()  # outside a server: no guild, no member
            return payload
        member = self._member_payload(user)
        member["permissions"] = str(user_permissions)
        guild_id = self.guild_of(channel.id)
        payload |= {
            "guild": {"features": [], "id": str(guild_id), "locale": "en-US"},
            "guild_id": str(guild_id),
            "guild_locale": "en-US",
            "member": member,
        }
        return payload

    def _new_interaction(
        self, payload: dict[str, Any], user: FakeUser, name: str
    ) -> FakeInteraction:
        interaction = FakeInteraction(
            fake=self,
            id=int(payload["id"]),
            token=payload["token"],
            type=payload["type"],
            user=user,
            name=name,
            channel_id=int(payload["channel_id"]),
            payload=payload,
            forced_ephemeral=self._answers_forced_ephemeral(user, int(payload["channel_id"])),
        )
        self.interactions.append(interaction)
        self._interactions_by_id[interaction.id] = interaction
        self._interactions_by_token[interaction.token] = interaction
        return interaction

    async def _run_interaction(
        self, interaction: FakeInteraction, *, wait: bool, timeout: float
    ) -> FakeInteraction:
        if self.realism.latency is not None:
            # People are on the network too: what they act on reached their client one way
            # after it reached Discord, and their click takes one way back. So a click
            # never overtakes the answer that showed them what they click.
            await asyncio.sleep(self._one_way() + self._one_way())
        guild_id = self.guild_of(interaction.channel_id)
        # As Discord: a session whose connection dropped is sent the click all the same,
        # to replay at a RESUME; only with no session at all (the bot has not connected
        # yet) is there nothing to send it to, and the test waits for one.
        await self.wait_for(
            lambda: self.session_for(guild_id) is not None,
            timeout=timeout,
            what=f"a bot shard for guild {guild_id} to connect",
        )
        session = self.session_for(guild_id)
        assert session is not None
        interaction.dispatched_at = time.perf_counter()
        await self._dispatch(session, "INTERACTION_CREATE", interaction.payload)
        if wait:
            await interaction.wait_settled(timeout)
        return interaction
