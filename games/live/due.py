"""When each of the scheduler's sweeps is next due, kept in Redis, so that a sweep queries
the database only when something is due.

Celery beat still sends the sweeps often (the turn timers every second, the bot watchdog
every 3 s, the round schedule every 5 s: ``services/celery.py``), but each one
(:func:`run_when_due`) first reads its next due time from Redis and returns at once,
without touching the database, while that time is in the future. When it is due (or
unknown) the sweep runs, then asks the database for the next due time (its
``next_due``: e.g. the earliest turn deadline still running) and stores it.

Commits bring a sweep forward: after every commit, each rule registered with
:func:`register_rule` says whether the commit may have made its sweep due earlier, and
when (a human's turn with a timer: the commit's time plus the timer; a bot to move: plus
``BOT_OVERDUE_SECONDS``; a competition's commit: at once). The lowering is a ``ZADD XX LT``
queued for the commit notices' publisher thread (``games.live.publisher``: no round trip
for the committing request), so it only ever moves a known due time earlier.

Why this never misses a deadline:

- a sweep first marks its due time "being computed" (far in the future, so a commit's
  ``LT`` still lowers it), then reads the database, then stores what it read with ``LT``:
  a commit made while the sweep ran either is in what it read or lowered the mark after
  it was set;
- no key (never computed, expired, Redis flushed) means "unknown": the sweep runs;
- the key expires after ``settings.SPADES_SWEEP_SAFETY_SECONDS`` (the slow safety sweep:
  a lowering lost with a batch the publisher had to drop is made good then), and Redis
  that cannot be read means the sweep runs, as before.

So an idle platform pays each sweep two small queries per safety interval, not one a
second.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import redis
from django.conf import settings

from games.live.commit_subscription import redis_client
from games.live.publisher import publisher

logger = logging.getLogger(__name__)

KEY_PREFIX = "spades:due:"
MEMBER = "next"
#: A sweep's due time while it computes the next one, or when nothing is pending: far
#: enough that nothing is due, finite so that ``ZADD LT`` compares.
NOTHING_DUE = 2.0**40

#: ``rule(stream_id, events, context)``: the time (``time.time()`` seconds) at which the
#: commit may have made the sweep due, or None when it cannot have.
Rule = Callable[[str, Sequence[Any], dict[str, Any]], float | None]

_rules: dict[str, list[Rule]] = {}
_rules_lock = threading.Lock()


def due_key(sweep: str) -> str:
    """The Redis key of a sweep's due time (named after the PostgreSQL database, as the
    commit notices' channel: test runs and benchmarks on one Redis never mix)."""
    return f"{KEY_PREFIX}{settings.DATABASES['default']['NAME']}:{sweep}"


def register_rule(sweep: str, rule: Rule) -> None:
    """After every commit, ``rule`` may bring ``sweep`` forward (apps register theirs in
    ``AppConfig.ready``; registering the same function twice keeps one)."""
    with _rules_lock:
        rules = _rules.setdefault(sweep, [])
        if rule not in rules:
            rules.append(rule)


def on_events_committed(
    sender: object,
    stream_id: str,
    events: Sequence[Any],
    context: dict[str, Any] | None = None,
    **kwargs: Any,
) -> None:
    """Receiver of ``events_committed``: queue the lowering of every sweep a rule says the
    commit brought forward. Never raises into the committer (its command succeeded)."""
    if not events:
        return
    commands = []
    with _rules_lock:
        rules = [(sweep, rule) for sweep, listed in _rules.items() for rule in listed]
    for sweep, rule in rules:
        try:
            at = rule(stream_id, events, context or {})
        except Exception:
            logger.exception("due-time rule of %s failed; the sweep runs now", sweep)
            at = time.time()
        if at is not None:
            commands.append(("ZADD", due_key(sweep), "XX", "LT", at, MEMBER))
    if commands:
        publisher().send_later(commands)


def next_due_at(sweep: str) -> float | None:
    """The sweep's stored due time, or None when unknown (or Redis cannot say)."""
    try:
        score = redis_client().zscore(due_key(sweep), MEMBER)
    except redis.RedisError:
        return None
    return None if score is None else float(score)


def _store(sweep: str, at: float, *, lower_only: bool) -> None:
    try:
        pipe = redis_client().pipeline(transaction=True)
        key = due_key(sweep)
        pipe.zadd(key, {MEMBER: at}, lt=lower_only)
        pipe.expire(key, max(1, int(settings.SPADES_SWEEP_SAFETY_SECONDS)))
        pipe.execute()
    except redis.RedisError:
        logger.warning("cannot store the due time of %s; it runs at every beat", sweep)


def run_when_due(
    sweep: str,
    run: Callable[[], int],
    next_due: Callable[[], datetime | None],
    now: float | None = None,
) -> int:
    """Run ``run`` (the sweep; returns how many things it did) when ``sweep`` is due or its
    due time is unknown, then store ``next_due()`` (None: nothing pending). Returns 0
    without touching the database while it is not due."""
    moment = time.time() if now is None else now
    stored = next_due_at(sweep)
    if stored is not None and stored > moment:
        return 0
    # Being computed: a commit from now on lowers this mark, and the LT below keeps it.
    _store(sweep, NOTHING_DUE, lower_only=False)
    try:
        done = run()
        upcoming = next_due()
    except BaseException:
        forget(sweep)  # unknown again: the next beat runs it (the mark would hide it)
        raise
    _store(sweep, NOTHING_DUE if upcoming is None else upcoming.timestamp(), lower_only=True)
    return done


def forget(sweep: str | None = None) -> None:
    """Drop stored due times (one sweep's, or every registered one's): their next sweep
    queries (tests; an operator who changed the data by hand)."""
    names = [sweep] if sweep is not None else list(_rules)
    try:
        if names:
            redis_client().delete(*(due_key(name) for name in names))
    except redis.RedisError:
        logger.warning("cannot forget the due times of %s", names)
