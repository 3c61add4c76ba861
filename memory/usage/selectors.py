"""What the panel reads of usage (read-only): tokens per day and purpose, and an exchange's calls."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db import connection

from memory.models import ModelCall

_DAILY_SQL = """
    SELECT (called_at AT TIME ZONE 'UTC')::date, purpose,
           sum(coalesce(prompt_tokens, 0) + coalesce(completion_tokens, 0)),
           count(*) FILTER (WHERE prompt_tokens IS NULL AND completion_tokens IS NULL), count(*)
    FROM memory_modelcall WHERE server_id = %s AND called_at >= %s
    GROUP BY 1, 2
"""


@dataclass(frozen=True)
class DayUsage:
    tokens: int  # as reported; a call that reported nothing adds 0
    unknown_calls: int  # calls whose endpoint reported no usage
    calls: int


def daily_usage(server_id: int, since: datetime) -> dict[tuple[date, str], DayUsage]:
    """The server's usage since `since`, by UTC day and purpose (days without a call are left out)."""
    with connection.cursor() as cursor:
        cursor.execute(_DAILY_SQL, [server_id, since])
        return {(day, purpose): DayUsage(int(tokens), int(unknown), int(calls))
                for day, purpose, tokens, unknown, calls in cursor.fetchall()}


def exchange_model_calls(exchange_id) -> list[ModelCall]:
    """The model calls of one exchange, in the order they were made."""
    return list(ModelCall.objects.filter(exchange_id=exchange_id).order_by("called_at", "id"))
