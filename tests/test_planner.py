"""config.planner.planned_rows: the planner's estimate, read from EXPLAIN, with parameters, no row read."""

from __future__ import annotations

from django.db import connection

from config.planner import planned_rows


def test_the_estimate_is_what_the_planner_expects_for_those_parameters(db):
    with connection.cursor() as cursor:
        assert planned_rows(cursor, "SELECT generate_series(1, 1000)") == 1000
        assert planned_rows(cursor, "SELECT x FROM generate_series(1, 1000) x LIMIT %(limit)s", {"limit": 7}) == 7
        assert planned_rows(cursor, "SELECT 1 WHERE %s", [False]) <= 1


def test_no_row_is_read_so_a_statement_that_would_fail_on_its_rows_does_not(db):
    with connection.cursor() as cursor:
        assert planned_rows(cursor, "SELECT 1 / (x - x) FROM generate_series(1, 3) x") == 3
