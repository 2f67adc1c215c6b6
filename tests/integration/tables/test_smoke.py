import random

from games.services.table_state import reading_state
from tests.factories import TableFactory
from tests.integration.tables.helpers import QUICK_RULES, play_moves


def test_a_random_game_plays_to_the_end(users):
    table = TableFactory(
        creator=users[0],
        rules=QUICK_RULES,
        seats={"east": {"kind": "bot", "level": "easy"}},
        players={"north": users[0], "south": users[2], "west": users[3]},
        started=True,
    )
    moves = play_moves(table.id, users, random.Random(3))
    table.refresh_from_db()
    assert table.status == "finished"
    with reading_state(table.id) as state:
        assert state.revealed_seed is not None
        assert table.version == state.version
    assert moves > 50
