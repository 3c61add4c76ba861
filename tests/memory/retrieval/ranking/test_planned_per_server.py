"""A large server's ranking statements are planned for it (the server written in as a literal), a small server's
share one prepared plan; either way the ranking is the same."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from memory.models import FactCounter
from memory.retrieval.audience import Reader
from memory.retrieval.ranking import HalfLives, Weights, rank_top
from memory.retrieval.ranking import walk as ranking_walk
from tests.factories import make_fact

pytestmark = pytest.mark.django_db


def ranked_and_statements(server) -> tuple[list[int], list[str]]:
    """The ranking's facts and the statements' text as sent, before any parameter is bound."""
    sent: list[str] = []

    def keep(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(keep):
        run = rank_top(server.pk, Weights(1, 1, 1), 3, {}, timezone.now(), reader=Reader.any_channel(),
                       half_lives=HalfLives())
    return [fact.id for fact in run.facts], sent


def test_a_small_server_shares_the_prepared_plan_a_large_one_is_planned_for_itself(server, other_server):
    for target in (server, other_server):
        for index in range(5):
            make_fact(target, key=f"note_{index}", content=f"note number {index}", importance=index / 10)
    FactCounter.objects.filter(server=other_server).update(last_number=ranking_walk.PLANNED_PER_SERVER_FROM)
    small, small_sql = ranked_and_statements(server)
    large, large_sql = ranked_and_statements(other_server)
    ranking = [sql for sql in large_sql if "memory_factcounter" not in sql]
    assert ranking and all(f"server_id = {other_server.pk}" in sql and "%(server)s" not in sql for sql in ranking)
    small_ranking = [sql for sql in small_sql if "memory_factcounter" not in sql]
    assert small_ranking and all("%(server)s" in sql for sql in small_ranking)
    assert len(small) == len(large) == 3  # both ranked: the literal changes the plan, not the answer
    assert not ranking_walk.planned_per_server(server.pk) and ranking_walk.planned_per_server(other_server.pk)
