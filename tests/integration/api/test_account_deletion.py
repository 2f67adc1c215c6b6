"""Deleting an account: the user row becomes a pseudonym, the free text it typed is erased
from every read, and every hash, verify_events and the signed checkpoints still hold."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from eventstore import erasable, erasable_store, signed_checkpoints
from eventstore.reading import read_stream
from eventstore.recorder import append
from eventstore.records import NewEvent
from games.domain.streams import table_stream_id
from games.models import Table
from tests.factories import TableFactory, UserFactory
from tests.integration.tables.helpers import QUICK_RULES, play_moves

from .conftest import PASSWORD, token_client

SEATS = ("north", "east", "south", "west")


def finished_table(users: list[Any]) -> str:
    table = TableFactory(
        creator=users[0],
        rules=QUICK_RULES,
        players={SEATS[s]: users[s] for s in range(4)},
        started=True,
    )
    play_moves(table.id, dict(enumerate(users)), random.Random(7))
    return str(table.id)


@pytest.mark.django_db(transaction=True)
def test_deletion_pseudonymises_and_every_hash_and_checkpoint_still_verifies(
    tmp_path: Path,
) -> None:
    users = [UserFactory(password=PASSWORD) for _ in range(4)]
    leaving = users[0]
    table_id = finished_table(users)
    stream = table_stream_id(table_id)
    hashes = [event.hash for event in read_stream(stream)]
    # A text the player typed, kept by reference in an event (the leagues' names are).
    text_stream = f"test-erasure-{leaving.pk}-{random.getrandbits(32):08x}"
    with transaction.atomic():
        append(
            text_stream,
            0,
            erasable_store.kept(
                [
                    NewEvent(
                        "Named",
                        {
                            "name": erasable.erasable(
                                "Wendy's Wonders", subjects=[erasable.user_subject(leaving.pk)]
                            )
                        },
                    )
                ]
            ),
        )
    key = tmp_path / "checkpoint.key"
    signed_checkpoints.create_key(key)
    checkpoints = tmp_path / "checkpoints.jsonl"
    signed_checkpoints.publish(key, checkpoints)
    client = token_client(leaving)

    wrong = client.post("/api/auth/me/delete", {"password": "not it"}, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["code"] == "wrong_password"
    answer = client.post("/api/auth/me/delete", {"password": PASSWORD}, format="json")
    assert answer.status_code == 204, answer.content

    row = get_user_model().objects.get(pk=leaving.pk)
    assert row.username == f"deleted-{leaving.pk}"
    assert (row.email, row.is_active, row.has_usable_password()) == ("", False, False)
    assert not Token.objects.filter(user=row).exists()
    assert client.get("/api/auth/me").status_code == 401
    login = APIClient().post(
        "/api/auth/token", {"username": leaving.username, "password": PASSWORD}, format="json"
    )
    assert login.status_code == 400
    # The tables show the pseudonym; the other players keep their names.
    seats = Table.objects.get(pk=table_id).seats
    assert [s["username"] for s in seats] == [row.username] + [u.username for u in users[1:]]
    view = token_client(users[1]).get(f"/api/tables/{table_id}").json()
    assert leaving.username not in str(view)
    # The typed text reads as erased; the event still holds the same reference and hash.
    (named,) = read_stream(text_stream)
    assert erasable_store.text_of(named.data["name"]) == ""

    assert [event.hash for event in read_stream(stream)] == hashes
    call_command("verify_events", "--stream", stream)
    call_command("verify_events", "--stream", text_stream)
    assert signed_checkpoints.verify_against(checkpoints)


@pytest.mark.django_db
def test_deletion_waits_while_a_person_must_still_play_a_seat() -> None:
    users = [UserFactory(password=PASSWORD) for _ in range(4)]
    table = TableFactory(
        creator=users[0],
        rules=QUICK_RULES,
        players={SEATS[s]: users[s] for s in range(4)},
        started=True,
    )
    answer = token_client(users[2]).post(
        "/api/auth/me/delete", {"password": PASSWORD}, format="json"
    )
    assert answer.status_code == 409
    assert answer.json()["code"] == "account_in_play"
    assert answer.json()["tables"] == [str(table.id)]
    assert get_user_model().objects.get(pk=users[2].pk).username == users[2].username


@pytest.mark.django_db
def test_the_pseudonyms_cannot_be_registered(anonymous: APIClient) -> None:
    answer = anonymous.post(
        "/api/auth/register", {"username": "Deleted-12", "password": PASSWORD}, format="json"
    )
    assert answer.status_code == 400
    assert "deleted accounts" in answer.json()["message"]
