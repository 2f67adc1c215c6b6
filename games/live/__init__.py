"""Live play: what happens after a table's events commit, and the WebSocket side of it.

- ``fanout``: after every commit, announce it (the Channels group of the table for its
  WebSocket consumers, Redis pub/sub for the projector);
- ``notices``: the format of those announcements (commit notice, group message, channels);
- ``publisher``: the thread that PUBLISHes the notices in batches;
- ``announcer``: the other after-commit threads (the notifier here, the bots' dispatcher);
- ``commit_subscription``: the projector's subscription to the commit notices;
- ``sockets``: the one base of the live sockets (slot, refusal, version gate, resync) and
  each web process's safety sweep over them;
- ``due``: the scheduler's sweeps' next due times (in Redis), brought forward by commits;
- ``tables``: the read model, fold and commands as live play needs them;
- ``connections``: long-lived threads' database connections, kept sound between uses;
- ``timers`` / ``tasks``: the turn timers (a scheduler job);
- ``auth``: WebSocket authentication by DRF token; ``processes``: starting the platform's
  processes from Python (live tests, benchmarks).

Bots' turns (deciding one is due, dispatching it, the watchdog) are the bots' (``bots``),
which listen to the same commit signal: nothing here imports ``bots``.

A Django app (label ``live``) so that its signal receiver is connected in every process.
"""
