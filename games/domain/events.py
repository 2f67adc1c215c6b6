"""The events of a table's stream: names, schema versions, payload builders and checks.

Events are past-tense facts that hold *inputs* only: who sat where, the deck order of each
deal, every bid, pass and card.  Tricks, scores and winners are derived by folding the
events through the engine (``games.domain.table``), never stored.  Payloads use the
written forms of the game-record format: seats ``"north"``..``"west"``, cards ``"AS"``,
bids ``0..13`` / ``"nil"`` / ``"blind_nil"``.  Every event is listed in ``docs/events.md``.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engine.bidding import bid_label
from games.engine.cards import card_name
from games.engine.seats import SEAT_NAMES

TABLE_CREATED = "TableCreated"
SEAT_TAKEN = "SeatTaken"
SEAT_LEFT = "SeatLeft"
GAME_STARTED = "GameStarted"
DEAL_COMMITTED = "DealCommitted"
HAND_DEALT = "HandDealt"
CARDS_LOOKED = "CardsLooked"
BID_PLACED = "BidPlaced"
CARDS_PASSED = "CardsPassed"
CARD_PLAYED = "CardPlayed"
TURN_TIMED_OUT = "TurnTimedOut"
SEAT_HANDED_TO_BOT = "SeatHandedToBot"
SEAT_TAKEN_BACK = "SeatTakenBack"
DEAL_SEED_REVEALED = "DealSeedRevealed"
DEAL_REVEAL_HELD = "DealRevealHeld"
TABLE_ABANDONED = "TableAbandoned"
SEAT_RESERVED = "SeatReserved"
SEAT_INVITATION_REISSUED = "SeatInvitationReissued"
SEAT_INVITATION_REVOKED = "SeatInvitationRevoked"

#: The current schema version of every event type (bump on an incompatible payload change
#: and teach the fold to read both).
SCHEMA_VERSIONS: dict[str, int] = {
    TABLE_CREATED: 4,
    SEAT_TAKEN: 1,
    SEAT_LEFT: 1,
    GAME_STARTED: 1,
    DEAL_COMMITTED: 1,
    HAND_DEALT: 2,
    CARDS_LOOKED: 1,
    BID_PLACED: 1,
    CARDS_PASSED: 2,
    CARD_PLAYED: 1,
    TURN_TIMED_OUT: 1,
    SEAT_HANDED_TO_BOT: 1,
    SEAT_TAKEN_BACK: 1,
    DEAL_SEED_REVEALED: 1,
    DEAL_REVEAL_HELD: 1,
    TABLE_ABANDONED: 1,
    SEAT_RESERVED: 1,
    SEAT_INVITATION_REISSUED: 1,
    SEAT_INVITATION_REVOKED: 1,
}
EVENT_TYPES: tuple[str, ...] = tuple(SCHEMA_VERSIONS)

#: The payload fields a viewer may not see until the event's hand is over (the visibility
#: filter, ``games.selectors.visibility``, removes them). The public event hash covers
#: them, so every event with hidden fields also hides a ``nonce``: without it the few
#: possible values of the cards (2,652 ordered pairs for a pass) could be tried against
#: the hash. Version 1 of these events had no nonce; they still validate and fold.
HIDDEN_FIELDS: dict[str, frozenset[str]] = {
    HAND_DEALT: frozenset({"deck", "nonce"}),
    CARDS_PASSED: frozenset({"cards", "nonce"}),
}

#: The fields of a bot actor's metadata (``metadata["actor"]``) a viewer may not see until
#: the event's hand is over: ``samples`` (how many sampled deals the search went through,
#: which depends on the bot's hidden cards, and so does whether a search ran at all) and the
#: ``nonce`` that keeps it out of reach of the public hash, as for :data:`HIDDEN_FIELDS`.
#: Bot moves stored before the nonce carry ``samples`` alone; they still verify.
HIDDEN_ACTOR_FIELDS: frozenset[str] = frozenset({"samples", "nonce"})

#: Bytes of secret randomness in a nonce (128 bits: no hash search can cover them).
NONCE_BYTES = 16

#: How a deal commitment is computed and how decks derive from the seed (docs/tables.md).
COMMITMENT_SCHEME = "sha256(seed-utf8)"
#: How a seat invitation's secret is digested into its event (the secret itself is never
#: in the stream: only its host and the friend it is sent to hold it).
INVITATION_SCHEME = "sha256(secret-utf8)"
SHUFFLE_SCHEME = "shuffled_deck(seed, hand_number): SHA-256 counter-mode Fisher-Yates"
#: How a table dealing a duplicate round's boards (``TableCreated`` v4 ``deals``) derives
#: hand ``n``: board ``n`` of the round whose seed it committed to (docs/tables.md).
BOARDS_SHUFFLE_SCHEME = (
    "shuffled_deck(hex(sha256('spades-board|' + seed + '|' + hand_number)), 1), "
    "dealer (hand_number - 1) mod 4"
)
#: Deal sources of a table (``TableCreated`` v4): its own fresh seed, or a round's boards.
DEAL_SOURCES = ("seed", "boards")
#: The most boards a table deals from a round (``leagues.core.duplicate.boards.MAX_BOARDS``).
MAX_TABLE_BOARDS = 64

SEAT_KINDS = ("human", "bot")
#: A spectator may be kept at most this many completed tricks behind play (a hand's worth).
MAX_SPECTATOR_DELAY_TRICKS = 13
BOT_LEVELS = ("easy", "normal", "hard")
HANDOVER_REASONS = ("player", "timeout", "absent")
#: An owner tag (``TableCreated`` v3) is a flat object of at most this many fields, each a
#: short text or a whole number: games stores it and never reads it.
MAX_OWNER_FIELDS = 8
MAX_OWNER_TEXT = 100
ABANDON_REASONS = ("creator", "idle")


class EventSchemaError(ValueError):
    """A payload that does not match its event type's schema."""


