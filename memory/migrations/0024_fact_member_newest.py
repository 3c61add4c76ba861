"""Each member's newest facts in force (issue 20): the speaker's share of every context reads the facts about the
speaker and the members mentioned newest first, a few per member; (server, member_id) alone made a member of
42,000 facts (the million-fact bench server has one) sort them all on every message."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("memory", "0023_index_facts_by_rating"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="fact",
            index=models.Index(models.F("server"), models.F("member_id"),
                               models.OrderBy(models.F("changed_at"), descending=True),
                               models.OrderBy(models.F("id"), descending=True),
                               condition=models.Q(("retracted_at__isnull", True), ("scope", "member")),
                               name="fact_member_newest"),
        ),
    ]
