"""Django admin for raw memory data: facts (with who may see them, where they were learned, their kind and pin),
summaries, AI settings, model endpoints (keys never shown), the member directory and members' forget-me requests
(read-only), and the Server admin of teams extended so that deleting a server wipes its memory first."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import models
from django.http import Http404

from memory.configuration.services import model_endpoint_set
from memory.facts.deletes import fact_delete, server_wipe
from memory.facts.services import (
    FactAuthor,
    FactConflict,
    FactGone,
    default_kind,
    fact_create,
    fact_update,
    validate_channel_id,
    validate_member_id,
)
from memory.models import (
    AISettings,
    Audience,
    Channel,
    Exchange,
    Fact,
    ForgetRequest,
    Kind,
    Member,
    ModelEndpoint,
    Scope,
    Summary,
)
from memory.text.limits import validate_content, validate_key, validate_unit_interval
from teams.admin import ReadOnlyAdmin, ServerAdmin
from teams.models import Server

# What admin may write on a fact, through the same services as the panel (numbers, versions, audit rows,
# re-embedding); windows, authors, links, the audience and the pin change through the panel's own flows, where they
# are audited (a widening of a fact learned in a private channel is confirmed there first; a pin shows on the memory
# page whether it fits the pinned caps).
FACT_ADD_FIELDS = ["server", "key", "content", "scope", "member_id", "kind", "confidence", "importance", "audience",
                   "source_channel_id"]
FACT_EDITABLE_FIELDS = ["key", "content", "kind", "confidence", "importance"]


class FactAdminForm(forms.ModelForm):
    """The panel's rules, shown on the form's fields instead of a failed save."""

    # The version the form was opened at: an edit made meanwhile (panel, bot) is not overwritten unseen.
    expected_version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    # Empty when adding: what the fact is about decides (a profile for a member, lore otherwise), as on the panel.
    kind = forms.ChoiceField(choices=[("", "— by what it is about (lore; a profile for a member)"), *Kind.choices],
                             required=False)

    class Meta:
        model = Fact
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk and "expected_version" in self.fields:
            self.fields["expected_version"].initial = self.instance.version
        if self.instance.pk and "kind" in self.fields:
            self.fields["kind"].choices = Kind.choices  # a fact has a kind: not sent, it stays as it is

    def clean(self):
        cleaned = super().clean()
        opened_at = cleaned.get("expected_version")
        if self.instance.pk and opened_at is not None:
            now_at = Fact.objects.filter(pk=self.instance.pk).values_list("version", flat=True).first()
            if now_at != opened_at:
                raise ValidationError("Someone changed this fact since you opened it; nothing was saved. Open it "
                                      "again to see what it holds now.")
        if "kind" in self.fields and not cleaned.get("kind") and "kind" not in self.errors:
            cleaned["kind"] = self.instance.kind if self.instance.pk else default_kind(cleaned.get("scope", ""))
        checks = {"key": validate_key, "content": validate_content,
                  "confidence": lambda value: validate_unit_interval(value, "confidence"),
                  "importance": lambda value: validate_unit_interval(value, "importance", allow_none=True)}
        if cleaned.get("scope") == Scope.MEMBER and "member_id" in self.fields:
            checks["member_id"] = validate_member_id
        if cleaned.get("source_channel_id") and "source_channel_id" in self.fields:
            checks["source_channel_id"] = lambda value: validate_channel_id(value, "source_channel_id")
        if (not self.instance.pk and cleaned.get("audience") == Audience.CHANNEL
                and not (cleaned.get("source_channel_id") or "").strip()):
            self.add_error("source_channel_id", "A fact for one channel needs that channel: enter its id.")
        for name, check in checks.items():
            if name in self.fields and name in cleaned:
                try:
                    cleaned[name] = check(cleaned[name])
                except ValidationError as error:
                    self.add_error(name, error.message_dict.get(name, error.messages) if hasattr(error, "error_dict")
                                   else error.messages)
        return cleaned


class SourceChannelFilter(admin.SimpleListFilter):
    """Facts learned in one channel (its threads too), chosen among the channels the bot reported: the distinct
    source channels of a million facts are never listed."""

    title = "source channel"
    parameter_name = "source_channel"

    def lookups(self, request, model_admin):
        channels = Channel.objects.filter(is_thread=False).select_related("server").order_by("server__name", "name")
        return [(channel.channel_id, f"#{channel.name} ({channel.server.name})") for channel in channels[:200]]

    def queryset(self, request, queryset):
        if not self.value():
            return queryset
        return queryset.filter(models.Q(source_channel_id=self.value()) | models.Q(source_thread_id=self.value()))


@admin.register(Fact)
class FactAdmin(admin.ModelAdmin):
    form = FactAdminForm
    list_display = ["number", "server", "key", "short_content", "kind", "pinned", "scope", "member_id", "audience",
                    "source_channel_id", "confidence", "importance", "author_kind", "changed_at", "retracted_at"]
    list_filter = ["server", "kind", "pinned", "scope", "audience", SourceChannelFilter, "author_kind",
                   ("retracted_at", admin.EmptyFieldListFilter)]
    search_fields = ["key", "content", "member_id", "=number", "=source_channel_id"]
    list_select_related = ["server"]
    show_full_result_count = False  # no COUNT(*) over millions of facts on every page

    def get_fields(self, request, obj=None):
        if obj is None:
            return FACT_ADD_FIELDS
        return [field.name for field in Fact._meta.fields if field.name != "id"] + ["expected_version"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return [field.name for field in Fact._meta.fields if field.name not in FACT_EDITABLE_FIELDS]

    def save_model(self, request, obj, form, change):
        if not change:
            created = fact_create(server=obj.server, author=FactAuthor.staff(request.user), key=obj.key,
                                  content=obj.content, scope=obj.scope, member_id=obj.member_id,
                                  confidence=obj.confidence, importance=obj.importance, audience=obj.audience,
                                  source_channel_id=obj.source_channel_id.strip(),
                                  kind=obj.kind)
            for field in Fact._meta.concrete_fields:  # admin goes on with `obj` (its link, the log entry)
                setattr(obj, field.attname, getattr(created, field.attname))
            return
        try:
            opened_at = form.cleaned_data.get("expected_version")
            saved = fact_update(fact=obj, actor=request.user,
                                expected_version=obj.version if opened_at is None else opened_at, key=obj.key,
                                content=obj.content, confidence=obj.confidence, importance=obj.importance,
                                kind=obj.kind)
        except FactConflict as conflict:
            self.message_user(request, f"{conflict} Nothing was saved; open it again to see what it holds now.",
                              messages.ERROR)
            return
        except FactGone as gone:
            raise Http404(str(gone)) from None
        obj.version, obj.changed_at = saved.version, saved.changed_at

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


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    """The member directory (display names as last reported, for "about Paul (222)"); read-only: the bot keeps it."""

    list_display = ["display_name", "member_id", "server", "seen_at"]
    list_filter = ["server"]
    search_fields = ["display_name", "=member_id"]
    list_select_related = ["server"]
    show_full_result_count = False

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(ForgetRequest)
class ForgetRequestAdmin(ReadOnlyAdmin):
    """Members' forget-me requests as raw data; read-only: staff answer them on the panel's Forget-me requests page,
    where a wipe is counted first and audited."""

    list_display = ["requested_at", "server", "member_id", "member_name", "via", "status", "handled_by", "handled_at",
                    "facts_removed"]
    list_filter = ["status", "via", "server"]
    search_fields = ["=member_id", "member_name"]
    date_hierarchy = "requested_at"
    list_select_related = ["server", "handled_by"]


class ServerWipingAdmin(ServerAdmin):
    """teams' Server admin, registered in its place: facts are only deleted through memory's services (a database
    guard enforces it), so deleting a server wipes its memory first. Memory extends the admin of the app below it
    instead of teams' admin reaching up into memory."""

    def delete_model(self, request, obj):
        server_wipe(server=obj, actor=request.user)
        obj.delete()

    def delete_queryset(self, request, queryset):
        for server in queryset:
            self.delete_model(request, server)


admin.site.unregister(Server)
admin.site.register(Server, ServerWipingAdmin)
