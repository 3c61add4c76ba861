"""Memory at a glance (issue 25): one server's memory in a few numbers — facts in force and retracted, pinned, new
facts per week for the last 26 weeks, proposals and contradictions waiting, exchanges this week and how many of them
used memory. Reads only, and a bounded amount at any size: facts in force and retracted are counted up to one past
COUNTED_UP_TO and past that are the planner's estimate (as the memory page counts them), the weeks along the
(server, created_at) index; on a server past COUNTED_UP_TO the weeks are counted at most once every WEEKS_CACHED_FOR
seconds (the cache, not the database, keeps them meanwhile)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import connection

from config.planner import planned_rows
from memory.text.numbers import grouped, past_the_count
from teams.models import Server

GLANCE_WEEKS = 26
COUNTED_UP_TO = 5000  # memory.facts.listing.EXACT_COUNT_LIMIT: past it a count reads "about 1,000,000"
# A million-fact server wrote 250,000 facts in 26 weeks: counting them along the index reads every entry (40 ms on a
# quiet machine, 200 ms and more under load) on every visit to the memory page. A bar chart of half a year is no
# worse for being up to ten minutes old, on a server whose numbers beside it are estimates anyway.
WEEKS_CACHED_FOR = 600

# Counting a million facts in force read every one of them (1.5 s at a million, the table scanned); up to one past
# the limit reads 5,001 index entries at most, and the pinned facts have a partial index of their own.
_IN_FORCE = "FROM memory_fact WHERE server_id = %(server)s AND retracted_at IS NULL"
_RETRACTED = "FROM memory_fact WHERE server_id = %(server)s AND retracted_at IS NOT NULL"
_FACTS_SQL = f"""
    SELECT (SELECT count(*) FROM (SELECT {_IN_FORCE} LIMIT %(limit)s) in_force),
           (SELECT count(*) FROM (SELECT {_RETRACTED} LIMIT %(limit)s) retracted),
           (SELECT count(*) FROM memory_fact WHERE server_id = %(server)s AND pinned AND retracted_at IS NULL)"""
# New facts per week, weeks ending at `now` (week 0 is the oldest): a fact counts in the week it was written.
_WEEKS_SQL = """
    SELECT floor(extract(epoch FROM created_at - %(since)s) / 604800)::int AS week, count(*)
    FROM memory_fact WHERE server_id = %(server)s AND created_at >= %(since)s AND created_at < %(now)s
    GROUP BY 1"""
_WAITING_AND_EXCHANGES_SQL = """
    SELECT (SELECT count(*) FROM consolidation_proposal WHERE server_id = %(server)s AND status = 'pending'),
           (SELECT count(*) FROM consolidation_proposal WHERE server_id = %(server)s AND status = 'pending'
                                                            AND kind = 'contradiction'),
           count(*),
           count(*) FILTER (WHERE cardinality(shown_numbers) > 0 OR searched_at IS NOT NULL)
    FROM memory_exchange WHERE server_id = %(server)s AND created_at >= %(week_ago)s"""


@dataclass(frozen=True)
class MemoryAtAGlance:
    in_force: str  # "13", or past COUNTED_UP_TO "about 1,000,000"
    retracted: str
    pinned: int
    weekly_new: list[tuple[datetime, int]]  # (week's first day, facts written in it), oldest first
    proposals_waiting: int
    contradictions_waiting: int
    exchanges_this_week: int
    exchanges_using_memory: int


def memory_at_a_glance(server: Server, *, now: datetime) -> MemoryAtAGlance:
    since = now - timedelta(weeks=GLANCE_WEEKS)
    with connection.cursor() as cursor:
        cursor.execute(_FACTS_SQL, {"server": server.pk, "limit": COUNTED_UP_TO + 1})
        in_force, retracted, pinned = cursor.fetchone()
        large = in_force > COUNTED_UP_TO
        in_force, retracted = (_count_label(cursor, count, where, server.pk)
                               for count, where in ((in_force, _IN_FORCE), (retracted, _RETRACTED)))
        weeks_key = f"glance-weeks:{server.pk}"
        counted = cache.get(weeks_key) if large else None
        if counted is None:
            cursor.execute(_WEEKS_SQL, {"server": server.pk, "since": since, "now": now})
            counted = (since, dict(cursor.fetchall()))
            if large:
                cache.set(weeks_key, counted, WEEKS_CACHED_FOR)
        since, per_week = counted
        cursor.execute(_WAITING_AND_EXCHANGES_SQL, {"server": server.pk, "week_ago": now - timedelta(days=7)})
        proposals, contradictions, exchanges, used = cursor.fetchone()
    weekly = [(since + timedelta(weeks=week), per_week.get(week, 0)) for week in range(GLANCE_WEEKS)]
    return MemoryAtAGlance(in_force, retracted, pinned, weekly, proposals, contradictions, exchanges, used)


def _count_label(cursor, count: int, where: str, server_id: int) -> str:
    """The count as counted, or past COUNTED_UP_TO the planner's estimate of the rows `where` picks (no row read)."""
    if count <= COUNTED_UP_TO:
        return grouped(count)
    return past_the_count(COUNTED_UP_TO, planned_rows(cursor, f"SELECT {where}", {"server": server_id}))
