"""The read-model rows that copy a typed name (a competition's, a league's), brought back
in line after an account's texts were erased (``eventstore.erasable_store.erase_subject``).

Every other read resolves names from the events' references when it reads
(``streams.fold_competition``); only ``leagues_competition.name`` and
``leagues_league.name`` hold a copy, for the lists. A competition's or league's name is
erasable by whoever created it (always one of its organisers) and, for a division's
default name, by the league's creator (one of the league's organisers, so of the
division's): the rows of the competitions and leagues the person organises are
re-read, in three queries whatever their number.
"""

from __future__ import annotations

from eventstore.erasable_store import texts_of
from eventstore.models import Event
from leagues.domain import events as ev
from leagues.models import Competition, League


def refresh_names_of(user_id: int) -> int:
    """Re-resolve the names of the rows of everything ``user_id`` organises (in the
    caller's transaction, after the erasure); how many rows changed."""
    rows: dict[str, Competition | League] = {}
    for row in Competition.objects.filter(organisers__contains=[user_id]):
        rows[ev.competition_stream_id(str(row.id))] = row
    for league in League.objects.filter(organisers__contains=[user_id]):
        rows[ev.league_stream_id(str(league.id))] = league
    if not rows:
        return 0
    # Version 1 of each stream is its CompetitionCreated / LeagueCreated.
    names = dict(
        Event.objects.filter(stream_id__in=list(rows), version=1).values_list(
            "stream_id", "data__name"
        )
    )
    text = texts_of(names.values())
    changed = [
        (row, text(names[stream]))
        for stream, row in rows.items()
        if stream in names and text(names[stream]) != row.name
    ]
    for row, name in changed:
        row.name = name
    Competition.objects.bulk_update([r for r, _ in changed if isinstance(r, Competition)], ["name"])
    League.objects.bulk_update([r for r, _ in changed if isinstance(r, League)], ["name"])
    return len(changed)
