"""A new fact, its number and its first version written in one statement (memory.facts.services.fact_create), and
the rows of any model as one INSERT's columns and values, built from the model's fields as Django's own insert does.

Why one statement: on the bot's write path each round trip to PostgreSQL costs more than the work it carries (the
client and the server process hand the core to each other, and on a busy machine each hand-over can wait a
scheduling slice); the counter's upsert, the fact's INSERT and the version's INSERT were three of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import connection, models
from django.db.models.fields import AutoFieldMixin

from memory.models import Fact, FactVersion


def _insert_fields(model: type[models.Model], skip: Sequence[str] = ()) -> list[models.Field]:
    """The columns an INSERT writes: every concrete field but the generated ones, an automatic key and `skip`."""
    return [field for field in model._meta.concrete_fields
            if not field.generated and not isinstance(field, AutoFieldMixin) and field.attname not in skip]


def rows_sql(rows: Sequence[models.Model], skip: Sequence[str] = ()) -> tuple[str, list[str], list]:
    """(columns, one `%s, %s, ...` list per row, params) of `rows` (one model), each value prepared by its field as a
    save would; the lists go in a VALUES or, for one row, a SELECT whose target columns give the types."""
    fields = _insert_fields(type(rows[0]), skip)
    columns = ", ".join(connection.ops.quote_name(field.column) for field in fields)
    params: list = []
    for row in rows:
        params += [field.get_db_prep_save(field.pre_save(row, add=True), connection) for field in fields]
    return columns, [", ".join(["%s"] * len(fields))] * len(rows), params


def rows_unnest_sql(template: models.Model, varying: Mapping[str, Sequence], computed: Mapping[str, str] | None = None,
                    joined: str = "") -> tuple[str, list]:
    """An INSERT of many rows of `template`'s model whose text does not depend on how many there are, and its
    params: each field named in `varying` (by attname) takes its values from an array, one element a row (`v.<its
    column>`), each in `computed` that SQL expression (of `v` and of `joined`, more FROM items), and every other
    field `template`'s value, prepared as a save would. Why: psycopg caches its conversion of a statement's
    placeholders only up to 4,096 bytes and PostgreSQL prepares only a statement seen again; a VALUES list of 20
    rows is neither (about a millisecond of Python on every call, the tail of bench/dedupe.py's remember)."""
    computed = computed or {}
    fields = _insert_fields(type(template))
    by_attname = {field.attname: field for field in fields}
    selected, params = [], []
    for field in fields:
        if field.attname in computed:
            selected.append(computed[field.attname])
        elif field.attname in varying:
            selected.append(f"v.{connection.ops.quote_name(field.column)}")
        else:
            selected.append("%s")
            params.append(field.get_db_prep_save(field.pre_save(template, add=True), connection))
    arrays = []
    for attname, values in varying.items():
        field = by_attname[attname]
        arrays.append(f"%s::{field.db_type(connection)}[]")
        params.append([field.get_db_prep_save(value, connection) for value in values])
    names = ", ".join(connection.ops.quote_name(by_attname[attname].column) for attname in varying)
    columns = ", ".join(connection.ops.quote_name(field.column) for field in fields)
    sources = f"{joined}, " if joined else ""
    sql = (f"INSERT INTO {template._meta.db_table} ({columns}) SELECT {', '.join(selected)} "
           f"FROM {sources}unnest({', '.join(arrays)}) AS v({names})")
    return sql, params


def fact_and_version_insert(fact: Fact, version: FactVersion, also: Sequence[tuple[str, list]] = ()) -> None:
    """Give `fact` the next number of its server (memory_factcounter: the row is locked until commit, so numbers never
    collide), write it and `version` (whose fact is this one); `fact` then has its id and number. `also`: more
    writes of the same statement, each (SQL, params) a data-modifying CTE that may read `written` (the new fact's
    id and number), as the bot's remember writes a new fact's contradiction flags (memory.facts.remembering)."""
    fact_columns, fact_values, fact_params = rows_sql([fact], skip=("number",))
    version_columns, version_values, version_params = rows_sql([version], skip=("fact_id",))
    sql = f"""
        WITH numbered AS (
            INSERT INTO memory_factcounter (server_id, last_number) VALUES (%s, 1)
            ON CONFLICT (server_id) DO UPDATE SET last_number = memory_factcounter.last_number + 1
            RETURNING last_number
        ), written AS (
            INSERT INTO memory_fact ({fact_columns}, number)
            SELECT {fact_values[0]}, numbered.last_number FROM numbered
            RETURNING id, number
        ), versioned AS (
            INSERT INTO memory_factversion ({version_columns}, fact_id)
            SELECT {version_values[0]}, written.id FROM written
        ){"".join(f", also_{index} AS ({more})" for index, (more, _) in enumerate(also))}
        SELECT id, number FROM written
    """
    more_params = [param for _, params in also for param in params]
    with connection.cursor() as cursor:
        cursor.execute(sql, [fact.server_id, *fact_params, *version_params, *more_params])
        fact.pk, fact.number = cursor.fetchone()
    fact._state.adding, fact._state.db = False, connection.alias
