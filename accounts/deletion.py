"""Deleting an account: the user row becomes a pseudonym, nothing in the event log changes.

Events name players by user id, and their hashes cover those ids, so the row stays (every
history still folds, every hash, digest and signed checkpoint still verifies) but holds
nothing personal: the username becomes ``deleted-<id>``, the e-mail, names and password
go, staff rights and group memberships go, the account can no longer log in, and its API
token is revoked. The free text the person typed or that names them, which events refer
to (entrant, partnership, competition and league names, organisers' and players'
reasons: ``eventstore.erasable_store``), is erased, the competitions' and leagues' rows
that copy a name are brought in line, and the tables' read model shows the pseudonym.
Refused while the person still holds a seat a person must play (a table not yet started,
or one in play that no bot plays for them): they leave it, or hand it to a bot, first.
"""

from __future__ import annotations

import secrets
from typing import Any

from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.tokens import revoke_token
from eventstore.erasable import user_subject
from eventstore.erasable_store import erase_subject
from games.selectors.tables import tables_waiting_on
from games.services.read_model import rename_player
from leagues.services.erased_names import refresh_names_of

PSEUDONYM_PREFIX = "deleted-"


class AccountInPlay(Exception):
    """The account still holds seats a person must play (``tables``: their ids)."""

    def __init__(self, tables: list[str]) -> None:
        super().__init__(f"the account holds seats at {len(tables)} table(s)")
        self.tables = tables


def is_pseudonym(username: str) -> bool:
    """Whether a username has the deleted accounts' form (new accounts may not take it)."""
    return username.casefold().startswith(PSEUDONYM_PREFIX)


def delete_account(user: Any) -> str:
    """Pseudonymise ``user`` (see the module); returns the pseudonym."""
    users = get_user_model()._default_manager
    with transaction.atomic():
        account = users.select_for_update().get(pk=user.pk)
        waiting = tables_waiting_on(account.pk)
        if waiting:
            raise AccountInPlay(waiting)
        former = account.get_username()
        pseudonym = f"{PSEUDONYM_PREFIX}{account.pk}"
        if users.filter(username__iexact=pseudonym).exclude(pk=account.pk).exists():
            pseudonym = f"{pseudonym}-{secrets.token_hex(4)}"  # taken before the rule
        account.username = pseudonym
        account.email = ""
        account.first_name = ""
        account.last_name = ""
        account.is_active = False
        account.is_staff = False
        account.is_superuser = False
        # Also voids every session (their hash covers the password) and reset link.
        account.set_unusable_password()
        account.save()
        account.groups.clear()
        account.user_permissions.clear()
        revoke_token(account)
        erase_subject(user_subject(account.pk))
        refresh_names_of(account.pk)
        rename_player(account.pk, pseudonym)
        AccessAttempt.objects.filter(username=former).delete()
    return pseudonym
