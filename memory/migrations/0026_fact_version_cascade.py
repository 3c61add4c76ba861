"""A fact's versions go with it in the database itself, as its vector does (migration 0011): the wipes and the
purge delete facts with one SQL statement (memory.facts.deletes), which the ORM's cascade never sees."""

from django.db import migrations

FIND = """
    SELECT conname FROM pg_constraint
    WHERE conrelid = 'memory_factversion'::regclass AND contype = 'f'
      AND confrelid = 'memory_fact'::regclass
"""

CASCADE = f"""
DO $$
DECLARE name text;
BEGIN
    FOR name IN {FIND} LOOP
        EXECUTE format('ALTER TABLE memory_factversion DROP CONSTRAINT %I', name);
    END LOOP;
    ALTER TABLE memory_factversion ADD CONSTRAINT memory_factversion_fact_cascade
        FOREIGN KEY (fact_id) REFERENCES memory_fact (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;
END $$;
"""

NO_CASCADE = """
ALTER TABLE memory_factversion DROP CONSTRAINT memory_factversion_fact_cascade;
ALTER TABLE memory_factversion ADD CONSTRAINT memory_factversion_fact_id_fk_memory_fact_id
    FOREIGN KEY (fact_id) REFERENCES memory_fact (id) DEFERRABLE INITIALLY DEFERRED;
"""


class Migration(migrations.Migration):
    dependencies = [("memory", "0025_fact_history_reinforcement_idempotency")]

    operations = [migrations.RunSQL(CASCADE, NO_CASCADE)]
