"""Redis (the Celery broker) down: writes still succeed, nothing is lost, the sweepers queue the work
again once the broker is back. The broker is really unreachable here (a closed port), not mocked."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from config.celery import app
from consolidation.models import ConsolidationRound, RoundStatus
from consolidation.rounds import round_queue, sweep_rounds
from memory.configuration.services import memory_type_set
from memory.indexing.catchup import sweep_embeddings
from memory.models import EmbeddingRound, Fact, FactEmbedding, MemoryType
from tests.factories import make_fact

pytestmark = pytest.mark.django_db


@pytest.fixture
def broker_down(settings):
    """Celery publishing to a port nothing listens on, not eagerly: every .delay() fails like Redis down."""
    previous = {key: app.conf[key] for key in ("task_always_eager", "broker_url", "broker_connection_timeout",
                                                "task_publish_retry")}
    app.conf.update(task_always_eager=False, broker_url="redis://127.0.0.1:9/0", broker_connection_timeout=1,
                    task_publish_retry=False)
    app._pool = None  # connections are made anew, to the closed port
    yield
    app.conf.update(previous)
    app._pool = None


def test_a_fact_written_while_the_broker_is_down_is_saved_and_embedded_by_the_sweeper(
        server, owner, broker_down, django_capture_on_commit_callbacks):
    for index in range(3):
        make_fact(server, key=f"note_{index}", content=f"Note {index} about the raid schedule.")
    with django_capture_on_commit_callbacks(execute=True):
        memory_type_set(server=server, actor=owner, memory_type=MemoryType.SEMANTIC)  # catch-up cannot be queued
        started = time.perf_counter()
        fact = make_fact(server, key="late", content="Written while Redis was down.")
    assert time.perf_counter() - started < 5  # failing to queue is quick, and no error reaches the writer
    assert Fact.objects.filter(pk=fact.pk).exists() and not FactEmbedding.objects.exists()
    catchup = EmbeddingRound.objects.get(server=server)
    assert catchup.status == "queued"

    app.conf.update(task_always_eager=True)  # the broker is back (tests run tasks in process)
    EmbeddingRound.objects.filter(pk=catchup.pk).update(created_at=timezone.now() - timedelta(minutes=11))
    Fact.objects.filter(server=server).update(changed_at=timezone.now() - timedelta(minutes=11))
    assert sweep_embeddings() >= 1
    assert EmbeddingRound.objects.get(pk=catchup.pk).status == "finished"
    assert FactEmbedding.objects.filter(server=server).count() == 4


def test_a_round_queued_while_the_broker_is_down_is_run_by_the_sweeper(planted, broker_down,
                                                                        django_capture_on_commit_callbacks):
    server = planted["language"].server
    with django_capture_on_commit_callbacks(execute=True):
        queued = round_queue(server=server, trigger="manual")
    assert ConsolidationRound.objects.get(pk=queued.pk).status == RoundStatus.QUEUED
    app.conf.update(task_always_eager=True)
    ConsolidationRound.objects.filter(pk=queued.pk).update(created_at=timezone.now() - timedelta(minutes=11))
    assert sweep_rounds() == 1
    assert ConsolidationRound.objects.get(pk=queued.pk).status == RoundStatus.FINISHED
