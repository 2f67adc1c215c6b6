"""The API's rate limits: DRF throttles counting in Redis (the ``throttle`` cache).

Every web process counts in the same Redis, so a limit holds across processes and
restarts. The rates are ``settings.THROTTLE_RATES`` (env-overridable, docs/api.md), read
on each request so ``override_settings`` reaches them. Over a limit DRF raises
``Throttled``; ``services.api.errors`` renders it as 429 ``{"code": "throttled", ...}``.

The counts are a sliding window kept as one list per key (DRF's ``SimpleRateThrottle``);
two requests racing on one key can both pass, so a limit may be overshot by the number of
requests in flight at once, never more.

Django keeps one cache object per thread and per async context, and each would open its
own Redis connection pool; the throttle cache's ``pool_class`` is :class:`SharedConnectionPool`
(settings), so every copy in a process borrows from one pool.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any, ClassVar

import redis
from django.conf import settings
from django.core.cache import BaseCache, caches
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from telemetry.metrics import count_throttled

THROTTLE_CACHE = "throttle"


class SharedConnectionPool(redis.ConnectionPool):
    """One pool per process for each Redis URL (and options) the throttle cache names,
    whichever copy of the cache asks (``CACHES["throttle"]["OPTIONS"]["pool_class"]``).
    A pool is thread-safe, and after a fork redis-py drops the parent's connections."""

    _shared: ClassVar[dict[str, redis.ConnectionPool]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> Any:
        key = f"{url} {sorted((name, repr(value)) for name, value in kwargs.items())}"
        with cls._lock:
            pool = cls._shared.get(key)
            if pool is None:
                pool = cls._shared[key] = redis.ConnectionPool.from_url(url, **kwargs)
        return pool


class RedisRateThrottle(SimpleRateThrottle):
    """A throttle of one ``scope`` in ``settings.THROTTLE_RATES``, counted in Redis."""

    @property  # type: ignore[override]
    def cache(self) -> BaseCache:
        return caches[THROTTLE_CACHE]

    def get_rate(self) -> str | None:
        return str(settings.THROTTLE_RATES[self.scope])

    def key(self, ident: str) -> str:
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def throttle_failure(self) -> bool:
        count_throttled(str(self.scope))
        return False

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        raise NotImplementedError


class ClientAddressThrottle(RedisRateThrottle):
    """Counts per client address: the real client's behind a trusted proxy
    (``TRUSTED_PROXIES``, ``services.proxies``), else the TCP peer's."""

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.key(self.get_ident(request))


class LoginThrottle(RedisRateThrottle):
    """``POST /api/auth/token``: per username and client address, so guessing one
    account's password is slow while its owner, elsewhere, can still log in."""

    scope = "auth"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        data: Any = request.data
        username = data.get("username") if isinstance(data, dict) else None
        name = username.casefold() if isinstance(username, str) else ""
        # Hashed: a username may be 150 characters of anything; the key stays short.
        digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        return self.key(f"{self.get_ident(request)}:{digest}")


class LoginAddressThrottle(ClientAddressThrottle):
    """``POST /api/auth/token``: per client address, whatever the usernames tried (each
    attempt costs a password hash)."""

    scope = "auth_ip"


class RegistrationThrottle(ClientAddressThrottle):
    """``POST /api/auth/register``: per client address."""

    scope = "register"


class InvitedRegistrationThrottle(ClientAddressThrottle):
    """``POST /api/auth/register`` with an open invitation: per client address, in a count
    (and a larger limit) of its own, so a club's invited players signing up from one
    network are not stopped by the plain sign-up limit."""

    scope = "register_invited"


class CommandThrottle(RedisRateThrottle):
    """Table commands: per user (anonymous callers are refused before they count)."""

    scope = "commands"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None
        return self.key(str(request.user.pk))


class InvitationGuessThrottle(RedisRateThrottle):
    """Refused takes of a seat kept for a friend (a missing, wrong or revoked invitation
    secret), per user: only refusals count (:meth:`record_refusal`), so a friend with the
    right link is never slowed, while guessing is stopped after a few tries. A 256-bit
    secret cannot be guessed anyway; the limit keeps the attempts out of the logs'
    noise and the database's load."""

    scope = "invitation_guesses"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None
        return self.key(str(request.user.pk))

    def allow_request(self, request: Request, view: APIView) -> bool:
        # DRF's own allow_request counts every request; this one only looks.
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        if len(self.history) >= self.num_requests:
            return self.throttle_failure()
        return True

    def record_refusal(self, request: Request, view: APIView) -> None:
        """Count one refused take against the caller."""
        if self.allow_request(request, view) and self.key is not None:
            self.history.insert(0, self.now)
            self.cache.set(self.key, self.history, self.duration)


class UserOrAddressThrottle(RedisRateThrottle):
    """Per user, or per client address for a caller without a login."""

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if request.user and request.user.is_authenticated:
            return self.key(f"user:{request.user.pk}")
        return self.key(f"address:{self.get_ident(request)}")


class LeaguesWriteThrottle(UserOrAddressThrottle):
    """Every leagues write (``POST``: competitions, entrants, partnerships, rounds, results,
    leagues); the reads of the same views are not counted."""

    scope = "leagues_writes"

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)


class WhatIfThrottle(UserOrAddressThrottle):
    """A what-if standings read (another preset rescores every table of the competition;
    other tie-breaks rank it again): the view applies it only to those."""

    scope = "whatif"


def clear_throttle_counts() -> int:
    """Delete every count the throttles and WebSocket limits keep (tests, operators);
    the number of keys deleted. Only keys under the throttle cache's prefix: the rest of
    that Redis database (Celery, Channels) is left alone."""
    cache: Any = caches[THROTTLE_CACHE]
    client = cache._cache.get_client(write=True)
    deleted = 0
    keys = list(client.scan_iter(match=f"{cache.key_prefix}:*", count=500))
    for start in range(0, len(keys), 500):
        deleted += int(client.delete(*keys[start : start + 500]))
    return deleted


class PasswordResetThrottle(ClientAddressThrottle):
    """``POST /api/auth/password/reset`` and ``.../confirm``: per client address (each
    reset request may send a mail)."""

    scope = "password_reset"


class AccountThrottle(RedisRateThrottle):
    """The account's own operations that check its password or read all its data
    (password change, deletion, export): per user."""

    scope = "account"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None
        return self.key(str(request.user.pk))
