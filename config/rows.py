"""Model instances from hand-written SQL, for the bot's hot path.

The bot's context and search calls answer in a few milliseconds of SQL; building the same queries
through the ORM costs more than running them (about a millisecond of Python each). These helpers let
a selector write the SQL itself and still hand back ordinary model instances.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from django.contrib.postgres.fields import ArrayField
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import (CharField, DateTimeField, Field, FloatField, ForeignKey, IntegerField, JSONField,
                              Model, TextField, UUIDField)
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init


def loaded_instance(model: type[Model], attnames: Sequence[str], values: Sequence) -> Model:
    """Model.from_db(attnames, values) for values already converted, without Model.__init__'s per-field
    loop (a third of the CPU of loading a context's facts): the values in the instance dict, the state
    'from the database', every other field deferred. Models with init signals go through from_db (which
    wants the values in the model's field order, whatever the order of `attnames`)."""
    if pre_init.has_listeners(model) or post_init.has_listeners(model):
        by_name = dict(zip(attnames, values, strict=True))
        in_field_order = [field.attname for field in model._meta.concrete_fields if field.attname in by_name]
        return model.from_db(DEFAULT_DB_ALIAS, in_field_order, [by_name[name] for name in in_field_order])
    loaded = model.__new__(model)
    loaded._state = state = ModelState()
    state.adding, state.db = False, DEFAULT_DB_ALIAS  # `connection` is the default database's
    loaded.__dict__.update(zip(attnames, values))
    return loaded


def new_instance(model: type[Model], **values) -> Model:
    """model(**values) for a new row on the bot's hot path, without Model.__init__'s per-field work: each
    concrete field not given takes its default, a related object given by its field's name is kept as
    the ORM keeps it. Models with init signals go through Model.__init__."""
    if pre_init.has_listeners(model) or post_init.has_listeners(model):
        return model(**values)
    instance = model.__new__(model)
    instance._state = ModelState()  # adding, no database yet: a new row
    attributes = instance.__dict__
    for field in model._meta.concrete_fields:
        if field.is_relation and field.name in values:
            related = values.pop(field.name)
            attributes[field.attname] = None if related is None else getattr(related, field.target_field.attname)
            instance._state.fields_cache[field.name] = related
        elif field.attname in values:
            attributes[field.attname] = values.pop(field.attname)
        else:
            attributes[field.attname] = field.get_default()
    if values:
        raise TypeError(f"{model.__name__} has no field {', '.join(values)}.")
    return instance


@dataclass(frozen=True)
class Columns:
    """Some concrete fields of a model, as a SQL select list and as attribute names."""

    model: type[Model]
    fields: tuple[Field, ...]
    sql: str
    alias: str = ""  # the table alias `sql` selects from

    @cached_property
    def attnames(self) -> tuple[str, ...]:
        return tuple(field.attname for field in self.fields)

    @cached_property
    def _converters(self) -> tuple:
        return tuple(getattr(field, "from_db_value", None) for field in self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def instance(self, values: Sequence) -> Model:
        """An instance as the ORM would load it: values go through each field's from_db_value (JSON
        arrives as text), the state says 'from the database' (save() updates), unlisted fields are
        deferred and load on first access."""
        database = connections[DEFAULT_DB_ALIAS]  # once: each use of the `connection` proxy costs a lookup
        converted = [
            convert(value, None, database) if convert is not None else value
            for convert, value in zip(self._converters, values, strict=True)
        ]
        return loaded_instance(self.model, self.attnames, converted)

    @cached_property
    def json_array_sql(self) -> str:
        """The listed columns of one row as a JSON array, for rows read inside another query's row."""
        return f"json_build_array({self.sql})"

    @cached_property
    def _json_converters(self) -> tuple:
        return tuple(_from_json_converter(field) for field in self.fields)

    def instances_from_json(self, arrays: Sequence[Sequence]) -> list[Model]:
        """Instances from rows read as `json_array_sql` (psycopg hands JSON over already parsed)."""
        return [
            loaded_instance(self.model, self.attnames, [
                convert(value) if convert is not None and value is not None else value
                for convert, value in zip(self._json_converters, array, strict=True)
            ])
            for array in arrays
        ]

    def insert(self, instance: Model, *, with_sql: str = "", with_params: Sequence = ()) -> None:
        """INSERT the listed fields of a new instance (list them all, primary key included: it must be
        set or have a Python default) the way save() would convert them, without save()'s query
        building. Sends no signals: use it only for models nothing listens to. `with_sql` (and its
        positional `with_params`) is a WITH clause run in the same statement, e.g. another table's upsert."""
        database = connections[DEFAULT_DB_ALIAS]
        values = [_db_value(field, field.pre_save(instance, True), database) for field in self.fields]
        table = self.model._meta.db_table
        column_names = ", ".join(f'"{field.column}"' for field in self.fields)
        placeholders = ", ".join(["%s"] * len(self.fields))
        with connection.cursor() as cursor:
            cursor.execute(f'{with_sql} INSERT INTO "{table}" ({column_names}) VALUES ({placeholders})'.lstrip(),
                           [*with_params, *values])
        instance._state.adding = False
        instance._state.db = DEFAULT_DB_ALIAS


def _from_json_converter(field: Field):
    """How a value of this field comes back from PostgreSQL's JSON as the ORM would load it: timestamps are
    ISO text, a float that happens to be whole is a JSON integer. Other kinds are refused rather than
    loaded wrong."""
    if isinstance(field, DateTimeField):
        return datetime.fromisoformat
    if isinstance(field, FloatField):
        return float
    plain_kinds = (IntegerField, CharField, TextField, ForeignKey)
    if isinstance(field, plain_kinds) and not getattr(field, "from_db_value", None):
        return None
    raise TypeError(f"{field} cannot be loaded from JSON by config.rows.")


def _db_value(field: Field, value, database):
    """field.get_db_prep_save(value) for an INSERT, with three kinds sent as PostgreSQL's text input
    instead, which the column parses on the way in: psycopg dumps a UUID, a list and a JSON value in
    Python, and Django converts each item of an array through its base field (an exchange's 20 shown
    numbers cost 155 µs that way). An exchange INSERT's parameters: about 100 µs less per call."""
    if value is None:
        return field.get_db_prep_save(value, database)
    if isinstance(field, UUIDField) and isinstance(value, uuid.UUID):
        return str(value)
    if (
        isinstance(field, ArrayField)
        and isinstance(field.base_field, IntegerField)
        and type(value) is list
        and all(type(item) is int for item in value)
    ):
        return "{" + ",".join(map(str, value)) + "}"
    if isinstance(field, JSONField):
        return json.dumps(value, cls=field.encoder)
    return field.get_db_prep_save(value, database)


_QUALIFIED_QUOTED = re.compile(r'\b([a-z_][a-z0-9_]*)\."([a-z_][a-z0-9_]*)"')
_LINE_COMMENT = re.compile(r"--[^\n]*")


def with_server_literal(sql: str, server_id: int) -> str:
    """`sql` with its %(server)s written in as the server's id. A prepared statement's one generic plan is made for
    the average server (500 facts on a database of 10,000 servers, bench/many.py); a statement whose best plan
    depends on the server's size is planned, and prepared, for each server this way."""
    return sql.replace("%(server)s", str(int(server_id)))


def compact_sql(sql: str) -> str:
    """`sql` without its -- comments, its runs of whitespace made one space and `alias."column"` written
    `alias.column` (after a dot PostgreSQL takes any lowercase name, keywords too), for SQL whose string literals
    hold none of these. Why: psycopg converts a statement's placeholders once and caches the result only for SQL
    of at most 4,096 bytes (psycopg._queries.MAX_CACHED_STATEMENT_LENGTH); the context call's SELECT, 4,338 bytes
    as written, and the ranking's walk with the context's columns, 4,550, were split anew on every message
    (0.1-0.2 ms of Python each)."""
    return _QUALIFIED_QUOTED.sub(r"\1.\2", " ".join(_LINE_COMMENT.sub("", sql).split()))


def columns(model: type[Model], alias: str, attnames: Iterable[str] | None = None) -> Columns:
    """The model's concrete fields (or only `attnames`) selected from the table aliased `alias`."""
    wanted = set(attnames) if attnames is not None else None
    fields = tuple(field for field in model._meta.concrete_fields if wanted is None or field.attname in wanted)
    return Columns(model=model, fields=fields, sql=", ".join(f'{alias}."{field.column}"' for field in fields),
                   alias=alias)
