"""The audit log is append-only in the database itself."""

from __future__ import annotations

import pytest
from django.db import InternalError, ProgrammingError, connection, transaction

from teams.models import AuditEntry
from teams.services import audit_record

DATABASE_REFUSAL = (InternalError, ProgrammingError)


@pytest.fixture
def entry(server, owner):
    return audit_record(actor=owner, server=server, action="memory.wipe", target_ids=[1, 2], count=2)


def test_an_audit_row_records_who_what_and_how_many(entry, owner):
    stored = AuditEntry.objects.get(pk=entry.pk)
    assert (stored.actor, stored.actor_label, stored.action, stored.count, stored.target_ids) == (
        owner, "owner", "memory.wipe", 2, [1, 2]
    )


def test_the_orm_cannot_update_an_audit_row(entry):
    with pytest.raises(DATABASE_REFUSAL, match="append-only"), transaction.atomic():
        AuditEntry.objects.filter(pk=entry.pk).update(count=0)
    assert AuditEntry.objects.get(pk=entry.pk).count == 2


def test_raw_sql_cannot_delete_an_audit_row(entry):
    with pytest.raises(DATABASE_REFUSAL, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM teams_auditentry WHERE id = %s", [entry.pk])
    assert AuditEntry.objects.filter(pk=entry.pk).exists()


def test_deleting_the_actor_keeps_the_audit_row(entry, owner):
    owner.delete()
    assert AuditEntry.objects.get(pk=entry.pk).actor_label == "owner"
