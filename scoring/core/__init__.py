"""Pure scoring math: hand scores with their breakdown, ledgers, scoresheets.

Nothing here imports Django; the Django app around it stores presets and
ledgers, and the engine calls :func:`scoring.core.ledger.Ledger.record_hand`.
"""
