"""The AI settings page: viewers read the values with keys masked; configure users change them."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from config.crypto import decrypt_secret
from memory.configuration.selectors import ai_settings_for_server
from memory.configuration.services import ChannelRule, ai_settings_update, model_endpoint_set
from memory.models import AISettings, ModelEndpoint, ModelPurpose
from teams.models import AuditEntry
from tests.conftest import logged_in_client

SECRET = "sk-test-abcdefghijklmnop1234"
ENDPOINT_URL = "http://127.0.0.1:11434/v1"


def settings_form(**changes) -> dict:
    """A valid POST of the whole page, every endpoint left empty, with `changes` on top."""
    data = {"max_injected_items": "20", "weight_recency": "1", "weight_importance": "1", "weight_relevance": "1",
            "read_all_channels": "on", "write_all_channels": "on", "read_channel_ids": "", "write_channel_ids": ""}
    for purpose in ModelPurpose.values:
        data.update({f"{purpose}-base_url": "", f"{purpose}-model_name": "", f"{purpose}-api_key": ""})
    data.update(changes)
    return data


def settings_url(server) -> str:
    return reverse("memory:settings", args=[server.guild_id])


@pytest.fixture
def reply_endpoint(server, owner):
    return model_endpoint_set(server=server, actor=owner, purpose=ModelPurpose.REPLY, base_url=ENDPOINT_URL,
                              model_name="llama3", api_key=SECRET)


def test_a_viewer_sees_the_values_and_the_masked_key_but_no_form(member, server, owner, reply_endpoint):
    ai_settings_update(server=server, actor=owner, max_injected_items=35, weight_recency=2.0,
                       weight_importance=1.0, weight_relevance=0.5,
                       read=ChannelRule(all_channels=False, channel_ids=("300000000000000001",)),
                       write=ChannelRule(all_channels=True), include_threads=True)
    response = logged_in_client(member).get(settings_url(server))
    page = response.content.decode()
    assert response.status_code == 200
    assert "<dd>35</dd>" in page
    assert "<dd>300000000000000001</dd>" in page
    assert "recency 2.0, importance 1.0, relevance 0.5" in page
    assert ENDPOINT_URL in page
    assert "<code>••••1234</code>" in page
    assert SECRET not in page
    assert 'name="max_injected_items"' not in page
    assert "Save settings" not in page
    assert "Changing these needs the configure permission on Retro Arcade." in page


def test_the_owner_sees_the_form_with_the_stored_values(owner, server, reply_endpoint):
    page = logged_in_client(owner).get(settings_url(server)).content.decode()
    assert 'name="max_injected_items" value="20"' in page
    assert f'name="reply-base_url" value="{ENDPOINT_URL}"' in page
    assert "<code>••••1234</code>" in page
    assert SECRET not in page


def test_the_owner_saves_valid_values_and_is_sent_back_to_the_page(owner, server):
    client = logged_in_client(owner)
    response = client.post(settings_url(server), settings_form(
        max_injected_items="35", weight_recency="2", weight_relevance="0.5", read_all_channels="",
        read_channel_ids="300000000000000001, 300000000000000002", include_threads="on",
    ))
    assert response.status_code == 302
    assert response["Location"] == settings_url(server)
    stored = ai_settings_for_server(server)
    assert (stored.max_injected_items, stored.weight_recency, stored.weight_relevance) == (35, 2.0, 0.5)
    assert (stored.read_all_channels, stored.read_channel_ids) == (False, ["300000000000000001", "300000000000000002"])
    assert stored.include_threads is True
    assert "AI settings saved." in client.get(response["Location"]).content.decode()


@pytest.mark.parametrize("bad", ["0", "1001"])
def test_max_injected_items_outside_1_to_1000_answers_422_and_saves_nothing(owner, server, bad):
    response = logged_in_client(owner).post(settings_url(server), settings_form(
        max_injected_items=bad, weight_recency="3",
        **{"reply-base_url": ENDPOINT_URL, "reply-model_name": "llama3", "reply-api_key": SECRET},
    ))
    page = response.content.decode()
    assert response.status_code == 422
    field = page[page.rindex('<div class="field', 0, page.index('name="max_injected_items"')):]
    field = field[:field.index("</div>")]
    assert "has-error" in field
    assert "Maximum injected memory items must be a whole number from 1 to 1000." in field
    stored = ai_settings_for_server(server)
    assert (stored.max_injected_items, stored.weight_recency) == (20, 1.0)
    assert not ModelEndpoint.objects.filter(server=server).exists()
    assert not AuditEntry.objects.filter(server=server, action="ai_settings.update").exists()


def test_a_key_typed_into_a_refused_form_is_not_echoed_back(owner, server):
    response = logged_in_client(owner).post(settings_url(server), settings_form(
        max_injected_items="0",
        **{"reply-base_url": ENDPOINT_URL, "reply-model_name": "llama3", "reply-api_key": SECRET},
    ))
    assert response.status_code == 422
    assert SECRET not in response.content.decode()


def test_a_key_entered_is_stored_and_shown_only_as_its_last_four_characters(owner, member, server):
    client = logged_in_client(owner)
    response = client.post(settings_url(server), settings_form(
        **{"reply-base_url": ENDPOINT_URL, "reply-model_name": "llama3", "reply-api_key": SECRET},
    ))
    assert response.status_code == 302
    endpoint = ModelEndpoint.objects.get(server=server, purpose=ModelPurpose.REPLY)
    assert decrypt_secret(endpoint.api_key_encrypted) == SECRET
    for page in (client.get(settings_url(server)).content.decode(),
                 logged_in_client(member).get(settings_url(server)).content.decode()):
        assert "••••1234" in page
        assert SECRET not in page
        assert endpoint.api_key_encrypted not in page


def test_an_empty_key_field_keeps_the_stored_key(owner, server, reply_endpoint):
    response = logged_in_client(owner).post(settings_url(server), settings_form(
        **{"reply-base_url": ENDPOINT_URL, "reply-model_name": "llama3.1", "reply-api_key": ""},
    ))
    assert response.status_code == 302
    stored = ModelEndpoint.objects.get(pk=reply_endpoint.pk)
    assert (stored.model_name, decrypt_secret(stored.api_key_encrypted)) == ("llama3.1", SECRET)


def test_remove_key_forgets_the_stored_key(owner, server, reply_endpoint):
    response = logged_in_client(owner).post(settings_url(server), settings_form(
        **{"reply-base_url": ENDPOINT_URL, "reply-model_name": "llama3", "reply-remove_key": "on"},
    ))
    assert response.status_code == 302
    assert ModelEndpoint.objects.get(pk=reply_endpoint.pk).api_key_encrypted == ""


def test_an_endpoint_without_a_model_name_is_refused_beside_the_field(owner, server):
    response = logged_in_client(owner).post(settings_url(server), settings_form(**{"reply-base_url": ENDPOINT_URL}))
    assert response.status_code == 422
    assert "Name the model this endpoint should use." in response.content.decode()
    assert not ModelEndpoint.objects.filter(server=server).exists()


def test_saving_the_page_with_an_endpoint_left_as_it_was_changes_nothing_about_it(owner, server, reply_endpoint):
    from memory.configuration.services import memory_type_set
    from memory.models import AISettings, EmbeddingRound, MemoryType

    memory_type_set(server=server, actor=owner, memory_type=MemoryType.SEMANTIC)
    EmbeddingRound.objects.filter(server=server).update(status="finished")
    rounds, audit_rows = EmbeddingRound.objects.count(), AuditEntry.objects.filter(action="model_endpoint.set").count()

    response = logged_in_client(owner).post(settings_url(server), settings_form(
        max_injected_items="12", **{"reply-base_url": ENDPOINT_URL, "reply-model_name": "llama3", "reply-api_key": ""}))

    assert response.status_code == 302
    assert AISettings.objects.get(server=server).max_injected_items == 12
    assert EmbeddingRound.objects.count() == rounds  # no catch-up round: searches keep their meaning
    assert AuditEntry.objects.filter(action="model_endpoint.set").count() == audit_rows
    stored = ModelEndpoint.objects.get(pk=reply_endpoint.pk)
    assert decrypt_secret(stored.api_key_encrypted) == SECRET and stored.changed_at == reply_endpoint.changed_at


def test_every_error_of_the_page_shows_at_once_with_a_line_at_the_top(owner, server):
    response = logged_in_client(owner).post(settings_url(server), settings_form(
        max_injected_items="5000", weight_recency="-1", read_all_channels="", read_channel_ids="general",
        **{"reply-base_url": "not a url", "reply-model_name": "llama3"}))

    page = response.content.decode()
    assert response.status_code == 422
    assert "Nothing was saved: correct the fields marked below." in page
    for sentence in ("Maximum injected memory items must be a whole number from 1 to 1000.",
                     "Each ranking weight must be a number from 0 to 10.",
                     "Channel ids are numbers of 1–20 digits; not valid: general.", "Enter a valid URL."):
        assert sentence in page, sentence
    assert ai_settings_for_server(server).max_injected_items == 20


# Members' words and forgetting (issue 19) -----------------------------------------------------------------------


DAYS_SENTENCE = "Keep exchange logs for must be a whole number from 0 to 3650."
MODE_SENTENCE = "Choose request or wipe for when a member asks to be forgotten."


def field_of(page: str, name: str) -> str:
    """The settings field block holding the input(s) named `name`: up to the next field or the end of its card."""
    at = page.index(f'name="{name}"')
    start = page.rindex('<div class="field', 0, at)
    ends = [page.find(marker, at) for marker in ('<div class="field', "</section>")]
    return page[start:min(end for end in ends if end != -1)]


def test_the_owner_sees_both_settings_with_their_values(owner, server):
    page = logged_in_client(owner).get(settings_url(server)).content.decode()
    assert 'name="exchange_log_days" value="90" min="0" max="3650"' in page
    assert "0 keeps them forever" in page
    assert re.search(r'name="forget_me_mode" value="request"[^>]*checked', page)
    assert "Wipe the member&#x27;s memory at once" in page


def test_a_viewer_reads_both_settings(member, server, owner):
    ai_settings_update(server=server, actor=owner, exchange_log_days=0, forget_me_mode="wipe")
    page = logged_in_client(member).get(settings_url(server)).content.decode()
    assert "<dt>Keep exchange logs for</dt><dd>forever</dd>" in page
    assert "<dt>When a member asks to be forgotten</dt><dd>Wipe the member&#x27;s memory at once</dd>" in page


def test_saving_both_settings_audits_old_and_new(owner, server):
    response = logged_in_client(owner).post(settings_url(server), settings_form(exchange_log_days="30",
                                                                                forget_me_mode="wipe"))
    assert response.status_code == 302
    stored = ai_settings_for_server(server)
    assert (stored.exchange_log_days, stored.forget_me_mode) == (30, "wipe")
    result = AuditEntry.objects.get(action="ai_settings.update").result
    assert "Keep exchange logs for (days): 90 → 30" in result
    assert ("When a member asks to be forgotten: File a request for staff to act on → Wipe the member's memory at "
            "once") in result


def test_keeping_logs_forever_is_zero_days(owner, server):
    logged_in_client(owner).post(settings_url(server), settings_form(exchange_log_days="0", forget_me_mode="request"))
    assert ai_settings_for_server(server).exchange_log_days == 0


@pytest.mark.parametrize("changes, field, sentence", [
    ({"exchange_log_days": "3651"}, "exchange_log_days", DAYS_SENTENCE),
    ({"exchange_log_days": "-1"}, "exchange_log_days", DAYS_SENTENCE),
    ({"exchange_log_days": "ninety"}, "exchange_log_days", DAYS_SENTENCE),
    ({"exchange_log_days": ""}, "exchange_log_days", DAYS_SENTENCE),
    ({"forget_me_mode": "ignore"}, "forget_me_mode", MODE_SENTENCE),
    ({"forget_me_mode": ""}, "forget_me_mode", MODE_SENTENCE),
], ids=["over 3650", "negative", "not a number", "empty days", "unknown mode", "empty mode"])
def test_a_bad_value_is_told_beside_its_field_and_nothing_is_saved(owner, server, changes, field, sentence):
    data = settings_form(exchange_log_days="30", forget_me_mode="wipe", max_injected_items="33")
    data.update(changes)
    response = logged_in_client(owner).post(settings_url(server), data)
    page = response.content.decode()
    assert response.status_code == 422
    block = field_of(page, field)
    assert "has-error" in block and sentence in block
    stored = ai_settings_for_server(server)
    assert (stored.exchange_log_days, stored.forget_me_mode, stored.max_injected_items) == (90, "request", 20)
    assert not AuditEntry.objects.filter(action="ai_settings.update").exists()


def test_a_page_that_does_not_send_them_leaves_them_as_they_are(owner, server):
    ai_settings_update(server=server, actor=owner, exchange_log_days=7, forget_me_mode="wipe")
    response = logged_in_client(owner).post(settings_url(server), settings_form(max_injected_items="21"))
    assert response.status_code == 302
    stored = AISettings.objects.get(server=server)
    assert (stored.exchange_log_days, stored.forget_me_mode, stored.max_injected_items) == (7, "wipe", 21)
