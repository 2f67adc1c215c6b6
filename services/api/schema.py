"""OpenAPI pieces shared by the API's views (drf-spectacular)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from services.api.serializers import StrictSerializer


class ProblemSerializer(serializers.Serializer[Any]):
    """Every error body: a stable ``code`` and a sentence; validation errors add ``fields``."""

    code = serializers.CharField()
    message = serializers.CharField()
    fields = serializers.DictField(required=False, help_text="Per-field errors (400 only).")
    current_version = serializers.IntegerField(
        required=False, help_text="The stream's version now (409 stale_version only)."
    )
    retry_after = serializers.IntegerField(
        required=False, help_text="Seconds until the limit lets a request through (429 only)."
    )


PROBLEM = OpenApiResponse(ProblemSerializer, description="Error: {code, message}.")

IDEMPOTENCY_KEY = OpenApiParameter(
    name="Idempotency-Key",
    type=str,
    location=OpenApiParameter.HEADER,
    required=False,
    description=(
        "Client-chosen command id (1-100 printable ASCII characters). Sending the same key "
        "again for the same table appends nothing and answers with the first result."
    ),
)


def close_strict_objects(result: dict[str, Any], generator: Any, **_: Any) -> dict[str, Any]:
    """Postprocessing hook (settings): a :class:`StrictSerializer` refuses fields it does
    not declare, so its schema says ``additionalProperties: false`` (a client, or a
    fuzzer generating valid bodies, learns it from the schema rather than from a 400).
    Reads the generator's component registry (``_components``, drf-spectacular's own)."""
    schemas = result.get("components", {}).get("schemas", {})
    for component in generator.registry._components.values():
        if isinstance(component.object, StrictSerializer) and component.name in schemas:
            schemas[component.name]["additionalProperties"] = False
    return result
