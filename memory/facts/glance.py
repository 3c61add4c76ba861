"""Memory at a glance (issue 25): one server's memory in a few numbers — facts in force and retracted, pinned, new
facts per week for the last 26 weeks, proposals and contradictions waiting, exchanges this week and how many of them
used memory. Reads only: three statements, each one pass over the server's rows along its indexes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection

from teams.models import Server

GLANCE_WEEKS = 26

_FACTS_SQL = """
    SELECT count(*) FILTER (WHERE retracted_at IS NULL),
           count(*) FILTER (WHERE retracted_at IS NOT NULL),
           count(*) FILTER (WHERE pinned AND retracted_at IS NULL)
    FROM memory_fact WHERE server_id = %s"""
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
    in_force: int
    retracted: int
    pinned: int
    weekly_new: list[tuple[datetime, int]]  # (week's first day, facts written in it), oldest first
    proposals_waiting: int
    contradictions_waiting: int
    exchanges_this_week: int
    exchanges_using_memory: int


def memory_at_a_glance(server: Server, *, now: datetime) -> MemoryAtAGlance:
    since = now - timedelta(weeks=GLANCE_WEEKS)
    with connection.cursor() as cursor:
        cursor.execute(_FACTS_SQL, [server.pk])
        in_force, retracted, pinned = cursor.fetchone()
        cursor.execute(_WEEKS_SQL, {"server": server.pk, "since": since, "now": now})
        per_week = dict(cursor.fetchall())
        cursor.execute(_WAITING_AND_EXCHANGES_SQL, {"server": server.pk, "week_ago": now - timedelta(days=7)})
        proposals, contradictions, exchanges, used = cursor.fetchone()
    weekly = [(since + timedelta(weeks=week), per_week.get(week, 0)) for week in range(GLANCE_WEEKS)]
    return MemoryAtAGlance(in_force, retracted, pinned, weekly, proposals, contradictions, exchanges, used)
