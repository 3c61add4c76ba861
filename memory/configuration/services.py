"""Every write to a server's setup: the memory type, AI settings and model endpoints."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from config.crypto import encrypt_secret
from memory.indexing.catchup import catchup_if_embedding, catchup_start
from memory.models import AISettings, MemoryType, ModelEndpoint, ModelPurpose
from memory.text.limits import kept_precision
from memory.types import profile_for
from teams.models import Server
from teams.services import audit_record

from .selectors import ai_settings_for_server
from .settings_fields import BY_NAME, CHANNELS, NUMBER, TEXT, WEIGHT_NAMES


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


def _as_fields(read: ChannelRule | None, write: ChannelRule | None, fields: dict[str, object]) -> dict[str, object]:
    """The settings named, as AISettings field names; a value of None means "not given, leave as it is"."""
    values = {name: value for name, value in fields.items() if value is not None}
    for prefix, rule in (("read", read), ("write", write)):
        if rule is not None:
            values[f"{prefix}_all_channels"] = rule.all_channels
            values[f"{prefix}_channel_ids"] = list(rule.channel_ids)
    unknown = sorted(set(values) - set(BY_NAME))
    if unknown:
        raise TypeError(f"Not AI settings of the settings page: {', '.join(unknown)}")
    return values


def ai_settings_problems(*, read: ChannelRule | None = None, write: ChannelRule | None = None,
                         **fields: object) -> dict[str, str]:
    """What is wrong with these settings, by field, in sentences that name the allowed range (empty: nothing).
    The settings page shows them beside its fields together with its other errors; ai_settings_update refuses.
    Settings not given (or None) are not checked: they are left as they are."""
    values = _as_fields(read, write, fields)
    errors = {name: problem for name, value in values.items() if (problem := BY_NAME[name].problem(value))}
    weights_given = [values[name] for name in WEIGHT_NAMES if name in values]
    if len(weights_given) == len(WEIGHT_NAMES) and not errors and not any(kept_precision(w) for w in weights_given):
        errors["weight_recency"] = "At least one ranking weight must be above 0."
    return errors


def _stored_form(setting_name: str, value: object) -> object:
    setting = BY_NAME[setting_name]
    if setting.kind == NUMBER:
        return kept_precision(value)
    if setting.kind == CHANNELS:
        return [str(channel) for channel in value]
    if setting.kind == TEXT:
        return str(value).strip()
    return value


@transaction.atomic
def ai_settings_update(*, server: Server, actor: AbstractBaseUser, read: ChannelRule | None = None,
                       write: ChannelRule | None = None, **fields: object) -> AISettings:
    """Validate every setting given (ai_settings_problems) and save them together; settings not given stay.
    One audit row names each setting that changed with its old and new value (nothing changed: no row)."""
    values = _as_fields(read, write, fields)
    errors = ai_settings_problems(read=read, write=write, **fields)
    if errors:
        raise ValidationError(errors)
    ai_settings = AISettings.objects.select_for_update().get(pk=ai_settings_ensure(server=server).pk)
    changed = []
    for name, value in values.items():
        new, old = _stored_form(name, value), getattr(ai_settings, name)
        if new != old:
            setattr(ai_settings, name, new)
            changed.append(f"{name.replace('_', ' ')}: {BY_NAME[name].shown(old)} → {BY_NAME[name].shown(new)}")
    if changed:
        ai_settings.changed_at = timezone.now()
        ai_settings.save()
        audit_record(actor=actor, server=server, action="ai_settings.update", count=len(changed),
                     result="; ".join(changed))
    server.ai_settings = ai_settings
    if "embedding_provider" in values and any(part.startswith("embedding provider:") for part in changed):
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
