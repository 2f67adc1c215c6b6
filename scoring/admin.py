"""Admin for rule presets: editing always saves a new version; old rows never change.

The form is scoring.admin_forms (one field per option, the engine's sentences); the
history, differences and usage are read by scoring.preset_usage.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.safestring import SafeString

from games.engine.rules import FIELD_NAMES
from scoring import preset_usage
from scoring.admin_forms import RulePresetForm
from scoring.models import LedgerHand, RulePreset
from scoring.services.presets import create_preset, edit_preset

_MAX_VERSION = 10**9  # a version number in a compare URL beyond this is no version


def _version_param(request: HttpRequest, key: str) -> int | None:
    raw = request.GET.get(key, "")
    return int(raw) if raw.isdigit() and len(raw) <= 10 and int(raw) <= _MAX_VERSION else None


@admin.register(RulePreset)
class RulePresetAdmin(admin.ModelAdmin):
    """Saving an existing preset inserts version N+1 with the edits; N stays as it was."""

    class Media:
        css = {"all": ["web/css/admin.css"]}

    form = RulePresetForm
    list_display = [
        "name",
        "version",
        "description",
        "created_by",
        "created_at",
        "changes",
        "in_use",
    ]
    list_filter = ["name"]
    readonly_fields = ["version", "created_by", "created_at", "version_history"]
    ordering = ["name", "-version"]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets: list[Any] = [
            (None, {"fields": ["name", "description"]}),
            ("Rules", {"fields": list(FIELD_NAMES)}),
        ]
        if obj is not None:
            fieldsets.append(("This version", {"fields": ["version", "created_by", "created_at"]}))
            fieldsets.append(
                ("Versions and where they are in use", {"fields": ["version_history"]})
            )
        return fieldsets

    @admin.display(description="changes from the version before")
    def changes(self, obj: RulePreset) -> str:
        before = preset_usage.version_of(obj.name, obj.version - 1) if obj.version > 1 else None
        if before is None:
            return "first version"
        found = preset_usage.rule_changes(before.rules, obj.rules)
        return "; ".join(f"{c.field}: {c.old} -> {c.new}" for c in found) or "no rule changed"

    @admin.display(description="tables pinned")
    def in_use(self, obj: RulePreset) -> int:
        return preset_usage.table_counts(obj.name).get(obj.version, 0)

    @admin.display(description="versions")
    def version_history(self, obj: RulePreset) -> SafeString:
        return SafeString(
            render_to_string(
                "admin/scoring/rulepreset/version_history.html",
                {
                    "preset": obj,
                    "versions": preset_usage.history(obj.name),
                    "compare_url": reverse("admin:scoring_rulepreset_compare"),
                },
            )
        )

    def get_urls(self) -> list[URLPattern]:
        compare = path(
            "compare/",
            self.admin_site.admin_view(self.compare_view),
            name="scoring_rulepreset_compare",
        )
        return [compare, *super().get_urls()]

    def compare_view(self, request: HttpRequest) -> HttpResponse:
        """Which options differ between two versions of one preset (old -> new)."""
        name = request.GET.get("name", "")[:100]
        older, newer = _version_param(request, "from"), _version_param(request, "to")
        changes = None
        if older is not None and newer is not None:
            changes = preset_usage.difference(name, older, newer)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"Compare versions of {name}" if name else "Compare preset versions",
            "name": name,
            "older": older,
            "newer": newer,
            "changes": changes,
            "versions": list(
                RulePreset.objects.filter(name=name)
                .order_by("version")
                .values_list("version", flat=True)
            ),
        }
        asked = bool(name) or "from" in request.GET or "to" in request.GET
        status = 404 if asked and changes is None else 200
        return TemplateResponse(
            request, "admin/scoring/rulepreset/compare.html", context, status=status
        )

    def save_model(self, request: HttpRequest, obj: RulePreset, form: Any, change: bool) -> None:
        save = edit_preset if change else create_preset
        saved = save(
            obj.name,
            form.cleaned_data["rules"],
            created_by=request.user,
            description=form.cleaned_data.get("description", ""),
        )
        # The admin's "saved" message and redirect then point at the new version.
        obj.pk = saved.pk
        obj.version = saved.version

    def response_change(self, request: HttpRequest, obj: RulePreset) -> HttpResponse:
        response = super().response_change(request, obj)
        if "_continue" in request.POST and isinstance(response, HttpResponseRedirect):
            # "Save and continue editing" goes on with the version just saved, not the
            # address the form was posted to (the version it started from).
            response["Location"] = reverse("admin:scoring_rulepreset_change", args=[obj.pk])
        return response

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
