"""Reads about rule preset versions: their history, what changed between two, where each
is in use (tables and competitions pinned to it). Nothing here writes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count

from eventstore.erasable_store import texts_of
from eventstore.models import Event
from games.engine.rules import FIELD_NAMES
from games.models import Table
from scoring.models import RulePreset

# A competition pins its preset version in its creation event (leagues/domain/events.py:
# data["rules"] = {"preset", "version", "overrides", "snapshot"}). scoring
# may not import leagues (the "leagues-on-top" import contract), so the event's type and
# stream prefix are named here, as the event catalogue spells them.
COMPETITION_CREATED = "CompetitionCreated"
COMPETITION_STREAM_PREFIX = "competition-"

#: The most tables or competitions listed per version (the counts stay exact).
MAX_LISTED = 50


@dataclass(frozen=True)
class RuleChange:
    """One option that differs between two versions."""

    field: str
    old: Any
    new: Any


@dataclass(frozen=True)
class CompetitionPin:
    competition_id: str
    name: str


@dataclass
class VersionUsage:
    """One version of a preset, what changed from the one before, and who uses it."""

    preset: RulePreset
    changes: list[RuleChange]
    table_count: int = 0
    tables: list[Table] = field(default_factory=list)
    competitions: list[CompetitionPin] = field(default_factory=list)


def rule_changes(older: Mapping[str, Any], newer: Mapping[str, Any]) -> list[RuleChange]:
    """The options whose value differs, in the engine's field order."""
    return [
        RuleChange(name, older.get(name), newer.get(name))
        for name in FIELD_NAMES
        if older.get(name) != newer.get(name)
    ]


def version_of(name: str, version: int) -> RulePreset | None:
    return RulePreset.objects.filter(name=name, version=version).first()


def difference(name: str, older: int, newer: int) -> list[RuleChange] | None:
    """What changed from version ``older`` to ``newer`` of ``name``; None if one is missing."""
    rows = {
        row.version: row for row in RulePreset.objects.filter(name=name, version__in=[older, newer])
    }
    if older not in rows or newer not in rows:
        return None
    return rule_changes(rows[older].rules, rows[newer].rules)


def table_counts(name: str) -> dict[int, int]:
    """How many tables are pinned to each version of ``name``."""
    rows = (
        Table.objects.filter(preset_name=name, preset_version__isnull=False)
        .values("preset_version")
        .annotate(count=Count("id"))
    )
    return {row["preset_version"]: row["count"] for row in rows}


def tables_pinned(name: str, version: int, limit: int = MAX_LISTED) -> list[Table]:
    """The newest tables pinned to version ``version`` of ``name``."""
    query = Table.objects.filter(preset_name=name, preset_version=version)
    return list(query.order_by("-created_at")[:limit])


def competitions_pinned(name: str, limit: int = MAX_LISTED) -> dict[int, list[CompetitionPin]]:
    """The competitions pinned to each version of ``name`` (from their creation events)."""
    events = (
        Event.objects.filter(
            type=COMPETITION_CREATED,
            stream_id__startswith=COMPETITION_STREAM_PREFIX,
            data__rules__preset=name,
        )
        .order_by("-position")
        .values_list("stream_id", "data")[:limit]
    )
    rows = list(events)
    # A competition's name is kept by reference (eventstore.erasable): one query for all.
    names = texts_of(data.get("name", "") for _, data in rows)
    pinned: dict[int, list[CompetitionPin]] = {}
    for stream_id, data in rows:
        version = data.get("rules", {}).get("version")
        if isinstance(version, int):
            pin = CompetitionPin(
                stream_id[len(COMPETITION_STREAM_PREFIX) :], names(data.get("name", ""))
            )
            pinned.setdefault(version, []).append(pin)
    return pinned


def history(name: str) -> list[VersionUsage]:
    """Every version of ``name``, newest first, with its changes and where it is in use."""
    rows = list(
        RulePreset.objects.filter(name=name).order_by("version").select_related("created_by")
    )
    counts = table_counts(name)
    competitions = competitions_pinned(name)
    usages: list[VersionUsage] = []
    previous: Mapping[str, Any] | None = None
    for row in rows:
        usages.append(
            VersionUsage(
                preset=row,
                changes=[] if previous is None else rule_changes(previous, row.rules),
                table_count=counts.get(row.version, 0),
                tables=tables_pinned(name, row.version, limit=10)
                if counts.get(row.version)
                else [],
                competitions=competitions.get(row.version, []),
            )
        )
        previous = row.rules
    return list(reversed(usages))
