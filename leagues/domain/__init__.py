"""Competition and league events and their fold: plain values, no database.

``events`` names the event types and builds their payloads; ``state`` folds a stream
into a :class:`~leagues.domain.state.CompetitionState` (whose ``competition()`` is the
pure core's :class:`~leagues.core.competition.Competition`); ``decisions`` turns an
organiser's or player's request into the events to append, or refuses it with a
:class:`~leagues.core.errors.LeagueError`.
"""
