"""Reinforce, don't duplicate, with near-duplicates (memory.facts.sameness), tried through the API as a bot uses it: a
statement said again in nearly the same words, or under Semantic in other words the vectors see as the same, is
reinforced; the labelled pairs of bench/dedupe_data.py that are not the same are kept apart; and the check reads
the index made for it."""

from __future__ import annotations

from functools import partial

import pytest
from django.db import connection, transaction

from bench.dedupe_data import MEMBERS, PAIRS
from memory.models import Fact, FactEmbedding, MemoryType
from tests.memory.bot.api.helpers import Api, configure, remember_in_new_exchange

pytestmark = pytest.mark.django_db

GENERAL = "111"
PAUL, MIRA = "200000000000000021", "200000000000000022"


@pytest.fixture
def api(client, bot_token, server) -> Api:
    configure(server, memory_type=MemoryType.LEDGER, remember_limit_per_hour=1000)
    return Api(client, bot_token)


remember = partial(remember_in_new_exchange, member=PAUL, channel=GENERAL)  # Paul in #general unless told


def side(pair_side) -> dict:
    fields = {"key": pair_side.key, "content": pair_side.content, "scope": pair_side.scope}
    return fields | ({"member_id": MEMBERS[pair_side.member][0]} if pair_side.member else {})


def in_force(server) -> list[Fact]:
    return list(Fact.objects.filter(server=server, retracted_at__isnull=True).order_by("number"))


def test_the_same_words_in_another_order_under_one_key_are_reinforced(api, server):
    first = remember(api, server, key="tournament_time",
                     content="Every Saturday the weekly tournament starts at 19:00.")
    again = remember(api, server, member=MIRA, key="tournament_time",
                     content="The weekly tournament starts at 19:00 every Saturday.")

    [fact] = in_force(server)
    assert again["status"] == "reinforced" and again["number"] == first["number"] == fact.number
    assert fact.mention_count == 2 and fact.content == "Every Saturday the weekly tournament starts at 19:00."


def test_the_same_words_in_other_roles_are_kept_apart_and_flagged(api, server):
    remember(api, server, key="chess_final", content="Mira beat Leon in the chess final.")
    newer = remember(api, server, member=MIRA, key="chess_final", content="Leon beat Mira in the chess final.")

    assert newer["status"] == "applied" and len(in_force(server)) == 2
    assert "contradicts" in newer["detail"]


def test_under_semantic_the_same_statement_in_other_words_is_reinforced_and_the_new_fact_keeps_its_vector(
        api, server):
    configure(server, memory_type=MemoryType.SEMANTIC)
    first = remember(api, server, key="weekly_tournament", content="The weekly tournament is every Saturday.")
    stored = Fact.objects.get(server=server, number=first["number"])
    assert FactEmbedding.objects.filter(fact=stored).exists()  # embedded as it was written: the worker calls nothing

    again = remember(api, server, member=MIRA, key="weekly_tournament", content="Weekly tourneys happen on Saturdays.")

    assert again["status"] == "reinforced" and again["number"] == first["number"]
    assert [fact.mention_count for fact in in_force(server)] == [2]


def test_below_semantic_words_miss_that_paraphrase_and_both_stay(api, server):
    remember(api, server, key="weekly_tournament", content="The weekly tournament is every Saturday.")
    again = remember(api, server, member=MIRA, key="weekly_tournament", content="Weekly tourneys happen on Saturdays.")

    assert again["status"] == "applied" and len(in_force(server)) == 2


NOT_THE_SAME = [pair for pair in PAIRS if not pair.same]


@pytest.mark.parametrize("pair", NOT_THE_SAME, ids=[f"{pair.lang}-{pair.kind}-{index}"
                                                    for index, pair in enumerate(NOT_THE_SAME)])
def test_labelled_pairs_that_are_not_the_same_are_kept_apart(api, server, pair):
    first = remember(api, server, **side(pair.a))
    second = remember(api, server, member=MIRA, **side(pair.b))

    assert first["status"] == second["status"] == "applied", (first, second)
    assert len(in_force(server)) == 2


def test_the_check_reads_the_index_made_for_it(server):
    """The words check finds the subject's facts with the same words through fact_same_words (migration 0025), and
    the expression it compares is the index's (memory_word_set); bench/dedupe.py times it at a million facts."""
    from django.utils import timezone

    from memory.facts.sameness import WORD_CANDIDATES_SQL

    now = timezone.now()
    Fact.objects.bulk_create([
        Fact(server=server, number=number, key="server_rules", content=f"Server rules: rule {number} of many; be kind.",
             created_at=now, changed_at=now, valid_from=now, author_kind="bot")
        for number in range(1, 3001)])
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_fact")
        cursor.execute("EXPLAIN " + WORD_CANDIDATES_SQL, {
            "server": server.pk, "member": "", "key": "server_rules", "scope": "server", "limit": 20,
            "content": "be kind; server rules: rule 7 of many"})
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("SELECT memory_word_set(%s) = memory_word_set(%s), memory_word_set(%s) = memory_word_set(%s),"
                       " memory_word_set(%s) = memory_word_set(%s)",
                       ["Server rules: rule 7 of many; be kind.", "be kind; server rules: RULE 7 of many",
                        "Server rules: rule 7 of many; be kind.", "Server rules: rule 8 of many; be kind.",
                        "ÄRZTIN im Dienst — ПРИВЕТ", "ärztin im dienst, привет"])  # Unicode's case folding
        assert cursor.fetchone() == (True, False, True)
    assert "fact_same_words" in plan and "memory_word_set(content)" in plan, plan
