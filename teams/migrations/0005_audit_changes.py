"""The audit log says what changed: the fields with their old and new values, and the fact version an edit made.
Adding columns rewrites no row, so the append-only triggers (0002, 0004) stay as they are."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("teams", "0004_audit_refuses_truncate")]
    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="changes",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="fact_version",
            field=models.PositiveIntegerField(
                blank=True, help_text="The version of the fact (the first target) this change made.", null=True),
        ),
    ]
