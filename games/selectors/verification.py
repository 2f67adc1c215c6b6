"""The "verified" badge of a table: its stored history checked, by the server, on request.

The checks are the ones ``manage.py verify_events --table ID`` runs
(``eventstore.verification.stream_problems``: the hash chain, the stream's head row, then
every registered verifier, here ``games.services.deal_verification.check_deals``), read
straight from the stored events (never from the cached fold, which a tampered stream may
not even produce). ``docs/tables.md`` ("Verifying a game by hand") shows how anyone can
redo them with the export and a few lines of code.

Until the game ends its deal seed is secret, so the deal check is *pending* (not passed)
and the badge says "not yet verifiable"; and because a problem's sentence (other than the
chain's, which names versions and hashes only) may name a card of the hand in play, its
text is withheld while the seed is secret (the check and the event version are given).
"""

from __future__ import annotations

from typing import Any

from eventstore.reading import read_stream
from eventstore.records import StoredEvent
from eventstore.verification import Problem, stream_problems
from games.domain import events as ev
from games.domain.streams import table_stream_id
from games.engine.errors import IllegalMove
from games.selectors.visibility import visible_version
from games.services.errors import CommandRejected
from games.services.table_state import parse_table_id

# (name in the answer, the Problem.check labels it covers, what it means when it holds)
CHECKS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (
        "hash_chain",
        ("hash chain", "stream head"),
        "Every event's hash covers its content and the previous event's hash, "
        "and the stream's head is its last event.",
    ),
    (
        "moves",
        ("table fold",),
        "Every stored event folds through the rules engine: every move was legal.",
    ),
    (
        "deal_commitment",
        ("deal commitment",),
        "The revealed seed hashes to the commitment published before the first deal, "
        "and every hand's deck is shuffled_deck(seed, hand).",
    ),
)
PENDING_DEALS = (
    "The deal seed stays secret until the game ends; the deals are checked against "
    "the commitment then."
)
WITHHELD = (
    "A check failed; its details are withheld while the game is in play, because they "
    "could name a hidden card."
)


# Problems whose sentence names only versions and hashes, never a card.
CARDLESS = ("hash chain", "stream head")


def _problem_body(problem: Problem, secret: bool) -> dict[str, Any]:
    message = WITHHELD if secret and problem.check not in CARDLESS else problem.message
    return {"check": problem.check, "message": message, "version": problem.version}


def _shown_up_to(table_uuid: Any, viewer: Any) -> int | None:
    """The viewer's last version (a delayed spectator's is behind the table), or None (the
    whole stream) when the stream does not fold: a broken stream is what this reports on."""
    try:
        return visible_version(table_uuid, viewer)
    except CommandRejected as refusal:
        if refusal.status == 404:
            raise
        return None
    except (IllegalMove, KeyError, ValueError):
        return None


def table_verification(table_id: object, viewer: Any = None) -> dict[str, Any]:
    """``{"verified", "checks": [{name, status, detail}], "problem", "version", "head_hash"}``.

    ``status`` is ``passed``, ``failed`` or ``pending``; ``verified`` only when every
    check passed. ``problem`` is the first problem found (None when there is none).
    Raises CommandRejected 404 for a table with no events. A spectator of a table with a
    spectator delay has the stream verified up to its delayed version only
    (``games.selectors.visibility.visible_version``): the version and head hash say no more.
    """
    table_uuid = parse_table_id(table_id)
    stream_id = table_stream_id(table_uuid)
    events: list[StoredEvent] = read_stream(stream_id, limit=_shown_up_to(table_uuid, viewer))
    if not events:
        raise CommandRejected("no_such_table", f"There is no table {table_uuid}.", 404)
    seed_revealed = any(event.type == ev.DEAL_SEED_REVEALED for event in events)
    problems = list(stream_problems(stream_id, events))
    secret = not seed_revealed
    checks = []
    known: set[str] = set()
    for name, labels, holds in CHECKS:
        known.update(labels)
        found = [p for p in problems if p.check in labels]
        if found:
            detail = _problem_body(found[0], secret)["message"]
            checks.append({"name": name, "status": "failed", "detail": detail})
        elif name == "deal_commitment" and not seed_revealed:
            checks.append({"name": name, "status": "pending", "detail": PENDING_DEALS})
        else:
            checks.append({"name": name, "status": "passed", "detail": holds})
    for problem in problems:  # another app's verifier
        if problem.check not in known:
            known.add(problem.check)
            detail = _problem_body(problem, secret)["message"]
            checks.append({"name": problem.check, "status": "failed", "detail": detail})
    return {
        "verified": all(check["status"] == "passed" for check in checks),
        "checks": checks,
        "problem": _problem_body(problems[0], secret) if problems else None,
        "version": events[-1].version,
        "head_hash": events[-1].hash,
    }
