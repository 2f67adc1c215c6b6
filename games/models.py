"""Read models of the games app: the table row (updated with every append) and its secret.

The truth is the table's event stream (``eventstore``); :class:`Table` is a denormalised
copy the command services update in the same transaction as each append, so lists, bot
dispatch and timers can query it.  Never write it elsewhere.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from games.domain.streams import table_stream_id


class Table(models.Model):
    """One table's current state, as of stream ``version``."""

    STATUS_CHOICES = [
        ("lobby", "lobby"),
        ("playing", "playing"),
        ("finished", "finished"),
        ("abandoned", "abandoned"),
    ]

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default="lobby")
    rules = models.JSONField(help_text="The full rules snapshot the table was created with.")
    preset_name = models.CharField(max_length=100, null=True, blank=True)
    preset_version = models.PositiveIntegerField(null=True, blank=True)
    # [{"seat": "north", "kind": "human"|"bot", "level": ..., "user_id": ..., "username": ...,
    #   "controller": "human"|"bot"}, ...] in seat order.
    seats = models.JSONField(default=list)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    turn_timer_seconds = models.PositiveIntegerField(null=True, blank=True)
    # Spectators see the table this many completed tricks behind play (TableCreated's).
    spectator_delay_tricks = models.PositiveSmallIntegerField(default=0)
    # A table dealing a duplicate round's boards before its seed is revealed: spectators
    # are shown it as it was before the game started (games.domain.visibility).
    embargoed = models.BooleanField(default=False)
    hand_number = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=16, null=True, blank=True)
    # The seat the table waits for (0 north .. 3 west), who plays it, and at what level.
    seat_to_act = models.PositiveSmallIntegerField(null=True, blank=True)
    seat_to_act_kind = models.CharField(max_length=8, null=True, blank=True)
    seat_to_act_level = models.CharField(max_length=8, null=True, blank=True)
    # Every seat the table waits for (several while blind nil cards are passed).
    acting_seats = models.JSONField(default=list)
    due_since = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    totals = models.JSONField(default=dict)
    bags = models.JSONField(default=dict)
    winner = models.CharField(max_length=16, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "seat_to_act_kind"], name="games_table_acting"),
            models.Index(fields=["turn_deadline"], name="games_table_deadline"),
        ]

    def __str__(self) -> str:
        return f"table {self.id} ({self.status}, v{self.version})"

    @property
    def stream_id(self) -> str:
        """The id of this table's event stream."""
        return table_stream_id(self.id)


class TableSecret(models.Model):
    """The secret deal seed of a table's game, kept outside the stream until revealed.

    Written once when the game starts; the running role may only SELECT and INSERT it
    (migration 0002), so not even the application can swap a seed after committing to it.
    """

    table = models.OneToOneField(Table, primary_key=True, on_delete=models.PROTECT)
    seed = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_table_secret"

    def __str__(self) -> str:
        return f"secret of table {self.table_id}"


class SeatInvitation(models.Model):
    """The secret of a live invitation to a seat kept for a friend (``SeatReserved``).

    The stream keeps only its digest, since its events are public to auditors; this row
    lets the table's creator see the link again. Replaced when the creator issues a new
    invitation, deleted when they revoke it; written in the same transaction as the event.
    Read by nobody but the creator (``games.selectors.invitations``).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    seat = models.PositiveSmallIntegerField()
    secret = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "games_seat_invitation"
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="one_invitation_per_seat")
        ]

    def __str__(self) -> str:
        return f"invitation to seat {self.seat} of table {self.table_id}"
