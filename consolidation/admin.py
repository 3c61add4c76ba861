"""Rounds, proposals and drafts in admin: read-only records (answers go through the memory page)."""

from django.contrib import admin

from .models import ConsolidationRound, Proposal, SummaryDraft


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ConsolidationRound)
class ConsolidationRoundAdmin(ReadOnlyAdmin):
    list_display = ["server", "trigger", "status", "created_at", "facts_considered", "duplicates", "contradictions",
                    "unjudged_pairs", "duration_ms", "refusal"]
    list_filter = ["status", "trigger"]
    search_fields = ["server__name", "server__guild_id"]


@admin.register(Proposal)
class ProposalAdmin(ReadOnlyAdmin):
    list_display = ["server", "kind", "keeper", "other", "status", "similarity", "created_at", "answered_by"]
    list_filter = ["kind", "status"]
    raw_id_fields = ["keeper", "other", "round"]
    search_fields = ["server__name", "why", "wording"]


@admin.register(SummaryDraft)
class SummaryDraftAdmin(ReadOnlyAdmin):
    list_display = ["server", "status", "created_at", "answered_by"]
    list_filter = ["status"]
