"""The image is the tested one (issue 18, point 5): the Dockerfile installs exactly what
bin/test installs (bin/lib/env.sh): requirements/lock.txt with every hash checked, then
the project without resolving anything; it collects the hashed static files, and every
process runs as an unprivileged user. No Docker engine runs here, so the Dockerfile is
read as text (docker-compose.yml's `build: .` is checked by test_process_layout.py)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCK = "requirements/lock.txt"
SHELL_SEPARATORS = {"&&", "||", ";", "|", "&"}


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile as (INSTRUCTION, arguments), continuation lines joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            found.append((keyword.upper(), " ".join(rest.split())))
    return found


def pip_installs(commands: list[str]) -> list[list[str]]:
    """Each ``pip install`` in these shell commands, as its words after ``install``."""
    installs = []
    for command in commands:
        words = shlex.split(command)
        for at, word in enumerate(words[:-1]):
            if word == "pip" and words[at + 1] == "install":
                rest = words[at + 2 :]
                # The command ends at a redirection or the next command.
                ends = [i for i, w in enumerate(rest) if w in SHELL_SEPARATORS or w[0] in "<>"]
                installs.append(rest[: ends[0]] if ends else rest)
    return installs


def env_sh_installs() -> list[list[str]]:
    script = (ROOT / "bin" / "lib" / "env.sh").read_text()
    body = script[script.index("spades_ensure_venv() {") :]
    body = body[: body.index("\n}\n")]
    commands = re.sub(r"\\\n", " ", body).replace('"$SPADES_PY" -m pip', "pip")
    installs = pip_installs([line for line in commands.splitlines() if "pip install" in line])
    return [
        [word for word in words if word not in ("--quiet", "--disable-pip-version-check")]
        for words in installs
    ]


def test_the_image_installs_the_lock_with_hashes_then_the_project_without_dependencies() -> None:
    runs = [arguments for keyword, arguments in instructions() if keyword == "RUN"]
    installs = pip_installs(runs)
    assert len(installs) == 2, installs  # nothing else is installed, pinned or not
    lock, project = installs
    assert lock == ["--require-hashes", "-r", LOCK]
    assert "--no-deps" in project and project[-1] == "/app"
    copies = [arguments for keyword, arguments in instructions() if keyword == "COPY"]
    assert f"{LOCK} {LOCK}" in copies


def test_the_image_installs_as_bin_test_does() -> None:
    """bin/test's install is the tested one: the same lock file and switches, in order."""
    env_lock, env_project = env_sh_installs()
    image_lock, image_project = pip_installs(
        [arguments for keyword, arguments in instructions() if keyword == "RUN"]
    )
    assert (
        'SPADES_LOCK="$SPADES_ROOT/requirements/lock.txt"'
        in (ROOT / "bin" / "lib" / "env.sh").read_text()
    )
    assert env_lock == ["--require-hashes", "-r", "$SPADES_LOCK"]
    assert image_lock == ["--require-hashes", "-r", LOCK]
    # The checkout is installed editable (-e), the image's copy as a package.
    assert env_project == ["--no-deps", "--no-build-isolation", "-e", "$SPADES_ROOT"]
    assert image_project == ["--no-deps", "--no-build-isolation", "/app"]


def test_every_package_of_the_lock_is_pinned_with_a_hash() -> None:
    text = re.sub(r"\\\n", " ", (ROOT / LOCK).read_text())
    requirements = [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]
    assert len(requirements) > 50
    for line in requirements:
        assert re.match(r"^[A-Za-z0-9._-]+==[^ ]+ ", line), line
        assert "--hash=sha256:" in line, line


def test_the_image_collects_hashed_static_files_and_serves_them() -> None:
    steps = instructions()
    runs = [arguments for keyword, arguments in steps if keyword == "RUN"]
    [collect] = [run for run in runs if "collectstatic" in run]
    assert "SPADES_STATIC_MANIFEST=1" in collect and "--noinput" in collect
    envs = " ".join(arguments for keyword, arguments in steps if keyword == "ENV")
    assert "SPADES_STATIC_MANIFEST=1" in envs


def test_the_processes_run_as_an_unprivileged_user() -> None:
    steps = instructions()
    users = [
        (index, arguments) for index, (keyword, arguments) in enumerate(steps) if keyword == "USER"
    ]
    assert users, "the image runs as root"
    last_index, user = users[-1]
    assert user not in ("root", "0") and not user.startswith(("root:", "0:"))
    # Nothing runs as root after the switch, and the user is created before it.
    assert all(keyword != "RUN" for keyword, _ in steps[last_index + 1 :])
    [create] = [
        arguments
        for keyword, arguments in steps[:last_index]
        if keyword == "RUN" and "useradd" in arguments
    ]
    assert re.search(rf"useradd .* {user}( |$)", create)
    # The one folder the processes write to (scheduler pidfile and state, projector
    # heartbeat: BASE_DIR/.run by default) is the user's.
    assert f"chown {user} /app/.run" in create


def test_the_build_context_leaves_out_local_state_and_secrets() -> None:
    ignored = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    # .run holds bin/run's secret key and database cluster; .venv is this machine's.
    assert {".venv", ".run", ".git", "staticfiles", "node_modules"} <= ignored
