"""Signals the event store sends.

``events_committed`` is sent once per successful :func:`eventstore.store.append`, from
``transaction.on_commit``: never for a rolled-back transaction, never before the commit.
Receivers get ``stream_id`` (str) and ``events`` (list of ``StoredEvent``).
"""

from django.dispatch import Signal

events_committed = Signal()