@dataclass(frozen=True, slots=True)
class DomainEvent:
    """An event before it is stored: type, payload and schema version."""

    type: str
    data: dict[str, Any]
    schema_version: int = 1
    metadata: dict[str, Any] = field(default_factory=dict)


def _event(type_: str, data: dict[str, Any]) -> DomainEvent:
    validate_payload(type_, SCHEMA_VERSIONS[type_], data)
    return DomainEvent(type_, data, SCHEMA_VERSIONS[type_])


# ---------------------------------------------------------------- builders


def table_created(
    *,
    rules: Mapping[str, Any],
    preset_name: str | None,
    preset_version: int | None,
    seats: Mapping[str, Mapping[str, Any]],
    turn_timer_seconds: int | None,
    created_by: int | None,
    spectator_delay_tricks: int = 0,
    owner: Mapping[str, Any] | None = None,
    deals: Mapping[str, Any] | None = None,
) -> DomainEvent:
    """The table's birth: the full rules snapshot, the preset it came from, the seats, how
    many completed tricks behind play its spectators are kept (0: live), and the opaque tag
    of whatever the table was created for (``owner``; None: nobody's), which games keeps
    and shows but never interprets (e.g. ``{"kind": "competition", "id", "round",
    "board"}``, written by the leagues). ``deals`` (v4): where the table's deals come
    from: None (its own fresh seed, committed when the game starts) or ``{"source":
    "boards", "boards": k, "commitment": c}``: hand ``n`` is board ``n`` of the duplicate
    round whose seed hashes to ``c`` (``BOARDS_SHUFFLE_SCHEME``), and the seed is revealed
    only when the table's owner says so (``RevealDeals``), not when the game ends."""
    return _event(
        TABLE_CREATED,
        {
            "rules": dict(rules),
            "preset": {"name": preset_name, "version": preset_version},
            "seats": {name: dict(seats[name]) for name in SEAT_NAMES},
            "turn_timer_seconds": turn_timer_seconds,
            "created_by": created_by,
            "spectator_delay_tricks": spectator_delay_tricks,
            "owner": None if owner is None else dict(owner),
            "deals": None if deals is None else dict(deals),
        },
    )


def seat_taken(seat: int, user_id: int) -> DomainEvent:
    """A player sat down."""
    return _event(SEAT_TAKEN, {"seat": SEAT_NAMES[seat], "user_id": user_id})


def seat_left(seat: int, user_id: int) -> DomainEvent:
    """A player stood up before the game started."""
    return _event(SEAT_LEFT, {"seat": SEAT_NAMES[seat], "user_id": user_id})


def game_started(first_dealer: int) -> DomainEvent:
    """Play begins; ``first_dealer`` deals hand 1."""
    return _event(GAME_STARTED, {"first_dealer": SEAT_NAMES[first_dealer]})


