"""Which facts the bot sees: the context for a message (per memory type) and the bot's one search."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connection
from django.db.models import F

from teams.models import Server

from .models import SEARCH_CONFIG, AISettings, Fact, MemoryType
from .selectors import facts_in_force

SEARCH_RESULT_LIMIT = 10
RANK_CANDIDATES = 500
RECENT_WINDOW = 20000
# What the context and the API show of a fact; loading only these keeps building the context cheap.
CONTEXT_FIELDS = ("id", "server_id", "number", "key", "content", "scope", "member_id", "confidence", "changed_at")
MAX_QUERY_WORDS = 12


def _most_recently_changed(server: Server, ai_settings: AISettings, message: str) -> list[Fact]:
    """Classic, Ledger and Searchable archive: the newest changes fill the slots (partial index walk)."""
    return list(
        facts_in_force(server).only(*CONTEXT_FIELDS).order_by("-changed_at", "-id")[: ai_settings.max_injected_items]
    )


# The one place that maps a memory type to how its context is chosen. Types whose own strategy is not
# built yet cannot be chosen (memory_types.TypeProfile.ready); they fall back to the newest facts.
CONTEXT_STRATEGIES: dict[str, Callable[[Server, AISettings, str], list[Fact]]] = {
    MemoryType.CLASSIC: _most_recently_changed,
    MemoryType.LEDGER: _most_recently_changed,
    MemoryType.ARCHIVE: _most_recently_changed,
}


def context_facts(server: Server, ai_settings: AISettings, message: str) -> list[Fact]:
    strategy = CONTEXT_STRATEGIES.get(ai_settings.memory_type, _most_recently_changed)
    return strategy(server, ai_settings, message)


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower(), flags=re.UNICODE)[:MAX_QUERY_WORDS]


def _best_of_newest_matches(server: Server, tsquery: str, exclude_ids: list[int], limit: int) -> list[int]:
    """Ids of the `limit` best-ranked among the newest RANK_CANDIDATES matches, read in two bounded ways.

    First along the covering (server, changed_at, id) INCLUDE (search_vector) index over the newest
    RECENT_WINDOW facts only, ranking from the index without reading the table: cheap whatever the
    word, and enough when the word is common. When that finds fewer than SEARCH_RESULT_LIMIT matches
    the word is rare, and the GIN index over all facts in force returns its few matches cheaply.
    (The planner alone misjudges multi-word queries, whose words appear together far more often than
    independence suggests.)
    """
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT id, count(*) OVER () FROM (
                SELECT id, changed_at, search_vector FROM (
                    SELECT id, changed_at, search_vector FROM memory_fact
                    WHERE server_id = %s AND retracted_at IS NULL
                    ORDER BY changed_at DESC, id DESC LIMIT %s
                ) recent
                WHERE search_vector @@ to_tsquery(%s::regconfig, %s) AND NOT (id = ANY(%s))
                LIMIT %s
            ) newest_matches
            ORDER BY ts_rank(search_vector, to_tsquery(%s::regconfig, %s)) DESC, changed_at DESC, id DESC
            LIMIT %s
            """,
            [server.pk, RECENT_WINDOW, SEARCH_CONFIG, tsquery, exclude_ids, RANK_CANDIDATES,
             SEARCH_CONFIG, tsquery, limit],
        )
        rows = cursor.fetchall()
    if rows and rows[0][1] >= SEARCH_RESULT_LIMIT:
        return [row[0] for row in rows]
    ranked = SearchQuery(tsquery, search_type="raw", config=SEARCH_CONFIG)
    newest = (
        facts_in_force(server).filter(search_vector=ranked).exclude(pk__in=exclude_ids)
        .order_by("-changed_at", "-id").values("pk")[:RANK_CANDIDATES]
    )
    return list(
        Fact.objects.filter(pk__in=newest).annotate(rank=SearchRank(F("search_vector"), ranked))
        .order_by("-rank", "-changed_at", "-id").values_list("pk", flat=True)[:limit]
    )


def search_words(server: Server, query: str, limit: int = SEARCH_RESULT_LIMIT) -> list[Fact]:
    """Full-text search over the facts in force of the server (both scopes), best match first.

    All words together first (precise); when that finds fewer than `limit`, facts that match any of
    the words fill the rest. Stemmed English lexemes, so "birthdays" finds "birthday". Ranking reads
    at most RANK_CANDIDATES matches, the most recently changed: a word that appears in a hundred
    thousand facts is ranked among its newest 500, so a search costs milliseconds at any size.
    """
    words = _words(query)
    if not words:
        return []
    found_ids: list[int] = []
    for operator in (" & ", " | "):
        if len(found_ids) >= limit or (operator == " | " and len(words) == 1):
            break
        found_ids += _best_of_newest_matches(server, operator.join(words), found_ids, limit - len(found_ids))
    by_pk = Fact.objects.only(*CONTEXT_FIELDS).in_bulk(found_ids)
    return [by_pk[pk] for pk in found_ids if pk in by_pk]
