"""Rule presets as data: create, edit (always a new version) and resolve for a table.

A preset row is never updated.  Editing writes version N+1; a table pins the name, the
version and the full rules snapshot it was created with, so history never changes under
anyone.  Every refusal carries the engine's :class:`RulesError` sentence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from django.db import IntegrityError, transaction
from django.db.models import Max

from games.engine.rules import PRESETS, Rules, RulesError, rules_from_spec
from scoring.models import RulePreset

NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,99}$")


class ResolvedRules(NamedTuple):
    """Rules ready for a table, and the preset (name, version) they came from."""

    rules: Rules
    preset_name: str | None
    preset_version: int | None


def rules_from_mapping(values: object) -> Rules:
    """Full rules from a stored or submitted mapping of rule fields (no ``preset`` key)."""
    if not isinstance(values, Mapping):
        raise RulesError('Rules must be an object of rule fields, like {"target_score": 300}.')
    if "preset" in values:
        raise RulesError("A preset's rules are plain fields; 'preset' is not one of them.")
    return rules_from_spec({"preset": "standard", **values})


def _check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME_PATTERN.match(name):
        raise RulesError(
            "A preset name is 1-100 lowercase letters, digits, '-' or '_', starting with a "
            f"letter or digit, not {name!r}."
        )
    return name


def latest(name: str) -> RulePreset | None:
    """The newest version of preset ``name``, if it exists."""
    return RulePreset.objects.filter(name=name).order_by("-version").first()


def create_preset(
    name: str, rules: Mapping[str, Any], *, created_by: Any = None, description: str = ""
) -> RulePreset:
    """A new preset at version 1; refused when the name exists or the rules contradict."""
    _check_name(name)
    checked = rules_from_mapping(rules)
    if RulePreset.objects.filter(name=name).exists():
        raise RulesError(f"A preset called '{name}' exists already; edit it to add a version.")
    try:
        with transaction.atomic():
            return RulePreset.objects.create(
                name=name,
                version=1,
                rules=checked.to_dict(),
                description=description,
                created_by=_user_or_none(created_by),
            )
    except IntegrityError:
        raise RulesError(f"A preset called '{name}' exists already.") from None


def edit_preset(
    name: str,
    rules: Mapping[str, Any],
    *,
    created_by: Any = None,
    description: str | None = None,
) -> RulePreset:
    """Version N+1 of preset ``name`` with ``rules`` (old versions stay as they were).

    ``rules`` may hold only the fields that change: they override the latest version.
    """
    current = latest(_check_name(name))
    if current is None:
        raise RulesError(f"There is no preset called '{name}'.")
    if not isinstance(rules, Mapping):
        raise RulesError('Rules must be an object of rule fields, like {"target_score": 300}.')
    checked = rules_from_mapping({**current.rules, **rules})
    for _ in range(3):
        version = (RulePreset.objects.filter(name=name).aggregate(v=Max("version"))["v"] or 0) + 1
        try:
            with transaction.atomic():
                return RulePreset.objects.create(
                    name=name,
                    version=version,
                    rules=checked.to_dict(),
                    description=current.description if description is None else description,
                    created_by=_user_or_none(created_by),
                )
        except IntegrityError:
            continue  # someone else saved a version at the same moment: take the next number
    raise RulesError(f"Preset '{name}' is being edited by someone else; try again.")


def _user_or_none(user: Any) -> Any:
    return user if getattr(user, "pk", None) is not None else None


def resolve(spec: object, version: int | None = None) -> ResolvedRules:
    """Rules for a table from a preset name or ``{"preset": NAME, **overrides}``.

    Names are looked up in the database (newest version unless ``version`` is given);
    the built-in presets are the fallback before the seed migration ran.  A mapping
    without ``"preset"`` overrides ``standard``.  ``None`` means ``standard``.
    """
    if spec is None:
        spec = "standard"
    if isinstance(spec, str):
        base_name, overrides = spec.strip(), {}
    elif isinstance(spec, Mapping):
        overrides = dict(spec)
        base_name = overrides.pop("preset", "standard")
        if not isinstance(base_name, str):
            raise RulesError(f"preset must be a name, not {base_name!r}.")
    else:
        raise RulesError(
            "Rules must be a preset name (standard, easy, bicycle) or an object like "
            '{"preset": "standard", "target_score": 300}.'
        )
    query = RulePreset.objects.filter(name=base_name)
    row = (
        query.filter(version=version) if version is not None else query.order_by("-version")
    ).first()
    if row is None:
        if version is not None:
            raise RulesError(f"Preset '{base_name}' has no version {version}.")
        if base_name not in PRESETS:
            known = sorted(set(PRESETS) | set(RulePreset.objects.values_list("name", flat=True)))
            raise RulesError(
                f"Unknown preset '{base_name}': use one of {', '.join(known)}, "
                'or an object such as {"preset": "standard", "nil": false}.'
            )
        base_values, preset_version = PRESETS[base_name].to_dict(), None
    else:
        base_values, preset_version = dict(row.rules), row.version
    rules = rules_from_mapping({**base_values, **overrides})
    return ResolvedRules(rules, base_name, preset_version)
