"""The word index takes new facts straight in (fastupdate off) instead of a pending list.

With the pending list, every search scans all facts written since the last vacuum merged it (up to
gin_pending_list_limit, 4 MB): 9,000 pending facts added 11 ms to each search at a million facts.
Changing the storage parameter does not rebuild the index, so the state side swaps the index definition
while the database side only alters it and merges what is pending now.
"""

import django.contrib.postgres.indexes
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("memory", "0011_fact_embedding_cascade")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    sql=["ALTER INDEX fact_search SET (fastupdate = off)",
                         "SELECT gin_clean_pending_list('fact_search'::regclass)"],
                    reverse_sql=["ALTER INDEX fact_search RESET (fastupdate)"],
                ),
            ],
            state_operations=[
                migrations.RemoveIndex(model_name="fact", name="fact_search"),
                migrations.AddIndex(
                    model_name="fact",
                    index=django.contrib.postgres.indexes.GinIndex(
                        fastupdate=False, fields=["server", "search_vector"], name="fact_search"
                    ),
                ),
            ],
        ),
    ]
