"""Discord's side of an Activity, for the table: Activities enabled or not, the OAuth2
token route and `/users/@me` for a person's access token, the activity-instances
route, the launch a LAUNCH_ACTIVITY answer makes, and what tests do with them (mint a
code as the consent would, launch, leave, end).

With Activities off (as for an application that never enabled them in the portal),
Discord refuses an Entry Point command and a LAUNCH_ACTIVITY answer. Enabling them
(`enable_activities`, or `FakeDiscord(activities=True)`) sets the application's
EMBEDDED flag and creates the portal's default Entry Point, "launch", whose handler is
Discord's own.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from aiohttp import web
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bot.devserver.standin.activities import ActivityInstance, ActivityInstances
from bot.devserver.standin.entry_points import PRIMARY_ENTRY_POINT, default_entry_point
from bot.devserver.standin.errors import DiscordHTTPError
from bot.devserver.standin.models import FakeInteraction, FakeUser
from bot.devserver.standin.oauth import SCOPE_IDENTIFY, Grant, OAuth, OAuthError
from bot.devserver.standin.places import Places
from bot.devserver.standin.proxy_signature import public_key_hex

DEFAULT_CLIENT_SECRET = "fake-discord-client-secret"
APPLICATION_EMBEDDED = 1 << 17  # the application flag Activities set
ACTIVITY_INSTANCE_ROUTE = "/applications/{application_id}/activity-instances/{instance_id}"
OAUTH_TOKEN_ROUTE = "/oauth2/token"


class ActivityRoutes(Places):
    """Activities, OAuth2 and activity instances on top of the world and the gateway."""

    def __init__(
        self,
        *,
        activities: bool = False,
        client_secret: str = DEFAULT_CLIENT_SECRET,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        self.activities = False
        self.oauth = OAuth(self.application_id, client_secret)
        self.activity_instances = ActivityInstances(self._snowflake)
        # The application's key pair: the proxy signs what it forwards with it (a new
        # one each start, as nothing outside this process knows it).
        self.application_key = Ed25519PrivateKey.generate()
        if activities:
            self.enable_activities()

    # ---- for tests -----------------------------------------------------------------

    @property
    def client_secret(self) -> str:
        """The application's OAuth2 client secret (DISCORD_CLIENT_SECRET for the bot)."""
        return self.oauth.client_secret

    @property
    def public_key(self) -> str:
        """The application's public key, hex, as the portal shows it (DISCORD_PUBLIC_KEY
        for the bot: it checks the proxy's signatures with it)."""
        return public_key_hex(self.application_key)

    def enable_activities(self) -> None:
        """As the portal's Enable Activities: the EMBEDDED flag, and the default Entry
        Point when the application has none."""
        self.activities = True
        commands = self.commands.setdefault(None, {})
        if not any(c.get("type") == PRIMARY_ENTRY_POINT for c in commands.values()):
            command_id = self._snowflake()
            commands[command_id] = {
                "id": str(command_id),
                "application_id": str(self.application_id),
                "version": str(self._snowflake()),
                "default_member_permissions": None,
                "name_localizations": None,
                "description_localizations": None,
                "nsfw": False,
                "dm_permission": True,
                **default_entry_point(),
            }
        self._notify()

    def mint_code(
        self, user: FakeUser | str | int, scopes: tuple[str, ...] = (SCOPE_IDENTIFY,)
    ) -> str:
        """An authorization code for `user`, as AUTHORIZE answers once they consented:
        one use, ten minutes."""
        return self.oauth.mint_code(self.user(user).id, scopes)

    def launch(self, user: FakeUser | str | int, channel_id: int | None = None) -> str:
        """`user` opens the Activity in a channel (the first by default): they join its
        running instance, or start one. The instance's id."""
        return self._launch(self.user(user), channel_id or self.channel.id).instance_id

    def leave_activity(self, user: FakeUser | str | int, instance_id: str) -> None:
        """`user` closes the Activity; the last one out ends the instance."""
        self.activity_instances.leave(self.user(user).id, instance_id)
        self._notify()

    def end_activity(self, instance_id: str) -> None:
        """The instance ends with everyone in it."""
        self.activity_instances.end(instance_id)
        self._notify()

    def activity_instance(self, instance_id: str) -> ActivityInstance | None:
        """The instance if it is running."""
        return self.activity_instances.running(instance_id)

    # ---- what a launch does ----------------------------------------------------------

    def _launch(self, user: FakeUser, channel_id: int) -> ActivityInstance:
        if not self.activities:
            raise PermissionError("Activities are not enabled for the application")
        self._check_participant(user, channel_id)
        guild_id = self.guild_of(channel_id) or None
        instance = self.activity_instances.launch(user.id, channel_id, guild_id)
        self._notify()
        return instance

    def _launch_answer(self, interaction: FakeInteraction) -> ActivityInstance:
        """A LAUNCH_ACTIVITY answer: the clicker joins or starts the channel's instance;
        refused as Discord does for an application without Activities."""
        if not self.activities:
            raise DiscordHTTPError(
                400, 50035, "Invalid Form Body", {"type": {"_errors": [
                    {"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                     "message": "Interaction response type 12 is not valid here"}]}},
                detail="Activities are not enabled for the application",
            )  # fmt: skip
        return self._launch(interaction.user, interaction.channel_id)

    def _application_flags(self) -> int:
        return APPLICATION_EMBEDDED if self.activities else 0

    # ---- routes ------------------------------------------------------------------------

    def _activity_routes(self) -> list[tuple[str, str, Any, bool]]:
        """(method, template, handler, bot token) for Rest's route table."""
        return [
            ("POST", OAUTH_TOKEN_ROUTE, self._oauth_token, False),
            ("GET", ACTIVITY_INSTANCE_ROUTE, self._get_activity_instance, True),
        ]

    async def _oauth_token(self, request: web.Request) -> web.Response:
        """Trade a code for an access token (a form body, as Discord takes only that)."""
        if request.content_type != "application/x-www-form-urlencoded":
            error = OAuthError(400, "invalid_request", "The body must be a form.")
            return web.json_response(error.body(), status=error.status)
        form = {key: str(value) for key, value in (await request.post()).items()}
        try:
            token = self.oauth.exchange(form, _basic(request.headers.get("Authorization", "")))
        except OAuthError as error:
            return web.json_response(error.body(), status=error.status)
        return web.json_response(token)

    def _bearer_user(self, authorization: str) -> dict[str, Any]:
        """`/users/@me` for a person's access token: who they are (401 for a token that
        is unknown, expired or without the identify scope)."""
        grant: Grant | None = self.oauth.bearer(authorization.removeprefix("Bearer ").strip())
        if grant is None or SCOPE_IDENTIFY not in grant.scopes:
            raise DiscordHTTPError(401, 0, "401: Unauthorized")
        user = self.user(grant.user_id)
        return user.payload() | {"locale": user.locale, "mfa_enabled": False, "flags": 0}

    async def _get_activity_instance(
        self, request: web.Request, application_id: str, instance_id: str
    ) -> dict[str, Any]:
        instance = self.activity_instances.running(instance_id)
        if int(application_id) != self.application_id or instance is None:
            raise DiscordHTTPError(404, 0, "404: Not Found")
        return instance.payload(self.application_id)


def _basic(authorization: str) -> tuple[str, str] | None:
    """The client's id and secret from an HTTP Basic Authorization header."""
    scheme, _, encoded = authorization.partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        client_id, _, secret = base64.b64decode(encoded).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return client_id, secret
