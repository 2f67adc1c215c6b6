"""Seats kept for friends in the fold and the decisions: only the live invitation's secret
seats anyone there; the creator alone keeps, reissues and revokes; refusals say no more
than that the seat is kept."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.domain import decisions as d
from games.domain import events as ev
from games.domain.errors import TableRefusal
from games.domain.table import TableState, invitation_digest, invitation_matches
from tests.unit.domain.tables import lobby

NORTH, EAST, SOUTH, WEST = range(4)
HOST, FRIEND, STRANGER = 1, 2, 3
SECRET = "s" * 43


def user(user_id: int) -> d.ActorRef:
    return d.ActorRef("user", user_id)


def kept(secret: str = SECRET) -> TableState:
    state = lobby(created_by=HOST)
    d.decide_reserve_seat(state, user(HOST), NORTH, invitation_digest(secret))
    return state


def refusal_of(state: TableState, secret: object) -> TableRefusal:
    with pytest.raises(TableRefusal) as refused:
        d.decide_take_seat(state, user(STRANGER), NORTH, secret)
    return refused.value


def test_the_live_secret_seats_and_any_other_is_refused_alike() -> None:
    state = kept()
    refusals = [refusal_of(state, s) for s in (None, "", SECRET[:-1], SECRET + "x", 42)]

    assert {(r.code, str(r), r.status) for r in refusals} == {
        (refusals[0].code, str(refusals[0]), 403)
    }
    assert refusals[0].code == "invitation_required"
    assert state.players[NORTH] is None
    [event] = d.decide_take_seat(state, user(FRIEND), NORTH, SECRET)
    assert event.type == ev.SEAT_TAKEN and event.data == {"seat": "north", "user_id": FRIEND}


def test_revoking_voids_the_link_and_reissuing_replaces_it() -> None:
    state = kept()
    d.decide_revoke_invitation(state, user(HOST), NORTH)
    assert refusal_of(state, SECRET).code == "invitation_required"
    with pytest.raises(TableRefusal):  # nothing left to revoke
        d.decide_revoke_invitation(state, user(HOST), NORTH)

    d.decide_reissue_invitation(state, user(HOST), NORTH, invitation_digest("new" * 15))
    assert refusal_of(state, SECRET).code == "invitation_required"
    assert invitation_matches(state, NORTH, "new" * 15)


@pytest.mark.parametrize(
    ("decide", "code"),
    [
        (lambda s: d.decide_reserve_seat(s, user(STRANGER), WEST, "a" * 64), "not_allowed"),
        (lambda s: d.decide_reserve_seat(s, user(HOST), NORTH, "a" * 64), "already_reserved"),
        (lambda s: d.decide_reissue_invitation(s, user(HOST), WEST, "a" * 64), "not_reserved"),
        (lambda s: d.decide_revoke_invitation(s, user(STRANGER), NORTH), "not_allowed"),
    ],
)
def test_only_the_creator_keeps_a_free_seat(decide: object, code: str) -> None:
    state = kept()
    with pytest.raises(TableRefusal) as refused:
        decide(state)  # type: ignore[operator]
    assert refused.value.code == code


def test_a_competition_table_keeps_no_seat_and_a_started_game_neither() -> None:
    with pytest.raises(TableRefusal):
        d.decide_reserve_seat(lobby(created_by=None), user(HOST), NORTH, "a" * 64)
    state = kept()
    for seat, player in ((NORTH, FRIEND), (EAST, 5), (SOUTH, HOST), (WEST, 6)):
        d.decide_take_seat(state, user(player), seat, SECRET if seat == NORTH else None)
    d.decide_start(state, user(HOST), first_dealer=NORTH, seed="ab" * 32)
    with pytest.raises(TableRefusal) as refused:
        d.decide_reissue_invitation(state, user(HOST), NORTH, "a" * 64)
    assert refused.value.code == "not_in_lobby"


def test_a_stream_folds_again_to_the_same_kept_seats() -> None:
    state = kept()
    events = []
    replayed = lobby(created_by=HOST)
    for event in d.decide_revoke_invitation(state, user(HOST), NORTH) + d.decide_reissue_invitation(
        state, user(HOST), NORTH, "b" * 64
    ):
        events.append(event)
    replayed.apply(*_reserved_event())
    for event in events:
        ev.validate_payload(event.type, event.schema_version, event.data)
        replayed.apply(event.type, event.data)
    assert replayed.reserved == state.reserved
    assert (
        replayed.invitation_digests
        == state.invitation_digests
        == [
            "b" * 64,
            None,
            None,
            None,
        ]
    )


def _reserved_event() -> tuple[str, dict[str, object]]:
    event = ev.seat_reserved(NORTH, HOST, invitation_digest(SECRET))
    return event.type, event.data


@given(st.text(max_size=60))
def test_no_other_text_matches_a_secret(guess: str) -> None:
    state = kept()
    assert invitation_matches(state, NORTH, guess) == (guess == SECRET)
