"""The leagues and ratings pages' pure modules, in the browser that runs them: the next
season's request from its form (refusals in words), promotion and relegation as the
server decides them, the seasons' order and status, the ratings' words and figures, and
the chart's geometry below zero (a rating can fall under 0)."""

from __future__ import annotations

from typing import Any

from tests.e2e.web.test_competition_modules import open_site

SEASON = """async () => {
  const s = await import("/static/web/js/leagues/season.js");
  const league = { seasons: [
    { season: "2029", divisions: { top: "c1", second: "c2" } },
    { season: "2030", divisions: { top: "c3", second: "c4" } },
  ] };
  const form = { season: " 2031 ", divisions: "top\\nsecond", promote: true, from: "2030",
                 up: "1", down: "2", format: "swiss", rounds: "3", double: false,
                 preset: "bicycle", match: "fixed", hands: "8" };
  const bad = (changes) => s.seasonRequest({ ...form, ...changes }, league).error;
  return {
    request: s.seasonRequest(form, league).request,
    robin: s.seasonRequest({ ...form, promote: false, format: "round_robin", double: true,
                             match: "game", divisions: "main" }, league).request,
    refusals: [
      bad({ season: "  " }), bad({ season: "2030" }), bad({ divisions: "" }),
      bad({ divisions: "a, a" }), bad({ divisions: "top" }), bad({ up: "x" }),
      bad({ down: "65" }), bad({ rounds: "0" }), bad({ hands: "101" }),
      bad({ divisions: "x".repeat(65) }), bad({ from: "1999" }),
    ],
    names: [s.nextSeasonName("2026"), s.nextSeasonName("Spring 9"), s.nextSeasonName("Winter"),
            s.nextSeasonName("2026", ["2027"])],
    divisions: s.parseDivisions(" top \\n\\n second, third "),
    around: [s.neighbours(league.seasons, "2029"), s.neighbours(league.seasons, "2030")],
    status: [s.seasonStatus(["finished", "finished"]), s.seasonStatus(["running", "finished"]),
             s.seasonStatus(["registration"]), s.seasonStatus([])],
    promoted: s.promotionPreview([["a", "b", "c", "d"], ["e", "f", "g", "h"],
                                  ["i", "j", "k"]], 1, 1),
    none: s.promotionPreview([["a", "b"], ["c", "d"]], 0, 0).divisions,
  };
}"""

RATINGS = """async () => {
  const w = await import("/static/web/js/ratings/words.js");
  const c = await import("/static/web/js/competitions/standings_chart.js");
  const names = { 1: "ann", 2: "bob", 3: "cat" };
  const match = (outcome, before, after) => ({ outcome, partner: "1", opponents: ["2", "9"],
    before: { ordinal: before }, after: { ordinal: after }, competition: "", season: "2030",
    division: "top" });
  const matches = [match("won", 0, 2.34), match("lost", 2.34, -1.06), match("draw", -1.06, -1)];
  const g = c.chartGeometry({ p: w.historySeries(matches) }, ["p"],
                            { width: 200, height: 100, pad: 10, start: false });
  const long = c.chartGeometry({ p: Array.from({ length: 41 }, (_, k) => k) }, ["p"],
                               { start: false });
  return {
    options: w.poolOptions([{ pool: "league:x", name: "Ladder" }]),
    pools: [w.poolFromQuery("?pool=league:x", ["site", "league:x"]),
            w.poolFromQuery("?pool=league:y", ["site", "league:x"]), w.poolFromQuery("", ["site"])],
    figures: [w.figure(3.14159), w.figure(-2.06), w.figure(-0.01), w.figure(0)],
    changes: [w.changeText(1.23), w.changeText(-0.86), w.changeText(0.01)],
    lines: [...matches, { board: 3, round: 1, opponents: [] }].map((m) => w.matchLine(m, names)),
    where: [w.competitionLabel(matches[0]), w.competitionLabel({ competition: "Ladder 2030: top" }),
            w.competitionLabel({})],
    series: w.historySeries(matches),
    empty: w.historySeries([]),
    summary: [w.leaderboardSummary(0), w.leaderboardSummary(1), w.leaderboardSummary(12)],
    geometry: { rounds: g.rounds, top: g.top, bottom: g.bottom, points: g.lines[0].points,
                ticks: g.yTicks.map((t) => t.value) },
    longTicks: long.xTicks.map((t) => t.round),
  };
}"""


