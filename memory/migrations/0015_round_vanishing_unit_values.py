"""Values saved before confidence, importance and ranking weights were kept to six decimal places
(memory.services.UNIT_DECIMALS) may be as small as 1e-300. The ranking multiplies them with each other and with
a recency factor down to 0.5^1000, and PostgreSQL answers a float product that underflows with an error, not
with 0: every Ranked context call of such a server would fail once the fact aged. Those below half of the
sixth place become 0, as they would round now. Only those rows are written (a scan, no rewrite of the table).

Weights only matter relative to each other (the score divides by their sum), so a server whose three weights
are all that small has them scaled up first, its largest to 1: its ranking stays exactly as it was instead of
ending with no weight at all."""

from django.db import migrations

BELOW_SIXTH_PLACE = "5e-7"
FACT_COLUMNS = ("confidence", "importance")
WEIGHTS = ("weight_recency", "weight_importance", "weight_relevance")


def forward_sql() -> list[str]:
    largest = f"greatest({', '.join(WEIGHTS)})"
    scale = (f"UPDATE memory_aisettings SET {', '.join(f'{weight} = {weight} / {largest}' for weight in WEIGHTS)}"
             f" WHERE {largest} > 0 AND {largest} < {BELOW_SIXTH_PLACE}")
    zero = [f"UPDATE {table} SET {column} = 0 WHERE {column} > 0 AND {column} < {BELOW_SIXTH_PLACE}"
            for table, columns in (("memory_fact", FACT_COLUMNS), ("memory_aisettings", WEIGHTS))
            for column in columns]
    return [scale, *zero]


class Migration(migrations.Migration):
    dependencies = [("memory", "0014_server_indexes_covered_by_composites")]

    operations = [migrations.RunSQL(forward_sql(), reverse_sql=migrations.RunSQL.noop)]
