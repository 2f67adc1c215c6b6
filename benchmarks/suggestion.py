"""The bid suggestion's time: computing it, and answering ``GET /api/tables/<id>/suggestion``.

Run ``python -m benchmarks.suggestion [--views N] [--tables T] [--rounds R] [--db-name NAME]
[--keep-db]``. Prints one JSON object.

The page asks for the suggestion as soon as a view tells it of the player's bidding turn
(``web/static/web/js/play/table.js``), not once the moves before it have been laid out, so what
stands between the turn on screen and the suggestion beside it is this request. Figures:

- ``compute_ms``: ``bots.suggestion.suggest_bid`` alone (Normal's count, the reason in
  words, the marked cards) over ``--views`` random bidding views (p50, p95, max);
- ``endpoint_warm_ms``: the endpoint through Django's whole stack (middleware, token
  authentication, the table's folded state from the process's cache) on a scratch
  database, ``--rounds`` requests to each of ``--tables`` tables where it is the caller's
  turn to bid;
- ``endpoint_cold_ms``: the same with the state cache emptied before each request, so the
  table is folded from the event store (the first request after a restart).

The target is the suggestion on screen within 300 ms of the bidding turn; the load average
is printed with the figures (other programs on the machine slow every figure alike).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from typing import Any

from benchmarks.bots import percentile
from benchmarks.store import log, scratch_database, setup_django
from bots.suggestion import suggest_bid
from games.engine.bidding import place_bid
from games.engine.deal import deal_deck, shuffled_deck
from games.engine.hand import new_hand
from games.engine.rules import PRESETS
from games.engine.view import seat_view

BOTS = {seat: {"kind": "bot", "level": "normal"} for seat in ("north", "east", "west")}


def summary(values: list[float]) -> dict[str, float]:
    """p50, p95 and max in ms, rounded."""
    return {
        "p50": round(percentile(values, 0.5), 3),
        "p95": round(percentile(values, 0.95), 3),
        "max": round(max(values), 3) if values else 0.0,
    }


def compute_times(views: int) -> list[float]:
    """ms per ``suggest_bid`` over random bidding views (0-3 bids before, some bags)."""
    rng = random.Random(1)
    times = []
    rules = PRESETS["standard"]
    for number in range(views):
        dealer = number & 3
        state = new_hand(rules, deal_deck(shuffled_deck("suggestion", number), dealer), dealer)
        for _ in range(rng.randint(0, 3)):
            place_bid(state, state.turn, rng.randint(0, 6))
        view = seat_view(state, state.turn, (0, 0), (rng.randint(0, 9), rng.randint(0, 9)))
        started = time.perf_counter()
        suggest_bid(view)
        times.append((time.perf_counter() - started) * 1000.0)
    return times


def endpoint_times(tables: int, rounds: int) -> tuple[list[float], list[float]]:
    """(warm, cold) ms per request of the suggestion endpoint."""
    # Imported here: Django is set up by main() (setup_django, on its scratch database)
    # before this runs; at the module's top these would load models too early.
    from django.contrib.auth import get_user_model
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from games.services import table_state
    from games.services.table_commands import StartGame, TakeSeat, create_table, execute

    users = get_user_model()
    targets = []
    for k in range(tables):
        user = users.objects.create_user(username=f"bench-suggestion-{k}", password=None)
        table_id = str(create_table(actor=user, rules="standard", seats=BOTS).table_id)
        execute(TakeSeat(table_id, "south"), user)
        execute(StartGame(table_id, first_dealer="east"), user)  # south bids first
        token, _ = Token.objects.get_or_create(user=user)
        targets.append((table_id, f"Token {token.key}"))
    client = Client(HTTP_HOST="localhost")
    warm: list[float] = []
    cold: list[float] = []
    for round_number in range(rounds):
        for table_id, auth in targets:
            for times, forget in ((cold, True), (warm, False)):
                if forget:
                    table_state.forget()
                started = time.perf_counter()
                response = client.get(f"/api/tables/{table_id}/suggestion", HTTP_AUTHORIZATION=auth)
                elapsed = (time.perf_counter() - started) * 1000.0
                if response.status_code != 200:
                    raise RuntimeError(f"{response.status_code}: {response.content[:200]!r}")
                if round_number:  # the first round warms Django's own caches
                    times.append(elapsed)
    return warm, cold


def main(argv: list[str] | None = None) -> None:
    """Parse the options, measure, print one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--views", type=int, default=5000, help="views for compute_ms")
    parser.add_argument("--tables", type=int, default=20, help="tables for the endpoint")
    parser.add_argument("--rounds", type=int, default=6, help="requests per table (first: warm-up)")
    parser.add_argument("--db-name", default="spades_bench_suggestion")
    parser.add_argument("--keep-db", action="store_true", help="keep the scratch database")
    args = parser.parse_args(argv)
    for name in ("views", "tables"):
        if not 1 <= getattr(args, name) <= 100_000:
            parser.error(f"--{name} must be between 1 and 100000")
    if not 2 <= args.rounds <= 1000:
        parser.error("--rounds must be between 2 and 1000")
    load_before = os.getloadavg()[0]
    compute = compute_times(args.views)
    with scratch_database(args.db_name, args.keep_db) as (owner_url, app_url):
        setup_django(owner_url, app_url)
        log("measuring the endpoint")
        warm, cold = endpoint_times(args.tables, args.rounds)
    result: dict[str, Any] = {
        "benchmark": "suggestion",
        "views": args.views,
        "tables": args.tables,
        "requests_each": len(warm),
        "compute_ms": summary(compute),
        "endpoint_warm_ms": summary(warm),
        "endpoint_cold_ms": summary(cold),
        "target_ms": 300,
        "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "python": platform.python_version(),
    }
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
