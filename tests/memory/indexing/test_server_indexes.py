"""A large server gets word and vector indexes of its own (memory/indexing/server_indexes.py): built by the
worker outside any transaction (CREATE INDEX CONCURRENTLY), used by the unchanged search queries for that
server only, rebuilt when a build died half way, dropped when the server is gone or empty.

The size threshold is lowered so that a few dozen rows make a server "large"."""

from __future__ import annotations

import math
import random
from types import SimpleNamespace

import pytest
from django.db import connection, connections

from memory.admin import ServerWipingAdmin as ServerAdmin
from memory.facts.deletes import server_wipe
from memory.facts.services import fact_retract
from memory.indexing import server_indexes
from memory.indexing.server_indexes import VECTORS, WORDS
from memory.models import Fact, FactEmbedding
from memory.retrieval import words as word_search
from memory.retrieval.audience import Reader
from memory.retrieval.meaning import NEAREST_SQL, nearest_fact_ids, nearest_params, set_hnsw_search
from memory.tasks import maintain_server_indexes
from tests.factories import make_fact

pytestmark = pytest.mark.django_db(transaction=True)
MODEL = "test-model"
ANYWHERE = Reader.any_channel()
DIMENSIONS = FactEmbedding._meta.get_field("vector").dimensions


def unit_vector(rng: random.Random) -> list[float]:
    values = [rng.gauss(0, 1) for _ in range(DIMENSIONS)]
    norm = math.sqrt(sum(value * value for value in values))
    return [value / norm for value in values]


def give_vectors(server, count: int, seed: int) -> list[list[float]]:
    rng = random.Random(seed)
    vectors = []
    for index in range(count):
        fact = make_fact(server, key=f"note_{index}", content=f"note number {index}")
        vector = unit_vector(rng)
        FactEmbedding.objects.create(fact=fact, server=server, model_name=MODEL, text_hash="x", vector=vector)
        vectors.append(vector)
    return vectors


@pytest.fixture
def small_threshold(monkeypatch):
    monkeypatch.setattr(server_indexes, "SERVER_INDEX_MIN_ROWS", 40)
    yield
    # Emptying the tables between tests does not drop indexes; a later test must start without them.
    with connection.cursor() as cursor:
        for kind in server_indexes.KINDS:
            for name in server_indexes.server_indexes(kind).values():
                cursor.execute(f"DROP INDEX IF EXISTS {name}")


def plan_of_nearest(server_id: int, vector: list[float]) -> str:
    with connection.cursor() as cursor:
        cursor.execute("BEGIN")
        try:
            set_hnsw_search(cursor)
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN " + NEAREST_SQL, nearest_params(server_id, MODEL, vector, 10, ANYWHERE))
            return "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("ROLLBACK")


def exact_nearest(server_id: int, vector: list[float], limit: int) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT fact_id FROM memory_factembedding WHERE server_id = %s"
                       " ORDER BY vector <=> %s::vector, fact_id LIMIT %s",
                       [server_id, "[" + ",".join(map(str, vector)) + "]", limit])
        return [row[0] for row in cursor.fetchall()]


def test_a_large_server_gets_its_own_index_and_its_searches_use_it(server, other_server, small_threshold):
    vectors = give_vectors(server, 50, seed=1)
    give_vectors(other_server, 10, seed=2)
    assert maintain_server_indexes() == 1  # the large server only (the beat task, eager worker)
    name = server_indexes.server_index_name(VECTORS, server.pk)
    assert server_indexes.server_index_state(VECTORS, server.pk) == "valid"
    assert server_indexes.server_index_state(VECTORS, other_server.pk) is None
    assert name in plan_of_nearest(server.pk, vectors[0])
    assert name not in plan_of_nearest(other_server.pk, vectors[0])
    # Fifty vectors are far fewer than the graph's candidate list: its answer is the exact one.
    assert nearest_fact_ids(server.pk, MODEL, vectors[3], 10, reader=ANYWHERE) == exact_nearest(server.pk, vectors[3],
                                                                                                10)
    assert nearest_fact_ids(other_server.pk, MODEL, vectors[3], 5, reader=ANYWHERE) == exact_nearest(
        other_server.pk, vectors[3], 5)
    assert maintain_server_indexes() == 0  # built once


