"""Every write to a server's setup: the memory type, AI settings and model endpoints."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from config.crypto import encrypt_secret
from memory.indexing.catchup import catchup_if_embedding, catchup_start
from memory.indexing.words_language import detected_language, words_language_switch
from memory.models import AISettings, MemoryType, ModelEndpoint, ModelPurpose
from memory.text.limits import kept_precision
from memory.types import profile_for
from teams.models import Server
from teams.services import audit_change, audit_changes_text, audit_record, audit_change_said

from .selectors import ai_settings_for_server
from .settings_fields import BUDGET, BY_NAME, CHANNELS, NUMBER, TEXT, WEIGHT_NAMES


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
        raise ValidationError({"memory_type": gettext("Choose one of the six memory types.")})
    profile = profile_for(memory_type)
    if not profile.ready:
        raise ValidationError({"memory_type": gettext("%(type)s is not ready yet and cannot be chosen.")
                                              % {"type": profile.label}})
    ai_settings = AISettings.objects.select_for_update().get(pk=ai_settings_ensure(server=server).pk)
    previous = ai_settings.memory_type
    ai_settings.memory_type = memory_type
    ai_settings.changed_at = timezone.now()
    ai_settings.save(update_fields=["memory_type", "changed_at"])
    server.ai_settings = ai_settings  # the caller's server object now carries the saved row
    if previous != memory_type:
        with translation.override("en"):  # the append-only log is written once, in English, whoever reads it
            changes = [audit_change("Memory type", profile_for(previous).label, profile.label)]
        audit_record(actor=actor, server=server, action="memory_type.set", result=f"{previous} → {memory_type}",
                     changes=changes)
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
    if setting.kind == BUDGET:
        return value or None  # 0: no budget
    return value


@transaction.atomic
def ai_settings_update(*, server: Server, actor: AbstractBaseUser, read: ChannelRule | None = None,
                       write: ChannelRule | None = None, **fields: object) -> AISettings:
    """Validate every setting given (ai_settings_problems) and save them together; settings not given stay.
    One audit row names each setting that changed with its old and new value (nothing changed: no row). A new
    Memory language points the words index at it (empty: at the language detected now) and, when its stemming
    changes, re-indexes the facts in the background once this commits."""
    values = _as_fields(read, write, fields)
    errors = ai_settings_problems(read=read, write=write, **fields)
    if errors:
        raise ValidationError(errors)
    ai_settings = AISettings.objects.select_for_update().get(pk=ai_settings_ensure(server=server).pk)
    changed, changes = [], []
    for name, value in values.items():
        new, old = _stored_form(name, value), getattr(ai_settings, name)
        if new != old:
            setattr(ai_settings, name, new)
            setting = BY_NAME[name]
            changed.append(name)
            with translation.override("en"):  # the append-only log is written once, in English
                changes.append(audit_change(setting.audit_label, setting.shown(old), setting.shown(new)))
    if changed:
        ai_settings.changed_at = timezone.now()
        ai_settings.save()
        audit_record(actor=actor, server=server, action="ai_settings.update", count=len(changed),
                     result=audit_changes_text(changes), changes=changes)
    server.ai_settings = ai_settings
    if "memory_language" in changed:
        # Detection that cannot tell (too few texts, two languages close) keeps the words index as it is.
        words_language_switch(ai_settings, ai_settings.memory_language or detected_language(server)
                              or ai_settings.words_language)
    if "embedding_provider" in changed:
        catchup_if_embedding(server)
    return ai_settings


def _url_shown(url: str) -> str:
    """An endpoint URL as the audit log shows it: without user, password or query, either of which may hold a key."""
    if not url:
        return "none"
    parts = urlsplit(url)
    host = f"[{parts.hostname}]" if ":" in (parts.hostname or "") else (parts.hostname or "")
    port = f":{parts.port}" if parts.port else ""
    user = "…@" if parts.username or parts.password else ""
    return f"{parts.scheme}://{user}{host}{port}{parts.path}{'?…' if parts.query else ''}"


def _endpoint_changes(purpose: str, before: ModelEndpoint | None, after: ModelEndpoint | None,
                      key_said: str) -> list[dict[str, str]]:
    """What saving (or removing) an endpoint changed, as the audit page lists it; the key only as `key_said`. In
    English, as the append-only log is written once."""
    with translation.override("en"):
        label = str(ModelPurpose(purpose).label)
    old_url, old_model = (before.base_url, before.model_name) if before else ("", "")
    new_url, new_model = (after.base_url, after.model_name) if after else ("", "")
    changes = []
    if old_url != new_url:
        changes.append(audit_change(f"{label} URL", _url_shown(old_url), _url_shown(new_url)))
    if old_model != new_model:
        changes.append(audit_change(f"{label} name", old_model or "none", new_model or "none"))
    if key_said:
        changes.append(audit_change_said(f"{label} API key", key_said))
    return changes


def _key_said(had_key: bool, api_key: str | None) -> str:
    if api_key is None:
        return ""
    if not api_key:
        return gettext_noop("removed") if had_key else ""
    return gettext_noop("changed") if had_key else gettext_noop("set")  # stored in English, shown translated


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
    """Save one model endpoint. `api_key=None` keeps the stored key; "" removes it. Audited with each field that
    changed (old → new), the key only as set, changed or removed; saved as it was: no audit row."""
    if purpose not in ModelPurpose.values:
        raise ValidationError({"purpose": gettext("The purpose must be reply, consolidation or embedding.")})
    endpoint = ModelEndpoint.objects.filter(server=server, purpose=purpose).first() or ModelEndpoint(
        server=server, purpose=purpose
    )
    base_url = base_url.strip()
    key_unchanged = api_key is None or (api_key == "" and not endpoint.api_key_encrypted)
    if endpoint.pk and (endpoint.base_url, endpoint.model_name) == (base_url, model_name.strip()) and key_unchanged:
        # The settings page saves every endpoint it shows: one left as it was is not a change (no audit row,
        # and under Semantic no catch-up round that would put searches back on words until it ends).
        return endpoint
    before = ModelEndpoint(base_url=endpoint.base_url, model_name=endpoint.model_name) if endpoint.pk else None
    had_key = bool(endpoint.api_key_encrypted)
    key_said = ""
    if endpoint.pk and endpoint.base_url != base_url and api_key is None and endpoint.api_key_encrypted:
        # A stored key is never sent to a new address it was not entered for: pointing the endpoint
        # elsewhere would otherwise hand the key to whoever runs that address.
        api_key, key_said = "", "removed (a stored key never goes to a new address)"
    endpoint.base_url = base_url
    endpoint.model_name = model_name.strip()
    if api_key is not None:
        endpoint.api_key_encrypted = encrypt_secret(api_key) if api_key else ""
        endpoint.api_key_hint = api_key[-4:] if len(api_key) >= 12 else ""
    if not base_url and purpose != ModelPurpose.EMBEDDING:
        raise ValidationError({"base_url": gettext("Enter the endpoint URL for this model.")})
    endpoint.changed_at = timezone.now()
    endpoint.full_clean(exclude=["server"])
    endpoint.save()
    changes = _endpoint_changes(purpose, before, endpoint, key_said or _key_said(had_key, api_key))
    audit_record(actor=actor, server=server, action="model_endpoint.set", count=len(changes),
                 result=f"{purpose}: {audit_changes_text(changes)}", changes=changes)
    if purpose in (ModelPurpose.EMBEDDING, ModelPurpose.REPLY):
        catchup_if_embedding(server)
    return endpoint


@transaction.atomic
def model_endpoint_remove(*, server: Server, actor: AbstractBaseUser, purpose: str) -> None:
    """Forget the endpoint (and its key) for this purpose; audited with what it was (its key only as removed)."""
    endpoint = ModelEndpoint.objects.filter(server=server, purpose=purpose).first()
    if endpoint is None:
        return
    endpoint.delete()
    changes = _endpoint_changes(purpose, endpoint, None, "removed" if endpoint.api_key_encrypted else "")
    audit_record(actor=actor, server=server, action="model_endpoint.remove", count=len(changes),
                 result=f"{purpose}: {audit_changes_text(changes)}", changes=changes)
    if purpose in (ModelPurpose.EMBEDDING, ModelPurpose.REPLY):
        catchup_if_embedding(server)
