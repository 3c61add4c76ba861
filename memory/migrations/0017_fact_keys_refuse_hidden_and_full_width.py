"""Fact keys: also refuse full-width punctuation (［＃１２］：, the prompt's syntax in other letters) and the
invisible characters above the Basic Multilingual Plane (tag characters can spell hidden ASCII text), and the
characters that draw nothing which validate_key drops (memory.keys). Every key stored through validate_key
passes it.

Added NOT VALID, so that adding it does not hold the facts table locked while every row is read (a million rows
on a large deployment, with the bot waiting); migration 0018 validates the rows without blocking reads and
writes."""

from django.contrib.postgres.operations import AddConstraintNotValid
from django.db import migrations, models

KEY_RULE = (
    '^[^\\u0001-\\u002c\\u002f\\u003a-\\u005e\\u0060\\u007b-\\u00a0\\u00ad\\u034f\\u0600-'
    '\\u0605\\u061c\\u06dd\\u070f\\u0890-\\u0891\\u08e2\\u115f-\\u1160\\u1680\\u180e\\u2000-'
    '\\u200f\\u2028-\\u202f\\u205f-\\u2064\\u2066-\\u206f\\u2800\\u3000\\u3164\\ufe00-\\ufe0f'
    '\\ufeff\\uff01-\\uff0c\\uff0f\\uff1a-\\uff20\\uff3b-\\uff3e\\uff40\\uff5b-\\uff65\\uffa0'
    '\\ufff9-\\ufffb\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-'
    '\U0001d17a\U000e0001\U000e0020-\U000e007f\U000e0100-\U000e01ef]{1,64}$'
)


class Migration(migrations.Migration):

    dependencies = [
        ("memory", "0016_fact_keys_in_any_language"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="fact", name="fact_key_format"),
        AddConstraintNotValid(
            model_name="fact",
            constraint=models.CheckConstraint(condition=models.Q(("key__regex", KEY_RULE)), name="fact_key_format"),
        ),
    ]