def test_a_build_that_died_half_way_is_built_again(server, small_threshold):
    give_vectors(server, 45, seed=3)
    assert server_indexes.ensure_server_index(VECTORS, server.pk)
    # What PostgreSQL leaves behind when CREATE INDEX CONCURRENTLY is interrupted: an invalid index.
    with connection.cursor() as cursor:
        cursor.execute("UPDATE pg_index SET indisvalid = false WHERE indexrelid = %s::regclass",
                       [server_indexes.server_index_name(VECTORS, server.pk)])
    assert server_indexes.server_index_state(VECTORS, server.pk) == "invalid"
    assert maintain_server_indexes() == 1
    assert server_indexes.server_index_state(VECTORS, server.pk) == "valid"


def test_while_one_worker_builds_a_server_s_index_another_builds_nothing(server, small_threshold):
    give_vectors(server, 45, seed=4)
    # A second connection holds the build lock, as the worker building the index does.
    building = connections.create_connection("default")
    try:
        with building.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s, %s)", [VECTORS.lock_class, server.pk])
        assert server_indexes.ensure_server_index(VECTORS, server.pk) is False
        assert server_indexes.server_index_state(VECTORS, server.pk) is None
    finally:
        # Unlocked before closing: a closed connection's backend ends (and drops its locks) a moment later,
        # which on a busy machine is after the next line has tried the lock.
        with building.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [VECTORS.lock_class, server.pk])
        building.close()
    assert server_indexes.ensure_server_index(VECTORS, server.pk) is True


def own_indexes(server_id: int) -> list[str]:
    return [server_indexes.server_index_name(kind, server_id) for kind in server_indexes.KINDS]


def all_own_indexes() -> dict[str, dict[int, str]]:
    return {kind.name: server_indexes.server_indexes(kind) for kind in server_indexes.KINDS}


def test_the_indexes_of_a_wiped_or_deleted_server_are_dropped(server, other_server, small_threshold, owner):
    give_vectors(server, 45, seed=5)
    give_vectors(other_server, 45, seed=6)
    assert maintain_server_indexes() == 2
    assert all(server_indexes.server_index_state(kind, pk) == "valid"
               for kind in server_indexes.KINDS for pk in (server.pk, other_server.pk))

    server_wipe(server=server, actor=owner)  # facts and vectors gone
    assert server_indexes.drop_unneeded_server_indexes() == own_indexes(server.pk)
    assert all_own_indexes() == {"words": {other_server.pk: own_indexes(other_server.pk)[0]},
                                 "vectors": {other_server.pk: own_indexes(other_server.pk)[1]}}

    other_names = own_indexes(other_server.pk)
    ServerAdmin.delete_model(None, SimpleNamespace(user=owner), other_server)  # what admin's delete does
    assert server_indexes.drop_unneeded_server_indexes() == other_names
    assert all_own_indexes() == {"words": {}, "vectors": {}}


def test_a_small_server_gets_no_index_of_its_own(server, small_threshold):
    give_vectors(server, 10, seed=7)
    assert server_indexes.ensure_server_indexes(server.pk) == []
    assert maintain_server_indexes() == 0
    assert all_own_indexes() == {"words": {}, "vectors": {}}


def plan_of_word_search(server_id: int, words: str) -> str:
    """Which word index the planner reads for "this server's facts holding these words". With a few
    dozen rows a b-tree on server_id would win, so they are dropped for the EXPLAIN and put back (DDL is
    transactional: the ROLLBACK restores them)."""
    with connection.cursor() as cursor:
        cursor.execute("BEGIN")
        try:
            cursor.execute("SELECT i.indexname, c.conname IS NOT NULL FROM pg_indexes i"
                           " LEFT JOIN pg_constraint c ON c.conname = i.indexname"
                           " WHERE i.tablename = 'memory_fact' AND i.indexdef NOT LIKE '%% USING gin %%'"
                           " AND i.indexname <> 'memory_fact_pkey'")
            for name, is_constraint in cursor.fetchall():
                cursor.execute(f'ALTER TABLE memory_fact DROP CONSTRAINT "{name}"' if is_constraint
                               else f'DROP INDEX "{name}"')
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN SELECT id FROM memory_fact WHERE server_id = %s"
                           " AND search_vector @@ to_tsquery('english', %s)", [server_id, words])
            return "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("ROLLBACK")


