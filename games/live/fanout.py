"""After-commit fan-out: every commit of a table's stream is announced.

``on_events_committed`` receives ``eventstore.signals.events_committed``, which the store
sends from ``transaction.on_commit``; so everything here happens after the events are
durable. Nothing here makes the committing request or task wait for Redis, and nothing
can raise into it (its command succeeded). Failures are logged; the consumers' catch-up
by version and the projector's poll repair whatever a lost notice would have done.

Two announcements (their format: ``games.live.notices``):

1. the Channels group ``table.<id>``: ``{"type": "table.committed", "version": V, ...}``;
   each consumer then reads the events after its own last sent version;
2. Redis pub/sub ``commits_channel()``: a JSON array of notices (one here); wakes the
   projector, and lets the live benchmark time commits.

Both are PUBLISH commands queued for this process's publisher thread, which sends them in
batches (``games.live.publisher``); with a channel layer other than channels-redis's
pub/sub one, 1 goes through the layer's ``group_send`` on the notifier thread
(``games.live.announcer``). Bots listen to the same signal (``bots.dispatch``): games
announces, bots decide whether one of theirs is due.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Any

import orjson
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings

from games.domain.streams import table_id_of_stream
from games.live.announcer import announcer
from games.live.notices import commit_notice, commits_channel, group_message, table_group
from games.live.publisher import publisher

logger = logging.getLogger(__name__)

NOTIFIER = "notifier"


def on_events_committed(
    sender: object,
    stream_id: str,
    events: Sequence[Any],
    context: dict[str, Any] | None = None,
    **kwargs: Any,
) -> None:
    """Receiver of ``events_committed`` (runs after commit, in the committing process):
    queue the commit's notices for the publisher thread."""
    if not events:
        return
    notice = commit_notice(stream_id, events, time.time())
    table_id = context.get("table_id") if context else None
    if table_id is None:
        table_id = table_id_of_stream(stream_id)
    publish_notice(notice, table_id, events)


def publish_notice(
    notice: dict[str, Any], table_id: str | None, events: Sequence[Any] = ()
) -> None:
    """Queue a commit's notices for the publisher thread: the group message (when the
    channel layer can be published to directly, else it goes through the layer on the
    notifier thread) and the commits channel's."""
    messages: list[tuple[str, bytes]] = []
    if table_id is not None:
        layer = get_channel_layer()
        channel = pubsub_group_channel(layer, table_group(table_id)) if layer else None
        if channel is not None:
            messages.append((channel, layer.serialize(group_message(notice, events))))
        elif layer is not None:
            announcer(NOTIFIER, notify).submit((notice, table_id))
    messages.append((commits_channel(), orjson.dumps([notice])))
    publisher().publish(messages)


def notify(batch: list[tuple[dict[str, Any], str]], loop: asyncio.AbstractEventLoop) -> None:
    """Group notices through the channel layer's ``group_send`` (the notifier thread's job,
    for layers other than channels-redis's pub/sub one); failures are logged only.

    A table's consumers read every event after the version they last sent, so its group
    hears only the batch's newest version.
    """
    newest: dict[str, dict[str, Any]] = {}
    for notice, table_id in batch:
        current = newest.get(table_id)
        if current is None or current["version"] < notice["version"]:
            newest[table_id] = notice
    try:
        notify_table_groups(newest, loop)
    except Exception:
        logger.exception("group notices for %d table(s) failed", len(newest))


def pubsub_group_channel(layer: Any, group: str) -> str | None:
    """The Redis channel on which ``layer`` publishes ``group``'s messages, when it is
    channels-redis's pub/sub layer on this process's Redis, else None.

    channels-redis publishes a group message as one PUBLISH of the layer's serialized
    message on ``<prefix>__group__<group>``; the committing thread does the same with its
    commit notice (``games.live.publisher``), without an event loop or a thread switch.
    tests/unit/live/test_group_channel.py holds this to the library's own naming.
    """
    if not isinstance(layer, RedisPubSubChannelLayer):
        return None
    config = layer._kwargs
    if config.get("hosts") != [settings.REDIS_URL]:
        return None
    return f"{config.get('prefix', 'asgi')}__group__{group}"


def notify_table_groups(
    notices: dict[str, dict[str, Any]], loop: asyncio.AbstractEventLoop
) -> None:
    """Tell each table's consumers, through the channel layer's own ``group_send``, that
    its stream reached ``notices[table_id]["version"]``."""
    layer = get_channel_layer()
    if layer is None:
        return
    sends = [
        layer.group_send(table_group(table_id), group_message(notice))
        for table_id, notice in notices.items()
    ]
    loop.run_until_complete(_all(sends))


async def _all(sends: list[Any]) -> None:
    for outcome in await asyncio.gather(*sends, return_exceptions=True):
        if isinstance(outcome, BaseException):
            logger.error("a group notice failed: %r", outcome)
