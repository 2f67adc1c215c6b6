"""What an operator sees of a bot game played by the real processes (web, worker, projector,
scheduler) with ``LOG_FORMAT=json``: every process's metrics moved, and every line each
process wrote is one JSON object, with the request, table, command and competition ids
where they apply."""

from __future__ import annotations

import http.client
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import connect

from eventstore.subscriptions import registered_projections
from games.services import table_commands
from games.services.table_commands import StartGame, execute
from services.testing.processes import ManagedProcess, free_port, log_contains
from tests.integration.live.conftest import (
    SHORT_RULES,
    Processes,
    create_table,
    new_user,
    token_for,
    wait_for_status,
    wait_until,
)

TOKEN = "operations-test-token-0123"
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def fetch(url: str, token: str | None = None, source: str = "127.0.0.1") -> tuple[int, str]:
    """GET ``url`` from the address ``source`` (127.0.0.2 is on loopback, yet no allowed
    scraper); the status and the body."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(
        parts.hostname or "127.0.0.1", parts.port, timeout=10, source_address=(source, 0)
    )
    try:
        connection.request(
            "GET", parts.path, headers={"Authorization": f"Bearer {token}"} if token else {}
        )
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def scrape(url: str, token: str | None = None, source: str = "127.0.0.1") -> Samples:
    """Every sample at ``url`` as ``{(name, labels): value}``."""
    status, text = fetch(url, token, source)
    assert status == 200, text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(
        value for (sample, have), value in samples.items() if sample == name and wanted <= set(have)
    )


def json_lines(process: ManagedProcess) -> list[dict[str, Any]]:
    """Every line the process wrote, each of which must be one JSON object."""
    lines = []
    for number, line in enumerate(process.log_text().splitlines(), 1):
        try:
            entry = orjson.loads(line)
        except orjson.JSONDecodeError:
            raise AssertionError(f"{process.name} line {number} is not JSON: {line!r}") from None
        assert isinstance(entry, dict), line
        assert {"time", "level", "logger", "message", "process"} <= set(entry), line
        lines.append(entry)
    return lines


@dataclass
class Game:
    """One bot game watched on a socket, and what every process showed of it."""

    table_id: str
    lobby_table_id: str
    competition_id: str
    user_id: int
    processes: dict[str, ManagedProcess]
    ports: dict[str, int]
    during: Samples
    after: dict[str, Samples] = field(default_factory=dict)
    socket_messages: int = 0


def watch(url: str, origin: str, stop: threading.Event, seen: list[Any]) -> None:
    with connect(url, origin=origin, open_timeout=10) as socket:
        while not stop.is_set():
            try:
                seen.append(orjson.loads(socket.recv(timeout=0.5)))
            except TimeoutError:
                continue


@pytest.fixture(scope="module")
def game(live_env: dict[str, str], live_logs: Path) -> Iterator[Game]:
    ports = {name: free_port() for name in ("worker", "projector", "scheduler")}
    log_dir = live_logs / f"operations-{uuid.uuid4().hex[:8]}"
    log_dir.mkdir()
    env = {
        **live_env,
        "LOG_FORMAT": "json",
        "SPADES_LOG_EACH_TASK": "1",  # Celery's per-task lines, inside each task's context
        "METRICS_TOKEN": TOKEN,
        "METRICS_ALLOWED_ADDRESSES": "127.0.0.1",
        "SPADES_PROJECTOR_HEARTBEAT": str(log_dir / "projector.heartbeat"),
        **{f"SPADES_{name.upper()}_METRICS_PORT": str(port) for name, port in ports.items()},
    }
    processes = Processes(env, log_dir)
    try:
        web, port = processes.web()
        worker = processes.worker()
        projector = ManagedProcess(
            "projector",
            "services.projector",
            ["--poll", "0.5"],
            env,
            log_dir,
            log_contains("projector started"),
        )
        processes.started.append(projector)
        projector.start(timeout=60)
        scheduler = processes.scheduler()
        base = f"http://127.0.0.1:{port}"

        user = new_user("ops")
        lobby_table_id = str(
            table_commands.create_table(
                actor=user,
                rules=SHORT_RULES,
                seats={seat: {"kind": "human"} for seat in ("north", "east", "south", "west")},
            ).table_id
        )
        table_id = create_table(user, start=False)
        stop, seen = threading.Event(), []
        watcher = threading.Thread(
            target=watch,
            args=(f"ws://127.0.0.1:{port}/ws/tables/{table_id}/", base, stop, seen),
            daemon=True,
        )
        watcher.start()
        wait_until(lambda: seen, 15, "the watcher's first message")
        during = scrape(f"{base}/metrics")
        execute(StartGame(table_id, first_dealer="north"), user)
        wait_for_status(table_id, "finished", 180, processes)
        wait_until(
            lambda: any(message.get("table", {}).get("status") == "finished" for message in seen),
            30,
            "the watcher to see the end",
        )
        stop.set()
        watcher.join(10)

        # An API command with an idempotency key, and a competition's read.
        take = urllib.request.Request(
            f"{base}/api/tables/{lobby_table_id}/seats/north/take",
            data=b"{}",
            method="POST",
            headers={
                "Authorization": f"Token {token_for(user)}",
                "Content-Type": "application/json",
                "Idempotency-Key": "ops-1",
            },
        )
        with urllib.request.urlopen(take, timeout=10) as response:
            assert response.status == 200
        competition_id = str(uuid.uuid4())
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(
                f"{base}/api/competitions/{competition_id}/standings", timeout=10
            )

        played = Game(
            table_id=table_id,
            lobby_table_id=lobby_table_id,
            competition_id=competition_id,
            user_id=user.pk,
            processes={
                "web": web,
                "worker": worker,
                "projector": projector,
                "scheduler": scheduler,
            },
            ports={"web": port, **ports},
            during=during,
            socket_messages=len(seen),
        )
        played.after["web"] = scrape(f"{base}/metrics")
        for name, metrics_port in ports.items():
            played.after[name] = scrape(f"http://127.0.0.1:{metrics_port}/metrics")
        yield played
    finally:
        processes.stop_all()


def test_a_bot_game_moves_every_processs_metrics(game: Game) -> None:
    worker, web = game.after["worker"], game.after["web"]

    # The worker played: its prefork child's counts reach the worker's port.
    assert total(worker, "spades_events_appended_total", type="CardPlayed") >= 52
    assert total(worker, "spades_bot_decision_seconds_count", level="easy") >= 52
    assert (
        total(worker, "spades_command_duration_seconds_count", command="play_card", outcome="ok")
        >= 52
    )
    assert total(worker, "spades_bot_turns_total", outcome="played") >= 52
    assert (
        total(
            worker,
            "spades_task_duration_seconds_count",
            task="bots.tasks.play_bot_turn",
            state="SUCCESS",
        )
        >= 52
    )
    # The web sent the watcher each commit, and counted its socket while it was open.
    assert total(web, "spades_commit_to_socket_seconds_count") >= 1
    assert game.socket_messages >= 2
    assert total(game.during, "spades_open_sockets", kind="table") == 1
    assert total(web, "spades_open_sockets", kind="table") == 0
    assert (
        total(web, "spades_http_request_duration_seconds_count", method="POST", status="200") >= 1
    )
    assert total(web, "spades_db_pool_requests_total") >= 1
    # Read from the database and the broker at the scrape.
    lagging = {
        dict(labels)["projection"] for name, labels in web if name == "spades_projection_lag_events"
    }
    assert lagging == {projection.name for projection in registered_projections()}
    assert ("spades_celery_queue_depth", (("queue", "bots"),)) in web
    assert any(name == "spades_broken_streams" for name, _ in web)
    # The projector caught the game up; the scheduler holds the lock and sent its jobs.
    assert total(game.after["projector"], "spades_projection_events_total") > 0
    scheduler = game.after["scheduler"]
    assert total(scheduler, "spades_beat_active") == 1
    assert (
        total(scheduler, "spades_beat_sent_total", task="games.live.tasks.expire_turn_timers") >= 1
    )


def test_a_process_port_serves_only_allowed_addresses_or_the_token(game: Game) -> None:
    for name in ("web", "worker", "projector", "scheduler"):
        url = f"http://127.0.0.1:{game.ports[name]}/metrics"
        status, body = fetch(url, source="127.0.0.2")
        assert status == 403 and "spades_" not in body, name
        assert fetch(url, token="wrong-token-0123456789", source="127.0.0.2")[0] == 403
        assert any(name.startswith("spades_") for name, _ in scrape(url, TOKEN, "127.0.0.2"))


def test_every_line_of_every_process_is_json_with_the_ids_that_apply(game: Game) -> None:
    lines = {name: json_lines(process) for name, process in game.processes.items()}

    web = lines["web"]
    command = next(line for line in web if f"/api/tables/{game.lobby_table_id}/" in line["message"])
    assert command["logger"] == "spades.access"
    assert command["table_id"] == game.lobby_table_id
    assert command["command_id"] == f"user-{game.user_id}:ops-1"
    assert len(command["request_id"]) == 16
    competition = next(line for line in web if "/api/competitions/" in line["message"])
    assert competition["competition_id"] == game.competition_id
    opened = next(
        line for line in web if line["message"].endswith(f"/ws/tables/{game.table_id}/ opened")
    )
    assert opened["table_id"] == game.table_id and opened["request_id"]

    moves = [
        line
        for line in lines["worker"]
        if line.get("table_id") == game.table_id and "play_bot_turn" in line["message"]
    ]
    assert moves, "no worker line of the game's bot turns"
    assert all(
        line["command_id"].startswith(f"bot:{game.table_id}:")
        for line in moves
        if "command_id" in line
    )
    assert any("command_id" in line for line in moves)
    assert all(line["request_id"] in line["message"] for line in moves)  # the task's id

    rounds = [line for line in lines["projector"] if "caught up" in line["message"]]
    assert rounds and all(line["request_id"] for line in rounds)
    assert all(line["process"] == name for name, entries in lines.items() for line in entries)
