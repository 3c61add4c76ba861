"""Django's PostgreSQL backend (ENGINE "config.postgresql"), cheaper per request in two ways.

A Classic context call costs about 11 ms of CPU, and the load target (issue 7: 200 calls a second on two
cores, PostgreSQL and the load generator included) leaves 10. Two costs came from the backend itself:

* Timestamps. Django loads every `timestamptz` through its own loader, a subclass of psycopg's
  pure-Python loader that pins the time zone: a context call loads about 60 timestamps, 0.4 ms. When
  the session time zone is UTC (what Django sets with USE_TZ on, as in every settings module), psycopg's
  C loader gives the same value, an aware datetime with tzinfo `datetime.timezone.utc`, for a tenth of
  the cost; such connections use it.
* The health check. With CONN_HEALTH_CHECKS, every request's first query is preceded by `SELECT 1`: a
  round trip, about 0.3 ms of CPU on both sides. A connection whose server went away (restart, shutdown,
  terminated backend) has something to read on an idle socket: the server's goodbye, or the end of the
  stream. So the check runs only when the idle socket is readable; otherwise nothing can have been
  said since the last request, which ended cleanly (Django closes a connection after an error). A
  server that vanished without a word (a cut cable) fails the request's first query instead, as it
  would fail `SELECT 1`: a 503, and the connection is closed at the request's end.
"""

from __future__ import annotations

import datetime
import select

import psycopg
from django.db.backends.postgresql import base
from psycopg import adapters
from psycopg.adapt import Loader
from psycopg.pq import Format

_TIMESTAMPTZ_OID = adapters.types["timestamptz"].oid
# psycopg's fastest text loader: the C one when psycopg[binary] or [c] is installed.
_FASTEST_TIMESTAMPTZ_LOADER = adapters.get_loader(_TIMESTAMPTZ_OID, Format.TEXT)


class UtcTimestamptzLoader(Loader):
    """psycopg's own timestamptz loader, under the `timezone` attribute Django's cursors check (a
    cursor whose connection's loader names another zone gets Django's loader back)."""

    timezone = datetime.timezone.utc

    def __init__(self, oid: int, context=None):
        super().__init__(oid, context)
        self._loader = _FASTEST_TIMESTAMPTZ_LOADER(oid, context)
        # The transformer looks `load` up once per result column: this hands it the C loader's bound
        # method, so loading a value runs no Python frame.
        self.load = self._loader.load

    def load(self, data):
        return self._loader.load(data)


def has_input_waiting(psycopg_connection) -> bool:
    """Whether the server sent something to this idle connection (readable now, without waiting)."""
    try:
        readable, _, _ = select.select([psycopg_connection.fileno()], [], [], 0)
    # psycopg.Error: psycopg already knows the connection is lost; OSError, ValueError: the socket is
    # closed or past select()'s limit. Either way the full check decides.
    except (psycopg.Error, OSError, ValueError):
        return True
    return bool(readable)


class DatabaseWrapper(base.DatabaseWrapper):
    def init_connection_state(self):
        super().init_connection_state()  # sets the session time zone to Django's
        if (
            self.connection is not None
            and self.timezone is datetime.timezone.utc
            and self.connection.info.parameter_status("TimeZone") == "UTC"
        ):
            self.connection.adapters.register_loader(_TIMESTAMPTZ_OID, UtcTimestamptzLoader)

    def close_if_health_check_failed(self):
        if (
            self.connection is not None
            and self.health_check_enabled
            and not self.health_check_done
            and not self.pool
            and not has_input_waiting(self.connection)
        ):
            self.health_check_done = True  # nothing was said on the idle socket: see the module's docstring
            return
        super().close_if_health_check_failed()
