"""Seed the built-in presets (standard, easy, bicycle) as version 1 of each."""

from django.db import migrations

from games.engine.rules import PRESETS

DESCRIPTIONS = {
    "standard": "The seed rules' defaults: game to 500, nil 100, set loses 10 x bid, bags.",
    "easy": "No nil, a set scores 0, game to 200.",
    "bicycle": "Standard, but a set team scores 0 instead of losing 10 x bid.",
}


def seed(apps, schema_editor):
    RulePreset = apps.get_model("scoring", "RulePreset")
    for name, rules in PRESETS.items():
        RulePreset.objects.get_or_create(
            name=name,
            version=1,
            defaults={"rules": rules.to_dict(), "description": DESCRIPTIONS.get(name, "")},
        )


def unseed(apps, schema_editor):
    RulePreset = apps.get_model("scoring", "RulePreset")
    RulePreset.objects.filter(name__in=list(PRESETS), version=1).delete()


class Migration(migrations.Migration):
    dependencies = [("scoring", "0001_initial")]

    operations = [migrations.RunPython(seed, unseed)]
