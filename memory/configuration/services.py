"""Every write to a server's setup: the memory type, AI settings and model endpoints."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from config.crypto import encrypt_secret
from memory.indexing.catchup import catchup_if_embedding, catchup_start
from memory.models import AISettings, EmbeddingProviderChoice, MemoryType, ModelEndpoint, ModelPurpose
from memory.text.limits import kept_precision
from memory.types import profile_for
from teams.models import SNOWFLAKE_REGEX, Server
from teams.services import audit_record

from .selectors import ai_settings_for_server


def ai_settings_ensure(*, server: Server) -> AISettings:
    """The server's AI settings row, for a service to change: written with the defaults when the server has none."""
    ai_settings = ai_settings_for_server(server)
    if ai_settings._state.adding:  # the selector's unsaved defaults
        ai_settings, _ = AISettings.objects.get_or_create(server=server)
        server.ai_settings = ai_settings
    return ai_settings


@transaction.atomic
def memory_type_set(*, server: Server, actor: AbstractBaseUser, memory_type: str) -> AISettings:
    """Choose the server's memory type. Switching moves no fact; a type that is not ready is refused."""
    if memory_type not in MemoryType.values:
        raise ValidationError({"memory_type": "Choose one of the six memory types."})
    profile = profile_for(memory_type)
    if not profile.ready:
        raise ValidationError({"memory_type": f"{profile.label} is not ready yet and cannot be chosen."})
    ai_settings = AISettings.objects.select_for_update().get(pk=ai_settings_ensure(server=server).pk)
    previous = ai_settings.memory_type
    ai_settings.memory_type = memory_type
    ai_settings.changed_at = timezone.now()
    ai_settings.save(update_fields=["memory_type", "changed_at"])
    server.ai_settings = ai_settings  # the caller's server object now carries the saved row
    if previous != memory_type:
        audit_record(actor=actor, server=server, action="memory_type.set", result=f"{previous} → {memory_type}")
    if profile.embeds and previous != memory_type:
        catchup_start(server)  # every fact without a vector from the current model gets one
    return ai_settings


@dataclass(frozen=True)
class ChannelRule:
    """Where memory may be read or written: every channel, or only the listed channel ids."""

    all_channels: bool
    channel_ids: tuple[str, ...] = ()


