"""Faults with the real services: a Redis server really stopped and started again, the test suite's own
PostgreSQL really stopped and started in the middle of a request, and a real Celery worker process
killed with SIGKILL in the middle of a catch-up round and of a consolidation round.

The worker is `celery -A config worker` in a process of its own, on the test database and on a Redis
server started for the test (config.embedded, as `make run` starts it); it is handed the test's
encryption keys, so it reads the model keys the test stored. Models are the local fake server, over HTTP.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from config import embedded
from config.celery import app
from config.queue import registered_task
from consolidation.models import ConsolidationRound, Proposal, ProposalKind, RoundStatus
from consolidation.rounds import round_queue, sweep_rounds
from memory.clients.embeddings import fact_text
from memory.configuration.services import memory_type_set
from memory.indexing import vectors
from memory.indexing.catchup import sweep_embeddings
from memory.models import (ChannelNote, EmbeddingRound, EmbeddingRoundStatus, Exchange, Fact, FactEmbedding,
                           LearningRun, LearningRunStatus, LearningState, MemoryType, ModelPurpose)
from tests.factories import make_fact
from tests.memory.conftest import use_endpoint_embeddings
from tests.memory.learning.conftest import MIRA, PAUL, fact, ingest, learned, learning_model, learning_server, msg
from tests.model_server import Slow, answer, played_model, tool_call

pytestmark = pytest.mark.django_db(transaction=True)
BASE_DIR = Path(__file__).resolve().parents[2]
WAIT_S = 90


def wait_until(condition: Callable[[], bool], what: str, timeout: float = WAIT_S) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"waited {timeout:.0f} s for {what}")


# Redis and the worker ---------------------------------------------------------------------------


def forget_broker_connections() -> None:
    """Publish through new connections to the broker now configured (Celery keeps a pool of each)."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def live_redis(tmp_path, settings):
    """A real redis-server for this test: Celery publishes to it (not eagerly) and the cache lives in it."""
    var_dir = tmp_path / "redis-var"
    url, _ = embedded.ensure_redis(var_dir)
    previous = {key: app.conf[key] for key in ("task_always_eager", "broker_url", "broker_connection_timeout")}
    app.conf.update(task_always_eager=False, broker_url=url, broker_connection_timeout=1)
    forget_broker_connections()
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}}
    caches._settings = None
    caches.__init__()
    yield url, var_dir
    embedded.stop_redis(var_dir)
    app.conf.update(previous)
    forget_broker_connections()
    caches._settings = None
    caches.__init__()


def database_url() -> str:
    db = connection.settings_dict
    password = f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    return f"postgresql://{quote(db['USER'])}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


class Worker:
    """`celery -A config worker` (one process: the solo pool runs the task in the process we kill)."""

    def __init__(self, redis_url: str, log: Path):
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": database_url(),
               "REDIS_URL": redis_url, "LOREKEEPER_FERNET_KEYS": ",".join(settings.LOREKEEPER_FERNET_KEYS)}
        self.log = log
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--without-gossip",
             "--without-mingle", "--without-heartbeat", "-l", "INFO", "-n", f"test-{os.getpid()}-{time.time_ns()}@%h"],
            cwd=BASE_DIR, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT)
        wait_until(lambda: "ready." in log.read_text(errors="replace") or self.process.poll() is not None,
                   "the worker to be ready")
        assert self.process.poll() is None, log.read_text(errors="replace")[-3000:]

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


@contextlib.contextmanager
def worker(redis_url: str, log: Path) -> Iterator[Worker]:
    running = Worker(redis_url, log)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def embedding_model(server, owner):
    """The endpoint embedding provider, played by the fake server (real vectors)."""
    with played_model(server, owner, ModelPurpose.EMBEDDING, model_name="fake-e5",
                      api_key="sk-embed-0123456789abcdef") as fake:
        use_endpoint_embeddings(server, owner)
        yield fake


