"""``viewer_update`` (one fold, one read: what the WebSocket consumer sends) gives exactly
``table_view`` and ``events_for_viewer``, the REST API's selectors that the leak property
test covers, for every viewer, every ``after``, and whatever this process's fold cache
holds: nothing, a fresh fold, a committed fold of an older version (the path that skips
the catch-up read), or a committed fold whose head hash is not the stored one."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from eventstore.reading import read_stream
from eventstore.records import StoredEvent
from games.domain.streams import table_stream_id
from games.domain.table import TableState
from games.selectors.table_updates import (
    notified_update,
    update_from_database,
    update_without_database,
    viewer_update,
)
from games.selectors.visibility import events_for_viewer, table_view
from games.services import read_model
from games.services.table_state import forget, put_back
from tests.factories import TableFactory, UserFactory
from tests.integration.tables.helpers import QUICK_RULES, play_moves

SEATS = ("north", "east", "south", "west")


def started_table(users: dict[int, Any], first_dealer: str) -> Any:
    """A started table with ``users[0..3]`` seated north to west (quick rules)."""
    return TableFactory(
        creator=users[0],
        rules=QUICK_RULES,
        players={name: users[seat] for seat, name in enumerate(SEATS)},
        started=True,
        first_dealer=first_dealer,
    )


def committed_fold(table_id: Any, version: int) -> tuple[TableState, str]:
    """The table folded up to ``version`` (as a committed cache entry would hold it)."""
    state, head_hash = TableState(), ""
    for event in read_stream(table_stream_id(table_id), limit=version):
        state.apply(event.type, event.data)
        head_hash = event.hash
    return state, head_hash


def prepare_cache(table_id: Any, how: str, version: int, other_table_id: Any) -> None:
    forget(table_id)
    if how == "older":
        state, head_hash = committed_fold(table_id, max(1, version - 4))
        put_back(table_id, state, head_hash, committed=True)
    elif how == "current":
        state, head_hash = committed_fold(table_id, version)
        put_back(table_id, state, head_hash, committed=True)
    elif how == "not_this_history":
        # A fold that is not this stream's (as after a rolled-back append): the hash of its
        # head is not the stored one, so it must be dropped, not caught up.
        state, head_hash = committed_fold(other_table_id, max(1, version - 2))
        put_back(table_id, state, head_hash, committed=True)


@pytest.mark.django_db
def test_viewer_update_is_table_view_plus_events_for_viewer(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    users = {seat: UserFactory() for seat in range(4)}
    table = started_table(users, "north")
    viewers: list[Any] = [users[seat] for seat in range(4)] + [None, UserFactory()]
    caches = ("none", "older", "current", "not_this_history")
    other = started_table(users, "east")
    play_moves(other.id, users, random.Random(6), limit=70)
    checks = 0

    def check() -> None:
        nonlocal checks
        checks += 1
        version = committed_fold(table.id, 10**6)[0].version
        how = caches[checks % len(caches)]
        for viewer in viewers:
            for after in sorted({0, max(0, version - 3), version - 1, version, version + 2}):
                prepare_cache(table.id, how, version, other.id)
                update = viewer_update(table.id, viewer, after_version=after)
                assert update.version == version
                assert update.view == table_view(table.id, viewer), (how, after)
                assert update.events == events_for_viewer(table.id, viewer, after), (how, after)
                assert [e["version"] for e in update.events] == list(range(after + 1, version + 1))

    check()
    play_moves(table.id, users, random.Random(5), limit=60, after_each=check)


@pytest.mark.django_db
def test_connections_of_one_table_share_a_rendering_per_seat(settings: Any) -> None:

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    users = {seat: UserFactory() for seat in range(4)}
    table = started_table(users, "north")
    play_moves(table.id, users, random.Random(8), limit=12)
    table_id = str(table.id)
    version = viewer_update(table_id, None).version
    after = version - 3

    def fresh(viewer: Any) -> tuple[int, list[dict[str, Any]], dict[str, Any]]:
        update = viewer_update(table_id, viewer, after_version=after)
        return update.version, update.events, update.view

    assert update_without_database(table_id, None, after, version) is None
    first = update_from_database(table_id, UserFactory(), after)
    # Another spectator at that version gets the same rendering; another after does not.
    assert update_without_database(table_id, None, after, version) == first == fresh(None)
    assert update_without_database(table_id, None, after - 1, version) is None
    # A seated player never gets the spectators' rendering, nor another seat's.
    for seat in range(4):
        assert update_without_database(table_id, users[seat], after, version) is None
        mine = update_from_database(table_id, users[seat], after)
        assert mine == fresh(users[seat])
        assert mine[2]["your_seat"] == SEATS[seat]
        again = update_without_database(table_id, users[seat], after, version)
        assert again is not None and again[2] is mine[2]
    # A notice of a later version than the one rendered is never answered from it.
    play_moves(table.id, users, random.Random(9), limit=1)
    assert update_without_database(table_id, None, after, version + 1) is None


@pytest.mark.django_db
def test_events_a_notice_carried_stand_in_for_the_read_only_if_they_chain(
    settings: Any, django_assert_num_queries: Any
) -> None:

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    users = {seat: UserFactory() for seat in range(4)}
    table = started_table(users, "north")
    viewers: list[Any] = [users[seat] for seat in range(4)] + [None]
    stream_id = table_stream_id(table.id)
    checks = 0

    def check() -> None:
        nonlocal checks
        checks += 1
        stream = read_stream(stream_id)
        version = len(stream)
        carried = min(3, version - 1)
        before = version - carried
        wire = [event.to_wire() for event in stream[before:]]
        notified = [StoredEvent.from_wire(stream_id, item) for item in wire]
        assert notified == stream[before:]
        tampered = [replace(notified[0], data={**notified[0].data, "seat": 9}), *notified[1:]]
        for viewer in viewers[checks % 2 :: 2]:
            view = table_view(table.id, viewer)
            # Chained onto the cached fold the viewer is at: no read at all.
            prepare_cache(table.id, "current", before, None)
            with django_assert_num_queries(0):
                update = viewer_update(table.id, viewer, before, notified=notified)
            assert update.version == version and update.view == view
            assert update.events == events_for_viewer(table.id, viewer, before)
            # The same without the database at all (what the consumer tries on its loop),
            # and None whenever that would need a read.
            prepare_cache(table.id, "current", before, None)
            with django_assert_num_queries(0):
                offline = notified_update(table.id, viewer, before, notified)
            assert offline == update
            # This process's command folded them already (the fold is at the notice's last
            # version): the notice's events stand in for the read when they reach it exactly.
            prepare_cache(table.id, "current", version, None)
            with django_assert_num_queries(0):
                assert notified_update(table.id, viewer, before, notified) == update
            for carried_events, after in ((tampered, before), (notified[:-1], before)):
                prepare_cache(table.id, "current", version, None)
                with django_assert_num_queries(0):
                    assert notified_update(table.id, viewer, after, carried_events) is None
            # A fold at that version whose head is not the notice's last event: not these.
            forget(table.id)
            state, _ = committed_fold(table.id, version)
            put_back(table.id, state, "0" * 64, committed=True)
            with django_assert_num_queries(0):
                assert notified_update(table.id, viewer, before, notified) is None
            for how, carried_events, after, names_kept in (
                ("none", notified, before, True),
                ("current", tampered, before, True),
                ("current", notified, before - 1, True),
                ("current", notified, before, False),
            ):
                prepare_cache(table.id, how, before, None)
                if not names_kept:
                    read_model._usernames_kept.clear()
                with django_assert_num_queries(0):
                    assert notified_update(table.id, viewer, after, carried_events) is None
            # Altered, not right after the cached fold, or the viewer behind it: a read.
            for carried_events, after in (
                (tampered, before),
                (notified[1:], before),
                (notified, before - 1),
            ):
                prepare_cache(table.id, "current", before, None)
                update = viewer_update(table.id, viewer, after, notified=carried_events)
                assert update.version == version and update.view == view
                assert update.events == events_for_viewer(table.id, viewer, after)

    play_moves(table.id, users, random.Random(11), limit=40, after_each=check)
    assert checks >= 40
