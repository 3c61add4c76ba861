"""Django's `flush`, allowed past the audit log's TRUNCATE trigger (teams migration 0004).

Emptying every table is a deliberate act of an operator or of Django's test runner (which flushes
between transactional tests); the trigger is there to stop anything else, so only this command sets
`lorekeeper.audit_truncate`, for its own transaction (SET LOCAL: it ends with the transaction, and a
pooler in transaction mode cannot hand it to another client). Row UPDATE and DELETE on the audit log stay
refused whatever the setting says. Any database role may set the setting: the trigger guards against
mistakes (a stray TRUNCATE), not against someone who holds the database's credentials."""

from __future__ import annotations

from django.core.management.commands import flush
from django.db import DEFAULT_DB_ALIAS, connections, transaction


class Command(flush.Command):
    def handle(self, **options):
        database = options.get("database") or DEFAULT_DB_ALIAS
        connection = connections[database]
        if connection.vendor != "postgresql":
            return super().handle(**options)
        with transaction.atomic(using=database):
            with connection.cursor() as cursor:
                cursor.execute("SELECT set_config('lorekeeper.audit_truncate', 'flush', true)")
            return super().handle(**options)
