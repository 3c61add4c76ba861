"""The context under Ranked (and the types after it): the best-scored facts fill the slots, best first,
and a fact that misses the cut is a candidate again on the next message."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memory.configuration.selectors import ai_settings_for_server
from memory.facts.services import fact_retract
from memory.models import Fact, Kind, MemoryType
from memory.retrieval.audience import Reader
from memory.retrieval.context import context_choice
from memory.retrieval.ranking import RELEVANCE_DEPTH, Weights, relevance_by_position
from memory.retrieval.words import search_word_ids
from tests.factories import make_fact
from tests.memory.bot.api.helpers import configure
from tests.memory.retrieval.ranking.ranking_reference import rank_every_fact


def keys(facts) -> list[str]:
    return [fact.key for fact in facts]


@pytest.fixture
def ranked_memory(server):
    """Ranked, 3 slots: five chat facts from the last days and Paul's birthday party, important but old; all events,
    whose recency halves every 30 days (rules, lore and profiles would not age: test_kinds.py)."""
    configure(server, memory_type=MemoryType.RANKED, max_injected_items=3)
    now = timezone.now()
    chat = [make_fact(server, key=f"chat_{index}", content=f"Someone mentioned topic number {index}.",
                      created_at=now - timedelta(days=index + 1), kind=Kind.EVENT) for index in range(5)]
    birthday = make_fact(server, key="paul_birthday", content="Paul's birthday is on 3 May.", importance=0.8,
                         created_at=now - timedelta(days=200), kind=Kind.EVENT)
    return chat, birthday


def context_for(server, message: str) -> list[Fact]:
    return context_choice(server, ai_settings_for_server(server), message, Reader.any_channel()).facts


def test_with_nothing_relevant_the_newest_facts_win(server, ranked_memory):
    assert keys(context_for(server, "hello everyone")) == ["chat_0", "chat_1", "chat_2"]


def test_a_fact_that_missed_the_cut_wins_a_slot_when_the_message_is_about_it(server, ranked_memory):
    assert "paul_birthday" not in keys(context_for(server, "hello everyone"))

    assert keys(context_for(server, "when is Paul's birthday?"))[0] == "paul_birthday"


def test_nothing_is_remembered_between_messages(server, ranked_memory):
    before = list(Fact.objects.order_by("pk").values_list("pk", "changed_at", "version", "importance", "confidence"))
    context_for(server, "when is Paul's birthday?")

    assert "paul_birthday" not in keys(context_for(server, "hello everyone"))
    assert list(Fact.objects.order_by("pk").values_list(
        "pk", "changed_at", "version", "importance", "confidence")) == before


def test_a_fact_that_missed_the_cut_comes_back_when_newer_facts_are_retracted(server, ranked_memory):
    chat, _ = ranked_memory
    for fact in chat[:3]:
        fact_retract(fact=fact, reason="no longer true")

    assert keys(context_for(server, "hello everyone")) == ["chat_3", "chat_4", "paul_birthday"]


def test_importance_can_outrank_recency_when_weighted_so(server, ranked_memory):
    configure(server, weight_recency=1.0, weight_importance=10.0, weight_relevance=1.0)
    assert keys(context_for(server, "hello everyone"))[0] == "paul_birthday"


def test_low_confidence_pushes_a_fact_down(server, ranked_memory):
    chat, _ = ranked_memory
    Fact.objects.filter(pk=chat[0].pk).update(confidence=0.2)
    assert keys(context_for(server, "hello everyone")) == ["chat_1", "chat_2", "chat_3"]


def test_the_slots_are_filled_best_first_exactly_as_scoring_every_fact_would(server, ranked_memory):
    configure(server, max_injected_items=6, weight_recency=2.0, weight_importance=3.0, weight_relevance=4.0)
    message = "topic number 3 and Paul's birthday"
    facts = context_for(server, message)
    ai_settings = ai_settings_for_server(server)
    relevance = relevance_by_position(search_word_ids(server.pk, message, RELEVANCE_DEPTH,
                                                      reader=Reader.any_channel()))
    expected = rank_every_fact(server, Weights.of(ai_settings), 6, relevance, timezone.now())
    assert [fact.pk for fact in facts] == [fact.id for fact in expected]
    scores = [fact.score for fact in expected]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) > 1


@pytest.mark.parametrize("memory_type", [MemoryType.CONSOLIDATED, MemoryType.SEMANTIC])
def test_the_types_after_ranked_rank_too(server, ranked_memory, memory_type):
    configure(server, memory_type=memory_type)
    assert keys(context_for(server, "when is Paul's birthday?"))[0] == "paul_birthday"


@pytest.mark.parametrize("memory_type", [MemoryType.CLASSIC, MemoryType.LEDGER, MemoryType.ARCHIVE])
def test_the_types_before_ranked_keep_the_newest_facts(server, ranked_memory, memory_type):
    configure(server, memory_type=memory_type)
    assert keys(context_for(server, "when is Paul's birthday?")) == ["chat_0", "chat_1", "chat_2"]


def test_a_fact_changed_just_now_counts_as_the_most_recent(server, ranked_memory):
    _, birthday = ranked_memory
    Fact.objects.filter(pk=birthday.pk).update(changed_at=timezone.now())
    assert keys(context_for(server, "hello everyone"))[0] == "paul_birthday"