def test_the_next_season_from_its_form_and_promotion_as_the_server_decides(page: Any) -> None:
    open_site(page)

    result = page.evaluate(SEASON)

    assert result["request"] == {
        "season": "2031",
        "divisions": ["top", "second"],
        "competition": {
            "stages": [{"kind": "swiss", "rounds": 3}],
            "rules": "bicycle",
            "fixed_hands": 8,
        },
        "promote": {"from": "2030", "up": 1, "down": 2},
    }
    assert result["robin"] == {
        "season": "2031",
        "divisions": ["main"],
        "competition": {"stages": [{"kind": "round_robin", "double": True}], "rules": "bicycle"},
    }
    refusals = result["refusals"]
    assert refusals == [
        "Give the season a name of 1 to 64 characters.",
        "This league already has a season called “2030”: choose another name.",
        "A season has 1 to 16 divisions: name each one on its own line.",
        "Each division is named once.",
        "Season 2030 had 2 divisions: the new season needs as many to be filled from its "
        "standings.",
        "Promoted and relegated: a whole number of partnerships from 0 to 64 each.",
        "Promoted and relegated: a whole number of partnerships from 0 to 64 each.",
        "A Swiss season plays 1 to 64 rounds.",
        "A match of a fixed number of hands plays 1 to 100 hands.",
        "A division's name is at most 64 characters.",
        "Choose the season whose final standings fill the divisions.",
    ]
    # Words, not the API's field names.
    assert not any("_" in text or "promote." in text for text in refusals)
    assert result["names"] == ["2027", "Spring 10", "Winter 2", "2028"]
    assert result["divisions"] == ["top", "second", "third"]
    assert result["around"] == [
        {"previous": None, "next": "2030"},
        {"previous": "2029", "next": None},
    ]
    assert result["status"] == ["Finished", "In play", "Registration open", ""]
    # leagues.domain.league.promote: the top's last goes down, the middle's first up and
    # its last down, the bottom's first up; relegated first, then stayers, then promoted.
    assert result["promoted"]["divisions"] == [
        ["a", "b", "c", "e"],
        ["d", "f", "g", "i"],
        ["h", "j", "k"],
    ]
    moves = result["promoted"]["moves"]
    assert (moves["d"], moves["e"], moves["h"], moves["i"], moves["b"]) == (
        "down",
        "up",
        "down",
        "up",
        "stays",
    )
    assert result["none"] == [["a", "b"], ["c", "d"]]


def test_the_ratings_words_and_a_history_chart_below_zero(page: Any) -> None:
    open_site(page)

    result = page.evaluate(RATINGS)

    assert result["options"] == [
        {"value": "site", "label": "Everyone (site ratings)"},
        {"value": "skill", "label": "Duplicate skill (IMPs per board from par)"},
        {"value": "league:x", "label": "Ladder (league)"},
    ]
    assert result["pools"] == ["league:x", "site", "site"]
    assert result["figures"] == ["3.1", "−2.1", "0.0", "0.0"]
    assert result["changes"] == ["+1.2", "−0.9", "±0.0"]
    assert result["lines"] == [
        "Won with ann against bob and a former player",
        "Lost with ann against bob and a former player",
        "Drew with ann against bob and a former player",
        "Board 3 of round 1",
    ]
    assert result["where"] == ["season 2030, top", "Ladder 2030: top", "a competition"]
    assert result["series"] == [0, 2.3, -1.1, -1]
    assert result["empty"] == []
    assert result["summary"][0].startswith("Nobody has a rating here yet")
    assert result["summary"][1:] == ["1 rated player, best first.", "12 rated players, best first."]
    geometry = result["geometry"]
    # Four points (before the first match, after each of three) over three steps; the
    # y range holds the lowest rating, so the line never leaves the box.
    assert (geometry["rounds"], geometry["top"], geometry["bottom"]) == (3, 2.3, -1.1)
    assert geometry["ticks"] == [-1.1, 0, 2.3]
    ys = [y for _, y in geometry["points"]]
    assert min(ys) == 10 and max(ys) == 90
    assert [x for x, _ in geometry["points"]] == [10, 70, 130, 190]
    # About ten labelled ticks however long the history: every 4th of 40 matches.
    assert result["longTicks"] == list(range(0, 41, 4))
