"""Every write to memory: facts, the summary, AI settings and model endpoints."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone

from config.crypto import encrypt_secret
from teams.models import SNOWFLAKE_REGEX, Server
from teams.services import audit_record

from .models import (
    CONTENT_MAX_LENGTH,
    KEY_MAX_LENGTH,
    KEY_REGEX,
    SUMMARY_MAX_LENGTH,
    AISettings,
    AuthorKind,
    Fact,
    ModelEndpoint,
    ModelPurpose,
    Scope,
    Summary,
)
from .selectors import ai_settings_for_server, summary_current

# Validation shared by the panel forms and the bot API ---------------------------


def normalise_key(raw: str) -> str:
    """Keys are lower-case with spaces as underscores (API.md, Limits)."""
    return re.sub(r"\s+", "_", raw.strip().lower())


def validate_key(raw: str) -> str:
    key = normalise_key(raw)
    if not key:
        raise ValidationError({"key": "Enter a key (1–64 characters)."})
    if len(key) > KEY_MAX_LENGTH:
        raise ValidationError({"key": f"The key is {len(key)} characters long; keep it to 1–64 characters."})
    if not re.fullmatch(KEY_REGEX, key):
        raise ValidationError(
            {"key": "A key may only hold lower-case letters, digits, '_', '.' and '-' (spaces become '_')."}
        )
    return key


def validate_content(raw: str) -> str:
    content = raw.strip()
    if not content:
        raise ValidationError({"content": "Enter the content (1–1000 characters)."})
    if len(content) > CONTENT_MAX_LENGTH:
        raise ValidationError(
            {"content": f"The content is {len(content)} characters long; keep it to 1–1000 characters."}
        )
    return content


def validate_unit_interval(value: float | None, field: str, *, allow_none: bool = False) -> float | None:
    if value is None and allow_none:
        return None
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise ValidationError({field: f"The {field} must be a number from 0 to 1."})
    return float(value)


def validate_member_id(raw: str | None, field: str = "member_id") -> str:
    member_id = (raw or "").strip()
    if not re.fullmatch(SNOWFLAKE_REGEX, member_id):
        raise ValidationError({field: "A Discord user id is a number of 1–20 digits (a snowflake)."})
    return member_id


# Facts -------------------------------------------------------------------------


def _allocate_fact_numbers(server: Server, count: int) -> range:
    """Reserve `count` consecutive fact numbers on the server; concurrent writers never collide."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO memory_factcounter (server_id, last_number) VALUES (%s, %s)
            ON CONFLICT (server_id) DO UPDATE SET last_number = memory_factcounter.last_number + EXCLUDED.last_number
            RETURNING last_number
            """,
            [server.pk, count],
        )
        last = cursor.fetchone()[0]
    return range(last - count + 1, last + 1)


@dataclass(frozen=True)
class FactAuthor:
    """Who writes a fact: a staff user, or the bot learning from a member's message."""

    kind: str
    user: AbstractBaseUser | None = None
    learned_from_member_id: str = ""

    @classmethod
    def staff(cls, user: AbstractBaseUser) -> FactAuthor:
        return cls(kind=AuthorKind.STAFF, user=user)

    @classmethod
    def bot(cls, learned_from_member_id: str) -> FactAuthor:
        return cls(kind=AuthorKind.BOT, learned_from_member_id=learned_from_member_id)


@transaction.atomic
def fact_create(
    *,
    server: Server,
    author: FactAuthor,
    key: str,
    content: str,
    scope: str = Scope.SERVER,
    member_id: str = "",
    confidence: float = 1.0,
    importance: float | None = None,
    created_at: datetime | None = None,
) -> Fact:
    """Validate and store a new fact in force, with the next number of its server."""
    if scope not in Scope.values:
        raise ValidationError({"scope": "The scope must be 'server' or 'member'."})
    fact = Fact(
        server=server,
        key=validate_key(key),
        content=validate_content(content),
        scope=scope,
        member_id=validate_member_id(member_id) if scope == Scope.MEMBER else "",
        confidence=validate_unit_interval(confidence, "confidence"),
        importance=validate_unit_interval(importance, "importance", allow_none=True),
        author_kind=author.kind,
        author_user=author.user,
        learned_from_member_id=author.learned_from_member_id,
    )
    moment = created_at or timezone.now()
    fact.created_at = fact.changed_at = fact.valid_from = moment
    fact.number = _allocate_fact_numbers(server, 1)[0]
    fact.save()
    return fact


