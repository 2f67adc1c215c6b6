"""Serializer bases every API app shares."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.settings import api_settings


class StrictSerializer(serializers.Serializer[Any]):
    """Refuses fields it does not know, so a misspelt field is an error, not a no-op."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {
                        api_settings.NON_FIELD_ERRORS_KEY: [
                            f"Unknown field{'s' if len(unknown) > 1 else ''}: "
                            f"{', '.join(unknown)}. Known: {', '.join(self.fields) or 'none'}."
                        ]
                    }
                )
        return super().to_internal_value(data)
