"""Swagger UI at /api/docs/ works with no network: its scripts, styles and favicon come from
the site's own static files (drf-spectacular-sidecar), and it lists the API's operations."""

from __future__ import annotations

import json
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

LOCAL_HOSTS = {"127.0.0.1"}


def schema_operations(server_url: str) -> dict[str, tuple[str, str]]:
    """Swagger UI's block id -> (path, summary or "") of every operation the served schema has."""
    with urllib.request.urlopen(f"{server_url}/api/schema/?format=json", timeout=30) as reply:
        schema = json.load(reply)
    operations: dict[str, tuple[str, str]] = {}
    for path, path_item in schema["paths"].items():
        for operation in path_item.values():
            if isinstance(operation, dict) and "operationId" in operation:
                tag = (operation.get("tags") or ["default"])[0]
                block = f"operations-{tag}-{operation['operationId']}"
                operations[block] = (path, operation.get("summary", ""))
    return operations


def test_swagger_ui_lists_the_operations_without_the_network(page: Any, server_url: str) -> None:
    outside: list[str] = []
    local_failures: list[str] = []

    def only_this_machine(route: Any) -> None:
        if urlsplit(route.request.url).hostname in LOCAL_HOSTS:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort("internetdisconnected")

    # On the context, so workers and anything the page opens are cut off too.
    page.context.route("**/*", only_this_machine)
    page.on(
        "response",
        lambda response: (
            local_failures.append(f"{response.status} {response.url}")
            if response.status >= 400
            else None
        ),
    )
    page.on("requestfailed", lambda request: local_failures.append(f"failed {request.url}"))

    operations = schema_operations(server_url)
    assert {"operations-tables-tables_list", "operations-tables-tables_create"} <= set(operations)
    assert any(summary for _, summary in operations.values()), "some operations carry summaries"

    page.goto("/api/docs/")  # returns once the page's scripts and styles have loaded
    assert not outside, f"Swagger UI asked for addresses off this machine: {outside}"

    # Every operation of the schema is rendered as its own block, with its path and summary.
    for block, (path, summary) in operations.items():
        operation = page.locator(f'[id="{block}"]')
        expect(operation).to_be_visible()
        expect(operation.locator(".opblock-summary-path")).to_have_attribute("data-path", path)
        if summary:
            expect(operation.locator(".opblock-summary-description")).to_have_text(summary)

    sources = page.eval_on_selector_all(
        "script[src], link[href]", "nodes => nodes.map(n => n.src || n.href)"
    )
    assert sources, "the page loads its scripts and styles from files"
    assert all(urlsplit(source).hostname in LOCAL_HOSTS for source in sources), sources
    assert any("drf_spectacular_sidecar" in source for source in sources), sources
    assert not outside, f"Swagger UI asked for addresses off this machine: {outside}"
    assert not local_failures, f"requests that failed: {local_failures}"
