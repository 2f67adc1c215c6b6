"""WebSocket routes, mounted by services/asgi.py under Channels' URLRouter."""

from typing import Any

from games.routing import websocket_urlpatterns as games_websocket_urlpatterns
from leagues.routing import websocket_urlpatterns as leagues_websocket_urlpatterns

websocket_urlpatterns: list[Any] = [
    *games_websocket_urlpatterns,
    *leagues_websocket_urlpatterns,
]
