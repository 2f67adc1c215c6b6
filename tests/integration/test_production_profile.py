"""Production settings are safe by default (docs/operations.md, "Production profile").

- with DEBUG off the settings refuse the public development SECRET_KEY, or none at all;
- ``manage.py check --deploy`` reports nothing under docker-compose.yml's environment
  (the production profile) once a key of one's own is given;
- the development profile (docker-compose.dev.yml over it) turns DEBUG on but still
  publishes the app port on the host's loopback only.

Each case starts Django in a subprocess with exactly the environment given.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = ("web", "worker", "projector", "scheduler")
REFUSAL = "SECRET_KEY must be set to a long random value of your own when DEBUG is off"


def compose_environment(files: tuple[str, ...], given: dict[str, str]) -> dict[str, str]:
    """The web service's environment as compose resolves it from ``files`` (later ones
    override earlier ones key by key) with ``given`` as the shell's variables.

    Interpolates ``${NAME:-default}`` and ``${NAME}`` like compose does, so this test
    does not depend on the docker-compose binary (the config check below does)."""
    environment: dict[str, Any] = {}
    for name in files:
        service = yaml.safe_load((ROOT / name).read_text())["services"]["web"]
        environment.update(service.get("environment") or {})

    def interpolate(text: str) -> str:
        def value(match: re.Match[str]) -> str:
            name, default = match.group(1), match.group(3)
            return given.get(name) or (default or "")

        return re.sub(r"\$\{(\w+)(:-([^}]*))?\}", value, text)

    return {key: interpolate(str(value)) for key, value in environment.items()}


def run_django(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(ROOT)}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env, "DJANGO_SETTINGS_MODULE": "services.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def strong_key() -> str:
    return secrets.token_urlsafe(50)


def test_check_deploy_reports_nothing_under_the_production_profile() -> None:
    env = compose_environment(("docker-compose.yml",), {"SECRET_KEY": strong_key()})
    assert env["DEBUG"] == "0"

    result = run_django(env, "check", "--deploy", "--fail-level", "DEBUG")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout, result.stdout


def test_the_production_profile_without_a_key_refuses_to_start() -> None:
    env = compose_environment(("docker-compose.yml",), {})
    assert env["SECRET_KEY"] == ""

    result = run_django(env, "check")

    assert result.returncode != 0
    assert REFUSAL in result.stderr
    assert "Traceback" in result.stderr  # ImproperlyConfigured, before anything runs


@pytest.mark.parametrize("key", [None, "", "django-insecure-spades-dev-only-change-me"])
def test_debug_off_refuses_the_development_key_or_none(key: str | None) -> None:
    env = {"DEBUG": "0"} if key is None else {"DEBUG": "0", "SECRET_KEY": key}

    result = run_django(env, "check")

    assert result.returncode != 0
    assert REFUSAL in result.stderr


def test_debug_on_runs_with_the_development_key() -> None:
    """The development profile: DEBUG on, no key of one's own needed."""
    env = compose_environment(("docker-compose.yml", "docker-compose.dev.yml"), {})
    assert env["DEBUG"] == "1" and env["SECRET_KEY"] == ""

    result = run_django(env, "check")

    assert result.returncode == 0, result.stderr


def test_bin_run_runs_with_debug_off_and_a_key_of_its_own() -> None:
    script = (ROOT / "bin" / "run").read_text()

    assert 'export DEBUG="${DEBUG:-0}"' in script
    assert "secret_key" in script and "umask 077" in script


def test_a_strong_key_without_the_https_switches_is_flagged() -> None:
    """The switches are what silences check --deploy: without them it still warns."""
    result = run_django({"DEBUG": "0", "SECRET_KEY": strong_key()}, "check", "--deploy")

    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr + result.stdout


def test_a_malformed_proxy_header_setting_is_refused() -> None:
    env = {"DEBUG": "0", "SECRET_KEY": strong_key(), "SECURE_PROXY_SSL_HEADER": "https"}

    result = run_django(env, "check")

    assert result.returncode != 0
    assert "SECURE_PROXY_SSL_HEADER must be HEADER,VALUE" in result.stderr


def docker_compose_config(*files: str) -> dict[str, Any]:
    binary = shutil.which("docker-compose")
    if binary is None:
        pytest.skip("docker-compose is not installed (apt-get install docker-compose)")
    arguments = [item for name in files for item in ("-f", str(ROOT / name))]
    env = {key: value for key, value in os.environ.items() if key != "SECRET_KEY"}
    result = subprocess.run(
        [binary, *arguments, "config"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return dict(yaml.safe_load(result.stdout)["services"])


def test_docker_compose_accepts_both_profiles_and_never_publishes_debug_widely() -> None:
    production = docker_compose_config("docker-compose.yml")
    development = docker_compose_config("docker-compose.yml", "docker-compose.dev.yml")

    for name in PROCESSES:
        assert production[name]["environment"]["DEBUG"] == "0"
        assert production[name]["environment"]["SECURE_SSL_REDIRECT"] == "1"
        assert development[name]["environment"]["DEBUG"] == "1"
    assert development["migrate"]["environment"]["SPADES_DB_ROLE"] == "owner"
    for services in (production, development):
        ports = [str(port) for port in services["web"]["ports"]]
        assert ports and all(port.startswith("127.0.0.1:") for port in ports), ports
