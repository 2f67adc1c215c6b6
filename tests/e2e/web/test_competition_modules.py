"""The tournament pages' pure modules, in the browser that runs them: the standings
columns, match points after each round, the chart's geometry, words, the scoresheet and
the settings the create form sends."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

POINTS = {"win": 2, "draw": 1, "loss": 0, "bye": 2, "late_join": 0, "forfeit_loss": 0}

STANDINGS = """async (points) => {
  const s = await import("/static/web/js/competitions/standings.js");
  const columns = s.standingsColumns(["head_to_head", "buchholz", "sonneborn_berger",
                                      "point_differential", "wins", "lots"]);
  const row = { rank: 1, entrant: "aces", match_points: 4, point_differential: 35,
                tiebreaks: { head_to_head: null, buchholz: 6, sonneborn_berger: 4, lots: 3 } };
  const m = (board, ns, ew, result) => ({ board, north_south: ns, east_west: ew, result });
  const won = (winner, extra = {}) => ({ points: { north_south: 1, east_west: 0 }, winner,
                                        forfeited_by: null, ...extra });
  const rounds = [
    { round: 1, byes: ["d"], matches: [m(1, "a", "b", won("north_south"))] },
    { round: 2, byes: ["b"], matches: [
        m(1, "a", "d", won("east_west", { forfeited_by: "north_south" })),
        m(2, "c", "e", null)] },
    { round: 3, byes: [], matches: [m(1, "b", "a", won(null)), m(2, "c", "d", null)] },
  ];
  const entrants = ["a", "b", "c", "d"].map((id) => ({ id, joined_round: 1 }))
    .concat([{ id: "e", joined_round: 2 }]);
  return {
    columns: columns.map((c) => [c.key, c.tiebreak]),
    cells: columns.map((c) => s.cellText(row, c, { aces: "The Aces" })),
    series: s.matchPointsByRound(rounds, { ...points, late_join: 1 }, entrants),
    live: s.liveRound([{ round: 1, started: true }, { round: 2, started: true },
                       { round: 3, started: false }]).round,
    none: s.liveRound([{ round: 1, started: false }]),
  };
}"""

CHART = """async () => {
  const c = await import("/static/web/js/competitions/standings_chart.js");
  const g = c.chartGeometry({ a: [2, 4], b: [0, 2] }, ["a", "b"],
                            { width: 200, height: 100, pad: 10 });
  return { rounds: g.rounds, top: g.top, lines: g.lines.map((l) => [l.entrant, l.points, l.last]),
           empty: c.chartGeometry({}, [], {}).rounds };
}"""

WORDS = """async () => {
  const w = await import("/static/web/js/competitions/words.js");
  const names = { a: "The Aces", b: "ann & bob" };
  const result = { id: "r2", points: { north_south: -40, east_west: 310 }, winner: "east_west",
                   forfeited_by: null, bot_substitute: true, corrects: "r1" };
  return {
    ordinals: [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(w.ordinal),
    entrant: w.entrantName({ name: "", players: ["7", "9"] }, { 7: "ann", 9: "bob" }),
    named: w.entrantName({ name: "The Aces", players: ["1", "2"] }, {}),
    flags: w.resultFlags(result, { source: "correction", reason: "wrong trick count" })
      .map((f) => f.text),
    forfeit: w.resultFlags({ forfeited_by: "both" }, null).map((f) => f.text),
    score: w.scoreText(result),
    winner: w.winnerText({ north_south: "a", east_west: "b" }, result, names),
    draw: w.winnerText({}, { winner: null, forfeited_by: null }, names),
    up: w.moveText({ entrant: "a", before: 3, after: 1, change: 2 }, names),
    down: w.moveText({ entrant: "b", before: 1, after: 3, change: -2 }, names),
    marks: [2, -1, 0].map(w.changeMark),
    next: w.nextMatchText({ entrant: "a", match: { round: 2, board: 1, north_south: "b",
                                                   east_west: "a", table_id: "t" } }, names),
    bye: w.nextMatchText({ entrant: "a", match: null, bye: 3 }, names),
    nothing: w.nextMatchText({ entrant: "a", match: null }, names),
  };
}"""

SHEET = """async () => {
  const s = await import("/static/web/js/competitions/scoresheet.js");
  const f = await import("/static/web/js/competitions/settings.js");
  const row = (bids, tricks) => ({
    bids: Object.fromEntries(s.SEATS.map((seat, i) => [seat, bids[i]])),
    tricks: Object.fromEntries(s.SEATS.map((seat, i) => [seat, tricks[i]])),
  });
  return {
    sheet: s.scoresheetFromRows([
      row(["4", "Nil", "3", "blind nil"], ["5", "0", "4", "4"]),
      row(["", "", "", ""], ["", "", "", ""]),
      row(["x", "2", "3", "4"], ["3", "3", "3", "four"]),
    ]),
    settings: f.settingsFromForm(
      { name: " Club night ", format: "swiss", rounds: "3", double: false, preset: "standard",
        match: "fixed", hands: "4", win: "2", draw: "1", loss: "0", bye: "2", bots: "easy",
        delay: "2" },
      ["buchholz", "lots", "wins"]),
    robin: f.settingsFromForm(
      { name: "RR", format: "round_robin", rounds: "3", double: true, preset: "",
        match: "game", hands: "4", win: "3", draw: "1", loss: "0", bye: "3", bots: "" }, []),
    ids: [f.entrantId("The Aces!", []), f.entrantId("The Aces", ["the-aces"]),
          f.entrantId("", ["entrant"])],
  };
}"""


def open_site(page: Any) -> None:
    page.goto("/calculator/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def test_standings_columns_and_match_points_after_each_round(page: Any) -> None:
    open_site(page)

    result = page.evaluate(STANDINGS, POINTS)

    keys = [key for key, _ in result["columns"]]
    # Every declared tie-break has a column (the draw of lots is an order, not a figure),
    # the fixed figures once each, in order.
    assert keys == [
        "rank",
        "entrant",
        "match_points",
        "played",
        "wins",
        "draws",
        "losses",
        "byes",
        "game_points",
        "game_points_against",
        "point_differential",
        "tiebreak:head_to_head",
        "tiebreak:buchholz",
        "tiebreak:sonneborn_berger",
    ]
    marks = dict(result["columns"])
    assert marks["point_differential"] == 4 and marks["wins"] == 5
    assert marks["tiebreak:buchholz"] == 2 and marks["match_points"] is None
    cells = dict(zip(keys, result["cells"], strict=True))
    assert cells["entrant"] == "The Aces"
    assert cells["point_differential"] == "+35"
    assert cells["tiebreak:head_to_head"] == "–"
    assert cells["tiebreak:sonneborn_berger"] == "4"
    # a: win, forfeit loss, draw; b: loss, bye, draw; d: bye, forfeit win, (in play);
    # e joined in round 2: late_join (1) for round 1, then its match is still in play.
    assert result["series"] == {
        "a": [2, 2, 3],
        "b": [0, 2, 3],
        "c": [0, 0, 0],
        "d": [2, 4, 4],
        "e": [1, 1, 1],
    }
    assert result["live"] == 2
    assert result["none"] is None


def test_standings_chart_geometry(page: Any) -> None:
    open_site(page)

    result = page.evaluate(CHART)

    assert result["rounds"] == 2 and result["top"] == 4
    # x from round 0 to 2 across 10..190, y from 0 points (90) to 4 points (10).
    assert result["lines"] == [
        ["a", [[10, 90], [100, 50], [190, 10]], 4],
        ["b", [[10, 90], [100, 90], [190, 50]], 2],
    ]
    assert result["empty"] == 0


def test_competition_words(page: Any) -> None:
    open_site(page)

    result = page.evaluate(WORDS)

    assert result["ordinals"] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "101st",
    ]
    assert result["entrant"] == "ann & bob"
    assert result["named"] == "The Aces"
    assert result["flags"] == ["Bots played", "Corrected: wrong trick count"]
    assert result["forfeit"] == ["Forfeit by both sides"]
    assert result["score"] == "−40 – 310"
    assert result["winner"] == "ann & bob won"
    assert result["draw"] == "Draw"
    assert result["up"] == "The Aces: 3rd → 1st (up 2)"
    assert result["down"] == "ann & bob: 1st → 3rd (down 2)"
    assert result["marks"] == ["▲ 2", "▼ 1", "–"]
    assert result["next"] == (
        "Round 2, board 1: you play East-West against ann & bob; its table is open."
    )
    assert result["bye"] == "You have the bye in round 3."
    assert result["nothing"].startswith("No match to play right now")


def test_scoresheet_rows_and_create_settings(page: Any) -> None:
    open_site(page)

    result = page.evaluate(SHEET)

    assert result["sheet"] == {
        "hands": [
            {
                "bids": {"north": 4, "east": "nil", "south": 3, "west": "blind_nil"},
                "tricks": {"north": 5, "east": 0, "south": 4, "west": 4},
            },
            # Kept as typed: the server says what is wrong with it, in its words.
            {
                "bids": {"north": "x", "east": 2, "south": 3, "west": 4},
                "tricks": {"north": 3, "east": 3, "south": 3, "west": "four"},
            },
        ]
    }
    assert result["settings"] == {
        "name": "Club night",
        "stages": [{"kind": "swiss", "rounds": 3}],
        "rules": "standard",
        "match_points": {"win": 2, "draw": 1, "loss": 0, "bye": 2},
        "tiebreaks": ["buchholz", "wins", "lots"],
        "fixed_hands": 4,
        "bot_level": "easy",
        "spectator_delay_tricks": 2,
    }
    assert result["robin"] == {
        "name": "RR",
        "stages": [{"kind": "round_robin", "double": True}],
        "rules": "standard",
        "match_points": {"win": 3, "draw": 1, "loss": 0, "bye": 3},
        "tiebreaks": ["lots"],
    }
    assert result["ids"] == ["the-aces", "the-aces-2", "entrant-2"]


LIVE = """async () => {
  const l = await import("/static/web/js/competitions/live.js");
  const sockets = [];
  class FakeSocket {
    constructor(url) { this.url = url; this.listeners = {}; sockets.push(this); }
    addEventListener(kind, f) { (this.listeners[kind] ||= []).push(f); }
    emit(kind, event) { for (const f of this.listeners[kind] || []) f(event); }
    close() { this.closedByClient = true; }
  }
  const seen = [];
  const statuses = [];
  const live = new l.CompetitionLive("c-1", {
    onVersion: (version, doc) => seen.push([version, doc && doc.version]),
    onStatus: (kind) => statuses.push(kind),
    openSocket: (url) => new FakeSocket(url),
  });
  const until = (test) => new Promise((resolve) => {
    const timer = setInterval(() => { if (test()) { clearInterval(timer); resolve(); } }, 10);
  });
  const doc = (v) => ({ data: JSON.stringify({ type: "standings", version: v,
                                               standings: { version: v } }) });
  live.connect();
  sockets[0].emit("message", doc(4));     // the document on connect: the page's start
  sockets[0].emit("message", doc(4));     // the same version again: ignored
  sockets[0].emit("message", doc(7));     // 5 and 6 folded into 7: the page catches up
  sockets[0].emit("message", doc(6));     // older than what we have: ignored
  sockets[0].emit("message", { data: "not json" });
  sockets[0].emit("message", { data: JSON.stringify({ type: "noise", version: 99 }) });
  sockets[0].emit("close", { code: 1006 });          // a drop: reconnect
  const afterDrop = statuses.slice();
  await until(() => sockets.length === 2);
  sockets[1].emit("close", { code: 1006 });          // cannot connect again: fall back
  const afterSecond = statuses.slice();
  await until(() => sockets.length === 3);
  sockets[2].emit("message", doc(7));     // back, nothing missed: live, nothing to read
  sockets[2].emit("message", doc(9));     // then a change: caught up
  const refusal = { type: "error", code: "unknown_competition", message: "No such competition." };
  sockets[2].emit("message", { data: JSON.stringify(refusal) });
  sockets[2].emit("close", { code: 4404 });          // refused: no retry
  return {
    url: sockets[0].url, seen, afterDrop, afterSecond, statuses, sockets: sockets.length,
    delays: [0, 1, 2, 4, 5, 9].map(l.reconnectDelay),
    classify: [
      l.classify(null, { type: "standings", version: 1 }),
      l.classify(3, { type: "standings", version: 3 }),
      l.classify(3, { type: "standings", version: 4 }),
      l.classify(3, { type: "standings", version: "4" }),
      l.classify(3, { type: "error" }),
      l.classify(3, null),
    ],
  };
}"""


def test_the_competition_socket_catches_up_by_version_and_reconnects(page: Any) -> None:
    open_site(page)

    result = page.evaluate(LIVE)

    assert result["url"].endswith("/ws/competitions/c-1/")
    # Each version once, in order; repeats and older documents are dropped.
    assert result["seen"] == [[4, 4], [7, 7], [9, 9]]
    assert result["afterDrop"] == ["live", "reconnecting"]
    # Two failures in a row: the page falls back to its slow poll (and says so).
    assert result["afterSecond"] == ["live", "reconnecting", "polling"]
    # Back: live again; then the refusal (4404) ends it without another attempt.
    assert result["statuses"] == ["live", "reconnecting", "polling", "live", "failed"]
    assert result["sockets"] == 3
    assert result["delays"] == [500, 1000, 2000, 8000, 15000, 15000]  # ceilings (jittered below)
    assert result["classify"] == ["new", "repeat", "new", "other", "error", "other"]


ORGANISER_WORDS = """async () => {
  const w = await import("/static/web/js/competitions/words.js");
  const settings = { late_join_until_round: 2, match_points: { late_join: 1 }, stages: [] };
  const players = { 1: "ann", 2: "bob", 3: "cy" };
  return {
    none: w.lateJoinRule({ late_join_until_round: 0 }, 2),
    open: w.lateJoinRule(settings, 2),
    zero: w.lateJoinRule({ ...settings, match_points: { late_join: 0 } }, 2),
    closed: w.lateJoinRule(settings, 3),
    stage: w.lateJoinRule(settings, 2, 1),
    opens: [[2, 0], [3, 0], [1, 0], [2, 1]].map(([n, s]) => w.lateJoinOpen(settings, n, s)),
    fresh: w.entrantStatus({ players: ["1", "2"], playing: ["1", "2"], joined_round: 1,
                             withdrawn_after_round: null, reserve: null }, 1, players),
    busy: w.entrantStatus({ players: ["1", "2"], playing: ["1", "3"], joined_round: 2,
                            withdrawn_after_round: 2, reserve: "3", checked_in: true }, 3, players),
    early: w.entrantStatus({ players: ["1", "2"], joined_round: 1, withdrawn_after_round: 0 },
                           1, players),
    invited: w.entrantStatus({ players: ["1", "2"], status: "invited", awaiting: ["2", "3"],
                               joined_round: 1, withdrawn_after_round: null, reserve: "3" },
                             1, players),
    noShow: w.resultFlags({ forfeited_by: "east_west", no_show: true },
                          { source: "forfeit", reason: "Nobody came" }).map((f) => f.text),
  };
}"""


def test_organiser_words_late_join_rule_and_entrant_status(page: Any) -> None:
    open_site(page)

    result = page.evaluate(ORGANISER_WORDS)

    assert result["none"] == "This competition takes no late entrants."
    assert result["open"] == (
        "Late entrants can join until round 2 and play from round 2; "
        "each round missed counts 1 match point."
    )
    assert result["zero"].endswith("each round missed counts 0 match points.")
    assert result["closed"] == "Late entrants could join until round 2; the next round is 3."
    assert result["stage"] == "Late entrants join during the first stage only (until round 2)."
    assert result["opens"] == [True, False, False, False]
    assert result["fresh"] == ""
    assert result["busy"] == (
        "withdrawn after round 2 · joined in round 2 · plays as ann & cy from now on"
        " · reserve cy · checked in for round 3"
    )
    assert result["early"] == "withdrawn before round 1"
    # Only its players' answers hold an invitation up (the reserve's does not).
    assert result["invited"] == "invited: waiting for bob to accept · reserve cy"
    assert result["noShow"] == ["No-show by East-West: Nobody came"]


PAIRING_NOTES = """async () => {
  const w = await import("/static/web/js/competitions/words.js");
  const names = { "team-0": "Team 0", "team-2": "Team 2" };
  return {
    plain: w.pairingNotes({ manual: null, forbidden_meetings: [] }, names),
    old: w.pairingNotes({}, names),
    engine: w.pairingNotes({ manual: null, forbidden_meetings: [["team-0", "team-2"]] }, names),
    manual: w.pairingNotes({ manual: { by: "ann", reason: "Club rule" },
                             forbidden_meetings: [["team-0", "team-2"]] }, names),
    noReason: w.pairingNotes({ manual: { by: "ann" }, forbidden_meetings: [] }, names),
  };
}"""


def test_a_rounds_pairing_notes_name_the_hand_and_the_forbidden_meetings(page: Any) -> None:
    open_site(page)

    result = page.evaluate(PAIRING_NOTES)

    assert result["plain"] == [] and result["old"] == []
    assert result["engine"] == [
        "Team 0 and Team 2 meet although kept apart: no pairing without this meeting existed."
    ]
    assert result["manual"] == [
        "Paired by hand by ann: Club rule",
        "Team 0 and Team 2 meet although kept apart: the pairing written by hand puts them"
        " together.",
    ]
    # No reason given by the API: none is made up.
    assert result["noReason"] == ["Paired by hand by ann."]
