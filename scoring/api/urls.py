"""Routes under ``/api/``: presets, rescoring."""

from django.urls import path

from scoring.api import views

urlpatterns = [
    path("presets", views.PresetListView.as_view(), name="presets"),
    path("presets/<str:name>", views.PresetDetailView.as_view(), name="preset"),
    path("tables/<uuid:table_id>/ledger", views.TableLedgerView.as_view(), name="table-ledger"),
    path("tables/<uuid:table_id>/rescore", views.TableRescoreView.as_view(), name="table-rescore"),
    path("rescore", views.RescoreView.as_view(), name="rescore"),
    path("presets/<str:name>/versions", views.PresetVersionsView.as_view(), name="preset-versions"),
]
