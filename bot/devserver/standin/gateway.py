"""The gateway: HELLO, IDENTIFY, READY and GUILD_CREATE, RESUME, heartbeats, member
requests, and the dispatch of events to the session of the shard that owns a guild."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from bot.devserver.standin.constants import (
    API_VERSION,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    OP_DISPATCH,
    OP_HEARTBEAT,
    OP_HEARTBEAT_ACK,
    OP_HELLO,
    OP_IDENTIFY,
    OP_INVALID_SESSION,
    OP_PRESENCE,
    OP_RECONNECT,
    OP_REQUEST_MEMBERS,
    OP_RESUME,
    OP_VOICE_STATE,
    PRIVILEGED_INTENTS,
)
from bot.devserver.standin.models import FakeMessage, Rejection, as_int
from bot.devserver.standin.state import StandinState

# Discord: "If you close with 1000 or 1001, your session will be invalidated"; otherwise it
# "will remain active and timeout after a few minutes" (Gateway, Disconnecting).
ENDING_CLOSE_CODES = (1000, 1001)
RESUMABLE_SECONDS = 180.0


@dataclass
class Session:
    id: str
    intents: int
    identify: dict[str, Any]
    shard: tuple[int, int]
    seq: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    conn: Connection | None = None
    resumes: int = 0
    active_since: int = 0  # when it last identified or resumed: the newest one gets events
    dropped_at: float | None = None  # time.monotonic() when its connection went
    ended: bool = False  # its bot closed it with 1000 or 1001

    def resumable(self) -> bool:
        """Connected, or dropped less than Discord's few minutes ago and not ended."""
        if self.conn is not None or self.dropped_at is None:
            return True
        return not self.ended and time.monotonic() - self.dropped_at < RESUMABLE_SECONDS

    def owns(self, guild_id: int) -> bool:
        """Whether Discord sends this guild's events on this session (its shard)."""
        shard_id, shard_count = self.shard
        return (guild_id >> 22) % shard_count == shard_id


