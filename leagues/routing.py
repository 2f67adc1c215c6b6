"""WebSocket routes of the leagues app (included by services/routing.py)."""

from typing import Any

from django.urls import path

from leagues.consumers import CompetitionConsumer

websocket_urlpatterns: list[Any] = [
    path("ws/competitions/<str:competition_id>/", CompetitionConsumer.as_asgi()),
]
