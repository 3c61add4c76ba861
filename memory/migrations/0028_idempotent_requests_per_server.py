"""Idempotency keys are per server, and the first answer is kept byte for byte with the exchange it is about.

Keys were per team: two servers of one team that happened to use one key would have seen each other's answers (or a
409). An answer now belongs to an exchange (cascading: a wipe that deletes the exchange deletes the answer, which
may hold the member's words) and keeps its body as sent, so a replay is the same bytes. The "in progress" state
goes: a request being answered holds a session advisory lock instead (memory.bot.idempotency), which PostgreSQL
releases if the process dies, so no claim is ever left behind. Nothing wrote the table before this migration."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("memory", "0027_fact_same_words_index"),
    ]

    operations = [
        migrations.RunSQL("DELETE FROM memory_idempotentrequest", migrations.RunSQL.noop),
        migrations.RemoveConstraint(model_name="idempotentrequest", name="idempotent_request_one_per_key"),
        migrations.RemoveConstraint(model_name="idempotentrequest", name="idempotent_request_state_known"),
        migrations.RemoveField(model_name="idempotentrequest", name="team"),
        migrations.RemoveField(model_name="idempotentrequest", name="state"),
        migrations.RemoveField(model_name="idempotentrequest", name="response"),
        migrations.AddField(
            model_name="idempotentrequest",
            name="server",
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name="+",
                                    to="teams.server"),
        ),
        migrations.AddField(
            model_name="idempotentrequest",
            name="exchange",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+",
                                    to="memory.exchange"),
        ),
        migrations.AddField(
            model_name="idempotentrequest",
            name="response_body",
            field=models.TextField(),
        ),
        migrations.AlterField(
            model_name="idempotentrequest",
            name="request_hash",
            field=models.CharField(help_text="SHA-256 of the operation, its target and the body.", max_length=64),
        ),
        migrations.AlterField(
            model_name="idempotentrequest",
            name="status_code",
            field=models.PositiveSmallIntegerField(),
        ),
        migrations.AddConstraint(
            model_name="idempotentrequest",
            constraint=models.UniqueConstraint(fields=("server", "key"), name="idempotent_request_one_per_key"),
        ),
    ]
