"""Entrants: the fixed partnerships that are paired and ranked."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import LeagueError

MAX_ID_LENGTH = 64
MAX_ENTRANTS = 4096
MAX_RATING = 1_000_000_000


@dataclass(frozen=True, slots=True)
class Entrant:
    """A partnership of two players, with an optional reserve.

    ``rating`` seeds Swiss and knockout draws: a whole number, the partnership's team
    ordinal in thousandths (:func:`leagues.core.ratings.seeding_ratings`) or an
    organiser's number.  Whole because engine inputs are stored in events, and the event
    store keeps no floats (their JSON spelling does not survive jsonb).  ``joined_round`` is the
    first round the entrant can be paired in (a late join is > 1); a withdrawn entrant
    has ``withdrawn_after_round`` = the last round it played (0: before round 1) and
    is never paired again, while its results stand.
    """

    id: str
    players: tuple[str, str]
    reserve: str | None = None
    rating: int = 0
    name: str = ""
    joined_round: int = 1
    withdrawn_after_round: int | None = None

    def active_in(self, round_number: int) -> bool:
        """Whether the entrant can be paired in ``round_number``."""
        if round_number < self.joined_round:
            return False
        return self.withdrawn_after_round is None or round_number <= self.withdrawn_after_round

    @property
    def label(self) -> str:
        """The name to print: the entrant's name, or its id."""
        return self.name or self.id


def check_entrants(entrants: Iterable[Entrant]) -> tuple[Entrant, ...]:
    """The entrants, checked: unique ids, two different players, a player in one entrant."""
    checked = tuple(entrants)
    if len(checked) > MAX_ENTRANTS:
        raise LeagueError(
            "too_many_entrants", f"A competition has at most {MAX_ENTRANTS} entrants."
        )
    seen_ids: set[str] = set()
    entrant_of: dict[str, str] = {}
    for entrant in checked:
        if not entrant.id or len(entrant.id) > MAX_ID_LENGTH:
            raise LeagueError(
                "bad_entrant_id", f"An entrant id is 1 to {MAX_ID_LENGTH} characters."
            )
        if entrant.id in seen_ids:
            raise LeagueError("duplicate_entrant", f"Entrant {entrant.id!r} is listed twice.")
        seen_ids.add(entrant.id)
        first, second = entrant.players
        if first == second:
            raise LeagueError(
                "same_player_twice",
                f"Entrant {entrant.id!r} names {first!r} twice; a partnership is two players.",
            )
        people = [first, second] + ([entrant.reserve] if entrant.reserve is not None else [])
        for player in people:
            other = entrant_of.get(player)
            if other is not None and other != entrant.id:
                raise LeagueError(
                    "player_in_two_entrants",
                    f"Player {player!r} is in entrants {other!r} and {entrant.id!r}; "
                    "a player may be in only one entrant of a competition.",
                )
            if other == entrant.id:
                raise LeagueError(
                    "same_player_twice",
                    f"Entrant {entrant.id!r} names {player!r} twice (reserve included).",
                )
            entrant_of[player] = entrant.id
        if (
            isinstance(entrant.rating, bool)
            or not isinstance(entrant.rating, int)
            or not -MAX_RATING <= entrant.rating <= MAX_RATING
        ):
            raise LeagueError(
                "bad_rating",
                f"Entrant {entrant.id!r}: a rating is a whole number within ±{MAX_RATING}.",
            )
        if entrant.joined_round < 1:
            raise LeagueError("bad_round", f"Entrant {entrant.id!r}: joined_round counts from 1.")
        if entrant.withdrawn_after_round is not None and entrant.withdrawn_after_round < 0:
            raise LeagueError(
                "bad_round", f"Entrant {entrant.id!r}: withdrawn_after_round is 0 or more."
            )
    return checked
