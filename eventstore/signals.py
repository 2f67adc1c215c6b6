"""Signals the event store sends.

``events_committed`` is sent once per successful :func:`eventstore.recorder.append`, from
``transaction.on_commit``: never for a rolled-back transaction, never before the commit.
Receivers get ``stream_id`` (str), ``events`` (list of ``StoredEvent``) and ``context``
(dict: what the appender said about the commit, ``{}`` when nothing; e.g. the tables'
service sets ``bot_to_act``, so receivers need not read the read model back).
"""

from django.dispatch import Signal

events_committed = Signal()
