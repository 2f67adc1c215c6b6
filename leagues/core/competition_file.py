"""Competition files: the JSON export of a competition, read back and checked.

``manage.py standings FILE`` and ``manage.py pair FILE`` read one of these without
the database.  :func:`read_competition` parses the text and checks every field; any
problem raises :class:`CompetitionFileError` naming the line (and, past JSON syntax,
the JSON path: ``$.results[3].winner``) and the reason, so nothing is computed from a
file that is wrong.  :func:`competition_document` writes the same
format (the platform's export).  The format is in ``docs/formats.md``.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, NoReturn

from games.engine.input_fields import unknown_fields_problem
from games.engine.rules import Rules, RulesError, rules_from_spec
from games.engine.seats import SEAT_NAMES
from scoring.core.scoresheet import ScoresheetError, read_hand

from .commitment import SEED_PATTERN
from .competition import Competition, PairedRound, Settings
from .duplicate.boards import MAX_BOARDS, dealer_of, round_commitment, verify_board
from .duplicate.movements import MAX_TABLES, MOVEMENTS, Schedule
from .duplicate.par import MAX_PLAYS, BoardPar, ParMethod, play_seed
from .duplicate.session import (
    DUPLICATE_TIEBREAKS,
    SCALES,
    SEATINGS,
    SLOT_ORDERS,
    BoardResult,
    DuplicateRound,
    DuplicateSettings,
    DuplicateState,
    RoundBoard,
    TableSeating,
    board_result,
    round_boards,
    seating_of,
    session_schedule,
    slots_from_round,
    stage_seating,
)
from .entrants import MAX_ENTRANTS, MAX_ID_LENGTH, MAX_RATING, Entrant, check_entrants
from .errors import LeagueError
from .json_lines import line_of
from .pairings import MAX_FORBIDDEN_PAIRS, ForbiddenPair, Pairing, RoundPairing, forbidden_pair
from .results import (
    AWARD_KINDS,
    SIDES,
    Award,
    MatchFormat,
    MatchPoints,
    MatchResult,
    check_result,
    effective_results,
)
from .stages import STAGE_KINDS, Stage, check_stages
from .standings import Standings
from .tiebreaks import check_tiebreaks
from .withdrawals import check_pairing_after_withdrawal, check_result_after_withdrawal

FORMAT = "spades-competition"
FORMAT_VERSION = 2
#: Version 1 files (no duplicate data) are still read, and still written for a
#: competition without duplicate data, so an older reader keeps reading them.
READABLE_VERSIONS = (1, 2)
DUPLICATE_VERSION = 2
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_ROUNDS = 256
MAX_RESULTS = 1_000_000
MAX_SEQUENCE = 2**53
COMMITMENT_PATTERN = re.compile(r"[0-9a-f]{64}")

TOP_KEYS = (
    "format",
    "version",
    "competition",
    "entrants",
    "rounds",
    "results",
    "awards",
    "forbidden_pairs",
    "standings",
    "board_results",
)
COMPETITION_KEYS = (
    "id",
    "name",
    "stages",
    "match_points",
    "fixed_hands",
    "tiebreaks",
    "lots_seed",
    "round_robin_order",
    "knockout_seeding",
    "duplicate",
)
DUPLICATE_KEYS = (
    "movement",
    "tables",
    "rounds",
    "boards_per_round",
    "scale",
    "rules",
    "tiebreaks",
    "slots",
    "seating",
)
#: What a stage-seated duplicate setting may hold (the stages pin rounds and tables).
STAGE_DUPLICATE_KEYS = ("seating", "movement", "boards_per_round", "scale", "rules")
BOARD_KEYS = ("board", "dealer", "seed_hash", "seed", "par")
#: A revealed board's par (``BoardPar.as_dict``); the totals and averages are optional on
#: reading and, when present, must be what the plays give.
PAR_KEYS = (
    "method",
    "bot_version",
    "plays",
    "north_south_total",
    "east_west_total",
    "north_south",
    "east_west",
    "net",
)
PAR_METHOD_KEYS = ("level", "version", "plays")
PAR_PLAY_KEYS = ("seed", "north_south", "east_west")
#: Bounds of a par play's board score (a board scores a few hundred points at most).
MAX_BOARD_POINTS = 10_000
SEATING_KEYS = ("table", "board", "north_south", "east_west")
BOARD_RESULT_KEYS = (
    "round",
    "table",
    "board",
    "north_south",
    "east_west",
    "bids",
    "tricks",
    "score",
    "corrected",
)
STAGE_KEYS = ("kind", "rounds", "advance", "double", "reset")
POINTS_KEYS = ("win", "draw", "loss", "bye", "late_join", "forfeit_loss")
ENTRANT_KEYS = (
    "id",
    "name",
    "players",
    "reserve",
    "rating",
    "joined_round",
    "withdrawn_after_round",
)
ROUND_KEYS = (
    "number",
    "stage",
    "input",
    "commitment",
    "seed",
    "results_version",
    "matches",
    "byes",
    "boards",
    "seating",
    "boards_commitment",
    "boards_seed",
)
#: A stage-seated duplicate round's own keys, beside a paired round's.
STAGE_BOARD_ROUND_KEYS = ("boards", "boards_commitment", "boards_seed")
MATCH_KEYS = ("board", "north_south", "east_west", "match")
RESULT_KEYS = (
    "id",
    "sequence",
    "round",
    "board",
    "north_south",
    "east_west",
    "points",
    "winner",
    "forfeited_by",
    "no_show",
    "bot_substitute",
    "corrects",
    "rated",
    "match_points",
    "organiser",
    "reason",
)
AWARD_KEYS = ("id", "sequence", "round", "entrant", "kind")


class CompetitionFileError(ValueError):
    """A competition file that cannot be used: where (line or JSON path) and why.

    ``line`` is the line of the source text the problem is on (for a JSON path, the
    line of the value it names: :func:`leagues.core.json_lines.line_of`), when known.
    """

    def __init__(self, where: str, reason: str, line: int | None = None) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason
        self.line = line


def _fail(where: str, reason: str, line: int | None = None) -> NoReturn:
    raise CompetitionFileError(where, reason, line)


def _object(value: object, where: str, known: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        _fail(where, "expected an object {...}.")
    problem = unknown_fields_problem(value, known, "this object")
    if problem:
        _fail(where, problem)
    return value


def _list(value: object, where: str, limit: int) -> list[Any]:
    if not isinstance(value, list):
        _fail(where, "expected a list [...].")
    if len(value) > limit:
        _fail(where, f"at most {limit} entries.")
    return value


def _int(value: object, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(where, f"expected a whole number from {low} to {high}.")
    if not low <= value <= high:
        _fail(where, f"{value} is out of range; expected {low} to {high}.")
    return value


def _optional_int(value: object, where: str, low: int, high: int) -> int | None:
    return None if value is None else _int(value, where, low, high)


def _str(value: object, where: str, limit: int = MAX_ID_LENGTH, empty: bool = False) -> str:
    if not isinstance(value, str) or (not value and not empty):
        _fail(where, "expected a non-empty text." if not empty else "expected a text.")
    if len(value) > limit:
        _fail(where, f"at most {limit} characters.")
    return value


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        _fail(where, "expected true or false.")
    return value


def _choice(value: object, where: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        _fail(where, f"{value!r} is not one of {', '.join(choices)}.")
    return str(value)


def _seed(value: object, where: str) -> str:
    if not isinstance(value, str) or not SEED_PATTERN.fullmatch(value):
        _fail(where, "a seed is 1 to 128 characters of A-Z, a-z, 0-9, _ and -.")
    return value


def read_competition(text: str | bytes) -> Competition:
    """Parse and check a competition file's text."""
    if len(text) > MAX_FILE_BYTES:
        _fail("file", f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB.")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        _fail(f"line {error.lineno} column {error.colno}", f"not JSON: {error.msg}.", error.lineno)
    except UnicodeDecodeError:
        _fail("file", "not UTF-8 text.")
    except RecursionError:
        _fail("file", "nested too deeply to read (no competition file needs that depth).")
    except ValueError:
        # The interpreter's cap on integer digits (CVE-2020-10735), hit while decoding.
        _fail(
            "file",
            f"a number of more than {sys.get_int_max_str_digits()} digits; no field needs one.",
        )
    try:
        return load_competition(document)
    except CompetitionFileError as error:
        source = text if isinstance(text, str) else text.decode(json.detect_encoding(text))
        error.line = line_of(source, error.where)
        raise


def load_competition(document: object) -> Competition:
    """Check a decoded competition document and build the :class:`Competition`."""
    top = _object(document, "$", TOP_KEYS)
    if top.get("format") != FORMAT:
        _fail("$.format", f'expected "{FORMAT}".')
    version = top.get("version")
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        _fail("$.version", f"expected {' or '.join(map(str, READABLE_VERSIONS))}.")
    settings = _settings(top.get("competition"), "$.competition")
    entrants = _entrants(top.get("entrants"), "$.entrants")
    known = {entrant.id: entrant for entrant in entrants}
    raw_competition = top["competition"]
    if raw_competition.get("duplicate") is not None or "board_results" in top:
        if version < DUPLICATE_VERSION:
            where = (
                "$.competition.duplicate" if "duplicate" in raw_competition else "$.board_results"
            )
            _fail(where, f"duplicate data needs a version {DUPLICATE_VERSION} file.")
        dup = _duplicate_settings(raw_competition.get("duplicate"), "$.competition.duplicate")
        if dup.stage_seated:
            return _stage_duplicate_competition(top, settings, entrants, known, dup)
        return _duplicate_competition(top, settings, entrants, known, dup)
    return _match_competition(top, settings, entrants, known)


def _match_competition(
    top: Mapping[str, Any],
    settings: Settings,
    entrants: tuple[Entrant, ...],
    known: Mapping[str, Entrant],
    board_rounds: bool = False,
) -> Competition:
    """Rounds of matches paired by the stages, their results and awards (a stage-seated
    duplicate file's rounds also carry their boards: ``board_rounds``)."""
    rounds = _rounds(top.get("rounds", []), "$.rounds", known, len(settings.stages), board_rounds)
    results = _results(top.get("results", []), "$.results", known, rounds, settings)
    awards = _awards(top.get("awards", []), "$.awards", known)
    active = {entrant.id: entrant.active_in for entrant in entrants}
    awards = [
        Award(f"bye:{paired.number}:{entrant}", paired.number, entrant, "bye", 0)
        for paired in rounds
        for entrant in paired.pairing.byes
        if active[entrant](paired.number)  # a withdrawn entrant's bye is worth nothing
    ] + awards
    forbidden = _forbidden(top.get("forbidden_pairs", []), "$.forbidden_pairs", known)
    standings = top.get("standings")
    if standings is not None and not isinstance(standings, Mapping):
        _fail("$.standings", "expected an object (as exported) or nothing.")
    return Competition(
        settings, entrants, tuple(rounds), tuple(results), tuple(awards), forbidden=tuple(forbidden)
    )


def _forbidden(value: object, where: str, known: Mapping[str, Entrant]) -> list[ForbiddenPair]:
    """The pairs kept apart: two different known entrants each, ids sorted."""
    pairs = set()
    for index, item in enumerate(_list(value, where, MAX_FORBIDDEN_PAIRS)):
        at = f"{where}[{index}]"
        pair = _list(item, at, 2)
        if len(pair) != 2:
            _fail(at, "expected the two entrants' ids [a, b].")
        a, b = (_known(x, f"{at}[{n}]", known) for n, x in enumerate(pair))
        if a == b:
            _fail(at, f"{a!r} twice: a pair is two different entrants.")
        pairs.add(forbidden_pair(a, b))
    return sorted(pairs)


def _settings(value: object, where: str) -> Settings:
    raw = _object(value, where, COMPETITION_KEYS)
    stages_raw = _list(raw.get("stages", [{"kind": "swiss", "rounds": 5}]), f"{where}.stages", 8)
    stages = []
    for index, stage_value in enumerate(stages_raw):
        at = f"{where}.stages[{index}]"
        stage = _object(stage_value, at, STAGE_KEYS)
        stages.append(
            Stage(
                kind=_choice(stage.get("kind"), f"{at}.kind", STAGE_KINDS),  # type: ignore[arg-type]
                rounds=_int(stage.get("rounds", 0), f"{at}.rounds", 0, 64),
                advance=_optional_int(stage.get("advance"), f"{at}.advance", 2, MAX_ENTRANTS),
                double=_bool(stage.get("double", False), f"{at}.double"),
                reset=_bool(stage.get("reset", False), f"{at}.reset"),
            )
        )
    points_raw = _object(raw.get("match_points", {}), f"{where}.match_points", POINTS_KEYS)
    for key in POINTS_KEYS:
        if key in points_raw:
            _int(points_raw[key], f"{where}.match_points.{key}", 0, 100)
    fixed = _optional_int(raw.get("fixed_hands"), f"{where}.fixed_hands", 1, 100)
    tiebreaks_raw = raw.get("tiebreaks")
    try:
        points = MatchPoints(**{key: int(points_raw[key]) for key in points_raw})
        checked_stages = check_stages(stages)
        if tiebreaks_raw is None:
            tiebreaks = Settings("x").tiebreaks
        else:
            names = _list(tiebreaks_raw, f"{where}.tiebreaks", 16)
            for index, name in enumerate(names):
                _str(name, f"{where}.tiebreaks[{index}]")
            tiebreaks = check_tiebreaks(names)
    except LeagueError as error:
        _fail(where, error.message)
    return Settings(
        id=_str(raw.get("id"), f"{where}.id"),
        name=_str(raw.get("name", ""), f"{where}.name", 200, empty=True),
        stages=checked_stages,
        match_points=points,
        match_format=MatchFormat(fixed),
        tiebreaks=tiebreaks,
        lots_seed=_seed(raw.get("lots_seed", "lots"), f"{where}.lots_seed"),
        round_robin_order=_choice(
            raw.get("round_robin_order", "lots"),
            f"{where}.round_robin_order",
            ("lots", "as_listed"),
        ),
        knockout_seeding=_choice(
            raw.get("knockout_seeding", "rating"),
            f"{where}.knockout_seeding",
            ("rating", "manual"),
        ),
    )


def _entrants(value: object, where: str) -> tuple[Entrant, ...]:
    entrants = []
    for index, item in enumerate(_list(value, where, MAX_ENTRANTS)):
        at = f"{where}[{index}]"
        raw = _object(item, at, ENTRANT_KEYS)
        players = _list(raw.get("players"), f"{at}.players", 2)
        if len(players) != 2:
            _fail(f"{at}.players", "a partnership is exactly two players.")
        rating = _int(raw.get("rating", 0), f"{at}.rating", -MAX_RATING, MAX_RATING)
        reserve = raw.get("reserve")
        entrants.append(
            Entrant(
                id=_str(raw.get("id"), f"{at}.id"),
                players=(
                    _str(players[0], f"{at}.players[0]"),
                    _str(players[1], f"{at}.players[1]"),
                ),
                reserve=None if reserve is None else _str(reserve, f"{at}.reserve"),
                rating=rating,
                name=_str(raw.get("name", ""), f"{at}.name", 200, empty=True),
                joined_round=_int(raw.get("joined_round", 1), f"{at}.joined_round", 1, MAX_ROUNDS),
                withdrawn_after_round=_optional_int(
                    raw.get("withdrawn_after_round"), f"{at}.withdrawn_after_round", 0, MAX_ROUNDS
                ),
            )
        )
    try:
        return check_entrants(entrants)
    except LeagueError as error:
        _fail(where, error.message)


def _known(value: object, where: str, known: Mapping[str, Entrant]) -> str:
    entrant = _str(value, where)
    if entrant not in known:
        _fail(where, f"{entrant!r} is not an entrant of this competition.")
    return entrant


def _paired(value: object, where: str, known: Mapping[str, Entrant], round_number: int) -> str:
    """An entrant a round pairs (or gives the bye): known, and not withdrawn before round 1."""
    entrant = _known(value, where, known)
    try:
        check_pairing_after_withdrawal(round_number, [entrant], known)
    except LeagueError as error:
        _fail(where, error.message)
    return entrant


def _rounds(
    value: object,
    where: str,
    known: Mapping[str, Entrant],
    stage_count: int,
    board_rounds: bool = False,
) -> list[PairedRound]:
    rounds: list[PairedRound] = []
    for index, item in enumerate(_list(value, where, MAX_ROUNDS)):
        at = f"{where}[{index}]"
        raw = _object(item, at, ROUND_KEYS)
        number = _int(raw.get("number"), f"{at}.number", 1, MAX_ROUNDS)
        if number != index + 1:
            _fail(f"{at}.number", f"rounds are numbered in order from 1; expected {index + 1}.")
        stage = _int(raw.get("stage", 1), f"{at}.stage", 1, stage_count) - 1
        if rounds and stage < rounds[-1].stage:
            _fail(f"{at}.stage", "stages follow one another; a round cannot go back a stage.")
        seen: set[str] = set()
        matches = []
        for board_index, match_value in enumerate(
            _list(raw.get("matches", []), f"{at}.matches", MAX_ENTRANTS)
        ):
            mat = f"{at}.matches[{board_index}]"
            match = _object(match_value, mat, MATCH_KEYS)
            board = _int(match.get("board"), f"{mat}.board", 1, MAX_ENTRANTS)
            if board != board_index + 1:
                _fail(
                    f"{mat}.board",
                    f"boards are numbered in order from 1; expected {board_index + 1}.",
                )
            sides = []
            for side in SIDES:
                entrant = _paired(match.get(side), f"{mat}.{side}", known, number)
                if entrant in seen:
                    _fail(f"{mat}.{side}", f"{entrant!r} is already in round {number}.")
                seen.add(entrant)
                sides.append(entrant)
            label = _str(match.get("match", ""), f"{mat}.match", 16, empty=True)
            matches.append(Pairing(board, sides[0], sides[1], label))
        byes = []
        for bye_index, bye_value in enumerate(
            _list(raw.get("byes", []), f"{at}.byes", MAX_ENTRANTS)
        ):
            entrant = _paired(bye_value, f"{at}.byes[{bye_index}]", known, number)
            if entrant in seen:
                _fail(f"{at}.byes[{bye_index}]", f"{entrant!r} is already in round {number}.")
            seen.add(entrant)
            byes.append(entrant)
        for key in ("boards", "seating", "boards_commitment", "boards_seed"):
            if key == "seating" and key in raw and board_rounds:
                _fail(
                    f"{at}.seating",
                    "a stage-seated duplicate round has matches (match t is table t), not seating.",
                )
            if key in raw and not board_rounds:
                _fail(
                    f"{at}.{key}",
                    "only a duplicate competition (competition.duplicate) has " + key + ".",
                )
        engine_input = raw.get("input", {})
        if not isinstance(engine_input, Mapping):
            _fail(f"{at}.input", "expected the engine input object.")
        commitment = raw.get("commitment", "")
        if not isinstance(commitment, str) or not (
            commitment == "" or COMMITMENT_PATTERN.fullmatch(commitment)
        ):
            _fail(f"{at}.commitment", "expected 64 lowercase hex digits (SHA-256), or nothing.")
        seed = raw.get("seed")
        rounds.append(
            PairedRound(
                pairing=RoundPairing(number, tuple(matches), tuple(byes)),
                stage=stage,
                input=dict(engine_input),
                commitment=commitment,
                results_version=_int(
                    raw.get("results_version", 0), f"{at}.results_version", 0, MAX_SEQUENCE
                ),
                seed=None if seed is None else _seed(seed, f"{at}.seed"),
            )
        )
    return rounds


def _results(
    value: object,
    where: str,
    known: Mapping[str, Entrant],
    rounds: list[PairedRound],
    settings: Settings,
) -> list[MatchResult]:
    boards = {
        (paired.number, pairing.board): pairing
        for paired in rounds
        for pairing in paired.pairing.matches
    }
    results: list[MatchResult] = []
    ids: set[str] = set()
    sequences: set[int] = set()
    played: dict[tuple[int, int], str] = {}
    for index, item in enumerate(_list(value, where, MAX_RESULTS)):
        at = f"{where}[{index}]"
        raw = _object(item, at, RESULT_KEYS)
        result_id = _str(raw.get("id"), f"{at}.id")
        if result_id in ids:
            _fail(f"{at}.id", f"result id {result_id!r} is used twice.")
        ids.add(result_id)
        sequence = _int(raw.get("sequence", index + 1), f"{at}.sequence", 1, MAX_SEQUENCE)
        if sequence in sequences:
            _fail(f"{at}.sequence", f"sequence {sequence} is used twice.")
        sequences.add(sequence)
        round_number = _int(raw.get("round"), f"{at}.round", 1, MAX_ROUNDS)
        board = _int(raw.get("board"), f"{at}.board", 1, MAX_ENTRANTS)
        north = _known(raw.get("north_south"), f"{at}.north_south", known)
        east = _known(raw.get("east_west"), f"{at}.east_west", known)
        if rounds:
            pairing = boards.get((round_number, board))
            if pairing is None:
                _fail(f"{at}.board", f"round {round_number} has no board {board}.")
            if (pairing.north_south, pairing.east_west) != (north, east):
                _fail(
                    at,
                    f"round {round_number} board {board} is {pairing.north_south} (North-South) "
                    f"v {pairing.east_west} (East-West), not {north} v {east}.",
                )
        points = _object(raw.get("points"), f"{at}.points", SIDES)
        corrects = raw.get("corrects")
        if corrects is not None:
            _str(corrects, f"{at}.corrects")
        elif (round_number, board) in played:
            _fail(
                at,
                f"round {round_number} board {board} already has result "
                f"{played[(round_number, board)]!r}; a change is a correction (set corrects).",
            )
        else:
            played[(round_number, board)] = result_id
        winner = raw.get("winner")
        if winner is not None:
            _choice(winner, f"{at}.winner", SIDES)
        forfeited = raw.get("forfeited_by")
        if forfeited is not None:
            _choice(forfeited, f"{at}.forfeited_by", (*SIDES, "both"))
        try:
            result = check_result(
                MatchResult(
                    id=result_id,
                    round=round_number,
                    board=board,
                    north_south=north,
                    east_west=east,
                    north_south_points=_int(
                        points.get("north_south"),
                        f"{at}.points.north_south",
                        -1_000_000,
                        1_000_000,
                    ),
                    east_west_points=_int(
                        points.get("east_west"), f"{at}.points.east_west", -1_000_000, 1_000_000
                    ),
                    winner=winner,
                    sequence=sequence,
                    forfeited_by=forfeited,
                    no_show=_bool(raw.get("no_show", False), f"{at}.no_show"),
                    bot_substitute=_bool(raw.get("bot_substitute", False), f"{at}.bot_substitute"),
                    corrects=corrects,
                    rated=_bool(raw.get("rated", True), f"{at}.rated"),
                ),
                settings.match_format,
                # A result of a round's knockout match (its pairing names the match).
                knockout=bool(rounds and boards[(round_number, board)].match),
            )
            check_result_after_withdrawal(result, known)
        except LeagueError as error:
            _fail(at, error.message)
        if raw.get("match_points") is not None:
            # Written by the export for readers of the file; it must follow from the result.
            given = _object(raw["match_points"], f"{at}.match_points", SIDES)
            expected = dict(zip(SIDES, result.match_points(settings.match_points), strict=True))
            if dict(given) != expected:
                _fail(
                    f"{at}.match_points",
                    f"the result and competition.match_points give {expected}, not {dict(given)}.",
                )
        results.append(result)
    try:
        effective_results(results)
    except LeagueError as error:
        _fail(where, error.message)
    return results


def _awards(value: object, where: str, known: Mapping[str, Entrant]) -> list[Award]:
    awards = []
    for index, item in enumerate(_list(value, where, MAX_RESULTS)):
        at = f"{where}[{index}]"
        raw = _object(item, at, AWARD_KEYS)
        kind = _choice(raw.get("kind", "late_join"), f"{at}.kind", AWARD_KINDS)
        if kind == "bye":
            _fail(f"{at}.kind", "byes are listed in their round's byes, not as awards.")
        awards.append(
            Award(
                id=_str(raw.get("id"), f"{at}.id"),
                round=_int(raw.get("round"), f"{at}.round", 1, MAX_ROUNDS),
                entrant=_known(raw.get("entrant"), f"{at}.entrant", known),
                kind="late_join",
                sequence=_int(raw.get("sequence", 0), f"{at}.sequence", 0, MAX_SEQUENCE),
            )
        )
    return awards


# --- duplicate competitions (version 2) -------------------------------------------------


def _duplicate_settings(value: object, where: str) -> DuplicateSettings:
    raw = _object(value, where, DUPLICATE_KEYS)
    seating = _choice(raw.get("seating", "movement"), f"{where}.seating", SEATINGS)
    movement_name = _choice(raw.get("movement"), f"{where}.movement", tuple(MOVEMENTS))
    if seating == "stages":
        return _stage_duplicate_settings(raw, where, movement_name)
    tables = _int(raw.get("tables"), f"{where}.tables", 1, MAX_TABLES)
    rounds = _int(raw.get("rounds"), f"{where}.rounds", 1, MAX_BOARDS)
    per_round = _int(raw.get("boards_per_round"), f"{where}.boards_per_round", 1, MAX_BOARDS)
    scale = _choice(raw.get("scale", "matchpoints"), f"{where}.scale", SCALES)
    default_slots = "as_listed" if movement_name == "teams_of_four" else "lots"
    slots = _choice(raw.get("slots", default_slots), f"{where}.slots", SLOT_ORDERS)
    rules, rules_spec = _rules_of(raw, where)
    names: tuple[str, ...] = ()
    if raw.get("tiebreaks") is not None:
        listed = _list(raw["tiebreaks"], f"{where}.tiebreaks", len(DUPLICATE_TIEBREAKS))
        names = tuple(_str(name, f"{where}.tiebreaks[{i}]") for i, name in enumerate(listed))
    settings = DuplicateSettings(
        movement_name, tables, rounds, per_round, scale, rules, rules_spec, names, slots
    )
    try:
        settings.effective_tiebreaks()
        session_schedule(settings)
    except LeagueError as error:
        _fail(where, error.message)
    return settings


def _rules_of(raw: Mapping[str, Any], where: str) -> tuple[Rules, Any]:
    rules_spec = raw.get("rules", "standard")
    try:
        return rules_from_spec(rules_spec), rules_spec
    except RulesError as error:
        _fail(f"{where}.rules", str(error))


def _stage_duplicate_settings(
    raw: Mapping[Any, Any], where: str, movement_name: str
) -> DuplicateSettings:
    """``seating: "stages"``: the stages pair the rounds, so no tables, rounds, slots or
    tie-breaks (the standings share places on ties, as the platform's)."""
    problem = unknown_fields_problem(raw, STAGE_DUPLICATE_KEYS, "a stage-seated duplicate")
    if problem:
        _fail(where, problem.rstrip(".") + " (the stages pin the rounds, the pairings the tables).")
    per_round = _int(raw.get("boards_per_round"), f"{where}.boards_per_round", 1, MAX_BOARDS)
    scale = _choice(raw.get("scale", "matchpoints"), f"{where}.scale", SCALES)
    rules, rules_spec = _rules_of(raw, where)
    return DuplicateSettings(
        movement_name, 0, 0, per_round, scale, rules, rules_spec, (), "lots", "stages"
    )


def _stage_duplicate_competition(
    top: Mapping[str, Any],
    settings: Settings,
    entrants: tuple[Entrant, ...],
    known: Mapping[str, Entrant],
    dup: DuplicateSettings,
) -> Competition:
    """A stage-seated duplicate file: a competition of matches (rounds, results, awards,
    read as any) whose rounds also carry their boards, and the board results."""
    for index, stage in enumerate(settings.stages):
        if stage.kind == "knockout":
            _fail(
                f"$.competition.stages[{index}].kind",
                "a duplicate competition has no knockout stage (a level match would need a "
                "hand beyond the round's boards); Swiss or round robin pair its rounds.",
            )
    fixed = settings.match_format.fixed_hands
    if fixed is not None and fixed != dup.boards_per_round:
        _fail(
            "$.competition.fixed_hands",
            f"a table plays the round's {dup.boards_per_round} boards as its hands, not {fixed}.",
        )
    base = _match_competition(top, settings, entrants, known, board_rounds=True)
    dup_rounds: list[DuplicateRound] = []
    expected = list(range(1, dup.boards_per_round + 1))
    for index, (raw, paired) in enumerate(zip(top.get("rounds", []), base.rounds, strict=True)):
        at = f"$.rounds[{index}]"
        commitment = raw.get("boards_commitment", "")
        if not isinstance(commitment, str) or not (
            commitment == "" or COMMITMENT_PATTERN.fullmatch(commitment)
        ):
            _fail(
                f"{at}.boards_commitment",
                "expected 64 lowercase hex digits (SHA-256 of the boards' round seed), or nothing.",
            )
        seed_value = raw.get("boards_seed")
        boards_seed = None if seed_value is None else _seed(seed_value, f"{at}.boards_seed")
        if boards_seed is not None and round_commitment(boards_seed) != commitment:
            _fail(f"{at}.boards_seed", "the revealed seed does not match boards_commitment.")
        listed = raw.get("boards", [])
        if listed == []:
            # Paired, not started: its boards are not committed yet.
            if boards_seed is not None or commitment:
                _fail(f"{at}.boards", f"round {paired.number} plays boards {_numbers(expected)}.")
            dup_rounds.append(DuplicateRound(paired.number, (), ()))
            continue
        boards = _round_boards(listed, f"{at}.boards", expected, paired.number, boards_seed)
        matches = [(p.board, p.north_south, p.east_west) for p in paired.pairing.matches]
        seating = stage_seating(matches, dup.boards_per_round)
        dup_rounds.append(
            DuplicateRound(paired.number, boards, tuple(seating), commitment, boards_seed)
        )
    results = _board_results(
        top.get("board_results", []), "$.board_results", known, dup, dup_rounds
    )
    state = DuplicateState(dup, tuple(dup_rounds), tuple(results))
    return replace(base, duplicate=state)


def _duplicate_competition(
    top: Mapping[str, Any],
    settings: Settings,
    entrants: tuple[Entrant, ...],
    known: Mapping[str, Entrant],
    dup: DuplicateSettings,
) -> Competition:
    if len(entrants) != dup.partnerships:
        _fail(
            "$.entrants",
            f"a {dup.movement} movement of {dup.tables} tables seats {dup.partnerships} "
            f"partnerships; the file has {len(entrants)} entrants.",
        )
    for key in ("results", "awards"):
        if top.get(key):
            _fail(f"$.{key}", f"a duplicate competition has board_results, not {key}.")
    schedule = session_schedule(dup)
    paired: list[PairedRound] = []
    dup_rounds: list[DuplicateRound] = []
    slots: dict[int, str] = {}
    for index, item in enumerate(_list(top.get("rounds", []), "$.rounds", dup.rounds)):
        at = f"$.rounds[{index}]"
        raw = _object(item, at, ROUND_KEYS)
        number = _int(raw.get("number"), f"{at}.number", 1, MAX_ROUNDS)
        if number != index + 1:
            _fail(f"{at}.number", f"rounds are numbered in order from 1; expected {index + 1}.")
        for key in ("matches", "byes"):
            if raw.get(key):
                _fail(f"{at}.{key}", f"a duplicate round has seating, not {key}.")
        commitment = raw.get("commitment", "")
        if not isinstance(commitment, str) or not (
            commitment == "" or COMMITMENT_PATTERN.fullmatch(commitment)
        ):
            _fail(f"{at}.commitment", "expected 64 lowercase hex digits (SHA-256), or nothing.")
        seed_value = raw.get("seed")
        round_seed = None if seed_value is None else _seed(seed_value, f"{at}.seed")
        if round_seed is not None and commitment and round_commitment(round_seed) != commitment:
            _fail(f"{at}.seed", "the revealed round seed does not match the round's commitment.")
        boards = _round_boards(
            raw.get("boards"), f"{at}.boards", round_boards(schedule, number), number, round_seed
        )
        seating = _seating(raw.get("seating"), f"{at}.seating", known, number)
        if number == 1:
            slots, problem_index, problem = slots_from_round(schedule, seating)
            if problem is not None:
                _fail(f"{at}.seating[{problem_index}]", problem)
        _check_movement(seating, f"{at}.seating", schedule, number, slots)
        dup_rounds.append(DuplicateRound(number, boards, tuple(seating)))
        paired.append(
            PairedRound(
                pairing=RoundPairing(number, (), ()),
                stage=0,
                input={},
                commitment=commitment,
                results_version=_int(
                    raw.get("results_version", 0), f"{at}.results_version", 0, MAX_SEQUENCE
                ),
                seed=round_seed,
            )
        )
    results = _board_results(
        top.get("board_results", []), "$.board_results", known, dup, dup_rounds
    )
    state = DuplicateState(dup, tuple(dup_rounds), tuple(results))
    return Competition(settings, entrants, tuple(paired), (), (), state)


def _round_boards(
    value: object, where: str, expected: list[int], number: int, round_seed: str | None
) -> tuple[RoundBoard, ...]:
    listed = _list(value, where, MAX_BOARDS)
    if len(listed) != len(expected):
        _fail(where, f"round {number} plays boards {_numbers(expected)}; list each once, in order.")
    boards = []
    for index, (item, board) in enumerate(zip(listed, expected, strict=True)):
        at = f"{where}[{index}]"
        raw = _object(item, at, BOARD_KEYS)
        if _int(raw.get("board"), f"{at}.board", 1, MAX_BOARDS) != board:
            _fail(
                f"{at}.board",
                f"round {number} plays boards {_numbers(expected)}; expected {board} here.",
            )
        dealer = _choice(raw.get("dealer"), f"{at}.dealer", SEAT_NAMES)
        if dealer != SEAT_NAMES[dealer_of(board)]:
            _fail(
                f"{at}.dealer",
                f"board {board} is dealt by {SEAT_NAMES[dealer_of(board)]}, not {dealer}.",
            )
        seed_hash = raw.get("seed_hash")
        if not isinstance(seed_hash, str) or not COMMITMENT_PATTERN.fullmatch(seed_hash):
            _fail(
                f"{at}.seed_hash", "expected 64 lowercase hex digits (SHA-256 of the board's seed)."
            )
        seed = raw.get("seed")
        if seed is not None:
            if not isinstance(seed, str) or not COMMITMENT_PATTERN.fullmatch(seed):
                _fail(
                    f"{at}.seed", "a board seed is 64 lowercase hex digits, or null until revealed."
                )
            check = verify_board(board, seed, seed_hash, None, round_seed)
            if not check.ok:
                _fail(f"{at}.seed", f"board {board}: {check.problem}.")
        par = None
        if raw.get("par") is not None:
            if seed is None:
                _fail(
                    f"{at}.par",
                    "a board's par is published with its seed (before, it would tell how "
                    "the board plays).",
                )
            par = _board_par(raw["par"], f"{at}.par", seed)
        boards.append(RoundBoard(board, dealer_of(board), seed_hash, seed, par))
    return tuple(boards)


def _board_par(value: object, where: str, seed: str) -> BoardPar:
    """A revealed board's par: its method, bot version and plays, each play's seed the one
    the board's seed gives (``par.play_seed``), and the totals and averages (when written)
    what the plays give. The plays themselves are re-played offline with the bots' code
    (``par.verify_par``; ``manage.py verify_par`` for the platform)."""
    raw = _object(value, where, PAR_KEYS)
    raw_method = _object(raw.get("method"), f"{where}.method", PAR_METHOD_KEYS)
    level = raw_method.get("level")
    version = raw_method.get("version")
    for name, text in (("level", level), ("version", version)):
        if not isinstance(text, str) or not 1 <= len(text) <= 64:
            _fail(f"{where}.method.{name}", "expected a text of 1 to 64 characters.")
    count = _int(raw_method.get("plays"), f"{where}.method.plays", 1, MAX_PLAYS)
    method = ParMethod(str(level), str(version), count)
    if raw.get("bot_version") != method.version:
        _fail(
            f"{where}.bot_version",
            f"the par was played by the method's version {method.version!r}, "
            f"not {raw.get('bot_version')!r}.",
        )
    listed = _list(raw.get("plays"), f"{where}.plays", MAX_PLAYS)
    if len(listed) != count:
        _fail(f"{where}.plays", f"the method plays the board {count} times; list each play.")
    plays = []
    for index, item in enumerate(listed, start=1):
        at = f"{where}.plays[{index - 1}]"
        play = _object(item, at, PAR_PLAY_KEYS)
        expected = str(play_seed(seed, index))
        if play.get("seed") != expected:
            _fail(
                f"{at}.seed",
                f"play {index}'s seed is {expected} (from the board's seed), "
                f"not {play.get('seed')!r}.",
            )
        ns = _int(play.get("north_south"), f"{at}.north_south", -MAX_BOARD_POINTS, MAX_BOARD_POINTS)
        ew = _int(play.get("east_west"), f"{at}.east_west", -MAX_BOARD_POINTS, MAX_BOARD_POINTS)
        plays.append((expected, ns, ew))
    par = BoardPar(method, method.version, tuple(plays))
    written = par.as_dict()
    for key in ("north_south_total", "east_west_total", "north_south", "east_west", "net"):
        if raw.get(key) is not None and raw[key] != written[key]:
            _fail(f"{where}.{key}", f"the plays give {written[key]!r}, not {raw[key]!r}.")
    return par


def _numbers(numbers: list[int]) -> str:
    return f"{numbers[0]}-{numbers[-1]}" if len(numbers) > 1 else str(numbers[0])


def _seating(
    value: object, where: str, known: Mapping[str, Entrant], number: int
) -> list[TableSeating]:
    seating = []
    seen: dict[tuple[int, str], int] = {}
    places: set[tuple[int, int]] = set()
    for index, item in enumerate(_list(value, where, MAX_TABLES * MAX_BOARDS)):
        at = f"{where}[{index}]"
        raw = _object(item, at, SEATING_KEYS)
        table = _int(raw.get("table"), f"{at}.table", 1, MAX_TABLES)
        board = _int(raw.get("board"), f"{at}.board", 1, MAX_BOARDS)
        if (table, board) in places:
            _fail(at, f"table {table} board {board} is listed twice.")
        places.add((table, board))
        sides = []
        for side in SIDES:
            entrant = _paired(raw.get(side), f"{at}.{side}", known, number)
            if (board, entrant) in seen:
                _fail(
                    f"{at}.{side}",
                    f"{entrant!r} already sits at table {seen[(board, entrant)]} "
                    f"for board {board}.",
                )
            seen[(board, entrant)] = table
            sides.append(entrant)
        seating.append(TableSeating(table, board, sides[0], sides[1]))
    return seating


def _check_movement(
    seating: list[TableSeating],
    where: str,
    schedule: Schedule,
    number: int,
    slots: Mapping[int, str],
) -> None:
    expected = {(s.table, s.board): s for s in seating_of(schedule, number, slots)}
    for index, seat in enumerate(seating):
        planned = expected.get((seat.table, seat.board))
        if planned is None:
            _fail(
                f"{where}[{index}]",
                f"round {number} has no table {seat.table} for board {seat.board}.",
            )
        if (planned.north_south, planned.east_west) != (seat.north_south, seat.east_west):
            _fail(
                f"{where}[{index}]",
                f"the movement seats {planned.north_south} (North-South) v {planned.east_west} "
                f"(East-West) at table {seat.table} for board {seat.board}, not "
                f"{seat.north_south} v {seat.east_west}.",
            )
    listed = {(s.table, s.board) for s in seating}
    missing = [key for key in expected if key not in listed]
    if missing:
        table, board = missing[0]
        _fail(
            where,
            f"table {table} board {board} is missing; the movement seats every table on "
            f"every board of round {number}.",
        )


def _board_results(
    value: object,
    where: str,
    known: Mapping[str, Entrant],
    dup: DuplicateSettings,
    rounds: list[DuplicateRound],
) -> list[BoardResult]:
    seats = {(r.number, s.table, s.board): s for r in rounds for s in r.seating}
    results = []
    done: set[tuple[int, int, int]] = set()
    for index, item in enumerate(_list(value, where, MAX_RESULTS)):
        at = f"{where}[{index}]"
        raw = _object(item, at, BOARD_RESULT_KEYS)
        round_number = _int(raw.get("round"), f"{at}.round", 1, MAX_ROUNDS)
        # A stage-seated round has a table per match (up to half the entrants).
        table = _int(raw.get("table"), f"{at}.table", 1, max(MAX_TABLES, MAX_ENTRANTS // 2))
        board = _int(raw.get("board"), f"{at}.board", 1, MAX_BOARDS)
        north = _known(raw.get("north_south"), f"{at}.north_south", known)
        east = _known(raw.get("east_west"), f"{at}.east_west", known)
        seat = seats.get((round_number, table, board))
        if seat is None:
            _fail(at, f"round {round_number} has no table {table} for board {board}.")
        if (seat.north_south, seat.east_west) != (north, east):
            _fail(
                at,
                f"round {round_number} table {table} board {board} is {seat.north_south} "
                f"(North-South) v {seat.east_west} (East-West), not {north} v {east}.",
            )
        if (round_number, table, board) in done:
            _fail(at, f"round {round_number} table {table} board {board} already has a result.")
        done.add((round_number, table, board))
        try:
            hand = read_hand(
                dup.rules, 1, {"bids": raw.get("bids"), "tricks": raw.get("tricks")}, (0, 0)
            )
        except ScoresheetError as error:
            _fail(at, str(error).removeprefix("Hand 1: "))
        result = board_result(dup.rules, round_number, seat, hand.bids, hand.blind, hand.tricks)
        corrected = raw.get("corrected", False)
        if not isinstance(corrected, bool):
            _fail(f"{at}.corrected", "corrected is true or false.")
        result = replace(result, corrected=corrected)
        if raw.get("score") is not None:
            given = _object(raw["score"], f"{at}.score", SIDES)
            expected = {"north_south": result.score_ns, "east_west": result.score_ew}
            if dict(given) != expected:
                _fail(
                    f"{at}.score",
                    f"the bids and tricks score {expected} on a board, not {dict(given)}.",
                )
        results.append(result)
    return results


def competition_document(
    competition: Competition, standings: Standings | None = None
) -> dict[str, Any]:
    """The competition as a file (the export), with ``standings`` when given."""
    settings = competition.settings
    points = settings.match_points
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": 1,  # 2 (DUPLICATE_VERSION) only with duplicate data: older readers read it
        "competition": {
            "id": settings.id,
            "name": settings.name,
            "stages": [stage.as_dict() for stage in settings.stages],
            "match_points": {key: getattr(points, key) for key in POINTS_KEYS},
            "fixed_hands": settings.match_format.fixed_hands,
            "tiebreaks": list(settings.tiebreaks),
            "lots_seed": settings.lots_seed,
            "round_robin_order": settings.round_robin_order,
            "knockout_seeding": settings.knockout_seeding,
        },
        "entrants": [
            {
                "id": e.id,
                "name": e.name,
                "players": list(e.players),
                "reserve": e.reserve,
                "rating": e.rating,
                "joined_round": e.joined_round,
                "withdrawn_after_round": e.withdrawn_after_round,
            }
            for e in competition.entrants
        ],
        "rounds": [
            {
                "number": paired.number,
                "stage": paired.stage + 1,
                "input": paired.input,
                "commitment": paired.commitment,
                "seed": paired.seed,
                "results_version": paired.results_version,
                "matches": [p.as_dict() for p in paired.pairing.matches],
                "byes": list(paired.pairing.byes),
            }
            for paired in competition.rounds
        ],
        "results": [
            {
                "id": r.id,
                "sequence": r.sequence,
                "round": r.round,
                "board": r.board,
                "north_south": r.north_south,
                "east_west": r.east_west,
                "points": {"north_south": r.north_south_points, "east_west": r.east_west_points},
                "match_points": dict(
                    zip(SIDES, r.match_points(settings.match_points), strict=True)
                ),
                "winner": r.winner,
                "forfeited_by": r.forfeited_by,
                "no_show": r.no_show,
                "bot_substitute": r.bot_substitute,
                "corrects": r.corrects,
                "rated": r.rated,
            }
            for r in competition.results
        ],
        "awards": [
            {
                "id": a.id,
                "sequence": a.sequence,
                "round": a.round,
                "entrant": a.entrant,
                "kind": a.kind,
            }
            for a in competition.awards
            if a.kind != "bye"
        ],
    }
    if competition.duplicate is not None:
        _write_duplicate(document, competition)
    if competition.forbidden:
        document["forbidden_pairs"] = [list(pair) for pair in competition.forbidden]
    if standings is not None:
        document["standings"] = standings.as_dict()
    return document


def _write_duplicate(document: dict[str, Any], competition: Competition) -> None:
    """A duplicate competition's part of the file (version 2): settings, each round's
    boards and seating, the board results."""
    state = competition.duplicate
    assert state is not None
    document["version"] = DUPLICATE_VERSION
    document["competition"]["duplicate"] = state.settings.as_dict()
    by_number = {r.number: r for r in state.rounds}
    for written in document["rounds"]:
        dup_round = by_number.get(written["number"])
        if state.settings.stage_seated:
            # The matches (match t is table t) are the seating; the boards' own seed.
            written["boards"] = [] if dup_round is None else [b.as_dict() for b in dup_round.boards]
            written["boards_commitment"] = "" if dup_round is None else dup_round.commitment
            written["boards_seed"] = None if dup_round is None else dup_round.seed
            continue
        assert dup_round is not None
        written["boards"] = [board.as_dict() for board in dup_round.boards]
        written["seating"] = [seat.as_dict() for seat in dup_round.seating]
    document["board_results"] = [result.as_dict() for result in state.results]
