"""The AI settings of the context (issue 20) on the settings page: the speaker's share, the pinned caps, Maximum
memory characters, a half-life per kind and the bot's persona. Each with its sentence beside it; a bad value is told
there in the settings table's own sentence and nothing of the page is saved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from memory.configuration.selectors import ai_settings_for_server
from memory.configuration.services import ai_settings_update
from memory.configuration.settings_fields import BY_NAME
from memory.models import AISettings
from teams.models import AuditEntry
from tests.conftest import logged_in_client

from .test_view_settings import field_of, settings_form

CONTEXT = {"speaker_share": "0.5", "pinned_max_items": "5", "pinned_max_chars": "900", "max_memory_chars": "3000",
           "half_life_rule_days": "0", "half_life_lore_days": "0", "half_life_profile_days": "0",
           "half_life_preference_days": "365", "half_life_event_days": "7", "bot_name": "Pixel",
           "bot_description": "A cheerful arcade cabinet who loves high scores.",
           "style_sample": "Woo! Another quarter in the machine, friend!"}
DEFAULTS = {"speaker_share": 0.25, "pinned_max_items": 20, "pinned_max_chars": 2000, "max_memory_chars": 6000,
            "half_life_preference_days": 180, "half_life_event_days": 30, "bot_name": "", "bot_description": "",
            "style_sample": ""}


def settings_url(server) -> str:
    return reverse("memory:settings", args=[server.guild_id])


def stored_context(server) -> dict:
    stored = AISettings.objects.get(server=server) if AISettings.objects.filter(server=server).exists() else \
        ai_settings_for_server(server)
    return {name: getattr(stored, name) for name in DEFAULTS}


def test_the_owner_sees_every_context_setting_with_its_value_and_sentence(owner, server):
    page = logged_in_client(owner).get(settings_url(server)).content.decode()
    assert 'name="speaker_share" value="0.25"' in page
    assert 'name="pinned_max_items" value="20" min="0" max="200"' in page
    assert 'name="pinned_max_chars" value="2000" min="0" max="20000"' in page
    assert 'name="max_memory_chars" value="6000" min="500" max="100000"' in page
    assert 'name="half_life_event_days" value="30" min="0" max="36500"' in page
    assert 'name="half_life_rule_days" value="0"' in page
    for sentence in ("facts about the member talking", "the memory page says which do not fit",
                     "The block stops at the first fact that no longer fits", "0: age never lowers it.",
                     "1–80 characters", "At most 2000 characters: what the bot is"):
        assert sentence in page, sentence
    assert 'name="bot_name"' in page and 'name="bot_description"' in page and 'name="style_sample"' in page


def test_the_owner_saves_them_all_and_the_audit_names_each_old_and_new(owner, server):
    response = logged_in_client(owner).post(settings_url(server), settings_form(**CONTEXT))
    assert response.status_code == 302
    assert stored_context(server) == {
        "speaker_share": 0.5, "pinned_max_items": 5, "pinned_max_chars": 900, "max_memory_chars": 3000,
        "half_life_preference_days": 365, "half_life_event_days": 7, "bot_name": "Pixel",
        "bot_description": "A cheerful arcade cabinet who loves high scores.",
        "style_sample": "Woo! Another quarter in the machine, friend!"}
    result = AuditEntry.objects.get(action="ai_settings.update").result
    for part in ("Share of the slots for the speaker: 0.25 → 0.5", "Maximum memory characters: 6000 → 3000",
                 "Half-life of events (days): 30 → 7", "The bot's name: empty → “Pixel”"):
        assert part in result, part


def test_the_persona_can_be_cleared_again(owner, server):
    ai_settings_update(server=server, actor=owner, bot_name="Pixel", bot_description="An arcade cabinet.",
                       style_sample="Woo!")
    response = logged_in_client(owner).post(settings_url(server), settings_form(
        **{**CONTEXT, "bot_name": "", "bot_description": "  ", "style_sample": ""}))
    assert response.status_code == 302
    stored = stored_context(server)
    assert (stored["bot_name"], stored["bot_description"], stored["style_sample"]) == ("", "", "")


@pytest.mark.parametrize("field, value", [
    ("speaker_share", "1.5"), ("speaker_share", "-0.1"), ("speaker_share", "a quarter"), ("speaker_share", ""),
    ("pinned_max_items", "201"), ("pinned_max_items", "2.5"), ("pinned_max_chars", "20001"),
    ("max_memory_chars", "499"), ("max_memory_chars", "100001"), ("max_memory_chars", ""),
    ("half_life_event_days", "-1"), ("half_life_preference_days", "36501"), ("half_life_rule_days", "forever"),
    ("bot_name", "P" * 81), ("bot_description", "d" * 2001), ("style_sample", "s" * 2001),
])
def test_a_bad_value_is_told_beside_its_field_in_the_tables_sentence_and_nothing_is_saved(owner, server, field,
                                                                                         value):
    response = logged_in_client(owner).post(settings_url(server), settings_form(
        **{**CONTEXT, "max_injected_items": "33", field: value}))
    page = response.content.decode()
    assert response.status_code == 422
    assert "Nothing was saved" in page
    block = field_of(page, field)
    sentence = BY_NAME[field].problem(None).replace("'", "&#x27;")
    assert "has-error" in block and sentence in block, block
    assert stored_context(server) == DEFAULTS
    assert ai_settings_for_server(server).max_injected_items == 20
    assert not AuditEntry.objects.filter(action="ai_settings.update").exists()


def test_the_sentences_are_the_settings_tables(owner, server):
    assert BY_NAME["max_memory_chars"].problem(None) == \
        "Maximum memory characters must be a whole number from 500 to 100000."
    assert BY_NAME["bot_name"].problem(None) == "The bot's name must be text of at most 80 characters."


def test_a_context_error_shows_together_with_the_pages_other_errors(owner, server):
    response = logged_in_client(owner).post(settings_url(server), settings_form(
        **{**CONTEXT, "max_injected_items": "many", "max_memory_chars": "10"}))
    page = response.content.decode()
    assert response.status_code == 422
    assert "Maximum memory characters must be a whole number from 500 to 100000." in field_of(page, "max_memory_chars")
    assert "has-error" in field_of(page, "max_injected_items")


def test_a_page_that_does_not_send_them_leaves_them_as_they_are(owner, server):
    ai_settings_update(server=server, actor=owner, max_memory_chars=1234, bot_name="Pixel", speaker_share=0.1)
    response = logged_in_client(owner).post(settings_url(server), settings_form(max_injected_items="21"))
    assert response.status_code == 302
    stored = stored_context(server)
    assert (stored["max_memory_chars"], stored["bot_name"], stored["speaker_share"]) == (1234, "Pixel", 0.1)


def test_a_viewer_reads_them_without_a_form(member, owner, server):
    ai_settings_update(server=server, actor=owner, bot_name="Pixel", style_sample="Woo!\nHigh score!",
                       half_life_event_days=7, pinned_max_items=3)
    page = logged_in_client(member).get(settings_url(server)).content.decode()
    assert "<dt>Name</dt><dd>Pixel</dd>" in page
    assert "Woo!<br>High score!" in page
    assert "events 7" in page and "preferences 180" in page
    assert "at most 3 facts and 2000 characters" in page
    assert "<dt>Maximum memory characters</dt><dd>6000</dd>" in page
    assert 'name="bot_name"' not in page