def deal_committed(commitment: str, *, boards: bool = False) -> DomainEvent:
    """The hash of the secret seed every deal of this game derives from (``boards``: the
    seed of the duplicate round whose boards the table deals)."""
    shuffle = BOARDS_SHUFFLE_SCHEME if boards else SHUFFLE_SCHEME
    return _event(
        DEAL_COMMITTED, {"commitment": commitment, "scheme": COMMITMENT_SCHEME, "shuffle": shuffle}
    )


def new_nonce() -> str:
    """Fresh secret randomness for an event with hidden fields (hex, NONCE_BYTES bytes)."""
    return secrets.token_hex(NONCE_BYTES)


def hand_dealt(hand_number: int, dealer: int, deck: list[int]) -> DomainEvent:
    """A deal: the whole deck order, dealt one card at a time from the dealer's left.

    A fresh ``nonce`` keeps the deck out of reach of the public hash.
    """
    return _event(
        HAND_DEALT,
        {
            "hand_number": hand_number,
            "dealer": SEAT_NAMES[dealer],
            "deck": [card_name(card) for card in deck],
            "nonce": new_nonce(),
        },
    )


def cards_looked(hand_number: int, seat: int) -> DomainEvent:
    """A seat that could still bid blind nil looked at its cards."""
    return _event(CARDS_LOOKED, {"hand_number": hand_number, "seat": SEAT_NAMES[seat]})


def bid_placed(hand_number: int, seat: int, tricks: int, blind: bool) -> DomainEvent:
    """A bid: 0-13, ``"nil"`` or ``"blind_nil"``."""
    return _event(
        BID_PLACED,
        {"hand_number": hand_number, "seat": SEAT_NAMES[seat], "bid": bid_label(tricks, blind)},
    )


def cards_passed(hand_number: int, seat: int, cards: list[int]) -> DomainEvent:
    """Two cards given to partner after a blind nil bid.

    A fresh ``nonce`` keeps the two cards out of reach of the public hash.
    """
    return _event(
        CARDS_PASSED,
        {
            "hand_number": hand_number,
            "seat": SEAT_NAMES[seat],
            "cards": [card_name(card) for card in cards],
            "nonce": new_nonce(),
        },
    )


def card_played(hand_number: int, seat: int, card: int) -> DomainEvent:
    """A card played to the current trick."""
    return _event(
        CARD_PLAYED, {"hand_number": hand_number, "seat": SEAT_NAMES[seat], "card": card_name(card)}
    )


def turn_timed_out(hand_number: int, seat: int, phase: str) -> DomainEvent:
    """The turn timer ran out on ``seat``."""
    return _event(
        TURN_TIMED_OUT, {"hand_number": hand_number, "seat": SEAT_NAMES[seat], "phase": phase}
    )


def seat_handed_to_bot(seat: int, level: str, reason: str) -> DomainEvent:
    """A bot plays the seat from now on (its player asked, or the timer ran out)."""
    return _event(SEAT_HANDED_TO_BOT, {"seat": SEAT_NAMES[seat], "level": level, "reason": reason})


def seat_taken_back(seat: int, user_id: int) -> DomainEvent:
    """The seat's player plays it again."""
    return _event(SEAT_TAKEN_BACK, {"seat": SEAT_NAMES[seat], "user_id": user_id})


def deal_reveal_held(hands: int) -> DomainEvent:
    """The game of a table dealing a round's boards is over after ``hands`` hands; its seed
    is held back (other tables may still be playing these boards) until ``RevealDeals``."""
    return _event(DEAL_REVEAL_HELD, {"hands": hands})


def deal_seed_revealed(seed: str) -> DomainEvent:
    """The game is over: the seed behind every deal, so anyone can check them."""
    return _event(DEAL_SEED_REVEALED, {"seed": seed})


def table_abandoned(reason: str, user_id: int | None) -> DomainEvent:
    """The table was given up before its game ended: by its creator (``user_id``), or by
    the scheduler because nobody acted at an all-bot table for too long."""
    return _event(TABLE_ABANDONED, {"reason": reason, "user_id": user_id})


def _invitation_fields(seat: int, user_id: int, digest: str) -> dict[str, Any]:
    return {
        "seat": SEAT_NAMES[seat],
        "user_id": user_id,
        "digest": digest,
        "scheme": INVITATION_SCHEME,
    }


def seat_reserved(seat: int, user_id: int, digest: str) -> DomainEvent:
    """The table's creator kept ``seat`` for a friend: only the holder of the invitation
    secret whose digest this is may take it (the secret stays out of the stream)."""
    return _event(
        SEAT_RESERVED,
        _invitation_fields(seat, user_id, digest),
    )


