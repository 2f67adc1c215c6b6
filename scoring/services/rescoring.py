"""Rescoring stored games under other rules, computed from their events; nothing is written.

The games are read back as game records (``games.engine.record.record_from_game``, the
export format) and every complete hand is re-played under the other rules with the
engine's own move functions, as ``manage.py replay --rules`` does.  Where replay stops at
the first action the other rules forbid, the platform keeps going: such actions are
*flagged* (hand, action, position, seat, card and the engine's sentence) and the hand is
still scored from what was actually bid and taken, so a whole season can be compared
under a proposed preset without any game disappearing from the result.  Tricks do not
depend on the rules (only which cards were allowed does), so the scores stay exact.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.engine.bidding import bid_label, place_bid
from games.engine.cards import card_name
from games.engine.errors import IllegalMove
from games.engine.game import Game
from games.engine.hand import COMPLETE, PASSING, HandState, new_hand
from games.engine.passing import pass_cards
from games.engine.play import play_card
from games.engine.record import parse_record, record_from_game
from games.engine.rules import Rules, RulesError
from games.engine.seats import SEAT_NAMES, TEAM_NAMES
from games.services.errors import CommandRejected
from games.services.table_state import parse_table_id, reading_state
from scoring.core.ledger import Ledger
from scoring.services.presets import resolve

MAX_TABLES = 500


def _flag(hand: HandState, action: str, error: IllegalMove, **where: Any) -> dict[str, Any]:
    flag = {"hand": hand.hand_number, "action": action, "code": error.code}
    flag.update({key: value for key, value in where.items() if value is not None})
    flag["reason"] = error.message
    return flag


def _check_hand(rules: Rules, played: HandState, totals: tuple[int, int]) -> dict[str, Any] | None:
    """The first action of ``played`` that ``rules`` forbid (None when all are allowed)."""
    hand = new_hand(rules, played.dealt, played.dealer, played.hand_number, totals)
    for index in range(1, 5):
        seat = hand.turn
        tricks, blind = played.bids[seat], played.blind[seat]
        try:
            place_bid(hand, seat, tricks, blind)
        except IllegalMove as error:
            return _flag(
                hand, "bid", error, index=index, seat=SEAT_NAMES[seat], bid=bid_label(tricks, blind)
            )
    for seat in range(4):
        given = played.passes[seat]
        if not given:
            continue
        cards = [card for card in range(52) if given >> card & 1]
        try:
            pass_cards(hand, seat, cards)
        except IllegalMove as error:
            return _flag(hand, "pass", error, seat=SEAT_NAMES[seat])
    if hand.phase == PASSING:
        return _flag(
            hand, "pass", IllegalMove("pass_missing", "Cards were not passed under these rules.")
        )
    for index, card in enumerate(played.plays, start=1):
        seat = hand.turn
        try:
            play_card(hand, seat, card)
        except IllegalMove as error:
            return _flag(
                hand, "play", error, index=index, seat=SEAT_NAMES[seat], card=card_name(card)
            )
    return None


def rescore_game(game: Game, rules: Rules) -> dict[str, Any]:
    """The ledger of ``game``'s complete hands under ``rules``, with forbidden actions flagged."""
    # Through the record, exactly as an export would be read back.
    record = parse_record(record_from_game(game)) if any_complete(game) else None
    ledger = Ledger(rules)
    flags: list[dict[str, Any]] = []
    hands: list[dict[str, Any]] = []
    after_end = 0
    played_hands = [hand for hand in game.hands if hand.phase == COMPLETE]
    if record is not None:
        assert len(record.hands) == len(played_hands)
    for played in played_hands:
        if ledger.finished:
            after_end += 1
            continue
        totals = (ledger.totals[0], ledger.totals[1])
        flag = _check_hand(rules, played, totals)
        if flag is not None:
            flags.append(flag)
        result = ledger.record_hand(played.bids, played.blind, played.tricks_won)
        hands.append(
            {
                "hand_number": played.hand_number,
                "bids": {
                    SEAT_NAMES[s]: bid_label(played.bids[s], played.blind[s]) for s in range(4)
                },
                "tricks": {SEAT_NAMES[s]: played.tricks_won[s] for s in range(4)},
                **result.as_dict(),
                "flagged": flag is not None,
            }
        )
    summary = ledger.summary()
    return {
        "hands": hands,
        "totals": summary["totals"],
        "bags": {TEAM_NAMES[t]: ledger.bags[t] for t in (0, 1)},
        "winner": summary["winner"],
        "finished_after_hand": summary["finished_after_hand"],
        "hands_after_end": after_end,
        "flags": flags,
    }


def any_complete(game: Game) -> bool:
    """Whether ``game`` has at least one complete hand."""
    return any(hand.phase == COMPLETE for hand in game.hands)


def rescore(table_ids: Iterable[object], rules_spec: object) -> list[dict[str, Any]]:
    """Each table's ledger under ``rules_spec`` (preset name or ``{"preset": ..., ...}``).

    Reads the stored events only; writes nothing.  Raises :class:`CommandRejected`: 400
    for bad rules or too many tables, 404 for an unknown table.
    """
    try:
        resolved = resolve(rules_spec)
    except RulesError as error:
        raise CommandRejected("bad_rules", str(error)) from None
    ids = [parse_table_id(table_id) for table_id in table_ids]
    if len(ids) > MAX_TABLES:
        raise CommandRejected("too_many_tables", f"Rescore at most {MAX_TABLES} tables at once.")
    results = []
    for table_id in ids:
        with reading_state(table_id) as state:
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
