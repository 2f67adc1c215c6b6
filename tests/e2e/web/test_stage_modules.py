"""The stage and bracket modules, in the browser that runs them: a knockout's bracket in
words (byes, winners' paths, the grand final and its reset, the champion), and the create
form's stages as the API takes them, with what it would refuse said before sending."""

from __future__ import annotations

from typing import Any

from tests.e2e.web.test_competition_modules import open_site

SINGLE = {
    # Three entrants: seed 1 (a) has the bye; c beats b, then a in the final.
    "drawn": True,
    "size": 4,
    "double": False,
    "reset": False,
    "seeds": ["a", "b", "c"],
    "matches": [
        {
            "id": "W1-1",
            "part": "winners",
            "round": 1,
            "top": {"from": "seed", "seed": 1, "match": None, "entrant": "a"},
            "bottom": {"from": "seed", "seed": 4, "match": None, "entrant": ""},
            "winner": "a",
            "needed": True,
            "played": None,
        },
        {
            "id": "W1-2",
            "part": "winners",
            "round": 1,
            "top": {"from": "seed", "seed": 2, "match": None, "entrant": "b"},
            "bottom": {"from": "seed", "seed": 3, "match": None, "entrant": "c"},
            "winner": "c",
            "needed": True,
            "played": {"round": 1, "board": 1},
        },
        {
            "id": "W2-1",
            "part": "winners",
            "round": 2,
            "top": {"from": "winner", "seed": None, "match": "W1-1", "entrant": "a"},
            "bottom": {"from": "winner", "seed": None, "match": "W1-2", "entrant": "c"},
            "winner": "c",
            "needed": True,
            "played": {"round": 2, "board": 1},
        },
    ],
    "champion": "c",
}


def side(source: str, seed: int | None, match: str | None, entrant: str | None) -> Any:
    return {"from": source, "seed": seed, "match": match, "entrant": entrant}


def game(id_: str, part: str, round_: int, top: Any, bottom: Any, **rest: Any) -> Any:
    return {
        "id": id_,
        "part": part,
        "round": round_,
        "top": top,
        "bottom": bottom,
        "winner": rest.get("winner"),
        "needed": rest.get("needed", True),
        "played": rest.get("played"),
    }


DOUBLE = {
    # Two entrants, double elimination with a reset: b lost W1-1 but won the grand final,
    # so the reset is played (not yet).
    "drawn": True,
    "size": 2,
    "double": True,
    "reset": True,
    "seeds": ["a", "b"],
    "matches": [
        game(
            "W1-1",
            "winners",
            1,
            side("seed", 1, None, "a"),
            side("seed", 2, None, "b"),
            winner="a",
            played={"round": 1, "board": 1},
        ),
        game(
            "GF",
            "final",
            1,
            side("winner", None, "W1-1", "a"),
            side("loser", None, "W1-1", "b"),
            winner="b",
            played={"round": 2, "board": 1},
        ),
        game(
            "GF2",
            "final",
            2,
            side("winner", None, "GF", "b"),
            side("loser", None, "GF", "a"),
            played={"round": 3, "board": 1},
        ),
    ],
    "champion": None,
}

UNPLAYED = {
    **DOUBLE,
    "drawn": False,
    "matches": [
        game("W1-1", "winners", 1, side("seed", 1, None, "a"), side("seed", 2, None, "b")),
        game(
            "GF", "final", 1, side("winner", None, "W1-1", None), side("loser", None, "W1-1", None)
        ),
        game("GF2", "final", 2, side("winner", None, "GF", None), side("loser", None, "GF", None)),
    ],
}

BRACKET = """async ([single, double, unplayed]) => {
  const b = await import("/static/web/js/competitions/bracket.js");
  const names = { a: "Aces", b: "Kings", c: "Queens" };
  const flat = (view) => view.parts.map((part) => [part.title, part.rounds.map((round) =>
    [round.title, round.matches.map((m) =>
      [m.title, m.top.text, m.bottom.text, m.state, m.note])])]);
  const s = b.bracketView(single, names);
  const d = b.bracketView(double, names);
  const u = b.bracketView(unplayed, names);
  return {
    single: flat(s), champion: s.champion, seeds: s.seeds.map((x) => x.name),
    wonSide: s.parts[0].rounds[1].matches[0].bottom.won,
    double: flat(d), doubleChampion: d.champion,
    unplayed: flat(u),
    titles: [b.roundTitle("winners", 1, 3, false), b.roundTitle("winners", 2, 3, false),
             b.roundTitle("winners", 1, 5, false), b.roundTitle("winners", 3, 3, true),
             b.roundTitle("losers", 2, 3, true)],
    line: b.stageLine({ number: 2, kind: "knockout", double: true, reset: true, status: "in_play" },
                      2, { advance: 4 }, { knockout: "Knockout" }),
    swissLine: b.stageLine({ number: 1, kind: "swiss", rounds: 5, advance: 8, status: "complete" },
                           2, undefined, { swiss: "Swiss" }),
  };
}"""

