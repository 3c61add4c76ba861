"""Words in the server's own language (issue 22).

- Each fact carries its server's text search configuration (memory_fact.search_config), copied from
  memory_aisettings.words_config by a BEFORE INSERT trigger, so ORM, bulk, COPY and raw inserts all take it.
- The search vector is built with that configuration, plus what a stemmer alone misses (lk_search_text): Dutch
  and German -t verb forms without the t, and character pairs of scripts written without spaces (Japanese,
  Chinese, Korean, Thai), so 寿司 finds 私は寿司が好きです.
- The functions that call others or read a table keep the schema they were created in (SET search_path FROM
  CURRENT): pg_restore computes the generated column with an empty search_path.
- PostgreSQL 17 and later change the generated column in place (its indexes are rebuilt with it); 15 and 16
  drop and add it, and the two model indexes that carry it are created again (a large server's own word index
  is built again by memory.tasks.maintain_server_indexes).
"""

import django.contrib.postgres.search
from django.db import migrations, models
from django.db.models import F, Func, Value
from django.db.models.functions import Replace

import config.db_fields

FUNCTIONS_SQL = r"""
CREATE OR REPLACE FUNCTION lk_inflections(cfg regconfig, body text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN cfg IN ('dutch'::regconfig, 'german'::regconfig) THEN
        coalesce((SELECT string_agg(m[1], ' ') FROM regexp_matches(coalesce(body, ''), '(\w{3,})t\M', 'g') AS m), '')
    ELSE '' END
$$;
CREATE OR REPLACE FUNCTION lk_grams(body text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(string_agg(substr(run.text, i, 2), ' '), '')
    FROM regexp_matches(coalesce(body, ''),
                        '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\uac00-\ud7af\u0e00-\u0e7f]+',
                        'g') AS m,
         LATERAL (SELECT m[1] AS text) run,
         LATERAL generate_series(1, greatest(char_length(run.text) - 1, 1)) AS i
$$;
CREATE OR REPLACE FUNCTION lk_search_text(cfg regconfig, body text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path FROM CURRENT AS $$
    SELECT coalesce(body, '') || ' ' || lk_inflections(cfg, body) || ' ' || lk_grams(body)
$$;
CREATE OR REPLACE FUNCTION lk_fact_search_config() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    server_config regconfig;
BEGIN
    SELECT words_config::regconfig INTO server_config FROM memory_aisettings WHERE server_id = NEW.server_id;
    IF server_config IS NOT NULL THEN
        NEW.search_config := server_config;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER fact_search_config BEFORE INSERT ON memory_fact
    FOR EACH ROW EXECUTE FUNCTION lk_fact_search_config();
"""
DROP_FUNCTIONS_SQL = """
DROP TRIGGER IF EXISTS fact_search_config ON memory_fact;
DROP FUNCTION IF EXISTS lk_fact_search_config();
DROP FUNCTION IF EXISTS lk_search_text(regconfig, text);
DROP FUNCTION IF EXISTS lk_grams(text);
DROP FUNCTION IF EXISTS lk_inflections(regconfig, text);
"""

VECTOR_SQL = """
    setweight(to_tsvector(search_config, replace(key, '_', ' ')), 'A')
    || setweight(to_tsvector(search_config, lk_search_text(search_config, content)), 'B')
    || setweight(to_tsvector('simple'::regconfig, replace(key, '_', ' ')), 'C')
    || setweight(to_tsvector('simple'::regconfig, content), 'D')
"""
ENGLISH_VECTOR_SQL = """
    setweight(to_tsvector('english'::regconfig, replace(key, '_', ' ')), 'A')
    || setweight(to_tsvector('english'::regconfig, content), 'B')
    || setweight(to_tsvector('simple'::regconfig, replace(key, '_', ' ')), 'C')
    || setweight(to_tsvector('simple'::regconfig, content), 'D')
"""
INDEXES_WITH_VECTOR = ("fact_in_force_newest", "fact_search")


def _set_vector(schema_editor, model, expression_sql: str) -> None:
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if connection.pg_version >= 170000:
            cursor.execute(f"ALTER TABLE memory_fact ALTER COLUMN search_vector SET EXPRESSION AS ({expression_sql})")
            return
        cursor.execute("ALTER TABLE memory_fact DROP COLUMN search_vector")
        cursor.execute(f"ALTER TABLE memory_fact ADD COLUMN search_vector tsvector "
                       f"GENERATED ALWAYS AS ({expression_sql}) STORED")
    for index in model._meta.indexes:
        if index.name in INDEXES_WITH_VECTOR:
            schema_editor.add_index(model, index)


def vector_in_server_language(apps, schema_editor):
    _set_vector(schema_editor, apps.get_model("memory", "Fact"), VECTOR_SQL)


def vector_in_english(apps, schema_editor):
    _set_vector(schema_editor, apps.get_model("memory", "Fact"), ENGLISH_VECTOR_SQL)


class Migration(migrations.Migration):

    dependencies = [("memory", "0029_fact_server_key_by_subject")]

    operations = [
        migrations.AddField(
            model_name="aisettings", name="memory_language",
            field=models.CharField(blank=True, default="", help_text="Empty: detected from the server's facts and messages.",
                                   max_length=8, verbose_name="memory language"),
        ),
        migrations.AddField(model_name="aisettings", name="words_language",
                            field=models.CharField(default="en", editable=False, max_length=8)),
        migrations.AddField(model_name="aisettings", name="words_config",
                            field=models.CharField(default="english", editable=False, max_length=64)),
        migrations.AddField(model_name="aisettings", name="words_rebuild_started_at",
                            field=models.DateTimeField(blank=True, editable=False, null=True)),
        migrations.AddField(
            model_name="fact", name="search_config",
            field=config.db_fields.RegConfigField(db_default="english", default="english", editable=False,
                                                      max_length=64),
        ),
        migrations.RunSQL(FUNCTIONS_SQL, DROP_FUNCTIONS_SQL),
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(vector_in_server_language, vector_in_english)],
            state_operations=[
                migrations.AlterField(
                    model_name="fact", name="search_vector",
                    field=models.GeneratedField(
                        db_persist=True,
                        expression=django.contrib.postgres.search.CombinedSearchVector(
                            django.contrib.postgres.search.CombinedSearchVector(
                                django.contrib.postgres.search.CombinedSearchVector(
                                    django.contrib.postgres.search.SearchVector(
                                        Replace("key", Value("_"), Value(" ")), config=F("search_config"), weight="A"),
                                    "||",
                                    django.contrib.postgres.search.SearchVector(
                                        Func(F("search_config"), F("content"), function="lk_search_text",
                                             output_field=models.TextField()),
                                        config=F("search_config"), weight="B"),
                                    django.contrib.postgres.search.SearchConfig(F("search_config")),
                                ),
                                "||",
                                django.contrib.postgres.search.SearchVector(
                                    Replace("key", Value("_"), Value(" ")), config="simple", weight="C"),
                                django.contrib.postgres.search.SearchConfig(F("search_config")),
                            ),
                            "||",
                            django.contrib.postgres.search.SearchVector("content", config="simple", weight="D"),
                            django.contrib.postgres.search.SearchConfig(F("search_config")),
                        ),
                        output_field=django.contrib.postgres.search.SearchVectorField(),
                    ),
                ),
            ],
        ),
    ]
