"""WebSocket routes, mounted by services/asgi.py under Channels' URLRouter.

Add consumers here, e.g. ``path("ws/tables/<uuid:table_id>/", TableConsumer.as_asgi())``.
"""

from typing import Any

websocket_urlpatterns: list[Any] = []
