"""The process layout: Procfile (bin/run) and docker-compose.yml run the same commands.

The compose file is always parsed with PyYAML and checked here. When Debian's
``docker-compose`` binary is installed, ``docker-compose config`` must accept the file
too; where it is missing, that one test is reported as skipped with the reason (the
PyYAML checks still run), never silently passed.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = ("web", "worker", "projector", "scheduler")
COMMANDS = {
    "web": "python -m services.web",
    "worker": "python -m services.worker",
    "projector": "python -m services.projector",
    "scheduler": "python -m services.scheduler",
}


def procfile_entries() -> dict[str, str]:
    entries: dict[str, str] = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, _, command = line.partition(":")
        assert name.strip() not in entries, f"Procfile names {name!r} twice"
        entries[name.strip()] = command.strip()
    return entries


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def command_text(command: str | list[str]) -> str:
    return command if isinstance(command, str) else " ".join(command)


def test_procfile_lists_each_process_once_with_its_entry_point() -> None:
    assert procfile_entries() == COMMANDS


def test_each_compose_process_runs_the_procfile_command() -> None:
    services = compose()["services"]
    for name, command in procfile_entries().items():
        assert name in services, f"docker-compose.yml has no service {name!r}"
        assert command_text(services[name]["command"]) == command


def test_compose_has_backing_services_with_health_checks() -> None:
    services = compose()["services"]
    for name in ("postgres", "redis", *PROCESSES):
        assert "healthcheck" in services[name], f"{name} has no health check"
        assert services[name]["healthcheck"]["test"], f"{name}'s health check is empty"


def test_compose_processes_share_the_runtime_settings_of_bin_run() -> None:
    services = compose()["services"]
    for name in PROCESSES:
        env = services[name]["environment"]
        # bin/run starts the processes as the runtime role with these variables.
        assert env["SPADES_DB_ROLE"] == "app"
        # ${DATABASE_URL:-...}: a deployment may point it elsewhere, by default the app role.
        assert ":-postgresql://spades_app:" in env["DATABASE_URL"]
        assert env["REDIS_URL"].startswith("redis://")
        assert {"SPADES_BIND", "SPADES_HTTP_PORT", "DB_CONN_MAX_AGE"} <= set(env)
        deps = services[name]["depends_on"]
        assert deps["postgres"]["condition"] == "service_healthy"
        assert deps["redis"]["condition"] == "service_healthy"
        assert deps["migrate"]["condition"] == "service_completed_successfully"
    migrate = services["migrate"]
    assert migrate["environment"]["SPADES_DB_ROLE"] == "owner"
    assert command_text(migrate["command"]) == "python manage.py migrate --noinput"


def test_bin_run_starts_the_procfile_after_migrating() -> None:
    script = (ROOT / "bin" / "run").read_text()
    migrate = script.index("manage.py migrate --noinput")
    start = script.index("honcho start -f Procfile")
    assert migrate < start
    assert "SPADES_DB_ROLE=app honcho start" in script


def test_docker_compose_config_accepts_the_file() -> None:
    binary = shutil.which("docker-compose")
    if binary is None:
        pytest.skip(
            "docker-compose is not installed (apt-get install docker-compose); "
            "the PyYAML checks above still ran"
        )
    result = subprocess.run(
        [binary, "-f", str(ROOT / "docker-compose.yml"), "config"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    resolved = yaml.safe_load(result.stdout)["services"]
    for name, command in COMMANDS.items():
        assert command_text(resolved[name]["command"]) == command
        assert resolved[name]["environment"]["SPADES_DB_ROLE"] == "app"
