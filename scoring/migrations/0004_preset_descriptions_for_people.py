"""Reword the built-in presets' descriptions for the person choosing rules.

Only a description still worded as 0002 seeded it changes (an admin's own wording stays);
every version carrying it changes, since an edit copies the description forward. The
rules themselves are untouched.
"""

from django.db import migrations

SEEDED = {
    "standard": "The seed rules' defaults: game to 500, nil 100, set loses 10 x bid, bags.",
    "easy": "No nil, a set scores 0, game to 200.",
    "bicycle": "Standard, but a set team scores 0 instead of losing 10 x bid.",
}

WORDED = {
    "standard": (
        "The usual rules: game to 500, nil wins or loses 100, a team that falls short of "
        "its bid loses 10 points a trick bid, and every 10 bags cost 100."
    ),
    "easy": (
        "For a first game: no nil bids, a team that falls short of its bid scores 0, game to 200."
    ),
    "bicycle": (
        "The usual rules, except that a team that falls short of its bid scores 0 "
        "instead of losing 10 points a trick bid."
    ),
}


def _replace(apps, old, new):
    RulePreset = apps.get_model("scoring", "RulePreset")
    for name in WORDED:
        RulePreset.objects.filter(name=name, description=old[name]).update(description=new[name])


def reword(apps, schema_editor):
    _replace(apps, SEEDED, WORDED)


def restore(apps, schema_editor):
    _replace(apps, WORDED, SEEDED)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0003_ledger_totals_bigint")]

    operations = [migrations.RunPython(reword, restore)]
