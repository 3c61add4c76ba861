"""The one write of usage: a row per model call, with the tokens the endpoint reported (None where it reported none).

Low in the layers (beside the clients and selectors) so that every caller of a model records its own calls: the reply
pipeline, consolidation rounds, learning runs and the embedding endpoints (memory.indexing.vectors hands the
recorder to the provider, which the bot's searches use too)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from datetime import timezone as dt_timezone

from django.db import connection, transaction
from django.utils import timezone

from memory.models import ModelCall


@dataclass(frozen=True)
class CallUsage:
    """One call as its caller saw it: the model asked and what the endpoint said it used (None: said nothing)."""

    model_name: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    called_at: datetime = field(default_factory=timezone.now)


# The month's row of the purpose, added to: one statement, whoever records at the same time (the row's lock is held
# only until the recording commits).
_MONTH_ADD_SQL = """
    INSERT INTO memory_usagemonth (server_id, month, purpose, tokens, unknown_calls, calls)
    VALUES (%s, %s, %s, %s, %s, %s)
    ON CONFLICT (server_id, month, purpose) DO UPDATE SET tokens = memory_usagemonth.tokens + EXCLUDED.tokens,
        unknown_calls = memory_usagemonth.unknown_calls + EXCLUDED.unknown_calls,
        calls = memory_usagemonth.calls + EXCLUDED.calls
"""


def _month_of(moment: datetime) -> date:
    return moment.astimezone(dt_timezone.utc).date().replace(day=1)


def model_calls_record(*, server_id: int, purpose: str, calls: list[CallUsage], exchange_id=None,
                       learning_run_id=None, consolidation_round_id: int | None = None) -> None:
    """Store the calls' usage, linked to the exchange, learning run or consolidation round they were made for, and
    add them to their month's total (UsageMonth, what a budget reads) in the same transaction."""
    if not calls:
        return
    months: dict[date, list[int]] = defaultdict(lambda: [0, 0, 0])  # tokens, unknown calls, calls
    for call in calls:
        total = months[_month_of(call.called_at)]
        known = call.prompt_tokens is not None or call.completion_tokens is not None
        total[0] += (call.prompt_tokens or 0) + (call.completion_tokens or 0)
        total[1] += not known
        total[2] += 1
    with transaction.atomic():
        ModelCall.objects.bulk_create([
            ModelCall(server_id=server_id, purpose=purpose, called_at=call.called_at, model_name=call.model_name[:200],
                      prompt_tokens=call.prompt_tokens, completion_tokens=call.completion_tokens,
                      exchange_id=exchange_id, learning_run_id=learning_run_id,
                      consolidation_round_id=consolidation_round_id)
            for call in calls])
        with connection.cursor() as cursor:
            for month, (tokens, unknown, count) in sorted(months.items()):
                cursor.execute(_MONTH_ADD_SQL, [server_id, month, str(purpose), tokens, unknown, count])
