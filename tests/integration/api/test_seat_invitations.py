"""Seats kept for friends: a friend's invite link carries a secret for its seat; without it
(or with a wrong or revoked one) the seat cannot be taken; the creator can revoke and
reissue; the secret reaches nobody but the creator and the friend it was sent to."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from eventstore.reading import read_stream
from games.domain import events as ev
from games.domain.streams import table_stream_id
from games.domain.table import invitation_digest
from games.models import SeatInvitation
from tests.integration.api.conftest import event_count

GENEROUS = "10000/min"


@pytest.fixture
def people(make_client: Callable[..., APIClient]) -> dict[str, APIClient]:
    return {name: make_client(name) for name in ("host", "friend", "stranger", "third")}


def friends_table(host: APIClient, invited: list[str]) -> str:
    response = host.post(
        "/api/tables/friends",
        {
            "preset": "easy",
            "seat": "south",
            "seats": {"east": {"kind": "bot", "level": "easy"}},
            "invited": invited,
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    return str(response.json()["table_id"])


def invitation(host: APIClient, table_id: str, seat: str) -> dict[str, Any]:
    response = host.get(f"/api/tables/{table_id}/invitations")
    assert response.status_code == 200, response.content
    assert response["Cache-Control"] == "no-store"
    rows = {row["seat"]: row for row in response.json()["invitations"]}
    return dict(rows[seat])


def take(client: APIClient, table_id: str, seat: str, secret: str | None = None) -> Any:
    body = {} if secret is None else {"invitation": secret}
    return client.post(f"/api/tables/{table_id}/seats/{seat}/take", body, format="json")


def test_a_kept_seat_is_taken_only_with_its_links_secret(people: dict[str, APIClient]) -> None:
    table_id = friends_table(people["host"], ["north"])
    kept = invitation(people["host"], table_id, "north")
    assert kept["taken"] is False and len(kept["secret"]) >= 43
    assert kept["path"] == f"/?join={table_id}&seat=north#invite={kept['secret']}"
    # The lobby shows the seat kept (and nothing more); the open seat stays open to anyone.
    listed = people["stranger"].get("/api/tables?status=lobby").json()["results"][0]
    seats = {row["seat"]: row for row in listed["seats"]}
    assert seats["north"]["reserved"] is True and seats["west"]["reserved"] is False
    before = event_count()

    missing = take(people["stranger"], table_id, "north")
    wrong = take(people["stranger"], table_id, "north", kept["secret"][:-2] + "xx")
    other_seat = take(people["stranger"], table_id, "north", "x" * 101)

    # Missing and wrong read the same: nothing beyond "kept", which the lobby shows.
    assert missing.status_code == wrong.status_code == 403
    assert missing.json() == wrong.json()
    assert missing.json()["code"] == "invitation_required"
    assert kept["secret"] not in json.dumps(wrong.json())
    assert other_seat.status_code == 400  # a secret is at most 100 characters
    assert event_count() == before

    taken = take(people["friend"], table_id, "north", kept["secret"])
    assert taken.status_code == 200, taken.content
    assert taken.json()["table"]["your_seat"] == "north"
    # The open seat needs no secret (and a stray one is ignored).
    assert take(people["stranger"], table_id, "west", "anything").status_code == 200
    assert invitation(people["host"], table_id, "north")["taken"] is True


def test_revoked_links_stop_seating_and_a_reissued_one_seats(
    people: dict[str, APIClient],
) -> None:
    host = people["host"]
    table_id = friends_table(host, [])
    reserved = host.post(f"/api/tables/{table_id}/seats/north/reserve", {}, format="json")
    assert reserved.status_code == 200, reserved.content
    old = invitation(host, table_id, "north")["secret"]

    revoked = host.post(f"/api/tables/{table_id}/seats/north/revoke", {}, format="json")
    assert revoked.status_code == 200, revoked.content
    assert invitation(host, table_id, "north") == {
        "seat": "north",
        "taken": False,
        "secret": None,
        "path": None,
    }
    assert take(people["friend"], table_id, "north", old).json()["code"] == "invitation_required"

    reissued = host.post(f"/api/tables/{table_id}/seats/north/reissue", {}, format="json")
    assert reissued.status_code == 200, reissued.content
    new = invitation(host, table_id, "north")["secret"]
    assert new and new != old
    assert take(people["friend"], table_id, "north", old).status_code == 403
    assert take(people["friend"], table_id, "north", new).status_code == 200

    # Reissuing replaces the live secret: only its digest is in the stream.
    types = [e.type for e in read_stream(table_stream_id(table_id))]
    assert types.count(ev.SEAT_RESERVED) == 1
    assert ev.SEAT_INVITATION_REVOKED in types and ev.SEAT_INVITATION_REISSUED in types
    assert SeatInvitation.objects.get(table_id=table_id, seat=0).secret == new


def test_only_the_creator_keeps_seats_and_sees_their_links(people: dict[str, APIClient]) -> None:
    table_id = friends_table(people["host"], ["north"])
    take(people["third"], table_id, "west")
    before = event_count()

    for client in (people["stranger"], people["third"]):
        assert client.get(f"/api/tables/{table_id}/invitations").status_code == 403
        for action in ("reserve", "reissue", "revoke"):
            seat = "north" if action != "reserve" else "west"
            answer = client.post(f"/api/tables/{table_id}/seats/{seat}/{action}", {}, format="json")
            assert answer.status_code == 403, (action, answer.content)
    assert APIClient().get(f"/api/tables/{table_id}/invitations").status_code == 401
    # A seat that is taken, a bot's, or kept already cannot be kept.
    host = people["host"]
    for seat, code in (("west", "seat_taken"), ("east", "bot_seat"), ("north", "already_reserved")):
        answer = host.post(f"/api/tables/{table_id}/seats/{seat}/reserve", {}, format="json")
        assert answer.json()["code"] == code, answer.content
    assert event_count() == before


def test_a_friends_table_refuses_to_keep_the_callers_or_a_bots_seat(
    people: dict[str, APIClient],
) -> None:
    host = people["host"]
    before = event_count()
    for invited in (["south"], ["east"], ["north", "north"], ["middle"]):
        response = host.post(
            "/api/tables/friends",
            {"seat": "south", "seats": {"east": {"kind": "bot"}}, "invited": invited},
            format="json",
        )
        assert response.status_code == 400, (invited, response.content)
    assert event_count() == before


def test_the_secret_is_on_no_other_surface(people: dict[str, APIClient], anonymous: Any) -> None:
    host = people["host"]
    table_id = friends_table(host, ["north", "west"])
    secrets = [invitation(host, table_id, seat)["secret"] for seat in ("north", "west")]
    take(people["friend"], table_id, "north", secrets[0])

    def reads(client: APIClient) -> list[str]:
        return [
            client.get(url).content.decode()
            for url in (
                f"/api/tables/{table_id}",
                f"/api/tables/{table_id}/events",
                f"/api/tables/{table_id}/export",
                f"/api/tables/{table_id}/replay",
                "/api/tables?status=lobby",
                "/api/tables",
            )
        ]

    seen = reads(people["friend"]) + reads(people["stranger"]) + reads(anonymous) + reads(host)
    for secret in secrets:
        assert all(secret not in text for text in seen)
    # The stream holds the digests, as auditors see them.
    stored = [e.data for e in read_stream(table_stream_id(table_id))]
    digests = [d["digest"] for d in stored if "digest" in d]
    assert digests == [invitation_digest(s) for s in secrets]
    assert all(secret not in json.dumps(stored) for secret in secrets)


def test_refused_takes_of_a_kept_seat_are_limited_per_user(
    settings: Any, people: dict[str, APIClient]
) -> None:
    settings.THROTTLE_RATES = {
        **{scope: GENEROUS for scope in settings.THROTTLE_RATES},
        "invitation_guesses": "3/hour",
    }
    table_id = friends_table(people["host"], ["north"])
    secret = invitation(people["host"], table_id, "north")["secret"]
    guesses = [take(people["stranger"], table_id, "north", f"g{n}") for n in range(3)]
    assert [r.status_code for r in guesses] == [403, 403, 403]

    blocked = take(people["stranger"], table_id, "north", secret)
    assert blocked.status_code == 429 and blocked.json()["code"] == "throttled"
    # Only refusals count, and only the guesser's: the friend sits down.
    assert take(people["friend"], table_id, "north", secret).status_code == 200
