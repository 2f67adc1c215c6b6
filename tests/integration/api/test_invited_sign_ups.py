"""Sign-ups a club on one network does not hit the limit with (issue 19, point 5): the
per-address sign-up limit is a setting, and a sign-up that brings an open seat invitation
counts in a larger limit of its own. Counted in the real Redis throttle."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.integration.api.conftest import PASSWORD
from tests.integration.api.test_seat_invitations import friends_table, invitation, take
from tests.integration.api.test_throttles import assert_throttled

pytestmark = pytest.mark.django_db

GENEROUS = "1000/min"
CLUB = "10.0.9.9"


@pytest.fixture
def rates(settings: Any) -> Callable[..., None]:
    def set_rates(**small: str) -> None:
        settings.THROTTLE_RATES = {
            scope: small.get(scope, GENEROUS) for scope in settings.THROTTLE_RATES
        }

    return set_rates


def sign_up(name: str, invited: dict[str, Any] | None = None, address: str = CLUB) -> Any:
    body: dict[str, Any] = {"username": name, "password": PASSWORD}
    if invited is not None:
        body["invitation"] = invited
    return APIClient().post("/api/auth/register", body, format="json", REMOTE_ADDR=address)


def test_invited_sign_ups_pass_the_plain_limit_of_one_network(
    rates: Callable[..., None], make_client: Callable[..., APIClient]
) -> None:
    rates(register="2/hour", register_invited="4/hour")
    host = make_client("host")
    table_id = friends_table(host, ["north", "west"])
    north = {"table": table_id, "seat": "north", **_secret(host, table_id, "north")}

    plain = [sign_up(f"plain-{n}").status_code for n in range(2)]
    assert_throttled(sign_up("plain-3"), window=3600)
    # The club's network is out of plain sign-ups; the invited still sign up.
    invited = [sign_up(f"invited-{n}", north).status_code for n in range(4)]
    # The invited have a limit too (anyone may create a table with a kept seat).
    assert_throttled(sign_up("invited-5", north), window=3600)

    assert plain == [201, 201] and invited == [201] * 4
    users = get_user_model().objects
    assert not users.filter(username__in=["plain-3", "invited-5"]).exists()


def test_a_closed_or_wrong_invitation_is_refused_and_counts_as_plain(
    rates: Callable[..., None], make_client: Callable[..., APIClient]
) -> None:
    rates(register="1/hour", register_invited="100/hour")
    host = make_client("host")
    friend = make_client("friend")
    table_id = friends_table(host, ["north"])
    secret = _secret(host, table_id, "north")["secret"]
    wrong = {"table": table_id, "seat": "north", "secret": secret[:-2] + "xx"}

    refused = sign_up("guesser", wrong)
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid"
    assert secret not in refused.content.decode()
    # The wrong invitation used the address's one plain sign-up.
    assert_throttled(sign_up("guesser", wrong), window=3600)
    # Once the friend sat down the invitation is closed: no more exempt sign-ups with it.
    assert take(friend, table_id, "north", secret).status_code == 200
    used = {"table": table_id, "seat": "north", "secret": secret}
    assert_throttled(sign_up("late", used), window=3600)
    assert sign_up("late", used, address="10.0.9.10").status_code == 400


@pytest.mark.parametrize(
    "hostile",
    [
        "not an object",
        {"table": "x", "seat": "north", "secret": "s"},
        {"table": "00000000-0000-0000-0000-000000000000", "seat": "north", "secret": "s"},
        {"table": "00000000-0000-0000-0000-000000000000", "seat": "up", "secret": "s"},
        {"table": "00000000-0000-0000-0000-000000000000", "seat": "north", "secret": "s" * 500},
        {"table": "00000000-0000-0000-0000-000000000000", "seat": "north", "extra": 1},
    ],
)
def test_hostile_invitations_are_refused(rates: Callable[..., None], hostile: Any) -> None:
    rates()
    answer = sign_up("hostile", hostile)
    assert answer.status_code == 400, answer.content
    assert not get_user_model().objects.filter(username="hostile").exists()


def _secret(host: APIClient, table_id: str, seat: str) -> dict[str, str]:
    return {"secret": str(invitation(host, table_id, seat)["secret"])}