def test_the_words_search_of_a_large_server_reads_its_own_word_index_and_finds_the_same(
        server, other_server, small_threshold, monkeypatch):
    for index in range(45):
        make_fact(server, key=f"note_{index}", content=f"raid night {index}" + (" ferret" if index % 9 == 0 else ""))
    for index in range(10):
        make_fact(other_server, key=f"note_{index}", content=f"ferret raid {index}")
    monkeypatch.setattr(word_search, "FIRST_WALK", 4)  # the walk sees too few: the GIN index is read
    before = word_search.search_word_ids(server.pk, "ferret raid", reader=ANYWHERE)
    assert len(before) >= 5  # the five with both words first, then raid facts of the walk
    assert all("ferret" in content for content in Fact.objects.filter(pk__in=before[:5]).values_list("content",
                                                                                                    flat=True))

    assert maintain_server_indexes() == 1  # words only: the server has no vectors
    assert server_indexes.server_index_state(WORDS, server.pk) == "valid"
    assert server_indexes.server_index_state(VECTORS, server.pk) is None
    own = server_indexes.server_index_name(WORDS, server.pk)
    assert own in plan_of_word_search(server.pk, "ferret & raid")
    assert own not in plan_of_word_search(other_server.pk, "ferret & raid")
    assert word_search.search_word_ids(server.pk, "ferret raid", reader=ANYWHERE) == before
    assert len(word_search.search_word_ids(other_server.pk, "ferret raid", reader=ANYWHERE)) == 10


def test_a_small_server_s_nearest_facts_are_found_exactly_without_the_shared_graph(server, other_server,
                                                                                  small_threshold):
    """Below the size of its own graph, a server's vectors are read and every distance computed: the
    shared graph, filtered to a small server, would mostly walk other servers' vectors."""
    from django.test.utils import CaptureQueriesContext

    vectors = give_vectors(server, 12, seed=8)
    give_vectors(other_server, 45, seed=9)
    with CaptureQueriesContext(connection) as queries:
        found = nearest_fact_ids(server.pk, MODEL, vectors[5], 10, reader=ANYWHERE)
    assert found == exact_nearest(server.pk, vectors[5], 10)
    statements = " ".join(query["sql"] for query in queries.captured_queries)
    assert "WITH exact AS" in statements and "hnsw.iterative_scan" not in statements
    with CaptureQueriesContext(connection) as queries:
        # 45 facts: large here, through a graph
        nearest_fact_ids(other_server.pk, MODEL, vectors[5], 10, reader=ANYWHERE)
    assert "hnsw.iterative_scan" in " ".join(query["sql"] for query in queries.captured_queries)


def test_a_wiped_server_that_handed_out_many_numbers_is_searched_exactly_again(server, other_server, owner,
                                                                                small_threshold):
    """Numbers handed out only bound a server's size from above: after a wipe the server is small again and
    searched exactly, in one statement (no graph of its own was ever built for it)."""
    from django.test.utils import CaptureQueriesContext

    give_vectors(server, 45, seed=11)
    give_vectors(other_server, 45, seed=12)
    server_wipe(server=server, actor=owner)
    vectors = give_vectors(server, 12, seed=13)  # numbers 46..57 now: far past the threshold of 40
    with CaptureQueriesContext(connection) as queries:
        found = nearest_fact_ids(server.pk, MODEL, vectors[2], 10, reader=ANYWHERE)
    assert found == exact_nearest(server.pk, vectors[2], 10)
    assert [query["sql"].count("WITH exact AS") for query in queries.captured_queries] == [1]
    # Once it holds as many vectors as a graph needs, and until its own is built, the shared graph serves it.
    give_vectors(server, 30, seed=14)
    with CaptureQueriesContext(connection) as queries:
        nearest_fact_ids(server.pk, MODEL, vectors[2], 10, reader=ANYWHERE)
    assert "hnsw.iterative_scan" in " ".join(query["sql"] for query in queries.captured_queries)
    server_indexes.ensure_server_index(VECTORS, server.pk)
    assert nearest_fact_ids(server.pk, MODEL, vectors[2], 10, reader=ANYWHERE) == exact_nearest(server.pk, vectors[2],
                                                                                                10)