def ai_settings_problems(
    *,
    max_injected_items: object,
    weight_recency: object,
    weight_importance: object,
    weight_relevance: object,
    read: ChannelRule,
    write: ChannelRule,
    reply_channel_ids: tuple[str, ...] | None = None,
    embedding_provider: str | None = None,
    remember_limit_per_hour: object = None,
) -> dict[str, str]:
    """What is wrong with these settings, by field, in sentences that name the allowed range (empty: nothing).
    The settings page shows them beside its fields together with its other errors; ai_settings_update refuses."""
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
    if not errors and not any(kept_precision(value) for value in weights.values()):
        errors["weight_recency"] = "At least one ranking weight must be above 0."
    channel_lists = [("read_channel_ids", read.channel_ids), ("write_channel_ids", write.channel_ids),
                     ("reply_channel_ids", reply_channel_ids or ())]
    for field, channel_ids in channel_lists:
        bad = [channel for channel in channel_ids if not re.fullmatch(SNOWFLAKE_REGEX, channel)]
        if bad:
            errors[field] = f"Channel ids are numbers of 1–20 digits; not valid: {', '.join(bad[:5])}."
    r_low, r_high = AISettings.REMEMBER_LIMIT_RANGE
    if remember_limit_per_hour is not None and (
        isinstance(remember_limit_per_hour, bool) or not isinstance(remember_limit_per_hour, int)
        or not r_low <= remember_limit_per_hour <= r_high
    ):
        errors["remember_limit_per_hour"] = f"The remember limit must be a whole number from {r_low} to {r_high}."
    if embedding_provider is not None and embedding_provider not in EmbeddingProviderChoice.values:
        errors["embedding_provider"] = "Choose local, endpoint or none for embeddings."
    return errors


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
    reply_channel_ids: tuple[str, ...] | None = None,
    embedding_provider: str | None = None,
    remember_limit_per_hour: int | None = None,
) -> AISettings:
    """Validate every field (ai_settings_problems) and save them together."""
    errors = ai_settings_problems(
        max_injected_items=max_injected_items, weight_recency=weight_recency, weight_importance=weight_importance,
        weight_relevance=weight_relevance, read=read, write=write, reply_channel_ids=reply_channel_ids,
        embedding_provider=embedding_provider, remember_limit_per_hour=remember_limit_per_hour)
    if errors:
        raise ValidationError(errors)

    ai_settings = ai_settings_ensure(server=server)
    provider_changed = embedding_provider is not None and embedding_provider != ai_settings.embedding_provider
    if embedding_provider is not None:
        ai_settings.embedding_provider = embedding_provider
    if remember_limit_per_hour is not None:
        ai_settings.remember_limit_per_hour = remember_limit_per_hour
    ai_settings.max_injected_items = max_injected_items
    ai_settings.weight_recency = kept_precision(weight_recency)
    ai_settings.weight_importance = kept_precision(weight_importance)
    ai_settings.weight_relevance = kept_precision(weight_relevance)
    ai_settings.read_all_channels, ai_settings.read_channel_ids = read.all_channels, list(read.channel_ids)
    ai_settings.write_all_channels, ai_settings.write_channel_ids = write.all_channels, list(write.channel_ids)
    ai_settings.include_threads = include_threads
    if reply_channel_ids is not None:
        ai_settings.reply_channel_ids = list(reply_channel_ids)
    ai_settings.changed_at = timezone.now()
    ai_settings.save()
    audit_record(actor=actor, server=server, action="ai_settings.update", result="settings saved")
    if provider_changed:
        catchup_if_embedding(server)
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
    base_url = base_url.strip()
    key_unchanged = api_key is None or (api_key == "" and not endpoint.api_key_encrypted)
    if endpoint.pk and (endpoint.base_url, endpoint.model_name) == (base_url, model_name.strip()) and key_unchanged:
        # The settings page saves every endpoint it shows: one left as it was is not a change (no audit row,
        # and under Semantic no catch-up round that would put searches back on words until it ends).
        return endpoint
    if endpoint.pk and endpoint.base_url != base_url and api_key is None and endpoint.api_key_encrypted:
        # A stored key is never sent to a new address it was not entered for: pointing the endpoint
        # elsewhere would otherwise hand the key to whoever runs that address.
        api_key = ""
    endpoint.base_url = base_url
    endpoint.model_name = model_name.strip()
    if api_key is not None:
        endpoint.api_key_encrypted = encrypt_secret(api_key) if api_key else ""
        endpoint.api_key_hint = api_key[-4:] if len(api_key) >= 12 else ""
    if not base_url and purpose != ModelPurpose.EMBEDDING:
        raise ValidationError({"base_url": "Enter the endpoint URL for this model."})
    endpoint.changed_at = timezone.now()
    endpoint.full_clean(exclude=["server"])
    endpoint.save()
    audit_record(actor=actor, server=server, action="model_endpoint.set", result=purpose)
    if purpose in (ModelPurpose.EMBEDDING, ModelPurpose.REPLY):
        catchup_if_embedding(server)
    return endpoint


@transaction.atomic
def model_endpoint_remove(*, server: Server, actor: AbstractBaseUser, purpose: str) -> None:
    """Forget the endpoint (and its key) for this purpose."""
    removed, _ = ModelEndpoint.objects.filter(server=server, purpose=purpose).delete()
    if removed:
        audit_record(actor=actor, server=server, action="model_endpoint.remove", result=purpose)
        if purpose in (ModelPurpose.EMBEDDING, ModelPurpose.REPLY):
            catchup_if_embedding(server)
