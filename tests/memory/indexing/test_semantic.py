"""Semantic memory with real vectors: the built-in local model, and an OpenAI-compatible endpoint
played by the local fake server (which answers /v1/embeddings with the same local model's vectors,
so calls can be counted)."""

from __future__ import annotations

import pytest

from memory.bot.exchanges import IncomingMessage, exchange_open, exchange_search
from memory.clients.embeddings import LOCAL_MODEL_NAME, LocalProvider
from memory.configuration.services import memory_type_set, model_endpoint_set
from memory.facts.services import fact_update
from memory.indexing import catchup as catchup_rounds
from memory.indexing import vectors
from memory.models import EmbeddingRound, EmbeddingRoundStatus, FactEmbedding, MemoryType, ModelPurpose
from memory.retrieval.audience import Reader
from memory.retrieval.fusion import search_words
from tests.factories import make_fact
from tests.memory.conftest import use_endpoint_embeddings
from tests.model_server import Status, played_model

pytestmark = pytest.mark.django_db
CHANNEL, MEMBER = "300000000000000001", "200000000000000001"
FACTS = [
    ("language", "The server's language is French."),
    ("raid_day", "Raid nights are Thursdays at nine."),
    ("pets", "Mira keeps a rescue ferret called Biscuit."),
    ("theme", "The community is about cosy farming games."),
    ("mods", "Alex and Nova moderate the server."),
]


@pytest.fixture
def embedding_server(server, owner):
    with played_model(server, owner, ModelPurpose.EMBEDDING, model_name="fake-e5",
                      api_key="sk-embed-0123456789abcdef") as fake:
        yield fake


@pytest.fixture
def semantic_server(server, owner, embedding_server, django_capture_on_commit_callbacks):
    """Five facts, the endpoint provider, switched to Semantic: the catch-up round ran (eager worker)."""
    for key, content in FACTS:
        make_fact(server, key=key, content=content)
    with django_capture_on_commit_callbacks(execute=True):
        memory_type_set(server=server, actor=owner, memory_type=MemoryType.ARCHIVE)
        use_endpoint_embeddings(server, owner)
        memory_type_set(server=server, actor=owner, memory_type=MemoryType.SEMANTIC)
    return server


def open_exchange(server, content: str = "hello there everyone"):
    return exchange_open(server=server, message=IncomingMessage(channel_id=CHANNEL, author_id=MEMBER,
                                                                content=content)).exchange


def test_switching_to_semantic_embeds_every_fact_once_in_a_catch_up_round(semantic_server, embedding_server):
    catchup = EmbeddingRound.objects.get(server=semantic_server)
    assert (catchup.status, catchup.done, catchup.total) == (EmbeddingRoundStatus.FINISHED, 5, 5)
    assert FactEmbedding.objects.filter(server=semantic_server).count() == 5
    assert sorted(embedding_server.embedded_texts()) == sorted(f"{k.replace('_', ' ')}: {c}" for k, c in FACTS)


def test_a_question_sharing_no_word_finds_the_language_under_semantic_and_not_by_words(semantic_server,
                                                                                       embedding_server):
    question = "which tongue do we talk in here"
    assert search_words(semantic_server, question, reader=Reader.any_channel()) == []
    exchange = open_exchange(semantic_server)
    calls = embedding_server.embedding_calls
    outcome = exchange_search(exchange=exchange, query=question)
    assert outcome.mode == "hybrid" and outcome.fallback_reason is None
    assert outcome.facts[0].key == "language"
    assert embedding_server.embedding_calls == calls + 1  # the search query, once
    exchange.refresh_from_db()
    assert (exchange.search_mode, exchange.found_numbers[0]) == ("hybrid", outcome.facts[0].number)


def test_a_rewrite_re_embeds_exactly_once_and_an_unchanged_fact_never(semantic_server, embedding_server, owner,
                                                                     django_capture_on_commit_callbacks):
    fact = semantic_server.facts.get(key="pets")
    before = embedding_server.embedding_calls
    with django_capture_on_commit_callbacks(execute=True):
        fact_update(fact=fact, actor=owner, expected_version=fact.version, key="pets",
                    content="Mira keeps two rescue ferrets.", confidence=1.0)
    assert embedding_server.embedding_calls == before + 1
    assert embedding_server.embedded_texts()[-1] == "pets: Mira keeps two rescue ferrets."
    fact.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        fact_update(fact=fact, actor=owner, expected_version=fact.version, key="pets",
                    content="Mira keeps two rescue ferrets.", confidence=0.9)  # confidence only: same text
        vectors.embed_facts_now(semantic_server, list(semantic_server.facts.values_list("pk", flat=True)))
    assert embedding_server.embedding_calls == before + 1


