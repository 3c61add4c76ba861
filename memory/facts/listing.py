"""The memory page's list: facts filtered, searched as you type, sorted and paged by keyset (no OFFSET), as fast
on page 5,000 as on page 1."""

from __future__ import annotations

import base64
import json
import math
from dataclasses import dataclass, replace
from datetime import datetime

from django.contrib.postgres.search import SearchQuery
from django.db import connection
from django.db.models import Q, QuerySet
from django.utils.translation import ngettext

from config.planner import planned_rows
from memory.models import PREFIX_CONFIG, Channel, Fact
from memory.text.keys import normalise_key
from memory.text.numbers import grouped, past_the_count
from memory.text.words import words as text_words

PAGE_SIZE = 50
EXACT_COUNT_LIMIT = 5000
# A search with at most this many matches reads and sorts them all; with more, it walks the sort index.
SORT_MATCHES_BELOW = 5000
# Above this planner estimate the matches are so dense that walking the sort index fills a page at once.
DENSE_MATCHES = 20000
# A search first looks for its page among this many facts along the sort index (cheap, index only).
SEARCH_WINDOW = 20000
WINDOW_COUNT_LIMIT = 1000


class FactState:
    IN_FORCE = "in_force"
    RETRACTED = "retracted"
    ALL = "all"
    CHOICES = (IN_FORCE, RETRACTED, ALL)


# Each sort names the column pair used for keyset pagination and its direction.
SORTS: dict[str, tuple[str, bool]] = {
    "changed": ("changed_at", True),
    "confidence": ("confidence", True),
    "confidence_asc": ("confidence", False),
    "number": ("number", True),
}


@dataclass(frozen=True)
class FactFilter:
    server_ids: tuple[int, ...]  # ids, not a queryset: keeps the permission subquery out of every fact query
    query: str = ""
    state: str = FactState.IN_FORCE
    sort: str = "changed"
    audience: str = ""  # one of Audience's values, or "" for every audience
    channel: str = ""  # facts learned in this channel or thread (what a purge of it removes), or "" for any


def _where_filters(fact_filter: FactFilter) -> tuple[str, list]:
    """The audience and channel filters as SQL for the window walk (the covering index carries the audience and the
    source channel, not the thread: a channel filter reads its few facts through the GIN index instead)."""
    return ("AND audience = %s", [fact_filter.audience]) if fact_filter.audience else ("", [])


@dataclass
class FactPage:
    facts: list[Fact]
    exact_key_facts: list[Fact]
    next_cursor: str | None
    previous_cursor: str | None
    count_label: str
    # The page's own address (at most one is set; both empty on page 1): the list reloads itself from it after a
    # change, so whoever is on page 3 stays there.
    after: str = ""
    before: str = ""


def prefix_tsquery_text(text: str) -> str | None:
    """Search as you type: every word must match a word of the key or content as written (no stemming,
    no stop words: "the" finds "theme"); the last word, still being typed, matches as a prefix once it
    has two letters ("gamin" finds "gaming"). Earlier words are whole words, which keeps the index
    lookup cheap on a million facts."""
    words = text_words(text, 8)
    if not words:
        return None
    *complete, last = words
    still_typing = text == text.rstrip() and len(last) >= 2
    return " & ".join([*complete, f"{last}:*" if still_typing else last])


def search_query_for(text: str) -> SearchQuery | None:
    tsquery = prefix_tsquery_text(text)
    return SearchQuery(tsquery, search_type="raw", config=PREFIX_CONFIG) if tsquery else None


def _filtered_facts(fact_filter: FactFilter) -> QuerySet[Fact]:
    ids = fact_filter.server_ids
    facts = Fact.objects.filter(server_id=ids[0]) if len(ids) == 1 else Fact.objects.filter(server_id__in=ids)
    if fact_filter.state == FactState.IN_FORCE:
        facts = facts.filter(retracted_at__isnull=True)
    elif fact_filter.state == FactState.RETRACTED:
        facts = facts.filter(retracted_at__isnull=False)
    if fact_filter.audience:
        facts = facts.filter(audience=fact_filter.audience)
    if fact_filter.channel:
        # A private thread's facts have the thread as their source channel: the channel's threads count too.
        threads = Channel.objects.filter(server_id__in=ids, parent_id=fact_filter.channel).values("channel_id")
        facts = facts.filter(Q(source_channel_id=fact_filter.channel) | Q(source_thread_id=fact_filter.channel)
                             | Q(source_channel_id__in=threads))
    search = search_query_for(fact_filter.query)  # fact_page answers a letterless query before this
    if search is not None:
        facts = facts.filter(search_vector=search)
    return facts


