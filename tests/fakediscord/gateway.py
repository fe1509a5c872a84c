"""The gateway websocket: HELLO, IDENTIFY/RESUME, READY + GUILD_CREATE, heartbeats, dispatches.

Frames are sent as uncompressed text; discord.py asks for ``compress=zlib-stream`` but only
decompresses binary frames, so text keeps the fake simple and fast.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import orjson
from aiohttp import WSMsgType, web

from .records import Waitlist
from .world import JSON, World

DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
RESUME = 6
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

GUILDS_INTENT = 1 << 0
MEMBERS_INTENT = 1 << 1

HEARTBEAT_INTERVAL_MS = 41_250
AUTHENTICATION_FAILED = 4004

_HEARTBEAT_ACK_FRAME = json.dumps({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})


def _dumps(payload: JSON) -> str:
    return orjson.dumps(payload).decode()


class ShardDown(RuntimeError):
    """No bot is connected on the shard an event is for (the bot is not started, or the
    process running that shard is down): Discord would not deliver it."""

    def __init__(self, shard_id: int) -> None:
        self.shard_id = shard_id
        super().__init__(
            f"no bot is connected to the fake gateway on shard {shard_id} (is the client started?)"
        )


@dataclass(eq=False)
class GatewaySession:
    """One identified session; survives its socket so a RESUME can pick it up again."""

    id: str
    shard: tuple[int, int]
    intents: int
    identify: JSON
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    async def dispatch(self, event: str, data: JSON) -> None:
        """Send an op 0 event with the next sequence number (serialised per session)."""
        async with self._lock:
            if self.ws is None or self.ws.closed:
                raise ConnectionError(f"gateway session {self.id} is not connected")
            self.seq += 1
            await self.ws.send_str(_dumps({"op": DISPATCH, "t": event, "s": self.seq, "d": data}))


class Gateway:
    """Accepts bot connections over time and routes dispatches to the live one per shard."""

    def __init__(self, world: World, token: str, url: Callable[[], str]) -> None:
        self._world = world
        self._token = token
        self._url = url
        self.sessions: dict[str, GatewaySession] = {}
        self.live: dict[int, GatewaySession] = {}
        self.identifies: list[JSON] = []
        self._changes = Waitlist()

    async def wait_connected(self, timeout: float) -> GatewaySession:
        """The live shard-0 session, once it has been sent READY and its GUILD_CREATEs."""

        def check() -> GatewaySession | None:
            session = self.live.get(0)
            return session if session is not None and session.connected else None

        return await self._changes.wait(check, timeout, "a bot to connect to the fake gateway")

    async def wait_shards(self, shard_ids: Iterable[int], timeout: float) -> None:
        """Until every shard of ``shard_ids`` has a live session (sent READY and its guilds)."""
        wanted = set(shard_ids)

        def check() -> bool | None:
            live = {shard for shard, session in self.live.items() if session.connected}
            return True if wanted <= live else None

        await self._changes.wait(check, timeout, f"bots to connect on shards {sorted(wanted)}")

    def session_for(self, guild_id: int | None) -> GatewaySession:
        """The live session that receives events for a guild (DMs go to shard 0)."""
        shard_id = 0
        if guild_id is not None and self.live:
            count = next(iter(self.live.values())).shard[1]
            shard_id = (guild_id >> 22) % count
        session = self.live.get(shard_id)
        if session is None or not session.connected:
            raise ShardDown(shard_id)
        return session

    async def close_all(self) -> None:
        for session in list(self.live.values()):
            if session.ws is not None:
                await session.ws.close()
        self.live.clear()

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        await ws.send_str(
            _dumps({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None})
        )
        session: GatewaySession | None = None
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(message.data)
                op, data = frame.get("op"), frame.get("d")
                if op == HEARTBEAT:
                    await ws.send_str(_HEARTBEAT_ACK_FRAME)
                elif op == IDENTIFY:
                    session = await self._identify(ws, data)
                elif op == RESUME:
                    session = await self._resume(ws, data)
                elif op == REQUEST_GUILD_MEMBERS and session is not None:
                    await self._send_members(session, data)
        finally:
            if session is not None and session.ws is ws:
                session.ws = None
                if self.live.get(session.shard[0]) is session:
                    del self.live[session.shard[0]]
                self._changes.notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        self.identifies.append(data)
        if data.get("token") != self._token:
            await ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return None
        shard_id, shard_count = data.get("shard") or (0, 1)
        session = GatewaySession(
            id=secrets.token_hex(16),
            shard=(shard_id, shard_count),
            intents=int(data.get("intents", 0)),
            identify=data,
            ws=ws,
        )
        self.sessions[session.id] = session
        self.live[shard_id] = session
        world = self._world
        guilds = [g for g in world.guilds.values() if (g.id >> 22) % shard_count == shard_id]
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": world.bot_user_payload(),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": self._url(),
                "shard": [shard_id, shard_count],
                "application": {"id": str(world.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "geo_ordered_rtc_regions": [],
            },
        )
        if session.intents & GUILDS_INTENT:
            for guild in guilds:
                if guild.outage:
                    await session.dispatch(
                        "GUILD_DELETE", {"id": str(guild.id), "unavailable": True}
                    )
                    continue
                members = list(guild.members.values())
                if not session.intents & MEMBERS_INTENT:
                    members = [m for m in members if m.user.id == world.bot.id]
                payload = guild.payload(members=members, joined_at=world.bot_joined_at)
                await session.dispatch("GUILD_CREATE", payload)
        self._changes.notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != self._token:
            await ws.send_str(_dumps({"op": INVALID_SESSION, "d": False, "s": None, "t": None}))
            return None
        session.ws = ws
        self.live[session.shard[0]] = session
        await session.dispatch("RESUMED", {})
        self._changes.notify()
        return session

    async def _send_members(self, session: GatewaySession, data: JSON) -> None:
        guild = self._world.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        members = list(guild.members.values())
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.user.id in wanted]
        elif data.get("query"):
            members = [m for m in members if m.user.name.startswith(data["query"])]
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if "nonce" in data:
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