def test_a_message_under_12_characters_makes_no_embedding_call(semantic_server, embedding_server):
    before = embedding_server.embedding_calls
    open_exchange(semantic_server, "hi all :)")
    assert embedding_server.embedding_calls == before
    open_exchange(semantic_server, "does anyone here speak French?")
    assert embedding_server.embedding_calls == before + 1


def test_no_embedding_model_falls_back_to_words_with_the_reason(semantic_server, owner):
    from memory.configuration.services import model_endpoint_remove

    model_endpoint_remove(server=semantic_server, actor=owner, purpose=ModelPurpose.EMBEDDING)
    outcome = exchange_search(exchange=open_exchange(semantic_server), query="French language")
    assert outcome.mode == "words" and "no embedding endpoint" in outcome.fallback_reason
    assert outcome.facts[0].key == "language"


def test_a_failing_endpoint_falls_back_to_words_never_an_error(semantic_server, embedding_server):
    exchange = open_exchange(semantic_server)
    embedding_server.embedding_script = [Status(500)]
    outcome = exchange_search(exchange=exchange, query="French language")
    assert outcome.mode == "words" and "HTTP 500" in outcome.fallback_reason


def test_the_context_s_relevance_says_how_it_was_judged_in_the_exchange_log(semantic_server, embedding_server,
                                                                            member):
    """Building the context ranks by relevance too: the exchange records whether meaning was used and,
    when not, why; the exchange log (and the playground, same fragment) shows it."""
    from django.urls import reverse

    from tests.conftest import logged_in_client

    hybrid = open_exchange(semantic_server, "does anyone here speak French?")
    embedding_server.embedding_script = [Status(500)]
    failed = open_exchange(semantic_server, "does anyone here speak French?")
    short = open_exchange(semantic_server, "hi all :)")
    assert (hybrid.relevance_mode, hybrid.relevance_fallback_reason) == ("hybrid", "")
    assert failed.relevance_mode == "words" and "HTTP 500" in failed.relevance_fallback_reason
    assert short.relevance_mode == "words" and "under 12 characters" in short.relevance_fallback_reason
    page = logged_in_client(member).get(reverse("memory:exchange", args=[semantic_server.guild_id, failed.pk]))
    assert "Relevance" in page.content.decode() and "by words: the embedding provider failed" in page.content.decode()
    page = logged_in_client(member).get(reverse("memory:exchange", args=[semantic_server.guild_id, hybrid.pk]))
    assert "by words and meaning" in page.content.decode()


def test_an_unfinished_catch_up_round_falls_back_to_words(semantic_server):
    EmbeddingRound.objects.filter(server=semantic_server).update(status=EmbeddingRoundStatus.RUNNING, done=3)
    outcome = exchange_search(exchange=open_exchange(semantic_server), query="he speaks French")
    assert outcome.mode == "words" and "catch-up round has not finished (3 of 5" in outcome.fallback_reason


def test_a_model_change_falls_back_until_its_catch_up_brings_hybrid_back(semantic_server, embedding_server, owner,
                                                                        django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        model_endpoint_set(server=semantic_server, actor=owner, purpose=ModelPurpose.EMBEDDING,
                           base_url=embedding_server.base_url, model_name="fake-e5-v2", api_key=None)
    outcome = exchange_search(exchange=open_exchange(semantic_server), query="he speaks French")
    assert outcome.mode == "words" and "not finished (0 of 5" in outcome.fallback_reason
    for callback in callbacks:  # the worker runs the queued catch-up round now
        callback()
    latest = EmbeddingRound.objects.filter(server=semantic_server).order_by("-created_at").first()
    assert (latest.model_name.endswith("#fake-e5-v2"), latest.status) == (True, EmbeddingRoundStatus.FINISHED)
    again = exchange_search(exchange=open_exchange(semantic_server), query="he speaks French")
    assert again.mode == "hybrid" and again.facts[0].key == "language"


def test_the_catch_up_round_resumes_where_a_killed_worker_stopped(server, owner, embedding_server, monkeypatch):
    monkeypatch.setattr(catchup_rounds, "EMBED_BATCH", 2)
    for key, content in FACTS:
        make_fact(server, key=key, content=content)
    use_endpoint_embeddings(server, owner)
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.SEMANTIC)  # on_commit not run: queued
    catchup = EmbeddingRound.objects.get(server=server)
    catchup_rounds.catchup_run(catchup.pk, batches=1)  # the worker dies after one batch
    assert FactEmbedding.objects.filter(server=server).count() == 2
    catchup.refresh_from_db()
    assert (catchup.status, catchup.done) == (EmbeddingRoundStatus.RUNNING, 2)
    catchup_rounds.catchup_run(catchup.pk)  # the redelivered task
    catchup.refresh_from_db()
    assert (catchup.status, catchup.done) == (EmbeddingRoundStatus.FINISHED, 5)
    assert embedding_server.embedding_calls == 3 and len(embedding_server.embedded_texts()) == 5


