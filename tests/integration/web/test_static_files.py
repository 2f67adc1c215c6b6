"""The image's static files (issue 18, point 5): ``collectstatic`` with the production
storage (``SPADES_STATIC_MANIFEST=1``, as the Dockerfile runs it) succeeds, and a web
process with DEBUG off serves every page's assets under content-hashed names, gzipped,
with a far-future max-age, and every ES module's relative imports rewritten to hashed
files that are there too (services/static_storage.py says why that needs care)."""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from django.conf import settings
from django.db import connection

from services.testing import LOCAL_ONLY_SECRET_KEY
from services.testing.processes import ROOT, database_env, free_port, web_process

# The live tests' committing test database, for the child processes.
from tests.integration.live.conftest import live_db  # noqa: F401

PAGES = ("/", "/calculator/", "/competitions/", "/competitions/new/", "/admin/login/", "/api/docs/")
HASHED = re.compile(r"\.[0-9a-f]{12}\.\w+$")
# Import and re-export statements with a relative specifier, as the client writes them.
IMPORT = re.compile(r"""(?m)^(?:import|export)\b[^;]*?from\s*["'](\.{1,2}/[^"']+)["']\s*;""")
# whitenoise's max-age for a file whose name carries its hash: ten years, immutable.
FOREVER = "max-age=315360000, public, immutable"


def production_env(static_root: Path) -> dict[str, str]:
    return {
        "DEBUG": "0",
        "SECRET_KEY": LOCAL_ONLY_SECRET_KEY,
        "SPADES_STATIC_MANIFEST": "1",
        "SPADES_STATIC_ROOT": str(static_root),
    }


@pytest.fixture(scope="module")
def static_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("staticfiles")
    done = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", **production_env(root)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (root / "staticfiles.json").exists()
    return root


@pytest.fixture(scope="module")
def site(
    static_root: Path,
    request: pytest.FixtureRequest,
    django_db_blocker: Any,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[str]:
    """A web process on the test database (the live tests' ``live_db``), DEBUG off,
    serving the collected files."""
    request.getfixturevalue("live_db")
    with django_db_blocker.unblock():
        env = database_env(connection.settings_dict, settings.REDIS_URL)
    port = free_port()
    web = web_process(
        {**env, **production_env(static_root)}, tmp_path_factory.mktemp("web-logs"), port
    )
    web.start(timeout=60)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        web.stop()


class Assets(HTMLParser):
    """The static files a page loads: scripts, stylesheets and icons."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        url = found.get("src") if tag == "script" else found.get("href")
        if tag in ("script", "link") and url and url.startswith("/static/"):
            self.urls.append(url)


def get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, dict(response.headers), response.read()


def test_collectstatic_writes_hashed_and_compressed_copies(static_root: Path) -> None:
    names = {p.relative_to(static_root).as_posix() for p in static_root.rglob("*") if p.is_file()}
    for source in (ROOT / "web" / "static").rglob("*.*"):
        name = source.relative_to(ROOT / "web" / "static").as_posix()
        stem, extension = name.rsplit(".", 1)
        hashed = [
            n for n in names if re.fullmatch(re.escape(stem) + r"\.[0-9a-f]{12}\." + extension, n)
        ]
        assert hashed, f"{name} has no hashed copy"
        # whitenoise keeps a gzip copy only where it saves space: a tiny icon has none, nor
        # has a page's entry module of three lines (pages/*.js); every larger script has one.
        if extension in ("js", "css") and source.stat().st_size >= 512:
            assert f"{hashed[0]}.gz" in names, f"{hashed[0]} has no gzip copy"


def test_every_page_loads_hashed_assets_and_their_imports(site: str) -> None:
    seen: set[str] = set()
    for page in PAGES:
        status, _, body = get(site + page)
        assert status == 200, page
        parser = Assets()
        parser.feed(body.decode())
        assert parser.urls, f"{page} loads no static file"
        pending = list(parser.urls)
        while pending:
            url = pending.pop()
            if url in seen:
                continue
            seen.add(url)
            assert HASHED.search(urlsplit(url).path), f"{page}: {url} is not a hashed name"
            status, headers, content = get(site + url, **{"Accept-Encoding": "gzip"})
            assert status == 200, url
            assert headers["Cache-Control"] == FOREVER, (url, headers["Cache-Control"])
            if url.endswith((".js", ".css")):
                assert headers.get("Content-Encoding") == "gzip", url
                content = gzip.decompress(content)
            if url.endswith(".js"):
                pending += [urljoin(url, spec) for spec in IMPORT.findall(content.decode())]
    modules = [url for url in seen if url.startswith("/static/web/js/")]
    # The module graph was followed, not just the pages' entry points.
    assert any("/table/words." in url for url in modules) and len(modules) > 20, modules


def test_debug_stays_off_and_unhashed_names_are_not_cached_for_long(site: str) -> None:
    status, headers, _ = get(site + "/static/web/js/api.js")
    assert status == 200
    assert "immutable" not in headers["Cache-Control"]
    request = urllib.request.Request(site + "/no-such-page/")
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(request, timeout=30)
    assert missing.value.code == 404
    assert b"Traceback" not in missing.value.read()
