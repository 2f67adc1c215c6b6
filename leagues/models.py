"""Read models of leagues: every row here is derived from events or is a secret kept
beside them (pairing seeds until a round closes); the events are the record."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Competition(models.Model):
    """A competition as its last command left it (written with its events)."""

    id = models.UUIDField(primary_key=True)
    name = models.CharField(max_length=200, blank=True)
    kind = models.CharField(max_length=16, default="tournament")
    league_id = models.UUIDField(null=True, blank=True)
    season = models.CharField(max_length=64, null=True, blank=True)
    division = models.CharField(max_length=64, null=True, blank=True)
    organisers = models.JSONField(default=list)
    status = models.CharField(max_length=16, default="registration")
    version = models.PositiveIntegerField(default=0)
    # Entrants entered or invited (the entrants-per-organiser quota sums it).
    entrants = models.PositiveIntegerField(default=0)
    # When the round schedule must next look at it (a start time, a grace time's end).
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]


class League(models.Model):
    id = models.UUIDField(primary_key=True)
    name = models.CharField(max_length=200)
    organisers = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)


class PairingSecret(models.Model):
    """A round's pairing seed, secret until ``RoundClosed`` reveals it (never updated)."""

    competition_id = models.UUIDField()
    round = models.PositiveIntegerField()
    seed = models.CharField(max_length=128)
    commitment = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["competition_id", "round"], name="leagues_seed_once")
        ]


class BoardSecret(models.Model):
    """A duplicate round's board seed (the round seed every board derives from), secret
    until ``BoardsRevealed`` reveals it (never updated; ``leagues.services.duplicate``)."""

    competition_id = models.UUIDField()
    round = models.PositiveIntegerField()
    seed = models.CharField(max_length=128)
    commitment = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["competition_id", "round"], name="leagues_board_seed_once"
            )
        ]


class DuplicateRoundCheck(models.Model):
    """When the repair sweep next looks at a duplicate round (``leagues.services.
    duplicate_repair``): a par task or a tables' reveal that may have been lost. ``due_at``
    null: nothing to look at until an event of the round schedules it again. One row per
    duplicate round, written with its ``BoardsCommitted``."""

    competition_id = models.UUIDField()
    round = models.PositiveIntegerField()
    due_at = models.DateTimeField(null=True, db_index=True)
    # Sweeps that found something to resend; the sweep gives up after REPAIR_ATTEMPTS.
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["competition_id", "round"], name="leagues_duplicate_check_once"
            )
        ]


class CompetitionTable(models.Model):
    """Which table plays which match (written before the table's game starts)."""

    table_id = models.UUIDField(primary_key=True)
    competition_id = models.UUIDField(db_index=True)
    round = models.PositiveIntegerField()
    board = models.PositiveIntegerField()
    # Players of the entrants seated North-South and East-West (user ids as text).
    seated = models.JSONField(default=dict)


class PendingTableResult(models.Model):
    """A finished table's result the match-results projection saw, until it is appended
    to the competition's stream (a competition's pending results in one transaction,
    after the batch commits)."""

    table_id = models.UUIDField(primary_key=True)
    competition_id = models.UUIDField()
    round = models.PositiveIntegerField()
    board = models.PositiveIntegerField()
    result = models.JSONField()
    # When the table's deciding event was recorded (for the standings lag benchmark).
    finished_at = models.DateTimeField()
    attempts = models.PositiveIntegerField(default=0)
    problem = models.TextField(blank=True)


class PendingBoardResult(models.Model):
    """One board a duplicate table has finished (its hand scored there), seen by the
    board-ends projection, until every table of the round has finished that board and
    its results and ``BoardRevealed`` are appended together
    (``leagues.services.board_reveal``)."""

    table_id = models.UUIDField()
    board_number = models.PositiveIntegerField()
    competition_id = models.UUIDField()
    round = models.PositiveIntegerField()
    # The table's match number in the round (``CompetitionTable.board``).
    table = models.PositiveIntegerField()
    # The board as played there: bids, blind flags and tricks by seat, North first.
    played = models.JSONField()
    # When the board's last card was recorded at this table (the traveller lag's start).
    finished_at = models.DateTimeField()
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table_id", "board_number"], name="leagues_pending_board_once"
            )
        ]


