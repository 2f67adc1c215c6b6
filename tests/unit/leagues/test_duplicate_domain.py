"""A duplicate competition's domain without a database: the setting (bounded, refused in
words naming the field), its fold (an older CompetitionCreated is not duplicate), the
boards committed for a round (the movement checked against the tables), board results
scored on their own, the reveal only once every table is done, and par once a board."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.rules import rules_from_spec
from leagues.core.duplicate.board_scoring import imps, score_board
from leagues.core.duplicate.boards import derive_boards, round_commitment, verify_round_boards
from leagues.core.duplicate.par import PAR_METHOD, Par
from leagues.core.errors import LeagueError
from leagues.domain import events as ev
from leagues.domain.decisions import CompetitionSpec, decide_pair
from leagues.domain.decisions import duplicate as dup
from leagues.domain.settings import CompetitionSettings, DuplicateSettings

from .test_domain import NOW, ORGANISER, Stream, refusal

SEED = "s" * 32
DUPLICATE = {"boards_per_round": 2, "movement": "teams_of_four", "par_plays": 1}


def spec(**fields: Any) -> CompetitionSpec:
    return CompetitionSpec.parse({"name": "Dup", **fields})


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"duplicate": {"boards_per_round": 0}}, "duplicate.boards_per_round"),
        ({"duplicate": {"boards_per_round": 37}}, "duplicate.boards_per_round"),
        ({"duplicate": {}}, "duplicate.boards_per_round"),
        ({"duplicate": {"boards_per_round": 2, "movement": "howell"}}, "duplicate.movement"),
        ({"duplicate": {"boards_per_round": 2, "scale": "total"}}, "duplicate.scale"),
        ({"duplicate": {"boards_per_round": 2, "par_plays": 9}}, "duplicate.par_plays"),
        ({"duplicate": {"boards_per_round": 2, "boards": 3}}, "boards"),
        ({"duplicate": "yes"}, "duplicate"),
        ({"duplicate": {"boards_per_round": 2}, "fixed_hands": 3}, "fixed_hands"),
        ({"duplicate": {"boards_per_round": 2}, "stages": [{"kind": "knockout"}]}, "knockout"),
    ],
)
def test_a_bad_duplicate_setting_is_refused_in_words(fields: Any, named: str) -> None:
    error = refusal(lambda: spec(**fields))
    assert error.code == "invalid"
    assert named in error.message, error.message


def test_the_setting_is_pinned_and_sets_the_hands() -> None:
    parsed = spec(duplicate=DUPLICATE)
    assert parsed.duplicate == DuplicateSettings(2, "teams_of_four", "matchpoints", 1)
    assert parsed.match_format.fixed_hands == 2
    stream = Stream(duplicate=DUPLICATE)
    settings = stream.state.settings
    assert settings is not None and settings.duplicate == parsed.duplicate
    assert CompetitionSettings.from_payload(settings.as_payload()) == settings
    assert spec().duplicate is None


def test_an_older_competition_is_not_duplicate() -> None:
    payload = Stream().state.settings.as_payload()  # type: ignore[union-attr]
    v2 = {k: v for k, v in payload.items() if k != "duplicate"} | {"name": "Club"}
    ev.validate_payload(ev.COMPETITION_CREATED, 2, v2)
    assert CompetitionSettings.from_payload(v2).duplicate is None
    with pytest.raises(ev.EventSchemaError):
        ev.validate_payload(ev.COMPETITION_CREATED, 3, v2)


def paired(tables: int = 2) -> Stream:
    stream = Stream(duplicate=DUPLICATE, stages=[{"kind": "round_robin"}])
    for number in range(1, 2 * tables + 1):
        stream.append(
            [
                ev.entrant_registered(
                    entrant_id=f"e{number}",
                    players=[str(10 * number), str(10 * number + 1)],
                    reserve=None,
                    name="",
                    rating=0,
                    invited=[],
                    actor=ORGANISER,
                )
            ]
        )
    events, _ = decide_pair(stream.state, seed="p" * 16, actor=ORGANISER)
    stream.append(events)
    return stream


def started(stream: Stream) -> Stream:
    matches = stream.state.paired_round(1).pairing.matches  # type: ignore[union-attr]
    stream.append(
        [
            ev.round_started(
                round_number=1,
                tables=[(m.board, f"t{m.board}") for m in matches],
                opened_at=NOW.isoformat(),
                by="organiser",
                actor=ORGANISER,
            ),
            *dup.decide_boards_committed(
                stream.state,
                round_number=1,
                round_seed=SEED,
                tables=len(matches),
                actor=ORGANISER,
            ),
        ]
    )
    return stream


def test_boards_are_committed_without_their_seeds() -> None:
    stream = started(paired())
    found = stream.state.duplicate[1]
    boards = derive_boards(SEED, 2)
    assert found.round_commitment == round_commitment(SEED)
    assert found.boards == [board.public_dict() for board in boards]
    assert SEED not in str(found.boards) and boards[0].seed not in str(found.boards)
    assert not found.is_revealed
    # Committed once only.
    again = refusal(
        lambda: dup.decide_boards_committed(
            stream.state, round_number=1, round_seed=SEED, tables=2, actor=ORGANISER
        )
    )
    assert again.code == "round_started"


def test_teams_of_four_needs_an_even_number_of_tables() -> None:
    stream = paired(tables=2)
    error = refusal(
        lambda: dup.decide_boards_committed(
            stream.state, round_number=1, round_seed=SEED, tables=3, actor=ORGANISER
        )
    )
    assert error.code == "bad_movement" and "even" in error.message


def played(seed: int) -> list[dict[str, Any]]:
    return [
        {"bids": [3, 3, 3, 3], "blind": [False] * 4, "tricks": [4, 3, 3, 3]},
        {"bids": [0, 4, 4, 4], "blind": [False] * 4, "tricks": [seed, 4, 4, 5 - seed]},
    ]


def test_board_results_are_scored_on_their_own_and_revealed_when_all_are_in() -> None:
    stream = started(paired())
    rules = rules_from_spec({"preset": "standard"})
    tables = sorted(stream.state.tables[1])
    first = dup.decide_board_results(
        stream.state,
        round_number=1,
        table=tables[0],
        table_id="t1",
        rules=rules,
        boards=played(0),
        actor=ORGANISER,
    )
    stream.append(first)
    scored = score_board(rules, [0, 4, 4, 4], [False] * 4, [0, 4, 4, 5])
    assert first[1].data["score"] == {
        "north_south": scored.north_south.points,
        "east_west": scored.east_west.points,
    }
    # One table is still playing: nothing is revealed.
    assert not dup.round_finished(stream.state, 1)
    assert dup.decide_reveal(stream.state, round_number=1, round_seed=SEED, actor=ORGANISER) == []
    # A table that has not played every board is refused.
    short = refusal(
        lambda: dup.decide_board_results(
            stream.state,
            round_number=1,
            table=tables[1],
            table_id="t2",
            rules=rules,
            boards=played(1)[:1],
            actor=ORGANISER,
        )
    )
    assert short.code == "boards_unfinished"
    stream.append(
        dup.decide_board_results(
            stream.state,
            round_number=1,
            table=tables[1],
            table_id="t2",
            rules=rules,
            boards=played(1),
            actor=ORGANISER,
        )
    )
    assert dup.round_finished(stream.state, 1) and dup.board_finished(stream.state, 1, 2)
    with pytest.raises(LeagueError):
        dup.decide_reveal(stream.state, round_number=1, round_seed="x" * 32, actor=ORGANISER)
    stream.append(dup.decide_reveal(stream.state, round_number=1, round_seed=SEED, actor=ORGANISER))
    found = stream.state.duplicate[1]
    assert found.is_revealed
    checks = verify_round_boards(SEED, found.round_commitment, list(found.revealed.values()))
    assert all(check.ok for check in checks)
    assert dup.decide_reveal(stream.state, round_number=1, round_seed=SEED, actor=ORGANISER) == []


def test_a_board_gets_one_par() -> None:
    stream = started(paired())
    board = derive_boards(SEED, 2)[0]
    rules = rules_from_spec({"preset": "standard"})
    score = score_board(rules, [3, 3, 3, 3], [False] * 4, [4, 3, 3, 3])
    par = Par(board.number, PAR_METHOD, (1, 2, 3, 4), (score,) * 4)
    events = dup.decide_par(
        stream.state, round_number=1, par=par, bot_version="hard-2", actor=ORGANISER
    )
    stream.append(events)
    assert stream.state.duplicate[1].pars[1] == par.as_dict()
    assert (
        dup.decide_par(stream.state, round_number=1, par=par, bot_version="hard-2", actor=ORGANISER)
        == []
    )
    other = Par(9, PAR_METHOD, (1,), (score,))
    assert (
        refusal(
            lambda: dup.decide_par(
                stream.state, round_number=1, par=other, bot_version="hard-2", actor=ORGANISER
            )
        ).code
        == "unknown_board"
    )


def test_a_competition_that_is_not_duplicate_has_no_boards() -> None:
    stream = Stream()
    error = refusal(lambda: dup.duplicate_round(stream.state, 1))
    assert error.code == "not_duplicate"


def test_a_teams_of_four_table_records_its_team_match() -> None:
    # Open room (table 1) and closed room (table 2) of one match: team A is table 1's
    # North-South and table 2's East-West; each board gives A IMPs(open net - closed net).
    stream = started(paired())
    rules = rules_from_spec({"preset": "standard"})
    boards = {
        1: [
            {"bids": [3, 3, 3, 3], "blind": [False] * 4, "tricks": [4, 3, 3, 3]},
            {"bids": [3, 3, 3, 3], "blind": [False] * 4, "tricks": [3, 3, 3, 4]},
        ],
        2: [
            {"bids": [3, 3, 3, 3], "blind": [False] * 4, "tricks": [4, 3, 3, 3]},
            {"bids": [3, 3, 3, 3], "blind": [False] * 4, "tricks": [3, 3, 3, 4]},
        ],
    }
    assert dup.team_result(stream.state, 1, 1) is None  # nothing recorded yet
    for table in (1, 2):
        stream.append(
            dup.decide_board_results(
                stream.state,
                round_number=1,
                table=table,
                table_id=f"t{table}",
                rules=rules,
                boards=boards[table],
                actor=ORGANISER,
            )
        )
        if table == 1:
            assert dup.team_result(stream.state, 1, 1) is None  # the other room is missing
    nets = {
        table: [score_board(rules, b["bids"], b["blind"], b["tricks"]).net for b in boards[table]]
        for table in (1, 2)
    }
    # Both rooms played both boards alike: no IMPs, a draw at both tables.
    assert nets[1] == nets[2]
    assert dup.team_result(stream.state, 1, 1) == ({"north_south": 0, "east_west": 0}, None)
    assert dup.team_result(stream.state, 1, 2) == ({"north_south": 0, "east_west": 0}, None)


def test_a_teams_of_four_table_result_is_the_team_margin_seen_from_the_table() -> None:
    stream = started(paired())
    rules = rules_from_spec({"preset": "standard"})
    set_by_two = {"bids": [5, 3, 5, 3], "blind": [False] * 4, "tricks": [4, 3, 4, 2]}
    made = {"bids": [4, 3, 4, 3], "blind": [False] * 4, "tricks": [4, 3, 4, 2]}
    for table, first in ((1, made), (2, set_by_two)):
        stream.append(
            dup.decide_board_results(
                stream.state,
                round_number=1,
                table=table,
                table_id=f"t{table}",
                rules=rules,
                boards=[first, made],
                actor=ORGANISER,
            )
        )
    open_net = score_board(rules, made["bids"], made["blind"], made["tricks"]).net
    closed_net = score_board(rules, *(set_by_two[k] for k in ("bids", "blind", "tricks"))).net
    swing = imps(open_net - closed_net)
    assert swing > 0  # team A (open North-South, closed East-West) gained on board 1
    assert dup.team_result(stream.state, 1, 1) == (
        {"north_south": swing, "east_west": 0},
        "north_south",
    )
    assert dup.team_result(stream.state, 1, 2) == (
        {"north_south": 0, "east_west": swing},
        "east_west",
    )


def test_a_board_is_revealed_alone_once_every_table_has_finished_it() -> None:
    stream = started(paired())
    rules = rules_from_spec({"preset": "standard"})
    tables = sorted(stream.state.tables[1])

    def board(table: int, number: int) -> list[Any]:
        return dup.decide_board_result(
            stream.state,
            round_number=1,
            board=number,
            table=table,
            table_id=f"t{table}",
            rules=rules,
            played=played(0)[number - 1],
            actor=ORGANISER,
        )

    def reveal(number: int) -> list[Any]:
        return dup.decide_board_reveal(
            stream.state, round_number=1, board=number, round_seed=SEED, actor=ORGANISER
        )

    stream.append(board(tables[0], 1))
    assert board(tables[0], 1) == []  # recorded once
    assert reveal(1) == []  # the other table may still play board 1
    stream.append(board(tables[1], 1))
    stream.append(board(tables[0], 2))
    assert reveal(2) == []  # board 2 is still being played at the second table
    with pytest.raises(LeagueError):
        dup.decide_board_reveal(
            stream.state, round_number=1, board=1, round_seed="x" * 32, actor=ORGANISER
        )
    events = reveal(1)
    assert [e.type for e in events] == [ev.BOARD_REVEALED]
    assert "round_seed" not in events[0].data
    stream.append(events)
    assert reveal(1) == []
    found = stream.state.duplicate[1]
    assert not found.is_revealed and found.board_revealed(1) and not found.board_revealed(2)
    assert dup.board_shown(found, stream.state, 1) and not dup.board_shown(found, stream.state, 2)
    assert refusal(lambda: dup.shown_board(stream.state, 1, 2, what="x")).code == "board_open"
    commitments = {int(b["board"]): str(b["commitment"]) for b in found.boards}
    checks = verify_round_boards(
        None, found.round_commitment, list(found.revealed.values()), commitments
    )
    assert [c.board for c in checks] == [1] and all(c.ok for c in checks)
    # The round's end reveals the round seed and the rest, binding board 1 to it.
    stream.append(board(tables[1], 2))
    stream.append(dup.decide_reveal(stream.state, round_number=1, round_seed=SEED, actor=ORGANISER))
    found = stream.state.duplicate[1]
    assert found.is_revealed and sorted(found.revealed) == [1, 2]
    checks = verify_round_boards(
        SEED, found.round_commitment, list(found.revealed.values()), commitments
    )
    assert all(c.ok for c in checks)
    assert reveal(2) == []
