"""The JSON path -> line locator the competition file refusals use."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from leagues.core.json_lines import line_of, path_parts

KEYS = st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.text(max_size=5))
DOCUMENTS = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=25,
)


def leaves(value: Any, path: str = "$") -> list[str]:
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in leaves(item, f"{path}.{key}")]
    if isinstance(value, list):
        return [p for index, item in enumerate(value) for p in leaves(item, f"{path}[{index}]")]
    return [path]


def marked(value: Any, marks: list[str], path: str = "$") -> Any:
    """``value`` with each leaf replaced by a unique text naming its path."""
    if isinstance(value, dict):
        return {key: marked(item, marks, f"{path}.{key}") for key, item in value.items()}
    if isinstance(value, list):
        return [marked(item, marks, f"{path}[{i}]") for i, item in enumerate(value)]
    marks.append(path)
    return f"<leaf {len(marks)}>"


@given(document=DOCUMENTS, indent=st.sampled_from([None, 1, 2, 4]))
def test_every_leaf_is_found_on_the_line_it_is_written_on(
    document: Any, indent: int | None
) -> None:
    marks: list[str] = []
    text = json.dumps(marked(document, marks), indent=indent, ensure_ascii=False)
    lines = text.splitlines()
    for number, path in enumerate(marks, start=1):
        line = line_of(text, path)
        assert line is not None
        assert f'"<leaf {number}>"' in lines[line - 1]


@given(document=DOCUMENTS)
def test_any_path_of_a_document_gives_a_line_within_the_text(document: Any) -> None:
    text = json.dumps(document, indent=2)
    for path in leaves(document):
        line = line_of(text, path)
        assert line is not None and 1 <= line <= text.count("\n") + 1


def test_a_missing_field_gives_the_line_of_its_object() -> None:
    text = '{\n  "a": [\n    1,\n    {\n      "b": 2\n    }\n  ]\n}'
    assert line_of(text, "$.a[1].b") == 5
    assert line_of(text, "$.a[1].c") == 4
    assert line_of(text, "$.a[7]") == 2
    assert line_of(text, "$.a[0].x") == 3
    assert line_of(text, "$") == 1


def test_strings_with_brackets_and_escapes_are_skipped_whole() -> None:
    text = '{"s": "}\\"]{[", "t": [\n"x\\n}", {"u": "]"}],\n"v": 1}'
    assert line_of(text, "$.v") == 3
    assert line_of(text, "$.t[1].u") == 2


def test_a_duplicate_key_counts_where_json_loads_takes_it() -> None:
    assert line_of('{"a": 1,\n"a": 2}', "$.a") == 2


def test_only_json_paths_are_located() -> None:
    assert path_parts("$.results[3].winner") == ["results", 3, "winner"]
    assert path_parts("line 3 column 1") is None
    assert path_parts("$.results[x]") is None
    assert line_of("{}", "file") is None
