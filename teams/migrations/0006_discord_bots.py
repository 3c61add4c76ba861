"""Discord bots (an application run for one team) and when a server's guild was left; both new, so no row is
rewritten and the audit log's triggers (0002, 0004) stay as they are."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("teams", "0005_audit_changes")]
    operations = [
        migrations.AddField(
            model_name="server",
            name="left_at",
            field=models.DateTimeField(blank=True, help_text="When the team's Discord bot left the guild.",
                                       null=True),
        ),
        migrations.CreateModel(
            name="DiscordBot",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("application_id", models.CharField(
                    help_text="The bot's Discord application id (Developer Portal → your app → General Information).",
                    max_length=20, unique=True, verbose_name="application id")),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("team", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="discord_bots",
                                           to="teams.team")),
            ],
            options={
                "verbose_name": "Discord bot",
                "ordering": ["team__name", "application_id"],
                "constraints": [models.CheckConstraint(condition=models.Q(("application_id__regex", "^[0-9]{1,20}$")),
                                                       name="discord_bot_application_id_is_snowflake")],
            },
        ),
    ]
