"""Routes under ``/api/``: presets, rescoring."""

from django.urls import path, register_converter

from scoring.api import views


class PresetNameConverter:
    """A preset name as ``scoring.services.presets`` allows it; anything else is a 404."""

    regex = "[a-z0-9][a-z0-9_-]{0,99}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(PresetNameConverter, "preset")

urlpatterns = [
    path("presets", views.PresetListView.as_view(), name="presets"),
    path("presets/<preset:name>", views.PresetDetailView.as_view(), name="preset"),
    path("tables/<uuid:table_id>/ledger", views.TableLedgerView.as_view(), name="table-ledger"),
    path("tables/<uuid:table_id>/rescore", views.TableRescoreView.as_view(), name="table-rescore"),
    path("rescore", views.RescoreView.as_view(), name="rescore"),
    path(
        "presets/<preset:name>/versions", views.PresetVersionsView.as_view(), name="preset-versions"
    ),
]
