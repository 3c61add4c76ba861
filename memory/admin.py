"""Django admin for raw memory data: facts, summaries, AI settings and model endpoints (keys never shown)."""

from __future__ import annotations

from django import forms
from django.contrib import admin

from .models import AISettings, Channel, Exchange, Fact, ModelEndpoint, Summary
from .services import fact_delete, model_endpoint_set


@admin.register(Fact)
class FactAdmin(admin.ModelAdmin):
    list_display = ["number", "server", "key", "short_content", "scope", "member_id", "confidence", "importance",
                    "author_kind", "changed_at", "retracted_at"]
    list_filter = ["server", "scope", "author_kind", ("retracted_at", admin.EmptyFieldListFilter)]
    search_fields = ["key", "content", "member_id", "=number"]
    raw_id_fields = ["superseded_by", "author_user"]
    readonly_fields = ["number", "created_at", "version"]
    list_select_related = ["server"]
    show_full_result_count = False  # no COUNT(*) over millions of facts on every page

    def delete_model(self, request, obj):
        fact_delete(fact=obj, actor=request.user, reason="deleted in admin")

    def delete_queryset(self, request, queryset):
        for fact in queryset:
            fact_delete(fact=fact, actor=request.user, reason="deleted in admin")

    @admin.display(description="content")
    def short_content(self, fact: Fact) -> str:
        return fact.content if len(fact.content) <= 80 else fact.content[:79] + "…"


@admin.register(Summary)
class SummaryAdmin(admin.ModelAdmin):
    list_display = ["server", "created_at", "retracted_at", "author_kind"]
    list_filter = ["server", ("retracted_at", admin.EmptyFieldListFilter)]
    search_fields = ["content"]


@admin.register(AISettings)
class AISettingsAdmin(admin.ModelAdmin):
    list_display = ["server", "memory_type", "max_injected_items", "include_threads", "changed_at"]
    list_filter = ["memory_type", "include_threads"]
    search_fields = ["server__name", "server__guild_id"]


class ModelEndpointForm(forms.ModelForm):
    base_url = forms.URLField(label="Endpoint URL", max_length=500, assume_scheme="https")
    api_key = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text="Leave empty to keep the stored key. It is stored encrypted and never shown again.",
    )
    remove_key = forms.BooleanField(required=False, help_text="Tick to remove the stored key.")

    class Meta:
        model = ModelEndpoint
        fields = ["server", "purpose", "base_url", "model_name"]


@admin.register(ModelEndpoint)
class ModelEndpointAdmin(admin.ModelAdmin):
    form = ModelEndpointForm
    list_display = ["server", "purpose", "base_url", "model_name", "masked_key", "changed_at"]
    list_filter = ["purpose"]
    search_fields = ["server__name", "base_url", "model_name"]

    def save_model(self, request, obj, form, change):
        api_key = "" if form.cleaned_data["remove_key"] else (form.cleaned_data["api_key"] or None)
        saved = model_endpoint_set(
            server=obj.server, actor=request.user, purpose=obj.purpose, base_url=obj.base_url,
            model_name=obj.model_name, api_key=api_key,
        )
        obj.pk = saved.pk


@admin.register(Exchange)
class ExchangeAdmin(admin.ModelAdmin):
    """The exchange log as raw data; read-only (the bot writes it, wipes remove it)."""

    list_display = ["created_at", "server", "source", "status", "author_name", "author_id", "channel_id",
                    "model_calls", "memory_type"]
    list_filter = ["server", "status", "source", "memory_type"]
    search_fields = ["message", "author_name", "author_id", "=channel_id"]
    date_hierarchy = "created_at"
    list_select_related = ["server"]
    show_full_result_count = False

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Channel)
class ChannelAdmin(admin.ModelAdmin):
    list_display = ["name", "channel_id", "server", "is_thread", "parent_id", "reported_at"]
    list_filter = ["server", "is_thread"]
    search_fields = ["name", "=channel_id"]
