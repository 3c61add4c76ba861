"""The (server, key) index widened to (server, key, member, newest first): the same-key read of a remember and the
duplicate check's word candidates read a key's facts about one subject without walking the key's other facts."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("memory", "0028_idempotent_requests_per_server")]

    operations = [
        migrations.RemoveIndex(model_name="fact", name="fact_server_key"),
        migrations.AddIndex(
            model_name="fact",
            index=models.Index(models.F("server"), models.F("key"), models.F("member_id"),
                               models.OrderBy(models.F("changed_at"), descending=True),
                               models.OrderBy(models.F("id"), descending=True), name="fact_server_key"),
        ),
    ]
