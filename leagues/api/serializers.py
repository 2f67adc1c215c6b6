"""The bodies of the leagues writes, as the OpenAPI schema shows them.

Each serializer declares the shape of one typed request of ``leagues.domain`` (its
fields, types, bounds and choices, from the domain's own constants) and hands the body
to that request's ``parse``: the domain checks it, once, and its refusals name the field
(400 ``invalid``, or the rule's own code). The serializers never validate a body
themselves, so the API and the competition file cannot drift apart on what is valid;
``tests/integration/leagues/test_schemathesis.py`` sends what the schema describes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.core.validators import RegexValidator
from rest_framework import serializers

from games.api.fields import RulesSpecField
from leagues.core.entrants import MAX_ID_LENGTH, MAX_RATING
from leagues.core.results import MAX_FIXED_HANDS, MAX_GAME_POINTS, MAX_MATCH_POINTS, SIDES
from leagues.core.stages import MAX_STAGES, MAX_SWISS_ROUNDS, STAGE_KINDS
from leagues.core.tiebreaks import MAX_TIEBREAKS, TIEBREAK_NAMES
from leagues.domain.decisions import (
    CompetitionSpec,
    CorrectionRequest,
    EntrantRequest,
    ForbiddenPairRequest,
    LinkSecretRequest,
    OverrideRequest,
    PairRequest,
    ProposalRequest,
    ReasonRequest,
    SubstitutionRequest,
    parse_result_request,
)
from leagues.domain.decisions.competition import (
    MAX_GRACE_MINUTES,
    MAX_LABEL,
    MAX_ORGANISERS,
    MAX_ROUND_STARTS,
)
from leagues.domain.decisions.duplicate import MAX_TABLE, BoardCorrectionRequest
from leagues.domain.decisions.pairing_control import MAX_OVERRIDE_MATCHES
from leagues.domain.decisions.results import FORFEIT_SIDES
from leagues.domain.entrant_import import MAX_IMPORT_BYTES
from leagues.domain.league import (
    MAX_DIVISION_NAME,
    MAX_DIVISIONS,
    MAX_MOVES,
    MAX_SEASON_NAME,
    LeagueSpec,
    SeasonRequest,
)
from leagues.domain.parsing import MAX_NAME, MAX_REASON, MAX_USERNAME, known_fields
from leagues.domain.settings import (
    BOT_LEVELS,
    DUPLICATE_MOVEMENTS,
    DUPLICATE_SCALES,
    KINDS,
    KNOCKOUT_SEEDINGS,
    MAX_BOARDS_PER_ROUND,
    MAX_PAR_PLAYS,
    ROUND_ROBIN_ORDERS,
)
from services.api.serializers import StrictSerializer

MAX_BOARD = 10_000
MAX_ROUND = 10_000
# A name shows in place of an id: something besides whitespace.
NAMED = RegexValidator(r"\S", "A name has a character besides spaces.")


def _user_id(**extra: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, help_text="A user id.", **extra)


def _id(what: str, **extra: Any) -> serializers.CharField:
    return serializers.CharField(min_length=1, max_length=MAX_ID_LENGTH, help_text=what, **extra)


class RequestSerializer(StrictSerializer):
    """A body's shape for the schema (closed: the domain refuses any other field);
    :meth:`parse` is the domain's parser of it."""

    # ``parse(body) -> typed request``: a classmethod of the request, or a function.
    parser: ClassVar[Callable[[object], Any]]

    @classmethod
    def parse(cls, body: object) -> Any:
        return cls.parser(body)


class EmptySerializer(RequestSerializer):
    """A write that takes no field: an empty object (or no body); anything in it is
    refused."""

    @classmethod
    def parse(cls, body: object) -> None:
        known_fields(body if isinstance(body, dict) else {}, ())


# ---------------------------------------------------------------- competitions


class StageSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=STAGE_KINDS)
    rounds = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_SWISS_ROUNDS, help_text="Swiss rounds."
    )
    advance = serializers.IntegerField(
        required=False, allow_null=True, min_value=2, max_value=4096, help_text="How many go on."
    )
    double = serializers.BooleanField(
        required=False, help_text="A double round robin, or a double-elimination knockout."
    )
    reset = serializers.BooleanField(
        required=False,
        help_text="A double-elimination knockout's grand-final reset (a second final when "
        "the losers' bracket champion wins the first).",
    )


class MatchPointsSerializer(StrictSerializer):
    """What a match is worth (win >= draw >= loss)."""

    win = serializers.IntegerField(required=False, min_value=0, max_value=MAX_MATCH_POINTS)
    draw = serializers.IntegerField(required=False, min_value=0, max_value=MAX_MATCH_POINTS)
    loss = serializers.IntegerField(required=False, min_value=0, max_value=MAX_MATCH_POINTS)
    bye = serializers.IntegerField(required=False, min_value=0, max_value=MAX_MATCH_POINTS)
    late_join = serializers.IntegerField(required=False, min_value=0, max_value=MAX_MATCH_POINTS)
    forfeit_loss = serializers.IntegerField(required=False, min_value=0, max_value=MAX_MATCH_POINTS)


class DuplicateSerializer(StrictSerializer):
    """A duplicate competition (docs/leagues.md, "Duplicate competitions")."""

    boards_per_round = serializers.IntegerField(min_value=1, max_value=MAX_BOARDS_PER_ROUND)
    movement = serializers.ChoiceField(choices=DUPLICATE_MOVEMENTS, required=False)
    scale = serializers.ChoiceField(choices=DUPLICATE_SCALES, required=False)
    par_plays = serializers.IntegerField(required=False, min_value=1, max_value=MAX_PAR_PLAYS)


class CompetitionSpecSerializer(RequestSerializer):
    """``POST /api/competitions``: a tournament or season (docs/leagues.md, "Settings")."""

    parser = CompetitionSpec.parse

    name = serializers.CharField(max_length=MAX_NAME, validators=[NAMED])
    kind = serializers.ChoiceField(choices=KINDS, required=False)
    stages = StageSerializer(
        many=True, required=False, min_length=1, max_length=MAX_STAGES, help_text="5 Swiss rounds."
    )
    match_points = MatchPointsSerializer(required=False)
    fixed_hands = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_FIXED_HANDS,
        help_text="A match is this many hands (null: a game to the rules' target).",
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAK_NAMES),
        required=False,
        max_length=MAX_TIEBREAKS,
    )
    round_robin_order = serializers.ChoiceField(choices=ROUND_ROBIN_ORDERS, required=False)
    knockout_seeding = serializers.ChoiceField(choices=KNOCKOUT_SEEDINGS, required=False)
    registration_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    late_join_until_round = serializers.IntegerField(required=False, min_value=0, max_value=64)
    check_in = serializers.BooleanField(required=False)
    round_starts = serializers.ListField(
        child=serializers.DateTimeField(allow_null=True),
        required=False,
        max_length=MAX_ROUND_STARTS,
        help_text="When each round opens (null: by an organiser).",
    )
    grace_minutes = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_GRACE_MINUTES
    )
    bots_for_no_shows = serializers.BooleanField(required=False)
    bot_level = serializers.ChoiceField(
        choices=BOT_LEVELS,
        required=False,
        allow_null=True,
        help_text="Bots play every seat (counts against your all-bot table quota).",
    )
    spectator_delay_tricks = serializers.IntegerField(required=False, min_value=0, max_value=13)
    league_id = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=MAX_LABEL,
        help_text="A league you organise.",
    )
    season = serializers.CharField(required=False, allow_null=True, max_length=MAX_LABEL)
    division = serializers.CharField(required=False, allow_null=True, max_length=MAX_LABEL)
    rules = RulesSpecField(required=False, help_text='A preset name or {"preset": NAME, ...}.')
    organisers = serializers.ListField(child=_user_id(), required=False, max_length=MAX_ORGANISERS)
    duplicate = DuplicateSerializer(
        required=False,
        allow_null=True,
        help_text="Every table of a round deals the round's boards (null: not duplicate).",
    )


