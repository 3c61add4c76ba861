"""The deadline and the budgets on the AI settings page (issue 24): Reply deadline (5–120 s), Fallback text, and the
monthly token budgets of the reply model and of the consolidation and learning models (empty: no budget). Saved and
audited like every AI setting; a bad value is told beside its field and nothing of the page is saved."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from memory.configuration.selectors import ai_settings_for_server
from memory.configuration.services import ai_settings_update
from memory.models import AISettings
from teams.models import AuditEntry
from tests.conftest import logged_in_client

from .test_view_settings import field_of, settings_form

SENT = {"reply_deadline_seconds": "30", "fallback_text": "Give me a moment and ask again.",
        "reply_token_budget": "250000", "background_token_budget": "80000"}


def settings_url(server) -> str:
    return reverse("memory:settings", args=[server.guild_id])


def stored(server) -> tuple:
    row = AISettings.objects.filter(server=server).first() or ai_settings_for_server(server)
    return row.reply_deadline_seconds, row.fallback_text, row.reply_token_budget, row.background_token_budget


def test_the_defaults_are_a_20_second_deadline_no_fallback_text_and_no_budgets(owner, server):
    assert stored(server) == (20, "", None, None)
    page = logged_in_client(owner).get(settings_url(server)).content.decode()
    assert 'name="reply_deadline_seconds" value="20" min="5" max="120"' in page
    assert "the Discord bot posts the fallback text (or nothing)" in field_of(page, "reply_deadline_seconds")
    assert "Empty: no budget." in field_of(page, "reply_token_budget")
    assert "learning waits for the next month" in field_of(page, "background_token_budget")


def test_the_owner_saves_them_and_the_audit_names_each_old_and_new(owner, server):
    response = logged_in_client(owner).post(settings_url(server), settings_form(**SENT))
    assert response.status_code == 302
    assert stored(server) == (30, "Give me a moment and ask again.", 250_000, 80_000)
    result = AuditEntry.objects.get(action="ai_settings.update").result
    for part in ("Reply deadline (seconds): 20 → 30", "Fallback text: empty → “Give me a moment and ask again.”",
                 "Monthly token budget of the reply model: no budget → 250,000 tokens a month",
                 "Monthly token budget of the consolidation and learning models: no budget → 80,000 tokens a month"):
        assert part in result, part


def test_a_budget_sent_empty_is_no_budget(owner, server):
    ai_settings_update(server=server, actor=owner, reply_token_budget=5000, background_token_budget=7000)
    response = logged_in_client(owner).post(settings_url(server), settings_form(
        **{**SENT, "reply_token_budget": "", "background_token_budget": "0"}))
    assert response.status_code == 302
    assert stored(server)[2:] == (None, None)
    assert "5,000 tokens a month → no budget" in AuditEntry.objects.filter(action="ai_settings.update").latest(
        "pk").result


def test_a_page_that_does_not_send_them_leaves_them_as_they_are(owner, server):
    ai_settings_update(server=server, actor=owner, reply_deadline_seconds=45, reply_token_budget=9000)
    assert logged_in_client(owner).post(settings_url(server), settings_form()).status_code == 302
    assert stored(server) == (45, "", 9000, None)


@pytest.mark.parametrize("field, value, sentence", [
    ("reply_deadline_seconds", "4", "The reply deadline must be a whole number from 5 to 120."),
    ("reply_deadline_seconds", "121", "The reply deadline must be a whole number from 5 to 120."),
    ("reply_deadline_seconds", "", "The reply deadline must be a whole number from 5 to 120."),
    ("reply_deadline_seconds", "soon", "The reply deadline must be a whole number from 5 to 120."),
    ("fallback_text", "x" * 501, "The fallback text must be text of at most 500 characters."),
    ("reply_token_budget", "-5", "The reply model's monthly budget must be a whole number of tokens"),
    ("background_token_budget", "lots", "The background models' monthly budget must be a whole number of tokens"),
])
def test_a_bad_value_is_told_beside_its_field_and_nothing_is_saved(owner, server, field, value, sentence):
    response = logged_in_client(owner).post(settings_url(server), settings_form(**{**SENT, field: value}))
    assert response.status_code == 422
    page = response.content.decode().replace("&#x27;", "'")
    assert sentence in field_of(page, field)
    assert stored(server) == (20, "", None, None)
    assert not AuditEntry.objects.filter(action="ai_settings.update").exists()


def test_the_service_refuses_a_deadline_out_of_range(owner, server):
    with pytest.raises(ValidationError) as refused:
        ai_settings_update(server=server, actor=owner, reply_deadline_seconds=200)
    assert refused.value.message_dict == {"reply_deadline_seconds": [
        "The reply deadline must be a whole number from 5 to 120."]}


def test_a_viewer_reads_them_and_a_moderator_may_not_change_them(member, moderator, owner, server):
    ai_settings_update(server=server, actor=owner, reply_token_budget=250_000, fallback_text="Back soon.")
    page = logged_in_client(member).get(settings_url(server)).content.decode()
    assert "<dt>Reply deadline</dt><dd>20 seconds</dd>" in page
    assert "250,000 tokens" in page and "Back soon." in page
    assert 'name="reply_token_budget"' not in page
    response = logged_in_client(moderator).post(settings_url(server), settings_form(**SENT))
    assert response.status_code in (403, 404)
    assert stored(server) == (20, "Back soon.", 250_000, None)
