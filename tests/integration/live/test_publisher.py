"""The commit-notice publisher against the real Redis: batched, in order, never blocking."""

from __future__ import annotations

import time
import uuid
from typing import Any

import redis

from games.live.publisher import Publisher


def subscribe(url: str, channel: str) -> Any:
    pubsub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(channel)
    deadline = time.monotonic() + 5
    while pubsub.get_message(timeout=0.1) is None and time.monotonic() < deadline:
        if pubsub.subscribed:
            break
    return pubsub


def received(pubsub: Any, count: int, seconds: float = 10) -> list[bytes]:
    messages: list[bytes] = []
    deadline = time.monotonic() + seconds
    while len(messages) < count and time.monotonic() < deadline:
        message = pubsub.get_message(timeout=0.2)
        if message and message["type"] == "message":
            messages.append(message["data"])
    return messages


def test_every_queued_message_is_published_once_in_order(settings: Any) -> None:
    channel = f"test-publisher-{uuid.uuid4()}"
    pubsub = subscribe(settings.REDIS_URL, channel)
    publisher = Publisher(settings.REDIS_URL)
    sent = [f"notice {n}".encode() for n in range(300)]
    for start in range(0, len(sent), 3):  # like commits: a few messages at a time
        publisher.publish([(channel, payload) for payload in sent[start : start + 3]])
    assert publisher.flush(10)
    assert received(pubsub, len(sent)) == sent
    assert received(pubsub, 1, seconds=0.5) == []  # nothing twice
    assert (publisher.sent, publisher.dropped) == (len(sent), 0)
    pubsub.close()


def test_an_unreachable_redis_drops_notices_without_raising(settings: Any) -> None:
    publisher = Publisher("redis://127.0.0.1:1/0")  # nothing listens on port 1
    publisher.publish([("nowhere", b"a"), ("nowhere", b"b")])
    assert publisher.flush(10)
    publisher.publish([("nowhere", b"c")])  # within the retry pause: dropped at once
    assert publisher.flush(10)
    assert (publisher.sent, publisher.dropped) == (0, 3)
    assert publisher.thread.is_alive()