def _encode_cursor(value: object, pk: int) -> str:
    raw = json.dumps([value.isoformat() if isinstance(value, datetime) else value, pk])
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _decode_cursor(cursor: str, column: str) -> tuple[object, int] | None:
    """A cursor from our own links; anything else (edited, truncated, absurd numbers) means page 1."""
    try:
        value, pk = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if column == "changed_at":
            value = datetime.fromisoformat(value)
            if value.tzinfo is None:
                return None
        elif column == "confidence":
            value = float(value)
            if not math.isfinite(value):
                return None
        else:
            value = int(value)
        pk = int(pk)
    except (ValueError, TypeError, OverflowError, RecursionError, json.JSONDecodeError):
        return None
    if not (0 <= pk < 2**63) or (column == "number" and not 0 <= value < 2**31):
        return None
    return value, pk


def _estimated_rows(facts: QuerySet[Fact]) -> int:
    """The planner's row estimate for the query (no rows are read)."""
    sql, params = facts.order_by().query.sql_with_params()
    with connection.cursor() as cursor:
        return planned_rows(cursor, sql, params)


def facts_label(count: int, *, about: bool = False, more_than: bool = False) -> str:
    """"3 facts", "about 1,000,000 facts", "more than 5,000 facts", in the page's language."""
    if about:
        return ngettext("about %(count)s fact", "about %(count)s facts", count) % {"count": grouped(count)}
    if more_than:
        return ngettext("more than %(count)s fact", "more than %(count)s facts", count) % {"count": grouped(count)}
    return ngettext("%(count)s fact", "%(count)s facts", count) % {"count": count}


def _count_label(facts: QuerySet[Fact], estimate: int) -> str:
    """Exact while the planner expects a small result; above that its estimate, so no keystroke
    counts a million rows."""
    if estimate > EXACT_COUNT_LIMIT:
        return facts_label(estimate, about=True)
    exact = facts.order_by()[: EXACT_COUNT_LIMIT + 1].count()
    if exact > EXACT_COUNT_LIMIT:
        return facts_label(EXACT_COUNT_LIMIT, more_than=True)
    return facts_label(exact)


def facts_in_force_counts(server_ids: list[int]) -> dict[int, str]:
    """Each server's facts in force as the memory page counts them ("3", "about 1,000,000"). One statement counts
    every server's facts up to one past EXACT_COUNT_LIMIT; a server past it gets the planner's estimate instead
    (one EXPLAIN), so a million-fact server costs 5,001 index entries, never a million."""
    if not server_ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT server.id, (SELECT count(*) FROM (
                SELECT FROM memory_fact WHERE server_id = server.id AND retracted_at IS NULL LIMIT %s
            ) up_to_one_past_the_limit)
            FROM unnest(%s::bigint[]) AS server(id)
            """,
            [EXACT_COUNT_LIMIT + 1, list(server_ids)],
        )
        counted = dict(cursor.fetchall())
    labels = {}
    for server_id, count in counted.items():
        if count <= EXACT_COUNT_LIMIT:
            labels[server_id] = str(count)
            continue
        estimate = _estimated_rows(_filtered_facts(FactFilter((server_id,))))
        labels[server_id] = past_the_count(EXACT_COUNT_LIMIT, estimate)
    return labels


def _window_page_ids(fact_filter: FactFilter, cursor, *, newest_first: bool, exclude_ids: list[int],
                     page_size: int) -> list[int] | None:
    """The next page of a search when its word is common: walk the covering (server, changed_at, id)
    INCLUDE (search_vector) index from the cursor over at most SEARCH_WINDOW facts. If a page and one
    more match turn up, they are exactly the next page. Otherwise the word is rare (None): the caller
    reads its few matches through the GIN index instead."""
    direction, operator = ("DESC", "<") if newest_first else ("ASC", ">")
    after = f"AND (changed_at, id) {operator} (%s, %s)" if cursor is not None else ""
    filters, filter_params = _where_filters(fact_filter)
    params = [fact_filter.server_ids[0], *(cursor or ()), *filter_params, SEARCH_WINDOW,
              PREFIX_CONFIG, prefix_tsquery_text(fact_filter.query), exclude_ids, page_size + 1]
    with connection.cursor() as db:
        db.execute(
            f"""
            SELECT id FROM (
                SELECT id, search_vector FROM memory_fact
                WHERE server_id = %s AND retracted_at IS NULL {after} {filters}
                ORDER BY changed_at {direction}, id {direction} LIMIT %s
            ) window_of_facts
            WHERE search_vector @@ to_tsquery(%s::regconfig, %s) AND NOT (id = ANY(%s))
            LIMIT %s
            """,
            params,
        )
        ids = [row[0] for row in db.fetchall()]
    return ids if len(ids) > page_size else None


def _capped_count_label(facts: QuerySet[Fact], pinned: int) -> str:
    """For a common word: the planner's estimate when it expects many, else a count capped at 1,000."""
    estimate = _estimated_rows(facts)
    if estimate > WINDOW_COUNT_LIMIT:
        return facts_label(estimate + pinned, about=True)
    counted = facts.order_by()[:WINDOW_COUNT_LIMIT + 1].count()
    if counted > WINDOW_COUNT_LIMIT:
        return facts_label(WINDOW_COUNT_LIMIT, more_than=True)
    return facts_label(counted + pinned)


