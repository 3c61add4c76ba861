"""The audit log refuses TRUNCATE as well as row UPDATE/DELETE (a statement-level trigger, since row
triggers never see a TRUNCATE). The one way through is `manage.py flush` (teams' own flush command),
which empties every table on purpose and sets `lorekeeper.audit_truncate` for its own transaction;
Django's test runner flushes through the same command between transactional tests."""

from django.db import migrations

FORWARD = """
CREATE FUNCTION teams_auditentry_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('lorekeeper.audit_truncate', true) = 'flush' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'the audit log is append-only: % is not allowed on teams_auditentry', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER teams_auditentry_no_truncate
    BEFORE TRUNCATE ON teams_auditentry
    FOR EACH STATEMENT EXECUTE FUNCTION teams_auditentry_refuse_truncate();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS teams_auditentry_no_truncate ON teams_auditentry;
DROP FUNCTION IF EXISTS teams_auditentry_refuse_truncate();
"""


class Migration(migrations.Migration):
    dependencies = [("teams", "0003_review_proposals_permission")]
    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
