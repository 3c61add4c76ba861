from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('consolidation', '0002_proposal_wording_help'),
    ]

    operations = [
        migrations.AddField(
            model_name='consolidationround',
            name='unjudged_pairs',
            field=models.PositiveIntegerField(default=0, help_text="Proposals of pairs only the vectors found that no "
                                              "model checked (the block says so)."),
        ),
    ]
