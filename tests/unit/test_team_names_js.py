"""The browser code spells the sides' names in one module (``table/words.js``'s
``TEAM_NAMES``); every other module imports them, so a page cannot drift to its own
spelling. Comments may mention the names; code may not."""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "web" / "static" / "web" / "js"
HOME = JS / "table" / "words.js"
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
SPELLING = re.compile(r"North-South|East-West")


def test_only_table_words_spells_the_sides() -> None:
    spelled = {
        str(path.relative_to(JS))
        for path in JS.rglob("*.js")
        if SPELLING.search(COMMENT.sub("", path.read_text(encoding="utf-8")))
    }
    assert spelled == {str(HOME.relative_to(JS))}
    assert 'export const TEAM_NAMES = { north_south: "North-South", east_west: "East-West" };' in (
        HOME.read_text(encoding="utf-8")
    )
