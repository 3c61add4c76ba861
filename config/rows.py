"""Model instances from hand-written SQL, for the bot's hot path.

The bot's context and search calls answer in a few milliseconds of SQL; building the same queries
through the ORM costs more than running them (about a millisecond of Python each). These helpers let
a selector write the SQL itself and still hand back ordinary model instances.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from django.db import connection
from django.db.models import Field, Model
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
        return model.from_db(connection.alias, in_field_order, [by_name[name] for name in in_field_order])
    loaded = model.__new__(model)
    loaded._state = state = ModelState()
    state.adding, state.db = False, connection.alias
    loaded.__dict__.update(zip(attnames, values))
    return loaded


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
        converted = [
            convert(value, None, connection) if convert is not None else value
            for convert, value in zip(self._converters, values, strict=True)
        ]
        return loaded_instance(self.model, self.attnames, converted)

    def insert(self, instance: Model) -> None:
        """INSERT the listed fields of a new instance (list them all, primary key included: it must be
        set or have a Python default) the way save() would convert them, without save()'s query
        building. Sends no signals: use it only for models nothing listens to."""
        values = [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in self.fields]
        table = self.model._meta.db_table
        column_names = ", ".join(f'"{field.column}"' for field in self.fields)
        placeholders = ", ".join(["%s"] * len(self.fields))
        with connection.cursor() as cursor:
            cursor.execute(f'INSERT INTO "{table}" ({column_names}) VALUES ({placeholders})', values)
        instance._state.adding = False
        instance._state.db = connection.alias


def columns(model: type[Model], alias: str, attnames: Iterable[str] | None = None) -> Columns:
    """The model's concrete fields (or only `attnames`) selected from the table aliased `alias`."""
    wanted = set(attnames) if attnames is not None else None
    fields = tuple(field for field in model._meta.concrete_fields if wanted is None or field.attname in wanted)
    return Columns(model=model, fields=fields, sql=", ".join(f'{alias}."{field.column}"' for field in fields),
                   alias=alias)
