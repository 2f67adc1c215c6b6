"""The sample reverse proxy in front of a real web process (issue 18, point 6;
docs/deploy.md): nginx with deploy/nginx/spades.conf (only its addresses, certificate
and log paths changed) serves the site over TLS, passes a WebSocket through, tells the
web the request came over HTTPS, and its access log holds none of the ``?token=`` values
the requests carried (the browser's socket authenticates with one)."""

from __future__ import annotations

import json
import signal
import ssl
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from services.testing import LOCAL_ONLY_SECRET_KEY
from services.testing.processes import database_env, free_port, port_open, web_process

# The live tests' committing test database, for the child processes.
from tests.integration.live.conftest import live_db  # noqa: F401
from tests.unit.test_proxy_sample import SAMPLE, nginx_binary, self_signed


def proxy_conf(tmp_path: Path, web_port: int, http_port: int, https_port: int) -> Path:
    cert, key = self_signed(tmp_path)
    site = SAMPLE.read_text()
    for old, new in {
        "server 127.0.0.1:8000;": f"server 127.0.0.1:{web_port};",
        "    listen 80;\n": f"    listen 127.0.0.1:{http_port};\n",
        "    listen [::]:80;\n": "",
        "    listen 443 ssl http2;\n": f"    listen 127.0.0.1:{https_port} ssl http2;\n",
        "    listen [::]:443 ssl http2;\n": "",
        "/etc/letsencrypt/live/spades.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/spades.example.org/privkey.pem": str(key),
        "/var/log/nginx/": f"{tmp_path}/",
    }.items():
        assert old in site, old
        site = site.replace(old, new)
    (tmp_path / "spades.conf").write_text(site)
    temp_paths = "".join(
        f"  {kind}_temp_path {tmp_path}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"daemon off;\nerror_log {tmp_path}/error.log;\npid {tmp_path}/nginx.pid;\n"
        f"events {{}}\nhttp {{\n{temp_paths}  include {tmp_path}/spades.conf;\n}}\n"
    )
    return conf


@pytest.fixture
def proxied_site(
    request: pytest.FixtureRequest, django_db_blocker: Any, tmp_path: Path
) -> Iterator[tuple[int, int, Path]]:
    """(https port, http port, log folder): nginx in front of a web process on the test
    database (the live tests' ``live_db``: created even when no test here is marked)."""
    binary = nginx_binary()
    if binary is None:
        pytest.skip("no nginx binary (bin/test unpacks Debian's into .run/nginx)")
    request.getfixturevalue("live_db")
    with django_db_blocker.unblock():
        env = database_env(connection.settings_dict, settings.REDIS_URL)
    web_port, http_port, https_port = free_port(), free_port(), free_port()
    web = web_process(
        {
            **env,
            "DEBUG": "0",
            "SECRET_KEY": LOCAL_ONLY_SECRET_KEY,
            # As docker-compose.yml runs it behind its proxy.
            "SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https",
            "SECURE_SSL_REDIRECT": "1",
            # The proxy's address, as deploy/nginx/spades.conf asks: only from it are
            # X-Forwarded-For and -Proto believed (services/proxies.py).
            "TRUSTED_PROXIES": "127.0.0.1",
        },
        tmp_path,
        web_port,
    ).start(timeout=60)
    conf = proxy_conf(tmp_path, web_port, http_port, https_port)
    nginx = subprocess.Popen(
        [binary, "-p", str(tmp_path), "-c", str(conf)],
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "nginx.out").open("wb"),
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not port_open(https_port):
            assert nginx.poll() is None, (tmp_path / "nginx.out").read_text()
            assert time.monotonic() < deadline, "nginx did not listen"
            time.sleep(0.05)
        yield https_port, http_port, tmp_path
    finally:
        nginx.send_signal(signal.SIGQUIT)  # graceful: logs flushed, sockets closed
        try:
            nginx.wait(20)
        except subprocess.TimeoutExpired:
            nginx.kill()
            nginx.wait(10)
        web.stop()


def tls_context(folder: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(folder / "cert.pem"))
    return context


def test_the_proxy_serves_tls_and_websockets_and_logs_no_token(
    proxied_site: tuple[int, int, Path],
) -> None:
    https_port, http_port, folder = proxied_site
    secrets = [f"secret-{uuid.uuid4().hex}" for _ in range(3)]
    context = tls_context(folder)
    site = f"https://127.0.0.1:{https_port}"

    # HTTPS as the web sees it (X-Forwarded-Proto): a page, not a redirect to https.
    request = urllib.request.Request(f"{site}/calculator/?token={secrets[0]}")
    with urllib.request.urlopen(request, context=context, timeout=10) as response:
        assert response.status == 200 and response.url.startswith(site)

    # A WebSocket through the proxy: the web's refusal of the bad token comes back.
    url = f"wss://127.0.0.1:{https_port}/ws/tables/{uuid.uuid4()}/?token={secrets[1]}"
    with connect(url, ssl=context, origin=site, open_timeout=10) as socket:
        refusal = json.loads(socket.recv(timeout=10))
        assert refusal["code"] == "not_authenticated"
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401

    # Plain HTTP is only redirected.
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as redirected:
        opener.open(f"http://127.0.0.1:{http_port}/ws/x/?token={secrets[2]}", timeout=10)
    assert redirected.value.code == 301
    assert redirected.value.headers["Location"].startswith("https://127.0.0.1/ws/x/?token=")

    # nginx writes a request's line after its response has gone (the socket's when it
    # closes): wait for the three lines, then read the log.
    log = folder / "spades.access.log"
    expected = {
        "page": lambda line: '"GET /calculator/ HTTP/1.1" 200' in line,
        "socket": lambda line: '"GET /ws/tables/' in line and '" 101 ' in line,
        "redirect": lambda line: '"GET /ws/x/ HTTP/1.1" 301' in line,
    }
    deadline = time.monotonic() + 20
    while True:
        lines = log.read_text().splitlines() if log.exists() else []
        missing = [name for name, seen in expected.items() if not any(map(seen, lines))]
        if not missing:
            break
        assert time.monotonic() < deadline, f"nginx logged no {missing} line: {lines}"
        time.sleep(0.05)
    for secret in secrets:
        assert secret not in log.read_text()
    assert "token=" not in log.read_text()
    # Nor the error log, where nginx writes whole request lines (a dropped socket is one).
    errors = (folder / "spades.error.log").read_text()
    assert not [secret for secret in secrets if secret in errors], errors
    # Behind it, the web's own access log (spades.access) names a socket by its path alone.
    web_log = (folder / "web.log").read_text()
    assert " WS /ws/tables/" in web_log and secrets[1] not in web_log
