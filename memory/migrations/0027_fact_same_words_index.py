"""The index behind "reinforce, don't duplicate" (memory.facts.sameness): the facts in force of one subject (server,
key, member) that use the same words, in any order, once case, width, punctuation and spacing are set aside
(memory_word_set: an md5 of the wording's distinct words, sorted). A wording already known, word for word or
reordered, is then one index lookup however many facts share the key (31,000 "server_rules" on the million-fact
bench server), newest first, and pg_trgm's similarity is computed on the few candidates read.

A trigram GIN index on the content was tried first: at a million facts its `%` search read every posting list of
the wording's common trigrams (0.4 to 2 s for one remember of a templated key, 180 MB), and every wording it found
that the rule accepts uses the same words anyway (memory.facts.sameness: nearly the same words must be all the
same words). memory_word_set folds case and splits words as memory.text.statements.normalised does (Unicode's case
folding and letters, through the builtin collation pg_unicode_fast, whatever the database's C ctype): two wordings
equal once normalised always have one word set. A Japanese sentence, written without spaces, is one word."""

from django.db import migrations

FORWARD = [
    """
    CREATE OR REPLACE FUNCTION memory_word_set(content text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT md5(coalesce(string_agg(DISTINCT word, ' ' ORDER BY word), ''))
        FROM regexp_split_to_table(casefold(normalize(content, NFKC) COLLATE pg_unicode_fast), '[^[:alnum:]]+') AS word
        WHERE word <> ''
    $$
    """,
    "SET LOCAL maintenance_work_mem = '512MB'",
    """
    CREATE INDEX IF NOT EXISTS fact_same_words ON memory_fact (
        server_id, key, member_id, memory_word_set(content), changed_at DESC, id DESC
    ) WHERE retracted_at IS NULL
    """,
]
BACKWARD = ["DROP INDEX IF EXISTS fact_same_words", "DROP FUNCTION IF EXISTS memory_word_set(text)"]


class Migration(migrations.Migration):
    dependencies = [("memory", "0026_fact_version_cascade")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
