"""Faults with real services: PostgreSQL dropping the connection mid-request, failed authorization logged."""

from __future__ import annotations

import pytest
from django.db import connection, connections
from django.urls import reverse

from memory.models import Exchange, Fact
from teams.models import AuditEntry
from tests.conftest import logged_in_client
from tests.factories import make_fact


def kill_this_connection() -> None:
    """What a PostgreSQL restart does to a web worker's open connection: the server ends it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    killer = connections.create_connection("default")
    try:
        with killer.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        killer.close()


@pytest.mark.django_db(transaction=True)
def test_the_api_answers_503_with_a_sentence_when_the_database_connection_dies(server, bot_token, client):
    before = Exchange.objects.count()
    client.raise_request_exception = False
    kill_this_connection()
    response = client.post(f"/api/v1/servers/{server.guild_id}/context",
                           data={"channel_id": "1", "author_id": "2", "content": "hello"},
                           content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {bot_token}")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "nothing was changed" in response.json()["error"]
    connection.close()
    assert Exchange.objects.count() == before


@pytest.mark.django_db(transaction=True)
def test_the_panel_answers_503_when_the_database_connection_dies_mid_edit(server, owner):
    fact = make_fact(server, key="theme", content="Retro gaming.")
    client = logged_in_client(owner)
    client.raise_request_exception = False  # as in production: the error handler answers
    kill_this_connection()
    response = client.post(reverse("memory:fact", args=[server.guild_id, fact.number]),
                           {"key": "theme", "content": "Changed.", "confidence": "1", "version": str(fact.version)})
    assert response.status_code == 503 and b"Nothing was changed" in response.content
    connection.close()
    assert Fact.objects.get(pk=fact.pk).content == "Retro gaming."


@pytest.mark.django_db
def test_a_refused_change_is_written_to_the_audit_log(server, member):
    fact = make_fact(server, key="theme", content="Retro gaming.")
    response = logged_in_client(member).post(reverse("memory:fact-delete", args=[server.guild_id, fact.number]))
    assert response.status_code == 403
    denied = AuditEntry.objects.get(action="change.denied")
    assert (denied.actor_id, denied.server_id) == (member.pk, server.pk)
    assert "fact" in denied.result and Fact.objects.filter(pk=fact.pk).exists()
