"""Boards: derived from the round seed as tables derive deals, committed, verifiable."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.domain.table import seed_commitment as table_commitment
from games.engine.cards import card_name
from games.engine.deal import deal_deck, seed_commitment, shuffled_deck
from leagues.core.duplicate.boards import (
    MAX_BOARDS,
    board_seed,
    dealer_of,
    derive_board,
    derive_boards,
    round_commitment,
    verify_board,
    verify_round_boards,
)
from leagues.core.errors import LeagueError

SEED = "round-seed-1"
seeds = st.text(alphabet="abcXYZ019_-", min_size=1, max_size=40)


def test_a_board_is_the_first_hand_of_a_table_with_the_board_seed() -> None:
    board = derive_boards(SEED, 4)[2]
    expected_seed = hashlib.sha256(f"spades-board|{SEED}|3".encode()).hexdigest()
    assert board.number == 3 and board.seed == expected_seed
    assert list(board.deck) == shuffled_deck(expected_seed, 1)
    assert board.dealer == 2  # board 3: South deals
    assert board.hands == deal_deck(shuffled_deck(expected_seed, 1), 2)
    assert board.commitment == hashlib.sha256(expected_seed.encode()).hexdigest()
    assert board.commitment == table_commitment(expected_seed)  # the tables' scheme


def test_dealers_rotate_from_north() -> None:
    assert [dealer_of(n) for n in range(1, 9)] == [0, 1, 2, 3, 0, 1, 2, 3]


@given(seeds, st.integers(1, 12))
def test_boards_rederive_and_verify(seed: str, count: int) -> None:
    boards = derive_boards(seed, count)
    assert boards == derive_boards(seed, count)
    assert len({b.deck for b in boards}) == count
    revealed = [b.revealed_dict() for b in boards]
    assert all(check.ok for check in verify_round_boards(seed, round_commitment(seed), revealed))
    for board in boards:
        assert sum(bin(h).count("1") for h in board.hands) == 52


def test_the_public_form_hides_seed_and_deck() -> None:
    shown = derive_board(board_seed(SEED, 1), 1).public_dict()
    assert set(shown) == {"board", "dealer", "commitment"}


def test_tampering_is_reported_never_raised() -> None:
    board = derive_boards(SEED, 2)[1]
    deck = [card_name(c) for c in board.deck]
    assert verify_board(2, board.seed, board.commitment, deck, SEED).ok
    wrong_seed = verify_board(2, board_seed(SEED, 1), board.commitment, deck)
    assert wrong_seed.problem == "the revealed seed does not match the commitment"
    swapped = deck[:]
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not verify_board(2, board.seed, board.commitment, swapped).ok
    assert not verify_board(2, board.seed, board.commitment, deck, "another-round").ok
    bad_round = verify_round_boards(SEED, seed_commitment("x"), [board.revealed_dict()])
    assert bad_round[0].problem == "the round seed does not match its commitment"
    assert not verify_board(0, board.seed, board.commitment).ok
    odd = verify_round_boards(SEED, round_commitment(SEED), [{"board": "2"}])
    assert odd[0].problem == "board number '2' is not a whole number"


@pytest.mark.parametrize("count", [0, MAX_BOARDS + 1, True])
def test_board_counts_are_bounded(count: int) -> None:
    with pytest.raises(LeagueError):
        derive_boards(SEED, count)


def test_a_round_seed_is_a_pairing_seed() -> None:
    with pytest.raises(LeagueError):
        board_seed("has a space", 1)


def test_a_board_revealed_alone_verifies_against_its_published_commitment() -> None:
    boards = derive_boards(SEED, 3)
    commitments = {b.number: b.commitment for b in boards}
    alone = [boards[1].revealed_dict()]
    assert all(c.ok for c in verify_round_boards(None, round_commitment(SEED), alone, commitments))
    forged = {**alone[0], "seed": boards[2].seed}
    [check] = verify_round_boards(None, round_commitment(SEED), [forged], commitments)
    assert not check.ok and "commitment" in (check.problem or "")
