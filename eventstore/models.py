"""Django models over the event store's tables.

The events and stream-head tables are created by raw SQL in migration 0001 (identity
position, ``xid8`` transaction id, partial unique index, append-only trigger, grants) and
mapped here as unmanaged models for read-only ORM access (admin, ad-hoc queries). Being
unmanaged also keeps them out of Django's test ``flush`` (a TRUNCATE the trigger would
refuse). Appends go through :func:`eventstore.recorder.append` only.
"""

from __future__ import annotations

from django.contrib.postgres.fields import ArrayField
from django.db import models


class Event(models.Model):
    """One stored event (read-only; see eventstore.recorder.append)."""

    position = models.BigIntegerField(primary_key=True)
    stream_id = models.TextField()
    version = models.IntegerField()
    type = models.TextField()
    schema_version = models.IntegerField()
    data = models.JSONField()
    metadata = models.JSONField()
    command_id = models.TextField(null=True)
    recorded_at = models.DateTimeField()
    hash = models.CharField(max_length=64)
    prev_hash = models.CharField(max_length=64)

    class Meta:
        managed = False
        db_table = "eventstore_event"
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.stream_id}@{self.version} {self.type}"


class Stream(models.Model):
    """The head of one stream: its version and last hash (the append lock row)."""

    stream_id = models.TextField(primary_key=True)
    version = models.IntegerField()
    head_hash = models.CharField(max_length=64)
    updated_at = models.DateTimeField()

    class Meta:
        managed = False
        db_table = "eventstore_stream"

    def __str__(self) -> str:
        return f"{self.stream_id}@{self.version}"


class Checkpoint(models.Model):
    """How far a projection has read the global log: (transaction id, position)."""

    name = models.CharField(max_length=200, primary_key=True)
    last_tx_id = models.BigIntegerField(default=0)
    last_position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "eventstore_checkpoint"

    def __str__(self) -> str:
        return f"{self.name} @ ({self.last_tx_id}, {self.last_position})"


class BrokenStream(models.Model):
    """A stream a projection stopped following: the event it could not apply, and why.

    Written by ``eventstore.subscriptions`` in the batch's transaction; ``rebuild`` of the
    projection clears its rows.
    """

    projection = models.CharField(max_length=200)
    stream_id = models.CharField(max_length=200)
    event_version = models.PositiveIntegerField(help_text="The event that could not be applied.")
    event_position = models.BigIntegerField()
    reason = models.TextField()
    broken_at = models.DateTimeField()

    class Meta:
        db_table = "eventstore_brokenstream"
        ordering = ["projection", "stream_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["projection", "stream_id"], name="brokenstream_projection_stream"
            )
        ]

    def __str__(self) -> str:
        return f"{self.projection}: {self.stream_id}@{self.event_version}"


class ErasableTextRow(models.Model):
    """A text events refer to instead of holding (``eventstore.erasable``): erasing it
    clears ``text`` and ``salt`` and dates it, and no hash changes."""

    id = models.UUIDField(primary_key=True)
    text = models.TextField(blank=True)
    # 16 random bytes, hex: the event's digest is SHA-256(salt || text).
    salt = models.CharField(max_length=32, blank=True)
    # Who may have it erased: "user:<id>" (eventstore.erasable.user_subject).
    subjects = ArrayField(models.CharField(max_length=100))
    created_at = models.DateTimeField(auto_now_add=True)
    erased_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # Created in SQL (migration 0006, with its GIN index on subjects), unmanaged like
        # the events: a test flush must not remove texts that surviving events refer to.
        managed = False
        db_table = "eventstore_erasable_text"

    def __str__(self) -> str:
        return f"erasable text {self.id}{' (erased)' if self.erased_at else ''}"