def seat_invitation_reissued(seat: int, user_id: int, digest: str) -> DomainEvent:
    """The creator issued a new invitation for a kept seat: the old link no longer seats."""
    return _event(
        SEAT_INVITATION_REISSUED,
        _invitation_fields(seat, user_id, digest),
    )


def seat_invitation_revoked(seat: int, user_id: int) -> DomainEvent:
    """The creator revoked a kept seat's invitation: the seat stays kept and no link seats
    anyone until a new invitation is issued."""
    return _event(SEAT_INVITATION_REVOKED, {"seat": SEAT_NAMES[seat], "user_id": user_id})


# ---------------------------------------------------------------- validation

_CARD = re.compile(r"^[2-9TJQKA][CDHS]$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
# At least NONCE_BYTES bytes of hex; at most 64 bytes.
_NONCE = re.compile(rf"^[0-9a-f]{{{2 * NONCE_BYTES},128}}$")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(value: object) -> bool:
    return value in SEAT_NAMES


def _hand_number(value: object) -> bool:
    return _is_int(value) and value >= 1  # type: ignore[operator]


def _cards(count: int) -> Callable[[object], bool]:
    def check(value: object) -> bool:
        return (
            isinstance(value, list)
            and len(value) == count
            and all(isinstance(card, str) and _CARD.match(card) for card in value)
            and len(set(value)) == count
        )

    return check


def _digest(value: object) -> bool:
    return isinstance(value, str) and bool(_HEX64.match(value))


def _nonce(value: object) -> bool:
    return isinstance(value, str) and bool(_NONCE.match(value))


def _bid(value: object) -> bool:
    return value in ("nil", "blind_nil") or (_is_int(value) and 0 <= value <= 13)  # type: ignore[operator]


def _seat_config(value: object) -> bool:
    if not isinstance(value, dict) or set(value) != set(SEAT_NAMES):
        return False
    for config in value.values():
        if not isinstance(config, dict) or config.get("kind") not in SEAT_KINDS:
            return False
        if config["kind"] == "bot" and config.get("level") not in BOT_LEVELS:
            return False
    return True


def _optional_int(value: object) -> bool:
    return value is None or _is_int(value)


def _spectator_delay(value: object) -> bool:
    return _is_int(value) and 0 <= value <= MAX_SPECTATOR_DELAY_TRICKS  # type: ignore[operator]


def _deals(value: object) -> bool:
    if value is None:
        return True
    return (
        isinstance(value, dict)
        and set(value) == {"source", "boards", "commitment"}
        and value["source"] == "boards"
        and _is_int(value["boards"])
        and 1 <= value["boards"] <= MAX_TABLE_BOARDS
        and isinstance(value["commitment"], str)
        and bool(_HEX64.match(value["commitment"]))
    )


def _owner(value: object) -> bool:
    if value is None:
        return True
    if not isinstance(value, dict) or not 1 <= len(value) <= MAX_OWNER_FIELDS:
        return False
    return all(
        isinstance(key, str)
        and 1 <= len(key) <= MAX_OWNER_TEXT
        and (
            (isinstance(item, str) and len(item) <= MAX_OWNER_TEXT)
            or (_is_int(item) and abs(item) < 2**53)
        )
        for key, item in value.items()
    )


def _preset(value: object) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {"name", "version"}
        and (value["name"] is None or isinstance(value["name"], str))
        and _optional_int(value["version"])
    )


