"""The fields every request body is built from: strict types, and patterns the schema shows.

What the door refuses in any text (``conversations.api.door``) is also said here as patterns,
so that the OpenAPI document states it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

METADATA_MAX_BYTES = 16 * 1024
ID_PATTERN = r"^[0-9A-Za-z]{1,26}$"
# What the door refuses in any text (conversations.api.door), said as patterns so the OpenAPI
# document states it: no NUL character; and, for text that must say something, one character
# that is not a space (what remains after trimming).
NO_NUL = r"^[^\x00]*$"
# The spaces a field trims (Python's str.strip), spelled out: \s means other characters to a
# client reading the document (ECMA-262: not \x1c-\x1f or \x85, but \ufeff), so "\x1f" was a
# valid message to the document and a blank one to the API.
SPACES = r"\t\n\x0b\x0c\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
SAYS_SOMETHING = rf"^[^\x00]*[^{SPACES}\x00][^\x00]*$"
no_nul = RegexValidator(NO_NUL, "Must be valid Unicode text without NUL characters.")
not_blank = RegexValidator(SAYS_SOMETHING, "This field may not be blank.")
STORABLE_VALUE = "#/components/schemas/StorableValue"  # added by conversations.api.schema


def validate_metadata(value: Any) -> None:
    if len(json.dumps(value)) > METADATA_MAX_BYTES:
        raise serializers.ValidationError(f"Must be at most {METADATA_MAX_BYTES} bytes as JSON.")


@extend_schema_field(
    {
        "type": "object",
        "propertyNames": {"pattern": NO_NUL},
        "additionalProperties": {"$ref": STORABLE_VALUE},
    }
)
class StorableObjectField(serializers.DictField):
    """A JSON object of the client's (metadata), at most ``METADATA_MAX_BYTES`` as JSON."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(validators=[validate_metadata], **kwargs)


class StrictCharField(serializers.CharField):
    """A string field that refuses numbers and booleans instead of turning them into text."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        # Before trimming, so a value the schema calls too long is refused, spaces or not.
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return str(super().to_internal_value(data))


class StrictRegexField(serializers.RegexField):
    """``StrictCharField`` with a pattern (which the OpenAPI document shows)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class StrictBooleanField(serializers.BooleanField):
    """A JSON ``true`` or ``false``; not "yes", "1" or 0, which DRF's field would take."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictSerializer(serializers.Serializer[Any]):
    """A request body: a JSON object with no field the schema does not name.

    The OpenAPI document says ``additionalProperties: false`` for these (see
    ``conversations.api.schema``), so an unknown field is refused rather than silently dropped.
    """

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({key: ["Unknown field."] for key in unknown})
        return super().to_internal_value(data)
