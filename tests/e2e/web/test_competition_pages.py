"""The tournament pages through the real stack: a bots-played round followed live on the
public page over the competition's socket (no poll while it is up), an organiser creating
a competition, entering scoresheets and correcting a result with a reason, and an
organiser checking entrants in, recording a no-show, withdrawing, substituting and
late-joining while the public page follows.

Match results from tables reach the competition through the leagues projections, so this
module runs a projector process beside the session's daphne and worker.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from accounts.registration import token_for
from games.models import Table
from leagues.services.presence import arrive
from leagues.services.streams import load
from leagues.services.tables import start_round
from scoring.services.presets import create_preset
from services.testing.processes import ManagedProcess, database_env
from tests.e2e.web.conftest import SCREENSHOTS, Server
from tests.e2e.web.steps import assert_controls_named, axe_violations, competition_of_teams
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg
from tests.integration.live.conftest import wait_until

WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def projector(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """``services.projector`` on the test database (table results -> competitions)."""
    from django.conf import settings
    from django.db import connection

    env = database_env(connection.settings_dict, settings.REDIS_URL)
    logs = tmp_path_factory.mktemp("e2e-projector")
    heartbeat = logs / "projector.heartbeat"
    env["SPADES_PROJECTOR_HEARTBEAT"] = str(heartbeat)
    process = ManagedProcess(
        "e2e-projector",
        "services.projector",
        ["--poll", "0.5"],
        env,
        logs,
        lambda _process: heartbeat.exists(),
    )
    process.start(timeout=120)
    try:
        yield process
    finally:
        process.stop()


def users(count: int) -> list[Any]:
    tag = uuid.uuid4().hex[:8]
    return [UserFactory(username=f"e2e-c{tag}-{k}") for k in range(count)]


def sign_in_as(page: Any, user: Any) -> None:
    """The browser holds ``user``'s API token, as after logging in on the play page."""
    page.goto("/competitions/")
    auth = json.dumps({"token": token_for(user), "username": user.username})
    page.evaluate("value => localStorage.setItem('spades.auth', value)", auth)


def shoot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def at_both_sizes(page: Any, name: str) -> None:
    """Screenshots at 1280x900 and 390x844, every visible control named at each."""
    for label, size in (("wide", WIDE), ("phone", PHONE)):
        page.set_viewport_size(size)
        assert_controls_named(page)
        shoot(page, f"{name}-{label}")
    page.set_viewport_size(WIDE)


def mp_cell(page: Any, entrant: str) -> Any:
    return page.locator(
        f'#standings-table tr[data-entrant="{entrant}"] td[data-column="match_points"]'
    )


