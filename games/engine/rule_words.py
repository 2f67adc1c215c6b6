"""Refusals in words, for the person who reads them.

The engine's :class:`~games.engine.rules.RulesError` sentences and the competitions' and
leagues' refusals name the fields a program sends (``target_score must be at most 10000``,
``fixed_hands runs from 1 to 100``). Pages and the admin show them to people, so every
edge that answers such a refusal passes it through :func:`in_words` here, the one place
the fields' names in words are kept: "Target score must be at most 10,000".

The sentences themselves keep the fields' names: a program (and a log) reads them so.
Only names whose words differ are listed; values a request sends (``round_robin``,
``north_south``, ``as_listed``) are not fields and stay as they are spelled.
"""

from __future__ import annotations

import re

#: Each rule field as a sentence says it (lower case; the first word of a sentence is
#: capitalised by :func:`in_words`).
RULE_WORDS: dict[str, str] = {
    "target_score": "target score",
    "lose_score": "losing score",
    "nil": "nil",
    "nil_points": "nil points",
    "blind_nil": "blind nil",
    "blind_nil_points": "blind nil points",
    "blind_nil_min_deficit": "blind nil deficit",
    "set_penalty": "set penalty",
    "bag_penalty": "bag penalty",
    "nil_tricks_count_for_partner": "nil tricks for the partner",
    "first_lead": "first lead",
    "breaking_spades": "breaking spades",
    "hands": "hands",
    "extra_hands": "extra hands",
}

#: Each field of a competition's or a league's request (``leagues.domain``) that a refusal
#: names, as a sentence says it.
REQUEST_WORDS: dict[str, str] = {
    "entrant_id": "entrant id",
    "player_in": "incoming player",
    "player_out": "outgoing player",
    "username_in": "incoming player's username",
    "forfeited_by": "forfeiting side",
    "no_show": "no-show",
    "match_points": "match points",
    "forfeit_loss": "forfeit loss",
    "late_join": "late join",
    "fixed_hands": "hands per match",
    "round_robin_order": "round robin order",
    "knockout_seeding": "knockout seeding",
    "registration_closes_at": "registration closing time",
    "late_join_until_round": "last round to join late",
    "check_in": "check-in",
    "round_starts": "round start times",
    "grace_minutes": "grace minutes",
    "bots_for_no_shows": "computer players for no-shows",
    "bot_level": "computer players' level",
    "spectator_delay_tricks": "spectators' delay in tricks",
    "league_id": "league",
}

FIELD_WORDS: dict[str, str] = {**RULE_WORDS, **REQUEST_WORDS}

# Longest first: blind_nil_points before blind_nil before nil.
_FIELD = re.compile(r"\b(" + "|".join(sorted(FIELD_WORDS, key=len, reverse=True)) + r")\b")
# A whole number of four digits or more (not part of "a 13288-bit number", not a decimal,
# not a value quoted back as it was sent: '12345').
_NUMBER = re.compile(r"(?<![\w.,'])(-?)(\d{4,})(?![\w,'-]|\.\d)")
# Where a refusal lists what a request may send: that list stays as a program spells it.
_KNOWN = re.compile(r"Known fields:|; known:")


def in_words(message: str) -> str:
    """``message`` with every rule or request field named in words and large numbers
    grouped by thousands, its first letter capitalised. The list of known fields an unknown
    field's refusal ends with stays as a program spells them: it says what to send."""
    found = _KNOWN.search(message)
    head, tail = (
        (message, "") if found is None else (message[: found.start()], message[found.start() :])
    )
    text = _FIELD.sub(lambda m: FIELD_WORDS[m.group(1)], head) + tail
    text = _NUMBER.sub(lambda m: f"{m.group(1)}{int(m.group(2)):,}", text)
    return text[:1].upper() + text[1:]
