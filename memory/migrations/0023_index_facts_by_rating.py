"""The rating index of the Ranked context (issue 20): facts in force by kind, confidence and importance, newest
first among equals, so that the kinds that never age give their best facts without a walk
(memory/retrieval/ranking/)."""

import django.db.models.functions.comparison
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('memory', '0022_kind_of_existing_facts'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='fact',
            index=models.Index(models.F('server'), models.F('kind'), models.OrderBy(models.F('confidence'), descending=True), models.OrderBy(django.db.models.functions.comparison.Coalesce('importance', models.Value(0.5)), descending=True), models.OrderBy(models.F('changed_at'), descending=True), models.OrderBy(models.F('id'), descending=True), condition=models.Q(('retracted_at__isnull', True)), include=('audience', 'source_channel_id'), name='fact_in_force_by_rating'),
        ),
    ]
