"""The log context (telemetry.logs) and the JSON line format."""

from __future__ import annotations

import asyncio
import logging
import threading

import orjson

from telemetry.logs import JsonFormatter, begin, bind, clear, current, scope


def record(message: str, *args: object, exc_info: object = None) -> logging.LogRecord:
    return logging.LogRecord("spades.test", logging.WARNING, __file__, 1, message, args, exc_info)


def test_a_json_line_is_one_object_with_time_level_logger_message_process_and_context() -> None:
    with scope("req-1", table_id="t-1"):
        bind(command_id="c-1")
        line = JsonFormatter().format(record("move %s\nrefused", "bid"))

    assert "\n" not in line
    entry = orjson.loads(line)
    assert entry["message"] == "move bid\nrefused"
    assert entry["level"] == "WARNING" and entry["logger"] == "spades.test"
    assert entry["time"].endswith("+00:00") and "T" in entry["time"]
    assert entry["process"]
    assert (entry["request_id"], entry["table_id"], entry["command_id"]) == ("req-1", "t-1", "c-1")
    assert "competition_id" not in entry


def test_a_traceback_stays_on_the_line() -> None:
    try:
        raise ValueError("bad\nthing")
    except ValueError as error:
        line = JsonFormatter().format(record("failed", exc_info=(ValueError, error, None)))

    assert "\n" not in line
    assert "ValueError: bad\nthing" in orjson.loads(line)["exception"]


def test_a_scope_gives_a_fresh_request_id_and_takes_its_bindings_away_at_its_end() -> None:
    clear()
    with scope() as outer:
        assert len(outer) == 16 and current()["request_id"] == outer
        bind(table_id="t")
        with scope(competition_id="c") as inner:
            assert inner != outer
            assert dict(current()) == {"request_id": inner, "competition_id": "c"}
        assert dict(current()) == {"request_id": outer, "table_id": "t"}
        bind(table_id=None)
        assert "table_id" not in current()
    assert dict(current()) == {}


def test_begin_replaces_the_context_in_place_and_clear_ends_it() -> None:
    begin("task-1", table_id="t")
    begin("task-2")
    assert dict(current()) == {"request_id": "task-2"}
    bind(command_id="x" * 500)
    assert len(current()["command_id"]) == 200
    clear()
    assert dict(current()) == {}


def test_threads_and_tasks_keep_contexts_of_their_own() -> None:
    seen: dict[str, object] = {}

    def in_thread() -> None:
        seen["thread_start"] = dict(current())
        begin("thread")

    with scope("main"):
        worker = threading.Thread(target=in_thread)
        worker.start()
        worker.join()

        async def task(name: str) -> str:
            begin(name)
            await asyncio.sleep(0)
            return current()["request_id"]

        async def both() -> list[str]:
            return list(await asyncio.gather(task("a"), task("b")))

        assert asyncio.run(both()) == ["a", "b"]
        assert current()["request_id"] == "main"
    assert seen["thread_start"] == {}
