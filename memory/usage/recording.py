"""The one write of usage: a row per model call, with the tokens the endpoint reported (None where it reported none).

Low in the layers (beside the clients and selectors) so that every caller of a model records its own calls: the reply
pipeline, consolidation rounds, learning runs and the embedding endpoints (memory.indexing.vectors hands the
recorder to the provider, which the bot's searches use too)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from memory.models import ModelCall


@dataclass(frozen=True)
class CallUsage:
    """One call as its caller saw it: the model asked and what the endpoint said it used (None: said nothing)."""

    model_name: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    called_at: datetime = field(default_factory=timezone.now)


def model_calls_record(*, server_id: int, purpose: str, calls: list[CallUsage], exchange_id=None,
                       learning_run_id=None, consolidation_round_id: int | None = None) -> None:
    """Store the calls' usage, linked to the exchange, learning run or consolidation round they were made for."""
    if not calls:
        return
    ModelCall.objects.bulk_create([
        ModelCall(server_id=server_id, purpose=purpose, called_at=call.called_at, model_name=call.model_name[:200],
                  prompt_tokens=call.prompt_tokens, completion_tokens=call.completion_tokens,
                  exchange_id=exchange_id, learning_run_id=learning_run_id,
                  consolidation_round_id=consolidation_round_id)
        for call in calls])
