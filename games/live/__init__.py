"""Live play: what happens after a table's events commit.

- ``fanout``: after every commit, announce it (Redis pub/sub for the projector, the
  Channels group of the table for its WebSocket consumers) and dispatch a bot turn if one
  is due.
- ``dispatch``: decide whether a bot must move and send ``bots.tasks.play_bot_turn``.
- ``bot_turns``: what that task does (fold, ask the strategy, call the same command as a
  human).
- ``timers`` / ``tasks``: the scheduler's jobs (bot watchdog, turn timers).
- ``auth``: WebSocket authentication by DRF token.

A Django app (label ``live``) so that its signal receivers are connected in every process.
"""