class OfficialStandings(models.Model):
    """The standings projection: one document per competition."""

    competition_id = models.UUIDField(primary_key=True)
    version = models.PositiveIntegerField()
    document = models.JSONField()
    updated_at = models.DateTimeField(auto_now=True)


class RatedResult(models.Model):
    """A rated match one pool's ratings apply (superseded by a correction: skipped)."""

    pool = models.CharField(max_length=80)
    result_key = models.CharField(max_length=160)
    position = models.BigIntegerField()
    north_south = models.JSONField()
    east_west = models.JSONField()
    winner = models.CharField(max_length=16, null=True)
    superseded = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pool", "result_key"], name="leagues_rated_once")
        ]


class PlayerRating(models.Model):
    """A player's rating in one pool (``leagues.domain.pools``: ``site`` or a league's)."""

    pool = models.CharField(max_length=80)
    player = models.CharField(max_length=64)
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pool", "player"], name="leagues_rating_once")
        ]

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma


class RatingChange(models.Model):
    """One player's rating before and after one rated match of one pool: the rating
    history the ratings page charts, written by the ratings projection with the ratings
    (a correction's recompute rewrites its pool's history as it rewrites the ratings)."""

    pool = models.CharField(max_length=80)
    player = models.CharField(max_length=64)
    result_key = models.CharField(max_length=160)
    position = models.BigIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["pool", "player", "result_key"], name="leagues_rating_change_once"
            )
        ]
        indexes = [
            models.Index(fields=["pool", "player", "position"], name="leagues_rating_history")
        ]


class SkillRating(models.Model):
    """A player's duplicate skill (``leagues.core.duplicate.skill``, per player): ``mu`` in
    IMPs per board from the par level, ``sigma``, and the boards that moved it. Written by
    the ``league_duplicate_skill`` projection, apart from the openskill pools."""

    player = models.CharField(max_length=64, unique=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    boards = models.PositiveIntegerField(default=0)

    @property
    def conservative(self) -> float:
        return self.mu - 2.0 * self.sigma


class SkillChange(models.Model):
    """One player's duplicate skill before and after one board (the skill history), at the
    log position of the ``RoundClosed`` that let the round's boards teach."""

    player = models.CharField(max_length=64)
    board_key = models.CharField(max_length=80)  # "<competition>:<round>:<board>"
    position = models.BigIntegerField()
    board = models.PositiveIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "board_key"], name="leagues_skill_change_once"
            )
        ]
        indexes = [
            models.Index(fields=["player", "position", "board"], name="leagues_skill_history")
        ]


class CalendarFeed(models.Model):
    """A player's secret calendar address (``/api/calendar/<secret>.ics``), for calendar
    apps that subscribe without a token. Only the secret's SHA-256 digest is kept: the
    secret is shown once, when issued; issuing again replaces it, revoking deletes it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"calendar feed of user {self.user_id}"


class EntryLinkSecret(models.Model):
    """The secret of a live link into a competition: its invitation link (``link_id``
    the ``EntryLinkIssued``'s) or a player's partner link (``link_id`` the
    ``PartnershipOpened``'s partnership id, ``player`` whose it is).

    The stream keeps only the digest (its events are public to auditors); this row lets
    the organiser, or the player, see the link again. Written in the transaction of its
    event, deleted when the link is revoked, replaced or used up. Read by nobody but the
    organisers and that player (``leagues.selectors.entry_links``).
    """

    competition_id = models.UUIDField(db_index=True)
    link_id = models.CharField(max_length=64, unique=True)
    player = models.CharField(max_length=32, blank=True, default="")
    secret = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"link {self.link_id} of competition {self.competition_id}"