class Connection:
    """One gateway websocket, with Discord's transport compression if asked for.

    With a `delay` (the network's latency, one way), every frame reaches the bot that
    much later, in the order it was sent: `send` queues it and returns, and a writer
    task sends it when it is due; `close` is queued behind the frames sent before it.
    """

    def __init__(
        self,
        ws: web.WebSocketResponse,
        compress: str | None,
        path: str,
        delay: Callable[[], float] | None = None,
    ) -> None:
        self.ws = ws
        self.path = path
        self.compress = compress
        self._compressor = zlib.compressobj() if compress == "zlib-stream" else None
        self._lock = asyncio.Lock()
        self.session: Session | None = None
        self.heartbeats = 0
        self._delay = delay
        self._outbox: asyncio.Queue[_Outgoing] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._last_due = 0.0
        self.closed_by_discord = False  # the stand-in closed it, not the bot

    async def send(self, frame: dict[str, Any]) -> None:
        data = json.dumps(frame, separators=(",", ":"))
        if self._delay is None:
            await self._write(data)
            return
        if self.ws.closed:
            raise ConnectionResetError("gateway websocket closed")
        self._post(_Outgoing(0.0, data))

    async def close(self, code: int, reason: str) -> None:
        if self._delay is None or self._writer is None or self._writer.done():
            await self._close_now(code, reason)
            return
        closed = asyncio.Event()
        self._post(_Outgoing(0.0, None, (code, reason), closed))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(closed.wait(), 5)

    def stop(self) -> None:
        """Forget what is still queued: the socket is gone."""
        if self._writer is not None:
            self._writer.cancel()
        while not self._outbox.empty():
            closed = self._outbox.get_nowait().closed
            if closed is not None:
                closed.set()

    def _post(self, outgoing: _Outgoing) -> None:
        assert self._delay is not None
        loop = asyncio.get_running_loop()
        outgoing.due = self._last_due = max(self._last_due, loop.time() + self._delay())
        self._outbox.put_nowait(outgoing)
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._deliver(), name="fake-discord-gateway-writer")

    async def _deliver(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            outgoing = await self._outbox.get()
            try:
                await asyncio.sleep(max(0.0, outgoing.due - loop.time()))
                if outgoing.close is not None:
                    await self._close_now(*outgoing.close)
                    return
                assert outgoing.data is not None
                await self._write(outgoing.data)
            except ConnectionResetError:
                return  # the session keeps its frames for a RESUME
            finally:
                if outgoing.closed is not None:
                    outgoing.closed.set()

    async def _write(self, data: str) -> None:
        async with self._lock:
            if self.ws.closed:
                raise ConnectionResetError("gateway websocket closed")
            if self._compressor is not None:
                chunk = self._compressor.compress(data.encode())
                chunk += self._compressor.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(chunk)
            else:
                await self.ws.send_str(data)

    async def _close_now(self, code: int, reason: str) -> None:
        self.closed_by_discord = True
        with contextlib.suppress(Exception):
            await self.ws.close(code=code, message=reason.encode())


@dataclass
class _Outgoing:
    """A frame (or the close) on its way to the bot."""

    due: float
    data: str | None
    close: tuple[int, str] | None = None
    closed: asyncio.Event | None = None


class Gateway(StandinState):
    """Discord's gateway on top of the world: sessions, connections and dispatches."""

    def __init__(self, *, heartbeat_interval_ms: int, **world: Any) -> None:
        super().__init__(**world)
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.gateway_log: list[tuple[str, int | None, str | None]] = []
        self.presence: dict[str, Any] | None = None
        self.identifies = 0
        self.sessions: dict[str, Session] = {}
        self.session: Session | None = None
        self._activations = 0
        self._connections: set[Connection] = set()
        self._closing = False

    # ---- gateway control for tests -----------------------------------------------

    @property
    def resumes(self) -> int:
        """How many RESUMEs the sessions took, all told."""
        return sum(session.resumes for session in self.sessions.values())

    @property
    def ready(self) -> bool:
        session = self.session
        return session is not None and session.conn is not None and not session.conn.ws.closed

    def session_for(self, guild_id: int) -> Session | None:
        """The gateway session a guild's events go to: the newest one of its shard, a
        connected one first (a dropped one keeps its events for a RESUME)."""
        owners = [
            session
            for session in self.sessions.values()
            if session.owns(guild_id) and session.resumable()
        ]
        connected = [session for session in owners if session.conn is not None]
        chosen = connected or owners
        return max(chosen, key=lambda session: session.active_since) if chosen else None

    def guild_ready(self, guild_id: int) -> bool:
        """Whether a connected session receives the guild's events."""
        session = self.session_for(guild_id)
        return session is not None and session.conn is not None and not session.conn.ws.closed

    async def wait_until_ready(self, timeout: float = 10.0) -> None:
        """Until a bot has identified and been sent READY (and GUILD_CREATE)."""
        await self.wait_for(lambda: self.ready, timeout=timeout, what="the bot to connect")

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client should come back with RESUME."""
        conn = self.session.conn if self.session else None
        if conn is not None:
            await conn.send({"op": OP_RECONNECT, "d": None, "s": None, "t": None})

    async def drop_connection(self, code: int = 4000) -> None:
        """Close the gateway socket as if the network failed (the session stays resumable)."""
        conn = self.session.conn if self.session else None
        if conn is not None:
            await conn.close(code, "dropped by the test")

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a dispatch event to the bot (kept for a resume if the bot is away)."""
        session = self.session
        if session is None:
            raise RuntimeError("no bot is connected")
        await self._dispatch(session, event, data)

    # ---- the gateway -------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if self._closing:
            return web.Response(status=503, text="shutting down")
        ws = web.WebSocketResponse(timeout=2.0, autoping=True)
        await ws.prepare(request)
        query = request.query
        # discord.py 2.7 asks for zlib-stream (zstd-stream when zstandard is installed). We
        # honour zlib-stream as Discord does; for anything else we send plain text frames,
        # which discord.py's poll_event() accepts too.
        delay = self._one_way if self.realism.latency is not None else None
        conn = Connection(ws, query.get("compress"), request.path, delay)
        self._connections.add(conn)
        try:
            if query.get("v", str(API_VERSION)) != str(API_VERSION):
                await self._gateway_reject(conn, 4012, "Invalid API version")
                return ws
            if query.get("encoding", "json") != "json":
                await self._gateway_reject(conn, 4002, "Error while decoding payload.")
                return ws
            await conn.send(
                {
                    "op": OP_HELLO,
                    "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake"]},
                    "s": None,
                    "t": None,
                }
            )
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    await self._gateway_reject(conn, 4002, "Error while decoding payload.")
                    break
                try:
                    frame = json.loads(msg.data)
                except ValueError:
                    await self._gateway_reject(conn, 4002, "Error while decoding payload.")
                    break
                if not await self._gateway_frame(conn, frame):
                    break
        except ConnectionResetError:
            pass
        finally:
            conn.stop()
            self._connections.discard(conn)
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                session.dropped_at = time.monotonic()
                # Discord: closed with 1000 or 1001 the session ends (the bot shows
                # offline); dropped, or closed with another code, it stays resumable
                # for a few minutes.
                session.ended = not conn.closed_by_discord and ws.close_code in ENDING_CLOSE_CODES
            self._notify()
        return ws

    async def _gateway_reject(self, conn: Connection, code: int, reason: str) -> None:
        self.rejections.append(Rejection("GATEWAY", conn.path, code, code, reason))
        await conn.close(code, reason)

    async def _gateway_frame(self, conn: Connection, frame: dict[str, Any]) -> bool:
        op, data = frame.get("op"), frame.get("d")
        self.gateway_log.append(("recv", op, None))
        if op == OP_HEARTBEAT:
            conn.heartbeats += 1
            await conn.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
            return True
        if op == OP_IDENTIFY:
            return await self._identify(conn, data or {})
        if op == OP_RESUME:
            return await self._resume(conn, data or {})
        if conn.session is None:
            await self._gateway_reject(conn, 4003, "Not authenticated.")
            return False
        if op == OP_PRESENCE:
            self.presence = data
            return True
        if op == OP_VOICE_STATE:
            return True
        if op == OP_REQUEST_MEMBERS:
            await self._request_members(conn.session, data or {})
            return True
        self.unknown_routes.append(f"GATEWAY op {op}")
        await conn.close(4001, "Unknown opcode.")
        return False

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> bool:
        if conn.session is not None:
            await self._gateway_reject(conn, 4005, "Already authenticated.")
            return False
        if not self._token_ok(data.get("token")):
            await self._gateway_reject(conn, 4004, "Authentication failed.")
            return False
        intents = data.get("intents")
        if not isinstance(intents, int):
            await self._gateway_reject(conn, 4013, "Invalid intent(s).")
            return False
        if intents & PRIVILEGED_INTENTS & ~self.allowed_privileged_intents:
            await self._gateway_reject(conn, 4014, "Disallowed intent(s).")
            return False
        shard_id, shard_count = data.get("shard") or (0, 1)
        if not 0 <= shard_id < shard_count:
            await self._gateway_reject(conn, 4010, "Invalid shard.")
            return False
        self.identifies += 1
        session = Session(secrets.token_hex(16), intents, data, (shard_id, shard_count))
        session.conn = conn
        conn.session = session
        self.sessions[session.id] = session
        if data.get("presence"):
            self.presence = data["presence"]
        session.active_since = self._activate()
        in_shard = [guild_id for guild_id in self.guild_ids if session.owns(guild_id)]
        ready = {
            "v": API_VERSION,
            "user": self._bot_user_me(),
            "user_settings": {},
            "session_type": "normal",
            "session_id": session.id,
            "resume_gateway_url": self.resume_gateway_url,
            "relationships": [],
            "private_channels": [],
            "presences": [],
            "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in in_shard],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["local"],
            "auth": {},
            "application": {
                "id": str(self.application_id),
                "flags": self._application_payload()["flags"],
            },
            "shard": [shard_id, shard_count],
            "_trace": ["fake-discord"],
        }
        await self._dispatch(session, "READY", ready)
        if intents & INTENT_GUILDS:
            for guild_id in in_shard:
                await self._dispatch(
                    session, "GUILD_CREATE", self._guild_payload(intents, guild_id)
                )
        self.session = session
        self._notify()
        return True

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> bool:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or not session.resumable() or not self._token_ok(data.get("token")):
            await conn.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
            return True
        if session.conn is not None and session.conn is not conn:
            await session.conn.close(4000, "session resumed elsewhere")
        seq = data.get("seq") or 0
        session.conn = conn
        conn.session = session
        session.resumes += 1
        session.active_since = self._activate()
        for frame in session.history:
            if frame["s"] > seq:
                await conn.send(frame)
        await self._dispatch(session, "RESUMED", {"_trace": ["fake-discord"]})
        self.session = session
        self._notify()
        return True

    def _activate(self) -> int:
        self._activations += 1
        return self._activations

    async def _request_members(self, session: Session, data: dict[str, Any]) -> None:
        guild_ids = data.get("guild_id")
        if not isinstance(guild_ids, list):
            guild_ids = [guild_ids]
        for guild_id in guild_ids:
            if as_int(guild_id) not in self.guild_ids:
                continue
            members = self._all_members()
            query = data.get("query")
            if data.get("user_ids"):
                wanted = {int(u) for u in data["user_ids"]}
                members = [m for m in members if m.id in wanted]
            elif query:
                members = [m for m in members if m.username.lower().startswith(query.lower())]
            limit = data.get("limit") or 0
            if limit:
                members = members[:limit]
            chunk: dict[str, Any] = {
                "guild_id": str(guild_id),
                "members": [self._member_payload(m) for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if data.get("nonce") is not None:
                chunk["nonce"] = data["nonce"]
            if data.get("presences"):
                chunk["presences"] = []
            await self._dispatch(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _dispatch(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data}
        session.history.append(frame)
        del session.history[:-2000]
        self.gateway_log.append(("send", OP_DISPATCH, event))
        conn = session.conn
        if conn is not None:
            try:
                await asyncio.wait_for(conn.send(frame), 10)
            except (ConnectionResetError, TimeoutError):
                # Kept in the history: a RESUME replays it, as Discord does.
                await conn.close(4000, "send failed")

    async def _dispatch_message_event(self, event: str, message: FakeMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE for the bot, if it asked for guild messages."""
        if not self.bot_is_in(message.channel_id) or message.is_ephemeral:
            return  # Discord tells a bot nothing of a place it is not in
        guild_id = self.guild_of(message.channel_id)  # 0 in the bot's DM: shard 0
        session = self.session_for(guild_id)
        intent = INTENT_GUILD_MESSAGES if guild_id else INTENT_DIRECT_MESSAGES
        if session is None or not session.intents & intent:
            return
        data: dict[str, Any]
        if event == "MESSAGE_DELETE":
            data = {"id": str(message.id), "channel_id": str(message.channel_id)}
        else:
            data = message.payload()
            author = self.user(int(message.author["id"])) if not message.webhook_id else None
            if author is not None and guild_id:
                data["member"] = self._member_payload(author, with_user=False)
        if guild_id:
            data["guild_id"] = str(guild_id)
        await self._dispatch(session, event, data)
