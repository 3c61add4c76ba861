# Ranked context: facts in force by confidence × importance, then newest (memory/ranking/).

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Coalesce


class Migration(migrations.Migration):
    # Built CONCURRENTLY: on a server with a million facts the build takes a while, and the bot keeps
    # writing facts meanwhile (a plain CREATE INDEX would block every write until it finished).
    atomic = False

    dependencies = [
        ('memory', '0007_newest_index_covers_search_vector'),
    ]

    operations = [
        AddIndexConcurrently(
            model_name='fact',
            index=models.Index(
                models.F('server'),
                models.OrderBy(CombinedExpression(models.F('confidence'), '*', Coalesce('importance', models.Value(0.5))),
                               descending=True),
                models.OrderBy(models.F('changed_at'), descending=True),
                models.OrderBy(models.F('id'), descending=True),
                condition=models.Q(('retracted_at__isnull', True)),
                name='fact_in_force_weight',
            ),
        ),
    ]
