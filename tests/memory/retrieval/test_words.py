"""The one search by words: BM25 in the server's language over the facts in force the reader may see, every query term
first; the newest FIRST_WALK facts from the covering index, older facts holding a rare term through the GIN index.

Expected answers are computed here, in Python, from every fact's lexemes as the database stores them (unnest of the
search vector), with the audience rule in Python (memory.retrieval.audience.visible_to): a BM25 with no bound at all.
"""

from __future__ import annotations

import math
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from memory.bot.exchanges import ExchangeRefused, IncomingMessage, exchange_open, exchange_search
from memory.configuration.services import memory_type_set
from memory.facts.services import fact_retract
from memory.models import Audience, Fact, MemoryType
from memory.retrieval import words as word_search
from memory.retrieval.audience import Reader, visible_to
from memory.retrieval.fusion import search_words
from tests.factories import make_fact

pytestmark = pytest.mark.django_db
MODS, LOUNGE = "333000000000000001", "333000000000000002"
ANYWHERE = Reader.any_channel()


def query_terms(server, query: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT tsvector_to_array(to_tsvector(words_config::regconfig, lk_search_text("
                       "words_config::regconfig, %s))) FROM memory_aisettings WHERE server_id = %s", [query, server.pk])
        row = cursor.fetchone()
        if row is None:
            cursor.execute("SELECT tsvector_to_array(to_tsvector('english', lk_search_text('english', %s)))", [query])
            row = cursor.fetchone()
    return list(row[0] or [])


def bm25_reference(server, query: str, reader: Reader = ANYWHERE) -> list[tuple[int, float, bool]]:
    """(id, score as a share of Σ idf, holds every term) of every fact the reader may see holding a query term,
    best first: every term first, then score, newest, id — scored over every fact in force the reader may see; a
    fact's length is its vector's count of lexemes, a term's frequency its positions in the key and content."""
    terms = query_terms(server, query)
    visible = [fact for fact in Fact.objects.filter(server=server, retracted_at__isnull=True)
               if visible_to(fact, reader)]
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, (u).lexeme, coalesce(cardinality((u).positions), 1) FROM ("
                       " SELECT id, unnest(ts_filter(search_vector, '{a,b}')) AS u FROM memory_fact WHERE id = ANY(%s)"
                       ") postings", [[fact.pk for fact in visible]])
        postings = cursor.fetchall()
        cursor.execute("SELECT id, length(search_vector) FROM memory_fact WHERE id = ANY(%s)",
                       [[fact.pk for fact in visible]])
        vector_lengths = dict(cursor.fetchall())
    tf: dict[int, dict[str, int]] = {}
    for fact_id, lexeme, count in postings:
        tf.setdefault(fact_id, {})[lexeme] = count
    matched = {fact_id: lexemes for fact_id, lexemes in tf.items() if any(term in lexemes for term in terms)}
    if not matched:
        return []
    lengths = {fact_id: vector_lengths[fact_id] for fact_id in matched}  # lexemes of the whole vector
    average = sum(lengths.values()) / len(lengths)
    n = len(visible)
    idf = {term: math.log(1 + (n - df + 0.5) / (df + 0.5))
           for term in terms for df in [sum(term in lexemes for lexemes in matched.values())]}
    total = sum(idf.values())
    k1, b = word_search.K1, word_search.B
    changed = {fact.pk: fact.changed_at for fact in visible}
    scored = []
    for fact_id, lexemes in matched.items():
        score = sum(idf[term] * lexemes[term] * (k1 + 1)
                    / (lexemes[term] + k1 * (1 - b + b * lengths[fact_id] / average))
                    for term in terms if term in lexemes) / total
        scored.append((fact_id, score, all(term in lexemes for term in terms)))
    scored.sort(key=lambda row: (not row[2], -round(row[1], 9), -changed[row[0]].timestamp(), -row[0]))
    return scored


@pytest.fixture
def mixed_server(server):
    """60 facts: 'raid' in every third (common), 'ferret' in three old facts (rare), 'raid ferret'
    together in one of them, and a retracted 'ferret' fact that must never be found; and matching facts
    only some readers may see: the oldest learned in the mods' channel, one in the lounge, one for staff."""
    now = timezone.now()
    for index in range(60):
        words = ["raid night"] if index % 3 == 0 else ["chat"]
        if index in (2, 5, 8):
            words.append("ferret" + (" raid" if index == 5 else ""))
        make_fact(server, key=f"note_{index}", content=" ".join(words) + f" number {index}",
                  created_at=now - timedelta(minutes=600 - index))
    fact_retract(fact=make_fact(server, key="gone", content="ferret raid gone"), reason="wrong")
    make_fact(server, key="mods_note", content="ferret raid chat in the mods channel", audience=Audience.CHANNEL,
              source_channel_id=MODS, created_at=now - timedelta(minutes=700))
    make_fact(server, key="lounge_note", content="raid night chat in the lounge", audience=Audience.CHANNEL,
              source_channel_id=LOUNGE)
    make_fact(server, key="staff_note", content="ferret raid night chat for staff", audience=Audience.STAFF)
    return server


@pytest.mark.parametrize("query", ["raid", "ferret", "raid ferret", "ferret raid chat", "raid night chat", "night",
                                   "nothing here", "the", "Ferrets!! RAIDS?"])
@pytest.mark.parametrize("channel", ["", MODS, LOUNGE], ids=["another channel", "mods", "lounge"])
def test_a_server_the_walk_covers_is_ranked_exactly_by_bm25(mixed_server, query, channel):
    """Every fact the reader may see within the walk: the answer is BM25 over all of them, every term first."""
    reader = Reader.for_message(channel)
    expected = bm25_reference(mixed_server, query, reader)
    found = word_search.scored_word_ids(mixed_server.pk, query, 10, reader=reader)
    assert [item.id for item in found] == [row[0] for row in expected[:10]]
    assert [round(item.score, 6) for item in found] == [round(row[1], 6) for row in expected[:10]]
    assert [item.every_term for item in found] == [row[2] for row in expected[:10]]
    assert all(visible_to(fact, reader) for fact in Fact.objects.filter(pk__in=[item.id for item in found]))
    assert not Fact.objects.filter(pk__in=[item.id for item in found], retracted_at__isnull=False).exists()


@pytest.mark.parametrize("first_walk", [1, 4, 10])
@pytest.mark.parametrize("query", ["ferret", "raid ferret", "ferret raid chat", "raid"])
@pytest.mark.parametrize("channel", ["", MODS], ids=["another channel", "mods"])
def test_past_the_walk_a_rare_term_s_old_facts_come_through_the_gin_index(mixed_server, monkeypatch, first_walk,
                                                                          query, channel):
    """A short walk sees few facts; facts holding a term it found rare are read through the GIN index, so every
    'ferret' fact the reader may see is found however old, the one holding every word first; never a fact the
    reader may not see or a retracted one."""
    monkeypatch.setattr(word_search, "FIRST_WALK", first_walk)
    reader = Reader.for_message(channel)
    found = word_search.scored_word_ids(mixed_server.pk, query, 10, reader=reader)
    keys = [Fact.objects.get(pk=item.id).key for item in found]
    ferret_facts = {"note_2", "note_5", "note_8"} | ({"mods_note"} if channel == MODS else set())
    if "ferret" in query:
        assert ferret_facts <= set(keys)
        every = [item for item in found if item.every_term]
        assert found[: len(every)] == every  # every term first
    assert "gone" not in keys and "staff_note" not in keys and "lounge_note" not in keys
    assert channel == MODS or "mods_note" not in keys


def test_more_of_the_rarer_words_rank_first(server):
    """'ferret' is in 2 facts, 'night' in 20: a fact with the rare word beats one with the common word, and a fact
    holding both beats both; a long fact's words count for less than a short one's."""
    for index in range(20):
        make_fact(server, key=f"night_{index}", content=f"game night number {index} in the lounge")
    short = make_fact(server, key="pet", content="Kai has a ferret.")
    long = make_fact(server, key="pet_story", content="Mira once talked for an hour about her neighbour's garden, "
                                                      "the fence, the weather and, at the very end, a ferret.")
    both = make_fact(server, key="ferret_night", content="The ferret came to game night.")
    found = [item.id for item in word_search.scored_word_ids(server.pk, "ferret night", 10, reader=ANYWHERE)]
    assert found[0] == both.pk
    assert found.index(short.pk) < found.index(long.pk)
    assert found.index(long.pk) < min(found.index(fact.pk) for fact in Fact.objects.filter(key__startswith="night_")
                                      if fact.pk in found)


def test_a_time_expression_prefers_facts_dated_in_its_span_without_leaving_others_out(server):
    from datetime import date

    from memory.text.time_expressions import date_span

    may = timezone.make_aware(timezone.datetime(2026, 5, 10, 12))
    june = timezone.make_aware(timezone.datetime(2026, 6, 20, 12))
    in_may = make_fact(server, key="tournament_may", content="Paul won the tetris tournament.", created_at=may)
    in_june = make_fact(server, key="tournament_june", content="Paul won the tetris tournament again.",
                        created_at=june)
    Fact.objects.filter(pk=in_may.pk).update(changed_at=may)
    Fact.objects.filter(pk=in_june.pk).update(changed_at=june)
    span = date_span("what did Paul win in May?", date(2026, 7, 1))
    assert span is not None and span.start == date(2026, 5, 1)
    found = word_search.search_word_ids(server.pk, "what did Paul win in May?",
                                        reader=ANYWHERE, span=span)
    assert found[:2] == [in_may.pk, in_june.pk]
    # Without a time, the shorter fact ranks first (length); with "in June", the June one does.
    assert word_search.search_word_ids(server.pk, "what did Paul win", reader=ANYWHERE) == [in_may.pk, in_june.pk]
    june = date_span("what did Paul win in June?", date(2026, 7, 1))
    assert word_search.search_word_ids(server.pk, "what did Paul win", reader=ANYWHERE, span=june)[0] == in_june.pk


def test_a_wiped_server_that_handed_out_a_million_numbers_is_not_searched_through_the_gin_index(server, owner):
    """However many numbers a server handed out, a walk that saw every fact in force is the answer: the
    shared GIN index would hand over every other server's matches of the word to find nothing more."""
    from django.test.utils import CaptureQueriesContext

    from memory.facts.deletes import server_wipe
    from memory.models import FactCounter

    make_fact(server, key="old", content="the ferret from before")
    server_wipe(server=server, actor=owner)
    FactCounter.objects.filter(server=server).update(last_number=1_000_000)  # a large server, wiped
    make_fact(server, key="pet", content="kai has a ferret")
    with CaptureQueriesContext(connection) as queries:
        found = word_search.search_word_ids(server.pk, "ferret", reader=ANYWHERE)
    assert [Fact.objects.get(pk=pk).key for pk in found] == ["pet"]
    assert not any("older" in query["sql"] for query in queries.captured_queries)


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_searches_of_one_exchange_record_exactly_one(server, owner):
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.ARCHIVE)
    make_fact(server, key="raid", content="The raid is on Friday.")
    exchange = exchange_open(server=server, message=IncomingMessage(channel_id="300000000000000001",
                                                                   author_id="200000000000000001", content="hi")).exchange
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def search(query: str) -> None:
        try:
            start.wait()
            exchange_search(exchange=type(exchange).objects.select_related("server").get(pk=exchange.pk), query=query)
            outcomes.append("searched")
        except ExchangeRefused:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=search, args=(query,)) for query in ("raid", "friday")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused", "searched"]
    exchange.refresh_from_db()
    assert exchange.search_query in ("raid", "friday") and exchange.found_numbers


def test_a_new_fact_enters_the_word_index_itself_not_a_pending_list_every_search_rereads(server):
    """With GIN's fastupdate on, new facts wait in a pending list that each search scans in full; the
    word index is built without it (migration 0012), so a fact written now is found through the index."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'fact_search'")
        assert cursor.fetchone()[0] == ["fastupdate=off"]
    fact = make_fact(server, key="pet", content="kai has a ferret")
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN SELECT id FROM memory_fact WHERE search_vector @@ to_tsquery('english', 'ferret')")
        assert "fact_search" in "\n".join(row[0] for row in cursor.fetchall())
    assert word_search.search_word_ids(server.pk, "ferret", reader=ANYWHERE) == [fact.pk]
