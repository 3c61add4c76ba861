"""POST /api/v1/servers/{guild_id}/context under Ranked: the best-scored facts, best first, in the same
response and exchange record as every other type."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memory.facts.services import FactAuthor
from memory.facts.summary import summary_set
from memory.models import Exchange, Kind, MemoryType
from tests.factories import make_fact

from .helpers import configure, memory_state

SUMMARY = "Retro gaming server."


@pytest.fixture
def ranked_memory(server):
    """Ranked, 3 slots: recent chat, an old but essential rule, an old birthday, a doubtful rumour; all of them of a
    kind that ages, events (recency halves every 30 days: tests/memory/retrieval/ranking/test_kinds.py has the rest)."""
    configure(server, memory_type=MemoryType.RANKED, max_injected_items=3)
    summary_set(server=server, content=SUMMARY, author=FactAuthor.bot("222"))
    now = timezone.now()
    facts = {
        "chat_new": make_fact(server, key="chat_new", content="People talked about pizza.", importance=0.2,
                              created_at=now - timedelta(hours=1), kind=Kind.EVENT),
        "chat_old": make_fact(server, key="chat_old", content="People talked about the weather.", importance=0.2,
                              created_at=now - timedelta(days=2), kind=Kind.EVENT),
        "rule": make_fact(server, key="rule_spoilers", content="No spoilers outside #spoilers.", importance=1.0,
                          created_at=now - timedelta(days=10), kind=Kind.EVENT),
        "birthday": make_fact(server, key="paul_birthday", content="Paul's birthday is on 3 May.", importance=0.8,
                              created_at=now - timedelta(days=120), kind=Kind.EVENT),
        "rumour": make_fact(server, key="rumour", content="Someone said the server closes soon.", confidence=0.1,
                            importance=0.9, created_at=now - timedelta(minutes=5), kind=Kind.EVENT),
    }
    return facts


def test_the_best_scored_facts_fill_the_slots_and_are_shown_oldest_first(api, server, ranked_memory):
    body = api.context(server, content="hi all")
    assert body["memory_type"] == "ranked" and body["can_search"] is True
    assert [fact["key"] for fact in body["facts"]] == ["rule_spoilers", "chat_old", "chat_new"]


def test_a_message_about_an_old_fact_brings_it_in_first(api, server, ranked_memory):
    body = api.context(server, content="When is Paul's birthday?")
    assert [fact["key"] for fact in body["facts"]][0] == "paul_birthday"
    assert len(body["facts"]) == 3


def test_a_doubtful_fact_stays_out_though_it_is_new_and_rated_important(api, server, ranked_memory):
    body = api.context(server, content="hi all")
    assert "rumour" not in [fact["key"] for fact in body["facts"]]


def test_the_prompt_holds_one_numbered_line_per_fact_in_the_same_order(api, server, ranked_memory):
    body = api.context(server, content="hi all")
    fact_lines = [line for line in body["prompt"].splitlines() if line.startswith("[#")]
    assert fact_lines == [f"[#{fact['number']}] ({fact['changed_at'][:10]}) {fact['key']}: {fact['content']}"
                          for fact in body["facts"]]
    assert f"Summary: {SUMMARY}" in body["prompt"]


def test_the_exchange_records_the_numbers_shown_as_the_block_lists_them(api, server, ranked_memory):
    body = api.context(server, content="When is Paul's birthday?")
    exchange = Exchange.objects.get(pk=body["exchange"])
    assert exchange.memory_type == "ranked"
    assert exchange.shown_numbers == [fact["number"] for fact in body["facts"]]
    assert exchange.shown_numbers[0] == ranked_memory["birthday"].number
    assert exchange.memory_block == body["prompt"]


def test_the_weights_of_the_ai_settings_decide(api, server, ranked_memory):
    configure(server, weight_recency=10.0, weight_importance=0.0, weight_relevance=0.0)
    body = api.context(server, content="When is Paul's birthday?")
    # The newest win; the rumour changed five minutes ago, but its confidence of 0.1 keeps it out, and the birthday
    # the message is about is too old.
    assert [fact["key"] for fact in body["facts"]] == ["rule_spoilers", "chat_old", "chat_new"]


def test_asking_for_ranked_context_changes_no_fact(api, server, ranked_memory):
    before = memory_state()["facts"]
    api.context(server, content="When is Paul's birthday?")
    api.context(server, content="hi all")
    assert memory_state()["facts"] == before


def test_a_fact_found_by_the_one_search_is_reachable_as_under_searchable_archive(api, server, ranked_memory):
    exchange = api.context(server, content="hi all")["exchange"]
    found = api.search(exchange, "Paul birthday")["facts"]
    assert [fact["key"] for fact in found] == ["paul_birthday"]
    results = api.actions(exchange, retract=[{"number": found[0]["number"], "reason": "wrong date"}])
    assert results[0]["status"] == "applied"
