"""The audit log is append-only in the database itself."""

from __future__ import annotations

import pytest
from django.core.management import call_command
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


def test_raw_sql_cannot_truncate_the_audit_log(entry):
    with pytest.raises(DATABASE_REFUSAL, match="append-only: TRUNCATE"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE teams_auditentry")
    assert AuditEntry.objects.filter(pk=entry.pk).exists()


def test_a_truncate_of_several_tables_at_once_is_refused_too(entry):
    with pytest.raises(DATABASE_REFUSAL, match="append-only: TRUNCATE"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the test's own pending foreign-key checks
            cursor.execute("TRUNCATE teams_server, teams_auditentry CASCADE")
    assert AuditEntry.objects.filter(pk=entry.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_manage_py_flush_empties_the_audit_log_and_leaves_truncate_refused_afterwards(server, owner):
    """`flush` (what the test runner uses between transactional tests) is the one way through."""
    audit_record(actor=owner, server=server, action="memory.wipe")
    call_command("flush", interactive=False, verbosity=0)
    assert not AuditEntry.objects.exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('lorekeeper.audit_truncate', true)")
        assert cursor.fetchone()[0] in (None, "")
    with pytest.raises(DATABASE_REFUSAL, match="append-only: TRUNCATE"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE teams_auditentry")


def test_deleting_the_actor_keeps_the_audit_row(entry, owner):
    owner.delete()
    assert AuditEntry.objects.get(pk=entry.pk).actor_label == "owner"
