"""Requests in, events out: every rule a competition's organiser or player can break.

Each ``decide_*`` function takes the folded :class:`~leagues.domain.state.CompetitionState`
and a request (a typed value parsed at the edge: :class:`CompetitionSpec`,
:class:`EntrantRequest`, ...), and returns the events to append, or raises
:class:`~leagues.core.errors.LeagueError` (nothing is written). Times come in as
arguments, so the rules are testable without a clock. One module per concept:

- :mod:`.competition`: the competition's spec and settings (create);
- :mod:`.registration`: register, invite, accept, decline, leave, propose, confirm,
  withdraw, late join, substitute, check in;
- :mod:`.links`: the invitation link and each player's partner link;
- :mod:`.rounds`: pair, start, arrive, no-show;
- :mod:`.results`: result, confirm, forfeit, correct, advance, finish;
- :mod:`.pairing_control`: forbidden pairs, a round's pairing overridden.
"""

from .competition import CompetitionSpec, decide_create
from .guards import known_entrant, paired_round, require, require_organiser
from .links import (
    LinkSecretRequest,
    decide_issue_link,
    decide_join_partnership,
    decide_open_partnership,
    decide_revoke_link,
    link_digest,
    secret_matches,
)
from .pairing_control import (
    ForbiddenPairRequest,
    OverrideRequest,
    decide_allow,
    decide_forbid,
    decide_override,
)
from .registration import (
    EntrantRequest,
    ProposalRequest,
    ReasonRequest,
    SubstitutionRequest,
    decide_accept,
    decide_check_in,
    decide_confirm,
    decide_decline,
    decide_late_join,
    decide_leave,
    decide_propose,
    decide_register,
    decide_substitute,
    decide_withdraw,
)
from .results import (
    CorrectionRequest,
    ForfeitRequest,
    ResultRequest,
    decide_advance,
    decide_confirm_result,
    decide_correct,
    decide_finish,
    decide_forfeit,
    decide_result,
    match_in_play,
    parse_result_request,
)
from .rounds import (
    NO_SHOW_BOT_LEVEL,
    PairRequest,
    board_of_player,
    decide_arrive,
    decide_no_show,
    decide_pair,
    decide_start,
)

__all__ = [
    "NO_SHOW_BOT_LEVEL",
    "CompetitionSpec",
    "CorrectionRequest",
    "EntrantRequest",
    "ForbiddenPairRequest",
    "ForfeitRequest",
    "OverrideRequest",
    "LinkSecretRequest",
    "PairRequest",
    "ProposalRequest",
    "ReasonRequest",
    "ResultRequest",
    "SubstitutionRequest",
    "board_of_player",
    "decide_accept",
    "decide_advance",
    "decide_allow",
    "decide_arrive",
    "decide_check_in",
    "decide_confirm",
    "decide_confirm_result",
    "decide_correct",
    "decide_create",
    "decide_decline",
    "decide_finish",
    "decide_forbid",
    "decide_issue_link",
    "decide_join_partnership",
    "decide_open_partnership",
    "decide_revoke_link",
    "decide_forfeit",
    "decide_late_join",
    "decide_leave",
    "decide_no_show",
    "decide_override",
    "decide_pair",
    "decide_propose",
    "decide_register",
    "decide_result",
    "decide_start",
    "decide_substitute",
    "decide_withdraw",
    "known_entrant",
    "link_digest",
    "match_in_play",
    "paired_round",
    "parse_result_request",
    "require",
    "require_organiser",
    "secret_matches",
]
