"""Model fields for PostgreSQL types Django has no field for (imported by models and migrations alike)."""

from __future__ import annotations

from django.db import models


class RegConfigField(models.CharField):
    """A PostgreSQL text search configuration (regconfig): a stored column's to_tsvector may name it, which a text
    column cast to regconfig may not (the cast reads the catalog, so it is not immutable)."""

    def db_type(self, connection) -> str:
        return "regconfig"

    def rel_db_type(self, connection) -> str:
        return "regconfig"
