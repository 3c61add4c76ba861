"""Fact vectors go with their fact in the database itself, not only through the ORM: a server wipe
deletes facts with one SQL statement (memory.services.server_wipe), and a vector written by the worker
at that very moment must not make the wipe fail (tests/security/test_concurrency.py)."""

from django.db import migrations

FIND = """
    SELECT conname FROM pg_constraint
    WHERE conrelid = 'memory_factembedding'::regclass AND contype = 'f'
      AND confrelid = 'memory_fact'::regclass
"""

CASCADE = f"""
DO $$
DECLARE name text;
BEGIN
    FOR name IN {FIND} LOOP
        EXECUTE format('ALTER TABLE memory_factembedding DROP CONSTRAINT %I', name);
    END LOOP;
    ALTER TABLE memory_factembedding ADD CONSTRAINT memory_factembedding_fact_cascade
        FOREIGN KEY (fact_id) REFERENCES memory_fact (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;
END $$;
"""

NO_CASCADE = """
ALTER TABLE memory_factembedding DROP CONSTRAINT memory_factembedding_fact_cascade;
ALTER TABLE memory_factembedding ADD CONSTRAINT memory_factembedding_fact_id_fk_memory_fact_id
    FOREIGN KEY (fact_id) REFERENCES memory_fact (id) DEFERRABLE INITIALLY DEFERRED;
"""


class Migration(migrations.Migration):
    dependencies = [("memory", "0010_remember_limit")]

    operations = [migrations.RunSQL(CASCADE, NO_CASCADE)]
