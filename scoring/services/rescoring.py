"""Rescoring stored games under other rules, computed from their events; nothing is written.

Every complete hand is re-played under the other rules with the engine's own move
functions, as ``manage.py replay --rules`` does (``scoring.core.replay.rescore_hands``).
Where that command stops at the first action the other rules forbid, the platform keeps
going (``ReplayMode.FLAG_AND_GO_ON``): such actions are *flagged* (hand, action, position,
seat, card and the engine's sentence) and the hand is still scored from what was actually
bid and taken, so a whole season can be compared under a proposed preset without any game
disappearing from the result.  Tricks do not depend on the rules (only which cards were
allowed does), so the scores stay exact.  Each table's answer says whether it is
*comparable* under the other rules (``scoring.core.replay.comparability``: not when a move
it played would be refused under them), the verdict the standings' what-if applies to
the same table.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.engine.cards import card_name
from games.engine.hand_summary import hand_summary
from games.engine.replay import PASS_MISSING, Refusal
from games.engine.rule_words import in_words
from games.engine.rules import Rules, RulesError
from games.engine.seats import SEAT_NAMES, TEAM_NAMES
from games.selectors.visibility import shown_state
from games.services.errors import CommandRejected
from games.services.table_state import parse_table_id
from scoring.core.game import Game
from scoring.core.replay import ReplayMode, comparability, rescore_hands
from scoring.services.presets import resolve

MAX_TABLES = 500
# The flag of a blind nil pass that the other rules would have required.
PASS_MISSING_REASON = "Cards were not passed under these rules."


def _flag(refusal: Refusal) -> dict[str, Any]:
    flag: dict[str, Any] = {"hand": refusal.hand, "action": refusal.action, "code": refusal.code}
    if refusal.code == PASS_MISSING:
        flag["reason"] = PASS_MISSING_REASON
        return flag
    where = {
        "index": refusal.index,
        "seat": None if refusal.seat is None else SEAT_NAMES[refusal.seat],
        "bid": refusal.bid,
        "card": None if refusal.card is None else card_name(refusal.card),
    }
    flag.update({key: value for key, value in where.items() if value is not None})
    flag["reason"] = refusal.reason
    return flag


def rescore_game(game: Game, rules: Rules) -> dict[str, Any]:
    """The ledger of ``game``'s complete hands under ``rules``, with forbidden actions flagged."""
    replay = rescore_hands(game.hands, rules, ReplayMode.FLAG_AND_GO_ON)
    verdict = comparability(replay)
    flags = {refusal.hand: _flag(refusal) for refusal in replay.refusals}
    ledger = replay.game.ledger
    hands: list[dict[str, Any]] = []
    for played, result in zip(replay.game.hands, ledger.hands, strict=True):
        summary = hand_summary(played)
        hands.append(
            {
                "hand_number": played.hand_number,
                "bids": summary.bids,
                "tricks": summary.tricks,
                **result.as_dict(),
                "flagged": played.hand_number in flags,
            }
        )
    totals = ledger.summary()
    return {
        "hands": hands,
        "totals": totals["totals"],
        "bags": {TEAM_NAMES[t]: ledger.bags[t] for t in (0, 1)},
        "winner": totals["winner"],
        "finished_after_hand": totals["finished_after_hand"],
        "hands_after_end": replay.hands_after_end,
        "flags": list(flags.values()),
        "comparable": verdict.comparable,
        "reason": verdict.reason,
    }


def rescore(
    table_ids: Iterable[object], rules_spec: object, viewer: Any = None
) -> list[dict[str, Any]]:
    """Each table's ledger under ``rules_spec`` (preset name or ``{"preset": ..., ...}``),
    of the hands ``viewer`` may see (``games.selectors.visibility.shown_state``: a spectator
    of a table behind a spectator delay, as ``None`` is, gets the hands over in its prefix).

    Reads the stored events only; writes nothing.  Raises :class:`CommandRejected`: 400
    for bad rules or too many tables, 404 for an unknown table.
    """
    try:
        resolved = resolve(rules_spec)
    except RulesError as error:
        raise CommandRejected("bad_rules", in_words(str(error))) from None
    ids = [parse_table_id(table_id) for table_id in table_ids]
    if len(ids) > MAX_TABLES:
        raise CommandRejected("too_many_tables", f"Rescore at most {MAX_TABLES} tables at once.")
    results = []
    for table_id in ids:
        with shown_state(table_id, viewer) as state:
            if state.game is None:
                scored = rescore_game(Game(resolved.rules), resolved.rules)
                original: dict[str, Any] = {"totals": {"north_south": 0, "east_west": 0}}
                original["winner"] = None
            else:
                scored = rescore_game(state.game, resolved.rules)
                own = state.game.ledger.summary()
                original = {"totals": own["totals"], "winner": own["winner"]}
            results.append(
                {
                    "table_id": str(table_id),
                    "rules": resolved.rules.to_dict(),
                    "preset": {"name": resolved.preset_name, "version": resolved.preset_version},
                    **scored,
                    "original": original,
                }
            )
    return results
