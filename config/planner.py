"""How many rows PostgreSQL's planner expects a statement to return, read from EXPLAIN without running it: what a
count costs nothing to show past the point where counting would read a million rows."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence


def planned_rows(cursor, sql: str, params: Sequence | Mapping | None = None) -> int:
    """The planner's row estimate for the statement `sql` (a SELECT) with these parameters; no row is read."""
    cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
    plan = cursor.fetchone()[0]
    plan = json.loads(plan) if isinstance(plan, str) else plan  # psycopg parses json unless told otherwise
    return int(plan[0]["Plan"]["Plan Rows"])
