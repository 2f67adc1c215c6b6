"""WebSocket edge of a competition: ``ws/competitions/<id>/`` pushes its standings.

Public read, like the REST standings: anonymous connections are welcome. Protocol
(docs/leagues.md, WebSocket):

- On connect the server sends ``{"type": "standings", "version": V, "standings": {...}}``:
  the official standings document (``leagues.selectors.competitions.official_standings``,
  the same as ``GET /api/competitions/<id>/standings``) at competition version ``V``.
- After every change, ``league_standings`` (the projection) sends ``standings.changed``
  to the group ``competition.<id>``; each connection then sends the new document, once
  per version and in order (a notice for a version already sent is ignored).
- A safety net for a lost notice (the pub/sub layer delivers at most once): the web
  process's safety sweep (``games.live.sockets``: every
  ``settings.WS_SAFETY_SWEEP_SECONDS``, one query for the versions of every competition
  its sockets follow, however many) sends the newer document to a connection behind it,
  like the table's socket. Nothing polls per connection.
- When a started round's tables all exist (they are created after ``RoundStarted``),
  ``{"type": "tables", "round": N}``: a page opens the boards it showed as being set up.
- The server reads nothing from the client; anything sent gets ``{"type": "error"}``.
- An unknown competition: an error message, then close code 4404.
- It counts under the same cap as the table sockets (``games.live.connection_limits``: one
  cap for all of a user's, or an address's, live sockets): over it, the same
  ``too_many_connections`` message, then close code 4429.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.rule_words import in_words
from games.live.sockets import LiveSocket, in_thread_pool
from leagues.core.errors import LeagueError
from leagues.projections import group_name
from leagues.selectors.competitions import competition_versions, official_standings
from leagues.services.streams import parse_id

CLOSE_NOT_FOUND = 4404


def _standings(competition_id: str) -> dict[str, Any] | None:
    try:
        return official_standings(competition_id)
    except LeagueError:
        return None


load_standings = in_thread_pool(_standings)


class CompetitionConsumer(LiveSocket):
    """One subscriber to one competition's standings."""

    @classmethod
    def stream_versions(cls, keys: Sequence[str]) -> dict[str, int]:
        return competition_versions(keys)

    async def open_stream(self) -> bool:
        try:
            competition_id = parse_id(self.scope["url_route"]["kwargs"]["competition_id"])
        except LeagueError as error:
            await self.refuse(error.code, in_words(error.message), CLOSE_NOT_FOUND)
            return False
        # Join before reading, so no change falls between the read and the join.
        await self.join(group_name(competition_id))
        self.stream_key = competition_id
        if not await self.send_standings():
            await self.refuse(
                "unknown_competition", "There is no such competition.", CLOSE_NOT_FOUND
            )
            return False
        return True

    async def send_standings(self, at_least: int = 0) -> bool:
        """Send the current document unless this version was sent; False: no competition."""
        async with self.sending:
            if self.last_sent is not None and at_least <= self.last_sent:
                return True
            document = await load_standings(self.stream_key)
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
        if isinstance(version, int) and self.is_behind(version):
            await self.send_standings(at_least=version)

    async def tables_opened(self, message: dict[str, Any]) -> None:
        """Group notice from ``start_round``: the round's tables all exist now."""
        number = message.get("round")
        if isinstance(number, int):
            await self.send_json({"type": "tables", "round": number})

    async def resync(self, version: int) -> None:
        if self.is_behind(version):
            await self.send_standings(at_least=version)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send_json(
            {
                "type": "error",
                "code": "read_only",
                "message": "This socket only sends standings; it reads nothing.",
            }
        )