def _page_cursors(rows: list[Fact], column: str, *, has_more: bool, backwards: bool,
                  on_later_page: bool) -> tuple[str | None, str | None]:
    next_cursor = _encode_cursor(getattr(rows[-1], column), rows[-1].pk) if rows and (has_more or backwards) else None
    previous_cursor = (
        _encode_cursor(getattr(rows[0], column), rows[0].pk)
        if rows and on_later_page and (has_more or not backwards) else None
    )
    return next_cursor, previous_cursor


def _few_matches_page(candidates: list[tuple[int, object]], cursor, *, descending: bool, backwards: bool,
                      page_size: int) -> tuple[list[int], bool]:
    """Keyset paging over an already-read, small set of (pk, sort value) matches."""
    keyed = [(value, pk) for pk, value in candidates]
    newest_first = descending != backwards
    keyed.sort(reverse=newest_first)
    if cursor is not None:
        keyed = [item for item in keyed if (item < cursor if newest_first else item > cursor)]
    window = keyed[: page_size + 1]
    return [pk for _, pk in window], len(window) > page_size


def fact_page(fact_filter: FactFilter, *, after: str = "", before: str = "", page_size: int = PAGE_SIZE) -> FactPage:
    """One page of the memory list, by keyset (no OFFSET): fast on page 1 and page 5,000 alike."""
    if not fact_filter.server_ids:
        return FactPage(facts=[], exact_key_facts=[], next_cursor=None, previous_cursor=None, count_label=facts_label(0))
    related = ("server", "author_user", "superseded_by")
    if fact_filter.query.strip() and search_query_for(fact_filter.query) is None:
        # A search without a single letter or digit ("#", "🎂"): no words to match, but a key may be just that.
        pinned = [] if (after or before) else _exact_key_facts(fact_filter, related, page_size)
        return FactPage(facts=[], exact_key_facts=pinned, next_cursor=None, previous_cursor=None,
                        count_label=facts_label(len(pinned)))
    column, descending = SORTS.get(fact_filter.sort, SORTS["changed"])
    matching = _filtered_facts(fact_filter)
    # A fact whose key is exactly what was typed is pinned on page 1 and left out of the pages.
    exact_key_facts = _exact_key_facts(fact_filter, related, page_size)
    if exact_key_facts:
        matching = matching.exclude(pk__in=[fact.pk for fact in exact_key_facts])

    cursor = _decode_cursor(before or after, column) if (before or after) else None
    backwards = bool(before) and cursor is not None
    on_later_page = cursor is not None

    newest_first = descending != backwards

    def page_of(rows: list[Fact], has_more: bool, count_label: str) -> FactPage:
        rows = rows[:page_size]
        if backwards:
            rows.reverse()
        next_cursor, previous_cursor = _page_cursors(rows, column, has_more=has_more, backwards=backwards,
                                                     on_later_page=on_later_page)
        back_on_page_one = not on_later_page or (backwards and not has_more)
        return FactPage(facts=rows, exact_key_facts=exact_key_facts if back_on_page_one else [],
                        next_cursor=next_cursor, previous_cursor=previous_cursor, count_label=count_label,
                        after=after if on_later_page and not backwards else "",
                        before=before if backwards and has_more else "")  # walked back to page 1: no address

    def facts_in_order(pks: list[int]) -> list[Fact]:
        by_pk = Fact.objects.select_related(*related).in_bulk(pks[:page_size])
        return [by_pk[pk] for pk in pks[:page_size] if pk in by_pk]

    if (fact_filter.query and len(fact_filter.server_ids) == 1 and fact_filter.state == FactState.IN_FORCE
            and column == "changed_at" and not fact_filter.channel):
        window_ids = _window_page_ids(fact_filter, cursor, newest_first=newest_first,
                                      exclude_ids=[fact.pk for fact in exact_key_facts], page_size=page_size)
        if window_ids is not None:
            return page_of(facts_in_order(window_ids), True, _capped_count_label(matching, len(exact_key_facts)))

    estimate = _estimated_rows(matching)
    if fact_filter.query and estimate <= DENSE_MATCHES:
        # Read at most SORT_MATCHES_BELOW matches (through the GIN index, unsorted). Fewer than that:
        # sort them here and the count is exact. More: the matches are dense, and walking the sort index
        # until a page is full is cheap. Either way a search reads a bounded number of rows.
        candidates = list(matching.order_by().values_list("pk", column)[: SORT_MATCHES_BELOW + 1])
        if len(candidates) <= SORT_MATCHES_BELOW:
            pks, has_more = _few_matches_page(candidates, cursor, descending=descending, backwards=backwards,
                                              page_size=page_size)
            total = len(candidates) + len(exact_key_facts)
            return page_of(facts_in_order(pks), has_more, f"{total} fact{'s' if total != 1 else ''}")

    facts = matching.select_related(*related)
    if cursor is not None:
        facts = _beyond_cursor(facts, column, cursor, newest_first=newest_first)
    order = [f"-{column}", "-id"] if newest_first else [column, "id"]
    rows = list(facts.order_by(*order)[: page_size + 1])
    return page_of(rows, len(rows) > page_size, _count_label(matching, estimate))


