"""The audit log is append-only in the database itself: UPDATE and DELETE raise an error."""

from django.db import migrations

FORWARD = """
CREATE FUNCTION teams_auditentry_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only: % is not allowed on teams_auditentry', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER teams_auditentry_append_only
    BEFORE UPDATE OR DELETE ON teams_auditentry
    FOR EACH ROW EXECUTE FUNCTION teams_auditentry_refuse_change();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS teams_auditentry_append_only ON teams_auditentry;
DROP FUNCTION IF EXISTS teams_auditentry_refuse_change();
"""


class Migration(migrations.Migration):
    dependencies = [("teams", "0001_initial")]
    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
