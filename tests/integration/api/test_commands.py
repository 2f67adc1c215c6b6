"""Table commands over HTTP: happy paths, refusals (400/401/403/404/409), idempotent retries,
and "a refused request writes nothing"."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from .conftest import event_count, table_as

pytestmark = pytest.mark.django_db

Players = dict[str, APIClient]


def turn_of(table: dict[str, Any]) -> str:
    turn = table["hand"]["turn"]
    assert turn is not None, table["hand"]
    return str(turn)


def post(client: APIClient, path: str, body: dict[str, Any], **headers: str) -> Any:
    return client.post(path, body, format="json", **headers)


def bid_round(table_id: str, players: Players) -> dict[str, Any]:
    """Everyone bids the first legal bid above nil; returns the last command result."""
    result: dict[str, Any] = {}
    for _ in range(4):
        seat = turn_of(table_as(players["north"], table_id))
        mine = table_as(players[seat], table_id)["hand"]["you"]
        bid = next(b for b in mine["legal_bids"] if b != 0)
        response = post(players[seat], f"/api/tables/{table_id}/bid", {"seat": seat, "bid": bid})
        assert response.status_code == 200, response.content
        result = response.json()
    return result


def legal_card(client: APIClient, table_id: str) -> str:
    return str(table_as(client, table_id)["hand"]["you"]["legal_cards"][0])


def test_a_bid_is_recorded_and_shown(started_table: dict[str, Any], players: Players) -> None:
    table_id = started_table["id"]
    seat = turn_of(started_table)
    version = started_table["version"]

    response = post(
        players[seat],
        f"/api/tables/{table_id}/bid",
        {"seat": seat, "bid": 3, "expected_version": version},
    )

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["version"] == version + 1
    assert body["duplicate"] is False
    assert [(e["type"], e["data"]["bid"]) for e in body["events"]] == [("BidPlaced", 3)]
    assert body["table"]["version"] == version + 1
    assert body["table"]["hand"]["bids"][seat] == 3


def test_nil_is_a_bid(started_table: dict[str, Any], players: Players) -> None:
    table_id = started_table["id"]
    seat = turn_of(started_table)

    response = post(players[seat], f"/api/tables/{table_id}/bid", {"seat": seat, "bid": "nil"})

    assert response.status_code == 200, response.content
    assert response.json()["table"]["hand"]["bids"][seat] == "nil"


@pytest.mark.parametrize(
    "bid", [14, -1, "three", None, True, 2.5, "blind nil", [3]], ids=lambda b: repr(b)
)
def test_a_malformed_bid_is_a_400_naming_the_field(
    started_table: dict[str, Any], players: Players, bid: Any
) -> None:
    table_id = started_table["id"]
    seat = turn_of(started_table)
    before = event_count()

    response = post(players[seat], f"/api/tables/{table_id}/bid", {"seat": seat, "bid": bid})

    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid"
    assert body["message"].startswith("bid: ")
    assert event_count() == before


def test_blind_nil_when_the_rules_forbid_it_gets_the_engines_sentence(
    started_table: dict[str, Any], players: Players
) -> None:
    table_id = started_table["id"]
    seat = turn_of(started_table)
    before = event_count()

    response = post(
        players[seat], f"/api/tables/{table_id}/bid", {"seat": seat, "bid": "blind_nil"}
    )

    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] != "invalid"
    assert "blind" in body["message"].lower()
    assert event_count() == before


def test_bidding_out_of_turn_is_refused(started_table: dict[str, Any], players: Players) -> None:
    table_id = started_table["id"]
    seat = turn_of(started_table)
    other = next(s for s in players if s != seat)
    before = event_count()

    response = post(players[other], f"/api/tables/{table_id}/bid", {"seat": other, "bid": 2})

    assert 400 <= response.status_code < 500
    assert response.status_code != 403
    assert response.json()["message"]
    assert event_count() == before


def test_acting_for_another_players_seat_is_a_403(
    started_table: dict[str, Any], players: Players
) -> None:
    table_id = started_table["id"]
    seat = turn_of(started_table)
    intruder = next(s for s in players if s != seat)
    before = event_count()

    response = post(players[intruder], f"/api/tables/{table_id}/bid", {"seat": seat, "bid": 2})

    assert response.status_code == 403, response.content
    assert response.json()["code"] == "not_your_seat"
    assert event_count() == before


def test_a_user_without_a_seat_cannot_act(started_table: dict[str, Any], make_client: Any) -> None:
    table_id = started_table["id"]
    seat = turn_of(started_table)
    stranger = make_client("stranger")
    before = event_count()

    response = post(stranger, f"/api/tables/{table_id}/bid", {"seat": seat, "bid": 2})

    assert response.status_code == 403
    assert event_count() == before


def test_anonymous_users_cannot_act(started_table: dict[str, Any], anonymous: APIClient) -> None:
    table_id = started_table["id"]
    seat = turn_of(started_table)
    before = event_count()

    for path, body in [
        (f"/api/tables/{table_id}/bid", {"seat": seat, "bid": 2}),
        (f"/api/tables/{table_id}/start", {}),
        (f"/api/tables/{table_id}/seats/{seat}/take", {}),
        (f"/api/tables/{table_id}/seats/{seat}/bot", {}),
    ]:
        response = post(anonymous, path, body)
        assert response.status_code == 401, (path, response.content)
    assert event_count() == before


def test_a_stale_expected_version_is_a_409_with_the_current_version(
    started_table: dict[str, Any], players: Players
) -> None:
    table_id = started_table["id"]
    seat = turn_of(started_table)
    version = started_table["version"]
    before = event_count()

    response = post(
        players[seat],
        f"/api/tables/{table_id}/bid",
        {"seat": seat, "bid": 2, "expected_version": version - 1},
    )

    assert response.status_code == 409, response.content
    body = response.json()
    assert body["code"] == "stale_version"
    assert body["current_version"] == version
    assert body["message"]
    assert event_count() == before


@pytest.mark.parametrize("expected", [-1, "x", 1.5, True, "3", "0", 3.0])
def test_a_malformed_expected_version_is_a_400(
    started_table: dict[str, Any], players: Players, expected: Any
) -> None:
    table_id = started_table["id"]
    seat = turn_of(started_table)
    before = event_count()

    response = post(
        players[seat],
        f"/api/tables/{table_id}/bid",
        {"seat": seat, "bid": 2, "expected_version": expected},
    )

    assert response.status_code == 400, response.content
    assert response.json()["message"].startswith("expected_version: ")
    assert event_count() == before


def test_a_retried_command_returns_the_first_result_and_writes_nothing(
    started_table: dict[str, Any], players: Players
) -> None:
    table_id = started_table["id"]
    seat = turn_of(started_table)
    path = f"/api/tables/{table_id}/bid"

    first = post(players[seat], path, {"seat": seat, "bid": 4}, HTTP_IDEMPOTENCY_KEY="bid-1")
    before = event_count()
    again = post(players[seat], path, {"seat": seat, "bid": 4}, HTTP_IDEMPOTENCY_KEY="bid-1")

    assert first.status_code == again.status_code == 200
    assert again.json()["duplicate"] is True
    assert again.json()["version"] == first.json()["version"]
    assert again.json()["events"] == first.json()["events"]
    assert event_count() == before


def test_unknown_table_is_a_404_for_commands(players: Players) -> None:
    response = post(
        players["north"],
        "/api/tables/00000000-0000-0000-0000-000000000000/bid",
        {"seat": "north", "bid": 2},
    )

    assert response.status_code == 404
    assert response.json()["code"] == "no_such_table"


def test_unknown_seat_in_a_path_is_a_404(players: Players, new_table: Any) -> None:
    table_id = new_table()["table_id"]

    response = post(players["north"], f"/api/tables/{table_id}/seats/up/take", {})

    assert response.status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"bid": 2}, "seat"),
        ({"seat": "up", "bid": 2}, "seat"),
        ({"seat": 7, "bid": 2}, "seat"),
        ({"seat": "north", "bid": 2, "bid_": 3}, "non_field_errors"),
    ],
)
def test_a_bad_seat_in_a_body_is_a_400(
    started_table: dict[str, Any], players: Players, body: dict[str, Any], field: str
) -> None:
    before = event_count()

    response = post(players["north"], f"/api/tables/{started_table['id']}/bid", body)

    assert response.status_code == 400
    assert field in response.json()["fields"]
    assert event_count() == before


def test_a_body_that_is_not_an_object_is_a_400(
    started_table: dict[str, Any], players: Players
) -> None:
    response = players["north"].post(
        f"/api/tables/{started_table['id']}/bid", data="[1, 2]", content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_taking_and_leaving_a_seat(new_table: Any, players: Players) -> None:
    table_id = new_table()["table_id"]
    north = players["north"]

    taken = post(north, f"/api/tables/{table_id}/seats/north/take", {"expected_version": 1})
    taken_again = post(players["east"], f"/api/tables/{table_id}/seats/0/take", {})
    left = post(north, f"/api/tables/{table_id}/seats/north/leave", {})

    assert taken.status_code == 200, taken.content
    assert taken.json()["table"]["your_seat"] == "north"
    assert taken_again.status_code == 409, taken_again.content
    assert left.status_code == 200, left.content
    assert left.json()["table"]["your_seat"] is None


def test_leaving_someone_elses_seat_is_a_403(new_table: Any, players: Players) -> None:
    table_id = new_table()["table_id"]
    post(players["north"], f"/api/tables/{table_id}/seats/north/take", {})
    before = event_count()

    response = post(players["east"], f"/api/tables/{table_id}/seats/north/leave", {})

    assert response.status_code == 403
    assert event_count() == before


def test_starting_needs_a_full_table(new_table: Any, alice: APIClient) -> None:
    table_id = new_table()["table_id"]
    before = event_count()

    response = post(alice, f"/api/tables/{table_id}/start", {})

    assert response.status_code == 409, response.content
    assert response.json()["message"]
    assert event_count() == before


def test_start_events_hide_the_deck_from_the_player(new_table: Any, players: Players) -> None:
    table_id = new_table()["table_id"]
    for seat, client in players.items():
        post(client, f"/api/tables/{table_id}/seats/{seat}/take", {})

    response = post(players["north"], f"/api/tables/{table_id}/start", {})

    assert response.status_code == 200, response.content
    events = response.json()["events"]
    assert "HandDealt" in [event["type"] for event in events]
    assert all("deck" not in event["data"] for event in events)


def test_a_whole_hand_played_over_http(started_table: dict[str, Any], players: Players) -> None:
    table_id = started_table["id"]
    table = bid_round(table_id, players)["table"]
    plays = 0

    while table["hand"]["number"] == 1:
        seat = turn_of(table)
        card = legal_card(players[seat], table_id)
        response = post(players[seat], f"/api/tables/{table_id}/play", {"seat": seat, "card": card})
        assert response.status_code == 200, response.content
        table = response.json()["table"]
        plays += 1

    assert plays == 52
    assert table["hand"]["number"] == 2
    assert len(table["scores"]["hands"]) == 1
    # Hand 1 is over, so its cards are public to everyone, spectators included.
    dealt = APIClient().get(f"/api/tables/{table_id}/events?limit=500").json()["events"]
    assert len(next(e for e in dealt if e["type"] == "HandDealt")["data"]["deck"]) == 52


def test_an_illegal_card_gets_the_engines_sentence(
    started_table: dict[str, Any], players: Players
) -> None:
    table_id = started_table["id"]
    bid_round(table_id, players)
    table = table_as(players["north"], table_id)
    seat = turn_of(table)
    mine = table_as(players[seat], table_id)["hand"]["you"]
    refused = sorted(mine["refusals"].items())
    if not refused:
        pytest.skip("every card of this deal is legal to lead")  # pragma: no cover
    card, sentence = refused[0]
    before = event_count()

    response = post(players[seat], f"/api/tables/{table_id}/play", {"seat": seat, "card": card})

    assert response.status_code == 400, response.content
    assert response.json()["message"] == sentence
    assert event_count() == before


def test_playing_a_card_not_in_hand_is_refused(
    started_table: dict[str, Any], players: Players
) -> None:
    table_id = started_table["id"]
    bid_round(table_id, players)
    seat = turn_of(table_as(players["north"], table_id))
    other = next(s for s in players if s != seat)
    foreign = table_as(players[other], table_id)["hand"]["you"]["cards"][0]
    before = event_count()

    response = post(players[seat], f"/api/tables/{table_id}/play", {"seat": seat, "card": foreign})

    assert response.status_code == 400, response.content
    assert response.json()["code"] != "invalid"
    assert event_count() == before


@pytest.mark.parametrize("card", ["1S", "ZZ", "", 12, None, "AS AS"])
def test_a_malformed_card_is_a_400_naming_the_field(
    started_table: dict[str, Any], players: Players, card: Any
) -> None:
    before = event_count()

    response = post(
        players["north"],
        f"/api/tables/{started_table['id']}/play",
        {"seat": "north", "card": card},
    )

    assert response.status_code == 400
    assert response.json()["message"].startswith("card: ")
    assert event_count() == before


@pytest.mark.parametrize(
    "cards", [["AS"], ["AS", "KS", "QS"], ["AS", "AS"], ["AS", "XX"], "AS", None]
)
def test_a_malformed_pass_is_a_400(
    started_table: dict[str, Any], players: Players, cards: Any
) -> None:
    before = event_count()

    response = post(
        players["north"],
        f"/api/tables/{started_table['id']}/pass",
        {"seat": "north", "cards": cards},
    )

    assert response.status_code == 400
    assert response.json()["message"].startswith("cards")
    assert event_count() == before


def test_passing_when_no_pass_is_owed_is_refused(
    started_table: dict[str, Any], players: Players
) -> None:
    table_id = started_table["id"]
    mine = table_as(players["north"], table_id)["hand"]["you"]["cards"]
    before = event_count()

    response = post(
        players["north"], f"/api/tables/{table_id}/pass", {"seat": "north", "cards": mine[:2]}
    )

    assert 400 <= response.status_code < 500
    assert response.json()["code"] != "invalid"
    assert event_count() == before


def test_blind_nil_look_and_pass_over_http(new_table: Any, players: Players) -> None:
    table_id = new_table(
        rules={"preset": "standard", "blind_nil": True, "blind_nil_min_deficit": 0}
    )["table_id"]
    for seat, client in players.items():
        post(client, f"/api/tables/{table_id}/seats/{seat}/take", {})
    post(players["north"], f"/api/tables/{table_id}/start", {})
    table = table_as(players["north"], table_id)
    first = turn_of(table)
    hidden = table_as(players[first], table_id)["hand"]["you"]

    looked = post(players[first], f"/api/tables/{table_id}/look", {"seat": first})

    assert looked.status_code == 200, looked.content
    assert looked.json()["table"]["hand"]["you"]["cards"]
    assert hidden["cards"] is None or hidden["looked"]


def test_hand_seat_to_bot_and_take_it_back(started_table: dict[str, Any], players: Players) -> None:
    table_id = started_table["id"]
    seat = next(s for s in players if s != turn_of(started_table))
    client = players[seat]

    to_bot = post(client, f"/api/tables/{table_id}/seats/{seat}/bot", {"level": "easy"})
    back = post(client, f"/api/tables/{table_id}/seats/{seat}/reclaim", {})

    assert to_bot.status_code == 200, to_bot.content
    row = {r["seat"]: r for r in to_bot.json()["table"]["seats"]}[seat]
    assert row["controller"] == "bot"
    assert back.status_code == 200, back.content
    row = {r["seat"]: r for r in back.json()["table"]["seats"]}[seat]
    assert row["controller"] == "human"


def test_handing_someone_elses_seat_to_a_bot_is_a_403(
    started_table: dict[str, Any], players: Players
) -> None:
    table_id = started_table["id"]
    before = event_count()

    response = post(players["east"], f"/api/tables/{table_id}/seats/north/bot", {})

    assert response.status_code == 403
    assert event_count() == before


def test_a_bad_bot_level_is_a_400(started_table: dict[str, Any], players: Players) -> None:
    response = post(
        players["north"],
        f"/api/tables/{started_table['id']}/seats/north/bot",
        {"level": "godlike"},
    )

    assert response.status_code == 400
    assert "level" in response.json()["fields"]


def test_a_retried_start_returns_the_same_deal_events(new_table: Any, players: Players) -> None:
    table_id = new_table()["table_id"]
    for seat, client in players.items():
        post(client, f"/api/tables/{table_id}/seats/{seat}/take", {})
    path = f"/api/tables/{table_id}/start"

    first = post(players["north"], path, {}, HTTP_IDEMPOTENCY_KEY="start")
    before = event_count()
    again = post(players["north"], path, {}, HTTP_IDEMPOTENCY_KEY="start")
    fresh = post(players["north"], path, {}, HTTP_IDEMPOTENCY_KEY="start-2")

    assert first.status_code == again.status_code == 200
    assert len(first.json()["events"]) >= 3
    assert again.json()["events"] == first.json()["events"]
    assert again.json()["duplicate"] is True
    assert event_count() == before
    assert fresh.status_code == 409
    assert fresh.json()["code"] == "already_started"
