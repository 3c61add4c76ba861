"""Django's `flush`, allowed past the audit log's TRUNCATE trigger (teams migration 0004).

Emptying every table is a deliberate act of an operator or of Django's test runner (which flushes
between transactional tests); the trigger is there to stop anything else, so only this command sets
`lorekeeper.audit_truncate`, for its own connection, and clears it again afterwards. Row UPDATE and
DELETE on the audit log stay refused whatever the setting says."""

from __future__ import annotations

from django.core.management.commands import flush
from django.db import DEFAULT_DB_ALIAS, connections


class Command(flush.Command):
    def handle(self, **options):
        connection = connections[options.get("database") or DEFAULT_DB_ALIAS]
        if connection.vendor != "postgresql":
            return super().handle(**options)
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('lorekeeper.audit_truncate', 'flush', false)")
        try:
            return super().handle(**options)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT set_config('lorekeeper.audit_truncate', '', false)")