def texts_of(facts) -> list[str]:
    return [fact_text(fact.key, fact.content) for fact in facts]


def test_redis_really_stopped_the_api_and_panel_keep_working_and_after_its_restart_nothing_is_lost(
        server, owner, bot_token, live_redis, embedding_model, tmp_path):
    redis_url, redis_var = live_redis
    facts = [make_fact(server, key=f"note_{index}", content=f"Note {index} about the raid schedule.")
             for index in range(3)]
    with worker(redis_url, tmp_path / "worker.log"):
        memory_type_set(server=server, actor=owner, memory_type=MemoryType.SEMANTIC)  # queued to Redis
        wait_until(lambda: EmbeddingRound.objects.get(server=server).status == EmbeddingRoundStatus.FINISHED,
                   "the worker to finish the catch-up round")

        embedded.stop_redis(redis_var)  # the real server process ends
        bot = Client(HTTP_AUTHORIZATION=f"Bearer {bot_token}")
        context = bot.post(f"/api/v1/servers/{server.guild_id}/context", content_type="application/json", data={
            "channel_id": "111", "author_id": "222", "author_name": "Paul", "content": "when is the raid?"})
        assert context.status_code == 200  # the rate limit's cache is down: it lets requests through
        exchange = context.json()["exchange"]
        searched = bot.post(f"/api/v1/exchanges/{exchange}/search", content_type="application/json",
                            data={"query": "raid schedule"})
        assert searched.status_code == 200 and searched.json()["facts"]
        remembered = bot.post(f"/api/v1/exchanges/{exchange}/actions", content_type="application/json", data={
            "remember": [{"key": "bot_late", "content": "Learned by the bot while Redis was down."}]})
        assert remembered.status_code == 200 and remembered.json()["results"][0]["status"] == "applied"
        bot_late = Fact.objects.get(server=server, key="bot_late")
        staff = Client()
        staff.force_login(owner)
        assert staff.get(reverse("memory:page"), {"server": server.guild_id}).status_code == 200
        started = time.monotonic()
        created = staff.post(reverse("memory:fact-create", args=[server.guild_id]), {
            "key": "late", "content": "Written while Redis was down.", "confidence": "1", "scope": "server",
            "member_id": ""}, headers={"HX-Request": "true"})
        assert created.status_code == 200 and time.monotonic() - started < 5
        late = Fact.objects.get(server=server, key="late")
        assert not FactEmbedding.objects.filter(fact=late).exists()  # its embedding could not be queued

        embedded.ensure_redis(redis_var)  # started again, same port; the worker reconnects by itself
        Fact.objects.filter(pk__in=[late.pk, bot_late.pk]).update(changed_at=late.changed_at - timedelta(minutes=11))
        wait_until(lambda: sweep_embeddings() >= 1, "Redis to take the sweeper's work")
        wait_until(lambda: FactEmbedding.objects.filter(fact__in=[late, bot_late]).count() == 2,
                   "the worker to embed the facts written while Redis was down")

    assert FactEmbedding.objects.filter(server=server).count() == 5
    fact_texts = Counter(text for text in embedding_model.embedded_texts()
                         if text not in ("when is the raid?", "raid schedule"))
    # every fact embedded exactly once (and the message and the search query, once each)
    assert fact_texts == Counter(texts_of([*facts, late, bot_late]))


