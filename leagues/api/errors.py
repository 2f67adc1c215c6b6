"""League refusals as API problems: the one mapping from LeagueError to HTTP."""

from __future__ import annotations

from rest_framework.response import Response

from games.api.errors import problem_for
from games.engine.rule_words import in_words
from leagues.core.errors import LeagueError
from services.api.errors import ApiProblem, ProblemHandlingMixin

FORBIDDEN = {
    "not_organiser",
    "not_your_proposal",
    "not_league_organiser",
    "not_invited",
    "not_in_match",
    "entry_link_closed",
    "partner_link_closed",
}
UNAUTHENTICATED = {"not_signed_in"}
# The quotas (leagues.services.quotas): 429, as the tables' quotas answer.
TOO_MANY = {
    "too_many_competitions",
    "too_many_entrants",
    "too_many_bot_tables",
    "too_many_proposals",
    "too_many_forbidden_pairs",
}
NOT_FOUND = {
    "unknown_competition",
    "unknown_entrant",
    "unknown_round",
    "unknown_result",
    "unknown_proposal",
    "unknown_player",
    "unknown_league",
    "unknown_calendar",
    "not_in_competition",
    "unknown_board",
    "not_duplicate",
    "unknown_table",
    "unknown_par",
}
CONFLICT = {
    "round_not_closed",
    "match_not_in_play",
    "round_started",
    "round_closed",
    "registration_closed",
    "late_join_closed",
    "competition_finished",
    "stage_not_advanced",
    "stage_not_complete",
    "already_withdrawn",
    "already_checked_in",
    "duplicate_entrant",
    "competition_exists",
    "round_not_started",
    "already_arrived",
    "no_show_recorded",
    "bots_play",
    "already_accepted",
    "not_entered",
    "entered",
    "already_confirmed",
    "nothing_to_confirm",
    "played_after_withdrawal",
    "already_forbidden",
    "not_forbidden",
    "round_has_results",
    "no_entry_link",
    "board_open",
    "par_version_gone",
    "par_mismatch",
    "no_change",
}


def status_of(error: LeagueError) -> int:
    if error.code in FORBIDDEN:
        return 403
    if error.code in UNAUTHENTICATED:
        return 401
    if error.code in NOT_FOUND:
        return 404
    if error.code in CONFLICT:
        return 409
    if error.code in TOO_MANY:
        return 429
    return 400


class LeagueErrorsMixin(ProblemHandlingMixin):
    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, LeagueError):
            # Pages show the message to organisers and players: in words, not field names.
            exc = ApiProblem(
                status_code=status_of(exc), code=exc.code, message=in_words(exc.message)
            )
        else:
            exc = problem_for(exc) or exc
        return super().handle_exception(exc)  # type: ignore[misc]
