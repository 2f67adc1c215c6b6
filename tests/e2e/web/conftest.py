"""Browser tests of the web client against the real stack.

One daphne (HTTP + WebSocket) and one Celery worker (bot moves) run as child processes
(``services.testing.processes``) on the pytest test database, for the whole session; Debian's
Chromium is driven by Playwright's sync API. The children must see what the browser
commits, so nothing here wraps the database in a transaction: every test signs up its
own user and makes its own tables.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from services.testing.processes import (
    ManagedProcess,
    database_env,
    free_port,
    log_contains,
    web_process,
    worker_process,
)

CHROMIUM = os.environ.get("SPADES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# In the checkout, where a reviewer finds them; .gitignore ignores .run/.
SCREENSHOTS = Path(
    os.environ.get(
        "SPADES_E2E_SCREENSHOTS", Path(__file__).resolve().parents[3] / ".run" / "screenshots"
    )
)


@pytest.fixture(scope="session")
def e2e_db(django_db_setup: Any, django_db_blocker: Any) -> Iterator[None]:
    """The test database, created and migrated, with commits allowed (no transaction)."""
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    with django_db_blocker.unblock():
        created = None
        if connection.settings_dict["NAME"] != connection.creation._get_test_db_name():
            created = setup_databases(verbosity=0, interactive=False, aliases={"default"})
        try:
            yield
        finally:
            if created is not None:
                from django.db import connections

                connections.close_all()
                teardown_databases(created, verbosity=0)


@pytest.fixture
def orm(e2e_db: None, django_db_blocker: Any) -> Iterator[None]:
    """Database access for a test that makes its own tables; it commits, so the server
    processes see the rows."""
    with django_db_blocker.unblock():
        yield


@dataclass
class Server:
    """The site under test: its base URL and the processes behind it."""

    url: str
    web: ManagedProcess
    worker: ManagedProcess
    # The web's outgoing mail, one file per message (EMAIL_URL=file://...).
    mail_dir: Path


@pytest.fixture(scope="session")
def server(e2e_db: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """daphne and a Celery worker on the test database, for the whole session."""
    from django.conf import settings
    from django.db import connection

    env = database_env(connection.settings_dict, settings.REDIS_URL)
    mail_dir = tmp_path_factory.mktemp("e2e-mail")
    env.update(
        {
            "SPADES_WATCHDOG_INTERVAL": "1",
            "SPADES_BOT_OVERDUE_SECONDS": "1.5",
            "EMAIL_URL": f"file://{mail_dir}",
        }
    )
    logs = tmp_path_factory.mktemp("e2e-processes")
    port = free_port()
    worker = worker_process(env, logs, name="e2e-worker")
    web = web_process(env, logs, port, name="e2e-web")
    # As bin/run runs it: the standings a competition page follows are the projector's,
    # pushed when it catches up (woken by the commit notices; nothing polls).
    projector = ManagedProcess(
        "e2e-projector", "services.projector", [], env, logs, log_contains("projector started")
    )
    try:
        worker.start(timeout=60)
        projector.start(timeout=60)
        web.start(timeout=60)
        yield Server(f"http://127.0.0.1:{port}", web, worker, mail_dir)
    finally:
        web.stop()
        projector.stop()
        worker.stop()


@pytest.fixture(scope="session")
def server_url(server: Server) -> str:
    """The site's base URL."""
    return server.url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless (Playwright cannot download its own build here)."""
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; Django's ORM (the tests'
    # own tables, the test database's teardown) would otherwise refuse to run "from an
    # async context". Set only while the browser runs, so no other test is affected.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield launched
        finally:
            launched.close()
    finally:
        playwright.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="session", autouse=True)
def slow_server_expectations() -> None:
    """Bot moves go through a worker process: give expectations more than 5 s."""
    from playwright.sync_api import expect

    expect.set_options(timeout=20_000)


# The two screens: a laptop and a phone.
SCREENS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
# ``@BOTH_SCREENS`` on a test runs it once per screen (ids "desktop" and "phone"); its
# ``page`` and any context it makes with ``viewport`` get that size.
BOTH_SCREENS = pytest.mark.parametrize("viewport", list(SCREENS), indirect=True)


@pytest.fixture
def viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    """The test's screen size: the desktop's unless the test is run at ``BOTH_SCREENS``."""
    return dict(SCREENS[getattr(request, "param", "desktop")])


# Every refusal of the Content-Security-Policy, logged with where it came from.
WHERE_CSP_REFUSED = """document.addEventListener("securitypolicyviolation", (e) =>
  console.error(`Content Security Policy refused ${e.violatedDirective} at ` +
    `${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${e.sample}`));"""


def refused_by_csp(text: str) -> bool:
    """Whether a console message is a CSP refusal of the site's own code. A refusal with
    no source file came from code the test itself evaluated in the page (axe-core adds a
    <style> for some of its checks), not from the site."""
    return text.startswith("Content Security Policy refused") and " at :" not in text


@pytest.fixture
def page(
    browser: Any, server_url: str, viewport: dict[str, int], request: pytest.FixtureRequest
) -> Iterator[Any]:
    """A fresh browser context (empty localStorage) with the site as base URL.

    Browser errors fail the test, and so does anything the Content-Security-Policy
    refused. Every test leaves a screenshot of where its page ended in SCREENSHOTS
    (``<test>.png``, ``<test>-failed.png`` when it failed).
    """
    context = browser.new_context(base_url=server_url, viewport=viewport)
    context.set_default_timeout(20_000)
    # The browser's own CSP message does not say where; this one does.
    context.add_init_script(WHERE_CSP_REFUSED)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    # Whatever the Content-Security-Policy refused (an inline script, style or handler, a
    # request elsewhere) fails the test too: every page must work under it.
    tab.on(
        "console",
        lambda message: errors.append(message.text) if refused_by_csp(message.text) else None,
    )
    try:
        yield tab
        assert not errors, f"JavaScript errors: {errors}"
    finally:
        report = getattr(request.node, "rep_call", None)
        suffix = "-failed" if report is not None and report.failed else ""
        try:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            tab.screenshot(
                path=str(SCREENSHOTS / f"{request.node.name}{suffix}.png"), full_page=True
            )
        except Exception:  # noqa: BLE001 - a page that is gone cannot be shot; the test said why
            pass
        context.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.rep_call = report  # type: ignore[attr-defined]
    return report
