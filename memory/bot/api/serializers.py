"""JSON shapes of the API (kept in step with memory/bot/api/schema.py)."""

from __future__ import annotations

from collections.abc import Sequence

from memory.models import Exchange, Fact
from memory.retrieval.shown_facts import changed_iso


def fact_as_json(fact: Fact) -> dict:
    """A fact as every API answer shows it; `audience` and `channel_id` (where it was learned) say who may see it,
    `changed_at` when it was last known true, `kind` what kind of fact it is."""
    return {"number": fact.number, "key": fact.key, "content": fact.content, "scope": fact.scope,
            "member_id": fact.member_id or None, "confidence": fact.confidence, "audience": fact.audience,
            "channel_id": fact.source_channel_id or None, "kind": fact.kind,
            "changed_at": changed_iso(fact)}


def facts_as_json(facts: Sequence[Fact]) -> list[dict]:
    """The facts' items; every read that hands facts to the API loads audience and source_channel_id with them
    (memory.retrieval.shown_facts, the ranked context's columns), so this costs no query."""
    return [fact_as_json(fact) for fact in facts]


def _numbers(exchange: Exchange, op: str, field: str = "number") -> list[int]:
    return [action[field] for action in exchange.actions
            if action.get("op") == op and action.get("status") == "applied" and field in action]


def shown_why(exchange: Exchange) -> dict:
    """Why the facts came in: pinned, about the speaker or a member mentioned (the rest by the type's own order),
    and the facts the type chose that the character budget cut."""
    return {"pinned": exchange.pinned_numbers, "about_speaker": exchange.speaker_numbers,
            "budget_cut": exchange.budget_cut_numbers}


def memory_summary(exchange: Exchange) -> dict:
    """What the bot saw and did with memory in this exchange."""
    searched = None
    if exchange.searched_at is not None:
        searched = {"query": exchange.search_query, "mode": exchange.search_mode,
                    "fallback_reason": exchange.search_fallback_reason or None, "found": exchange.found_numbers}
    return {
        "injected": exchange.shown_numbers,
        **shown_why(exchange),
        "mentioned": exchange.mentioned_ids,
        "searched": searched,
        "retracted": _numbers(exchange, "retract"),
        "superseded": [{"number": action["number"], "replaced_by": action["new_number"]}
                       for action in exchange.actions
                       if action.get("op") == "supersede" and action.get("status") == "applied"],
        "learned": _numbers(exchange, "remember"),
        "actions": exchange.actions,
    }


def exchange_as_json(exchange: Exchange, facts: Sequence[Fact]) -> dict:
    """The exchange's log; `facts`: those of its facts a reply in its channel may still see (in force)."""
    return {
        "exchange": str(exchange.pk),
        "guild_id": exchange.server.guild_id,
        "created_at": exchange.created_at.isoformat(),
        "status": exchange.status,
        "memory_type": exchange.memory_type,
        "channel_id": exchange.channel_id,
        "thread_parent_id": exchange.thread_parent_id or None,
        "author_id": exchange.author_id,
        "read_allowed": exchange.read_allowed,
        "write_allowed": exchange.write_allowed,
        "can_search": exchange.can_search,
        "model_calls": exchange.model_calls,
        "reply": exchange.reply,
        "error": exchange.error or None,
        "memory": memory_summary(exchange),
        "facts": facts_as_json(facts),
    }
