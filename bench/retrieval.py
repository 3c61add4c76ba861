"""Retrieval quality: words, meaning and hybrid search on the hand-written Lantern Hollow data set.

bench/retrieval_data.py holds 360 facts and 230 questions paraphrased away from their answers (90 %
share no content word with the answer). The facts live on the bench server "Bench Lantern Hollow"
(created once under var/bench, with real vectors from the built-in local model, about 15 s the first
time). For every question:

- words: the bot's full-text search (memory.retrieval.words.search_word_ids: every word, or all but one);
- meaning: nearest facts by vector (memory.retrieval.meaning.nearest_fact_ids, the filtered HNSW index);
- hybrid: what Semantic uses: the two fused by reciprocal rank fusion (memory.fusion.fuse), words
  weighing a tenth of meaning (memory.retrieval.fusion explains the measured choice).

Figures: `bench: retrieval.<mode> recall5=<x> mrr=<y>` (recall@5: an answer among the first five;
MRR over the first ten). A `#` table follows with the fusion settings tried (words weight × RRF k),
which is how memory.retrieval.fusion's WORDS_WEIGHT and RRF_K were chosen.

`--smoke`: the first SMOKE_QUESTIONS questions, on a server of their own holding their answers and the first
SMOKE_FACTS facts (embedded in about a second); the figures keep their names.
"""

from __future__ import annotations

import sys
import time

from bench._harness import run, setup_django

GUILD_ID = "900000000000000010"
SERVER_NAME = "Bench Lantern Hollow"
SMOKE_GUILD_ID, SMOKE_SERVER_NAME = "900000000000000091", "Bench Smoke Lantern Hollow"
SMOKE_QUESTIONS, SMOKE_FACTS = 3, 20
DEPTH = 30
TOP = 10


def _server_with_vectors(guild_id: str, name: str, facts: list[tuple[str, str]]):
    """(server, provider, the ids of `facts` in their order), the facts created and embedded where missing."""
    from bench._seed import bench_server_and_user
    from memory.clients.embeddings import LocalProvider
    from memory.models import Fact
    from memory.indexing.vectors import embed_facts_now
    from memory.facts.services import FactAuthor, fact_create

    server, user = bench_server_and_user(guild_id, name)
    by_key = {fact.key: fact for fact in Fact.objects.filter(server=server, retracted_at__isnull=True)}
    for key, content in facts:
        if key not in by_key:
            by_key[key] = fact_create(server=server, author=FactAuthor.staff(user), key=key, content=content)
    provider = LocalProvider()
    started = time.perf_counter()
    outcome = embed_facts_now(server, [fact.pk for fact in by_key.values()], provider)
    print(f"# {len(by_key)} facts; embedded {outcome.embedded} now ({outcome.unchanged} had vectors) in "
          f"{time.perf_counter() - started:.1f} s", file=sys.stderr)
    return server, provider, [by_key[key].pk for key, _ in facts]


def _scores(rankings: list[list[int]], answers: list[set[int]]) -> tuple[float, float]:
    recall, reciprocal = 0, 0.0
    for ranking, wanted in zip(rankings, answers, strict=True):
        if any(fact_id in wanted for fact_id in ranking[:5]):
            recall += 1
        for position, fact_id in enumerate(ranking[:TOP], start=1):
            if fact_id in wanted:
                reciprocal += 1 / position
                break
    return recall / len(answers), reciprocal / len(answers)


def main(*, smoke: bool) -> None:
    setup_django()
    from bench.retrieval_data import FACTS, QUESTIONS
    from memory.retrieval import fusion
    from memory.retrieval.audience import Reader
    from memory.retrieval.meaning import nearest_fact_ids
    from memory.retrieval.words import search_word_ids

    facts, questions, guild_id, name = FACTS, QUESTIONS, GUILD_ID, SERVER_NAME
    if smoke:  # a few questions, their answers among the first facts, renumbered
        kept = sorted(set(range(SMOKE_FACTS)) | {index for _, indexes in QUESTIONS[:SMOKE_QUESTIONS]
                                                  for index in indexes})
        position = {index: new for new, index in enumerate(kept)}
        facts = [FACTS[index] for index in kept]
        questions = [(question, [position[index] for index in indexes])
                     for question, indexes in QUESTIONS[:SMOKE_QUESTIONS]]
        guild_id, name = SMOKE_GUILD_ID, SMOKE_SERVER_NAME
    server, provider, fact_ids = _server_with_vectors(guild_id, name, facts)
    answers = [{fact_ids[index] for index in indexes} for _, indexes in questions]
    words, meaning = [], []
    reader = Reader.any_channel()  # the data set's facts are all the server's (audience server)
    for question, _ in questions:
        words.append(search_word_ids(server.pk, question, DEPTH, reader=reader))
        meaning.append(nearest_fact_ids(server.pk, provider.model_name, provider.query(question), DEPTH,
                                        reader=reader))
    hybrid = [fusion.fuse(w, m, TOP) for w, m in zip(words, meaning, strict=True)]
    for mode, rankings in (("words", words), ("meaning", meaning), ("hybrid", hybrid)):
        recall, mrr = _scores(rankings, answers)
        print(f"bench: retrieval.{mode} recall5={recall:.3f} mrr={mrr:.3f}", flush=True)
    print(f"# questions={len(questions)} facts={len(fact_ids)} fusion: words_weight={fusion.WORDS_WEIGHT} "
          f"rrf_k={fusion.RRF_K}", flush=True)
    original = (fusion.WORDS_WEIGHT, fusion.RRF_K)
    try:
        for words_weight in (0.0, 0.1, 0.3, 0.5, 1.0):
            row = []
            for rrf_k in (5, 20, 60):
                fusion.WORDS_WEIGHT, fusion.RRF_K = words_weight, rrf_k
                tried = [fusion.fuse(w, m, TOP) for w, m in zip(words, meaning, strict=True)]
                recall, mrr = _scores(tried, answers)
                row.append(f"k={rrf_k}: recall5={recall:.3f} mrr={mrr:.3f}")
            print(f"# words_weight={words_weight}: " + "; ".join(row), flush=True)
    finally:
        fusion.WORDS_WEIGHT, fusion.RRF_K = original


if __name__ == "__main__":
    run(main)
