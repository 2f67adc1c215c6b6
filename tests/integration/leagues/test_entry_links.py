"""The competition's invitation link (issue 19, point 5): a new player signs up through it
(counted on the invited sign-up limit) and is in, with a partner link of their own; the
partner follows it and the entrant is entered. Wrong, revoked or used secrets are refused
in words and write nothing; a full competition refuses the newcomer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from eventstore.models import Event
from leagues.models import EntryLinkSecret
from tests.factories import UserFactory
from tests.integration.api.test_throttles import assert_throttled
from tests.integration.leagues import builders as lg

from .conftest import event_count
from .test_verify_and_api import client_for

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough passphrase 7"
CLUB = "10.0.19.5"


@pytest.fixture
def cid(organiser: Any) -> str:
    state = lg.create_competition(
        organiser,
        {
            "name": "Club night",
            "stages": [{"kind": "swiss", "rounds": 3}],
            "rules": {"preset": "standard", "target_score": 100, "lose_score": -100},
        },
    )
    return state.competition_id


@pytest.fixture
def rates(settings: Any) -> Callable[..., None]:
    def set_rates(**small: str) -> None:
        settings.THROTTLE_RATES = {
            scope: small.get(scope, "1000/min") for scope in settings.THROTTLE_RATES
        }

    return set_rates


def issue(organiser: Any, cid: str) -> dict[str, str]:
    answer = client_for(organiser).post(f"/api/competitions/{cid}/entry-link", format="json")
    assert answer.status_code == 201, answer.content
    return dict(answer.json()["link"])


def sign_up(name: str, link: dict[str, Any] | None = None, address: str = CLUB) -> Any:
    body: dict[str, Any] = {"username": name, "password": PASSWORD}
    if link is not None:
        body["competition_link"] = link
    return APIClient().post("/api/auth/register", body, format="json", REMOTE_ADDR=address)


def token_client(answer: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return client


def follow(client: APIClient, cid: str, secret: str) -> Any:
    return client.post(
        f"/api/competitions/{cid}/entry-link/join", {"secret": secret}, format="json"
    )


def join(client: APIClient, cid: str, partnership: str, secret: str) -> Any:
    return client.post(
        f"/api/competitions/{cid}/partnerships/{partnership}/join",
        {"secret": secret},
        format="json",
    )


def test_a_new_player_and_their_partner_come_in_by_the_links(
    organiser: Any, cid: str, rates: Callable[..., None]
) -> None:
    rates()
    link = issue(organiser, cid)
    assert link["path"] == f"/competitions/{cid}/join/#link={link['secret']}"

    first = sign_up("newcomer", {"competition": cid, "secret": link["secret"]})
    assert first.status_code == 201, first.content
    me = token_client(first)
    opened = follow(me, cid, link["secret"])
    assert opened.status_code == 201, opened.content
    partner_link = opened.json()["partner_link"]
    partnership = opened.json()["partnership_id"]
    assert partner_link["path"].endswith(f"?partner={partnership}#partner={partner_link['secret']}")
    # The events keep digests only.
    stored = Event.objects.filter(stream_id=f"competition-{cid}")
    assert not any(
        s in str(e.data) for e in stored for s in (link["secret"], partner_link["secret"])
    )
    overview = client_for(organiser).get(f"/api/competitions/{cid}").json()
    assert overview["waiting"] == [{"id": partnership, "player": str(first.json()["user"]["id"])}]
    assert me.get(f"/api/competitions/{cid}/me").json()["partner_link"] == partner_link

    partner_answer = sign_up(
        "partner",
        {"competition": cid, "secret": partner_link["secret"], "partnership": partnership},
    )
    assert partner_answer.status_code == 201, partner_answer.content
    partner = token_client(partner_answer)
    joined = join(partner, cid, partnership, partner_link["secret"])
    assert joined.status_code == 201, joined.content
    entrant_id = joined.json()["entrant_id"]

    overview = client_for(organiser).get(f"/api/competitions/{cid}").json()
    [entrant] = overview["entrants"]
    assert entrant["id"] == entrant_id and entrant["status"] == "entered"
    assert {overview["players"][p] for p in entrant["players"]} == {"newcomer", "partner"}
    assert overview["waiting"] == []
    # The partner link is used up: its secret is gone and it enters nobody else.
    assert not EntryLinkSecret.objects.filter(link_id=partnership).exists()
    third = client_for(lg_user("third"))
    before = event_count()
    again = join(third, cid, partnership, partner_link["secret"])
    assert again.status_code == 403 and "partner link does not work" in again.json()["message"]
    assert event_count() == before
    # Pairing takes it like any entrant (a second, registered the ordinary way).
    assert overview["entrants"][0]["playing"] == entrant["players"]


def lg_user(name: str) -> Any:
    return UserFactory(username=name)


def test_link_sign_ups_count_on_the_invited_limit(
    organiser: Any, cid: str, rates: Callable[..., None]
) -> None:
    rates(register="1/hour", register_invited="3/hour")
    link = issue(organiser, cid)
    assert sign_up("plain-1").status_code == 201
    assert_throttled(sign_up("plain-2"), window=3600)
    with_link = {"competition": cid, "secret": link["secret"]}
    assert [sign_up(f"club-{n}", with_link).status_code for n in range(3)] == [201] * 3
    assert_throttled(sign_up("club-4", with_link), window=3600)


def test_a_wrong_secret_is_refused_in_words_and_writes_nothing(
    organiser: Any, cid: str, players: Callable[[int], list[Any]], rates: Callable[..., None]
) -> None:
    rates(register="1/hour", register_invited="100/hour")
    link = issue(organiser, cid)
    wrong = link["secret"][:-2] + ("xx" if not link["secret"].endswith("xx") else "yy")
    [someone] = players(1)
    before = event_count()

    answer = follow(client_for(someone), cid, wrong)

    assert answer.status_code == 403
    assert "invitation link does not work" in answer.json()["message"]
    assert event_count() == before
    # A sign-up with it is refused, and counted as a plain one.
    refused = sign_up("guesser", {"competition": cid, "secret": wrong})
    assert refused.status_code == 400 and link["secret"] not in refused.content.decode()
    assert_throttled(sign_up("guesser", {"competition": cid, "secret": wrong}), window=3600)
    hostile = follow(client_for(someone), cid, "x" * 500)
    assert hostile.status_code == 400 and "at most 128" in hostile.json()["message"]


def test_a_revoked_or_replaced_link_is_refused(
    organiser: Any, cid: str, players: Callable[[int], list[Any]]
) -> None:
    old = issue(organiser, cid)
    new = issue(organiser, cid)
    assert old["secret"] != new["secret"]
    a, b = players(2)
    assert follow(client_for(a), cid, old["secret"]).status_code == 403
    revoked = client_for(organiser).post(
        f"/api/competitions/{cid}/entry-link/revoke", format="json"
    )
    assert revoked.status_code == 200
    assert client_for(organiser).get(f"/api/competitions/{cid}/entry-link").json()["link"] is None
    before = event_count()
    assert follow(client_for(b), cid, new["secret"]).status_code == 403
    assert event_count() == before
    # Only an organiser sees or issues the link.
    assert client_for(a).get(f"/api/competitions/{cid}/entry-link").status_code == 403
    assert (
        client_for(a).post(f"/api/competitions/{cid}/entry-link", format="json").status_code == 403
    )


def test_a_full_competition_and_a_player_already_in_are_refused(
    organiser: Any, cid: str, players: Callable[[int], list[Any]], settings: Any
) -> None:
    settings.SPADES_MAX_ENTRANTS_PER_COMPETITION = 1
    link = issue(organiser, cid)
    a, b, c = players(3)
    opened = follow(client_for(a), cid, link["secret"])
    assert opened.status_code == 201
    # a waits for a partner: following again, or joining their own link, is refused.
    twice = follow(client_for(a), cid, link["secret"])
    assert twice.status_code == 400 and "waiting for a partner" in twice.json()["message"]
    own = opened.json()
    assert (
        join(client_for(a), cid, own["partnership_id"], own["partner_link"]["secret"]).status_code
        == 400
    )
    before = event_count()
    full = follow(client_for(b), cid, link["secret"])
    assert full.status_code == 429 and "full" in full.json()["message"]
    assert event_count() == before
    # The waiting partnership becomes the one entrant.
    joined = join(client_for(c), cid, own["partnership_id"], own["partner_link"]["secret"])
    assert joined.status_code == 201, joined.content
    # Leaving before a partner joins closes the partner link.


def test_leaving_before_a_partner_joins_closes_the_partner_link(
    organiser: Any, cid: str, players: Callable[[int], list[Any]]
) -> None:
    link = issue(organiser, cid)
    a, b = players(2)
    own = follow(client_for(a), cid, link["secret"]).json()
    left = client_for(a).post(f"/api/competitions/{cid}/leave", {}, format="json")
    assert left.status_code == 200, left.content
    assert left.json()["waiting"] == []
    late = join(client_for(b), cid, own["partnership_id"], own["partner_link"]["secret"])
    assert late.status_code == 403


def test_closed_registration_refuses_the_link(organiser: Any, swiss: Callable[..., str]) -> None:
    cid = swiss(4)
    link = issue(organiser, cid)
    assert (
        client_for(organiser).post(f"/api/competitions/{cid}/rounds", {}, format="json").status_code
        == 201
    )
    newcomer = lg_user("late-newcomer")
    answer = follow(client_for(newcomer), cid, link["secret"])
    assert answer.status_code == 409 and "registration is closed" in answer.json()["message"]
    refused = sign_up("late-signup", {"competition": cid, "secret": link["secret"]})
    assert refused.status_code == 400
