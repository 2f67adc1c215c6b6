"""Process ``web``: the ASGI app (HTTP API and WebSocket) served by daphne.

``python -m services.web [daphne options]`` binds ``$SPADES_BIND:$SPADES_HTTP_PORT``
(default ``127.0.0.1:8000``). ``PORT`` is deliberately ignored: Procfile runners such as
honcho set it for every process they start. The access log is the app's own (logger
``spades.access``: the real client behind a trusted proxy, the request id, no query
string, in ``LOG_FORMAT``), not daphne's.
"""

from __future__ import annotations

import os
import sys

from daphne.cli import CommandLineInterface

from telemetry.logs import set_process_name

ASGI_APPLICATION = "services.asgi:application"


def daphne_arguments(extra: list[str], application: str = ASGI_APPLICATION) -> list[str]:
    """The daphne command line for this process: bind address, the app (``benchmarks.relay``
    serves its own with the same command line)."""
    host = os.environ.get("SPADES_BIND", "127.0.0.1")
    port = os.environ.get("SPADES_HTTP_PORT", "8000")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise SystemExit(f"SPADES_HTTP_PORT must be a TCP port number, got {port!r}")
    # Verbosity 0: no access log of daphne's own (raw lines with the proxy's address; the
    # app writes its own, services/request_log.py); the log level is LOG_LEVEL all the same.
    return ["--bind", host, "--port", port, "--verbosity", "0", *extra, application]


def main(argv: list[str] | None = None) -> None:
    """Serve the ASGI application until SIGINT/SIGTERM."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "services.settings")
    # Requests run in threads of their own: a bounded pool, not a connection per thread.
    os.environ.setdefault("DB_POOL", "1")
    set_process_name("web")
    CommandLineInterface().run(daphne_arguments(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()
