"""The one search reaches its ranked candidates in three ways (a short walk of the newest facts, a
longer walk, the GIN index); whichever it takes, the answer keeps the same promises.

The bounds are shrunk so a few dozen facts exercise each way; expected answers are computed by ranking
every match in SQL with no bound at all, and keeping those the reader may see by the audience rule in Python
(memory.retrieval.audience.visible_to).
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from memory.bot.exchanges import ExchangeRefused, IncomingMessage, exchange_open, exchange_search
from memory.configuration.services import memory_type_set
from memory.facts.services import fact_retract
from memory.models import SEARCH_CONFIG, Audience, Fact, MemoryType
from memory.retrieval import words as word_search
from memory.retrieval.audience import Reader, visible_to
from tests.factories import make_fact

pytestmark = pytest.mark.django_db
MODS, LOUNGE = "333000000000000001", "333000000000000002"
ANYWHERE = Reader.any_channel()


def exact_ranking(server, tsquery: str, exclude: list[int] = (), config: str = SEARCH_CONFIG,
                  reader: Reader = ANYWHERE) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id FROM memory_fact WHERE server_id = %s AND retracted_at IS NULL"
            " AND search_vector @@ to_tsquery(%s::regconfig, %s) AND NOT (id = ANY(%s))"
            " ORDER BY ts_rank(search_vector, to_tsquery(%s::regconfig, %s)) DESC, changed_at DESC, id DESC",
            [server.pk, config, tsquery, list(exclude), config, tsquery],
        )
        ranked = [row[0] for row in cursor.fetchall()]
    facts = Fact.objects.in_bulk(ranked)
    return [pk for pk in ranked if visible_to(facts[pk], reader)]


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


def ranks(server, tsquery: str, ids: list[int], config: str = SEARCH_CONFIG) -> list[float]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, ts_rank(search_vector, to_tsquery(%s::regconfig, %s)) FROM memory_fact"
                       " WHERE id = ANY(%s)", [config, tsquery, ids])
        by_id = dict(cursor.fetchall())
    return [by_id[pk] for pk in ids]


@pytest.mark.parametrize(("first_walk", "max_walk"), [(2000, 20000), (4, 20000), (4, 12), (1, 1)])
@pytest.mark.parametrize("query", ["raid", "ferret", "raid ferret", "ferret raid chat", "raid night chat", "night",
                                   "nothing here"])
@pytest.mark.parametrize("channel", ["", MODS, LOUNGE], ids=["another channel", "mods", "lounge"])
def test_every_way_to_the_candidates_finds_what_the_ranking_promises(mixed_server, monkeypatch, first_walk,
                                                                     max_walk, query, channel):
    """Facts with all the words come first, in exact rank order (there are fewer than ten of them, so
    every way must find them all, however old); with three words or more, facts with all but one fill up
    to ten, best rank first among the newest matches; nothing retracted, nothing that does not match,
    nothing the reader may not see."""
    monkeypatch.setattr(word_search, "FIRST_WALK", first_walk)
    monkeypatch.setattr(word_search, "MAX_WALK", max_walk)
    reader = Reader.for_message(channel)
    words = word_search._words(query)
    with_all = exact_ranking(mixed_server, " & ".join(words), reader=reader)
    with connection.cursor() as cursor:
        lexemes = word_search._lexemes(cursor, " ".join(words))
    relaxed = word_search._all_but_one(lexemes) if len(lexemes) >= 3 else None
    with_most = exact_ranking(mixed_server, relaxed, with_all, config="simple", reader=reader) if relaxed else []
    found = [fact.pk for fact in word_search.search_words(mixed_server, query, reader=reader)]

    assert len(with_all) < 10 or len(words) == 1
    assert found[: min(10, len(with_all))] == with_all[:10]
    filled = found[len(with_all):]
    assert len(found) == min(10, len(with_all) + len(with_most))
    assert set(filled) <= set(with_most)
    if relaxed:
        filled_ranks = ranks(mixed_server, relaxed, filled, config="simple")
        assert filled_ranks == sorted(filled_ranks, reverse=True)
    assert not Fact.objects.filter(pk__in=found, retracted_at__isnull=False).exists()
    assert all(visible_to(fact, reader) for fact in Fact.objects.filter(pk__in=found))


def test_a_rare_old_word_is_found_past_the_first_walk(mixed_server, monkeypatch):
    monkeypatch.setattr(word_search, "FIRST_WALK", 4)
    found = word_search.search_words(mixed_server, "ferret", reader=ANYWHERE)
    assert sorted(fact.key for fact in found) == ["note_2", "note_5", "note_8"]


def test_a_walk_that_saw_every_fact_in_force_is_the_whole_answer(server, monkeypatch):
    """Numbers handed out overstate what is in force once facts are retracted (Classic deletes them); a
    look past the walk's end in the index tells it saw them all, so the GIN index is not read."""
    from django.test.utils import CaptureQueriesContext

    facts = [make_fact(server, key=f"note_{index}", content=f"chat number {index}") for index in range(12)]
    for fact in facts[2:]:
        fact_retract(fact=fact, reason="wrong")
    make_fact(server, key="pet", content="kai has a ferret")
    monkeypatch.setattr(word_search, "FIRST_WALK", 5)  # more than the 3 in force, fewer than the 13 numbers
    with CaptureQueriesContext(connection) as queries:
        found = word_search.search_word_ids(server.pk, "ferret", reader=ANYWHERE)
    assert [Fact.objects.get(pk=pk).key for pk in found] == ["pet"]
    assert not any("WITH matches" in query["sql"] for query in queries.captured_queries)
    assert len(queries) == 3  # the walk, the numbers handed out, the look past the walk's end


def test_a_search_of_two_passes_reads_the_server_s_size_once(mixed_server, monkeypatch):
    """Both passes (all the words, then all but one) may need the server's size; each is read once."""
    from django.test.utils import CaptureQueriesContext

    monkeypatch.setattr(word_search, "FIRST_WALK", 4)
    with CaptureQueriesContext(connection) as queries:
        found = word_search.search_word_ids(mixed_server.pk, "ferret raid chat", reader=ANYWHERE)
    statements = [query["sql"] for query in queries.captured_queries]
    assert sum("simple" in sql for sql in statements) >= 1  # the second pass ran
    assert sum("FROM memory_factcounter" in sql for sql in statements) == 1
    assert sum("OFFSET" in sql for sql in statements) == 1  # the look past the first walk's end
    assert Fact.objects.get(pk=found[0]).key == "note_5"  # the one fact with all three words


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
    assert not any("WITH matches" in query["sql"] for query in queries.captured_queries)


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
