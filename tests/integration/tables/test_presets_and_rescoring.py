"""Rule presets as versioned data (service and admin), and rescoring stored games."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.urls import reverse

from eventstore.models import Event
from games.engine.rules import PRESETS, RulesError
from games.models import Table
from games.services.errors import CommandRejected
from games.services.table_commands import PlaceBid, create_table, execute
from games.services.table_state import reading_state
from scoring.core.replay import Comparability
from scoring.models import LedgerHand, RulePreset
from scoring.services import presets
from scoring.services.rescoring import rescore
from tests.factories import AdminFactory, TableFactory
from tests.integration.tables.helpers import QUICK_RULES, play_moves

pytestmark = pytest.mark.django_db
NAMES = ("north", "east", "south", "west")


def test_the_built_in_presets_are_seeded():
    for name, rules in PRESETS.items():
        row = RulePreset.objects.get(name=name, version=1)
        assert row.rules == rules.to_dict()


def test_editing_adds_a_version_and_tables_keep_theirs(users):
    presets.create_preset("club", {"target_score": 300})
    first = create_table(actor=users[0], rules="club")
    edited = presets.edit_preset("club", {"target_score": 400, "set_penalty": "zero"})
    assert edited.version == 2
    assert RulePreset.objects.get(name="club", version=1).rules["target_score"] == 300
    second = create_table(actor=users[0], preset="club")
    old = Table.objects.get(id=first.table_id)
    new = Table.objects.get(id=second.table_id)
    assert (old.preset_version, old.rules["target_score"]) == (1, 300)
    assert (new.preset_version, new.rules["target_score"]) == (2, 400)
    assert presets.resolve("club", version=1).rules.target_score == 300
    resolved = presets.resolve({"preset": "club", "nil": False})
    assert (resolved.preset_name, resolved.preset_version, resolved.rules.nil) == ("club", 2, False)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"blind_nil": True, "nil": False}, "Blind nil needs nil: turn nil on, or blind nil off."),
        ({"target_score": -5}, "target_score must be above 0"),
        ({"colour": "red"}, "Unknown rule field: colour"),
    ],
)
def test_contradictions_are_refused_with_the_engines_message(rules, message):
    with pytest.raises(RulesError, match=message):
        presets.create_preset("bad", rules)
    assert not RulePreset.objects.filter(name="bad").exists()


def test_names_are_checked_and_unique():
    with pytest.raises(RulesError, match="preset name"):
        presets.create_preset("Bad Name!", {})
    with pytest.raises(RulesError, match="exists already"):
        presets.create_preset("standard", {})
    with pytest.raises(RulesError, match="no preset called"):
        presets.edit_preset("missing", {})


def admin_fields(**changes):
    """The preset form as a browser posts it: Standard with ``changes``, unticked boxes absent."""
    rules = {**PRESETS["standard"].to_dict(), **changes}
    return {k: ("on" if v is True else v) for k, v in rules.items() if v not in (False, None)}


def test_admin_edit_saves_a_new_version_and_shows_engine_messages(client):
    admin = AdminFactory()
    client.force_login(admin)
    standard = RulePreset.objects.get(name="standard", version=1)
    url = reverse("admin:scoring_rulepreset_change", args=[standard.pk])
    refused = client.post(
        url,
        {"name": "standard", "description": "", **admin_fields(blind_nil=True, nil=False)},
    )
    assert refused.status_code == 200
    assert "Blind nil needs nil: turn nil on, or blind nil off." in refused.content.decode()
    assert RulePreset.objects.filter(name="standard").count() == 1
    saved = client.post(
        url, {"name": "standard", "description": "to 300", **admin_fields(target_score=300)}
    )
    assert saved.status_code == 302
    versions = dict(RulePreset.objects.filter(name="standard").values_list("version", "rules"))
    assert versions[1] == PRESETS["standard"].to_dict()
    assert versions[2]["target_score"] == 300
    assert RulePreset.objects.get(name="standard", version=2).created_by == admin
    added = client.post(
        reverse("admin:scoring_rulepreset_add"),
        {"name": "fast", "description": "", **admin_fields(target_score=200)},
    )
    assert added.status_code == 302
    assert RulePreset.objects.get(name="fast").version == 1


def finished_game(users: dict[int, Any], seed: int, rules: Any = QUICK_RULES) -> Any:
    table = TableFactory(
        creator=users[0], rules=rules, players={NAMES[s]: users[s] for s in range(4)}, started=True
    )
    play_moves(table.id, users, random.Random(seed))
    return table


def test_rescoring_under_the_same_rules_gives_the_same_ledger_and_writes_nothing(users):
    table = finished_game(users, seed=21)
    events_before = Event.objects.count()
    ledger_rows = LedgerHand.objects.count()
    with reading_state(table.id) as state:
        own = state.game.ledger.summary()
    [result] = rescore([table.id], table.rules)
    assert result["totals"] == own["totals"] and result["winner"] == own["winner"]
    assert result["flags"] == [] and result["original"]["totals"] == own["totals"]
    assert result["comparable"] is True and result["reason"] is None
    assert [{k: h[k] for k in ("north_south", "east_west")} for h in result["hands"]] == own[
        "hands"
    ]
    assert Event.objects.count() == events_before
    assert LedgerHand.objects.count() == ledger_rows


def test_rescoring_flags_what_the_other_preset_forbids(users):
    # Nil bids happen under Standard; Easy has no nil: every such hand is flagged, and still
    # scored from what was bid and taken.
    tables = []
    for seed in (22, 23):
        table = TableFactory(
            creator=users[0],
            rules=QUICK_RULES,
            players={NAMES[s]: users[s] for s in range(4)},
            started=True,
            first_dealer="north",
        )
        execute(PlaceBid(table.id, "east", "nil"), users[1])
        play_moves(table.id, users, random.Random(seed))
        tables.append(table)
    results = rescore([t.id for t in tables], "easy")
    assert len(results) == 2
    flagged = [flag for result in results for flag in result["flags"]]
    nil_hands = 0
    for table, result in zip(tables, results, strict=True):
        with reading_state(table.id) as state:
            nil_hands += sum(
                1
                for hand in state.game.hands[: len(result["hands"])]
                if 0 in hand.bids and hand.phase == 3
            )
        assert result["preset"] == {"name": "easy", "version": 1}
        assert sum(h["flagged"] for h in result["hands"]) == len(result["flags"])
    assert nil_hands > 0 and len(flagged) == nil_hands
    assert all(flag["action"] == "bid" for flag in flagged)
    assert {flag["code"] for flag in flagged} <= {"nil_off", "blind_nil_off"}
    first = results[0]["flags"][0]
    assert (first["hand"], first["seat"], first["bid"]) == (1, "east", "nil")
    assert first["reason"] == "Nil is not played at this table: bid at least 1."
    # The verdict the what-if shares (scoring.core.replay.comparability): a nil was bid in
    # hand 1, so the game is not comparable under rules without nil.
    for result in results:
        hands = tuple(sorted({flag["hand"] for flag in result["flags"]}))
        assert result["comparable"] is False and hands[0] == 1
        assert result["reason"] == Comparability(hands).reason


def test_rescoring_flags_plays_a_custom_preset_forbids(users):
    table = finished_game(users, seed=24)
    [result] = rescore([table.id], {"preset": "standard", "first_lead": "two_of_clubs"})
    # Only the first lead of a hand can break that rule: every flag is such a lead.
    assert result["flags"]
    for flag in result["flags"]:
        assert (flag["action"], flag["index"]) == ("play", 1)
        # The seat of each play follows from the rules, as in `replay`: the holder of the
        # two of clubs leads, and may not hold the card the record has first.
        assert flag["code"] in {"card_not_held", "must_lead_two_of_clubs"}
    assert len(result["hands"]) + result["hands_after_end"] >= len(result["flags"])


def test_rescoring_input_is_checked(users):
    table = finished_game(users, seed=25)
    with pytest.raises(CommandRejected) as bad:
        rescore([table.id], {"preset": "standard", "nil": False, "blind_nil": True})
    assert bad.value.status == 400 and "Blind nil needs nil" in bad.value.message
    with pytest.raises(CommandRejected) as missing:
        rescore(["00000000-0000-0000-0000-000000000000"], "standard")
    assert missing.value.status == 404
