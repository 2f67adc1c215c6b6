"""Deal audit for ``verify_events``: every deal must come from the committed seed.

Registered with ``eventstore.verification`` (see ``games.apps``).  For a table stream it
checks that the whole stream folds through the engine (every move legal), that the
commitment comes before the first deal, that a revealed seed hashes to the commitment,
and that every ``HandDealt`` deck equals ``shuffled_deck(seed, hand_number)`` (at a table
dealing a duplicate round's boards, board ``hand_number``'s deck: ``board_deck``).  Until the
game ends the seed is secret, so decks of a game in play are checked for shape only.
"""

from __future__ import annotations

from collections.abc import Sequence

from eventstore.records import StoredEvent
from eventstore.verification import Problem
from games.domain import events as ev
from games.domain.streams import table_id_of_stream
from games.domain.table import TableState, seed_commitment
from games.engine.cards import card_name
from games.engine.errors import IllegalMove

CHECK = "deal commitment"


def check_deals(stream_id: str, events: Sequence[StoredEvent]) -> Problem | None:
    """The first problem with the deals of a table stream, or None."""
    if table_id_of_stream(stream_id) is None:
        return None
    state = TableState()
    for event in events:
        try:
            ev.validate_payload(event.type, event.schema_version, event.data)
            state.apply(event.type, event.data)
        except (ev.EventSchemaError, IllegalMove, KeyError, ValueError) as error:
            return Problem.at(event, f"{event.type} cannot be folded: {error}", "table fold")
    seed = state.revealed_seed
    if seed is None:
        if state.status == "finished" and not state.reveal_held:
            return Problem(
                stream_id, "the game is over but the deal seed was never revealed", check=CHECK
            )
        return None
    if seed_commitment(seed) != state.commitment:  # the fold refuses this already
        return Problem(stream_id, "the revealed seed does not match the commitment", check=CHECK)
    for event in events:
        if event.type != ev.HAND_DEALT:
            continue
        number = event.data["hand_number"]
        expected = [card_name(card) for card in state.deck_for(seed, number)]
        if event.data["deck"] != expected:
            return Problem.at(
                event,
                f"hand {number}'s deck is not the one the committed seed deals",
                CHECK,
            )
    return None
