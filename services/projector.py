"""Process ``projector``: keeps every registered projection caught up with the event log.

``python -m services.projector [--poll SECONDS] [--once]``. The projections run in lanes
(``Projection.lane``): ``main`` (the score ledger) in the process's main thread, every
other lane (``leagues``: match results, standings, ratings) in a thread of its own with
its own database connection, so a table's result never waits behind another lane's
round. Each round of a lane runs ``eventstore.subscriptions.catch_up`` for each of its
projections, then sleeps until a commit is announced on the Redis channel
``games.live.notices.commits_channel()`` (published after every commit by ``games.live``)
that holds an event one of them reads (``Projection.wants``: the leagues lane ignores the
bids and cards of every bot move), or until the poll interval passes, whichever comes
first. The poll is a slow safety interval (``--poll``, default 60 s: an idle platform
costs the projector a round a minute), for a lost notification or a commit made by a
process that does not publish (e.g. a manual script); while Redis cannot be subscribed to,
a lane polls every ``FALLBACK_POLL_SECONDS`` instead, and a subscription made again after
a loss is followed by a round at once (notices may have been missed meanwhile).
``catch_up`` itself never skips an event, so waking late only delays, never loses.

A round in which a projection appended events itself (the match results appending
``MatchResultRecorded``) is followed by another round of that lane at once: what it
appends is caught up without waiting for its own notice to come back through Redis, or
for the poll when that notice is lost, and whichever projection of the lane it feeds
(even one that ran earlier in the round) sees it in the same wake-up. The heartbeat is
touched after every round of the main lane, and every ``HEARTBEAT_SECONDS`` while it
waits, while every other lane's thread is alive (a wait is no database work).

At DEBUG every round is logged with each projection's wall time and events
(``benchmarks.leagues --trace`` reads them); at stop, per projection totals.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any

import django
from django.db import close_old_connections, connection

from eventstore.signals import events_committed
from eventstore.subscriptions import Projection, catch_up, registered_projections
from games.live.commit_subscription import commit_notices
from services.heap import settle_after_startup
from services.process_metrics import serve_process_metrics
from telemetry.logs import begin, set_process_name
from telemetry.metrics import record_projection

logger = logging.getLogger("services.projector")

BASE_DIR = Path(__file__).resolve().parent.parent
MAIN_LANE = "main"
#: The safety interval's default: a round at least this often without a notice.
DEFAULT_POLL_SECONDS = 60.0
#: A lane's poll while Redis cannot be subscribed to (no notice can wake it).
FALLBACK_POLL_SECONDS = 1.0
#: How often the main lane touches the heartbeat while it waits.
HEARTBEAT_SECONDS = 5.0


def heartbeat_path() -> Path:
    """The file touched after every round (docker-compose's health check reads its age)."""
    default = BASE_DIR / ".run" / "projector.heartbeat"
    return Path(os.environ.get("SPADES_PROJECTOR_HEARTBEAT", str(default)))


def heartbeat_age(path: Path) -> float | None:
    """Seconds since the last round, or None when the projector never ran."""
    try:
        return time.time() - path.stat().st_mtime
    except FileNotFoundError:
        return None


class Lane:
    """One catch-up loop over the projections of one ``Projection.lane``, with its own
    thread, database connection and commit-notice subscription; it wakes only for a
    notice of a commit some projection of it reads (``Projection.wants``)."""

    def __init__(self, projector: Projector, name: str) -> None:
        self.projector = projector
        self.name = name
        self.rounds = 0
        # Times the loop waited for a commit notice or the poll, and returned.
        self.wakeups = 0
        # Set by a commit made in this lane's thread during a round (a projection's append).
        self.appended = False

    def projections(self) -> list[Projection]:
        chosen = [p for p in registered_projections() if p.lane == self.name]
        return sorted(chosen, key=lambda p: (p.order, p.name))

    def catch_up_all(self) -> int:
        """One round: catch every projection of the lane up; returns events processed."""
        begin()  # the round's log lines share a request id
        close_old_connections()
        processed = 0
        spent: list[str] = []
        round_started = time.time()
        for projection in self.projections():
            started = time.perf_counter()
            handled = 0
            try:
                handled = catch_up(projection)
            except Exception:  # one broken projection must not starve the others
                logger.exception("projection %s failed; retrying next round", projection.name)
            seconds = time.perf_counter() - started
            processed += handled
            self.projector.record(projection.name, handled, seconds)
            spent.append(f"{projection.name}={seconds * 1000:.1f}ms/{handled}")
        self.rounds += 1
        logger.debug(
            "lane %s round %d start=%.3f %s", self.name, self.rounds, round_started, " ".join(spent)
        )
        return processed

    def wanted(self, notices: list[dict[str, Any]]) -> bool:
        """Whether one of these commits holds an event a projection of the lane reads."""
        projections = self.projections()
        for notice in notices:
            stream_id = str(notice.get("stream_id", ""))
            types = notice.get("types") or [""]
            if any(p.wants(stream_id, str(t)) for p in projections for t in types):
                return True
        return False

    def wait_for_commit(self, notices: Any, *, main: bool = False) -> None:
        """Return on a wanted commit notice, at the poll interval (the fallback pace while
        not subscribed), after a subscription made again, or soon after stop. The main
        lane keeps the heartbeat meanwhile."""
        started = time.monotonic()
        beaten = started
        while not self.projector.stopping:
            now = time.monotonic()
            poll = self.projector.poll_seconds
            if not notices.subscribed:
                poll = min(poll, FALLBACK_POLL_SECONDS)
            remaining = started + poll - now
            if remaining <= 0 or notices.missed():
                return
            if main and now - beaten >= HEARTBEAT_SECONDS:
                self.projector.beat_if_alive()
                beaten = now
            if self.wanted(notices.wait(min(remaining, 0.5))):
                return

    def run(self, *, once: bool = False, main: bool = False) -> None:
        """Catch up, then wait for a commit notice or the poll interval, until stopped;
        a round in which a projection appended events is followed by another at once.
        The main lane also keeps the heartbeat (while every other lane's thread lives)."""
        notices = commit_notices()
        try:
            while not self.projector.stopping:
                self.appended = False
                processed = self.catch_up_all()
                if main:
                    self.projector.beat_if_alive()
                if processed:
                    logger.info("lane %s caught up %d event(s)", self.name, processed)
                if self.appended:
                    continue
                if once:
                    return
                self.wait_for_commit(notices, main=main)
                self.wakeups += 1
        finally:
            notices.close()
            connection.close()


class Projector:
    """The catch-up loops, one a lane (``Projection.lane``; the ``main`` lane in the
    calling thread, every other in a thread of its own); ``stop()`` (or SIGTERM/SIGINT)
    ends them after their current rounds."""

    def __init__(self, poll_seconds: float) -> None:
        self.poll_seconds = poll_seconds
        self.stopping = False
        self.lanes: dict[str, Lane] = {}
        self.threads: list[threading.Thread] = []
        self._lane_of_thread: dict[int, Lane] = {}
        # Per projection: [catch-ups, events, seconds, slowest seconds] (logged at stop).
        self.timings: dict[str, list[float]] = {}
        self._timings_lock = threading.Lock()

    @property
    def rounds(self) -> int:
        return sum(lane.rounds for lane in self.lanes.values())

    @property
    def wakeups(self) -> int:
        return sum(lane.wakeups for lane in self.lanes.values())

    def stop(self, signum: int | None = None, frame: FrameType | None = None) -> None:
        """Ask the loops to end after their current rounds."""
        self.stopping = True

    def on_events_committed(self, sender: object, **kwargs: Any) -> None:
        """Receiver of ``events_committed`` while the loops run: a lane's thread committed
        events (a projection appended them), so that lane must not wait before its next
        round."""
        lane = self._lane_of_thread.get(threading.get_ident())
        if lane is not None:
            lane.appended = True

    def record(self, name: str, events: int, seconds: float) -> None:
        record_projection(name, events, seconds)
        with self._timings_lock:
            row = self.timings.setdefault(name, [0, 0, 0.0, 0.0])
            row[0] += 1
            row[1] += events
            row[2] += seconds
            row[3] = max(row[3], seconds)

    def timing_summary(self) -> str:
        """Per projection: catch-ups, events, total and slowest wall time (the log at stop
        says where the time goes)."""
        with self._timings_lock:
            rows = sorted(self.timings.items())
        return "; ".join(
            f"{name}: {int(calls)} catch-ups, {int(events)} events, {total:.1f}s, "
            f"slowest {slowest * 1000:.0f}ms"
            for name, (calls, events, total, slowest) in rows
        )

    def catch_up_all(self) -> int:
        """One round of every lane, in this thread; returns events processed."""
        return sum(self._lane(name).catch_up_all() for name in self.lane_names())

    def lane_names(self) -> list[str]:
        names = {p.lane for p in registered_projections()} | {MAIN_LANE}
        return [MAIN_LANE, *sorted(names - {MAIN_LANE})]

    def _lane(self, name: str) -> Lane:
        if name not in self.lanes:
            self.lanes[name] = Lane(self, name)
        return self.lanes[name]

    def beat_if_alive(self) -> None:
        """The heartbeat, unless another lane's thread has died (its projections would
        stall while the file stayed fresh)."""
        if all(thread.is_alive() for thread in self.threads):
            self.beat()

    def beat(self) -> None:
        """Touch the heartbeat file (a missing folder is created; errors are only logged)."""
        path = heartbeat_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
        except OSError as exc:
            logger.warning("cannot touch heartbeat %s: %s", path, exc)

    def _run_lane(self, lane: Lane, *, once: bool, main: bool) -> None:
        self._lane_of_thread[threading.get_ident()] = lane
        try:
            lane.run(once=once, main=main)
        finally:
            self._lane_of_thread.pop(threading.get_ident(), None)

    def run(self, *, once: bool = False) -> None:
        """Run every lane until stopped (``once``: one round each, in this thread)."""
        uid = f"services.projector.{id(self)}"
        events_committed.connect(self.on_events_committed, weak=False, dispatch_uid=uid)
        try:
            if once:
                for name in self.lane_names():
                    self._run_lane(self._lane(name), once=True, main=name == MAIN_LANE)
                return
            for name in self.lane_names()[1:]:
                thread = threading.Thread(
                    target=self._run_lane,
                    args=(self._lane(name),),
                    kwargs={"once": False, "main": False},
                    name=f"projector-{name}",
                    daemon=True,
                )
                self.threads.append(thread)
                thread.start()
            try:
                self._run_lane(self._lane(MAIN_LANE), once=False, main=True)
            finally:
                self.stopping = True
                for thread in self.threads:
                    thread.join(timeout=self.poll_seconds + 5)
        finally:
            events_committed.disconnect(dispatch_uid=uid)


def main(argv: list[str] | None = None) -> None:
    """Run the projector until SIGTERM/SIGINT."""
    parser = argparse.ArgumentParser(prog="python -m services.projector", description=__doc__)
    parser.add_argument(
        "--poll",
        type=float,
        default=float(os.environ.get("SPADES_PROJECTOR_POLL", str(DEFAULT_POLL_SECONDS))),
        help="the safety interval: seconds between catch-ups when no commit is announced "
        f"(default {DEFAULT_POLL_SECONDS:g})",
    )
    parser.add_argument("--once", action="store_true", help="catch up once and exit")
    parser.add_argument(
        "--check-heartbeat",
        type=float,
        metavar="SECONDS",
        help="health check: exit 0 if a round finished within SECONDS, else 1",
    )
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.poll <= 0:
        parser.error("--poll must be positive")
    if args.check_heartbeat is not None:
        age = heartbeat_age(heartbeat_path())
        healthy = age is not None and age <= args.check_heartbeat
        print(f"projector heartbeat age: {'never' if age is None else f'{age:.1f}s'}")
        raise SystemExit(0 if healthy else 1)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "services.settings")
    set_process_name("projector")
    django.setup()
    serve_process_metrics("projector")
    settle_after_startup()
    projector = Projector(args.poll)
    signal.signal(signal.SIGTERM, projector.stop)
    signal.signal(signal.SIGINT, projector.stop)
    started = time.monotonic()
    logger.info("projector started (poll %.2fs)", args.poll)
    projector.run(once=args.once)
    logger.info(
        "projector stopped after %d round(s), %.0fs, %d wake-up(s); %s",
        projector.rounds,
        time.monotonic() - started,
        projector.wakeups,
        projector.timing_summary(),
    )


if __name__ == "__main__":
    main()
