"""The read path's rooms (issue 21 point 3): the selectors read the table state cache
through its read-only interface only, and the rules of hidden information stay pure."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: What only the command services may call: taking a state out, offering one back.
WRITERS = {"take_state", "take_committed", "put_back", "fresh_state", "forget"}


def imported_names(path: Path, module: str) -> set[str]:
    tree = ast.parse(path.read_text())
    return {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == module
        for alias in node.names
    }


def test_no_selector_writes_the_table_state_cache() -> None:
    selectors = [*ROOT.glob("*/selectors/*.py"), *ROOT.glob("*/selectors.py")]
    assert selectors
    for path in selectors:
        written = imported_names(path, "games.services.table_state") & WRITERS
        assert not written, f"{path.relative_to(ROOT)} imports {sorted(written)}"
