"""Django admin for teams, memberships, servers, Discord bots, bot tokens and the audit log.

Every change that moves permissions goes through teams.services, so guardian's
object permissions follow memberships whether a change is made here or in code.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Count
from django.utils import timezone
from guardian.admin import GuardedModelAdmin

from .models import AuditEntry, BotToken, DiscordBot, Membership, Server, Team
from .services import (
    audit_record,
    bot_token_issue,
    bot_token_revoke,
    membership_add,
    membership_remove,
    server_sync_permissions,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """A record admins read and never edit (the audit log, what members asked for): no add, change or delete."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]
    readonly_fields = ["created_at"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "member_count", "server_count", "created_at"]
    search_fields = ["name", "memberships__user__username"]
    inlines = [MembershipInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            member_total=Count("memberships", distinct=True), server_total=Count("servers", distinct=True)
        )

    @admin.display(description="members", ordering="member_total")
    def member_count(self, team: Team) -> int:
        return team.member_total

    @admin.display(description="servers", ordering="server_total")
    def server_count(self, team: Team) -> int:
        return team.server_total

    def save_formset(self, request, form, formset, change):
        if formset.model is not Membership:
            return super().save_formset(request, form, formset, change)
        memberships = formset.save(commit=False)
        for membership in formset.deleted_objects:
            membership_remove(membership=membership)
        for membership in memberships:
            membership_add(team=membership.team, user=membership.user)
        formset.save_m2m()


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "team", "created_at"]
    list_filter = ["team"]
    search_fields = ["user__username", "user__email", "team__name"]
    autocomplete_fields = ["user", "team"]

    def get_readonly_fields(self, request, obj=None):
        # A membership is added or removed, never moved: moving would skip the permission sync.
        return ["user", "team", "created_at"] if obj else ["created_at"]

    def save_model(self, request, obj, form, change):
        if not change:
            saved = membership_add(team=obj.team, user=obj.user)
            obj.pk, obj.created_at = saved.pk, saved.created_at

    def delete_model(self, request, obj):
        membership_remove(membership=obj)

    def delete_queryset(self, request, queryset):
        for membership in queryset:
            membership_remove(membership=membership)


@admin.register(Server)
class ServerAdmin(GuardedModelAdmin):
    """Object permissions (configure_server) are granted per user on the server's "Object permissions" page.
    memory.admin registers its own subclass in this one's place: deleting a server wipes its memory first."""

    list_display = ["name", "guild_id", "team", "created_at", "left_at"]
    list_filter = ["team", ("left_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "guild_id", "team__name"]
    autocomplete_fields = ["team"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        server_sync_permissions(server=obj)


@admin.register(DiscordBot)
class DiscordBotAdmin(admin.ModelAdmin):
    """The bot installations `manage.py runbot` finds by the application id Discord reports; the guilds a bot is
    in become servers of its team. `runbot --team NAME` adds one itself."""

    list_display = ["application_id", "team", "created_at"]
    list_filter = ["team"]
    search_fields = ["application_id", "team__name"]
    autocomplete_fields = ["team"]
    readonly_fields = ["created_at"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        audit_record(actor=request.user, action="discord_bot.change" if change else "discord_bot.register",
                     target_ids=[obj.pk], result=f"application {obj.application_id}, team {obj.team.name}")


@admin.register(BotToken)
class BotTokenAdmin(admin.ModelAdmin):
    """Adding a token shows its plaintext once, in the confirmation message; only a hash is kept."""

    list_display = ["prefix", "name", "team", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["team", ("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["prefix", "name", "team__name"]
    fields = ["team", "name", "prefix", "created_at", "created_by", "last_used_at", "revoked_at"]
    readonly_fields = ["prefix", "created_at", "created_by", "last_used_at", "revoked_at"]
    actions = ["revoke_tokens"]

    def get_readonly_fields(self, request, obj=None):
        return [*self.readonly_fields, "team"] if obj else self.readonly_fields

    def save_model(self, request, obj, form, change):
        if change:
            obj.save(update_fields=["name"])
            return
        token, plaintext = bot_token_issue(team=obj.team, name=obj.name, created_by=request.user)
        obj.pk, obj.prefix, obj.created_at = token.pk, token.prefix, token.created_at
        messages.warning(
            request,
            f"New bot token for {token.team}: {plaintext} — copy it now, it will not be shown again.",
        )

    @admin.action(description="Revoke the selected tokens")
    def revoke_tokens(self, request, queryset):
        for token in queryset.filter(revoked_at__isnull=True):
            bot_token_revoke(token=token, revoked_by=request.user)
        messages.success(request, f"Revoked at {timezone.now():%Y-%m-%d %H:%M} UTC.")

    def has_delete_permission(self, request, obj=None):
        # Revoke instead: a deleted token would leave audit rows pointing at nothing.
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """Read-only: the database refuses to change or delete audit rows anyway."""

    list_display = ["created_at", "actor_label", "server", "action", "count", "result"]
    list_filter = ["action", "server"]
    search_fields = ["actor_label", "action", "result"]
    date_hierarchy = "created_at"

