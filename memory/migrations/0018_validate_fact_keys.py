"""Check every stored key against the rule 0017 added NOT VALID (VALIDATE CONSTRAINT takes a lock that lets the
table be read and written meanwhile)."""

from django.contrib.postgres.operations import ValidateConstraint
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("memory", "0017_fact_keys_refuse_hidden_and_full_width"),
    ]

    operations = [
        ValidateConstraint(model_name="fact", name="fact_key_format"),
    ]