# ---------------------------------------------------------------- registration


class EntrantRequestSerializer(RequestSerializer):
    """A partnership: ``players`` (two user ids) or ``usernames`` (two usernames)."""

    parser = EntrantRequest.parse

    entrant_id = _id("The entrant's id in this competition.")
    players = serializers.ListField(
        child=_user_id(), required=False, min_length=2, max_length=2, help_text="Or usernames."
    )
    usernames = serializers.ListField(
        child=serializers.CharField(max_length=MAX_USERNAME, validators=[NAMED]),
        required=False,
        min_length=2,
        max_length=2,
        help_text="Or players.",
    )
    reserve = _user_id(required=False, allow_null=True)
    name = serializers.CharField(required=False, allow_blank=True, max_length=MAX_NAME)
    rating = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=-MAX_RATING,
        max_value=MAX_RATING,
        help_text="Seed rating (null: from the ratings).",
    )


class ProposalRequestSerializer(RequestSerializer):
    parser = ProposalRequest.parse

    partner = _user_id()
    name = serializers.CharField(required=False, allow_blank=True, max_length=MAX_NAME)


class SubstitutionRequestSerializer(RequestSerializer):
    """``player_in`` (a user id) or ``username_in`` plays for ``player_out``."""

    parser = SubstitutionRequest.parse

    player_out = _user_id()
    player_in = _user_id(required=False)
    username_in = serializers.CharField(required=False, max_length=MAX_USERNAME, validators=[NAMED])


class ReasonRequestSerializer(RequestSerializer):
    parser = ReasonRequest.parse

    reason = serializers.CharField(required=False, allow_blank=True, max_length=MAX_REASON)


class LinkSecretRequestSerializer(RequestSerializer):
    parser = LinkSecretRequest.parse

    secret = serializers.CharField(
        max_length=128, help_text="The text after '#link=' or '#partner='."
    )


# ---------------------------------------------------------------- rounds and results


class PairRequestSerializer(RequestSerializer):
    parser = PairRequest.parse

    round = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_ROUND,
        help_text="The round to pair: idempotent (that round if it is paired).",
    )


class ForbiddenPairSerializer(RequestSerializer):
    parser = ForbiddenPairRequest.parse

    entrants = serializers.ListField(
        child=_id("An entrant id."),
        min_length=2,
        max_length=2,
        help_text="The two entrants (ids) to keep apart, or to let meet again.",
    )
    reason = serializers.CharField(required=False, allow_blank=True, max_length=MAX_REASON)


class OverrideMatchSerializer(StrictSerializer):
    north_south = _id("The North-South entrant.")
    east_west = _id("The East-West entrant.")


class OverrideSerializer(RequestSerializer):
    """A round's pairing as the organiser writes it (boards in the order given)."""

    parser = OverrideRequest.parse

    matches = serializers.ListField(
        child=OverrideMatchSerializer(), min_length=1, max_length=MAX_OVERRIDE_MATCHES
    )
    byes = serializers.ListField(
        child=_id("The entrant with the bye."), required=False, max_length=1
    )
    reason = serializers.CharField(max_length=MAX_REASON, validators=[NAMED])


class PointsSerializer(StrictSerializer):
    north_south = serializers.IntegerField(min_value=-MAX_GAME_POINTS, max_value=MAX_GAME_POINTS)
    east_west = serializers.IntegerField(min_value=-MAX_GAME_POINTS, max_value=MAX_GAME_POINTS)


class ResultRequestSerializer(RequestSerializer):
    """A result (``points`` and ``winner``, or a ``scoresheet``), or a forfeit
    (``forfeited_by``, with ``no_show`` and ``reason``)."""

    parser = staticmethod(parse_result_request)

    board = serializers.IntegerField(min_value=1, max_value=MAX_BOARD)
    points = PointsSerializer(required=False)
    winner = serializers.ChoiceField(
        choices=SIDES, required=False, allow_null=True, help_text="null: a draw."
    )
    scoresheet = serializers.DictField(
        required=False, help_text='{"hands": [...]} (docs/formats.md).'
    )
    forfeited_by = serializers.ChoiceField(choices=FORFEIT_SIDES, required=False)
    no_show = serializers.BooleanField(required=False)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=MAX_REASON)


