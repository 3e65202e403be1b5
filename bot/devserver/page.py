"""The page: a channel of the stand-in drawn in the browser, where people play.

Each browser tab is a person (a WebSocket, `/play/ws`). The page draws the channel's
messages with `bot.preview.message_html` (the renderer of the preview tool), sends each
tab what changed as soon as the stand-in changes (no polling), and turns the tab's
clicks, menu choices and typed commands into the interactions Discord would send the
bot. Ephemeral messages go only to the person they were sent to. A refusal of the page's
own (a button that is gone, an unknown command, a frame too large) goes to that tab only.

Each tab has a language (`?lang=`, else the browser's): the page's words, the messages'
own (Only you can see this, Today at, relative times) and the commands' names are in it,
and it is the locale of that tab's interactions, so the bot answers in it too. A name
Discord would refuse is refused with its reason and the socket closed (`NAME_REFUSED`):
the page asks again rather than reconnecting.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import unicodedata
from dataclasses import dataclass, field
from html import escape
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web

from bot.devserver import names, typed
from bot.devserver.language import command_path, discord_locale, page_locale
from bot.devserver.standin import (
    CHANNEL_GROUP_DM,
    FakeDiscord,
    FakeDiscordTimeout,
    FakeInteraction,
    FakeMessage,
    FakeUser,
)
from bot.devserver.standin.proxy import ActivityProxy
from bot.i18n import t
from bot.i18n.locales import DEFAULT_LOCALE, with_locale
from bot.preview.html import CommandUse, message_html, stylesheet
from bot.process.background import BackgroundTasks

log = logging.getLogger(__name__)

MAX_FRAME = 16 * 1024  # bytes a tab may send in one WebSocket frame
SHOWN_MESSAGES = 100  # the newest messages of a channel a tab is sent
MAX_CHANNELS = 20
ANSWER_TIMEOUT = 15.0  # seconds: a bot restarting comes back within this
NAME_REFUSED = 4001  # the close code after a refused name: ask, do not reconnect
CHANNEL_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
# The words the script shows (play.page.<key>); the page's own are filled in as {{key}}.
SCRIPT_WORDS = (
    "you_are", "reconnecting", "bot_starting", "too_large", "not_connected",
    "new_channel_prompt", "optional", "true", "false", "connected", "connecting",
    "retrying", "new_group_dm_prompt", "new_botless_prompt",
)  # fmt: skip
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
STATIC = {
    "play.css": "text/css",
    "play.js": "text/javascript",
}


@dataclass(eq=False)
class Tab:
    """One browser tab: a person looking at a channel."""

    ws: web.WebSocketResponse
    user: FakeUser
    channel_id: int
    locale: str = DEFAULT_LOCALE
    shown: dict[int, tuple[Any, ...]] = field(default_factory=dict)  # message id -> key
    online: bool | None = None
    channels: tuple[Any, ...] = ()  # the places the tab was last sent
    commands: int = -1
    host: str = "127.0.0.1"  # the name the browser reached us by: the proxy's too


class Refusal(Exception):
    """A request from a tab that changes nothing: an i18n key (`play.refusal.*`) and its
    parameters, said to that tab in its language."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return t(f"play.refusal.{self.key}", **self.params)


