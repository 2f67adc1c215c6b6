"""Replaying a game record into a score ledger, under its own rules or re-scored under others.

:func:`replay_record` deals each recorded hand through :class:`~scoring.core.game.Game`
and plays it with :func:`games.engine.replay.replay_hand` (the engine's own move
functions), deriving tricks, trick winners and the ledger.  Under the record's own rules
the first action refused stops the replay with a :class:`~games.engine.record.RecordError`
that says where and why: without that action the tricks cannot be derived.

Re-scored under other rules (:func:`rescore_hands`, also how stored games are re-scored),
the hands are kept as they were played and only the ledger changes: tricks do not depend
on the rules, only which cards were allowed does.  An action the other rules forbid is
handled by the :class:`ReplayMode`: ``STOP_AT_FIRST_REFUSAL`` raises a
:class:`RescoringRefusal` (``manage.py replay --rules``), ``FLAG_AND_GO_ON`` notes it in
``Replay.refusals`` and still scores the hand from what was bid and taken (the rescoring
service, so a whole season can be compared under a proposed preset).  Hands after the
end of the re-scored game are counted in ``hands_after_end`` instead of scored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from games.engine.cards import card_name
from games.engine.errors import IllegalMove
from games.engine.hand import COMPLETE, HandState, new_hand
from games.engine.hand_summary import hand_summary
from games.engine.record import GameRecord, RecordError, parse_record, recorded_hand
from games.engine.replay import PASS_MISSING, Refusal, replay_hand
from games.engine.rules import Rules, RulesError, rules_from_spec, rules_name
from games.engine.seats import SEAT_NAMES

from .game import Game


class ReplayMode(Enum):
    """What re-scoring does with an action the other rules forbid."""

    STOP_AT_FIRST_REFUSAL = "stop"
    FLAG_AND_GO_ON = "flag"


class RescoringRefusal(RecordError):
    """An action of the record that only the re-scoring rules forbid."""

    rescoring = True

    def as_dict(self) -> dict[str, Any]:
        """As :meth:`RecordError.as_dict`, with ``"rescoring": true``."""
        return {**super().as_dict(), "rescoring": True}


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed record: the game as the engine rebuilt it, scored under ``rules``.

    ``hands_after_end`` counts the hands left unscored because, under re-scoring rules,
    the game was already over before them; ``refusals`` holds the actions flagged by
    ``ReplayMode.FLAG_AND_GO_ON`` (first one per hand).
    """

    rules: Rules
    game: Game
    hands_after_end: int = 0
    refusals: tuple[Refusal, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """``{"hands": [...], "totals", "winner", "finished_after_hand"}`` (docs/formats.md).

        Each hand is ``{"tricks", "trick_winners", "north_south", "east_west"}`` with the
        team objects of the scoresheet output.
        """
        summary = self.game.ledger.summary()
        hands = []
        for state, scored in zip(self.game.hands, summary["hands"], strict=True):
            hands.append(
                {
                    "tricks": hand_summary(state).tricks,
                    "trick_winners": [SEAT_NAMES[s] for s in state.trick_winners],
                    **scored,
                }
            )
        result: dict[str, Any] = {
            "hands": hands,
            "totals": summary["totals"],
            "winner": summary["winner"],
            "finished_after_hand": summary["finished_after_hand"],
        }
        if self.hands_after_end:
            result["hands_after_end"] = self.hands_after_end
        return result


@dataclass(frozen=True, slots=True)
class Comparability:
    """Whether a game rescored under other rules says what those rules make of it.

    The one what-if policy, for the replay page's rescoring and the standings' what-if
    alike: a game is *not comparable* under rules that would have refused a move it
    played (a nil bid where nil is off, a lead the other rules forbid...): the play
    itself would have been different, so its rescored ledger is a guess.  Rules that
    only score differently, or allow more (nil where it was off), leave it comparable.
    ``refused_hands`` are the hands with such a move, in order.
    """

    refused_hands: tuple[int, ...] = ()

    @property
    def comparable(self) -> bool:
        return not self.refused_hands

    @property
    def reason(self) -> str | None:
        """The sentence both surfaces show for a game that is not comparable."""
        hands = self.refused_hands
        if not hands:
            return None
        if len(hands) == 1:
            which = f"hand {hands[0]} has"
        else:
            which = f"hands {', '.join(map(str, hands[:-1]))} and {hands[-1]} have"
        return (
            f"Not comparable: {which} a move these rules refuse, so the play itself "
            "would have been different."
        )


def comparability(replay: Replay) -> Comparability:
    """The :class:`Comparability` of a replay rescored with ``ReplayMode.FLAG_AND_GO_ON``."""
    return Comparability(tuple(sorted({refusal.hand for refusal in replay.refusals})))


def replay_record(
    record: GameRecord,
    rules: Rules | None = None,
    mode: ReplayMode = ReplayMode.STOP_AT_FIRST_REFUSAL,
) -> Replay:
    """Replay ``record`` through the engine; with ``rules``, re-score it under those rules.

    The record is always checked under its own rules first (any refusal raises a
    :class:`RecordError`); with other ``rules`` its hands are then re-scored by
    :func:`rescore_hands` in ``mode``.
    """
    own = _replay_own(record)
    if rules is None or rules == record.rules:
        return own
    return rescore_hands(own.game.hands, rules, mode)


def replay_document(
    document: object,
    rules_spec: object = None,
    mode: ReplayMode = ReplayMode.STOP_AT_FIRST_REFUSAL,
) -> Replay:
    """Parse and replay a decoded JSON record; ``rules_spec`` as in ``rules_from_spec``."""
    record = parse_record(document)
    rules = None
    if rules_spec is not None:
        try:
            rules = rules_from_spec(rules_spec)
        except RulesError as error:
            raise RecordError(f"Re-scoring rules: {error}") from None
    return replay_record(record, rules, mode)


def rescore_hands(played: Sequence[HandState], rules: Rules, mode: ReplayMode) -> Replay:
    """The complete hands of ``played`` scored under ``rules``, each action checked by them."""
    complete = [hand for hand in played if hand.phase == COMPLETE]
    game = Game(rules, first_dealer=complete[0].dealer if complete else 0)
    refusals: list[Refusal] = []
    for position, hand in enumerate(complete):
        if game.finished:
            return Replay(rules, game, len(complete) - position, tuple(refusals))
        totals = (game.ledger.totals[0], game.ledger.totals[1])
        fresh = new_hand(rules, list(hand.dealt), hand.dealer, hand.hand_number, totals)
        refusal = replay_hand(fresh, recorded_hand(hand))
        if refusal is not None:
            if mode is ReplayMode.STOP_AT_FIRST_REFUSAL:
                raise record_error(refusal, rescoring_rules=rules)
            refusals.append(refusal)
        game.add_played_hand(hand)
    return Replay(rules, game, 0, tuple(refusals))


def record_error(refusal: Refusal, rescoring_rules: Rules | None = None) -> RecordError:
    """The refusal as the error a replay raises; with ``rescoring_rules``, saying so."""
    number = refusal.hand
    if refusal.code == PASS_MISSING:
        return RecordError(
            f'Hand {number}: {refusal.reason}; add them under "passes".',
            hand=number,
            action=refusal.action,
            code=refusal.code,
        )
    error_type = RecordError
    because = refusal.reason
    if rescoring_rules is not None:
        error_type = RescoringRefusal
        name = rules_name(rescoring_rules) or "custom"
        because = f"forbidden under the re-scoring rules ({name}): {refusal.reason}"
    return error_type(
        f"Hand {number}, {refusal.where}: {because}",
        hand=number,
        action=refusal.action,
        index=refusal.index,
        seat=None if refusal.seat is None else SEAT_NAMES[refusal.seat],
        card=None if refusal.card is None else card_name(refusal.card),
        code=refusal.code,
        reason=refusal.reason,
    )


def _replay_own(record: GameRecord) -> Replay:
    game = Game(record.rules, first_dealer=record.hands[0].dealer)
    for hand in record.hands:
        if game.finished:
            raise RecordError(
                f"Hand {hand.number}: the game was over after hand "
                f"{game.ledger.finished_after_hand} ({game.ledger.ending}); "
                "no more hands are dealt.",
                hand=hand.number,
                action="deal",
                code="game_over",
            )
        try:
            state = game.start_hand(list(hand.dealt), hand.dealer)
        except IllegalMove as error:
            where = f"dealt by {SEAT_NAMES[hand.dealer]}"
            raise record_error(Refusal.of(hand.number, "deal", where, error)) from None
        refusal = replay_hand(state, hand)
        if refusal is not None:
            raise record_error(refusal)
        game.score_if_complete()
    return Replay(record.rules, game)
