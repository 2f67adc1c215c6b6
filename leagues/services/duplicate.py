"""A duplicate round on the platform: its secret seed, its boards' results, their reveal
and their par (docs/leagues.md, "Duplicate competitions").

- When a duplicate round starts (``leagues.services.tables.start_round``) a fresh round
  seed is drawn; ``BoardsCommitted`` publishes each board's commitment and the round's,
  and the seed is kept in ``leagues_boardsecret`` in the same transaction (as a pairing
  seed is kept, ``pairing_secrets``), never in an event before the reveal. Every table of
  the round is created with that seed as its deal seed (``TableCreated`` v4 ``deals``):
  its hand ``n`` is board ``n``.
- A table's game ends with ``DealRevealHeld``; the match-results process keeps its
  result (``match_results.keep_finished``) and holds a duplicate round's results back
  until every table of the round is done (:func:`ready_rounds`), so no table's total
  reaches anyone while another table still plays the boards. Each board is recorded and
  revealed alone as soon as every table has finished it (``board_reveal``); then, in one
  transaction, every table's ``MatchResultRecorded``, the ``BoardResultRecorded`` not in
  yet and ``BoardsRevealed`` with the round seed (:func:`record_round`); after it the
  tables reveal their seed (``RevealDeals``), which lifts their spectators' embargo.
- Par: :func:`compute_round_par` on the bot workers (``leagues.tasks``), one
  ``BoardParComputed`` per board.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from bots.strategies.registry import exact_strategy_of_version
from bots.strategies.selfplay import play_version
from games.engine.cards import card_name, names_in
from games.engine.rules import rules_from_spec
from games.engine.seats import SEAT_NAMES
from games.services import table_commands
from games.services.actors import SystemActor
from games.services.errors import CommandRejected
from games.services.table_commands import RevealDeals
from leagues.core.duplicate.board_scoring import score_board
from leagues.core.duplicate.boards import derive_board
from leagues.core.duplicate.par import PAR_METHOD, ParMethod, compute_par, verify_par
from leagues.core.errors import LeagueError
from leagues.domain import events as ev
from leagues.domain.decisions import duplicate as dup
from leagues.domain.decisions import results as result_rules
from leagues.domain.state import CompetitionState
from leagues.models import BoardSecret
from scoring.core.replay import RecordError, replay_document

from .duplicate_repair import repair_grace, schedule_check
from .pairing_secrets import seed_of
from .results import finish_if_complete
from .streams import Decide, actor_of, as_organiser, execute, execute_each, load

logger = logging.getLogger(__name__)

DUPLICATE_ACTOR = {"kind": "system", "name": "duplicate"}
PAR_ACTOR = {"kind": "system", "name": "par"}
DIRECTOR = SystemActor("competition")


def keep_board_seed(competition_id: str, round_number: int, seed: str, commitment: str) -> None:
    """Store a round's board seed, in the transaction of its ``BoardsCommitted``; the
    repair sweep looks at the round once its par should be done (``duplicate_repair``)."""
    BoardSecret.objects.create(
        competition_id=competition_id, round=round_number, seed=seed, commitment=commitment
    )
    schedule_check(competition_id, round_number, timezone.now() + repair_grace())


def board_seed_of(competition_id: str, round_number: int) -> str | None:
    return (
        BoardSecret.objects.filter(competition_id=competition_id, round=round_number)
        .values_list("seed", flat=True)
        .first()
    )


def ready_rounds(competition_id: str, pending: Sequence[Any]) -> tuple[set[int], bool]:
    """Which rounds of the competition have every table finished (the pending rows of
    the round and the tables already recorded cover them all), and whether the
    competition is duplicate at all."""
    state = load(competition_id)
    if state.settings is None or state.settings.duplicate is None:
        return set(), False
    ready = set()
    for number in {row.round for row in pending}:
        tables = set(state.tables.get(number, {}))
        # Done: a table whose match result is in (a board result alone is not: boards
        # are recorded one by one as they finish everywhere, leagues.services.board_reveal).
        done = {result.board for result in state.results if result.round == number}
        done |= {row.board for row in pending if row.round == number}
        if tables and tables <= done:
            ready.add(number)
    return ready, True


def record_round(competition_id: str, round_number: int, rows: Sequence[Any]) -> None:
    """Every finished table of a duplicate round at once, in one transaction: its boards'
    results, ``BoardsRevealed``, then the tables' match results; after the commit the
    tables reveal their seed. Idempotent (each step has its own command id)."""
    round_seed = board_seed_of(competition_id, round_number)
    if round_seed is None:
        raise LeagueError("no_board_seed", f"Round {round_number}'s board seed is missing.")
    seeds: dict[str, str | None] = {}

    def match_result(row: Any) -> Decide:
        def decide(state: CompetitionState) -> list[Any]:
            if "seed" not in seeds:
                seeds["seed"] = seed_of(competition_id, round_number)
            result = row.result
            # Teams of four: the table's result is its team match's (IMPs, the boards'
            # results being in by now), so the official standings count team matches.
            team = dup.team_result(state, round_number, row.board)
            points, winner = team if team is not None else (result["points"], result["winner"])
            return result_rules.decide_result(
                state,
                round_number=round_number,
                board=row.board,
                points=points,
                winner=winner,
                source="table",
                seed=seeds["seed"],
                actor=DUPLICATE_ACTOR,
                table_id=str(row.table_id),
                hands=result["hands"],
                bot_substitute=result["bots"],
            )

        return decide

    def board_results(row: Any) -> Decide:
        def decide(state: CompetitionState) -> list[Any]:
            assert state.settings is not None
            events = dup.decide_board_results(
                state,
                round_number=round_number,
                table=row.board,
                table_id=str(row.table_id),
                rules=rules_from_spec(dict(state.settings.rules.snapshot)),
                boards=row.result.get("boards") or [],
                actor=DUPLICATE_ACTOR,
            )
            if not events:
                # Every board of this table was recorded as it finished everywhere
                # (leagues.services.board_reveal): an append needs an event.
                raise LeagueError("nothing_new", "Recorded already.")
            return events

        return decide

    def reveal(state: CompetitionState) -> list[Any]:
        events = dup.decide_reveal(
            state, round_number=round_number, round_seed=round_seed, actor=DUPLICATE_ACTOR
        )
        if not events:
            raise LeagueError("nothing_new", "Revealed already.")
        return events

    # The boards first and their reveal, then the match results (the last one closes the
    # round, and may finish the competition).
    commands: list[tuple[str | None, Decide]] = [
        (f"board-results:{row.table_id}", board_results(row)) for row in rows
    ]
    commands.append((f"boards-revealed:{round_number}", reveal))
    commands += [(f"table-result:{row.table_id}", match_result(row)) for row in rows]

    def after(state: CompetitionState, events: Sequence[Any]) -> None:
        finish_if_complete(state, DUPLICATE_ACTOR)
        if any(event.type == ev.BOARDS_REVEALED for event in events):
            # The tables' reveal follows this commit; if it is lost (a crash before it,
            # a refused command), the repair sweep issues it again.
            schedule_check(competition_id, round_number, timezone.now() + repair_grace())

    outcomes = execute_each(competition_id, commands, after=after)
    for (command_id, _), outcome in zip(commands, outcomes, strict=True):
        if isinstance(outcome, LeagueError) and outcome.code != "nothing_new":
            # e.g. the organiser entered that match's result first: theirs stands.
            logger.warning("%s: not recorded: %s", command_id, outcome.message)
    state = load(competition_id)
    found = state.duplicate.get(round_number)
    if found is not None and found.is_revealed:
        revealed = reveal_tables(state, round_number)
        if revealed and set(found.board_numbers) <= set(found.pars):
            schedule_check(competition_id, round_number, None)  # nothing left to repair


def reveal_tables(state: CompetitionState, round_number: int) -> bool:
    """Reveal the held-back seed of every table of a revealed round (idempotent); whether
    every one of them is revealed."""
    results = [reveal_table(t) for t in state.tables.get(round_number, {}).values()]
    return all(results)


def reveal_table(table_id: str) -> bool:
    """``RevealDeals`` to one table of a revealed round (command id
    ``reveal-boards:<table>``); whether its seed is revealed (now or before)."""
    try:
        table_commands.execute(
            RevealDeals(table_id), DIRECTOR, command_id=f"reveal-boards:{table_id}"
        )
    except CommandRejected as error:
        if error.code != "already_revealed":
            logger.warning("table %s: boards not revealed: %s", table_id, error.message)
            return False
    return True


def correct_board(
    user: Any,
    competition_id: object,
    round_number: int,
    board: int,
    request: dup.BoardCorrectionRequest,
) -> CompetitionState:
    """An organiser's correction of one table's result on one board
    (``BoardResultCorrected``, re-scored under the pinned preset). The standings,
    travellers and export read it from the stream; the table's match result and the skill
    rating are left as they are (docs/leagues.md, "Correcting a board")."""

    def decide(state: CompetitionState, organiser: int) -> list[Any]:
        assert state.settings is not None  # as_organiser refused a missing competition
        return dup.decide_board_correction(
            state,
            round_number=round_number,
            board=board,
            request=request,
            rules=rules_from_spec(dict(state.settings.rules.snapshot)),
            organiser=organiser,
            actor=actor_of(user),
        )

    return as_organiser(user, competition_id, decide)


# ---------------------------------------------------------------- par


def par_method(state: CompetitionState) -> ParMethod:
    """The par method of a round computed now: the pinned level and version
    (``PAR_METHOD``), the competition's number of plays. A par already recorded keeps
    the version it names (``bot_version``) and is recomputed and replayed by it."""
    settings = dup.require_duplicate(state)
    return ParMethod(level=PAR_METHOD.level, version=PAR_METHOD.version, plays=settings.par_plays)


def compute_round_par(competition_id: str, round_number: int) -> int:
    """Compute and record the par of every board of the round that has none; how many
    were recorded. Runs on the bot workers (``leagues.tasks.compute_par``)."""
    state = load(competition_id)
    found = dup.duplicate_round(state, round_number)
    round_seed = board_seed_of(competition_id, round_number)
    if round_seed is None:
        raise LeagueError("no_board_seed", f"Round {round_number}'s board seed is missing.")
    assert state.settings is not None
    rules = rules_from_spec(dict(state.settings.rules.snapshot))
    method = par_method(state)
    done = 0
    for board in dup.round_boards(state, round_seed):
        if board.number in found.pars:
            continue
        par = compute_par(board, rules, play_version, method)

        def decide(current: CompetitionState, par: Any = par) -> list[Any]:
            return dup.decide_par(
                current,
                round_number=round_number,
                par=par,
                bot_version=method.version,
                actor=PAR_ACTOR,
            )

        execute(competition_id, decide, command_id=f"par:{round_number}:{board.number}")
        done += 1
    return done


def verify_competition_par(competition_id: str) -> list[dict[str, Any]]:
    """Recompute every recorded par from the revealed board seeds: one line per board,
    ``ok`` and the problem in words. A board not revealed yet cannot be checked."""
    state = load(competition_id)
    dup.require_duplicate(state)
    assert state.settings is not None
    rules = rules_from_spec(dict(state.settings.rules.snapshot))
    lines = []
    for number, found in sorted(state.duplicate.items()):
        for board_number in found.board_numbers:
            published = found.pars.get(board_number)
            revealed = found.revealed.get(board_number)
            line: dict[str, Any] = {"round": number, "board": board_number}
            if published is None:
                lines.append({**line, "ok": False, "problem": "no par recorded"})
                continue
            if revealed is None:
                lines.append({**line, "ok": False, "problem": "the board is not revealed yet"})
                continue
            board = derive_board(str(revealed["seed"]), board_number)
            version = found.par_versions.get(board_number, "")
            named = published.get("method", {}).get("version")
            if version != named:
                problem = f"the par names {named!r} but was recorded by {version!r}"
                lines.append({**line, "ok": False, "problem": problem})
                continue
            check = verify_par(board, rules, play_version, published)
            lines.append({**line, "ok": check.ok, "problem": check.problem})
    return lines


def replay_par_play(
    competition_id: str, round_number: int, board: int, index: int
) -> dict[str, Any]:
    """Par play ``index`` (from 1) of a revealed board, played again here from the board's
    revealed seed and the play's recorded seed by the recorded bot version (Hard without
    its wall-clock guard: the same moves on any machine), and checked against the
    recorded score before it is shown (an earlier version than par pins now, e.g.
    ``hard-2``, replays as long as the bots keep it). Nothing is stored: re-playing is
    cheaper and as exact as a recording, and needs no new event. The answer is a replay's shape (the
    export's record hand and the replay's result) so the replay stepper draws it.

    Refused: a board not yet revealed (409 ``board_open``), no par or no such play (404
    ``unknown_par``), a bot version this code no longer plays (409 ``par_version_gone``),
    a play that does not give its recorded score (409 ``par_mismatch``)."""
    state = load(competition_id)
    found = dup.shown_board(state, round_number, board, what="its par plays are shown")
    published = found.pars.get(board)
    plays = [] if published is None else published["plays"]
    if not 1 <= index <= len(plays):
        raise LeagueError("unknown_par", f"Board {board} has no par play {index}.")
    recorded_version = found.par_versions.get(board, "")
    if exact_strategy_of_version(recorded_version) is None:
        raise LeagueError(
            "par_version_gone",
            f"This par was played by {recorded_version!r}, which this server no longer "
            "keeps, so it cannot replay it exactly.",
        )
    level = recorded_version.rsplit("-", 1)[0]
    assert state.settings is not None
    rules = rules_from_spec(dict(state.settings.rules.snapshot))
    revealed = derive_board(str(found.revealed[board]["seed"]), board)
    recorded = plays[index - 1]
    played = play_version(
        rules, revealed.hands, revealed.dealer, recorded_version, int(recorded["seed"])
    )
    score = score_board(rules, played.bids, played.blind, played.tricks_won)
    if (score.north_south.points, score.east_west.points) != (
        recorded["north_south"],
        recorded["east_west"],
    ):
        raise LeagueError("par_mismatch", f"Par play {index} did not give its recorded score.")
    answer = par_play_record(played, score, board, index, recorded_version)
    # The replay viewer's shape (GET /api/tables/<id>/replay), scored as the one hand of a
    # game by the same replay the tables use; the board score is ``result`` above.
    snapshot = dict(state.settings.rules.snapshot)
    try:
        replayed = replay_document({"rules": snapshot, "hands": [answer["hand"]]}).as_dict()
    except RecordError as error:  # pragma: no cover - the engine played it
        raise LeagueError("par_mismatch", error.message) from None
    answer["replay"] = {
        "record": {
            "table": {
                "id": f"par-{round_number}-{board}-{index}",
                "preset": {"name": state.settings.rules.preset},
                "status": "finished",
            },
            "rules": snapshot,
            "hands": [answer["hand"]],
        },
        "hands": [{"number": 1, **hand} for hand in replayed["hands"]],
        "seats": [
            {
                "seat": seat,
                "kind": "bot",
                "level": level,
                "user_id": None,
                "username": None,
                "reserved": False,
                "controller": "bot",
                "bot_level": level,
            }
            for seat in SEAT_NAMES
        ],
        "hand_in_play": None,
        "totals": replayed["totals"],
        "winner": replayed["winner"],
    }
    return answer


def _bid_text(bid: int, blind: bool) -> int | str:
    if bid == 0:
        return "blind_nil" if blind else "nil"
    return bid


def par_play_record(
    played: Any, score: Any, board: int, index: int, version: str
) -> dict[str, Any]:
    """A played hand as a replay answer's hand: ``record.hands[0]`` and ``hands[0]``."""
    seats = list(SEAT_NAMES)
    passes = {seats[seat]: names_in(mask) for seat, mask in enumerate(played.passes) if mask > 0}
    sides = {}
    for side, team in (("north_south", score.north_south), ("east_west", score.east_west)):
        sides[side] = {**team.as_dict(), "hand_score": team.points, "total": team.points}
    return {
        "board": board,
        "play": index,
        "bot_version": version,
        "hand": {
            "dealer": seats[played.dealer],
            "deal": {seats[seat]: names_in(mask) for seat, mask in enumerate(played.dealt)},
            "bids": {
                seats[seat]: _bid_text(bid, played.blind[seat])
                for seat, bid in enumerate(played.bids)
            },
            "passes": passes,
            "plays": [card_name(card) for card in played.plays],
        },
        "result": {"trick_winners": [seats[s] for s in played.trick_winners], **sides},
    }