@transaction.atomic
def fact_retract(*, fact: Fact, reason: str, superseded_by: Fact | None = None, at: datetime | None = None) -> Fact:
    """Close the fact's validity window (Ledger sense); it stays on the page and can be restored."""
    locked = Fact.objects.select_for_update().get(pk=fact.pk)
    if locked.retracted_at is not None:
        raise ValidationError(f"Fact #{locked.number} is already retracted.")
    if superseded_by is not None and superseded_by.server_id != locked.server_id:
        raise ValidationError("A fact can only be replaced by a fact of the same server.")
    locked.retracted_at = at or timezone.now()
    locked.retraction_reason = reason.strip()
    locked.superseded_by = superseded_by
    locked.version += 1
    locked.save(update_fields=["retracted_at", "retraction_reason", "superseded_by", "version"])
    return locked


# Summary -----------------------------------------------------------------------


@transaction.atomic
def summary_set(*, server: Server, content: str, author: FactAuthor) -> Summary:
    """Make `content` the server's summary; the previous wording is retracted, never deleted."""
    content = content.strip()
    if len(content) > SUMMARY_MAX_LENGTH:
        raise ValidationError(
            {"content": f"The summary is {len(content)} characters long; keep it to at most {SUMMARY_MAX_LENGTH}."}
        )
    now = timezone.now()
    Summary.objects.select_for_update().filter(server=server, retracted_at__isnull=True).update(retracted_at=now)
    return Summary.objects.create(
        server=server, content=content, author_kind=author.kind, author_user=author.user, created_at=now
    )


# AI settings -------------------------------------------------------------------


@dataclass(frozen=True)
class ChannelRule:
    """Where memory may be read or written: every channel, or only the listed channel ids."""

    all_channels: bool
    channel_ids: tuple[str, ...] = ()


@transaction.atomic
def ai_settings_update(
    *,
    server: Server,
    actor: AbstractBaseUser,
    max_injected_items: int,
    weight_recency: float,
    weight_importance: float,
    weight_relevance: float,
    read: ChannelRule,
    write: ChannelRule,
    include_threads: bool,
) -> AISettings:
    """Validate every field (messages name the allowed range) and save them together."""
    errors: dict[str, str] = {}
    low, high = AISettings.MAX_INJECTED_RANGE
    if isinstance(max_injected_items, bool) or not isinstance(max_injected_items, int) or not (
        low <= max_injected_items <= high
    ):
        errors["max_injected_items"] = f"Maximum injected memory items must be a whole number from {low} to {high}."
    weights = {"weight_recency": weight_recency, "weight_importance": weight_importance,
               "weight_relevance": weight_relevance}
    w_low, w_high = AISettings.WEIGHT_RANGE
    for name, value in weights.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not (w_low <= value <= w_high):
            errors[name] = f"Each ranking weight must be a number from {w_low:g} to {w_high:g}."
    if not errors and not any(weights.values()):
        errors["weight_recency"] = "At least one ranking weight must be above 0."
    for field, rule in (("read_channel_ids", read), ("write_channel_ids", write)):
        bad = [channel for channel in rule.channel_ids if not re.fullmatch(SNOWFLAKE_REGEX, channel)]
        if bad:
            errors[field] = f"Channel ids are numbers of 1–20 digits; not valid: {', '.join(bad[:5])}."
    if errors:
        raise ValidationError(errors)

    ai_settings = ai_settings_for_server(server)
    ai_settings.max_injected_items = max_injected_items
    ai_settings.weight_recency = float(weight_recency)
    ai_settings.weight_importance = float(weight_importance)
    ai_settings.weight_relevance = float(weight_relevance)
    ai_settings.read_all_channels, ai_settings.read_channel_ids = read.all_channels, list(read.channel_ids)
    ai_settings.write_all_channels, ai_settings.write_channel_ids = write.all_channels, list(write.channel_ids)
    ai_settings.include_threads = include_threads
    ai_settings.changed_at = timezone.now()
    ai_settings.save()
    audit_record(actor=actor, server=server, action="ai_settings.update", result="settings saved")
    return ai_settings


@transaction.atomic
def model_endpoint_set(
    *,
    server: Server,
    actor: AbstractBaseUser,
    purpose: str,
    base_url: str,
    model_name: str,
    api_key: str | None,
) -> ModelEndpoint:
    """Save one model endpoint. `api_key=None` keeps the stored key; "" removes it."""
    if purpose not in ModelPurpose.values:
        raise ValidationError({"purpose": "The purpose must be reply, consolidation or embedding."})
    endpoint = ModelEndpoint.objects.filter(server=server, purpose=purpose).first() or ModelEndpoint(
        server=server, purpose=purpose
    )
    endpoint.base_url = base_url.strip()
    endpoint.model_name = model_name.strip()
    if api_key is not None:
        endpoint.api_key_encrypted = encrypt_secret(api_key) if api_key else ""
        endpoint.api_key_hint = api_key[-4:] if len(api_key) >= 12 else ""
    endpoint.changed_at = timezone.now()
    endpoint.full_clean(exclude=["server"])
    endpoint.save()
    audit_record(actor=actor, server=server, action="model_endpoint.set", result=purpose)
    return endpoint
