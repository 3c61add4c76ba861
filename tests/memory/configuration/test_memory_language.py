"""Memory language (issue 22) through ai_settings_update: a chosen language points the words index at it, empty
points it at the language detected now, a change of stemming re-indexes the facts once the save commits, and every
change is one audit row by the label staff read; a value that is no language is refused in one clear sentence."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from memory.configuration.services import ai_settings_update
from memory.configuration.settings_fields import BY_NAME
from memory.models import AISettings, Fact
from memory.text.language import LANGUAGES
from teams.models import AuditEntry
from tests.factories import make_fact

pytestmark = pytest.mark.django_db

DUTCH_FACTS = (
    "Mira spreekt vloeiend Frans en een beetje Japans.",
    "De raid is elke vrijdagavond om negen uur, maar niet in de zomer.",
    "Jonas heeft een kat die Pixel heet en hij is er dol op.",
    "Het thema van deze server is retro gaming met veel oude spellen.",
    "We spelen op zondag ook nog wel eens een potje schaak.",
)
SENTENCE = f"Memory language must be empty (detect it) or one of {', '.join(LANGUAGES)}."


def stored(server) -> AISettings:
    return AISettings.objects.get(server=server)


def words_of(server) -> tuple[str, str, str, bool]:
    ai_settings = stored(server)
    return (ai_settings.memory_language, ai_settings.words_language, ai_settings.words_config,
            ai_settings.words_rebuild_started_at is not None)


def language_rows() -> list[list[dict]]:
    return [entry.changes for entry in AuditEntry.objects.filter(action="ai_settings.update").order_by("id")]


def make_dutch_facts(server) -> None:
    for number, content in enumerate(DUTCH_FACTS):
        make_fact(server, key=f"feit_{number}", content=content)


def test_the_sentence_names_every_language_and_no_empty_choice():
    assert BY_NAME["memory_language"].problem("xx") == SENTENCE
    assert SENTENCE.startswith("Memory language must be empty (detect it) or one of en, ")
    assert ", ," not in SENTENCE and "or one of ," not in SENTENCE


def test_the_audit_log_reads_detect_or_the_language_s_name():
    setting = BY_NAME["memory_language"]
    assert (setting.shown(""), setting.shown("nl"), setting.shown("ja")) == ("Detect", "Dutch", "Japanese")
    assert setting.audit_label == "Memory language"


def test_choosing_dutch_points_the_words_at_dutch_and_rebuilds_once_the_save_commits(
        server, owner, django_capture_on_commit_callbacks):
    make_fact(server, key="talen_mira", content="Mira spreekt vloeiend Frans.")
    with django_capture_on_commit_callbacks() as queued:
        ai_settings_update(server=server, actor=owner, memory_language="nl")

    assert words_of(server) == ("nl", "nl", "dutch", True)
    assert len(queued) == 1  # the re-index, handed to the worker after the commit
    assert language_rows() == [[{"field": "Memory language", "old": "Detect", "new": "Dutch"}]]


def test_the_queued_rebuild_re_indexes_the_facts_and_ends(server, owner, django_capture_on_commit_callbacks):
    fact = make_fact(server, key="talen_mira", content="Mira spreekt vloeiend Frans.")
    with django_capture_on_commit_callbacks(execute=True):
        ai_settings_update(server=server, actor=owner, memory_language="nl")

    assert words_of(server) == ("nl", "nl", "dutch", False)
    assert Fact.objects.get(pk=fact.pk).search_config == "dutch"


def test_empty_points_the_words_at_the_language_the_server_s_facts_are_in(server, owner):
    ai_settings_update(server=server, actor=owner, memory_language="en")
    make_dutch_facts(server)

    ai_settings_update(server=server, actor=owner, memory_language="")

    assert words_of(server) == ("", "nl", "dutch", True)
    assert language_rows()[-1] == [{"field": "Memory language", "old": "English", "new": "Detect"}]


def test_empty_keeps_the_words_as_they_are_when_detection_cannot_tell(server, owner):
    ai_settings_update(server=server, actor=owner, memory_language="de")
    AISettings.objects.filter(server=server).update(words_rebuild_started_at=None)  # as if the rebuild had ended
    make_fact(server, key="theme", content="Retro.")  # far too little to tell a language by

    ai_settings_update(server=server, actor=owner, memory_language="")

    assert words_of(server) == ("", "de", "german", False)


def test_a_language_with_the_same_stemming_switches_without_a_rebuild(server, owner,
                                                                     django_capture_on_commit_callbacks):
    ai_settings_update(server=server, actor=owner, memory_language="ja")
    AISettings.objects.filter(server=server).update(words_rebuild_started_at=None)

    with django_capture_on_commit_callbacks() as queued:
        ai_settings_update(server=server, actor=owner, memory_language="zh")  # both `simple`, by character pairs

    assert words_of(server) == ("zh", "zh", "simple", False)
    assert queued == []
    assert language_rows()[-1] == [{"field": "Memory language", "old": "Japanese", "new": "Chinese"}]


def test_choosing_english_on_an_english_server_saves_the_choice_without_a_rebuild(server, owner):
    ai_settings_update(server=server, actor=owner, memory_language="en")
    assert words_of(server) == ("en", "en", "english", False)
    assert language_rows() == [[{"field": "Memory language", "old": "Detect", "new": "English"}]]


def test_saving_the_same_language_again_records_and_switches_nothing(server, owner):
    ai_settings_update(server=server, actor=owner, memory_language="nl")
    AISettings.objects.filter(server=server).update(words_rebuild_started_at=None)

    ai_settings_update(server=server, actor=owner, memory_language="nl", max_injected_items=20)

    assert words_of(server) == ("nl", "nl", "dutch", False)
    assert len(language_rows()) == 1


def test_a_language_not_given_stays_as_it_is(server, owner):
    ai_settings_update(server=server, actor=owner, memory_language="fr")
    ai_settings_update(server=server, actor=owner, max_injected_items=30, memory_language=None)
    assert words_of(server)[:3] == ("fr", "fr", "french")


@pytest.mark.parametrize("bad", ["xx", "'; drop table memory_fact; --", "EN", "nl ", "dutch", 5, ["nl"]])
def test_a_value_that_is_no_language_is_refused_in_one_clear_sentence_and_changes_nothing(server, owner, bad):
    ai_settings_update(server=server, actor=owner, memory_language="de")
    AISettings.objects.filter(server=server).update(words_rebuild_started_at=None)

    with pytest.raises(ValidationError) as refused:
        ai_settings_update(server=server, actor=owner, memory_language=bad, max_injected_items=40)

    assert refused.value.message_dict == {"memory_language": [SENTENCE]}
    assert words_of(server) == ("de", "de", "german", False)
    assert stored(server).max_injected_items == 20
    assert len(language_rows()) == 1
