"""The project's PostgreSQL backend (config/postgresql/base.py): timestamps load through psycopg's C loader
exactly as Django's loader gives them, and the health check runs when the server said something."""

import datetime
import time

import pytest
from django.db import close_old_connections, connection, connections
from django.db.backends.postgresql.psycopg_any import register_tzloader
from hypothesis import given, settings
from hypothesis import strategies as st
from psycopg.pq import Format

from config.postgresql.base import UtcTimestamptzLoader, has_input_waiting
from tests.factories import make_fact, make_server, make_team

pytestmark = pytest.mark.django_db

UTC = datetime.timezone.utc
TIMESTAMPTZ_OID = 1184


def _load(values, *, djangos_loader: bool):
    with connection.cursor() as cursor:
        if djangos_loader:
            register_tzloader(UTC, cursor.cursor)  # what every cursor used before
        cursor.execute("SELECT value FROM unnest(%s::timestamptz[]) AS value", [values])
        return [row[0] for row in cursor.fetchall()]


def test_connections_use_the_fast_loader():
    connection.ensure_connection()
    assert connection.connection.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT) is UtcTimestamptzLoader
    with connection.cursor() as cursor:  # Django's cursors keep it: the zones agree
        assert cursor.cursor.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT) is UtcTimestamptzLoader


def test_edge_values_load_like_djangos_loader():
    values = [
        datetime.datetime(2026, 11, 30, 19, 14, 49, 123456, tzinfo=UTC),
        datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        datetime.datetime(1, 1, 1, tzinfo=UTC),
        datetime.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        datetime.datetime(2024, 2, 29, 0, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=5, minutes=30))),
    ]
    fast = _load(values, djangos_loader=False)
    assert fast == _load(values, djangos_loader=True) == values
    assert all(value.tzinfo is UTC for value in fast)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.datetimes(min_value=datetime.datetime(1, 1, 2), max_value=datetime.datetime(9999, 12, 30),
                             timezones=st.just(UTC)), min_size=1, max_size=20))
def test_any_timestamp_loads_like_djangos_loader(values):
    fast = _load(values, djangos_loader=False)
    assert fast == _load(values, djangos_loader=True) == values
    assert [value.tzinfo for value in fast] == [UTC] * len(values)


def test_a_fact_read_through_the_orm_keeps_its_aware_time():
    fact = make_fact(make_server(make_team()))
    fact.refresh_from_db()
    assert fact.created_at.tzinfo is UTC
    assert abs(fact.created_at - datetime.datetime.now(UTC)) < datetime.timedelta(minutes=5)


def _persistent_connection():
    """The test connection as CONN_MAX_AGE keeps it in production: open across requests."""
    connection.ensure_connection()
    connection.close_at = None
    assert connection.health_check_enabled
    return connection.connection


def _count_health_checks(monkeypatch) -> list:
    checks = []
    real_is_usable = connection.is_usable
    monkeypatch.setattr(connection, "is_usable", lambda: checks.append(1) or real_is_usable())
    return checks


@pytest.mark.django_db(transaction=True)
def test_an_idle_connection_is_used_again_without_a_check(monkeypatch):
    opened = _persistent_connection()
    checks = _count_health_checks(monkeypatch)
    for _request in range(3):
        close_old_connections()  # what Django does when a request starts
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    assert connection.connection is opened
    assert checks == []


@pytest.mark.django_db(transaction=True)
def test_a_connection_the_server_ended_is_replaced_before_the_next_query(monkeypatch):
    ended = _persistent_connection()
    checks = _count_health_checks(monkeypatch)
    other = connections.create_connection("default")
    try:  # what a restart or a shutdown of PostgreSQL does to every connection
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [ended.info.backend_pid])
    finally:
        other.close()
    deadline = time.monotonic() + 5
    while not has_input_waiting(ended) and time.monotonic() < deadline:
        time.sleep(0.01)

    close_old_connections()
    with connection.cursor() as cursor:  # no error: the check found the connection dead and opened another
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    assert checks == [1]
    assert connection.connection is not ended


@pytest.mark.django_db(transaction=True)
def test_a_connection_psycopg_already_closed_is_replaced_instead_of_failing_the_request(monkeypatch):
    """psycopg refuses fileno() on a connection it knows is lost: the full check runs and reconnects."""
    lost = _persistent_connection()
    checks = _count_health_checks(monkeypatch)
    lost.close()
    assert has_input_waiting(lost)

    close_old_connections()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    assert checks == [1]
    assert connection.connection is not lost