def test_an_exact_search_whose_nearest_facts_are_retracted_still_finds_as_many_in_force(server, small_threshold):
    """The exact search looks up only the nearest candidates (twice the limit) in memory_fact, in one
    query; when retracted facts took their places it reads every vector again."""
    from django.test.utils import CaptureQueriesContext

    vectors = give_vectors(server, 30, seed=10)
    query = vectors[0]
    order = exact_nearest(server.pk, query, 30)

    def nearest(limit: int) -> tuple[list[int], int]:
        with CaptureQueriesContext(connection) as queries:
            found = nearest_fact_ids(server.pk, MODEL, query, limit, reader=ANYWHERE)
        return found, sum("WITH exact AS" in q["sql"] for q in queries.captured_queries)

    assert nearest(5) == (order[:5], 1)  # nothing retracted: one look at the candidates
    for fact in Fact.objects.filter(pk__in=order[:9]):  # one in force among the 2 x 5 nearest
        fact_retract(fact=fact, reason="outdated")
    assert nearest(5) == (order[9:14], 2)
    for fact in Fact.objects.filter(pk__in=order[9:25]):  # none in force among the 10 nearest
        fact_retract(fact=fact, reason="outdated")
    assert nearest(5) == (order[25:30], 2)
    assert nearest(10) == (order[25:30], 2)  # fewer in force than asked: all of them


MODS, LOUNGE = "333000000000000001", "333000000000000002"


def test_an_exact_search_whose_nearest_facts_the_reader_may_not_see_still_finds_as_many_it_may(server,
                                                                                             small_threshold):
    """Facts of another channel, or for staff, among the nearest candidates are left out in the statement,
    and the search reads every vector again when they took the places, as for retracted facts."""
    from django.test.utils import CaptureQueriesContext

    vectors = give_vectors(server, 30, seed=15)
    query = vectors[0]
    order = exact_nearest(server.pk, query, 30)
    Fact.objects.filter(pk__in=order[:6]).update(audience="channel", source_channel_id=MODS)
    Fact.objects.filter(pk__in=order[6:9]).update(audience="staff")

    def nearest(reader: Reader, limit: int = 5) -> tuple[list[int], int]:
        with CaptureQueriesContext(connection) as queries:
            found = nearest_fact_ids(server.pk, MODEL, query, limit, reader=reader)
        return found, sum("WITH exact AS" in q["sql"] for q in queries.captured_queries)

    assert nearest(Reader.for_message(LOUNGE)) == (order[9:14], 2)  # one it may see among the 2 x 5 nearest
    assert nearest(Reader.for_message(MODS)) == (order[:5], 1)  # in the mods' channel the nearest are its own
    assert nearest(Reader.for_message(MODS), 8) == (order[:6] + order[9:11], 1)  # never the staff's


def test_the_graph_search_finds_as_many_facts_the_reader_may_see_however_many_nearer_ones_it_may_not(
        server, small_threshold, monkeypatch):
    """Through a graph (here the server's own) the audience is tested in the same statement as the vector order:
    when the nearest facts were all learned in another channel or are for staff, the iterative scan goes on past
    the first candidates until it has `limit` facts the reader may see, the nearest of those."""
    from django.test.utils import CaptureQueriesContext

    from memory.retrieval import meaning

    vectors = give_vectors(server, 60, seed=16)
    query = vectors[0]
    order = exact_nearest(server.pk, query, 60)
    Fact.objects.filter(pk__in=order[:20]).update(audience="channel", source_channel_id=MODS)
    Fact.objects.filter(pk__in=order[20:25]).update(audience="staff")
    assert server_indexes.ensure_server_index(VECTORS, server.pk)
    monkeypatch.setattr(meaning, "HNSW_EF_SEARCH", 10)  # the scan's first candidates are all hidden here
    with CaptureQueriesContext(connection) as queries:
        in_lounge = nearest_fact_ids(server.pk, MODEL, query, 10, reader=Reader.for_message(LOUNGE))
    assert "hnsw.iterative_scan" in " ".join(query["sql"] for query in queries.captured_queries)
    assert len(in_lounge) == 10 and set(in_lounge) <= set(order[25:])
    assert len(set(in_lounge) & set(order[25:35])) >= 9  # approximate, but a graph of 60 vectors hardly misses
    in_mods = nearest_fact_ids(server.pk, MODEL, query, 10, reader=Reader.for_message(MODS))
    assert len(in_mods) == 10 and set(in_mods) <= set(order[:20] + order[25:])
    assert len(set(in_mods) & set(order[:10])) >= 9
