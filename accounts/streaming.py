"""Serving a long answer piece by piece from a generator that reads the database.

Under ASGI, Django consumes a synchronous iterator whole before sending anything (it
must not block the event loop); :func:`streamed` hands it an asynchronous one instead,
which pulls each piece in the request's own thread (``thread_sensitive``: the same thread,
so the same database connection, as the view), so the answer goes out as it is made.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async


def _next_piece(chunks: Iterator[bytes]) -> bytes | None:
    return next(chunks, None)


async def streamed(chunks: Iterator[bytes]) -> AsyncIterator[bytes]:
    pull = sync_to_async(_next_piece, thread_sensitive=True)
    while True:
        chunk = await pull(chunks)
        if chunk is None:
            return
        yield chunk
