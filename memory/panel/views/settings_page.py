"""AI settings of one server: viewers read them (keys masked), configure users change them."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from memory.configuration.selectors import ai_settings_for_server, channel_names, model_endpoints_for_server
from memory.configuration.services import ChannelRule, ai_settings_update, model_endpoint_remove, model_endpoint_set
from memory.indexing.words_language import words_language_code
from memory.models import AISettings, ModelPurpose
from memory.text.language import LANGUAGES
from memory.types import profile_for
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import can_configure, server_for_configurer, server_for_viewer

from ..settings_forms import AISettingsForm, ModelEndpointForm


def _endpoint_forms(data, endpoints) -> list[tuple[str, str, ModelEndpointForm, object]]:
    forms = []
    for purpose, label in ModelPurpose.choices:
        endpoint = endpoints.get(purpose)
        initial = {"base_url": endpoint.base_url, "model_name": endpoint.model_name} if endpoint else {}
        forms.append((purpose, label, ModelEndpointForm(data, prefix=purpose, initial=initial, purpose=purpose),
                      endpoint))
    return forms


def _memory_language_shown(ai_settings: AISettings) -> dict[str, str]:
    """The language the words index is in, as the page says it ("Dutch", "chosen"), and while the facts are being
    re-indexed, the language they are re-indexed for (else "")."""
    in_use = LANGUAGES.get(words_language_code(ai_settings), LANGUAGES["en"])
    rebuilding = ai_settings.words_rebuild_started_at is not None
    return {"label": in_use.label, "how": gettext("chosen") if ai_settings.memory_language else gettext("detected"),
            "reindexing_for": LANGUAGES.get(ai_settings.words_language, in_use).label if rebuilding else ""}


@panel_login_required
@require_http_methods(["GET", "POST"])
def ai_settings_page(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    if request.method == "GET":
        server = server_for_viewer(request.user, guild_id)
    else:
        server = server_for_configurer(request.user, guild_id)
    ai_settings = ai_settings_for_server(server)
    endpoints = model_endpoints_for_server(server)
    data = request.POST if request.method == "POST" else None
    form = AISettingsForm(data, initial=AISettingsForm.initial_from(ai_settings))
    endpoint_forms = _endpoint_forms(data, endpoints)
    if data is not None and form.is_valid() and all(f.is_valid() for _, _, f, _ in endpoint_forms):
        try:
            _save(request, server, form, endpoint_forms)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, gettext("AI settings saved."))
            return redirect(reverse("memory:settings", args=[server.guild_id]))
    endpoints_invalid = any(f.errors for _, _, f, _ in endpoint_forms)
    return render(request, "memory/settings_page.html", {
        "server": server,
        "form": form,
        "endpoint_forms": endpoint_forms,
        "can_configure": can_configure(request.user, server),
        "active_profile": profile_for(ai_settings.memory_type),
        "ai_settings": ai_settings,
        "memory_language": _memory_language_shown(ai_settings),
        "channels": channel_names(server),
        "endpoints_invalid": endpoints_invalid,
    }, status=422 if form.errors or endpoints_invalid else 200)


@transaction.atomic
def _save(request, server, form: AISettingsForm, endpoint_forms) -> None:
    data = form.cleaned_data
    ai_settings_update(
        server=server, actor=request.user,
        max_injected_items=data["max_injected_items"],
        weight_recency=data["weight_recency"], weight_importance=data["weight_importance"],
        weight_relevance=data["weight_relevance"],
        read=ChannelRule(data["read_all_channels"], AISettingsForm.split_ids(data["read_channel_ids"])),
        write=ChannelRule(data["write_all_channels"], AISettingsForm.split_ids(data["write_channel_ids"])),
        include_threads=data["include_threads"],
        reply_channel_ids=AISettingsForm.split_ids(data["reply_channel_ids"]),
        embedding_provider=data["embedding_provider"] or None,  # left out of the form: unchanged
        remember_limit_per_hour=data["remember_limit_per_hour"],
        exchange_log_days=data["exchange_log_days"],  # None (not sent): unchanged
        forget_me_mode=data["forget_me_mode"] or None,
        **form.context_settings(),  # those the page did not send: unchanged
        **form.language_setting(),  # likewise
    )
    for purpose, _, endpoint_form, endpoint in endpoint_forms:
        cleaned = endpoint_form.cleaned_data
        if not cleaned["base_url"] and not cleaned["model_name"]:
            if endpoint is not None:
                model_endpoint_remove(server=server, actor=request.user, purpose=purpose)
            continue
        api_key = "" if cleaned["remove_key"] else (cleaned["api_key"] or None)
        model_endpoint_set(server=server, actor=request.user, purpose=purpose, base_url=cleaned["base_url"],
                           model_name=cleaned["model_name"], api_key=api_key)
