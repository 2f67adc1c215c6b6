"""The score calculator in a browser: the seed's Example 2, the 13-tricks check, saving."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import assert_controls_named, assert_plain_words

# Example 2 ("nil made, partner set"), hand 1 of the seed's sample game.
EXAMPLE_2 = [("north", "4", "5"), ("east", "nil", "0"), ("south", "3", "4"), ("west", "5", "4")]


def open_calculator(page: Any) -> None:
    page.goto("/calculator/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def enter_hand(page: Any, rows: list[tuple[str, str, str]]) -> None:
    for seat, bid, tricks in rows:
        page.select_option(f"#bid-{seat}", bid)
        page.fill(f"#tricks-{seat}", tricks)


def test_example_2_nil_made_partner_set(page: Any) -> None:
    open_calculator(page)
    enter_hand(page, EXAMPLE_2)

    expect(page.locator("#trick-count")).to_have_text("Tricks add up to 13.")
    east_west = page.locator('#previews .preview[data-team="east_west"]')
    expect(east_west.locator("li", has_text="East: Nil made")).to_contain_text("+100")
    expect(east_west.locator("li", has_text="Contract 5 set")).to_contain_text("−50")
    expect(east_west.locator(".hand-total")).to_contain_text("+50")
    north_south = page.locator('#previews .preview[data-team="north_south"]')
    expect(north_south.locator("li", has_text="Contract 7 made")).to_contain_text("+70")
    expect(north_south.locator(".hand-total")).to_contain_text("+72")

    page.click("#score-hand")

    expect(page.locator("#total-east_west")).to_have_text("50")
    expect(page.locator("#total-north_south")).to_have_text("72")
    expect(page.locator("#bags-north_south")).to_have_text("2")
    expect(page.locator("#sheet-rows tr")).to_have_count(1)
    expect(page.locator("#entry-number")).to_have_text("2")
    assert_controls_named(page)

    page.reload()  # the sheet is kept in the browser
    expect(page.locator("body")).to_have_attribute("data-ready", "true")

    expect(page.locator("#sheet-rows tr")).to_have_count(1)
    expect(page.locator("#total-east_west")).to_have_text("50")
    expect(page.locator('#sheet-rows td[data-team="east_west"]')).to_have_text("+50 → 50")


def test_tricks_must_add_up_to_13_before_scoring(page: Any) -> None:
    open_calculator(page)
    enter_hand(page, [*EXAMPLE_2[:3], ("west", "5", "3")])

    expect(page.locator("#trick-count")).to_have_text("Tricks so far: 12 of 13.")
    page.click("#score-hand")

    expect(page.locator("#entry-error")).to_contain_text("add up to 12, not 13")
    expect(page.locator("#sheet-rows tr")).to_have_count(0)
    expect(page.locator("#total-north_south")).to_have_text("0")


def test_rules_change_rescores_every_hand(page: Any) -> None:
    open_calculator(page)
    enter_hand(page, EXAMPLE_2)
    page.click("#score-hand")
    expect(page.locator("#total-east_west")).to_have_text("50")

    page.check('#rules-form input[name="bicycle"]')  # a set team scores 0

    expect(page.locator("#total-east_west")).to_have_text("100")


# A plain hand with no nil: valid under every preset.
PLAIN = [("north", "4", "5"), ("east", "3", "3"), ("south", "3", "3"), ("west", "2", "2")]


@BOTH_SCREENS
def test_a_rule_change_that_forbids_a_hand_marks_it_and_drops_the_old_totals(page: Any) -> None:
    open_calculator(page)
    enter_hand(page, PLAIN)
    page.click("#score-hand")
    expect(page.locator("#sheet-rows tr")).to_have_count(1)
    enter_hand(page, EXAMPLE_2)  # East bids nil
    page.click("#score-hand")
    expect(page.locator("#sheet-rows tr")).to_have_count(2)
    expect(page.locator("#total-east_west")).to_have_text("100")  # 50 + 50
    enter_hand(page, PLAIN)
    page.click("#score-hand")
    expect(page.locator("#sheet-rows tr")).to_have_count(3)
    expect(page.locator("#total-east_west")).to_have_text("150")
    expect(page.locator("#bid-east option[value=nil]")).to_have_count(1)

    page.uncheck('#rules-form input[name="nil"]')  # nil is not allowed any more

    invalid = page.locator('#sheet-rows tr.invalid[data-hand="2"]')
    expect(invalid).to_contain_text("Not valid")
    expect(page.locator('#sheet-rows tr.unscored[data-hand="3"]')).to_contain_text("Not scored")
    # Only hand 1 counts now (its 50 and 71), not the old 150 and 214 of three hands.
    expect(page.locator("#total-east_west")).to_have_text("50")
    expect(page.locator("#total-north_south")).to_have_text("71")
    expect(page.locator("#totals-note")).to_contain_text("Totals after hand 1")
    expect(page.locator("#rules-note")).to_contain_text("hand 2 cannot be scored")
    expect(page.locator("#score-hand")).to_be_disabled()
    assert_plain_words(page)  # the notes on the hands the rules forbid now
    # The entry no longer offers a bid the rules forbid.
    expect(page.locator("#bid-east option[value=nil]")).to_have_count(0)

    page.check('#rules-form input[name="nil"]')  # back: every hand scores again

    expect(page.locator("#sheet-rows tr.invalid")).to_have_count(0)
    expect(page.locator("#total-east_west")).to_have_text("150")
    expect(page.locator("#total-north_south")).to_have_text("214")
    expect(page.locator("#score-hand")).to_be_enabled()


@BOTH_SCREENS
def test_the_calculator_fits_the_screen(page: Any, viewport: dict[str, int]) -> None:
    open_calculator(page)
    enter_hand(page, EXAMPLE_2)
    page.click("#score-hand")
    expect(page.locator("#sheet-rows tr")).to_have_count(1)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page is {width} px wide on a {viewport} screen"
