"""WebSocket edge of a competition: ``ws/competitions/<id>/`` pushes its standings.

Public read, like the REST standings: anonymous connections are welcome. Protocol
(docs/leagues.md, WebSocket):

- On connect the server sends ``{"type": "standings", "version": V, "standings": {...}}``:
  the official standings document (``leagues.selectors.competitions.official_standings``,
  the same as ``GET /api/competitions/<id>/standings``) at competition version ``V``.
- After every change, ``league_standings`` (the projection) sends ``standings.changed``
  to the group ``competition.<id>``; each connection then sends the new document, once
  per version and in order (a notice for a version already sent is ignored).
- A safety net for a lost notice (the pub/sub layer delivers at most once): every
  ``settings.WS_RESYNC_SECONDS`` the connection compares the stream's version with the
  last one it sent and sends the newer document, like the table's socket.
- The server reads nothing from the client; anything sent gets ``{"type": "error"}``.
- An unknown competition: an error message, then close code 4404.
- It counts under the same cap as the table sockets (``games.live.connection_limits``: one
  cap for all of a user's, or an address's, live sockets): over it, the same
  ``too_many_connections`` message, then close code 4429.
"""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import close_old_connections

from eventstore.reading import stream_version
from games.live.connection_limits import (
    CLOSE_TOO_MANY_CONNECTIONS,
    ConnectionSlot,
    claim_slot,
    over_cap_message,
)
from leagues.core.errors import LeagueError
from leagues.domain.events import competition_stream_id
from leagues.projections import group_name
from leagues.selectors.competitions import official_standings
from leagues.services.streams import parse_id

CLOSE_NOT_FOUND = 4404


def _standings(competition_id: str) -> dict[str, Any] | None:
    close_old_connections()
    try:
        return official_standings(competition_id)
    except LeagueError:
        return None


load_standings = sync_to_async(_standings, thread_sensitive=False)


def _version(competition_id: str) -> int:
    close_old_connections()
    return stream_version(competition_stream_id(competition_id))


current_version = sync_to_async(_version, thread_sensitive=False)


class CompetitionConsumer(AsyncJsonWebsocketConsumer):
    """One subscriber to one competition's standings."""

    competition_id: str
    last_sent: int | None
    resync_task: asyncio.Future[None] | None
    slot: ConnectionSlot | None

    async def connect(self) -> None:
        self.last_sent = None
        self.resync_task = None
        self.slot = None
        self.sending = asyncio.Lock()
        self.competition_id = ""
        await self.accept()
        self.slot = await claim_slot(self.scope, self.channel_name)
        if self.slot is None:
            message = over_cap_message(self.scope)
            await self.refuse("too_many_connections", message, CLOSE_TOO_MANY_CONNECTIONS)
            return
        try:
            self.competition_id = parse_id(self.scope["url_route"]["kwargs"]["competition_id"])
        except LeagueError as error:
            await self.refuse(error.code, error.message)
            return
        # Join before reading, so no change falls between the read and the join.
        await self.channel_layer.group_add(group_name(self.competition_id), self.channel_name)
        if not await self.send_standings():
            await self.refuse("unknown_competition", "There is no such competition.")
            return
        self.resync_task = asyncio.ensure_future(self.resync_periodically())

    async def resync_periodically(self) -> None:
        """Send a version whose notice never came (checked every WS_RESYNC_SECONDS)."""
        while True:
            await asyncio.sleep(settings.WS_RESYNC_SECONDS)
            version = await current_version(self.competition_id)
            if self.last_sent is not None and version > self.last_sent:
                await self.send_standings(at_least=version)

    async def refuse(self, code: str, message: str, close_code: int = CLOSE_NOT_FOUND) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})
        await self.close(code=close_code)

    async def disconnect(self, code: int) -> None:
        if self.slot is not None:
            await self.slot.release()
        if self.resync_task is not None:
            self.resync_task.cancel()
        if self.competition_id:
            await self.channel_layer.group_discard(
                group_name(self.competition_id), self.channel_name
            )

    async def send_standings(self, at_least: int = 0) -> bool:
        """Send the current document unless this version was sent; False: no competition."""
        async with self.sending:
            if self.last_sent is not None and at_least <= self.last_sent:
                return True
            document = await load_standings(self.competition_id)
            if document is None:
                return False
            version = int(document["version"])
            if self.last_sent is not None and version <= self.last_sent:
                return True
            self.last_sent = version
            await self.send_json({"type": "standings", "version": version, "standings": document})
            return True

    async def standings_changed(self, message: dict[str, Any]) -> None:
        """Group notice from the standings projection: the competition reached a version."""
        version = message.get("version")
        await self.send_standings(at_least=version if isinstance(version, int) else 0)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send_json(
            {
                "type": "error",
                "code": "read_only",
                "message": "This socket only sends standings; it reads nothing.",
            }
        )
