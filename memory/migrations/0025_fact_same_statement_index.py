"""The index behind "reinforce, don't duplicate" (memory.facts.sameness): the facts in force of one subject (server,
member, key) that say the same once case, width and punctuation are set aside (an md5 of that wording), or nearly
the same by trigrams (pg_trgm, the content). One GIN index answers both halves of the OR with the subject's equality
(btree_gin), so the check reads a handful of entries however many facts share the key (31,000 "server_rules" on the
million-fact bench server). fastupdate off, as the word index: a pending list would be read by every remember.

The normalised wording is written out here, not imported: memory.facts.sameness.SAME_WORDING_SQL must stay this
expression (tests/memory/facts/test_sameness.py checks that the planner can use the index for it)."""

from django.db import migrations

FORWARD = [
    "SET LOCAL maintenance_work_mem = '512MB'",
    """
    CREATE INDEX IF NOT EXISTS fact_same_statement ON memory_fact USING gin (
        server_id, member_id, key,
        md5(regexp_replace(lower(normalize(content, NFKC)), '[[:space:][:punct:]。、・「」『』‘’“”–—…]+', '', 'g')),
        content gin_trgm_ops
    ) WITH (fastupdate = off) WHERE retracted_at IS NULL
    """,
]
BACKWARD = ["DROP INDEX IF EXISTS fact_same_statement"]


class Migration(migrations.Migration):
    dependencies = [("memory", "0024_fact_version_cascade")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
