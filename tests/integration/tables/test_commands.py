"""Table commands through the application services, against the real PostgreSQL."""

from __future__ import annotations

import random
import re
import uuid
from typing import Any

import pytest

from eventstore.reading import read_stream
from games.domain import events as ev
from games.models import Table, TableSecret
from games.services.actors import BotActor, SystemActor
from games.services.errors import CommandRejected
from games.services.table_commands import (
    HandSeatToBot,
    LeaveSeat,
    LookAtCards,
    PassCards,
    PlaceBid,
    PlayCard,
    StartGame,
    TakeSeat,
    TakeSeatBack,
    TurnTimedOut,
    create_table,
    execute,
)
from games.services.table_state import forget, reading_state
from tests.factories import TableFactory, UserFactory
from tests.integration.tables.helpers import BOT, play_moves

pytestmark = pytest.mark.django_db


def full_table(users: dict[int, Any], **kwargs: Any) -> Table:
    names = ("north", "east", "south", "west")
    return TableFactory(
        creator=users[0],
        players={names[s]: users[s] for s in range(4)},
        started=True,
        first_dealer="north",
        **kwargs,
    )


def rejected(call: Any, *args: Any, **kwargs: Any) -> CommandRejected:
    with pytest.raises(CommandRejected) as info:
        call(*args, **kwargs)
    return info.value


def stream(table: Table) -> list[Any]:
    return read_stream(f"table-{table.id}")


def test_create_pins_the_preset_version_and_the_rules_snapshot(users):
    result = create_table(
        actor=users[0],
        rules={"preset": "bicycle", "target_score": 300},
        seats={"east": {"kind": "bot", "level": "hard"}, "west": "bot"},
        turn_timer_seconds=30,
    )
    table = Table.objects.get(id=result.table_id)
    assert (table.preset_name, table.preset_version) == ("bicycle", 1)
    assert table.rules["target_score"] == 300 and table.rules["set_penalty"] == "zero"
    assert table.status == "lobby" and table.version == 1
    created = result.events[0]
    assert created.type == ev.TABLE_CREATED
    assert created.data["rules"] == table.rules
    assert created.data["seats"]["east"] == {"kind": "bot", "level": "hard"}
    assert created.data["seats"]["west"] == {"kind": "bot", "level": "normal"}
    assert created.metadata["actor"] == {"kind": "user", "user_id": users[0].pk}


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"preset": "standard", "blind_nil": True, "nil": False}, "Blind nil needs nil"),
        ("nonsense", "Unknown preset 'nonsense'"),
        ({"target_scor": 3}, "Unknown rule field: target_scor"),
    ],
)
def test_bad_rules_are_refused_with_the_engines_message(users, rules, message):
    error = rejected(create_table, actor=users[0], rules=rules)
    assert error.status == 400 and message in error.message
    assert not Table.objects.exists()


def test_create_needs_a_signed_in_user_and_sane_input(users):
    assert rejected(create_table, actor=None).status == 403
    error = rejected(create_table, actor=users[0], turn_timer_seconds=0)
    assert error.code == "bad_turn_timer"
    error = rejected(create_table, actor=users[0], seats={"east": {"kind": "alien"}})
    assert error.code == "bad_seats"


def test_starting_commits_to_a_seed_before_the_first_deal(users):
    table = full_table(users)
    events = stream(table)
    types = [event.type for event in events]
    assert types[-3:] == [ev.GAME_STARTED, ev.DEAL_COMMITTED, ev.HAND_DEALT]
    secret = TableSecret.objects.get(table_id=table.id)
    assert events[-2].data["commitment"] == secret.commitment
    assert len(secret.seed) == 64
    table.refresh_from_db()
    assert table.status == "playing" and table.phase == "bidding"
    assert table.seat_to_act == 1 and table.seat_to_act_kind == "human"
    assert table.version == len(events)


