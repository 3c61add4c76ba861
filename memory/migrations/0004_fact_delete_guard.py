"""Facts are never removed by accident: the database refuses DELETE on memory_fact unless the
transaction has declared why, which only memory.services does (fact_delete, wipes, Classic retract).
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION memory_fact_guard_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF coalesce(current_setting('lorekeeper.fact_delete', true), '') = '' THEN
        RAISE EXCEPTION 'facts are only deleted through memory.services (delete, wipe, classic retract)'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN OLD;
END;
$$;
CREATE TRIGGER memory_fact_guard_delete
    BEFORE DELETE ON memory_fact
    FOR EACH ROW EXECUTE FUNCTION memory_fact_guard_delete();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS memory_fact_guard_delete ON memory_fact;
DROP FUNCTION IF EXISTS memory_fact_guard_delete();
"""


class Migration(migrations.Migration):
    dependencies = [("memory", "0003_sort_indexes")]
    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
