"""This process's recent answers to "whose token is this?", so a request with an API token
does not run the token query (DRF's ``Token.objects.select_related("user")``: the ORM
building the query, a round trip, two model instances) each time: that was 14% of the
web process's samples on the table API at human pace (docs/benchmarks.md, "Capacity",
session 8).

What is kept, per token key: the token's row and its user's row as the database gave them
at most ``API_TOKEN_CACHE_SECONDS`` ago (a fixed lifetime from the read, never extended by
use), at most ``API_TOKEN_CACHE_SIZE`` keys (least recently used out). Every hit builds
fresh model instances from the kept rows, so no two requests share a mutable ``User``.
What is checked on every request as before: the token's lifetime (``accounts.tokens``,
from the kept ``created``) and the user's ``is_active``.

How long a revoked token may still be accepted (the bound, docs/api.md):

- in the process that deletes a token (logout, password change or reset, account
  deletion, an expired token replaced at login: ``accounts.tokens``) or saves or deletes
  its user (a deactivation): not at all, the signal handlers below forget it before the
  change's request answers;
- in every other web process: at most ``API_TOKEN_CACHE_SECONDS`` (default 30) after it
  was cached; ``API_TOKEN_CACHE_SECONDS=0`` turns the cache off.

A read that started before an invalidation is never kept (the generation check in
:meth:`TokenCache.keep`), so a request racing a logout cannot put the revoked token back.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from cachetools import LRUCache
from django.conf import settings
from rest_framework.authtoken.models import Token

#: The rows kept for one key: (expires at, the user's field names, its values, the token's
#: created, the user id).
Entry = tuple[float, tuple[str, ...], tuple[Any, ...], Any, int]


class TokenCache:
    """Token key -> the token's and its user's rows, for a bounded time (module text)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.lock = threading.Lock()
        self.entries: LRUCache[str, Entry] = LRUCache(maxsize=self.size())
        self.keys_of_user: dict[int, set[str]] = {}
        #: Bumped by every invalidation: a read that began before one is not kept.
        self.generation = 0

    @staticmethod
    def size() -> int:
        return max(1, int(settings.API_TOKEN_CACHE_SIZE))

    @staticmethod
    def seconds() -> float:
        return float(settings.API_TOKEN_CACHE_SECONDS)

    def found(self, key: str) -> tuple[Any, Token] | None:
        """``(user, token)`` as fresh instances from the kept rows, or None (not kept, or
        kept longer ago than the bound)."""
        with self.lock:
            entry = self.entries.get(key)
            if entry is None:
                return None
            if self.clock() >= entry[0]:
                self._drop(key)
                return None
        _, names, values, created, user_id = entry
        user_model = Token._meta.get_field("user").related_model
        user = user_model.from_db("default", names, values)  # type: ignore[union-attr]
        token = Token.from_db("default", ("key", "user_id", "created"), (key, user_id, created))
        token.user = user
        return user, token

    def keep(self, key: str, token: Token, generation: int) -> None:
        """Keep ``token`` (read with its user) unless the cache is off or something was
        invalidated since ``generation`` was taken (the read may predate it)."""
        seconds = self.seconds()
        if seconds <= 0:
            return
        user = token.user
        names = tuple(field.attname for field in user._meta.concrete_fields)
        values = tuple(getattr(user, name) for name in names)
        entry = (self.clock() + seconds, names, values, token.created, user.pk)
        with self.lock:
            if generation != self.generation:
                return
            if self.entries.maxsize != self.size():
                self.entries = LRUCache(maxsize=self.size())
                self.keys_of_user.clear()
            if len(self.entries) >= self.entries.maxsize and key not in self.entries:
                # The least recently used key goes: forget its user's index entry too.
                oldest, dropped = self.entries.popitem()
                self._unindex(oldest, dropped[4])
            self.entries[key] = entry
            self.keys_of_user.setdefault(user.pk, set()).add(key)

    def begin(self) -> int:
        """The generation a read starts at (pass it to :meth:`keep`)."""
        with self.lock:
            return self.generation

    def forget_key(self, key: str) -> None:
        with self.lock:
            self.generation += 1
            self._drop(key)

    def forget_user(self, user_id: Any) -> None:
        with self.lock:
            self.generation += 1
            for key in list(self.keys_of_user.get(user_id, ())):
                self._drop(key)

    def clear(self) -> None:
        with self.lock:
            self.generation += 1
            self.entries.clear()
            self.keys_of_user.clear()

    def _drop(self, key: str) -> None:
        entry = self.entries.pop(key, None)
        if entry is not None:
            self._unindex(key, entry[4])

    def _unindex(self, key: str, user_id: int) -> None:
        keys = self.keys_of_user.get(user_id)
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self.keys_of_user[user_id]


tokens_seen = TokenCache()


def token_deleted(sender: Any, instance: Token, **kwargs: Any) -> None:
    """Signal handler: a token row was deleted (or saved anew): forget its key."""
    tokens_seen.forget_key(str(instance.key))


def user_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    """Signal handler: a user was saved or deleted (``is_active``, the name): forget every
    key of theirs, so the next request reads the row again."""
    tokens_seen.forget_user(instance.pk)