def test_a_worker_killed_mid_catch_up_round_leaves_nothing_half_done_and_the_next_finishes_it_once(
        server, owner, live_redis, embedding_model, tmp_path):
    redis_url, _ = live_redis
    facts = [make_fact(server, key=f"note_{index}", content=f"Note {index}: raid group {index % 7} meets late.")
             for index in range(3 * vectors.EMBED_BATCH)]
    embedding_model.embedding_script = [Slow(1.5)] * 3  # each batch takes 1.5 s: time to kill mid-round
    first = Worker(redis_url, tmp_path / "first-worker.log")
    try:
        memory_type_set(server=server, actor=owner, memory_type=MemoryType.SEMANTIC)
        wait_until(lambda: EmbeddingRound.objects.get(server=server).done >= vectors.EMBED_BATCH,
                   "the first batch to be committed")
        first.kill()  # kill -9, in the middle of the round
    finally:
        first.stop()
    catchup = EmbeddingRound.objects.get(server=server)
    done_at_kill = set(FactEmbedding.objects.filter(server=server).values_list("fact_id", flat=True))
    assert catchup.status == EmbeddingRoundStatus.RUNNING
    assert len(done_at_kill) == catchup.done < len(facts)  # whole batches only

    calls_before = len(embedding_model.embedded_texts())
    assert sweep_embeddings(stale_after_s=0) >= 1  # the sweeper queues the round again
    with worker(redis_url, tmp_path / "second-worker.log"):
        wait_until(lambda: EmbeddingRound.objects.get(server=server).status == EmbeddingRoundStatus.FINISHED,
                   "the second worker to finish the round")
    assert FactEmbedding.objects.filter(server=server).count() == len(facts)
    second_run = embedding_model.embedded_texts()[calls_before:]
    by_id = {fact.pk: fact for fact in facts}
    assert Counter(second_run) == Counter(texts_of(by_id[pk] for pk in by_id if pk not in done_at_kill))


def test_a_worker_killed_mid_consolidation_round_leaves_no_proposal_and_the_next_makes_them_once(
        planted, consolidation_model, live_redis, tmp_path):
    redis_url, _ = live_redis
    server = planted["language"].server

    def script(first_call_seconds: float = 0.0) -> list:
        duplicate = answer('{"class": "duplicate", "wording": "The server speaks French."}')
        return [Slow(first_call_seconds, duplicate), answer('{"class": "contradiction"}'), answer("A French server.")]

    consolidation_model.script = script(first_call_seconds=30)
    first = Worker(redis_url, tmp_path / "first-worker.log")
    try:
        queued = round_queue(server=server, trigger="manual")
        wait_until(lambda: consolidation_model.chat_calls >= 1, "the round to ask the model")
        first.kill()  # kill -9 while the round waits for the model
    finally:
        first.stop()
    wait_until(lambda: not Proposal.objects.filter(server=server).exists()
               and ConsolidationRound.objects.get(pk=queued.pk).status == RoundStatus.QUEUED,
               "the dead worker's transaction to be rolled back")

    consolidation_model.script = script()
    ConsolidationRound.objects.filter(pk=queued.pk).update(created_at=queued.created_at - timedelta(minutes=11))
    assert sweep_rounds() == 1
    with worker(redis_url, tmp_path / "second-worker.log"):
        wait_until(lambda: ConsolidationRound.objects.get(pk=queued.pk).status == RoundStatus.FINISHED,
                   "the second worker to finish the round")
    assert Proposal.objects.filter(server=server, kind=ProposalKind.DUPLICATE).count() == 1
    assert Proposal.objects.filter(server=server, kind=ProposalKind.CONTRADICTION).count() == 1
    assert ConsolidationRound.objects.filter(server=server).count() == 1


