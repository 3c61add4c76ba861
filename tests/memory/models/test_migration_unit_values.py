"""Migration 0015: values stored before six decimal places were kept can no longer make the ranking underflow."""

from __future__ import annotations

import importlib

from django.db import connection

from memory.configuration.services import ai_settings_ensure
from memory.models import AISettings, Fact, MemoryType
from tests.factories import make_fact

migration = importlib.import_module("memory.migrations.0015_round_vanishing_unit_values")


def store_raw(table: str, pk: int, **values) -> None:
    """What an older version could store: the services round now, so the rows are written by hand."""
    assignments = ", ".join(f"{column} = %s" for column in values)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET {assignments} WHERE {'server_id' if table == 'memory_aisettings' else 'id'}"
                       " = %s", [*values.values(), pk])


def migrate_forward() -> None:
    with connection.cursor() as cursor:
        for statement in migration.forward_sql():
            cursor.execute(statement)


def test_vanishing_confidence_and_importance_become_zero_and_others_stay(server):
    tiny = make_fact(server, key="tiny", content="Barely believed.")
    kept = make_fact(server, key="kept", content="Believed.")
    unimportant = make_fact(server, key="unimportant", content="Hardly matters.")
    # Both tiny on one fact never got stored: the ranking index's product underflowed on the INSERT itself.
    store_raw("memory_fact", tiny.pk, confidence=1e-300, importance=None)
    store_raw("memory_fact", unimportant.pk, confidence=1, importance=1e-300)
    store_raw("memory_fact", kept.pk, confidence=0.1234567, importance=0.000001)
    migrate_forward()
    stored = dict((key, (confidence, importance)) for key, confidence, importance in
                  Fact.objects.values_list("key", "confidence", "importance"))
    assert stored == {"tiny": (0, None), "unimportant": (1, 0), "kept": (0.1234567, 0.000001)}


def test_weights_all_vanishing_are_scaled_so_the_ranking_keeps_its_proportions(server, other_server):
    ai_settings_ensure(server=server)
    ai_settings_ensure(server=other_server)
    store_raw("memory_aisettings", server.pk, weight_recency=2e-300, weight_importance=1e-300, weight_relevance=0)
    store_raw("memory_aisettings", other_server.pk, weight_recency=1e-300, weight_importance=1, weight_relevance=1)
    migrate_forward()
    assert AISettings.objects.values_list("weight_recency", "weight_importance", "weight_relevance").get(
        server=server) == (1.0, 0.5, 0.0)
    assert AISettings.objects.values_list("weight_recency", "weight_importance", "weight_relevance").get(
        server=other_server) == (0.0, 1.0, 1.0)


def test_after_it_a_ranked_context_call_works_where_it_failed(server, bot_token, client):
    """Before: a 1e-300 weight times a 1e-300 confidence made PostgreSQL raise an underflow in the ranking."""
    from tests.memory.bot.api.helpers import configure, message

    configure(server, memory_type=MemoryType.RANKED)
    fact = make_fact(server, key="tiny", content="Barely believed.")
    store_raw("memory_fact", fact.pk, confidence=1e-300, importance=None)
    store_raw("memory_aisettings", server.pk, weight_recency=1e-300, weight_importance=1e-300, weight_relevance=1)
    migrate_forward()
    response = client.post(f"/api/v1/servers/{server.guild_id}/context", message(), content_type="application/json",
                           headers={"Authorization": f"Bearer {bot_token}"})
    assert response.status_code == 200, response.content
    assert [row["number"] for row in response.json()["facts"]] == [fact.number]
