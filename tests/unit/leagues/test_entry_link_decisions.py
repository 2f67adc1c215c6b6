"""The invitation link's rules without a database: digests only in the events, the secret
compared in constant time, wrong/revoked/replaced secrets refused, the partner joining
enters the partnership, and the ordinary registration rules hold."""

from __future__ import annotations

from datetime import timedelta

import pytest

from leagues.core.errors import LeagueError
from leagues.domain import events as ev
from leagues.domain.decisions import (
    LinkSecretRequest,
    decide_issue_link,
    decide_join_partnership,
    decide_leave,
    decide_open_partnership,
    decide_revoke_link,
    link_digest,
    secret_matches,
)
from tests.unit.leagues.test_domain import NOW, ORGANISER, Stream

SECRET = "s" * 43
PARTNER = "p" * 43
PLAYER = {"kind": "user", "user_id": 7}


def linked(**spec: object) -> Stream:
    stream = Stream(**spec)
    stream.append(
        decide_issue_link(
            stream.state, link_id="L1", digest=link_digest(SECRET), now=NOW, actor=ORGANISER
        )
    )
    return stream


def opened(stream: Stream, player: str = "7", partnership: str = "P1") -> None:
    stream.append(
        decide_open_partnership(
            stream.state,
            secret=SECRET,
            partnership_id=partnership,
            partner_digest=link_digest(PARTNER),
            player=player,
            now=NOW,
            actor=PLAYER,
        )
    )


def test_secret_matches_only_its_digest() -> None:
    digest = link_digest(SECRET)
    assert secret_matches(digest, SECRET)
    assert not secret_matches(digest, SECRET[:-1] + "t")
    assert not secret_matches(None, SECRET)
    assert not secret_matches(digest, None)
    assert not secret_matches(digest, "x" * 129)


def test_events_carry_digests_never_secrets() -> None:
    stream = linked()
    opened(stream)
    [issued] = decide_issue_link(
        stream.state, link_id="L2", digest=link_digest(SECRET), now=NOW, actor=ORGANISER
    )
    assert SECRET not in str(issued.data) and issued.type == ev.ENTRY_LINK_ISSUED
    assert stream.state.partnership_of("7") is not None


def test_the_partner_joins_and_the_partnership_is_entered() -> None:
    stream = linked()
    opened(stream)
    joined, registered = decide_join_partnership(
        stream.state,
        partnership_id="P1",
        secret=PARTNER,
        partner="8",
        rating=0,
        now=NOW,
        actor={"kind": "user", "user_id": 8},
    )
    assert (joined.type, registered.type) == (ev.PARTNER_JOINED, ev.ENTRANT_REGISTERED)
    state = stream.append([joined, registered])
    assert state.entrants["l-P1"].players == ("7", "8")
    assert state.open_partnerships == {} and state.invitations == {}


@pytest.mark.parametrize(
    ("secret", "code"), [("wrong", "entry_link_closed"), (SECRET, "player_in_two_entrants")]
)
def test_wrong_secrets_and_a_second_entry_are_refused(secret: str, code: str) -> None:
    stream = linked()
    opened(stream)
    with pytest.raises(LeagueError) as refused:
        decide_open_partnership(
            stream.state,
            secret=secret,
            partnership_id="P2",
            partner_digest=link_digest(PARTNER),
            player="7",
            now=NOW,
            actor=PLAYER,
        )
    assert refused.value.code == code


def test_revoked_or_replaced_links_and_wrong_partner_secrets_are_refused() -> None:
    stream = linked()
    stream.append(
        decide_issue_link(
            stream.state, link_id="L2", digest=link_digest("n" * 43), now=NOW, actor=ORGANISER
        )
    )
    with pytest.raises(LeagueError, match="does not work"):
        opened(stream)
    stream.append(decide_revoke_link(stream.state, actor=ORGANISER))
    assert stream.state.entry_link is None
    with pytest.raises(LeagueError) as nothing:
        decide_revoke_link(stream.state, actor=ORGANISER)
    assert nothing.value.code == "no_entry_link"

    other = linked()
    opened(other)
    for partner, secret, code in [
        ("8", "wrong", "partner_link_closed"),
        ("7", PARTNER, "same_player_twice"),
    ]:
        with pytest.raises(LeagueError) as refused:
            decide_join_partnership(
                other.state,
                partnership_id="P1",
                secret=secret,
                partner=partner,
                rating=0,
                now=NOW,
                actor=PLAYER,
            )
        assert refused.value.code == code


def test_closed_registration_and_leaving() -> None:
    stream = Stream(registration_closes_at=(NOW - timedelta(hours=1)).isoformat())
    with pytest.raises(LeagueError) as late:
        decide_issue_link(
            stream.state, link_id="L1", digest=link_digest(SECRET), now=NOW, actor=ORGANISER
        )
    assert late.value.code == "registration_closed"
    # A link issued before the cut-off stops entering anyone after it.
    stream.append([ev.entry_link_issued(link_id="L1", digest=link_digest(SECRET), actor=ORGANISER)])
    with pytest.raises(LeagueError) as closed:
        opened(stream)
    assert closed.value.code == "registration_closed"

    open_one = linked()
    opened(open_one)
    [closed_event] = decide_leave(open_one.state, player="7", reason="", actor=PLAYER)
    assert closed_event.type == ev.PARTNERSHIP_CLOSED
    assert open_one.append([closed_event]).open_partnerships == {}


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"secret": ""},
        {"secret": "a b"},
        {"secret": 5},
        {"secret": "a" * 129},
        {"secret": "a", "more": 1},
    ],
)
def test_a_secret_body_is_bounded(body: object) -> None:
    with pytest.raises(LeagueError):
        LinkSecretRequest.parse(body)
    assert LinkSecretRequest.parse({"secret": SECRET}).secret == SECRET
