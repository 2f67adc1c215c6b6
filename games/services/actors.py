"""Who sends a command: a Django user, a bot, or the system (the turn timer)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.domain.decisions import BOT_ACTOR, SYSTEM, USER, ActorRef
from games.domain.events import new_nonce


@dataclass(frozen=True)
class BotActor:
    """A bot moving for a seat a bot plays; recorded in the event metadata.

    ``samples``: the sampled deals the strategy's search went through (``None`` when no
    search ran); with the version and seed it lets the move be decided again exactly
    (``bots.strategies.replay``). It depends on the bot's hidden cards, so the metadata
    also gets a fresh ``nonce`` and both are hidden until the hand is over
    (``games.domain.events.HIDDEN_ACTOR_FIELDS``).
    """

    level: str
    strategy_version: str
    seed: int | str | None = None
    samples: int | None = None


@dataclass(frozen=True)
class SystemActor:
    """The platform itself, e.g. ``SystemActor("timer")`` for turn timeouts."""

    name: str = "timer"


Actor = Any  # a Django user, BotActor, SystemActor, or None/AnonymousUser


def actor_ref(actor: Actor) -> ActorRef:
    """The domain's view of an actor (anonymous users get no rights)."""
    if isinstance(actor, BotActor):
        return ActorRef(BOT_ACTOR, name=actor.level)
    if isinstance(actor, SystemActor):
        return ActorRef(SYSTEM, name=actor.name)
    if actor is None or not getattr(actor, "is_authenticated", False):
        return ActorRef("anonymous")
    return ActorRef(USER, user_id=actor.pk, is_staff=bool(getattr(actor, "is_staff", False)))


def actor_metadata(actor: Actor) -> dict[str, Any]:
    """What the event metadata says about the actor."""
    if isinstance(actor, BotActor):
        bot: dict[str, Any] = {
            "kind": "bot",
            "level": actor.level,
            "strategy_version": actor.strategy_version,
            "seed": _json_safe(actor.seed),
        }
        if actor.samples is not None:
            bot["samples"] = actor.samples
        # Always, not only with samples: whether a search ran depends on the hidden cards
        # too, and without secret input the public hash would tell the few cases apart.
        bot["nonce"] = new_nonce()
        return {"actor": bot}
    if isinstance(actor, SystemActor):
        return {"actor": {"kind": "system", "name": actor.name}}
    if actor is None or not getattr(actor, "is_authenticated", False):
        return {"actor": {"kind": "anonymous"}}
    return {"actor": {"kind": "user", "user_id": actor.pk}}


def _json_safe(seed: int | str | None) -> int | str | None:
    # Stored JSON holds integers of at most 53 bits exactly; larger seeds are kept as text.
    if isinstance(seed, int) and not -(2**53) <= seed <= 2**53:
        return str(seed)
    return seed