def test_illegal_moves_are_refused_with_the_engines_sentence_and_write_nothing(users):
    table = full_table(users)
    before = stream(table)
    error = rejected(execute, PlaceBid(table.id, "south", 3), users[2])
    assert (error.status, error.code) == (400, "not_your_turn")
    assert error.message == "It is east's turn to bid, not south's."
    error = rejected(execute, PlaceBid(table.id, "east", 14), users[1])
    assert error.code == "bid_out_of_range"
    error = rejected(execute, PlayCard(table.id, "east", "AS"), users[1])
    assert error.message.startswith("Bidding is not over yet")
    error = rejected(execute, PlayCard(table.id, "east", "ZZ"), users[1])
    assert error.code == "bad_card"
    assert len(stream(table)) == len(before)


def test_following_suit_is_enforced_with_the_reason(users):
    table = full_table(users)
    for seat in ("east", "south", "west", "north"):
        execute(PlaceBid(table.id, seat, 3), users[("north", "east", "south", "west").index(seat)])
    with reading_state(table.id) as state:
        hand = state.hand
        assert hand is not None and hand.turn == 1
        led = min(c for c in range(52) if hand.hands[1] >> c & 1 and c // 13 != 3)
        south = hand.hands[2]
    execute(PlayCard(table.id, "east", led), users[1])
    suit = led // 13
    follows = [c for c in range(52) if south >> c & 1 and c // 13 == suit]
    other = [c for c in range(52) if south >> c & 1 and c // 13 != suit]
    if not follows or not other:
        pytest.skip("south holds only one kind of card here")
    error = rejected(execute, PlayCard(table.id, "south", other[0]), users[2])
    assert error.code == "must_follow_suit"
    assert error.message.startswith("You must follow suit: you hold a ")


def test_only_a_seats_player_acts_for_it(users):
    table = full_table(users)
    stranger = UserFactory()
    for actor in (users[0], stranger, None):
        error = rejected(execute, PlaceBid(table.id, "east", 3), actor)
        assert error.status == 403
    error = rejected(execute, PlaceBid(table.id, "east", 3), BOT)
    assert (error.status, error.code) == (403, "not_a_bot_seat")


def test_bots_move_for_bot_seats_with_their_version_in_the_metadata(users):
    table = TableFactory(
        creator=users[0],
        seats={"east": {"kind": "bot", "level": "hard"}},
        players={"north": users[0], "south": users[2], "west": users[3]},
        started=True,
        first_dealer="north",
    )
    table.refresh_from_db()
    assert (table.seat_to_act, table.seat_to_act_kind, table.seat_to_act_level) == (
        1,
        "bot",
        "hard",
    )
    bot = BotActor(level="hard", strategy_version="hard-2", seed=42)
    result = execute(PlaceBid(table.id, "east", 4), bot)
    actor = dict(result.events[0].metadata["actor"])
    assert re.fullmatch(r"[0-9a-f]{32}", actor.pop("nonce"))
    assert actor == {"kind": "bot", "level": "hard", "strategy_version": "hard-2", "seed": 42}
    error = rejected(execute, PlaceBid(table.id, "east", 3), users[1])
    assert error.status == 403


def test_lobby_seats(users):
    table = TableFactory(creator=users[0], players={"north": users[0]})
    error = rejected(execute, TakeSeat(table.id, "north"), users[1])
    assert (error.status, error.code) == (409, "seat_taken")
    error = rejected(execute, StartGame(table.id), users[0])
    assert error.code == "seats_empty" and "east, south, west" in error.message
    error = rejected(execute, LeaveSeat(table.id, "north"), users[1])
    assert error.status == 403
    execute(LeaveSeat(table.id, "north"), users[0])
    table.refresh_from_db()
    assert table.seats[0]["user_id"] is None
    execute(TakeSeat(table.id, "north"), users[1])
    table.refresh_from_db()
    assert table.seats[0]["username"] == users[1].username


def test_unknown_tables_are_404(users):
    for table_id in (uuid.uuid4(), "not-a-uuid", None):
        error = rejected(execute, PlaceBid(table_id, "north", 1), users[0])
        assert error.status == 404


def test_a_stale_expected_version_is_a_conflict_with_the_current_version(users):
    table = full_table(users)
    table.refresh_from_db()
    version = table.version
    execute(PlaceBid(table.id, "east", 2), users[1], expected_version=version)
    error = rejected(execute, PlaceBid(table.id, "south", 2), users[2], expected_version=version)
    assert (error.status, error.current_version) == (409, version + 1)
    assert error.as_dict()["current_version"] == version + 1


def test_the_same_command_id_appends_once(users):
    table = full_table(users)
    first = execute(PlaceBid(table.id, "east", 2), users[1], command_id="c-1")
    again = execute(PlaceBid(table.id, "east", 2), users[1], command_id="c-1")
    assert not first.duplicate and again.duplicate
    assert [e.hash for e in again.events] == [e.hash for e in first.events]
    assert sum(1 for e in stream(table) if e.type == ev.BID_PLACED) == 1
    # Even after the table moved on, the retry answers with the first result.
    execute(PlaceBid(table.id, "south", 2), users[2])
    forget()
    late = execute(PlaceBid(table.id, "east", 2), users[1], command_id="c-1")
    assert late.duplicate and late.version == first.version


def test_create_table_is_idempotent_too(users):
    first = create_table(actor=users[0], command_id="create-1")
    again = create_table(actor=users[0], command_id="create-1")
    assert again.duplicate and again.table_id == first.table_id
    assert Table.objects.count() == 1


def test_read_model_moves_with_every_command(users):
    table = full_table(users)
    rng = random.Random(5)

    def same_version() -> None:
        row = Table.objects.get(id=table.id)
        assert row.version == len(stream(table))

    play_moves(table.id, users, rng, limit=40, after_each=same_version)


def test_blind_nil_look_and_pass(users):
    table = full_table(
        users, rules={"preset": "standard", "blind_nil": True, "blind_nil_min_deficit": 0}
    )
    # East (first to bid) may bid blind nil; north looks instead.
    with reading_state(table.id) as state:
        assert state.hand is not None and state.hand.blind_eligible == [True] * 4
    execute(PlaceBid(table.id, "east", "blind_nil"), users[1])
    execute(LookAtCards(table.id, "south"), users[2])
    error = rejected(execute, LookAtCards(table.id, "south"), users[2])
    assert error.code == "already_looked"
    execute(PlaceBid(table.id, "south", 4), users[2])
    execute(PlaceBid(table.id, "west", 4), users[3])
    execute(PlaceBid(table.id, "north", 4), users[0])
    table.refresh_from_db()
    assert table.phase == "passing" and table.acting_seats == [1, 3]
    with reading_state(table.id) as state:
        assert state.hand is not None
        east = [c for c in range(52) if state.hand.hands[1] >> c & 1][:2]
        west = [c for c in range(52) if state.hand.hands[3] >> c & 1][:2]
    error = rejected(execute, PassCards(table.id, "east", ["AS"]), users[1])
    assert error.code == "pass_two_cards"
    execute(PassCards(table.id, "east", east), users[1])
    execute(PassCards(table.id, "west", west), users[3])
    table.refresh_from_db()
    assert table.phase == "playing"


def test_timeout_then_take_back(users):
    table = full_table(users, turn_timer_seconds=30)
    table.refresh_from_db()
    assert table.turn_deadline is not None and table.seat_to_act == 1
    error = rejected(execute, TurnTimedOut(table.id, "east"), users[0])
    assert error.status == 403
    execute(TurnTimedOut(table.id, "east"), SystemActor("timer"), expected_version=table.version)
    table.refresh_from_db()
    assert table.seat_to_act_kind == "bot" and table.turn_deadline is None
    assert table.seats[1]["controller"] == "bot"
    execute(PlaceBid(table.id, "east", 3), BOT)
    execute(TakeSeatBack(table.id, "east"), users[1])
    execute(HandSeatToBot(table.id, "south", level="easy"), users[2])
    table.refresh_from_db()
    assert (table.seat_to_act_kind, table.seat_to_act_level) == ("bot", "easy")
    error = rejected(execute, TakeSeatBack(table.id, "south"), users[0])
    assert error.status == 403


def test_create_command_ids_belong_to_their_user(users):
    mine = create_table(actor=users[0], command_id="shared-id")
    theirs = create_table(actor=users[1], command_id="shared-id")
    assert mine.table_id != theirs.table_id and not theirs.duplicate
