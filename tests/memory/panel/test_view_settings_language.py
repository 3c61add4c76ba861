"""Memory language (issue 22) on the AI settings page: configure users choose it (or leave it to detection), the
words index follows and re-indexes in the background, and everyone who may view the page reads the language in use
and, while the facts are re-indexed, that words are matched as written. A bad value is told beside the field."""

from __future__ import annotations

import pytest
from django.urls import reverse

from memory.configuration.services import ai_settings_update
from memory.configuration.settings_fields import BY_NAME
from memory.models import AISettings
from teams.models import AuditEntry
from tests.conftest import logged_in_client
from tests.factories import make_fact

from ..configuration.test_memory_language import DUTCH_FACTS
from .test_view_settings import field_of, settings_form, settings_url

pytestmark = pytest.mark.django_db

REINDEXING_DUTCH = "Re-indexing the facts for Dutch: words are matched as written until it is done."


def words_of(server) -> tuple[str, str, str, bool]:
    ai_settings = AISettings.objects.get(server=server)
    return (ai_settings.memory_language, ai_settings.words_language, ai_settings.words_config,
            ai_settings.words_rebuild_started_at is not None)


def language_audits() -> list[dict]:
    return [change for entry in AuditEntry.objects.filter(action="ai_settings.update").order_by("id")
            for change in entry.changes if change["field"] == "Memory language"]


# Who may see and change it ----------------------------------------------------------------------------------------


def test_anonymous_is_sent_to_log_in_and_nothing_changes(client, server):
    for response in (client.get(settings_url(server)),
                     client.post(settings_url(server), settings_form(memory_language="nl"))):
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not AISettings.objects.filter(server=server, memory_language="nl").exists()


def test_another_team_s_member_gets_404_for_reading_and_for_changing(outsider, server):
    client = logged_in_client(outsider)
    assert client.get(settings_url(server)).status_code == 404
    assert client.post(settings_url(server), settings_form(memory_language="nl")).status_code == 404
    assert not language_audits()


@pytest.mark.parametrize("user", ["member", "moderator"])
def test_a_viewer_reads_the_language_in_use_and_cannot_change_it(request, server, owner, user):
    client = logged_in_client(request.getfixturevalue(user))
    page = client.get(settings_url(server)).content.decode()
    assert "<dt>In use</dt><dd>English (detected)</dd>" in page
    assert 'name="memory_language"' not in page
    assert "Re-indexing the facts" not in page

    assert client.post(settings_url(server), settings_form(memory_language="nl")).status_code == 403
    assert not AISettings.objects.filter(server=server, memory_language="nl").exists()
    assert not language_audits()


def test_a_viewer_reads_the_chosen_language_and_that_the_facts_are_being_re_indexed(member, owner, server):
    ai_settings_update(server=server, actor=owner, memory_language="nl")
    page = logged_in_client(member).get(settings_url(server)).content.decode()
    assert "<dt>In use</dt><dd>Dutch (chosen)</dd>" in page
    assert REINDEXING_DUTCH in page

    AISettings.objects.filter(server=server).update(words_rebuild_started_at=None)  # the worker is done
    page = logged_in_client(member).get(settings_url(server)).content.decode()
    assert "Dutch (chosen)" in page and "Re-indexing the facts" not in page


# The configure user -----------------------------------------------------------------------------------------------


def test_the_owner_sees_the_field_with_every_language_and_what_it_does(owner, server):
    page = logged_in_client(owner).get(settings_url(server)).content.decode()
    block = field_of(page, "memory_language")
    assert '<option value="" selected>Detect from the server&#x27;s memory</option>' in block
    assert '<option value="nl">Dutch</option>' in block and '<option value="ja">Japanese</option>' in block
    assert block.index('value="en"') < block.index('value="ar"')  # English first
    for words in ("“spreken” finds “spreekt”", "Japanese, Chinese, Korean and Thai are matched by pairs of characters",
                  "re-indexes the facts in the background", "words are matched as written"):
        assert words in block, words
    assert "In use now: English (detected)." in page


def test_the_owner_chooses_dutch_and_the_words_follow_with_one_audit_row(owner, server):
    client = logged_in_client(owner)
    response = client.post(settings_url(server), settings_form(memory_language="nl"))

    assert response.status_code == 302
    assert words_of(server) == ("nl", "nl", "dutch", True)
    [entry] = AuditEntry.objects.filter(action="ai_settings.update")
    assert (entry.actor, entry.changes) == (owner, [{"field": "Memory language", "old": "Detect", "new": "Dutch"}])
    page = client.get(response["Location"]).content.decode()
    assert '<option value="nl" selected>Dutch</option>' in page
    assert "In use now: Dutch (chosen)." in page and REINDEXING_DUTCH in page


def test_leaving_it_to_detection_on_a_dutch_server_switches_the_words_to_dutch(owner, server):
    ai_settings_update(server=server, actor=owner, memory_language="en")
    for number, content in enumerate(DUTCH_FACTS):
        make_fact(server, key=f"feit_{number}", content=content)

    response = logged_in_client(owner).post(settings_url(server), settings_form(memory_language=""))

    assert response.status_code == 302
    assert words_of(server) == ("", "nl", "dutch", True)
    assert language_audits()[-1] == {"field": "Memory language", "old": "English", "new": "Detect"}
    page = logged_in_client(owner).get(settings_url(server)).content.decode()
    assert "In use now: Dutch (detected)." in page


@pytest.mark.parametrize("bad", ["xx", "'; drop table memory_fact; --", "NL"])
def test_a_value_that_is_no_language_answers_422_beside_the_field_and_nothing_is_saved(owner, server, bad):
    response = logged_in_client(owner).post(settings_url(server), settings_form(memory_language=bad,
                                                                                max_injected_items="33"))
    page = response.content.decode()
    assert response.status_code == 422
    assert "Nothing was saved" in page
    block = field_of(page, "memory_language")
    sentence = BY_NAME["memory_language"].problem(None)
    assert sentence.startswith("Memory language must be empty (detect it) or one of en, ")
    assert "has-error" in block and sentence in block
    ai_settings = AISettings.objects.filter(server=server).first()
    assert ai_settings is None or (ai_settings.memory_language, ai_settings.words_language,
                                   ai_settings.max_injected_items) == ("", "en", 20)
    assert not AuditEntry.objects.filter(action="ai_settings.update").exists()


def test_a_page_that_does_not_send_it_leaves_it_as_it_is(owner, server):
    ai_settings_update(server=server, actor=owner, memory_language="de")
    response = logged_in_client(owner).post(settings_url(server), settings_form(max_injected_items="21"))
    assert response.status_code == 302
    assert words_of(server)[:3] == ("de", "de", "german")
    assert AISettings.objects.get(server=server).max_injected_items == 21
