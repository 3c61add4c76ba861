"""How long memory text may be and how it is cleaned and checked before it is stored: one set of rules for the
panel forms, the bot API, the tool calls and the services (pure functions; the database checks the same limits)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .keys import KEY_MAX_LENGTH, is_valid_key, normalise_key

CONTENT_MAX_LENGTH = 1000
SUMMARY_MAX_LENGTH = 4000
# Confidence, importance and ranking weights are kept to six decimal places. PostgreSQL answers a float
# product that underflows (1e-300 * 1e-300) with an error, not with 0, and the ranking multiplies them:
# a bot sending confidence 1e-300 would have made every later context call of its server fail.
UNIT_DECIMALS = 6


def clean_text(raw: str) -> str:
    """PostgreSQL text cannot hold NUL; text from models and bots sometimes does. Drop it."""
    return raw.replace("\x00", "")


def validate_key(raw: str) -> str:
    key = normalise_key(raw)
    if not key:
        raise ValidationError({"key": _("Enter a key (1–64 characters).")})
    if len(key) > KEY_MAX_LENGTH:
        raise ValidationError({"key": _("The key is %(count)s characters long; keep it to 1–64 characters.")
                               % {"count": len(key)}})
    if not is_valid_key(key):
        raise ValidationError(
            {"key": _("A key may only hold letters and digits (of any language), '_', '.' and '-' (spaces "
                      "become '_'); other punctuation and control characters are refused.")}
        )
    return key


def validate_content(raw: str) -> str:
    content = clean_text(raw).strip()
    if not content:
        raise ValidationError({"content": _("Enter the content (1–1000 characters).")})
    if len(content) > CONTENT_MAX_LENGTH:
        raise ValidationError(
            {"content": _("The content is %(count)s characters long; keep it to 1–1000 characters.")
                        % {"count": len(content)}}
        )
    return content


def kept_precision(value: float) -> float:
    return round(float(value), UNIT_DECIMALS)


def validate_unit_interval(value: float | None, field: str, *, allow_none: bool = False) -> float | None:
    if value is None and allow_none:
        return None
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        if field == "confidence":
            raise ValidationError({field: _("The confidence must be a number from 0 to 1.")})
        if field == "importance":
            raise ValidationError({field: _("The importance must be a number from 0 to 1.")})
        raise ValidationError({field: _("The %(field)s must be a number from 0 to 1.") % {"field": field}})
    return kept_precision(value)
