"""Erasable texts: kept beside the events by reference, read back, erased per subject,
and checked by verify_events, with every hash unchanged."""

from __future__ import annotations

import uuid

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction

from eventstore import erasable as er
from eventstore import erasable_store as store_
from eventstore.errors import InvalidEvent
from eventstore.models import ErasableTextRow
from eventstore.reading import read_stream
from eventstore.recorder import append
from eventstore.records import NewEvent
from eventstore.verification import find_problems

pytestmark = pytest.mark.django_db


def subject() -> str:
    return er.user_subject(f"t{uuid.uuid4().hex[:10]}")


def store(stream: str, *values: object) -> None:
    with transaction.atomic():
        events = [NewEvent("Named", {"name": value, "n": i}) for i, value in enumerate(values)]
        append(stream, 0, store_.kept(events))


def test_the_stored_payload_holds_a_reference_and_reads_back_as_the_text(
    stream_prefix: str,
) -> None:
    alice = subject()
    stream = f"{stream_prefix}-a"
    store(stream, er.erasable("The Spade Queens", subjects=[alice]), "plain old name")

    first, second = read_stream(stream)
    assert er.is_reference(first.data["name"])
    assert "Spade Queens" not in str(first.data)
    assert store_.text_of(first.data["name"]) == "The Spade Queens"
    # An event from before references (a plain string) reads as itself.
    assert store_.text_of(second.data["name"]) == "plain old name"
    lookup = store_.texts_of([first.data, second.data])
    assert [lookup(first.data["name"]), lookup(second.data["name"])] == [
        "The Spade Queens",
        "plain old name",
    ]


def test_erasing_a_subject_clears_its_texts_and_every_hash_still_verifies(
    stream_prefix: str,
) -> None:
    alice, bob = subject(), subject()
    stream = f"{stream_prefix}-b"
    store(
        stream,
        er.erasable("Alice and Bob", subjects=[alice, bob]),
        er.erasable("Bob alone", subjects=[bob]),
    )
    before = [event.hash for event in read_stream(stream)]

    assert store_.erase_subject(alice) == 1  # the shared text goes when either asks
    assert store_.erase_subject(alice) == 0

    events = read_stream(stream)
    assert [event.hash for event in events] == before
    assert store_.text_of(events[0].data["name"]) == ""
    assert store_.text_of(events[1].data["name"]) == "Bob alone"
    row = ErasableTextRow.objects.get(pk=events[0].data["name"]["erasable"])
    assert (row.text, row.salt, row.erased_at is not None) == ("", "", True)
    assert list(find_problems(stream)) == []
    call_command("verify_events", "--stream", stream)


def test_a_changed_text_or_a_removed_row_is_found_by_verify_events(stream_prefix: str) -> None:
    stream = f"{stream_prefix}-c"
    store(stream, er.erasable("Honest name", subjects=[subject()]))
    reference = read_stream(stream)[0].data["name"]
    ErasableTextRow.objects.filter(pk=reference["erasable"]).update(text="Forged name")

    assert store_.text_of(reference) == ""  # a text that no longer matches is not shown
    with pytest.raises(CommandError, match="does not match the digest"):
        call_command("verify_events", "--stream", stream)

    with connection.cursor() as cursor:  # the owner can; the running role may not
        cursor.execute(
            "DELETE FROM eventstore_erasable_text WHERE id = %s", [reference["erasable"]]
        )
    with pytest.raises(CommandError, match="has no row"):
        call_command("verify_events", "--stream", stream)


def test_a_text_left_in_a_payload_is_refused_and_nothing_is_written(stream_prefix: str) -> None:
    stream = f"{stream_prefix}-d"
    text = er.erasable("Never stored", subjects=[subject()])
    with pytest.raises(InvalidEvent), transaction.atomic():
        append(stream, 0, [NewEvent("Named", {"name": text})])
    assert read_stream(stream) == []
    assert not ErasableTextRow.objects.filter(pk=text.text_id).exists()


def test_a_refused_append_rolls_its_texts_back(stream_prefix: str) -> None:
    stream = f"{stream_prefix}-e"
    store(stream, "first")
    text = er.erasable("Lost with the append", subjects=[subject()])
    with pytest.raises(Exception), transaction.atomic():  # noqa: B017 - any refusal
        append(stream, 0, store_.kept([NewEvent("Named", {"name": text})]))  # wrong version
    assert not ErasableTextRow.objects.filter(pk=text.text_id).exists()


@pytest.mark.django_db(transaction=True)
def test_kept_outside_a_transaction_is_refused() -> None:
    with pytest.raises(transaction.TransactionManagementError):
        store_.kept([NewEvent("Named", {"name": er.erasable("x", subjects=[subject()])})])


@pytest.mark.parametrize(
    ("text", "subjects"),
    [
        ("x" * (er.MAX_TEXT_LENGTH + 1), ["user:1"]),
        ("nul\x00", ["user:1"]),
        ("fine", []),
        ("fine", [f"user:{n}" for n in range(er.MAX_SUBJECTS + 1)]),
        ("fine", ["u" * 101]),
    ],
)
def test_a_text_or_subjects_out_of_bounds_is_refused(text: str, subjects: list[str]) -> None:
    with pytest.raises(ValueError):
        er.erasable(text, subjects=subjects)
