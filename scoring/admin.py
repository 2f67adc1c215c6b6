"""Admin for rule presets: editing always saves a new version; old rows never change."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from games.engine.rules import PRESETS, RulesError
from scoring.models import LedgerHand, RulePreset
from scoring.services.presets import NAME_PATTERN, rules_from_mapping


class RulePresetForm(forms.ModelForm):
    """Checks the rules with the engine: contradictions show the engine's sentence."""

    rules = forms.JSONField(
        initial=PRESETS["standard"].to_dict,
        help_text="Every rule field; fields left out take the Standard value.",
        widget=forms.Textarea(attrs={"rows": 14, "cols": 60}),
    )

    class Meta:
        model = RulePreset
        fields = ["name", "description", "rules"]

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if not NAME_PATTERN.match(name or ""):
            raise forms.ValidationError(
                "Use 1-100 lowercase letters, digits, '-' or '_', starting with a letter or digit."
            )
        if self.instance.pk is not None and name != self.instance.name:
            raise forms.ValidationError(
                "A preset's name cannot change; create a new preset instead."
            )
        if self.instance.pk is None and RulePreset.objects.filter(name=name).exists():
            raise forms.ValidationError(
                f"A preset called '{name}' exists already; edit it to add a version."
            )
        return str(name)

    def clean_rules(self) -> dict[str, Any]:
        try:
            return rules_from_mapping(self.cleaned_data["rules"]).to_dict()
        except RulesError as error:
            raise forms.ValidationError(str(error)) from None


@admin.register(RulePreset)
class RulePresetAdmin(admin.ModelAdmin):
    """Saving an existing preset inserts version N+1 with the edits; N stays as it was."""

    form = RulePresetForm
    list_display = ["name", "version", "created_by", "created_at", "rules_summary"]
    list_filter = ["name"]
    readonly_fields = ["version", "created_by", "created_at"]
    ordering = ["name", "-version"]

    @admin.display(description="rules")
    def rules_summary(self, obj: RulePreset) -> str:
        return json.dumps(obj.rules, sort_keys=True)[:120]

    def save_model(self, request: HttpRequest, obj: RulePreset, form: Any, change: bool) -> None:
        from scoring.services.presets import create_preset, edit_preset

        if change:
            saved = edit_preset(
                obj.name,
                form.cleaned_data["rules"],
                created_by=request.user,
                description=form.cleaned_data.get("description", ""),
            )
        else:
            saved = create_preset(
                obj.name,
                form.cleaned_data["rules"],
                created_by=request.user,
                description=form.cleaned_data.get("description", ""),
            )
        # The admin's "saved" message and redirect then point at the new version.
        obj.pk = saved.pk
        obj.version = saved.version

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # tables pin preset versions: history never loses one


@admin.register(LedgerHand)
class LedgerHandAdmin(admin.ModelAdmin):
    """The projected ledger (read only: rebuild it with manage.py rebuild_projections)."""

    list_display = ["table_id", "hand_number", "total_north_south", "total_east_west", "winner"]
    search_fields = ["table_id"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
