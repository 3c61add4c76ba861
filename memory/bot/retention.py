"""Members' words are not kept forever: after a server's *Keep exchange logs for* days, an exchange keeps what
provenance needs (id, time, member, channel, the numbers shown and found, the actions and their results) and loses
the words (the message, the memory block it was shown, the search query, the reply, the error text). Facts are not
touched: nothing is removed from memory automatically."""

from __future__ import annotations

from datetime import datetime

from django.db import connection

TRIM_BATCH = 5000

# One server's old untrimmed exchanges, a batch at a time (the exchange_untrimmed index finds them); the detail of
# an action is our own sentence, never the member's words, so actions stay whole.
_TRIM_SQL = """
    UPDATE memory_exchange SET message = '', memory_block = '', search_query = '', reply = '', error = '',
                               trimmed_at = %(now)s
    WHERE id IN (SELECT id FROM memory_exchange
                 WHERE server_id = %(server)s AND trimmed_at IS NULL AND created_at < %(before)s
                 LIMIT %(batch)s)
"""
_SERVERS_WITH_A_LIMIT_SQL = """
    SELECT server_id, %(now)s::timestamptz - make_interval(days => exchange_log_days)
    FROM memory_aisettings WHERE exchange_log_days > 0
"""


def exchange_logs_trim(*, now: datetime) -> int:
    """Trim every exchange older than its server's limit (servers without AI settings keep the default of the
    model, 90 days, once they have settings; before that they have no exchanges). Idempotent: a trimmed exchange
    is never read again. Returns how many exchanges were trimmed."""
    trimmed = 0
    with connection.cursor() as cursor:
        cursor.execute(_SERVERS_WITH_A_LIMIT_SQL, {"now": now})
        limits = cursor.fetchall()
        for server_id, before in limits:
            while True:
                cursor.execute(_TRIM_SQL, {"now": now, "server": server_id, "before": before, "batch": TRIM_BATCH})
                trimmed += cursor.rowcount
                if cursor.rowcount < TRIM_BATCH:
                    break
    return trimmed