class Page:
    """The chat page; with a `proxy` (the table's page is built), the table opens in a
    panel beside the chat when the bot answers with LAUNCH_ACTIVITY, or from the App
    Launcher."""

    def __init__(self, fake: FakeDiscord, proxy: ActivityProxy | None = None) -> None:
        self.fake = fake
        self.proxy = proxy
        self.tabs: set[Tab] = set()
        # (message id, language) -> (the message's version key, its HTML)
        self._rendered: dict[tuple[int, str], tuple[tuple[Any, ...], str]] = {}
        self._flush_scheduled = False
        self._tasks = BackgroundTasks()
        fake.listeners.append(self.changed)

    def setup(self, app: web.Application) -> None:
        app.router.add_get("/", self.index)
        app.router.add_get("/play/ws", self.socket)
        app.router.add_get("/play/ping", self.ping)
        app.router.add_get("/play/emoji/{name}.png", self.emoji)
        app.router.add_get("/play/static/discord.css", self.discord_css)
        app.router.add_get("/play/static/{name}", self.static)

    # ---- files ------------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.Response:
        """The page in its language (`?lang=`, else the browser's): its words filled in,
        and those the script needs as JSON."""
        asked = request.query.get("lang") or request.headers.get("Accept-Language") or ""
        locale = page_locale(asked)
        html = resources.files(__package__).joinpath("static/play.html").read_text("utf-8")
        with with_locale(locale):
            words = {key: t(f"play.page.{key}") for key in SCRIPT_WORDS}
            html = _PLACEHOLDER.sub(
                lambda m: escape(t(f"play.page.{m.group(1)}", limit=names.MAX_LENGTH)), html
            )
        # JSON inside <script>: only "<" could end it early.
        script = json.dumps(words, ensure_ascii=False).replace("<", "\\u003c")
        html = html.replace("$lang", locale).replace("$discord_locale", discord_locale(locale))
        html = html.replace("$limit", str(names.MAX_LENGTH)).replace("$words", script)
        html = html.replace("$table", "on" if self.proxy is not None else "off")
        return web.Response(text=html, content_type="text/html", headers=_NO_STORE)

    async def ping(self, request: web.Request) -> web.Response:
        """What a tab that lost its socket asks before opening another: is the server up."""
        return web.Response(status=204, headers=_NO_STORE)

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        text = resources.files(__package__).joinpath(f"static/{name}").read_text("utf-8")
        return web.Response(text=text, content_type=STATIC[name], headers=_NO_STORE)

    async def discord_css(self, request: web.Request) -> web.Response:
        return web.Response(text=stylesheet(), content_type="text/css", headers=_NO_STORE)

    async def emoji(self, request: web.Request) -> web.Response:
        data = self.fake.emoji_images.get(request.match_info["name"])
        if data is None:
            raise web.HTTPNotFound()
        return web.Response(body=data, content_type="image/png")

    # ---- a tab ------------------------------------------------------------------------

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=20)
        await ws.prepare(request)
        tab: Tab | None = None
        try:
            async for frame in ws:
                if frame.type != WSMsgType.TEXT:
                    break
                try:
                    data = json.loads(frame.data)
                    if not isinstance(data, dict):
                        raise ValueError
                except ValueError:
                    with with_locale(tab.locale if tab else None):
                        text = str(Refusal("unreadable"))
                    await _send(ws, {"op": "refusal", "text": text})
                    continue
                if tab is None:
                    tab = await self._hello(ws, data, request.url.host or "127.0.0.1")
                    continue
                self._spawn(self._handle(tab, data))
        finally:
            if tab is not None:
                self.tabs.discard(tab)
        return ws

    async def _hello(
        self, ws: web.WebSocketResponse, data: dict[str, Any], host: str
    ) -> Tab | None:
        locale = page_locale(str(data.get("locale", "")))
        try:
            if data.get("op") != "hello":
                raise Refusal("hello_first")
            user = self.person(data.get("name"))
        except Refusal as refusal:
            with with_locale(locale):
                text = str(refusal)
            # The tab asks for another name: no reconnecting with this one.
            await _send(ws, {"op": "name_refused", "text": text, "name": data.get("name")})
            await ws.close(code=NAME_REFUSED, message=b"name refused")
            return None
        # The bot answers this person in their language, as Discord tells it the client's.
        user.locale = discord_locale(locale)
        channel_id = _as_id(data.get("channel"))
        if channel_id not in self.fake.channels:
            channel_id = self.fake.channel.id
        tab = Tab(ws, user, channel_id, locale, host=host)
        await self._enter(tab, channel_id)
        self.tabs.add(tab)
        await _send(ws, {"op": "welcome", "name": user.display_name, "user": str(user.id)})
        await self.sync(tab)
        return tab

    def person(self, typed: object) -> FakeUser:
        """The member called `typed` (any case, whitespace as Discord trims it), added to
        the server if new; Refusal if Discord would not take it as a display name."""
        try:
            name = names.display_name(typed)
        except names.NameRefused as refused:
            raise Refusal(refused.key, **refused.params) from None
        for user in self.fake.users.values():
            if _same_name(user.display_name, name):
                return user
        base = re.sub(r"[^a-z0-9_.]", "", name.lower().replace(" ", "_"))[:28] or "player"
        username, serial = base, 1
        while username in self.fake.users:
            serial += 1
            username = f"{base}{serial}"
        user = self.fake.add_user(username)
        user.global_name = name
        self.changed()
        return user

    async def _handle(self, tab: Tab, data: dict[str, Any]) -> None:
        op = data.get("op")
        try:
            if op == "command":
                await self.command(tab, str(data.get("text", "")))
            elif op == "click":
                await self.click(tab, data.get("message"), data.get("custom_id"), None)
            elif op == "select":
                values = data.get("values")
                if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                    raise Refusal("pick_option")
                await self.click(tab, data.get("message"), data.get("custom_id"), values)
            elif op == "channel":
                await self.open_channel(tab, str(data.get("name", "")))
            elif op == "group_dm":
                await self.open_group_dm(tab, str(data.get("name", "")))
            elif op == "botless":
                await self.open_botless_server(tab, str(data.get("name", "")))
            elif op == "switch":
                await self.switch(tab, data.get("channel"))
            elif op == "dismiss":
                self.dismiss(tab, data.get("message"))
            elif op == "launcher":
                await self.app_launcher(tab)
            else:
                raise Refusal("unknown_request")
        except (Refusal, typed.TypedCommandError) as refusal:
            with with_locale(tab.locale):
                text = str(refusal)
            await _send(tab.ws, {"op": "refusal", "text": text, "seq": data.get("seq")})

    async def command(self, tab: Tab, text: str) -> None:
        parsed = typed.parse(text, self.fake.all_commands(), tab.locale)
        options = dict(parsed.options)
        command = _find_leaf(self.fake.find_command(parsed.path[0]), parsed.path)
        for option in command:
            if option["type"] == typed.USER and option["name"] in options:
                options[option["name"]] = self._member(options[option["name"]])
        _speak(tab)
        try:
            interaction = await self.fake.send_command(
                tab.user,
                " ".join(parsed.path),
                options,
                channel_id=tab.channel_id,
                wait=False,
                timeout=ANSWER_TIMEOUT,
            )
        except FakeDiscordTimeout:
            raise Refusal("offline") from None
        except (LookupError, ValueError, PermissionError) as error:
            raise Refusal("not_sent", reason=error) from None
        await self._answered(interaction)
        await self._launched(tab, interaction)

    def _member(self, name: str) -> FakeUser:
        for user in self.fake.users.values():
            if name.casefold() in (user.display_name.casefold(), user.username):
                return user
        raise Refusal("nobody", name=name)

    async def click(self, tab: Tab, message: Any, custom_id: Any, values: list[str] | None) -> None:
        message_id = _as_id(message)
        shown = self.fake.get_message(message_id) if message_id else None
        if shown is None or shown.deleted or shown.channel_id != tab.channel_id:
            raise Refusal("message_gone")
        if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
            raise Refusal("not_component")
        _speak(tab)
        try:
            if values is None:
                interaction = await self.fake.click(
                    tab.user, shown, custom_id, wait=False, timeout=ANSWER_TIMEOUT
                )
            else:
                interaction = await self.fake.select(
                    tab.user, shown, custom_id, values, wait=False, timeout=ANSWER_TIMEOUT
                )
        except FakeDiscordTimeout:
            raise Refusal("offline") from None
        except PermissionError:
            raise Refusal("not_yours") from None
        except LookupError:
            raise Refusal("button_gone") from None
        except ValueError as error:
            raise Refusal("unusable", reason=error) from None
        await self._answered(interaction)
        await self._launched(tab, interaction)

    async def _answered(self, interaction: Any) -> None:
        try:
            await interaction.wait_answered(ANSWER_TIMEOUT)
        except FakeDiscordTimeout:
            raise Refusal("failed") from None

    # ---- the table (the Activity) -----------------------------------------------------

    async def app_launcher(self, tab: Tab) -> None:
        """The person picks the app in Discord's App Launcher: its Entry Point command is
        used in the tab's channel. With the bot's own handler the bot answers (with
        LAUNCH_ACTIVITY, or a message); with Discord's, Discord launches it at once."""
        if self.proxy is None:
            raise Refusal("no_table")
        _speak(tab)
        try:
            interaction = await self.fake.use_entry_point(
                tab.user, channel_id=tab.channel_id, wait=False, timeout=ANSWER_TIMEOUT
            )
        except FakeDiscordTimeout:
            raise Refusal("offline") from None
        except LookupError:
            raise Refusal("no_entry_point") from None
        except PermissionError as error:
            raise Refusal("not_sent", reason=error) from None
        if interaction is None:
            await self._open_table(tab)
            return
        await self._answered(interaction)
        await self._launched(tab, interaction)

    async def _launched(self, tab: Tab, interaction: FakeInteraction) -> None:
        """The bot answered with LAUNCH_ACTIVITY: the Activity opens for this person."""
        if interaction.activity_instance_id is not None:
            await self._open_table(tab)

    async def _open_table(self, tab: Tab) -> None:
        """The tab shows Discord's client for this person's launch in its channel."""
        if self.proxy is None:
            raise Refusal("no_table")
        url = self.proxy.client_url(tab.user, tab.channel_id, host=tab.host)
        await _send(tab.ws, {"op": "launch", "url": url})

    async def open_channel(self, tab: Tab, name: str) -> None:
        name = name.strip().lower().replace(" ", "-")
        if not CHANNEL_NAME.fullmatch(name):
            raise Refusal("channel_name")
        if any(c.name == name for c in self.fake.guild_channels[self.fake.guild_id]):
            raise Refusal("channel_exists", name=name)
        if len(self.fake.guild_channels[self.fake.guild_id]) >= MAX_CHANNELS:
            raise Refusal("channel_limit", count=MAX_CHANNELS)
        channel = await self.fake.add_channel(name)
        await self.switch(tab, channel.id)

    async def open_group_dm(self, tab: Tab, name: str) -> None:
        """A group DM of everyone at the table, the bot not among them: the app is used
        there through each person's own install."""
        name = name.strip()
        if not 1 <= len(name) <= 100:
            raise Refusal("group_dm_name")
        if len(self.fake.private_channels) >= MAX_CHANNELS:
            raise Refusal("channel_limit", count=MAX_CHANNELS)
        others = [user for user in self.fake.users.values() if user is not tab.user]
        channel = await self.fake.add_group_dm(name, [tab.user, *others])
        await self.switch(tab, channel.id)

    async def open_botless_server(self, tab: Tab, name: str) -> None:
        """A server the bot is not in, with one channel: where people use the app they
        installed to their account."""
        name = name.strip()
        if not 2 <= len(name) <= 100:
            raise Refusal("server_name")
        if len(self.fake.botless_guilds) >= MAX_CHANNELS:
            raise Refusal("channel_limit", count=MAX_CHANNELS)
        guild_id = await self.fake.add_guild_without_bot(name, ("general",))
        await self.switch(tab, self.fake.guild_channels_of(guild_id)[0].id)

    def places(self, locale: str) -> list[dict[str, str]]:
        """The places a tab may switch to, labelled in its language: the server's
        channels, then group DMs, then the channels of servers without the bot."""
        fake = self.fake
        found = [
            {"id": str(c.id), "name": c.name, "label": f"#{c.name}", "kind": "channel"}
            for c in fake.guild_channels[fake.guild_id]
        ]
        with with_locale(locale):
            found += [
                {
                    "id": str(c.id),
                    "name": c.name,
                    "label": t("play.page.group_dm_label", name=c.name),
                    "kind": "group_dm",
                }
                for c in fake.private_channels.values()
                if c.type == CHANNEL_GROUP_DM
            ]
            found += [
                {
                    "id": str(c.id),
                    "name": c.name,
                    "label": t("play.page.botless_label", server=guild.name, channel=c.name),
                    "kind": "botless",
                }
                for guild in fake.botless_guilds.values()
                for c in guild.channels
            ]
        return found

    async def switch(self, tab: Tab, channel: Any) -> None:
        channel_id = _as_id(channel)
        if channel_id not in self.fake.channels:
            raise Refusal("no_channel")
        await self._enter(tab, channel_id)
        tab.channel_id = channel_id
        tab.shown = {}
        await _send(tab.ws, {"op": "switched", "channel": str(channel_id)})
        await self.sync(tab)

    async def _enter(self, tab: Tab, channel_id: int) -> None:
        """Whoever opens a group DM on the page is added to it, as a member would add
        them: one page, everyone at the table may look in."""
        if self.fake.channels[channel_id].type == CHANNEL_GROUP_DM:
            await self.fake.join_group_dm(channel_id, tab.user)

    def dismiss(self, tab: Tab, message: Any) -> None:
        found = self.fake.get_message(_as_id(message) or 0)
        if found is not None and found.is_ephemeral and found.recipient_id == tab.user.id:
            found.deleted = True  # as Discord's Dismiss: gone for good, for its one reader
            self.changed()

    # ---- keeping tabs up to date ------------------------------------------------------

    def changed(self) -> None:
        """The stand-in changed: send every tab what it shows now, once per loop turn."""
        if self._flush_scheduled or not self.tabs:
            return
        self._flush_scheduled = True
        self._spawn(self._flush())

    async def _flush(self) -> None:
        self._flush_scheduled = False
        await asyncio.gather(*(self.sync(tab) for tab in list(self.tabs)))

    async def sync(self, tab: Tab) -> None:
        fake = self.fake
        frame: dict[str, Any] = {"op": "sync", "channel": str(tab.channel_id)}
        online = fake.ready
        if online != tab.online:
            tab.online = frame["online"] = online
        places = self.places(tab.locale)
        key = tuple(place["id"] for place in places)
        if key != tab.channels:
            tab.channels = key
            frame["channels"] = places
        if fake.command_syncs != tab.commands:
            tab.commands = fake.command_syncs
            frame["commands"] = [c for c in fake.all_commands() if c.get("type", 1) == 1]
        messages = self.visible(tab)
        upsert: dict[str, str] = {}
        for message in messages:
            key = self._key(message)
            if tab.shown.get(message.id) != key:
                upsert[str(message.id)] = self.render(message, key, tab.locale)
                tab.shown[message.id] = key
        ids = {m.id for m in messages}
        removed = [str(i) for i in tab.shown if i not in ids]
        for i in removed:
            del tab.shown[int(i)]
        if upsert or removed:
            frame |= {"upsert": upsert, "remove": removed, "order": [str(m.id) for m in messages]}
        if len(frame) > 2:
            await _send(tab.ws, frame)

    def visible(self, tab: Tab) -> list[FakeMessage]:
        channel = tab.channel_id
        fake = self.fake
        messages = [
            *fake.channel_messages(channel),
            *(m for m in fake.ephemeral_messages(tab.user) if m.channel_id == channel),
        ]
        messages.sort(key=lambda m: m.id)
        return messages[-SHOWN_MESSAGES:]

    def _key(self, message: FakeMessage) -> tuple[Any, ...]:
        fake = self.fake
        return (message.edits, message.flags, len(fake.users), len(fake.emoji_images))

    def render(self, message: FakeMessage, key: tuple[Any, ...], locale: str) -> str:
        """The message as a reader of `locale` sees it (Discord's own words in it)."""
        cached = self._rendered.get((message.id, locale))
        if cached is not None and cached[0] == key:
            return cached[1]
        fake = self.fake
        payload = message.payload()
        metadata = message.interaction_metadata or {}
        command = None
        if metadata.get("name"):
            who = fake.user(int(metadata["user"]["id"])).display_name
            used = command_path(str(metadata["name"]), fake.all_commands(), locale)
            command = CommandUse(who, used)
        with with_locale(locale):
            html = self._html(message, payload, command)
        self._rendered[message.id, locale] = (key, html)
        return html

    def _html(self, message: FakeMessage, payload: Any, command: CommandUse | None) -> str:
        fake = self.fake
        return message_html(
            payload,
            names={str(u.id): u.display_name for u in fake.users.values()},
            channels={str(c.id): c.name for c in fake.channels.values()},
            emoji_images={name: f"/play/emoji/{name}.png" for name in fake.emoji_images},
            images={
                str(a["filename"]): f"/attachments/{message.channel_id}/{a['id']}/{a['filename']}"
                for a in message.attachments
            },
            command=command,
        )

    def _spawn(self, coroutine: Any) -> None:
        self._tasks.start(coroutine, "play-page")

    async def close(self) -> None:
        for tab in list(self.tabs):
            with contextlib.suppress(Exception):
                await tab.ws.close(code=1001, message=b"server stopping")
        self._tasks.cancel()


_NO_STORE = {"Cache-Control": "no-store"}


def _speak(tab: Tab) -> None:
    """The tab's member clicks in the tab's language: Discord sends the locale of the
    client that made the interaction (one person may have two tabs in two languages)."""
    tab.user.locale = discord_locale(tab.locale)


def _same_name(a: str, b: str) -> bool:
    """Two ways of typing one name: any case, composed or decomposed accents."""
    return unicodedata.normalize("NFC", a).casefold() == unicodedata.normalize("NFC", b).casefold()


def _as_id(value: Any) -> int | None:
    try:
        number = int(str(value))
    except ValueError:
        return None
    return number if 0 < number < 1 << 63 else None


def _find_leaf(command: dict[str, Any] | None, path: tuple[str, ...]) -> list[dict[str, Any]]:
    options: list[dict[str, Any]] = (command or {}).get("options") or []
    for name in path[1:]:
        sub = next((o for o in options if o["name"] == name), {})
        options = sub.get("options") or []
    return options


async def _send(ws: web.WebSocketResponse, frame: dict[str, Any]) -> None:
    if ws.closed:
        return
    with contextlib.suppress(ConnectionError, RuntimeError):
        await ws.send_str(json.dumps(frame))
