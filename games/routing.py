"""WebSocket routes of the games app (included by services/routing.py)."""

from typing import Any

from django.urls import path

from games.consumers import TableConsumer

websocket_urlpatterns: list[Any] = [
    path("ws/tables/<str:table_id>/", TableConsumer.as_asgi()),
]
