"""Discord's client as the Activity's parent frame: its side of the Embedded App SDK's
postMessage protocol (discord/embedded-app-sdk 2.5.0, `src/Discord.ts` and
`src/schema/`), for one launch of one person.

The stand-in's Discord page (static/discord_client.js) only relays: what the table's
iframe posts comes here over its socket, and the frames to post back go out from here.
So every frame Discord sends is built in this one module, and the browser tests hold
them against the real SDK, whose schemas drop a frame that does not fit without a word
(an answer without `evt: null`, a READY with `user.avatar: null`: the promise then
never settles).

Messages are `[opcode, payload]`: the page's HANDSHAKE (0) is answered with the READY
event; each command (FRAME, 1: `{cmd, args, nonce}`) with `{cmd, evt: null, nonce,
data}`, or `{cmd, evt: "ERROR", nonce, data: {code, message}}`; events go out as
`{cmd: "DISPATCH", evt, nonce: null, data}`; a bad handshake gets CLOSE (2).
AUTHORIZE shows Discord's consent dialog the first time a person is asked for those
scopes, then answers with a code the stand-in's OAuth2 route trades for a token.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.devserver.language import page_locale
from bot.devserver.standin.activities import ActivityInstance
from bot.devserver.standin.models import FakeUser
from bot.devserver.standin.oauth import SCOPE_IDENTIFY, Grant
from bot.devserver.standin.server import FakeDiscord
from bot.i18n import t

HANDSHAKE, FRAME, CLOSE = 0, 1, 2
# The SDK's RPCErrorCodes, and Discord's RPC code for an OAuth2 failure.
INVALID_PAYLOAD, INVALID_COMMAND, INVALID_EVENT = 4000, 4002, 4004
INVALID_PERMISSIONS, INVALID_CLIENTID, INVALID_TOKEN = 4006, 4007, 4009
OAUTH2_ERROR = 5000
# The SDK's RPCCloseCodes, for a handshake Discord refuses.
CLOSE_INVALID_CLIENTID, CLOSE_INVALID_VERSION, CLOSE_INVALID_ENCODING = 4000, 4004, 4005
PARTICIPANTS_UPDATE = "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"
# The events a page may subscribe to (the SDK's Events, READY aside); only the
# participants' is ever sent here.
EVENTS = frozenset(
    {
        "VOICE_STATE_UPDATE", "SPEAKING_START", "SPEAKING_STOP", "ACTIVITY_LAYOUT_MODE_UPDATE",
        "ORIENTATION_UPDATE", "CURRENT_USER_UPDATE", "CURRENT_GUILD_MEMBER_UPDATE",
        "ENTITLEMENT_CREATE", "THERMAL_STATE_UPDATE", PARTICIPANTS_UPDATE,
        "RELATIONSHIP_UPDATE", "ACTIVITY_JOIN", "QUEST_ENROLLMENT_STATUS_UPDATE",
    }
)  # fmt: skip
KEPT_LOGS = 200  # CAPTURE_LOG lines kept for a test to read

Frame = list[Any]  # [opcode, payload]


# ---- the frames ----------------------------------------------------------------------


def answer(cmd: str, nonce: str, data: Any) -> Frame:
    """A command's answer. `evt` must be there and null: the SDK's schema says so."""
    return [FRAME, {"cmd": cmd, "evt": None, "nonce": nonce, "data": data}]


def refusal(cmd: str, nonce: str | None, code: int, message: str) -> Frame:
    """A command refused: the SDK rejects its promise with `{code, message}`."""
    error = {"code": code, "message": message}
    return [FRAME, {"cmd": cmd, "evt": "ERROR", "nonce": nonce, "data": error}]


def dispatch(evt: str, data: Any) -> Frame:
    """An event, for the page's listeners of `evt`."""
    return [FRAME, {"cmd": "DISPATCH", "evt": evt, "nonce": None, "data": data}]


