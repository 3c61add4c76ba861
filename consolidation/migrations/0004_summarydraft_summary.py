"""Summary drafts name the summary wording they became; drafts already used get it from the rule that found it
until now (memory.selectors._attach_accepted_drafts before this), so history pages keep showing them."""

from datetime import timedelta

import django.db.models.deletion
from django.db import migrations, models

# summary_draft_answer wrote the summary a moment before marking the draft used, in one transaction.
ANSWER_WINDOW = timedelta(minutes=1)


def link_used_drafts(apps, schema_editor):
    """A used draft made the newest summary of its server written within a minute before it was marked used,
    by the person who said yes, in the draft's words (stored stripped)."""
    SummaryDraft = apps.get_model("consolidation", "SummaryDraft")
    Summary = apps.get_model("memory", "Summary")
    used = SummaryDraft.objects.filter(status="used", summary__isnull=True, answered_at__isnull=False)
    for draft in used.iterator():
        written = (Summary.objects.filter(server_id=draft.server_id, created_at__lte=draft.answered_at,
                                          created_at__gte=draft.answered_at - ANSWER_WINDOW)
                   .order_by("-created_at", "-id").first())
        if (written is not None and written.content == draft.content.strip()
                and written.author_user_id == draft.answered_by_id):
            SummaryDraft.objects.filter(pk=draft.pk).update(summary=written)


class Migration(migrations.Migration):

    dependencies = [
        ('consolidation', '0003_round_unjudged_pairs'),
        ('memory', '0016_fact_keys_in_any_language'),
    ]

    operations = [
        migrations.AddField(
            model_name='summarydraft',
            name='summary',
            field=models.ForeignKey(blank=True, help_text='The summary wording this draft became when it was used.',
                                    null=True, on_delete=django.db.models.deletion.SET_NULL,
                                    related_name='source_drafts', to='memory.summary'),
        ),
        # Going back drops the column, so there is nothing to undo.
        migrations.RunPython(link_used_drafts, migrations.RunPython.noop),
    ]
