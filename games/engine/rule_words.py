"""The rules' refusals in words, for the person who reads them.

The engine's :class:`~games.engine.rules.RulesError` sentences name the fields a program
sends (``target_score must be at most 10000``). Pages and the admin show them to people,
so every edge that answers a rules refusal passes it through :func:`in_words` here, the
one place the fields' names in words are kept: "Target score must be at most 10,000".
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

# Longest first: blind_nil_points before blind_nil before nil.
_FIELD = re.compile(r"\b(" + "|".join(sorted(RULE_WORDS, key=len, reverse=True)) + r")\b")
# A whole number of four digits or more (not part of "a 13288-bit number", not a decimal).
_NUMBER = re.compile(r"(?<![\w.,])(-?)(\d{4,})(?![\w,-]|\.\d)")


def in_words(message: str) -> str:
    """``message`` with every rule field named in words and large numbers grouped by
    thousands, its first letter capitalised. The list of known fields an unknown field's
    refusal ends with stays as a program spells them: it says what to send."""
    head, known, tail = message.partition("Known fields:")
    text = _FIELD.sub(lambda m: RULE_WORDS[m.group(1)], head) + known + tail
    text = _NUMBER.sub(lambda m: f"{m.group(1)}{int(m.group(2)):,}", text)
    return text[:1].upper() + text[1:]
