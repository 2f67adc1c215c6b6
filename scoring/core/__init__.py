"""Pure scoring math: hand scores with their breakdown, ledgers, scoresheets, whole games.

Nothing here imports Django.  It may use the engine's rules, seats and hands
(``games.engine``); the engine never imports it (``docs/architecture.md``).
``game`` folds hands into a ledger, ``replay`` rebuilds and re-scores game records.
"""
