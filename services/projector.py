"""Process ``projector``: keeps every registered projection caught up with the event log.

``python -m services.projector [--poll SECONDS] [--once]``. Each round runs
``eventstore.subscriptions.catch_up`` for every registered projection, then sleeps until a
commit is announced on the Redis channel ``games.live.notices.commits_channel()`` (published
after every commit by ``games.live``) or until the poll interval passes, whichever comes
first. The poll is the fallback for a lost notification or a commit made by a process that
does not publish (e.g. a manual script); ``catch_up`` itself never skips an event, so
waking late only delays, never loses.

A round in which a projection appended events itself (the match results appending
``MatchResultRecorded``) is followed by another at once: what the projector appends is
caught up without waiting for its own notice to come back through Redis, or for the poll
when that notice is lost, and whichever projection it feeds (even one that ran earlier in
the round) sees it in the same wake-up.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

import django
from django.db import close_old_connections, connection

from eventstore.signals import events_committed
from eventstore.subscriptions import catch_up, registered_projections
from games.live.commit_subscription import commit_notices
from services.heap import settle_after_startup

logger = logging.getLogger("services.projector")

BASE_DIR = Path(__file__).resolve().parent.parent


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


class Projector:
    """The catch-up loop; ``stop()`` (or SIGTERM/SIGINT) ends it after the current round."""

    def __init__(self, poll_seconds: float) -> None:
        self.poll_seconds = poll_seconds
        self.stopping = False
        self.rounds = 0
        # Times the loop waited for a commit notice or the poll, and returned.
        self.wakeups = 0
        # Set by a commit made in this process during a round (a projection's append).
        self.appended = False

    def stop(self, signum: int | None = None, frame: FrameType | None = None) -> None:
        """Ask the loop to end after the current round."""
        self.stopping = True

    def on_events_committed(self, sender: object, **kwargs: Any) -> None:
        """Receiver of ``events_committed`` while the loop runs: this process committed
        events (a projection appended them), so the loop must not wait before the next
        round."""
        self.appended = True

    def catch_up_all(self) -> int:
        """One round: catch every registered projection up; returns events processed."""
        close_old_connections()
        processed = 0
        for projection in registered_projections():
            try:
                processed += catch_up(projection)
            except Exception:  # one broken projection must not starve the others
                logger.exception("projection %s failed; retrying next round", projection.name)
        self.rounds += 1
        self.beat()
        return processed

    def beat(self) -> None:
        """Touch the heartbeat file (a missing folder is created; errors are only logged)."""
        path = heartbeat_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
        except OSError as exc:
            logger.warning("cannot touch heartbeat %s: %s", path, exc)

    def wait_for_commit(self, notices: Any) -> None:
        """Return on a commit notice, at the poll interval, or soon after ``stop()``."""
        deadline = time.monotonic() + self.poll_seconds
        while not self.stopping:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or notices.wait(min(remaining, 0.5)):
                return

    def run(self, *, once: bool = False) -> None:
        """Catch up, then wait for a commit notice or the poll interval, until stopped;
        a round in which a projection appended events is followed by another at once."""
        uid = f"services.projector.{id(self)}"
        events_committed.connect(self.on_events_committed, weak=False, dispatch_uid=uid)
        notices = commit_notices()
        try:
            while not self.stopping:
                self.appended = False
                processed = self.catch_up_all()
                if processed:
                    logger.info("caught up %d event(s)", processed)
                if self.appended:
                    continue
                if once:
                    return
                self.wait_for_commit(notices)
                self.wakeups += 1
        finally:
            events_committed.disconnect(dispatch_uid=uid)
            notices.close()
            connection.close()


def main(argv: list[str] | None = None) -> None:
    """Run the projector until SIGTERM/SIGINT."""
    parser = argparse.ArgumentParser(prog="python -m services.projector", description=__doc__)
    parser.add_argument(
        "--poll",
        type=float,
        default=float(os.environ.get("SPADES_PROJECTOR_POLL", "1.0")),
        help="seconds between catch-ups when no commit is announced (default 1.0)",
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
    django.setup()
    settle_after_startup()
    projector = Projector(args.poll)
    signal.signal(signal.SIGTERM, projector.stop)
    signal.signal(signal.SIGINT, projector.stop)
    started = time.monotonic()
    logger.info("projector started (poll %.2fs)", args.poll)
    projector.run(once=args.once)
    logger.info(
        "projector stopped after %d round(s), %.0fs", projector.rounds, time.monotonic() - started
    )


if __name__ == "__main__":
    main()