def fact_page_or_nearest(fact_filter: FactFilter, *, after: str = "", before: str = "",
                         page_size: int = PAGE_SIZE) -> FactPage:
    """The page asked for or, when it has no facts left (its last ones deleted, restored or merged away since it
    was opened), the nearest page that has: the one ending where it began, else the first page."""
    page = fact_page(fact_filter, after=after, before=before, page_size=page_size)
    if page.facts or page.exact_key_facts or not (after or before):
        return _with_live_next_cursor(fact_filter, page) if before else page
    if page.after:
        # Nothing is left after the cursor: show the page that ends with it. The cursor's own fact was the last
        # one of the page before, so the backwards walk must include it; ids are integers, so the boundary one
        # id further along (towards the later pages) is exactly "at or before the cursor".
        column, descending = SORTS.get(fact_filter.sort, SORTS["changed"])
        value, pk = _decode_cursor(page.after, column)
        up_to_cursor = _encode_cursor(value, max(pk - 1, 0) if descending else pk + 1)
        ending_here = fact_page(fact_filter, before=up_to_cursor, page_size=page_size)
        if ending_here.facts:
            return replace(ending_here, next_cursor=None)  # the page after it was just found empty
    return fact_page(fact_filter, page_size=page_size)


def _exact_key_facts(fact_filter: FactFilter, related: tuple[str, ...], page_size: int) -> list[Fact]:
    key = normalise_key(fact_filter.query)
    if not key:
        return []
    return list(_filtered_facts(replace(fact_filter, query=""))
                .filter(key=key).select_related(*related)[:page_size])


def _with_live_next_cursor(fact_filter: FactFilter, page: FactPage) -> FactPage:
    """A page read backwards (by Previous) takes for granted that the page it was left from still has facts. When
    they are gone since, its Next link would lead to an empty page, which falls back to this very page: drop it.
    One EXISTS from the cursor on, through the same (server, column, id) order the pages walk."""
    if not page.next_cursor:
        return page
    column, descending = SORTS.get(fact_filter.sort, SORTS["changed"])
    cursor = _decode_cursor(page.next_cursor, column)
    later = _filtered_facts(fact_filter)
    if fact_filter.query.strip():
        later = later.exclude(key=normalise_key(fact_filter.query))  # those are pinned on page 1, not paged
    if cursor is None or not _beyond_cursor(later, column, cursor, newest_first=descending).exists():
        return replace(page, next_cursor=None)
    return page


def _beyond_cursor(facts: QuerySet[Fact], column: str, cursor: tuple[object, int], *,
                   newest_first: bool) -> QuerySet[Fact]:
    """The facts after `cursor` in the list's order. Row comparison lets PostgreSQL walk the (server, column, id)
    index from the cursor on."""
    operator = "<" if newest_first else ">"
    return facts.extra(where=[f"(memory_fact.{column}, memory_fact.id) {operator} (%s, %s)"], params=list(cursor))
