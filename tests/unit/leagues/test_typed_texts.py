"""Typed texts in the competition fold: references resolved through the reader's lookup,
plain strings (events stored before the fields were erasable) as they are."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from eventstore.erasable import ErasableText, is_reference
from leagues.domain import events as ev
from leagues.domain.state import CompetitionState

ACTOR = {"kind": "user", "user_id": 7}


@dataclass(frozen=True)
class Stored:
    type: str
    data: dict[str, Any]
    version: int
    schema_version: int = 1
    metadata: dict[str, Any] = field(default_factory=dict)


def entrant(name: object, version: int = 2) -> Stored:
    return Stored(
        ev.ENTRANT_REGISTERED,
        {
            "entrant_id": "e1",
            "players": ["1", "2"],
            "reserve": None,
            "name": name,
            "rating": 0,
            "proposal_id": None,
            "invited": [],
        },
        version,
        schema_version=version,
    )


def test_a_typed_name_is_erasable_by_its_typist_and_the_people_it_names() -> None:
    value = ev.typed("The Owls", ev.typist(ACTOR), ["1", "2", None])
    assert isinstance(value, ErasableText)
    assert value.subjects == ("user:7", "user:1", "user:2")
    assert is_reference(value.reference)
    # Nothing to erase: empty text, or the platform's own words.
    assert ev.typed("", 7, ["1"]) == ""
    assert ev.typed("withdrawn", ev.typist({"kind": "system", "name": "schedule"})) == "withdrawn"


def test_old_plain_names_fold_as_they_are_and_references_through_the_lookup() -> None:
    old = CompetitionState.fold([entrant("Plain Owls")])
    assert old.entrants["e1"].name == "Plain Owls"
    reference = {"erasable": "00000000-0000-0000-0000-000000000001", "digest": "ab"}
    unread = CompetitionState.fold([entrant(reference, 3)])
    assert unread.entrants["e1"].name == ""  # no lookup: nothing shown, nothing broken
    read = CompetitionState.fold(
        [entrant(reference, 3)], texts=lambda v: "Owls" if is_reference(v) else str(v)
    )
    assert (read.entrants["e1"].name, read.entrants["e1"].label) == ("Owls", "Owls")
