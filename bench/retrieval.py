"""Retrieval quality: words, meaning and hybrid search on two hand-written sets, every fusion setting tried printed.

- natural (bench/retrieval_natural_data.py): four communities in English, Dutch, German and Japanese, facts dated
  over 19-22 months, questions as members type them (most share a word with their answer, a good part paraphrase
  it), in four categories: single, multi, temporal, member. Each community is its own bench server (guild ids
  900000000000000011-14) whose memory language is set to its own; a question's time expressions are read
  against the day it was asked. A "my …" question is searched with the asker's name after it, as the reply model
  writes its search (it knows who is speaking).
- paraphrase (bench/retrieval_data.py): 360 facts and 230 questions paraphrased away from their answers (90 % share
  no content word), on "Bench Lantern Hollow".

Modes, as the bot runs them (memory.retrieval.fusion): words (BM25 in the server's language, every term first,
date preference, diversity), meaning (nearest vectors of the built-in local model), hybrid (the two fused by score,
diversity by the vectors). Figures: `bench: retrieval.<set>.<mode> recall1= recall5= recall10= mrr=` (recall@k: an
answer among the first k; MRR over the first ten), per language and per category for the natural set. `#` lines
follow with every fusion setting tried (score fusion: words share × gate × power; reciprocal rank fusion: k and
weight), each date bonus and each diversity λ, on both sets: how memory.retrieval.fusion's constants were chosen.

Facts and vectors are created once under var/bench (about a minute the first time). `--smoke`: a few questions of
each set on servers of their own.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from datetime import date, datetime, time as clock, timezone as tz

from bench._harness import run, setup_django

NATURAL_GUILDS = {"en": "900000000000000011", "nl": "900000000000000012", "de": "900000000000000013",
                  "ja": "900000000000000014"}
PARAPHRASE_GUILD, PARAPHRASE_NAME = "900000000000000010", "Bench Lantern Hollow"
SMOKE_PREFIX = "9000000000000009"
SMOKE_QUESTIONS = 3
DEPTH = 30
TOP = 10


class Case:
    """One question: its text, the ids that answer it, the day it is asked, its language and category."""

    def __init__(self, text: str, answers: set[int], asked_on: date, language: str, category: str) -> None:
        self.text, self.answers, self.asked_on, self.language, self.category = (text, answers, asked_on, language,
                                                                                category)


def _server(guild_id: str, name: str, language: str, facts: list[dict]):
    """(server, {key: fact id}): the bench server with its memory language and `facts` (key, content, date, member
    id, member name), created and embedded where missing."""
    from bench._seed import bench_server_and_user
    from memory.clients.embeddings import LocalProvider
    from memory.facts.services import FactAuthor, fact_create
    from memory.indexing.vectors import embed_facts_now
    from memory.indexing.words_language import words_language_set_now
    from memory.configuration.directory import SeenMember, members_seen
    from memory.models import Fact

    server, user = bench_server_and_user(guild_id, name)
    words_language_set_now(server, language)
    by_key = {fact.key: fact for fact in Fact.objects.filter(server=server, retracted_at__isnull=True)}
    names = {}
    for fact in facts:
        if fact["member_id"]:
            names[fact["member_id"]] = fact["member_name"]
        if fact["key"] in by_key:
            continue
        created = fact_create(server=server, author=FactAuthor.staff(user), key=fact["key"], content=fact["content"],
                              scope="member" if fact["member_id"] else "server", member_id=fact["member_id"] or "")
        if fact["date"]:
            when = datetime.combine(fact["date"], clock(12), tz.utc)
            Fact.objects.filter(pk=created.pk).update(created_at=when, changed_at=when, valid_from=when)
        by_key[fact["key"]] = created
    if names:
        members_seen(server=server, members=[SeenMember(member_id, name) for member_id, name in names.items()])
    provider = LocalProvider()
    started = time.perf_counter()
    outcome = embed_facts_now(server, [fact.pk for fact in by_key.values()], provider)
    print(f"# {name}: {len(by_key)} facts; embedded {outcome.embedded} now ({outcome.unchanged} had vectors) in "
          f"{time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    return server, provider, {key: fact.pk for key, fact in by_key.items()}


def natural_cases(smoke: bool) -> list[tuple[object, object, list[Case]]]:
    from bench.retrieval_natural_data import SERVERS

    prepared = []
    for code, data in SERVERS.items():
        members = data["members"]
        questions = data["questions"][:SMOKE_QUESTIONS] if smoke else data["questions"]
        wanted = {key for question in questions for key in question.answers}
        facts = [fact for fact in data["facts"] if not smoke or fact.key in wanted]
        rows = [{"key": fact.key, "content": fact.content, "date": date.fromisoformat(fact.date),
                 "member_id": members[fact.member][0] if fact.member else None,
                 "member_name": members[fact.member][1] if fact.member else None} for fact in facts]
        guild = SMOKE_PREFIX + NATURAL_GUILDS[code][-2:] if smoke else NATURAL_GUILDS[code]
        server, provider, ids = _server(guild, ("Smoke " if smoke else "Bench ") + data["name"], code, rows)
        cases = [Case(question.text + (f" ({members[question.asker][1]})" if question.asker else ""),
                      {ids[key] for key in question.answers}, date.fromisoformat(question.asked_on), code,
                      question.category) for question in questions]
        prepared.append((server, provider, cases))
    return prepared


def paraphrase_cases(smoke: bool) -> list[tuple[object, object, list[Case]]]:
    from bench.retrieval_data import FACTS, QUESTIONS

    questions = QUESTIONS[:SMOKE_QUESTIONS] if smoke else QUESTIONS
    kept = sorted({index for _, indexes in questions for index in indexes}) if smoke else range(len(FACTS))
    rows = [{"key": FACTS[index][0], "content": FACTS[index][1], "date": None, "member_id": None,
             "member_name": None} for index in kept]
    guild, name = (SMOKE_PREFIX + "10", "Smoke Lantern Hollow") if smoke else (PARAPHRASE_GUILD, PARAPHRASE_NAME)
    server, provider, ids = _server(guild, name, "en", rows)
    today = date(2026, 12, 1)
    cases = [Case(question, {ids[FACTS[index][0]] for index in indexes}, today, "en", "paraphrase")
             for question, indexes in questions]
    return [(server, provider, cases)]


class Found:
    """What both halves found for one question, kept so every fusion setting is tried without searching again."""

    def __init__(self, server, provider, case: Case) -> None:
        from memory.retrieval import diversity
        from memory.retrieval.audience import Reader
        from memory.retrieval.meaning import nearest_facts
        from memory.retrieval.words import scored_word_ids
        from memory.text.time_expressions import date_span

        reader = Reader.any_channel()
        self.case = case
        self.span = date_span(case.text, case.asked_on)
        self.words = scored_word_ids(server.pk, case.text, DEPTH, reader=reader,
                                     span=self.span)
        self.nearest = nearest_facts(server.pk, provider.model_name, provider.query(case.text), DEPTH, reader=reader)
        ids = {item.id for item in (*self.words, *self.nearest)}
        self.similarity = diversity.vector_similarity(provider.model_name, sorted(ids))


def _scores(rankings: list[list[int]], cases: list[Case]) -> dict[str, float]:
    hits = {1: 0, 5: 0, 10: 0}
    reciprocal = 0.0
    for ranking, case in zip(rankings, cases, strict=True):
        for k in hits:
            hits[k] += any(fact_id in case.answers for fact_id in ranking[:k])
        for position, fact_id in enumerate(ranking[:TOP], start=1):
            if fact_id in case.answers:
                reciprocal += 1 / position
                break
    count = max(len(cases), 1)
    return {"recall1": hits[1] / count, "recall5": hits[5] / count, "recall10": hits[10] / count,
            "mrr": reciprocal / count}


def _line(name: str, scores: dict[str, float]) -> str:
    return f"{name} " + " ".join(f"{metric}={value:.3f}" for metric, value in scores.items())


def _modes(found: list[Found], **settings) -> dict[str, list[list[int]]]:
    from memory.retrieval import fusion

    lambda_ = settings.get("lambda_", fusion.diversity.LAMBDA)
    return {
        "words": [fusion.words_order(item.words, TOP, item.span, lambda_=lambda_) for item in found],
        "meaning": [[near.id for near in item.nearest] for item in found],
        "hybrid": [fusion.hybrid_order(item.words, item.nearest, TOP, item.span,
                                       lambda pool, item=item: item.similarity, lambda_=lambda_)
                   for item in found],
    }


def _report(set_name: str, found: list[Found]) -> None:
    cases = [item.case for item in found]
    rankings = _modes(found)
    for mode, ranked in rankings.items():
        print("bench: " + _line(f"retrieval.{set_name}.{mode}", _scores(ranked, cases)), flush=True)
    groups: dict[str, list[int]] = defaultdict(list)
    for index, case in enumerate(cases):
        if set_name == "natural":
            groups[case.language].append(index)
            groups[case.category].append(index)
    for group, indexes in groups.items():
        for mode, ranked in rankings.items():
            scores = _scores([ranked[index] for index in indexes], [cases[index] for index in indexes])
            print("bench: " + _line(f"retrieval.{set_name}.{group}.{mode}", scores) + f" n={len(indexes)}",
                  flush=True)


def _settings_tried(set_name: str, found: list[Found]) -> None:
    """`#` lines: hybrid under every fusion setting, date bonus and λ tried (the constants restored after)."""
    from memory.retrieval import fusion

    cases = [item.case for item in found]
    saved = (fusion.WORDS_SHARE, fusion.WORDS_GATE, fusion.WORDS_POWER, fusion.DATE_BONUS)
    try:
        for share in (0.0, 0.05, 0.1, 0.2, 0.5, 1.0):
            for gate in (0.0, 0.4, 0.7, 0.9):
                for power in (1.0, 2.0):
                    fusion.WORDS_SHARE, fusion.WORDS_GATE, fusion.WORDS_POWER = share, gate, power
                    scores = _scores(_modes(found, lambda_=1.0)["hybrid"], cases)
                    print(f"# {set_name} score fusion share={share} gate={gate} power={power}: "
                          + _line("", scores).strip(), flush=True)
        fusion.WORDS_SHARE, fusion.WORDS_GATE, fusion.WORDS_POWER = saved[:3]
        for k in (5, 20, 60):
            for weight in (0.1, 0.5, 1.0):
                ranked = [fusion.fuse_by_rank([w.id for w in item.words], [m.id for m in item.nearest], TOP,
                                              words_weight=weight, k=k) for item in found]
                print(f"# {set_name} rank fusion k={k} words_weight={weight}: " + _line("", _scores(ranked, cases))
                      .strip(), flush=True)
        for bonus in (0.0, 0.15, 0.3, 0.5):
            fusion.DATE_BONUS = bonus
            rankings = _modes(found)
            print(f"# {set_name} date bonus {bonus}: words " + _line("", _scores(rankings["words"], cases)).strip()
                  + "; hybrid " + _line("", _scores(rankings["hybrid"], cases)).strip(), flush=True)
        fusion.DATE_BONUS = saved[3]
        for lambda_ in (1.0, 0.9, 0.8, 0.7, 0.5):
            rankings = _modes(found, lambda_=lambda_)
            print(f"# {set_name} diversity lambda={lambda_}: words " + _line("", _scores(rankings["words"], cases))
                  .strip() + "; hybrid " + _line("", _scores(rankings["hybrid"], cases)).strip(), flush=True)
    finally:
        fusion.WORDS_SHARE, fusion.WORDS_GATE, fusion.WORDS_POWER, fusion.DATE_BONUS = saved


def main(*, smoke: bool) -> None:
    setup_django()
    for set_name, prepare in (("natural", natural_cases), ("paraphrase", paraphrase_cases)):
        found = [Found(server, provider, case) for server, provider, cases in prepare(smoke) for case in cases]
        _report(set_name, found)
        if not smoke:
            _settings_tried(set_name, found)


if __name__ == "__main__":
    run(main)
