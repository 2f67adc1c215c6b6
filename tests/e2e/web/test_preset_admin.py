"""An admin edits a rule preset in the browser: fields per option, the engine's sentence,
a new version, the history with its changes; the pages pass axe-core's serious checks."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import RulePreset
from scoring.services.presets import create_preset
from tests.e2e.web.steps import axe_violations, shot
from tests.factories import AdminFactory, TableFactory

SIZES = [pytest.param(1280, 900, id="desktop"), pytest.param(390, 844, id="phone")]


def sign_in_as_admin(page: Any) -> None:
    admin = AdminFactory(username=f"e2e-admin-{uuid.uuid4().hex[:8]}")
    page.goto("/admin/login/")
    page.fill("#id_username", admin.username)
    page.fill("#id_password", "pw-password")
    page.click("input[type=submit]")
    expect(page.locator("#user-tools")).to_contain_text(admin.username)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_an_admin_adds_a_version_and_sees_what_changed(
    page: Any, orm: None, width: int, height: int
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    size = f"{width}x{height}"
    name = f"club-{uuid.uuid4().hex[:8]}"
    first = create_preset(name, {}, description="Friday nights")
    table = TableFactory(rules=name)
    sign_in_as_admin(page)

    page.goto(f"/admin/scoring/rulepreset/{first.pk}/change/")
    expect(page.get_by_label("Game to")).to_have_value("500")
    assert axe_violations(page) == []
    shot(page, f"admin-preset-form-{size}")

    page.get_by_label("Nil bids").uncheck()
    page.get_by_label("Blind nil", exact=True).check()
    page.click("input[name=_continue]")
    expect(page.locator(".errorlist.nonfield")).to_contain_text(
        "Blind nil needs nil: turn nil on, or blind nil off."
    )
    shot(page, f"admin-preset-refused-{size}")
    assert RulePreset.objects.filter(name=name).count() == 1

    page.get_by_label("Blind nil", exact=True).uncheck()
    page.get_by_label("Game to").fill("300")
    page.click("input[name=_continue]")
    expect(page.locator(".messagelist")).to_contain_text("changed successfully")
    expect(page.get_by_label("Game to")).to_have_value("300")  # editing goes on with v2
    history = page.locator(".preset-versions")
    expect(history).to_contain_text("target_score: 500 → 300")
    expect(history).to_contain_text("nil: True → False")
    expect(history.locator(f'a[href="/admin/games/table/{table.pk}/change/"]')).to_be_visible()
    assert list(RulePreset.objects.filter(name=name).values_list("version", flat=True)) == [2, 1]
    assert axe_violations(page) == []
    shot(page, f"admin-preset-history-{size}")

    page.get_by_role("link", name="Compare v1 and v2").click()
    expect(page.locator("#preset-difference")).to_contain_text("target_score")
    page.get_by_label("Compare version").select_option("2")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#preset-difference")).to_have_text(
        f"No rule changed from {name} v2 to v2."
    )
    assert axe_violations(page) == []
    shot(page, f"admin-preset-compare-{size}")

    page.goto(f"/admin/games/table/?q={table.pk}")
    expect(page.locator(f'a[href="/tables/{table.pk}/watch/"]')).to_be_visible()
    assert axe_violations(page) == []
    shot(page, f"admin-tables-{size}")
