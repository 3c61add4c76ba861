"""Drop the single-column server_id indexes of memory_fact and memory_exchange: other indexes of each
table start with server_id (memory_fact's unique (server_id, number) among them; exchange_server_newest),
so they only cost writes (and planning time on every fact read).

Django's own AlterField would also drop and re-add the foreign key, which validates every row under a
lock that blocks writes (a minute on a table of millions of facts); the constraint does not change, so
only the indexes go, concurrently."""

import django.db.models.deletion
from django.db import migrations, models

INDEXES = {  # the names Django gave them (deterministic: table, column and a hash)
    "memory_exchange_server_id_9fdb064b": "memory_exchange",
    "memory_fact_server_id_f21c51ff": "memory_fact",
}


class Migration(migrations.Migration):
    atomic = False  # DROP INDEX CONCURRENTLY cannot run in a transaction

    dependencies = [
        ('memory', '0013_exchange_relevance_mode'),
        ('teams', '0003_review_proposals_permission'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='exchange',
                    name='server',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                            related_name='exchanges', to='teams.server'),
                ),
                migrations.AlterField(
                    model_name='fact',
                    name='server',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                            related_name='facts', to='teams.server'),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX CONCURRENTLY IF EXISTS "{index}"',
                    reverse_sql=f'CREATE INDEX CONCURRENTLY IF NOT EXISTS "{index}" ON "{table}" ("server_id")',
                )
                for index, table in INDEXES.items()
            ],
        ),
    ]