def test_the_local_provider_needs_no_network_and_gives_real_vectors():
    provider = LocalProvider()
    french, raid = provider.passages(["language: The server's language is French.", "raid day: Raids are Thursdays."])
    query = provider.query("he speaks French")
    closeness = [sum(a * b for a, b in zip(query, vector, strict=True)) for vector in (french, raid)]
    assert len(french) == 384 and closeness[0] > closeness[1]
    assert provider.model_name == LOCAL_MODEL_NAME


def test_ranked_relevance_under_semantic_uses_meaning(semantic_server, owner):
    from memory.retrieval.context import message_relevance

    relevance = message_relevance(semantic_server, "does anyone here speak French?", semantic_server.ai_settings,
                                  reader=Reader.any_channel())
    language = semantic_server.facts.get(key="language")
    assert relevance.mode == "hybrid" and relevance.fallback_reason == ""
    assert max(relevance.by_fact, key=relevance.by_fact.get) == language.pk


def test_the_progress_bar_follows_the_catch_up_round_and_the_dry_run_counts_calls(server, owner, member,
                                                                                   embedding_server):
    from django.urls import reverse

    from tests.conftest import logged_in_client

    for key, content in FACTS:
        make_fact(server, key=key, content=content)
    make_fact(server, key="lang", content="Server language: French")
    use_endpoint_embeddings(server, owner)
    client = logged_in_client(member)
    dry_run = client.get(reverse("memory:semantic-dry-run", args=[server.guild_id]), headers={"HX-Request": "true"})
    assert "would embed 6 facts in 1 calls" in dry_run.content.decode()
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.SEMANTIC)  # queued, the worker not run yet
    catchup_rounds.catchup_run(EmbeddingRound.objects.get(server=server).pk, batches=0)
    bar = client.get(reverse("memory:embedding-progress", args=[server.guild_id]), headers={"HX-Request": "true"})
    assert 'hx-trigger="every 2s"' in bar.content.decode() and "0 of 6" in bar.content.decode()
    catchup_rounds.catchup_run(EmbeddingRound.objects.get(server=server).pk)
    done = client.get(reverse("memory:embedding-progress", args=[server.guild_id]), headers={"HX-Request": "true"})
    assert "every 2s" not in done.content.decode() and "Every fact in force has its vector" in done.content.decode()
    again = client.get(reverse("memory:semantic-dry-run", args=[server.guild_id]), headers={"HX-Request": "true"})
    html = again.content.decode()
    assert "would embed 0 facts" in html and "6 facts already have a vector" in html
    assert "Server language: French" in html  # the vectors see language / lang as the same


def test_under_semantic_consolidation_asks_the_model_about_pairs_only_the_vectors_see(
        semantic_server, embedding_server, owner, django_capture_on_commit_callbacks):
    import json

    from consolidation.models import ConsolidationRound, Proposal
    from consolidation.rounds import round_run
    from tests.model_server import answer

    with django_capture_on_commit_callbacks(execute=True):
        make_fact(semantic_server, key="moderation", content="Alex and Nova moderate the server.")  # a word match
        make_fact(semantic_server, key="helpers", content="Nova and Alex are the moderators here.")
        for index in range(6):
            make_fact(semantic_server, key=f"filler_{index}", content=f"Unrelated note number {index} about snacks.")
    model_endpoint_set(server=semantic_server, actor=owner, purpose=ModelPurpose.CONSOLIDATION,
                       base_url=embedding_server.base_url, model_name="fake-consolidation", api_key="sk-c-0123456789")
    embedding_server.script = [answer(json.dumps({"class": "duplicate", "wording": "Alex and Nova moderate."}))] * 20
    round_run(ConsolidationRound.objects.create(server=semantic_server, trigger="manual").pk)
    asked = [request["body"]["messages"][1]["content"] for request in embedding_server.requests
             if request["path"].endswith("/chat/completions")]
    assert any("moderators here" in question and "moderate the server" in question for question in asked)
    assert Proposal.objects.filter(server=semantic_server, kind="duplicate").exists()
