"""Every numeric rule is bounded (issue 12, item 2): in range it is taken, beyond it the
engine refuses with a RulesError sentence naming the field, its bound and the value."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.rules import FIELD_NAMES, RULE_BOUNDS, RulesError, rules_from_spec


def spec(name: str, value: int) -> dict[str, object]:
    # A losing score needs a target above it, blind nil values need blind nil on, and
    # extra hands need a fixed number of hands.
    extra = {"hands": 1} if name == "extra_hands" else {}
    return {"preset": "standard", "blind_nil": True, **extra, name: value}


def test_every_numeric_rule_has_a_bound() -> None:
    numeric = {
        name
        for name in FIELD_NAMES
        if isinstance(getattr(rules_from_spec("standard"), name), int)
        and not isinstance(getattr(rules_from_spec("standard"), name), bool)
    }
    # lose_score and hands are null in the Standard preset (no losing score; to the target).
    assert numeric | {"lose_score", "hands"} == set(RULE_BOUNDS)


@given(data=st.data())
def test_values_in_range_are_taken(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(RULE_BOUNDS)))
    low, high, _ = RULE_BOUNDS[name]
    value = data.draw(st.integers(min_value=low, max_value=high))
    assert getattr(rules_from_spec(spec(name, value)), name) == value


@given(data=st.data())
def test_values_beyond_the_far_bound_are_refused_by_name(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(RULE_BOUNDS)))
    low, high, _ = RULE_BOUNDS[name]
    if name == "lose_score":
        value = data.draw(st.integers(max_value=low - 1))
        bound = f"at least {low}"
    else:
        value = data.draw(st.integers(min_value=high + 1))
        bound = f"at most {high}"
    with pytest.raises(RulesError) as refused:
        rules_from_spec(spec(name, value))
    message = str(refused.value)
    assert message.startswith(f"{name} must be {bound} (")
    assert "\n" not in message and len(message) < 160


def test_the_value_that_stalled_every_ledger_is_refused() -> None:
    with pytest.raises(RulesError, match=r"^nil_points must be at most 1000 .*not 3000000000\.$"):
        rules_from_spec({"nil_points": 3_000_000_000})


def test_the_near_bounds_keep_their_own_sentences() -> None:
    with pytest.raises(RulesError, match="target_score must be above 0"):
        rules_from_spec({"target_score": 0})
    with pytest.raises(RulesError, match="lose_score must be below 0"):
        rules_from_spec({"lose_score": 0})
    with pytest.raises(RulesError, match="must be 0 or more"):
        rules_from_spec({"nil_points": -1})
