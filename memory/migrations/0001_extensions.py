"""PostgreSQL extensions memory relies on: pgvector (Semantic), pg_trgm (similarity), btree_gin (server + words)."""

from django.contrib.postgres.operations import BtreeGinExtension, CreateExtension, TrigramExtension
from django.db import migrations


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [
        CreateExtension("vector"),
        TrigramExtension(),
        BtreeGinExtension(),
    ]