STAGES = """async () => {
  const f = await import("/static/web/js/competitions/settings.js");
  const form = (stages) => f.settingsFromForm({ name: "Cup", stages, preset: "standard",
    match: "game", win: "2", draw: "1", loss: "0", bye: "2", bots: "", seeding: "manual" }, []);
  const typed = [{ kind: "swiss", rounds: "5", advance: "8", double: true, reset: true },
                 { kind: "knockout", double: true, reset: true, advance: "4", rounds: "3" }];
  const stages = (list) => list.map((t, i) => f.stageFromForm(t, i === list.length - 1));
  return {
    cup: form(typed),
    koFirst: form([{ kind: "knockout", double: false, reset: true }]),
    fine: f.stageProblems(stages(typed)),
    problems: f.stageProblems(stages([
      { kind: "knockout", advance: "4" }, { kind: "swiss", rounds: "0", advance: "6" },
      { kind: "round_robin", advance: "" }])),
    rising: f.stageProblems(stages([{ kind: "swiss", rounds: "3", advance: "4" },
      { kind: "round_robin", advance: "4" }, { kind: "knockout" }])),
    none: f.stageProblems([]),
    // As the leagues API says them (in words, capitalised).
    refusals: [f.stageRefusal("Stage 2 rounds is a whole number from 0 to 64."),
               f.stageRefusal("Stage 1: a knockout can only be the last stage."),
               f.stageRefusal("Name is a name of 1 to 200 characters.")],
  };
}"""


def test_a_bracket_in_words_byes_winners_paths_reset_and_champion(page: Any) -> None:
    open_site(page)

    result = page.evaluate(BRACKET, [SINGLE, DOUBLE, UNPLAYED])

    assert result["single"] == [
        [
            "Bracket",
            [
                [
                    "Semi-finals",
                    [
                        ["Semi-final 1", "Aces", "Bye", "bye", "Aces goes through on a bye."],
                        ["Semi-final 2", "Kings", "Queens", "won", "Queens beat Kings."],
                    ],
                ],
                ["Final", [["Final", "Aces", "Queens", "won", "Queens beat Aces."]]],
            ],
        ]
    ]
    assert result["champion"] == "Queens"
    assert result["seeds"] == ["Aces", "Kings", "Queens"]
    assert result["wonSide"] is True
    # Double elimination: the grand final, then its reset, played because the losers'
    # bracket champion won the first.
    assert result["double"] == [
        [
            "Winners' bracket",
            [["Winners' final", [["Winners' final", "Aces", "Kings", "won", "Aces beat Kings."]]]],
        ],
        [
            "Grand final (with a reset)",
            [
                ["Grand final", [["Grand final", "Aces", "Kings", "won", "Kings beat Aces."]]],
                [
                    "Grand final reset",
                    [
                        [
                            "Grand final reset",
                            "Kings",
                            "Aces",
                            "in_play",
                            "Playing in round 3, board 1. Played because the losers' bracket "
                            "champion won the grand final: both have now lost once.",
                        ]
                    ],
                ],
            ],
        ],
    ]
    assert result["doubleChampion"] is None
    # Before play: each side says where it comes from.
    final = result["unplayed"][1][1][0][1][0]
    assert final[1:4] == ["Winner of Winners' final", "Loser of Winners' final", "waiting"]
    assert result["titles"] == [
        "Quarter-finals",
        "Semi-finals",
        "Round 1",
        "Winners' final",
        "Losers' round 2",
    ]
    assert result["line"] == (
        "Stage 2 of 2: Knockout of the top 4 (double elimination, grand final reset) · in play"
    )
    assert result["swissLine"] == "Stage 1 of 2: Swiss (5 rounds; the top 8 go on) · complete"


def test_the_create_forms_stages_and_what_they_refuse_in_words(page: Any) -> None:
    open_site(page)

    result = page.evaluate(STAGES)

    assert result["cup"]["stages"] == [
        {"kind": "swiss", "rounds": 5, "advance": 8},
        {"kind": "knockout", "double": True, "reset": True},
    ]
    assert "knockout_seeding" not in result["cup"]  # seeded by the Swiss standings
    assert result["koFirst"]["stages"] == [{"kind": "knockout"}]
    assert result["koFirst"]["knockout_seeding"] == "manual"
    assert result["fine"] == []
    assert result["problems"] == [
        {"stage": 1, "field": "kind", "message": "Stage 1: a knockout can only be the last stage."},
        {"stage": 2, "field": "rounds", "message": "Stage 2: a Swiss stage has 1 to 64 rounds."},
        {
            "stage": 2,
            "field": "advance",
            "message": "Stage 2: each stage sends on fewer entrants than the one before "
            "(stage 1: 4).",
        },
    ]
    assert result["rising"] == [
        {
            "stage": 2,
            "field": "advance",
            "message": "Stage 2: each stage sends on fewer entrants than the one before "
            "(stage 1: 4).",
        }
    ]
    assert result["none"][0]["message"] == "A competition has 1 to 8 stages."
    assert result["refusals"] == [
        {
            "stage": 2,
            "field": "rounds",
            "text": "Stage 2: Rounds must be a whole number from 0 to 64.",
        },
        {"stage": 1, "field": "kind", "text": "Stage 1: a knockout can only be the last stage."},
        None,
    ]
