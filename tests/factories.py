"""Factory-boy factories shared by the test suite: users and tables."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model

from games.models import Table
from games.services.table_commands import StartGame, TakeSeat, create_table, execute


class UserFactory(factory.django.DjangoModelFactory):
    """A player whose password is ``"pw-password"``."""

    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.org")
    password = factory.django.Password("pw-password")


class AdminFactory(UserFactory):
    """A staff superuser (manages presets)."""

    username = factory.Sequence(lambda n: f"admin{n}")
    is_staff = True
    is_superuser = True


class TableFactory(factory.Factory):
    """A table created through the command service (the only way tables come to be).

    ``TableFactory(seats={"east": "bot"}, rules="easy")`` returns the ``games.models.Table``
    row; ``creator`` defaults to a new user.  ``players={"north": user}`` seats users and
    ``started=True`` starts the game (all human seats must then be taken).
    """

    class Meta:
        model = dict

    creator = factory.SubFactory(UserFactory)
    rules: Any = "standard"
    seats: Any = None
    turn_timer_seconds: Any = None
    spectator_delay_tricks = 0
    players: Any = None
    started = False
    first_dealer: Any = "north"

    @classmethod
    def _create(cls, model_class: Any, **kwargs: Any) -> Any:

        result = create_table(
            actor=kwargs["creator"],
            rules=kwargs["rules"],
            seats=kwargs["seats"],
            turn_timer_seconds=kwargs["turn_timer_seconds"],
            spectator_delay_tricks=kwargs["spectator_delay_tricks"],
        )
        for seat, user in (kwargs["players"] or {}).items():
            execute(TakeSeat(result.table_id, seat), user)
        if kwargs["started"]:
            execute(StartGame(result.table_id, kwargs["first_dealer"]), kwargs["creator"])
        return Table.objects.get(id=result.table_id)

    _build = _create
