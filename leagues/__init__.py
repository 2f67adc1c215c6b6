"""Leagues, seasons and tournaments: partnerships as entrants, pairings, standings, ratings.

``leagues.core`` is the pure half (no Django): value types, the pairing engines
(round robin, Swiss, knockout, stages), standings and tie-breaks, verifiable pairing
commitments, ratings, what-if comparison and the competition file reader. The Django
app around it (event streams, projections, API) feeds it plain values and stores what
it returns. ``docs/leagues.md`` explains every rule.
"""
