"""A member's two lists newest first (issue 25): the (server, member) and (server, learned from) indexes widened by
(changed_at, id), so a member's page reads a page of each list, not all of a busy member's facts; and (server,
created_at) for Memory at a glance's new facts per week."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("memory", "0033_message_lifecycle")]

    operations = [
        migrations.RemoveIndex(model_name="fact", name="fact_server_member"),
        migrations.AddIndex(
            model_name="fact",
            index=models.Index(models.F("server"), models.F("member_id"),
                               models.OrderBy(models.F("changed_at"), descending=True),
                               models.OrderBy(models.F("id"), descending=True), name="fact_server_member"),
        ),
        migrations.RemoveIndex(model_name="fact", name="fact_server_learned_from"),
        migrations.AddIndex(
            model_name="fact",
            index=models.Index(models.F("server"), models.F("learned_from_member_id"),
                               models.OrderBy(models.F("changed_at"), descending=True),
                               models.OrderBy(models.F("id"), descending=True), name="fact_server_learned_from"),
        ),
        migrations.AddIndex(
            model_name="fact",
            index=models.Index(fields=["server", "created_at"], name="fact_server_created"),
        ),
    ]
