"""Process ``web``: the ASGI app (HTTP API and WebSocket) served by daphne.

``python -m services.web [daphne options]`` binds ``$SPADES_BIND:$SPADES_HTTP_PORT``
(default ``127.0.0.1:8000``). ``PORT`` is deliberately ignored: Procfile runners such as
honcho set it for every process they start.
"""

from __future__ import annotations

import os
import sys

from daphne.cli import CommandLineInterface

ASGI_APPLICATION = "services.asgi:application"


def daphne_arguments(extra: list[str], application: str = ASGI_APPLICATION) -> list[str]:
    """The daphne command line for this process: bind address, access log, the app
    (``benchmarks.relay`` serves its own with the same command line)."""
    host = os.environ.get("SPADES_BIND", "127.0.0.1")
    port = os.environ.get("SPADES_HTTP_PORT", "8000")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise SystemExit(f"SPADES_HTTP_PORT must be a TCP port number, got {port!r}")
    return ["--bind", host, "--port", port, "--access-log", "-", *extra, application]


def main(argv: list[str] | None = None) -> None:
    """Serve the ASGI application until SIGINT/SIGTERM."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "services.settings")
    # Requests run in threads of their own: a bounded pool, not a connection per thread.
    os.environ.setdefault("DB_POOL", "1")
    CommandLineInterface().run(daphne_arguments(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()
