"""Words in the server's own language: its stemmer (Dutch verb forms, German plurals), character pairs for Japanese,
and a language change re-indexing in the background while the search matches words as written and says so."""

from __future__ import annotations

import pytest
from django.db import connection

from memory.indexing.words_language import (
    memory_languages_detect,
    words_language_set_now,
    words_language_switch,
    words_reindex_run,
)
from memory.models import AISettings, Fact
from memory.retrieval import words as word_search
from memory.retrieval.audience import Reader
from memory.retrieval.fusion import search_words
from tests.factories import make_fact, make_facts_in_bulk

pytestmark = pytest.mark.django_db
ANYWHERE = Reader.any_channel()


def settings_of(server) -> AISettings:
    return AISettings.objects.get_or_create(server=server)[0]


def configs_of(server) -> dict[str, int]:
    """How many of the server's facts carry each text search configuration, as the database stores it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT search_config::text, count(*) FROM memory_fact WHERE server_id = %s GROUP BY 1",
                       [server.pk])
        return dict(cursor.fetchall())


def keys_found(server, query: str) -> list[str]:
    return [fact.key for fact in search_words(server, query, reader=ANYWHERE)]


def test_a_dutch_server_finds_spreekt_with_spreken(server):
    words_language_set_now(server, "nl")
    make_fact(server, key="talen_mira", content="Mira spreekt vloeiend Frans en een beetje Japans.")
    make_fact(server, key="raid_avond", content="De raid is elke vrijdagavond om negen uur.")
    assert keys_found(server, "wie kan er Frans spreken?")[0] == "talen_mira"
    assert keys_found(server, "spreekt iemand Japans")[0] == "talen_mira"


def test_an_english_server_does_not_find_the_dutch_verb_form(server):
    """The -t forms are a Dutch and German rule: an English server's stemmer is left as it is."""
    make_fact(server, key="talen_mira", content="Mira spreekt vloeiend Frans.")
    assert "talen_mira" not in keys_found(server, "spreken")


def test_a_german_server_stems_geburtstage_to_geburtstag(server):
    words_language_set_now(server, "de")
    make_fact(server, key="geburtstag_jonas", content="Jonas hat am 3. Mai Geburtstag.")
    make_fact(server, key="regeln", content="Keine Spoiler im allgemeinen Kanal.")
    assert keys_found(server, "Wann sind die Geburtstage?") == ["geburtstag_jonas"]


def test_a_japanese_server_finds_sushi_inside_a_sentence(server):
    words_language_set_now(server, "ja")
    make_fact(server, key="sushi_yuki", content="私は寿司が好きです。特にサーモン。")
    make_fact(server, key="raid_time", content="レイドは毎週金曜日の夜九時です。")
    assert keys_found(server, "寿司") == ["sushi_yuki"]
    assert keys_found(server, "レイドは何曜日？")[0] == "raid_time"


def test_each_fact_takes_its_server_s_configuration_however_it_is_inserted(server, other_server):
    """The trigger copies the server's configuration on insert: ORM, bulk and raw inserts alike."""
    words_language_set_now(server, "nl")
    orm = make_fact(server, key="orm", content="Hij spreekt.")
    bulk = make_facts_in_bulk(server, 3, key="bulk", content="Zij spreekt ({n}).")
    other = make_fact(other_server, key="orm", content="He speaks.")
    assert configs_of(server) == {"dutch": 4}
    assert configs_of(other_server) == {"english": 1}
    assert Fact.objects.get(pk=orm.pk).search_config == "dutch"
    assert other.server_id == other_server.pk


def test_switching_the_language_rebuilds_in_the_background_while_search_matches_words_as_written(server):
    make_fact(server, key="talen_mira", content="Mira spreekt vloeiend Frans.")
    make_facts_in_bulk(server, 25, key="chatter", content="Iemand zei hallo ({n}).")
    ai_settings = settings_of(server)
    assert words_language_switch(ai_settings, "nl")

    language = word_search.words_language(server.pk)
    assert (language.code, language.config, language.rebuilding) == ("nl", "dutch", True)
    assert "re-indexed" in language.note
    # Meanwhile the words as written match (simple), the stems do not.
    assert keys_found(server, "spreekt") == ["talen_mira"]
    assert keys_found(server, "spreken") == []
    assert configs_of(server) == {"english": 26}

    assert words_reindex_run(server.pk, batch=10) == 26  # three batches
    language = word_search.words_language(server.pk)
    assert not language.rebuilding and language.note == ""
    assert keys_found(server, "spreken") == ["talen_mira"]
    assert words_reindex_run(server.pk) == 0  # idempotent


def test_the_switch_queues_the_reindex_after_commit(server, django_capture_on_commit_callbacks, monkeypatch):
    queued = []
    monkeypatch.setattr("memory.indexing.words_language.enqueue_on_commit",
                        lambda name, *args: queued.append((name, *args)))
    ai_settings = settings_of(server)
    words_language_switch(ai_settings, "de")
    assert queued == [("memory.tasks.reindex_words", server.pk)]
    assert not words_language_switch(ai_settings, "de")  # the same language again: nothing to do
    assert len(queued) == 1


def test_an_undetected_server_takes_the_language_its_memory_is_in(server, other_server):
    for index, sentence in enumerate([
        "Mira spreekt vloeiend Frans en ze woont in Utrecht.", "De raid is elke vrijdag om negen uur.",
        "Niet spoilen in het algemene kanaal, dat is de regel.", "Joris heeft een kat die Pluis heet.",
        "We spelen op zaterdag altijd samen een potje Mario Kart.", "Het toernooi is gewonnen door Sanne.",
        "Wie wil er mee naar de film op zondag?", "Ik heb geen tijd want ik moet werken.",
    ]):
        make_fact(server, key=f"feit_{index}", content=sentence)
    settings_of(server)
    settings_of(other_server)
    AISettings.objects.filter(server=other_server).update(memory_language="en")
    assert memory_languages_detect() >= 1
    ai_settings = AISettings.objects.get(server=server)
    assert (ai_settings.words_language, ai_settings.words_config) == ("nl", "dutch")
    assert ai_settings.words_rebuild_started_at is not None
    assert AISettings.objects.get(server=other_server).words_language == "en"


def test_the_search_statement_reads_the_configuration_of_the_server_it_searches(server, other_server):
    words_language_set_now(server, "nl")
    make_fact(server, key="a", content="Zij spreekt Duits.")
    make_fact(other_server, key="a", content="Zij spreekt Duits.")
    settings_of(other_server)
    assert keys_found(server, "spreken") == ["a"]
    assert keys_found(other_server, "spreken") == []
    with connection.cursor() as cursor:
        cursor.execute("SELECT words_config FROM memory_aisettings WHERE server_id = %s", [other_server.pk])
        assert cursor.fetchone()[0] == "english"