def follow_reads_and_pushes(page: Any, cid: str) -> list[tuple[str, int]]:
    """In order: each read of the competition's overview (``GET /api/competitions/<id>``,
    the read the page's refresh and its poll start with) and each version the competition's
    socket pushes to the page."""
    timeline: list[tuple[str, int]] = []
    overview = f"/api/competitions/{cid}"

    def on_request(request: Any) -> None:
        if request.method == "GET" and urlsplit(request.url).path == overview:
            timeline.append(("read", 0))

    def on_frame(payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "standings":
            timeline.append(("push", int(message["version"])))

    def on_socket(socket: Any) -> None:
        if urlsplit(socket.url).path == f"/ws/competitions/{cid}/":
            socket.on("framereceived", on_frame)

    page.on("request", on_request)
    page.on("websocket", on_socket)
    return timeline


def assert_no_poll(timeline: list[tuple[str, int]]) -> None:
    """After the first load, every read follows a push of a version the page had not
    seen: reads are caused by the socket, none by a timer."""
    reads = [k for k, (kind, _) in enumerate(timeline) if kind == "read"]
    pushes = [version for kind, version in timeline if kind == "push"]
    assert reads and reads[0] == 0, timeline  # the page loads before it connects
    assert len(set(pushes)) >= 3, timeline  # round started, results, round closed
    newest = 0
    fresh = 0  # new versions pushed since the last read
    for kind, version in timeline[1:]:
        if kind == "push" and version > newest:
            newest = version
            fresh += 1
        elif kind == "read":
            assert fresh, f"a read no push asked for (a poll): {timeline}"
            fresh = 0


def test_a_tournament_page_follows_a_bots_played_round_live(
    page: Any, orm: None, projector: Any
) -> None:
    organiser, *players = users(9)
    # Bots play every seat, with no pause between moves: a game to 300 lasts a few hands,
    # long enough to see the tiles follow it.
    spec = {
        "name": "Bots night",
        "stages": [{"kind": "swiss", "rounds": 2}],
        "rules": {"preset": "standard", "target_score": 300},
        "bot_level": "easy",
    }
    cid = competition_of_teams(organiser, players, spec, 4)
    lg.pair_next_round(organiser, cid, round_number=1)
    page.set_viewport_size(WIDE)

    # A player of the competition sees the next match in the play page's lobby...
    sign_in_as(page, players[0])
    page.goto("/")
    mine = page.locator("#next-matches-list li", has_text="Bots night")
    expect(mine).to_contain_text(re.compile(r"Round 1, board \d: you play .* against Team \d"))
    expect(mine).to_contain_text("its table opens when the round starts")
    assert_controls_named(page)
    shoot(page, "lobby-next-match-wide")

    # A preset under which a bot's first lead is refused (every first lead must be the 2♣):
    # the what-if cannot compare those tables (made before the page lists the presets).
    clubs = f"e2e-clubs-{uuid.uuid4().hex[:8]}"
    create_preset(clubs, {"target_score": 300, "first_lead": "two_of_clubs"}, description="2♣")

    # ... and on the competition page, which follows the competition over its socket.
    timeline = follow_reads_and_pushes(page, cid)
    page.goto(f"/competitions/{cid}/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("body")).to_have_attribute("data-live", "live")
    expect(page.locator("#live-note")).to_have_text(
        "Live: the page updates as the competition moves on."
    )
    expect(page.locator("#competition-name")).to_have_text("Bots night")
    expect(page.locator("#next-match-text")).to_contain_text("Round 1, board")
    expect(page.locator('.round[data-round="1"] h3')).to_have_text("Round 1 (paired, not started)")
    # Every declared tie-break has its column.
    for column in ("tiebreak:head_to_head", "tiebreak:buchholz", "tiebreak:sonneborn_berger"):
        expect(page.locator(f'#standings-table th[data-column="{column}"]')).to_be_visible()
    expect(page.locator("#boards-section")).to_be_hidden()

    start_round(organiser, cid, 1)

    # The page sees the round start and opens a tile per table, each live on its own socket.
    tiles = page.locator("#board-tiles .board-tile")
    expect(tiles).to_have_count(2)
    expect(page.locator("#boards-heading")).to_have_text("Round 1: live boards")
    expect(page.locator("#next-match-link")).to_have_attribute("href", re.compile(r"^/\?table="))
    expect(tiles.first.locator('[data-part="tile-watch"]')).to_have_attribute(
        "href", f"/tables/{tiles.first.get_attribute('data-table')}/watch/"
    )
    # Cards land on the tiles' tricks as the bots play: the tiles follow the tables live.
    expect(page.locator("#board-tiles .trick-slot .card").first).to_be_visible(timeout=60_000)
    # ... and hand after hand: a tile's hand number moves on while the page stays open.
    expect(
        # Hand 2 or later: the bots may be several hands on by the time a tile is drawn.
        page.locator(
            '#board-tiles [data-part="hand-number"]', has_text=re.compile(r"Hand ([2-9]|\d{2,})")
        ).first
    ).to_be_visible(timeout=120_000)
    at_both_sizes(page, "competition-live")

    # When the tables finish, the results land: the round closes, 2 match points each for
    # the two winners, flagged as bot-played; the chart draws one line per entrant.
    expect(page.locator('.round[data-round="1"] h3')).to_have_text(
        "Round 1 (complete)", timeout=240_000
    )
    winners = page.locator('#standings-table td[data-column="match_points"]', has_text="2")
    expect(winners).to_have_count(2)
    expect(page.locator('.round[data-round="1"] [data-flag="bot"]')).to_have_count(2)
    expect(page.locator("#standings-chart polyline")).to_have_count(4)
    expect(page.locator("#chart-legend li")).to_have_count(4)
    # The finished boards stay on the page with their final positions.
    finished = page.locator('#board-tiles [data-part="status-line"]', has_text="Game over.")
    expect(finished).to_have_count(2)
    expect(page.locator("#boards-heading")).to_have_text("Round 1: final boards")
    # The whole round came over the socket: the page read the competition again only
    # after the socket announced a newer version, never on a timer.
    assert_no_poll(timeline)
    expect(page.locator("body")).to_have_attribute("data-live", "live")

    # What if head-to-head were dropped for wins first?  The recomputed table says who moved.
    page.select_option("#whatif-tiebreak-1", "wins")
    page.click("#whatif-submit")
    expect(page.locator("#whatif-result")).to_have_attribute("data-comparable", "true")
    expect(page.locator("#whatif-summary")).to_contain_text("With Wins")
    expect(page.locator("#whatif-table tbody tr")).to_have_count(4)
    expect(page.locator('#whatif-table td[data-column="change"]')).to_have_count(4)
    shoot(page, "competition-whatif-wide")
    # Under a preset that refuses a move the bots played, those tables are not comparable:
    # each is named with the sentence its replay's rescoring shows, and stands as played.
    page.select_option("#whatif-preset", clubs)
    page.click("#whatif-submit")
    expect(page.locator("#whatif-result")).to_have_attribute("data-comparable", "false")
    expect(page.locator("#whatif-summary")).to_contain_text("not comparable under these rules")
    expect(page.locator("#whatif-table tbody tr")).to_have_count(4)
    for tile in tiles.all():
        table_id = tile.get_attribute("data-table")
        rescored = page.request.get(f"/api/tables/{table_id}/rescore?rules={clubs}").json()
        if not rescored["comparable"]:
            item = page.locator(f'#whatif-incomparable a[href="/tables/{table_id}/replay/"]')
            expect(item.locator("xpath=..")).to_contain_text(rescored["reason"])
    at_both_sizes(page, "competition-finished-round")


def scoresheet(page: Any, board: int, bids: list[str], tricks: list[str]) -> None:
    page.click(f'#organise-rounds li[data-board="{board}"] button[data-action="result"]')
    expect(page.locator("#result-panel")).to_be_visible()
    for seat, bid, took in zip(("north", "east", "south", "west"), bids, tricks, strict=True):
        page.fill(f'#scoresheet-rows input[data-kind="bid"][data-seat="{seat}"]', bid)
        page.fill(f'#scoresheet-rows input[data-kind="tricks"][data-seat="{seat}"]', took)
    page.click("#result-submit")


def test_going_to_my_table_arrives_and_the_fourth_player_starts_the_game(
    page: Any, orm: None
) -> None:
    """A human competition: the round opens with the players seated and the game waiting;
    three have arrived, the fourth follows "Go to my table" on the competition page, which
    checks them in at the table, and the game starts."""
    organiser, *players = users(5)
    spec = {
        "name": "Club night",
        "stages": [{"kind": "swiss", "rounds": 1}],
        "rules": {"preset": "standard", "target_score": 300},
    }
    cid = lg.create_competition(organiser, spec).competition_id
    for k in range(2):
        pair = [str(players[2 * k].pk), str(players[2 * k + 1].pk)]
        lg.enter(organiser, cid, entrant_id=f"club-{k}", players=pair)
    lg.pair_next_round(organiser, cid, round_number=1)
    start_round(organiser, cid, 1)
    seating = load(cid).seating(1, 1)
    by_id = {str(p.pk): p for p in players}
    last = by_id[seating["west"]]
    for seat in ("north", "east", "south"):
        arrive(by_id[seating[seat]], cid, 1)

    sign_in_as(page, last)
    page.goto(f"/competitions/{cid}/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    link = page.locator("#next-match-link")
    expect(link).to_have_text("Go to my table (board 1)")
    shoot(page, "competition-go-to-my-table-wide")
    link.click()

    def game_started() -> bool:
        return Table.objects.get(id=load(cid).tables[1][1]).status == "playing"

    wait_until(game_started, 30, "the fourth arrival started the game", poll=0.2)
    assert load(cid).arrived[1][1] == set(seating.values())
    # The link went on to the table: the player's own seat, in the game.
    expect(page.get_by_role("heading", name="You & partner (East-West)")).to_be_visible()
    shoot(page, "competition-table-after-arrival-wide")


def test_the_organiser_creates_enters_results_and_corrects_one(page: Any, orm: None) -> None:
    organiser, *players = users(9)
    sign_in_as(page, organiser)
    page.set_viewport_size(PHONE)

    # Create: a Swiss of two rounds, one hand a match.
    page.goto("/competitions/new/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.fill("#new-name", "Club night")
    page.fill("#new-stage-1-rounds", "2")
    page.check("input[name=match][value=fixed]")
    page.fill("#new-hands", "1")
    at_both_sizes(page, "competition-new")
    page.click("#new-submit")
    expect(page).to_have_url(re.compile(r"/competitions/[0-9a-f-]{36}/organise/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#organise-heading")).to_have_text("Organise: Club night")
    cid = page.url.split("/competitions/")[1].split("/")[0]

    # Register four partnerships by username; an unknown player is the server's sentence.
    page.fill("#entrant-name", "Nobody")
    page.fill("#entrant-player-1", "no-such-player-x")
    page.fill("#entrant-player-2", players[0].username)
    page.click("#entrant-submit")
    expect(page.locator("#entrant-error")).to_have_text(
        "There is no player called 'no-such-player-x'."
    )
    for k, team in enumerate(("Aces", "Kings", "Queens", "Jacks")):
        page.fill("#entrant-name", team)
        page.fill("#entrant-player-1", players[2 * k].username)
        page.fill("#entrant-player-2", players[2 * k + 1].username)
        page.click("#entrant-submit")
        expect(page.locator("#entrant-list li")).to_have_count(k + 1)
    expect(page.locator("#entrant-list")).to_contain_text(
        f"Aces ({players[0].username} & {players[1].username})"
    )
    # Registered by the organiser, each partnership is an invitation: nobody is paired
    # until both its players have accepted.
    expect(page.locator("#entrant-list li", has_text="Aces")).to_contain_text(
        f"invited: waiting for {players[0].username} & {players[1].username} to accept"
    )
    for entrant_id in load(cid).invitations:
        lg.accept_all(cid, entrant_id)
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#entrant-list")).not_to_contain_text("invited")

    page.click("#pair-round")
    expect(page.locator('#organise-rounds .round[data-round="1"] li')).to_have_count(2)
    at_both_sizes(page, "competition-organise")

    # A scoresheet whose tricks do not add up is refused in the server's words.
    scoresheet(page, 1, ["4", "3", "4", "2"], ["5", "3", "4", "0"])
    expect(page.locator("#result-error")).to_contain_text("the tricks add up to 12, not 13")
    page.fill('#scoresheet-rows input[data-kind="tricks"][data-seat="west"]', "1")
    page.click("#result-submit")
    expect(page.locator("#result-panel")).to_be_hidden()
    board_1 = page.locator('#organise-rounds li[data-board="1"]')
    expect(board_1).to_contain_text("81 – −50")  # N-S bid 8 took 9; E-W bid 5 took 4
    scoresheet(page, 2, ["3", "3", "3", "3"], ["3", "4", "3", "3"])
    expect(page.locator('#organise-rounds li[data-board="2"]')).to_contain_text("won")

    north_south = page.evaluate(
        """async (cid) => (await (await fetch(`/api/competitions/${cid}/rounds`)).json())
            .rounds[0].matches[0]""",
        cid,
    )
    winner, loser = north_south["north_south"], north_south["east_west"]
    page.goto(f"/competitions/{cid}/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(mp_cell(page, winner)).to_have_text("2")
    expect(mp_cell(page, loser)).to_have_text("0")
    expect(page.locator('.round[data-round="1"] [data-flag="scoresheet"]')).to_have_count(2)

    # Correct board 1: a correction needs its reason (the server's sentence), then counts.
    page.goto(f"/competitions/{cid}/organise/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.click('#organise-rounds li[data-board="1"] button[data-action="correct"]')
    page.fill("#correct-ns", "40")
    page.fill("#correct-ew", "120")
    page.select_option("#correct-winner", "east_west")
    page.click("#correct-submit")
    expect(page.locator("#correct-error")).to_have_text("Reason is a text of 1 to 500 characters.")
    page.fill("#correct-reason", "East's tricks were miscounted")
    page.click("#correct-submit")
    expect(page.locator("#correct-panel")).to_be_hidden()
    expect(board_1.locator('[data-flag="corrected"]')).to_have_text(
        "Corrected: East's tricks were miscounted"
    )
    expect(board_1).to_contain_text("40 – 120")

    page.goto(f"/competitions/{cid}/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(mp_cell(page, winner)).to_have_text("0")
    expect(mp_cell(page, loser)).to_have_text("2")
    flag = page.locator('.round[data-round="1"] tr[data-board="1"] [data-flag="corrected"]')
    expect(flag).to_have_text("Corrected: East's tricks were miscounted")
    at_both_sizes(page, "competition-corrected")

    page.goto("/competitions/")
    expect(page.locator(f'#competition-list tr[data-competition="{cid}"]')).to_contain_text(
        "Club night"
    )
    at_both_sizes(page, "competitions-list")


def test_the_organiser_checks_in_forfeits_withdraws_and_the_public_page_follows(
    page: Any, orm: None, projector: Any
) -> None:
    organiser, *players = users(12)
    spec = {
        "name": "Late club",
        "stages": [{"kind": "swiss", "rounds": 2}],
        "rules": {"preset": "standard"},
        "fixed_hands": 1,
        "check_in": True,
        "late_join_until_round": 2,
        "match_points": {"late_join": 1},
    }
    cid = competition_of_teams(organiser, players, spec, 4, reserves={0: players[8]})
    teams = [f"team-{k}" for k in range(4)]
    sign_in_as(page, organiser)
    page.set_viewport_size(WIDE)
    page.goto(f"/competitions/{cid}/organise/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    entrant = lambda team: page.locator(f'#entrant-list li[data-entrant="{team}"]')  # noqa: E731

    # Check-in gates pairing: the server's sentence, next to the rounds; then each entrant.
    page.click("#pair-round")
    expect(page.locator("#rounds-error")).to_contain_text("Not checked in for round 1")
    for team in teams:
        entrant(team).locator('button[data-action="check-in"]').click()
        expect(entrant(team)).to_contain_text("checked in for round 1")
    page.click("#pair-round")
    expect(page.locator('#organise-rounds .round[data-round="1"] li')).to_have_count(2)
    board_1 = load(cid).paired_round(1).pairing.matches[0]  # type: ignore[union-attr]
    # The side that does not come is not team 0 (its reserve comes in below).
    side, words, radio = ("east_west", "East-West", "#forfeit-ew")
    if board_1.east_west == "team-0":
        side, words, radio = ("north_south", "North-South", "#forfeit-ns")
    absent = getattr(board_1, side)
    present = board_1.north_south if side == "east_west" else board_1.east_west

    # The public page, open in another tab, follows what the organiser does next.
    public = page.context.new_page()
    public.goto(f"/competitions/{cid}/")
    expect(public.locator("body")).to_have_attribute("data-live", "live")

    # A no-show on board 1: one side never sat down.
    row = page.locator('#organise-rounds li[data-board="1"]')
    row.locator('button[data-action="forfeit"]').click()
    expect(page.locator("#forfeit-panel")).to_be_visible()
    page.check(radio)
    page.check("#forfeit-no-show")
    page.fill("#forfeit-reason", "They never came")
    assert axe_violations(page) == []
    at_both_sizes(page, "competition-organise-forfeit")
    page.click("#forfeit-submit")
    expect(page.locator("#forfeit-panel")).to_be_hidden()
    expect(row.locator('[data-flag="forfeit"]')).to_have_text(
        f"No-show by {words}: They never came"
    )

    # Withdraw the absent entrant, with a reason.
    entrant(absent).locator('button[data-action="withdraw"]').click()
    expect(page.locator("#withdraw-heading")).to_contain_text("Withdraw Team")
    page.fill("#withdraw-reason", "Moved away")
    page.click("#withdraw-submit")
    expect(entrant(absent)).to_contain_text("withdrawn after round 1")
    expect(entrant(absent).locator("button")).to_have_count(0)

    # Team 0's reserve comes in for its second player (the form offers the reserve).
    entrant("team-0").locator('button[data-action="substitute"]').click()
    expect(page.locator("#substitute-in")).to_have_value(players[8].username)
    page.select_option("#substitute-out", str(players[1].pk))
    assert axe_violations(page) == []
    page.click("#substitute-submit")
    expect(entrant("team-0")).to_contain_text(
        f"plays as {players[0].username} & {players[8].username} from now on"
    )

    # Late entry: the rule is on the page; a player already entered is the server's refusal.
    expect(page.locator("#late-join-rule")).to_have_text(
        "Late entrants can join until round 2 and play from round 2; "
        "each round missed counts 1 match point."
    )
    page.fill("#late-name", "Latecomers")
    page.fill("#late-player-1", players[2].username)
    page.fill("#late-player-2", players[10].username)
    page.click("#late-submit")
    expect(page.locator("#late-error")).to_contain_text(
        "a player may be in only one entrant of a competition"
    )
    page.fill("#late-player-1", players[9].username)
    page.click("#late-submit")
    expect(page.locator("#entrant-list li")).to_have_count(5)
    expect(page.locator("#entrant-list li", has_text="Latecomers")).to_contain_text(
        "joined in round 2"
    )
    # Its players accept the invitation: it is entered (and the public page ranks it).
    [latecomers] = load(cid).invitations
    lg.accept_all(cid, latecomers)
    assert axe_violations(page) == []
    at_both_sizes(page, "competition-organise-entrants")

    # The public page showed it all without a reload: the forfeit's flag and its two match
    # points, the withdrawal in the standings, the late entrant.
    public_row = public.locator('.round[data-round="1"] tr[data-board="1"]')
    expect(public_row.locator('[data-flag="forfeit"]')).to_have_text(
        f"No-show by {words}: They never came"
    )
    expect(mp_cell(public, present)).to_have_text("2")
    expect(public.locator(f'#standings-table tr[data-entrant="{absent}"]')).to_contain_text(
        "(withdrawn)"
    )
    expect(public.locator("#standings-table tbody tr")).to_have_count(5)
    assert axe_violations(public) == []
    at_both_sizes(public, "competition-public-after-forfeit")
    public.close()
