"""The onboarding pages' pure pieces, in the browser that runs them: which link a landing
page was opened by (a secret only from the fragment, bounded), the refused lines of an
import in words, and the invitation link's waiting players in words (named when known)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

PIECES = """async () => {
  const links = await import("/static/web/js/competitions/links.js");
  const imp = await import("/static/web/js/competitions/entrant_import.js");
  const invite = await import("/static/web/js/competitions/invite_link.js");
  const problem = { body: { lines: [{ line: 3, reason: "There is no player called 'x'." },
                                    { line: "4", reason: "bad" }, null] } };
  return {
    entry: links.linkFrom("", "#link=abc_D-1"),
    partner: links.linkFrom("?partner=p1", "#partner=zz9"),
    partnerWithoutSecret: links.linkFrom("?partner=p1", "#link=abc"),
    hostilePartner: links.linkFrom("?partner=a%20b", "#partner=zz9"),
    tooLong: links.linkFrom("", "#link=" + "a".repeat(129)),
    badChars: links.linkFrom("", "#link=a<b"),
    none: links.linkFrom("?join=x", ""),
    lines: imp.refusalLines(problem),
    noLines: imp.refusalLines({ body: null }),
    waiting: [0, 1, 3].map((count) => invite.waitingText(count)),
    named: [invite.waitingText(1, ["ann"]), invite.waitingText(3, ["ann", "bob", "cy"]),
            invite.waitingText(2, ["ann"])],
  };
}"""


def test_the_onboarding_pieces(page: Any) -> None:
    page.goto("/competitions/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    got = page.evaluate(PIECES)
    assert got["entry"] == {"kind": "entry", "secret": "abc_D-1"}
    assert got["partner"] == {"kind": "partner", "partnership": "p1", "secret": "zz9"}
    assert got["partnerWithoutSecret"] is None and got["hostilePartner"] is None
    assert got["tooLong"] is None and got["badChars"] is None and got["none"] is None
    assert got["lines"] == ["Line 3: There is no player called 'x'."]
    assert got["noLines"] == []
    assert got["waiting"] == [
        "",
        "1 player came in by the link and waits for a partner.",
        "3 players came in by the link and wait for a partner.",
    ]
    assert got["named"] == [
        "ann came in by the link and waits for a partner.",
        "ann, bob and cy came in by the link and wait for a partner.",
        "2 players came in by the link and wait for a partner.",
    ]
