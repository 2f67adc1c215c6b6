"""The notifier publishes group messages itself: it must use channels-redis's own naming."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer

from games.live.fanout import pubsub_group_channel
from games.live.notices import group_message


@pytest.mark.parametrize("prefix", [None, "asgi", "spades-test"])
def test_the_group_channel_is_the_one_channels_redis_publishes_on(
    settings: Any, prefix: str | None
) -> None:
    config = {"hosts": [settings.REDIS_URL]}
    if prefix is not None:
        config["prefix"] = prefix
    layer = RedisPubSubChannelLayer(**config)
    theirs = RedisPubSubLoopLayer._get_group_channel_name(
        SimpleNamespace(prefix=prefix or "asgi"), "table.abc"
    )
    assert pubsub_group_channel(layer, "table.abc") == theirs


def test_other_layers_and_other_servers_go_through_group_send(settings: Any) -> None:
    assert pubsub_group_channel(InMemoryChannelLayer(), "table.abc") is None
    elsewhere = RedisPubSubChannelLayer(hosts=["redis://198.51.100.7:6379/0"])
    assert pubsub_group_channel(elsewhere, "table.abc") is None


def test_the_serialized_group_message_decodes_with_the_layer() -> None:
    layer = RedisPubSubChannelLayer(hosts=["redis://127.0.0.1:6379/0"])
    notice = {"first_version": 6, "version": 7, "committed_at": 12.5, "stream_id": "table-x"}
    decoded = layer.deserialize(layer.serialize(group_message(notice)))
    assert decoded == {
        "type": "table.committed",
        "first_version": 6,
        "version": 7,
        "committed_at": 12.5,
    }
