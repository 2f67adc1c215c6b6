"""Scoring endpoints: rule presets (anyone reads, staff write), ledgers, rescoring."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.errors import DomainErrorsMixin
from games.api.views import viewer_of
from games.selectors.tables import table_exists
from games.selectors.visibility import hands_shown
from scoring import selectors
from scoring.api.permissions import StaffWritesOnly
from scoring.api.serializers import (
    LedgerSerializer,
    PresetCreateSerializer,
    PresetEditSerializer,
    PresetSerializer,
    RescoredLedgerSerializer,
    RescoreManySerializer,
    RescoreQuerySerializer,
)
from scoring.projections import ledger_for_table
from scoring.services import presets
from scoring.services.rescoring import rescore
from services.api.errors import ApiProblem
from services.api.schema import PROBLEM

WRITE_ERRORS = {400: PROBLEM, 401: PROBLEM, 403: PROBLEM}


def _not_found(name: str) -> ApiProblem:
    return ApiProblem(
        status_code=status.HTTP_404_NOT_FOUND,
        code="not_found",
        message=f"There is no preset called '{name}'.",
    )


class PresetListView(DomainErrorsMixin, APIView):
    """Every preset at its newest version; staff add new ones."""

    permission_classes = [StaffWritesOnly]

    @extend_schema(operation_id="presets_list", responses={200: PresetSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(PresetSerializer(selectors.newest_presets(), many=True).data)

    @extend_schema(
        operation_id="presets_create",
        request=PresetCreateSerializer,
        responses={201: PresetSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        serializer = PresetCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        preset = presets.create_preset(
            data["name"], data["rules"], created_by=request.user, description=data["description"]
        )
        return Response(PresetSerializer(preset).data, status=status.HTTP_201_CREATED)


class PresetDetailView(DomainErrorsMixin, APIView):
    """One preset's newest version; staff edit it (which adds a version)."""

    permission_classes = [StaffWritesOnly]

    @extend_schema(operation_id="presets_retrieve", responses={200: PresetSerializer, 404: PROBLEM})
    def get(self, request: Request, name: str) -> Response:
        preset = presets.latest(name)
        if preset is None:
            raise _not_found(name)
        return Response(PresetSerializer(preset).data)

    @extend_schema(
        operation_id="presets_update",
        request=PresetEditSerializer,
        responses={200: PresetSerializer, 404: PROBLEM, **WRITE_ERRORS},
    )
    def put(self, request: Request, name: str) -> Response:
        serializer = PresetEditSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        if not selectors.preset_exists(name):
            raise _not_found(name)
        data: dict[str, Any] = serializer.validated_data
        preset = presets.edit_preset(
            name, data["rules"], created_by=request.user, description=data.get("description")
        )
        return Response(PresetSerializer(preset).data)


class PresetVersionsView(DomainErrorsMixin, APIView):
    """Every version of one preset, oldest first."""

    permission_classes = [StaffWritesOnly]

    @extend_schema(
        operation_id="presets_versions",
        responses={200: PresetSerializer(many=True), 404: PROBLEM},
    )
    def get(self, request: Request, name: str) -> Response:
        versions = selectors.preset_versions(name)
        if not versions:
            raise _not_found(name)
        return Response(PresetSerializer(versions, many=True).data)


def _require_table(table_id: UUID) -> None:
    if not table_exists(table_id):
        raise ApiProblem(
            status_code=status.HTTP_404_NOT_FOUND,
            code="no_such_table",
            message=f"There is no table '{table_id}'.",
        )


class TableLedgerView(DomainErrorsMixin, APIView):
    """The table's score ledger as projected from its events (each hand, totals, bags)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tables_ledger",
        responses={200: LedgerSerializer, 404: PROBLEM},
        tags=["tables"],
    )
    def get(self, request: Request, table_id: UUID) -> Response:
        _require_table(table_id)
        viewer = viewer_of(request)
        return Response(ledger_for_table(table_id, hands=hands_shown(table_id, viewer)))


class TableRescoreView(DomainErrorsMixin, APIView):
    """The table's complete hands scored under other rules; nothing is written."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tables_rescore",
        parameters=[RescoreQuerySerializer],
        responses={200: RescoredLedgerSerializer, 400: PROBLEM, 404: PROBLEM},
        tags=["tables"],
    )
    def get(self, request: Request, table_id: UUID) -> Response:
        query = RescoreQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        [ledger] = rescore([table_id], query.validated_data["rules"], viewer_of(request))
        return Response(ledger)


class RescoreView(DomainErrorsMixin, APIView):
    """Many tables scored under other rules (e.g. a season under a proposed preset)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="rescore",
        request=RescoreManySerializer,
        responses={
            200: RescoredLedgerSerializer(many=True),
            400: PROBLEM,
            401: PROBLEM,
            404: PROBLEM,
        },
        tags=["tables"],
    )
    def post(self, request: Request) -> Response:
        body = RescoreManySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return Response(
            rescore(body.validated_data["table_ids"], body.validated_data["rules"], request.user)
        )