_SCHEMAS: dict[tuple[str, int], dict[str, Callable[[object], bool]]] = {
    (TABLE_CREATED, 1): {
        "rules": lambda v: isinstance(v, dict),
        "preset": _preset,
        "seats": _seat_config,
        "turn_timer_seconds": lambda v: v is None or (_is_int(v) and v > 0),  # type: ignore[operator]
        "created_by": _optional_int,
    },
    (TABLE_CREATED, 2): {
        "rules": lambda v: isinstance(v, dict),
        "preset": _preset,
        "seats": _seat_config,
        "turn_timer_seconds": lambda v: v is None or (_is_int(v) and v > 0),  # type: ignore[operator]
        "created_by": _optional_int,
        "spectator_delay_tricks": _spectator_delay,
    },
    (TABLE_CREATED, 3): {
        "rules": lambda v: isinstance(v, dict),
        "preset": _preset,
        "seats": _seat_config,
        "turn_timer_seconds": lambda v: v is None or (_is_int(v) and v > 0),  # type: ignore[operator]
        "created_by": _optional_int,
        "spectator_delay_tricks": _spectator_delay,
        "owner": _owner,
    },
    (TABLE_CREATED, 4): {
        "rules": lambda v: isinstance(v, dict),
        "preset": _preset,
        "seats": _seat_config,
        "turn_timer_seconds": lambda v: v is None or (_is_int(v) and v > 0),  # type: ignore[operator]
        "created_by": _optional_int,
        "spectator_delay_tricks": _spectator_delay,
        "owner": _owner,
        "deals": _deals,
    },
    (DEAL_REVEAL_HELD, 1): {"hands": _hand_number},
    (SEAT_TAKEN, 1): {"seat": _seat, "user_id": _is_int},
    (SEAT_LEFT, 1): {"seat": _seat, "user_id": _is_int},
    (GAME_STARTED, 1): {"first_dealer": _seat},
    (DEAL_COMMITTED, 1): {
        "commitment": lambda v: isinstance(v, str) and bool(_HEX64.match(v)),
        "scheme": lambda v: v == COMMITMENT_SCHEME,
        "shuffle": lambda v: isinstance(v, str),
    },
    (HAND_DEALT, 1): {"hand_number": _hand_number, "dealer": _seat, "deck": _cards(52)},
    (HAND_DEALT, 2): {
        "hand_number": _hand_number,
        "dealer": _seat,
        "deck": _cards(52),
        "nonce": _nonce,
    },
    (CARDS_LOOKED, 1): {"hand_number": _hand_number, "seat": _seat},
    (BID_PLACED, 1): {"hand_number": _hand_number, "seat": _seat, "bid": _bid},
    (CARDS_PASSED, 1): {"hand_number": _hand_number, "seat": _seat, "cards": _cards(2)},
    (CARDS_PASSED, 2): {
        "hand_number": _hand_number,
        "seat": _seat,
        "cards": _cards(2),
        "nonce": _nonce,
    },
    (CARD_PLAYED, 1): {"hand_number": _hand_number, "seat": _seat, "card": _cards(1)},
    (TURN_TIMED_OUT, 1): {
        "hand_number": _hand_number,
        "seat": _seat,
        "phase": lambda v: v in ("bidding", "passing", "playing"),
    },
    (SEAT_HANDED_TO_BOT, 1): {
        "seat": _seat,
        "level": lambda v: v in BOT_LEVELS,
        "reason": lambda v: v in HANDOVER_REASONS,
    },
    (SEAT_TAKEN_BACK, 1): {"seat": _seat, "user_id": _is_int},
    (DEAL_SEED_REVEALED, 1): {"seed": lambda v: isinstance(v, str) and v != ""},
    (TABLE_ABANDONED, 1): {"reason": lambda v: v in ABANDON_REASONS, "user_id": _optional_int},
    (SEAT_RESERVED, 1): {
        "seat": _seat,
        "user_id": _is_int,
        "digest": _digest,
        "scheme": lambda v: v == INVITATION_SCHEME,
    },
    (SEAT_INVITATION_REISSUED, 1): {
        "seat": _seat,
        "user_id": _is_int,
        "digest": _digest,
        "scheme": lambda v: v == INVITATION_SCHEME,
    },
    (SEAT_INVITATION_REVOKED, 1): {"seat": _seat, "user_id": _is_int},
}


def validate_owner(owner: object) -> None:
    """Refuse an owner tag ``TableCreated`` v3 cannot carry (its shape only: its meaning
    is the owner's)."""
    if not _owner(owner):
        raise EventSchemaError(
            f"An owner tag is an object of 1 to {MAX_OWNER_FIELDS} fields, each a text of at "
            f"most {MAX_OWNER_TEXT} characters or a whole number."
        )


def validate_payload(type_: str, schema_version: int, data: Mapping[str, Any]) -> None:
    """Refuse a payload that does not match its schema (exact field set, field shapes)."""
    schema = _SCHEMAS.get((type_, schema_version))
    if schema is None:
        raise EventSchemaError(f"Unknown event {type_} v{schema_version}.")
    if set(data) != set(schema):
        raise EventSchemaError(
            f"{type_} v{schema_version} needs fields {sorted(schema)}, got {sorted(data)}."
        )
    for name, check in schema.items():
        value = data[name]
        # CardPlayed carries one card as a string; reuse the list check on it.
        if type_ == CARD_PLAYED and name == "card":
            value = [value]
        if not check(value):
            raise EventSchemaError(f"{type_} v{schema_version}: bad {name} {data[name]!r}.")
