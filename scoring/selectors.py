"""Reading presets for the scoring endpoints (the queries the views do not write)."""

from __future__ import annotations

from django.db.models import QuerySet

from scoring.models import RulePreset


def _versions(name: str) -> QuerySet[RulePreset]:
    return RulePreset.objects.filter(name=name).select_related("created_by")


def newest_presets() -> QuerySet[RulePreset]:
    """Every preset at its newest version, by name."""
    return (
        RulePreset.objects.select_related("created_by")
        .order_by("name", "-version")
        .distinct("name")
    )


def preset_exists(name: str) -> bool:
    """Whether a preset called ``name`` has any stored version."""
    return _versions(name).exists()


def preset_versions(name: str) -> list[RulePreset]:
    """Every stored version of the preset, oldest first (empty when there is none)."""
    return list(_versions(name).order_by("version"))
