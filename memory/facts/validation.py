"""What a fact's fields may hold beyond its text (memory.text.limits): member and channel ids, kinds, audiences."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from memory.models import Audience, Kind, Scope
from teams.models import SNOWFLAKE_REGEX


def validate_member_id(raw: str | None, field: str = "member_id") -> str:
    member_id = (raw or "").strip()
    if not re.fullmatch(SNOWFLAKE_REGEX, member_id):
        raise ValidationError({field: _("A Discord user id is a number of 1–20 digits (a snowflake).")})
    return member_id


def validate_channel_id(raw: str | None, field: str = "channel_id") -> str:
    channel_id = (raw or "").strip()
    if not re.fullmatch(SNOWFLAKE_REGEX, channel_id):
        raise ValidationError({field: _("A Discord channel id is a number of 1–20 digits (a snowflake).")})
    return channel_id


def validate_kind(raw: object, field: str = "kind") -> str:
    if raw not in Kind.values:
        raise ValidationError({field: _("The kind must be 'rule', 'lore', 'profile', 'preference' or 'event'.")})
    return raw


def default_kind(scope: str) -> str:
    """What a fact is when nobody said: about a member, a profile; otherwise lore."""
    return Kind.PROFILE if scope == Scope.MEMBER else Kind.LORE


def validate_audience(raw: object, field: str = "audience") -> str:
    if raw not in Audience.values:
        raise ValidationError({field: _("The audience must be 'server', 'channel' or 'staff'.")})
    return raw
