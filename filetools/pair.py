"""``pair FILE [--seed SEED]``: the next round's pairings of a competition file, with the
commitment and seed that make them verifiable (docs/leagues.md)."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from collections.abc import Mapping
from typing import Any, TextIO

from games.engine.seats import SEAT_NAMES
from leagues.core.commitment import SEED_PATTERN, new_seed
from leagues.core.competition import pair_next_round
from leagues.core.duplicate.boards import round_commitment
from leagues.core.duplicate.session import pair_next_duplicate_round, stage_round_boards
from leagues.core.errors import LeagueError

from .competition_input import competition_refusal, read_competition_file
from .errors import ToolError
from .tool import FileTool


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="competition file (the JSON export)")
    parser.add_argument("--seed", help="pairing seed (default: a fresh random one)")


def run(options: Mapping[str, Any], stdin: TextIO, width: int | None) -> str:
    seed = options.get("seed")
    if seed is not None and not SEED_PATTERN.fullmatch(seed):
        raise ToolError("--seed: a seed is 1 to 128 characters of A-Z, a-z, 0-9, _ and -.")
    competition = read_competition_file(options["file"])
    seed = seed or new_seed()
    if competition.duplicate is not None and not competition.duplicate.settings.stage_seated:
        try:
            following = pair_next_duplicate_round(
                competition.duplicate,
                [e.id for e in competition.entrants],
                competition.settings.lots_seed,
                seed,
            )
        except LeagueError as error:
            raise competition_refusal(options["file"], error) from None
        return json.dumps(following.as_dict(), indent=2) + "\n"
    try:
        paired = pair_next_round(competition, seed)
    except LeagueError as error:
        raise competition_refusal(options["file"], error) from None
    document = {
        **paired.pairing.as_dict(),
        "stage": paired.stage + 1,
        "commitment": paired.commitment,
        "seed": seed,
    }
    if competition.duplicate is not None:
        # Stage-seated duplicate: the stage engine paired the matches (match t is table
        # t); the round's boards come from the same seed (docs/formats.md).
        boards = stage_round_boards(seed, competition.duplicate.settings.boards_per_round)
        document["boards"] = [
            {"board": b.board, "dealer": SEAT_NAMES[b.dealer], "seed_hash": b.seed_hash}
            for b in boards
        ]
        document["boards_commitment"] = round_commitment(seed)
        document["boards_seed"] = seed
    return json.dumps(document, indent=2) + "\n"


TOOL = FileTool(
    name="pair",
    help="Pair the next round of a competition file (prints the round and its commitment).",
    add_arguments=add_arguments,
    run=run,
)
