"""Reads for teams and servers."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import AuditEntry, BotToken, Server


def bot_token_active_by_hash(token_hash: str) -> BotToken | None:
    return (BotToken.objects.only("id", "team_id", "last_used_at")
            .filter(token_hash=token_hash, revoked_at__isnull=True).first())


def audit_entries_for_server(server: Server) -> QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(server=server).select_related("actor")


def servers_with_memory_overview(servers: QuerySet[Server]) -> QuerySet[Server]:
    """Servers annotated with what the home page shows: facts in force and the memory type."""
    from django.db.models import Count, Q

    return servers.select_related("team", "ai_settings").annotate(
        facts_in_force=Count("facts", filter=Q(facts__retracted_at__isnull=True))
    )