def close(code: int, message: str) -> Frame:
    return [CLOSE, {"code": code, "message": message}]


def ready(user: FakeUser) -> Frame:
    """What makes the SDK's `ready()` resolve."""
    # No `avatar` key for a person without one: READY's schema takes a string or no key,
    # and null fails its parse.
    shown = {"id": str(user.id), "username": user.username, "discriminator": "0"}
    config = {
        "cdn_host": "cdn.discordapp.com",
        "api_endpoint": "//discord.com/api",
        "environment": "production",
    }
    return dispatch("READY", {"v": 1, "config": config, "user": shown})


def participant(user: FakeUser) -> dict[str, Any]:
    """A person in the instance, as GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS lists."""
    found: dict[str, Any] = {
        "id": str(user.id),
        "username": user.username,
        "global_name": user.global_name,
        "discriminator": "0",
        "avatar": None,
        "flags": 0,
        "bot": user.bot,
    }
    if user.nick:
        found["nickname"] = user.nick
    return found


def authenticated(
    token: str, grant: Grant, user: FakeUser, application: FakeUser, expires_in: float
) -> dict[str, Any]:
    """AUTHENTICATE's answer: the token's person, scopes and expiry, and the application."""
    expires = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(time.time() + expires_in))
    return {
        "access_token": token,
        "user": {
            "id": str(user.id),
            "username": user.username,
            "discriminator": "0",
            "public_flags": 0,
            "avatar": None,
            "global_name": user.global_name,
        },
        "scopes": list(grant.scopes),
        "expires": expires,
        "application": {
            "id": str(application.id),
            "name": application.display_name,
            "description": "",
            "icon": None,
        },
    }


# ---- one launch ----------------------------------------------------------------------


@dataclass(frozen=True)
class Launch:
    """A person opening the Activity in a channel: the table is mounted for them under
    `/.proxy/t-<ticket>/`, so each launch signs its requests as its own person."""

    ticket: str
    user_id: int
    channel_id: int

    @property
    def path(self) -> str:
        return f"/.proxy/t-{self.ticket}/"


class RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ParentSide:
    """Discord's client page for one launch. What it sends the relay goes to `emit`:
    `{"op": "launch", "path", "query", "title"}` (make the iframe), `{"op": "post",
    "message"}` (post this to it), `{"op": "consent", "nonce", "title", "lines"}` (ask the
    person), `{"op": "ended", "text"}` (the instance ended)."""

    def __init__(
        self,
        fake: FakeDiscord,
        launch: Launch,
        emit: Callable[[dict[str, Any]], None],
        *,
        platform: str = "desktop",
    ) -> None:
        self.fake = fake
        self.launch = launch
        self.emit = emit
        self.platform = "mobile" if platform == "mobile" else "desktop"
        self.frame_id = str(uuid.uuid4())
        self.instance_id = ""
        self.ready = False
        self.ended = False
        self.authenticated: Grant | None = None
        self.subscriptions: set[str] = set()
        self.shown_participants: list[dict[str, Any]] = []
        self.consents: dict[str, list[str]] = {}  # nonce -> scopes of an AUTHORIZE asking
        self.logs: list[tuple[str, str]] = []  # CAPTURE_LOG's (level, message)
        self.seen: list[Frame] = []  # every message the page posted, for tests

    @property
    def user(self) -> FakeUser:
        return self.fake.user(self.launch.user_id)

    @property
    def language(self) -> str:
        return page_locale(self.user.locale)

    def open(self) -> None:
        """Join the channel's running instance (or start one) and have the page make the
        iframe with Discord's query parameters. PermissionError or LookupError as the
        stand-in's launch raises them."""
        self.instance_id = self.fake.launch(self.user, self.launch.channel_id)
        instance = self._instance()
        query = {
            "instance_id": instance.instance_id,
            "location_id": instance.location_id,
            "launch_id": str(instance.launch_id),
            "channel_id": str(instance.channel_id),
            "frame_id": self.frame_id,
            "platform": self.platform,
        }
        if instance.guild_id is not None:
            query["guild_id"] = str(instance.guild_id)
        title = self.fake.bot_user.display_name
        self.emit({"op": "launch", "path": self.launch.path, "query": query, "title": title})

    def leave(self) -> None:
        """The page closed: the person leaves the instance (the last one out ends it)."""
        if self.instance_id and not self.ended:
            self.fake.leave_activity(self.user, self.instance_id)

    def _instance(self) -> ActivityInstance:
        instance = self.fake.activity_instance(self.instance_id)
        if instance is None:
            raise LookupError(f"activity instance {self.instance_id} has ended")
        return instance

    # ---- from the page ---------------------------------------------------------------

    def receive(self, data: Any) -> None:
        """One message from the relay: `{"op": "sdk", "message": [opcode, payload]}` or
        `{"op": "consent", "nonce", "granted"}`; anything else is dropped, as Discord drops
        what it cannot read."""
        if not isinstance(data, dict) or self.ended:
            return
        if data.get("op") == "consent":
            self.consent(str(data.get("nonce")), data.get("granted") is True)
            return
        message = data.get("message")
        if data.get("op") != "sdk" or not isinstance(message, list) or len(message) != 2:
            return
        opcode, payload = message
        if not isinstance(payload, dict):
            return
        self.seen.append([opcode, payload])
        if opcode == HANDSHAKE:
            self.handshake(payload)
        elif opcode == FRAME and self.ready:
            self.command(payload)

    def handshake(self, payload: dict[str, Any]) -> None:
        """READY for the page's handshake, or CLOSE for a wrong one. A second handshake
        (the iframe reloaded) starts afresh."""
        if payload.get("v") != 1:
            self._post(close(CLOSE_INVALID_VERSION, "Invalid version"))
        elif payload.get("encoding", "json") != "json":
            self._post(close(CLOSE_INVALID_ENCODING, "Invalid encoding"))
        elif payload.get("client_id") != str(self.fake.application_id):
            self._post(close(CLOSE_INVALID_CLIENTID, "Invalid client id"))
        elif payload.get("frame_id") != self.frame_id:
            self._post(close(CLOSE_INVALID_CLIENTID, "Invalid frame id"))
        else:
            self.ready = True
            self.authenticated = None
            self.subscriptions.clear()
            self._post(ready(self.user))

    def command(self, payload: dict[str, Any]) -> None:
        cmd, nonce = payload.get("cmd"), payload.get("nonce")
        if not isinstance(cmd, str) or not isinstance(nonce, str):
            return  # no nonce to answer to
        try:
            data = self._run(cmd, nonce, payload)
        except RpcError as error:
            self._post(refusal(cmd, nonce, error.code, error.message))
            return
        if data is not _LATER:
            self._post(answer(cmd, nonce, data))

    def _run(self, cmd: str, nonce: str, payload: dict[str, Any]) -> Any:
        args = payload.get("args")
        args = args if isinstance(args, dict) else {}
        if cmd in ("SUBSCRIBE", "UNSUBSCRIBE"):
            return self._subscription(cmd, payload.get("evt"))
        if cmd == "AUTHORIZE":
            return self._authorize(nonce, args)
        if cmd == "AUTHENTICATE":
            return self._authenticate(args)
        if cmd == "USER_SETTINGS_GET_LOCALE":
            self._needs(SCOPE_IDENTIFY)
            return {"locale": self.user.locale}
        if cmd == "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS":
            return {"participants": self._participants()}
        if cmd == "CAPTURE_LOG":
            self.logs.append((str(args.get("level")), str(args.get("message"))))
            del self.logs[:-KEPT_LOGS]
            return None
        raise RpcError(INVALID_COMMAND, f"Invalid command: {cmd} is not served by the stand-in")

    def _subscription(self, cmd: str, evt: Any) -> dict[str, Any]:
        if evt not in EVENTS:
            raise RpcError(INVALID_EVENT, f"Invalid event: {evt}")
        if cmd == "UNSUBSCRIBE":
            self.subscriptions.discard(evt)
        else:
            self.subscriptions.add(evt)
            self.shown_participants = self._participants()
        return {"evt": evt}

    def _authorize(self, nonce: str, args: dict[str, Any]) -> Any:
        scopes = args.get("scope")
        if args.get("client_id") != str(self.fake.application_id):
            raise RpcError(INVALID_CLIENTID, "Invalid client id")
        if args.get("response_type") != "code":
            raise RpcError(INVALID_PAYLOAD, "response_type must be code")
        if (
            not isinstance(scopes, list)
            or not scopes
            or not all(isinstance(s, str) for s in scopes)
        ):
            raise RpcError(INVALID_PAYLOAD, "scope must be a list of scopes")
        if self.fake.oauth.consented(self.user.id, scopes):
            return {"code": self.fake.mint_code(self.user, tuple(scopes))}
        self.consents[nonce] = scopes
        application = self.fake.bot_user.display_name
        lines = [_scope_text(scope, self.language) for scope in scopes]
        title = t("play.discord.consent_title", self.language, app=application)
        self.emit({"op": "consent", "nonce": nonce, "title": title, "lines": lines})
        return _LATER

    def consent(self, nonce: str, granted: bool) -> None:
        """The person answered the consent dialog of AUTHORIZE `nonce`."""
        scopes = self.consents.pop(nonce, None)
        if scopes is None:
            return
        if not granted:
            self._post(refusal("AUTHORIZE", nonce, OAUTH2_ERROR, "OAuth2 Error: access_denied"))
            return
        self.fake.oauth.consent(self.user.id, scopes)
        code = self.fake.mint_code(self.user, tuple(scopes))
        self._post(answer("AUTHORIZE", nonce, {"code": code}))

    def _authenticate(self, args: dict[str, Any]) -> dict[str, Any]:
        token = args.get("access_token")
        grant = self.fake.oauth.bearer(token) if isinstance(token, str) else None
        if grant is None or grant.user_id != self.user.id:
            raise RpcError(INVALID_TOKEN, "Invalid access token")
        self.authenticated = grant
        expires_in = grant.expires - self.fake.oauth.clock()
        return authenticated(str(token), grant, self.user, self.fake.bot_user, expires_in)

    def _needs(self, scope: str) -> None:
        if self.authenticated is None or scope not in self.authenticated.scopes:
            raise RpcError(INVALID_PERMISSIONS, f"Not authenticated or invalid scope: {scope}")

    def _participants(self) -> list[dict[str, Any]]:
        instance = self.fake.activity_instance(self.instance_id)
        users = instance.users if instance is not None else []
        return [participant(self.fake.user(user_id)) for user_id in users]

    # ---- from the stand-in -----------------------------------------------------------

    def changed(self) -> None:
        """The stand-in changed: an ended instance closes the page's Activity; new
        participants are dispatched to a page that subscribed."""
        if self.ended or not self.instance_id:
            return
        if self.fake.activity_instance(self.instance_id) is None:
            self.ended = True
            self.emit({"op": "ended", "text": t("play.discord.ended", self.language)})
            return
        if PARTICIPANTS_UPDATE not in self.subscriptions:
            return
        now = self._participants()
        if now != self.shown_participants:
            self.shown_participants = now
            self._post(dispatch(PARTICIPANTS_UPDATE, {"participants": now}))

    def _post(self, frame: Frame) -> None:
        self.emit({"op": "post", "message": frame})


_LATER = object()  # the answer comes later (after the consent dialog)


def _scope_text(scope: str, language: str) -> str:
    """What a scope lets the application do, as the consent dialog says it."""
    if scope == SCOPE_IDENTIFY:
        return t("play.discord.scope_identify", language)
    return scope
