"""Append-only event store on PostgreSQL: streams, hash chains, subscriptions.

Public API: ``eventstore.records`` (NewEvent, StoredEvent, AppendResult),
``eventstore.errors`` (what an append refuses), ``eventstore.recorder`` (append,
lock_stream), ``eventstore.reading`` (read_stream, read_all, stream heads),
``eventstore.verification`` (hash chains, the digest, verifier hooks),
``eventstore.subscriptions`` (projections and their checkpoints),
``eventstore.signals.events_committed``. See docs/eventstore.md.
"""
