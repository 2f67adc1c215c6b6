"""The built-in presets' descriptions read as sentences for a person (migration 0004)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from scoring.models import RulePreset
from scoring.services.presets import edit_preset

pytestmark = pytest.mark.django_db

reworded = importlib.import_module("scoring.migrations.0004_preset_descriptions_for_people")


def test_the_migrated_database_describes_the_presets_for_a_person() -> None:
    descriptions = dict(
        RulePreset.objects.filter(version=1, name__in=reworded.WORDED).values_list(
            "name", "description"
        )
    )

    assert descriptions == reworded.WORDED
    assert descriptions["standard"].startswith("The usual rules: game to 500")
    for text in descriptions.values():
        assert "seed" not in text and " x bid" not in text


def test_the_rewording_reaches_later_versions_and_spares_an_admins_own_words() -> None:
    RulePreset.objects.filter(name__in=reworded.SEEDED).update(description="placeholder")
    for name, text in reworded.SEEDED.items():
        RulePreset.objects.filter(name=name).update(description=text)
    edit_preset("standard", {"target_score": 400})  # copies the old wording forward
    edit_preset("easy", {"target_score": 150}, description="Our club's beginners' table.")

    reworded.reword(apps, None)

    standard = RulePreset.objects.filter(name="standard").order_by("version")
    assert {row.description for row in standard} == {reworded.WORDED["standard"]}
    easy = dict(RulePreset.objects.filter(name="easy").values_list("version", "description"))
    assert easy[1] == reworded.WORDED["easy"]
    assert easy[max(easy)] == "Our club's beginners' table."

    reworded.restore(apps, None)
    assert (
        RulePreset.objects.get(name="bicycle", version=1).description
        == (reworded.SEEDED["bicycle"])
    )
