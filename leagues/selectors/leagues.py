"""The leagues list: a page at a time, newest first (the read model written with each
league's events)."""

from __future__ import annotations

from typing import Any

from leagues.core.errors import LeagueError
from leagues.domain.pools import league_pool
from leagues.models import League

MAX_LISTED = 100
MAX_OFFSET = 100_000


def list_leagues(*, limit: int = 50, offset: int = 0) -> dict[str, Any]:
    """One page of leagues, newest first; ``next_offset`` null on the last page."""
    if not 1 <= limit <= MAX_LISTED:
        raise LeagueError("invalid", f"limit is a whole number from 1 to {MAX_LISTED}.")
    if not 0 <= offset <= MAX_OFFSET:
        raise LeagueError("invalid", f"offset is a whole number from 0 to {MAX_OFFSET}.")
    page = list(League.objects.order_by("-created_at", "id")[offset : offset + limit + 1])
    return {
        "leagues": [
            {
                "id": str(row.id),
                "name": row.name,
                "organisers": list(row.organisers),
                "pool": league_pool(str(row.id)),
                "created_at": row.created_at.isoformat(),
            }
            for row in page[:limit]
        ],
        "next_offset": offset + limit if len(page) > limit else None,
    }
