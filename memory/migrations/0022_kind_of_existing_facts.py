"""Existing facts get a kind (issue 20): a fact about a member is a *profile*, every other one *lore* (the
default), so that under Ranked age stops lowering either — the product's promise that age is no reason to forget."""

from django.db import migrations

FORWARD = "UPDATE memory_fact SET kind = 'profile' WHERE scope = 'member' AND kind = 'lore'"
BACKWARD = "UPDATE memory_fact SET kind = 'lore'"


class Migration(migrations.Migration):

    dependencies = [
        ("memory", "0021_context_knows_people_time_rules"),
    ]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