class CorrectionRequestSerializer(RequestSerializer):
    parser = CorrectionRequest.parse

    reason = serializers.CharField(max_length=MAX_REASON, validators=[NAMED])
    points = PointsSerializer(required=False)
    winner = serializers.ChoiceField(choices=SIDES, required=False, allow_null=True)
    forfeited_by = serializers.ChoiceField(choices=FORFEIT_SIDES, required=False)


# ---------------------------------------------------------------- leagues


class LeagueSpecSerializer(RequestSerializer):
    parser = LeagueSpec.parse

    name = serializers.CharField(max_length=MAX_NAME, validators=[NAMED])
    organisers = serializers.ListField(child=_user_id(), required=False, max_length=MAX_ORGANISERS)


class PromotionSerializer(StrictSerializer):
    # "from" is a Python keyword: the field is named in ``get_fields``.
    up = serializers.IntegerField(required=False, min_value=0, max_value=MAX_MOVES)
    down = serializers.IntegerField(required=False, min_value=0, max_value=MAX_MOVES)

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["from"] = serializers.CharField(help_text="An earlier season of this league.")
        return fields


class SeasonRequestSerializer(RequestSerializer):
    """A season: one competition per division, with ``competition``'s settings."""

    parser = SeasonRequest.parse

    season = serializers.CharField(max_length=MAX_SEASON_NAME, validators=[NAMED])
    divisions = serializers.ListField(
        child=serializers.CharField(max_length=MAX_DIVISION_NAME),
        required=False,
        min_length=1,
        max_length=MAX_DIVISIONS,
    )
    competition = serializers.DictField(
        required=False, help_text="A competition's settings (POST /api/competitions)."
    )
    promote = PromotionSerializer(required=False)


class EntrantImportSerializer(serializers.Serializer[Any]):
    """An organiser's CSV of entrants (or send the file itself as ``text/csv``): a header
    naming ``player1``, ``player2`` and optionally ``name`` and ``reserve``, then one
    entrant a line (usernames), at most 256 lines and 64 KiB."""

    csv = serializers.CharField(
        max_length=MAX_IMPORT_BYTES, trim_whitespace=False, help_text="The file's text."
    )


class LineRefusalSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField(help_text="The line of the file (the header is 1).")
    reason = serializers.CharField()


class EntrantImportRefusalSerializer(serializers.Serializer[Any]):
    """400 ``invalid_lines``: nothing was imported; each refused line and why."""

    code = serializers.CharField()
    message = serializers.CharField()
    lines = LineRefusalSerializer(many=True)


class EntrantImportResultSerializer(serializers.Serializer[Any]):
    imported = serializers.IntegerField(help_text="Entrants registered (each one invited).")
    competition = serializers.DictField(help_text="The competition's overview after it.")


# ---------------------------------------------------------------- duplicate


class BoardAgainSerializer(RequestSerializer):
    """Play this board again: the seat to take (the three others are computer players)."""

    seat = serializers.ChoiceField(choices=["north", "east", "south", "west"])

    @classmethod
    def parse(cls, body: object) -> Any:
        fields = body if isinstance(body, dict) else {}
        known_fields(fields, ("seat",))
        return fields.get("seat")


class BoardCorrectionSerializer(RequestSerializer):
    """An organiser's correction of one table's result on one board (docs/leagues.md,
    "Correcting a board")."""

    parser = BoardCorrectionRequest.parse

    table = serializers.IntegerField(
        min_value=1, max_value=MAX_TABLE, help_text="The table (its match's number)."
    )
    bids = serializers.DictField(
        help_text='By seat: a number from 0 to 13, "nil" or "blind_nil" (docs/formats.md).'
    )
    tricks = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=13),
        help_text="By seat, adding up to 13.",
    )
    reason = serializers.CharField(max_length=MAX_REASON, validators=[NAMED])
