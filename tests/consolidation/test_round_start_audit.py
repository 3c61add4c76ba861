"""A consolidation round started by staff from the memory page is in the audit log with who started it; a refused
start, a start by someone who may not, and beat's own rounds leave no such row."""

from __future__ import annotations

import pytest
from django.urls import reverse

from consolidation.models import ConsolidationRound
from consolidation.rounds import schedule_rounds
from memory.configuration.services import memory_type_set
from teams.models import AuditEntry
from tests.conftest import logged_in_client

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def start_url(server) -> str:
    return reverse("consolidation:round-start", args=[server.guild_id])


def round_starts() -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action="consolidation.round_start"))


def test_a_round_started_by_staff_is_logged_with_who_started_it(owner, planted):
    server = planted["language"].server
    response = logged_in_client(owner).post(start_url(server), headers=HTMX)

    assert response.status_code == 200
    started = ConsolidationRound.objects.get(server=server)
    [entry] = round_starts()
    assert (entry.actor, entry.actor_label, entry.server, entry.result) == (
        owner, "owner", server, f"round {started.pk} queued")
    page = logged_in_client(owner).get(reverse("memory:audit", args=[server.guild_id])).content.decode()
    assert "<code>consolidation.round_start</code>" in page and f"round {started.pk} queued" in page


def test_a_start_refused_because_a_round_is_waiting_logs_nothing_more(owner, consolidated):
    ConsolidationRound.objects.create(server=consolidated, trigger="quiet")  # waiting, not yet run
    response = logged_in_client(owner).post(start_url(consolidated), headers=HTMX)
    assert response.status_code == 409 and not round_starts()


def test_a_start_refused_under_a_type_without_rounds_logs_nothing(owner, server):
    memory_type_set(server=server, actor=owner, memory_type="ledger")
    assert logged_in_client(owner).post(start_url(server), headers=HTMX).status_code == 409
    assert not round_starts()


def test_beats_rounds_are_not_logged_as_started_by_anyone(planted):
    assert schedule_rounds()  # the planted server is quiet: beat queues a round
    assert not round_starts()


def test_anonymous_cannot_start_a_round(client, consolidated):
    assert client.post(start_url(consolidated), headers=HTMX).status_code == 401
    assert not ConsolidationRound.objects.exists() and not round_starts()


@pytest.mark.parametrize(("user", "status"), [("outsider", 404), ("member", 403), ("moderator", 403)])
def test_no_one_without_configure_starts_a_round_or_is_logged(request, consolidated, user, status):
    response = logged_in_client(request.getfixturevalue(user)).post(start_url(consolidated), headers=HTMX)
    assert response.status_code == status
    assert not ConsolidationRound.objects.exists() and not round_starts()
