"""The rule preset admin: one field per option, the engine's sentences, versions, usage."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.engine.rules import PRESETS, RULE_BOUNDS
from scoring.models import RulePreset
from scoring.services.presets import create_preset, edit_preset
from tests.factories import TableFactory
from tests.integration.leagues.builders import create_competition

pytestmark = pytest.mark.django_db

ADD = "/admin/scoring/rulepreset/add/"
COMPARE = "/admin/scoring/rulepreset/compare/"


def form_values(**changes: Any) -> dict[str, Any]:
    """What a browser posts for the Standard rules with ``changes`` (unticked boxes absent)."""
    rules = {**PRESETS["standard"].to_dict(), **changes}
    values: dict[str, Any] = {"name": "club", "description": "Friday nights"}
    for field, value in rules.items():
        if value is True:
            values[field] = "on"
        elif value is False or value is None:
            continue
        else:
            values[field] = str(value)
    return values


def change_url(preset: RulePreset) -> str:
    return f"/admin/scoring/rulepreset/{preset.pk}/change/"


def test_the_add_form_has_a_field_per_option_bounded_by_the_engine(admin_page: Client) -> None:
    html = admin_page.get(ADD).content.decode()

    assert 'name="rules"' not in html  # no JSON textarea any more
    assert re.search(r'<input type="checkbox" name="nil"[^>]*checked', html)
    assert re.search(r'<input type="checkbox" name="blind_nil"(?![^>]*checked)[^>]*>', html)
    assert '<select name="set_penalty"' in html and '<select name="first_lead"' in html
    for field, (low, high, _) in RULE_BOUNDS.items():
        tag = re.search(rf'<input type="number" name="{field}"[^>]*>', html)
        assert tag is not None, field
        assert f'min="{low}"' in tag.group(0) and f'max="{high}"' in tag.group(0)


def test_saving_the_fields_creates_version_one(admin_page: Client, staff: Any) -> None:
    response = admin_page.post(ADD, form_values(target_score=300, lose_score=-250, nil=False))

    assert response.status_code == 302, response.content.decode()[:2000]
    saved = RulePreset.objects.get(name="club")
    assert saved.version == 1
    assert saved.created_by == staff
    assert saved.rules == {
        **PRESETS["standard"].to_dict(),
        "target_score": 300,
        "lose_score": -250,
        "nil": False,
    }


def test_a_bad_combination_shows_the_engines_sentence_and_saves_nothing(
    admin_page: Client,
) -> None:
    response = admin_page.post(ADD, form_values(nil=False, blind_nil=True))

    assert response.status_code == 200
    assert "Blind nil needs nil: turn nil on, or blind nil off." in response.content.decode()
    assert not RulePreset.objects.filter(name="club").exists()


def test_a_number_beyond_its_bound_is_refused_with_the_reason(admin_page: Client) -> None:
    response = admin_page.post(ADD, form_values(target_score=10_001))

    assert response.status_code == 200
    assert (
        "Target score must be at most 10,000 (twenty times the standard 500), not 10001."
        in response.content.decode()
    )
    assert not RulePreset.objects.filter(name="club").exists()


def test_editing_adds_a_version_and_pinned_tables_keep_theirs(admin_page: Client) -> None:
    first = create_preset("club", {}, description="Friday nights")
    pinned = TableFactory(rules="club")

    response = admin_page.post(change_url(first), form_values(target_score=250))

    assert response.status_code == 302
    versions = list(RulePreset.objects.filter(name="club").order_by("version"))
    assert [(v.version, v.rules["target_score"]) for v in versions] == [(1, 500), (2, 250)]
    pinned.refresh_from_db()
    assert (pinned.preset_version, pinned.rules["target_score"]) == (1, 500)
    assert TableFactory(rules="club").preset_version == 2


def test_save_and_continue_goes_on_with_the_new_version(admin_page: Client) -> None:
    first = create_preset("club", {})

    response = admin_page.post(change_url(first), {**form_values(), "_continue": "1"})

    second = RulePreset.objects.get(name="club", version=2)
    assert response.status_code == 302
    assert response["Location"] == change_url(second)


def test_an_older_versions_page_says_which_is_newest(admin_page: Client) -> None:
    first = create_preset("club", {})
    second = edit_preset("club", {"target_score": 300})

    older = admin_page.get(change_url(first)).content.decode()
    newest = admin_page.get(change_url(second)).content.decode()

    assert "This is version 1; the newest is" in older
    assert "Saving this form makes version 3" in older
    assert "the newest is" not in newest


def test_the_change_form_shows_the_version_and_its_history_with_usage(
    admin_page: Client, staff: Any
) -> None:
    create_preset("club", {})
    second = edit_preset("club", {"target_score": 300, "bag_penalty": False})
    table = TableFactory(rules="club")
    competition = create_competition(staff, {"name": "Autumn cup", "rules": "club"})

    html = admin_page.get(change_url(second)).content.decode()

    assert 'name="target_score" value="300"' in html
    assert re.search(r'<input type="checkbox" name="bag_penalty"(?![^>]*checked)[^>]*>', html)
    history = html[html.index('class="preset-versions"') :]
    assert "<code>target_score</code>: 500 &rarr; 300" in history
    assert "<code>bag_penalty</code>: True &rarr; False" in history
    assert "first version" in history
    assert f'href="{COMPARE}?name=club&amp;from=1&amp;to=2"' in history
    assert "<form" not in history  # it sits inside the change form: no nested form
    assert f"/admin/games/table/{table.pk}/change/" in history
    # Like a table, a competition links to its admin page (its events), not to raw JSON.
    assert f"/admin/leagues/competition/{competition.competition_id}/change/" in history
    assert "Autumn cup" in history


def test_compare_two_versions_lists_each_changed_option(admin_page: Client) -> None:
    create_preset("club", {})
    edit_preset("club", {"target_score": 300})
    edit_preset("club", {"first_lead": "two_of_clubs", "target_score": 300})

    response = admin_page.get(COMPARE, {"name": "club", "from": "1", "to": "3"})

    assert response.status_code == 200
    table = response.content.decode().split('id="preset-difference"')[1].split("</table>")[0]
    rows = re.findall(r"<code>(\w+)</code></th><td>([^<]*)</td><td>([^<]*)</td>", table)
    assert rows == [
        ("target_score", "500", "300"),
        ("first_lead", "left_of_dealer", "two_of_clubs"),
    ]


def test_compare_with_a_missing_version_is_a_404_naming_the_versions(admin_page: Client) -> None:
    create_preset("club", {})

    for query in ({"name": "club", "from": "1", "to": "9"}, {"name": "club", "from": "x"}):
        response = admin_page.get(COMPARE, query)
        assert response.status_code == 404
        assert "its versions: v1" in response.content.decode()


def test_compare_needs_staff(client: Client) -> None:
    response = client.get(COMPARE, {"name": "standard", "from": "1", "to": "1"})

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_the_list_shows_changes_and_tables_pinned(admin_page: Client) -> None:
    create_preset("club", {})
    edit_preset("club", {"nil_points": 50})
    TableFactory(rules="club")

    html = admin_page.get("/admin/scoring/rulepreset/", {"name": "club"}).content.decode()

    assert "nil_points: 100 -&gt; 50" in html
    assert "first version" in html
    assert re.search(r'class="field-in_use">1<', html)
