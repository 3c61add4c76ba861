"""Reads for teams and servers."""

from __future__ import annotations

from django.db import connection
from django.db.models import QuerySet

from config.rows import columns

from .models import AuditEntry, BotToken, Server

# What authentication reads of a token (teams_bottoken aliased t); memory.bot.selectors.bot_token_and_server
# reads the same columns in its one query for token and server.
ACTIVE_TOKEN_COLUMNS = columns(BotToken, "t", ["id", "team_id", "last_used_at"])
_ACTIVE_TOKEN_SQL = (f"SELECT {ACTIVE_TOKEN_COLUMNS.sql} FROM teams_bottoken t"
                     " WHERE t.token_hash = %s AND t.revoked_at IS NULL")


def bot_token_active_by_hash(token_hash: str) -> BotToken | None:
    """The active token with this hash (id, team and last use loaded). Hand-written SQL: every bot
    call authenticates (config/rows.py)."""
    with connection.cursor() as cursor:
        cursor.execute(_ACTIVE_TOKEN_SQL, [token_hash])
        row = cursor.fetchone()
    return ACTIVE_TOKEN_COLUMNS.instance(row) if row else None


def audit_entries_for_server(server: Server) -> QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(server=server).select_related("actor")


def audit_entries_page(server: Server, *, before_id: int | None, limit: int) -> list[AuditEntry]:
    """Up to `limit` entries, newest first, older than `before_id` when given (keyset paging by id)."""
    entries = audit_entries_for_server(server).order_by("-id")
    if before_id is not None:
        entries = entries.filter(id__lt=before_id)
    return list(entries[:limit])
