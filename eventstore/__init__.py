"""Append-only event store on PostgreSQL: streams, hash chains, subscriptions.

Public API: ``eventstore.store`` (append/read/verify/digest), ``eventstore.subscriptions``
(projections and checkpoints), ``eventstore.verification`` (verifier hooks),
``eventstore.signals.events_committed``. See docs/eventstore.md.
"""
