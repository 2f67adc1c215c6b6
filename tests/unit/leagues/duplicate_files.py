"""Building duplicate competition files for tests: rounds paired with the pure core
(``pair_next_duplicate_round``), board results from bids and tricks."""

from __future__ import annotations

import json
import random
from typing import Any

from leagues.core.competition_file import read_competition
from leagues.core.duplicate.session import pair_next_duplicate_round


def base_document(
    movement: str = "mitchell_arrow_switch",
    tables: int = 2,
    rounds: int = 2,
    boards_per_round: int = 2,
    scale: str = "matchpoints",
) -> dict[str, Any]:
    return {
        "format": "spades-competition",
        "version": 2,
        "competition": {
            "id": "dup",
            "lots_seed": "dup-lots",
            "duplicate": {
                "movement": movement,
                "tables": tables,
                "rounds": rounds,
                "boards_per_round": boards_per_round,
                "scale": scale,
            },
        },
        "entrants": [
            {"id": f"P{n}", "players": [f"p{n}a", f"p{n}b"]} for n in range(1, 2 * tables + 1)
        ],
        "rounds": [],
        "board_results": [],
    }


def random_hand(rng: random.Random) -> tuple[dict[str, Any], dict[str, int]]:
    """Bids and tricks of one table (standard rules: nil allowed, no blind nil at 0-0)."""
    cuts = sorted(rng.randint(0, 13) for _ in range(3))
    tricks = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]
    seats = ("north", "east", "south", "west")
    bids: dict[str, Any] = {s: rng.choice(["nil", 1, 2, 3, 4, 5, 6]) for s in seats}
    return bids, dict(zip(seats, tricks, strict=True))


def add_round(document: dict[str, Any], seed: str) -> dict[str, Any]:
    """Pair the next round with the pure core and append it (boards unrevealed)."""
    competition = read_competition(json.dumps(document))
    assert competition.duplicate is not None
    following = pair_next_duplicate_round(
        competition.duplicate,
        [e.id for e in competition.entrants],
        competition.settings.lots_seed,
        seed,
    ).as_dict()
    document["rounds"].append(
        {
            "number": following["round"],
            "commitment": following["commitment"],
            "seed": None,
            "boards": [{**board, "seed": None} for board in following["boards"]],
            "seating": following["seating"],
        }
    )
    return document


def play_round(document: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A result for every table and board of the last round (no score: the reader
    computes it)."""
    last = document["rounds"][-1]
    for seat in last["seating"]:
        bids, tricks = random_hand(rng)
        document["board_results"].append(
            {"round": last["number"], **seat, "bids": bids, "tricks": tricks}
        )
    return document


def played_document(rng: random.Random, rounds_played: int = 2, **settings: Any) -> dict[str, Any]:
    document = base_document(**settings)
    for number in range(1, rounds_played + 1):
        add_round(document, f"round-{number}")
        play_round(document, rng)
    return document
