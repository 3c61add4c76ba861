"""Diversity (maximal marginal relevance): wordings of one fact do not take several of the first places when another
relevant fact exists; with vectors under Semantic, with shared lexemes otherwise."""

from __future__ import annotations

import pytest

from memory.retrieval import diversity
from memory.retrieval.audience import Reader
from memory.retrieval.fusion import words_ranking
from memory.retrieval.words import scored_word_ids
from tests.factories import make_fact

pytestmark = pytest.mark.django_db
ANYWHERE = Reader.any_channel()


def test_two_wordings_of_one_fact_are_not_both_in_the_top_two_when_a_third_relevant_fact_exists(server):
    first = make_fact(server, key="raid_time", content="The guild raid starts Friday at nine in the evening.")
    second = make_fact(server, key="raid_time_again", content="Guild raid: Friday, starts at nine in the evening.")
    third = make_fact(server, key="raid_signup", content="The guild raid only starts once ten people signed up in "
                                                         "the raid channel.")
    make_fact(server, key="server_theme", content="This server is about retro gaming.")
    query = "when does the guild raid start?"
    plain = [item.id for item in scored_word_ids(server.pk, query, 10, reader=ANYWHERE)]
    assert set(plain[:2]) == {first.pk, second.pk}  # without diversity the two wordings take both places
    diverse = words_ranking(server.pk, query, 10, reader=ANYWHERE, span=None)
    assert third.pk in diverse[:2]
    assert not {first.pk, second.pk} <= set(diverse[:2])
    assert set(diverse[:3]) == {first.pk, second.pk, third.pk}  # nothing is lost, only ordered


def test_without_similar_facts_the_order_is_the_search_s():
    relevance = {1: 1.0, 2: 0.9, 3: 0.8}
    assert diversity.diverse([1, 2, 3], relevance, lambda a, b: 0.0, 3) == [1, 2, 3]
    assert diversity.diverse([1, 2, 3], relevance, lambda a, b: 1.0, 3, lambda_=1.0) == [1, 2, 3]


def test_a_near_copy_waits_behind_a_less_relevant_fact_that_adds_something():
    relevance = {1: 1.0, 2: 0.98, 3: 0.85}
    similar = {(1, 2): 0.97, (1, 3): 0.4, (2, 3): 0.4}
    similarity = lambda a, b: similar[(min(a, b), max(a, b))]  # noqa: E731
    assert diversity.diverse([1, 2, 3], relevance, similarity, 3) == [1, 3, 2]
