"""A large server gets an HNSW index of its own (memory/vector_indexes.py): built by the worker outside
any transaction (CREATE INDEX CONCURRENTLY), used by the unchanged nearest-fact query for that server
only, rebuilt when a build died half way, dropped when the server is gone or empty.

The size threshold is lowered so that a few dozen vectors make a server "large"."""

from __future__ import annotations

import math
import random

from types import SimpleNamespace

import pytest
from django.db import connection, connections

from memory import vector_indexes
from memory.models import FactEmbedding
from memory.services import server_wipe
from memory.semantic import NEAREST_SQL, nearest_fact_ids, nearest_params, set_hnsw_search
from memory.tasks import maintain_vector_indexes
from teams.admin import ServerAdmin
from tests.factories import make_fact

pytestmark = pytest.mark.django_db(transaction=True)
MODEL = "test-model"
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
    monkeypatch.setattr(vector_indexes, "SERVER_INDEX_MIN_VECTORS", 40)
    yield
    # Emptying the tables between tests does not drop indexes; a later test must start without them.
    with connection.cursor() as cursor:
        for name in vector_indexes.server_indexes().values():
            cursor.execute(f"DROP INDEX IF EXISTS {name}")


def plan_of_nearest(server_id: int, vector: list[float]) -> str:
    with connection.cursor() as cursor:
        cursor.execute("BEGIN")
        try:
            set_hnsw_search(cursor)
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN " + NEAREST_SQL, nearest_params(server_id, MODEL, vector, 10))
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
    assert maintain_vector_indexes() == 1  # the large server only (the beat task, eager worker)
    name = vector_indexes.server_index_name(server.pk)
    assert vector_indexes.server_index_state(server.pk) == "valid"
    assert vector_indexes.server_index_state(other_server.pk) is None
    assert name in plan_of_nearest(server.pk, vectors[0])
    assert name not in plan_of_nearest(other_server.pk, vectors[0])
    # Fifty vectors are far fewer than the graph's candidate list: its answer is the exact one.
    assert nearest_fact_ids(server.pk, MODEL, vectors[3], 10) == exact_nearest(server.pk, vectors[3], 10)
    assert nearest_fact_ids(other_server.pk, MODEL, vectors[3], 5) == exact_nearest(other_server.pk, vectors[3], 5)
    assert maintain_vector_indexes() == 0  # built once


def test_a_build_that_died_half_way_is_built_again(server, small_threshold):
    give_vectors(server, 45, seed=3)
    assert vector_indexes.ensure_server_index(server.pk)
    # What PostgreSQL leaves behind when CREATE INDEX CONCURRENTLY is interrupted: an invalid index.
    with connection.cursor() as cursor:
        cursor.execute("UPDATE pg_index SET indisvalid = false WHERE indexrelid = %s::regclass",
                       [vector_indexes.server_index_name(server.pk)])
    assert vector_indexes.server_index_state(server.pk) == "invalid"
    assert maintain_vector_indexes() == 1
    assert vector_indexes.server_index_state(server.pk) == "valid"


def test_while_one_worker_builds_a_server_s_index_another_builds_nothing(server, small_threshold):
    give_vectors(server, 45, seed=4)
    # A second connection holds the build lock, as the worker building the index does.
    building = connections.create_connection("default")
    try:
        with building.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s, %s)", [vector_indexes._LOCK_CLASS, server.pk])
        assert vector_indexes.ensure_server_index(server.pk) is False
        assert vector_indexes.server_index_state(server.pk) is None
    finally:
        building.close()
    assert vector_indexes.ensure_server_index(server.pk) is True


def test_the_index_of_a_wiped_or_deleted_server_is_dropped(server, other_server, small_threshold, owner):
    give_vectors(server, 45, seed=5)
    give_vectors(other_server, 45, seed=6)
    assert maintain_vector_indexes() == 2
    server_name, other_name = (vector_indexes.server_index_name(s.pk) for s in (server, other_server))

    server_wipe(server=server, actor=owner)  # the vectors go with the facts
    assert vector_indexes.drop_unneeded_server_indexes() == [server_name]
    assert vector_indexes.server_indexes() == {other_server.pk: other_name}

    ServerAdmin.delete_model(None, SimpleNamespace(user=owner), other_server)  # what admin's delete does
    assert vector_indexes.drop_unneeded_server_indexes() == [other_name]
    assert vector_indexes.server_indexes() == {}


def test_a_small_server_gets_no_index_of_its_own(server, small_threshold):
    give_vectors(server, 10, seed=7)
    assert vector_indexes.ensure_server_index(server.pk) is False
    assert maintain_vector_indexes() == 0
    assert vector_indexes.server_indexes() == {}
