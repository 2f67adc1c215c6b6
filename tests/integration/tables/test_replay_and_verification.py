"""The replay viewer's reads: the replay of finished hands and the "verified" badge."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from rest_framework.test import APIClient

from eventstore.reading import read_stream
from games.domain import events as ev
from games.engine.cards import card_name, names_in
from games.engine.deal import shuffled_deck
from games.selectors.verification import WITHHELD
from games.services.export import export_table
from games.services.table_state import forget, reading_state
from tests.factories import TableFactory
from tests.integration.tables.helpers import QUICK_RULES, play_moves
from tests.integration.tables.test_audit import finished_table, rewrite_consistently
from web.pages import verifying_section

pytestmark = pytest.mark.django_db
NAMES = ("north", "east", "south", "west")


def in_play_after_one_hand(users: dict[int, Any], seed: int) -> Any:
    """A table in play whose first hand is over and whose second has some cards played."""
    table = TableFactory(
        creator=users[0],
        rules=QUICK_RULES,
        players={NAMES[s]: users[s] for s in range(4)},
        started=True,
    )
    rng = random.Random(seed)
    while True:
        with reading_state(table.id) as state:
            game = state.game
            if len(game.hands) >= 2 and len(game.hands[1].plays) >= 6:
                return table
            assert state.status == "playing", "the game ended within one hand"
        play_moves(table.id, users, rng, limit=1)


def get(path: str) -> Any:
    response = APIClient().get(path)
    return response.status_code, response.json()


def test_a_finished_game_is_verified_check_by_check(users):
    table = finished_table(users, seed=21)

    status, answer = get(f"/api/tables/{table.id}/verification")

    assert status == 200
    assert answer["verified"] is True
    assert answer["problem"] is None
    assert [(c["name"], c["status"]) for c in answer["checks"]] == [
        ("hash_chain", "passed"),
        ("moves", "passed"),
        ("deal_commitment", "passed"),
    ]
    assert answer["head_hash"] == read_stream(f"table-{table.id}")[-1].hash


def test_a_deal_that_does_not_match_its_commitment_is_not_verified(users):
    table = finished_table(users, seed=22)
    stream_id = f"table-{table.id}"
    second_deal = [e for e in read_stream(stream_id) if e.type == ev.HAND_DEALT][1]
    deck = list(second_deal.data["deck"])
    # Cards 1 and 5 go to the same seat: every move stays legal and the chain is re-hashed,
    # so only the deal check can tell.
    deck[0], deck[4] = deck[4], deck[0]
    rewrite_consistently(stream_id, second_deal.version, {**second_deal.data, "deck": deck})

    status, answer = get(f"/api/tables/{table.id}/verification")

    assert status == 200
    assert answer["verified"] is False
    checks = {c["name"]: c["status"] for c in answer["checks"]}
    assert checks == {"hash_chain": "passed", "moves": "passed", "deal_commitment": "failed"}
    assert answer["problem"]["check"] == "deal commitment"
    assert answer["problem"]["version"] == second_deal.version
    assert "hand 2" in answer["problem"]["message"]


def test_an_event_changed_without_rehashing_breaks_the_chain(users):
    table = finished_table(users, seed=23)
    stream_id = f"table-{table.id}"
    bid = next(e for e in read_stream(stream_id) if e.type == ev.BID_PLACED)
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE eventstore_event DISABLE TRIGGER eventstore_event_append_only")
        cursor.execute(
            "UPDATE eventstore_event SET data = %s::jsonb WHERE stream_id = %s AND version = %s",
            [json.dumps({**bid.data, "bid": 13}), stream_id, bid.version],
        )
        cursor.execute("ALTER TABLE eventstore_event ENABLE TRIGGER eventstore_event_append_only")
    forget()

    status, answer = get(f"/api/tables/{table.id}/verification")

    assert status == 200
    assert answer["verified"] is False
    assert answer["checks"][0] == {
        "name": "hash_chain",
        "status": "failed",
        "detail": answer["checks"][0]["detail"],
    }
    assert answer["problem"]["check"] == "hash chain"
    assert answer["problem"]["version"] == bid.version


def test_a_game_in_play_is_not_yet_verifiable(users):
    table = in_play_after_one_hand(users, seed=24)

    status, answer = get(f"/api/tables/{table.id}/verification")

    assert status == 200
    assert answer["verified"] is False
    assert answer["problem"] is None
    assert {c["name"]: c["status"] for c in answer["checks"]}["deal_commitment"] == "pending"


def test_verification_of_an_unknown_table_is_404():
    status, answer = get("/api/tables/00000000-0000-4000-8000-000000000000/verification")
    assert status == 404
    assert answer["code"] == "no_such_table"


def test_replay_of_a_finished_game_is_its_export_replayed(users):
    table = finished_table(users, seed=25)

    status, answer = get(f"/api/tables/{table.id}/replay")

    assert status == 200
    assert answer["record"] == json.loads(json.dumps(export_table(table.id)))
    assert answer["hand_in_play"] is None
    with reading_state(table.id) as state:
        platform = state.game.ledger.summary()
        winners = [[NAMES[s] for s in hand.trick_winners] for hand in state.game.hands]
    assert len(answer["hands"]) == len(answer["record"]["hands"]) == len(platform["hands"])
    for k, hand in enumerate(answer["hands"]):
        assert hand["number"] == k + 1
        assert hand["trick_winners"] == winners[k]
        assert {t: hand[t] for t in ("north_south", "east_west")} == platform["hands"][k]
    assert answer["totals"] == platform["totals"]
    assert answer["winner"] == platform["winner"]
    assert [s["seat"] for s in answer["seats"]] == list(NAMES)


def test_replay_of_a_game_in_play_holds_nothing_of_the_hand_in_play(users):
    table = in_play_after_one_hand(users, seed=26)
    with reading_state(table.id) as state:
        current = state.game.hands[1]
        dealt = [json.dumps(sorted_names(current.dealt[s])) for s in range(4)]
        played = names_of(current.plays)

    status, answer = get(f"/api/tables/{table.id}/replay")

    assert status == 200
    assert answer["hand_in_play"] == 2
    assert len(answer["record"]["hands"]) == len(answer["hands"]) == 1
    text = json.dumps(answer)
    for holding in dealt:
        assert holding not in text
    assert json.dumps(played)[1:-1] not in text
    assert "deck" not in text
    assert answer["record"]["table"]["deal_seed"] is None


def sorted_names(mask: int) -> list[str]:

    return list(names_in(mask))


def names_of(cards: Any) -> list[str]:

    return [card_name(card) for card in cards]


def test_the_replay_page_and_the_recipe_are_served(users):
    table = finished_table(users, seed=27)
    client = APIClient()

    page = client.get(f"/tables/{table.id}/replay/")
    missing = client.get("/tables/00000000-0000-4000-8000-000000000000/replay/")
    recipe = client.get("/docs/verifying/")

    assert page.status_code == 200
    assert "/static/web/js/pages/replay.js" in page.content.decode()
    assert missing.status_code == 404
    assert recipe.status_code == 200
    text = recipe.content.decode()
    assert "shuffled_deck" in text and "SHA-256" in text and "prev_hash" in text


def test_the_verification_recipe_in_the_docs_holds_for_a_finished_game(users):
    """The code blocks of docs/tables.md "Verifying a game by hand", run as written (with
    the site read through the test client, and formats.md's shuffle from the engine)."""
    table = finished_table(users, seed=28)
    section = verifying_section((Path(settings.BASE_DIR) / "docs" / "tables.md").read_text())
    blocks = section.split("```python\n")[1:]
    code = [block.split("```")[0] for block in blocks]
    assert len(code) == 3
    client = APIClient()

    def fetch(path: str) -> Any:
        response = client.get(path)
        assert response.status_code == 200, path
        return response.json()

    scope: dict[str, Any] = {"fetch": fetch, "TABLE": str(table.id), "shuffled_deck": shuffled_deck}
    exec(code[0].split("def fetch")[0], scope)  # the imports
    scope["fetch"] = fetch
    scope["TABLE"] = str(table.id)
    exec(code[1], scope)
    exec(code[2], scope)
    assert scope["prev"] == read_stream(f"table-{table.id}")[-1].hash


def test_a_broken_fold_of_a_game_in_play_names_no_card(users):

    table = in_play_after_one_hand(users, seed=29)
    stream_id = f"table-{table.id}"
    plays = [e for e in read_stream(stream_id) if e.type == ev.CARD_PLAYED]
    forged = plays[-1]
    with reading_state(table.id) as state:
        hand = state.game.hands[1]
        # A card nobody may play there: one already played earlier in this hand.
        played_before = names_of(hand.plays[:-1])
    card = played_before[0]
    rewrite_consistently(stream_id, forged.version, {**forged.data, "card": card})

    status, answer = get(f"/api/tables/{table.id}/verification")

    assert status == 200
    assert answer["verified"] is False
    checks = {c["name"]: c for c in answer["checks"]}
    assert checks["hash_chain"]["status"] == "passed"
    assert checks["moves"]["status"] == "failed"
    assert checks["moves"]["detail"] == WITHHELD
    assert answer["problem"] == {
        "check": "table fold",
        "message": WITHHELD,
        "version": forged.version,
    }
