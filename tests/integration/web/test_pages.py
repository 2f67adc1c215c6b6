"""The client's pages and static files are served (no CDN: every asset is local)."""

from __future__ import annotations

import re

import pytest
from django.test import Client


@pytest.mark.parametrize(
    ("path", "script"), [("/", "pages/play.js"), ("/calculator/", "pages/calculator.js")]
)
def test_page_serves_local_assets_only(path: str, script: str) -> None:
    response = Client().get(path)

    assert response.status_code == 200
    html = response.content.decode()
    assert f"/static/web/js/{script}" in html
    assert not re.search(r"(src|href)=\"https?://", html), "every asset is served locally"


def test_static_modules_are_served() -> None:
    for name in (
        "pages/play.js",
        "play/table.js",
        "forms.js",
        "live_socket.js",
        "api.js",
        "cards.js",
        "live.js",
        "breakdown.js",
    ):
        response = Client().get(f"/static/web/js/{name}")
        assert response.status_code == 200, name
        body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
        assert not re.search(rb"from \"https?://", body), name