def test_a_worker_killed_mid_learning_run_leaves_nothing_applied_and_the_next_run_finishes_it_exactly_once(
        learning_server, learning_model, live_redis, tmp_path):
    redis_url, _ = live_redis
    server = learning_server
    said = learned([fact("paul_favourite_game", "Paul's favourite game is Tetris.", [900], scope="member",
                         member_id=PAUL), fact("game_night", "Game night is every Friday at 8 pm.", [901])],
                   note="Paul likes Tetris; game night is on Fridays.")
    learning_model.script = [Slow(30, said)]
    first = Worker(redis_url, tmp_path / "first-worker.log")
    try:
        ingest(server, msg(900, PAUL, "My favourite game is Tetris."), msg(901, MIRA, "Game night: Fridays, 8 pm."))
        wait_until(lambda: learning_model.chat_calls >= 1, "the learning run to ask its model")
        first.kill()  # kill -9 while the run waits for its model
    finally:
        first.stop()
    run = LearningRun.objects.get(server=server)
    assert run.status == LearningRunStatus.RUNNING and not Fact.objects.filter(server=server).exists()
    assert LearningState.objects.get(server=server).read_position == 0

    learning_model.script = [said]
    beat = registered_task("memory.tasks.schedule_learning_runs")
    assert beat() == 1  # the dead worker's claim is free at once: its database session is gone
    with worker(redis_url, tmp_path / "second-worker.log"):
        wait_until(lambda: LearningRun.objects.get(pk=run.pk).status == LearningRunStatus.DONE,
                   "the second worker to finish the run")
    resumed = LearningRun.objects.get(server=server)  # the same run, resumed: not a second one
    assert (resumed.pk, resumed.written, resumed.after_position) == (run.pk, 2, 0)
    assert sorted(Fact.objects.filter(server=server).values_list("key", flat=True)) == ["game_night",
                                                                                       "paul_favourite_game"]
    assert LearningState.objects.get(server=server).read_position == resumed.upto_position
    assert ChannelNote.objects.filter(server=server).count() == 1
    assert beat() == 0  # nothing left to read


# PostgreSQL -------------------------------------------------------------------------------------


@pytest.fixture
def embedded_postgres_dir() -> Path:
    """The var directory of the embedded PostgreSQL this test suite runs on (`make test` starts one)."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW data_directory")
        pgdata = Path(cursor.fetchone()[0])
    if not (pgdata.parent / "postgres.port").exists():
        pytest.skip("the suite runs on an external PostgreSQL (DATABASE_URL), which a test must not stop")
    return pgdata.parent


def test_postgres_really_restarted_mid_request_gives_a_clean_503_and_no_partial_write(
        server, owner, bot_token, embedded_postgres_dir):
    from tests.memory.conftest import MODEL_API_KEY, reply_body, reply_url

    with played_model(server, owner, ModelPurpose.REPLY, model_name="fake-reply", api_key=MODEL_API_KEY) as fake:
        # The model thinks for 4 s, then asks to remember a fact: the write comes after the restart.
        fake.script = [Slow(4, answer("Noted.", [tool_call("remember", key="raid_day", content="Raids are on Friday.",
                                                          importance=0.5)]))]
        facts_before = Fact.objects.filter(server=server).count()
        answered = {}

        def ask() -> None:
            bot = Client(HTTP_AUTHORIZATION=f"Bearer {bot_token}")
            answered["response"] = bot.post(reply_url(server), data=reply_body("remember the raid day"),
                                            content_type="application/json")
            connection.close()

        asking = threading.Thread(target=ask)
        asking.start()
        wait_until(lambda: fake.chat_calls >= 1, "the reply to reach the model")
        connections.close_all()
        embedded.stop_postgres(embedded_postgres_dir)  # fast shutdown: every session is cut
        embedded.ensure_postgres(embedded_postgres_dir)  # and started again, same port and data
        asking.join(30)
        response = answered["response"]
        assert response.status_code == 503
        assert response.json()["error"].startswith("The database is unavailable right now; nothing was changed.")
        assert response["Retry-After"]

        connections.close_all()  # this thread's connection died with the restart too
        assert Fact.objects.filter(server=server).count() == facts_before
        assert not Fact.objects.filter(server=server, key="raid_day").exists()
        assert not Exchange.objects.filter(server=server, actions__contains=[{"status": "applied"}]).exists()
        bot = Client(HTTP_AUTHORIZATION=f"Bearer {bot_token}")
        after = bot.post(f"/api/v1/servers/{server.guild_id}/context", content_type="application/json", data={
            "channel_id": "111", "author_id": "222", "author_name": "Paul", "content": "hello again"})
        assert after.status_code == 200  # back to work without a restart of the app
