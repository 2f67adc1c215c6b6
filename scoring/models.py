"""Models of the scoring app: rule presets as versioned data, and the score ledger projection.

The pure scoring math lives in ``scoring.core`` and imports nothing from Django.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class RulePreset(models.Model):
    """One version of a named rules preset. Rows are never updated: an edit adds a version."""

    name = models.SlugField(max_length=100)
    version = models.PositiveIntegerField()
    rules = models.JSONField(help_text="Every rules field (games.engine.rules.Rules.to_dict()).")
    description = models.TextField(blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["name", "version"], name="rulepreset_name_version")
        ]

    def __str__(self) -> str:
        return f"{self.name} v{self.version}"


class LedgerHand(models.Model):
    """One scored hand of one table: both teams' breakdowns and the running totals after it.

    Built by the ``score_ledger`` projection from the table's events; dropped and rebuilt
    by ``manage.py rebuild_projections``.
    """

    table_id = models.UUIDField(db_index=True)
    hand_number = models.PositiveIntegerField()
    bids = models.JSONField()
    tricks = models.JSONField()
    # {"north_south": {"hand_score", "total", "bags", "breakdown"}, "east_west": {...}}
    teams = models.JSONField()
    # 64-bit: rule values are bounded (games.engine.rules), so no game can overflow these.
    total_north_south = models.BigIntegerField()
    total_east_west = models.BigIntegerField()
    bags_north_south = models.BigIntegerField()
    bags_east_west = models.BigIntegerField()
    winner = models.CharField(max_length=16, null=True, blank=True)
    event_version = models.PositiveIntegerField(help_text="The stream version that ended it.")

    class Meta:
        ordering = ["table_id", "hand_number"]
        constraints = [
            models.UniqueConstraint(fields=["table_id", "hand_number"], name="ledgerhand_unique")
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} hand {self.hand_number}"
