"""The search vector also keeps words as written (simple config), for prefix search in the panel."""

import django.contrib.postgres.indexes
import django.contrib.postgres.search
import django.db.models.functions.text
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('memory', '0004_fact_delete_guard'),
    ]

    operations = [
        # A generated column cannot be altered in place: drop it (and its index) and add it again.
        migrations.RemoveIndex(model_name="fact", name="fact_search"),
        migrations.RemoveField(model_name="fact", name="search_vector"),
        migrations.AddField(
            model_name="fact",
            name="search_vector",
            field=models.GeneratedField(db_persist=True, expression=django.contrib.postgres.search.CombinedSearchVector(django.contrib.postgres.search.CombinedSearchVector(django.contrib.postgres.search.CombinedSearchVector(django.contrib.postgres.search.SearchVector(django.db.models.functions.text.Replace('key', models.Value('_'), models.Value(' ')), config='english', weight='A'), '||', django.contrib.postgres.search.SearchVector('content', config='english', weight='B'), django.contrib.postgres.search.SearchConfig('english')), '||', django.contrib.postgres.search.SearchVector(django.db.models.functions.text.Replace('key', models.Value('_'), models.Value(' ')), config='simple', weight='C'), django.contrib.postgres.search.SearchConfig('english')), '||', django.contrib.postgres.search.SearchVector('content', config='simple', weight='D'), django.contrib.postgres.search.SearchConfig('english')), output_field=django.contrib.postgres.search.SearchVectorField()),
        ),
        migrations.AddIndex(
            model_name="fact",
            index=django.contrib.postgres.indexes.GinIndex(fields=["server", "search_vector"], name="fact_search"),
        ),
    ]
