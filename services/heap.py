"""The garbage collector in the long-running processes (web, worker, projector).

CPython's full (generation 2) collection walks every tracked object in the process. After
start-up a Django process holds hundreds of thousands of them (modules, the app registry,
URL patterns, DRF and Channels), and a full collection took 40-90 ms in the web process
while 50 tables were playing: every WebSocket message due meanwhile waited
(benchmarks/live.py, docs/benchmarks.md). ``gc.freeze()`` moves the objects alive after
start-up into a permanent generation that collections skip; they live as long as the
process anyway.
"""

from __future__ import annotations

import gc


def settle_after_startup() -> None:
    """Collect once, then exempt every surviving object from later collections."""
    gc.collect()
    gc.freeze()
