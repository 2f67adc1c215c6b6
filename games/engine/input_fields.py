"""Checks shared by the readers of outside documents (game records, scoresheets)."""

from __future__ import annotations

from collections.abc import Mapping


def unknown_fields_problem(
    value: Mapping[object, object], known: tuple[str, ...], where: str
) -> str | None:
    """The sentence naming the fields of ``value`` outside ``known``, or ``None``."""
    unknown = sorted(str(key) for key in value if key not in known)
    if not unknown:
        return None
    return (
        f"{where} has unknown field{'s' if len(unknown) > 1 else ''} "
        f"{', '.join(repr(key) for key in unknown)}; the fields are {', '.join(known)}."
    )
