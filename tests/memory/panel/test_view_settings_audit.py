"""What the audit log keeps of a settings save (the settings page POST): each changed field by the label staff read,
old → new; model endpoints likewise, their API key only as set, changed or removed; a save that changes nothing
records nothing. Only a configure user's save is recorded: everyone else is refused before anything is written."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from memory.configuration.services import model_endpoint_set
from memory.models import ModelPurpose
from teams.models import AuditEntry
from tests.conftest import logged_in_client

from .test_view_settings import ENDPOINT_URL, SECRET, settings_form, settings_url

pytestmark = pytest.mark.django_db

NEW_SECRET = "sk-test-zyxwvutsrqponmlk9876"
HTMX = {"HX-Request": "true"}


def reply(url: str = ENDPOINT_URL, model: str = "llama3", key: str = "", **more) -> dict:
    return {"reply-base_url": url, "reply-model_name": model, "reply-api_key": key, **more}


def entries(action: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=action).order_by("id"))


def everything_audited() -> str:
    """Every column of every audit row, as text: a secret must appear in none of them."""
    return json.dumps([[entry.actor_label, entry.action, entry.target_ids, entry.result, entry.changes]
                       for entry in AuditEntry.objects.all()], ensure_ascii=False)


@pytest.fixture
def reply_endpoint(server, owner):
    return model_endpoint_set(server=server, actor=owner, purpose=ModelPurpose.REPLY, base_url=ENDPOINT_URL,
                              model_name="llama3", api_key=SECRET)


# AI settings ------------------------------------------------------------------------------------------------------


def test_a_save_lists_each_changed_setting_by_its_label_with_its_old_and_new_value(owner, server):
    response = logged_in_client(owner).post(settings_url(server), settings_form(
        max_injected_items="35", weight_recency="2", include_threads="on", forget_me_mode="wipe"))

    assert response.status_code == 302
    [entry] = entries("ai_settings.update")
    assert (entry.actor, entry.count) == (owner, 4)
    assert entry.changes == [
        {"field": "Maximum injected memory items", "old": "20", "new": "35"},
        {"field": "Recency weight", "old": "1", "new": "2"},
        {"field": "Include threads", "old": "off", "new": "on"},
        {"field": "When a member asks to be forgotten", "old": "File a request for staff to act on",
         "new": "Wipe the member's memory at once"},
    ]


def test_a_whole_number_whose_zero_means_something_says_so(owner, server):
    logged_in_client(owner).post(settings_url(server), settings_form(exchange_log_days="0"))
    assert entries("ai_settings.update")[0].changes == [
        {"field": "Keep exchange logs for (days)", "old": "90", "new": "0 (forever)"}]


def test_a_save_that_changes_nothing_records_nothing(owner, server, reply_endpoint):
    before = AuditEntry.objects.count()
    response = logged_in_client(owner).post(settings_url(server), settings_form(**reply()))

    assert response.status_code == 302
    assert AuditEntry.objects.count() == before


# Model endpoints ------------------------------------------------------------------------------------------------


def test_a_new_endpoint_is_recorded_field_by_field_and_its_key_only_as_set(owner, server):
    logged_in_client(owner).post(settings_url(server), settings_form(**reply(key=SECRET)))

    [entry] = entries("model_endpoint.set")
    assert entry.changes == [
        {"field": "Reply model URL", "old": "none", "new": ENDPOINT_URL},
        {"field": "Reply model name", "old": "none", "new": "llama3"},
        {"field": "Reply model API key", "said": "set"},
    ]
    assert SECRET not in everything_audited() and SECRET[-4:] not in everything_audited()


def test_a_new_key_is_recorded_as_changed_and_the_model_name_with_old_and_new(owner, server, reply_endpoint):
    logged_in_client(owner).post(settings_url(server), settings_form(**reply(model="qwen3", key=NEW_SECRET)))

    assert entries("model_endpoint.set")[-1].changes == [
        {"field": "Reply model name", "old": "llama3", "new": "qwen3"},
        {"field": "Reply model API key", "said": "changed"},
    ]
    assert SECRET not in everything_audited() and NEW_SECRET not in everything_audited()


def test_removing_the_stored_key_is_recorded_as_removed(owner, server, reply_endpoint):
    logged_in_client(owner).post(settings_url(server), settings_form(**reply(**{"reply-remove_key": "on"})))
    assert entries("model_endpoint.set")[-1].changes == [{"field": "Reply model API key", "said": "removed"}]


def test_pointing_an_endpoint_elsewhere_records_that_its_key_was_dropped(owner, server, reply_endpoint):
    logged_in_client(owner).post(settings_url(server), settings_form(**reply(url="https://models.example/v1")))
    assert entries("model_endpoint.set")[-1].changes == [
        {"field": "Reply model URL", "old": ENDPOINT_URL, "new": "https://models.example/v1"},
        {"field": "Reply model API key", "said": "removed (a stored key never goes to a new address)"},
    ]


def test_an_endpoint_address_is_recorded_without_its_password_or_query(owner, server):
    url = "https://bot:hunter2-password@models.example:8443/v1?api_key=sk-in-the-query"
    response = logged_in_client(owner).post(settings_url(server), settings_form(**reply(url=url)))

    assert response.status_code == 302
    assert entries("model_endpoint.set")[0].changes[0] == {
        "field": "Reply model URL", "old": "none", "new": "https://…@models.example:8443/v1?…"}
    audited = everything_audited()
    assert "hunter2" not in audited and "sk-in-the-query" not in audited


def test_emptying_an_endpoint_records_what_it_was_and_that_its_key_went_with_it(owner, server, reply_endpoint):
    logged_in_client(owner).post(settings_url(server), settings_form())

    [entry] = entries("model_endpoint.remove")
    assert entry.changes == [
        {"field": "Reply model URL", "old": ENDPOINT_URL, "new": "none"},
        {"field": "Reply model name", "old": "llama3", "new": "none"},
        {"field": "Reply model API key", "said": "removed"},
    ]
    assert SECRET not in everything_audited()


def test_the_audit_page_lists_the_changes_and_never_the_key(owner, server):
    client = logged_in_client(owner)
    client.post(settings_url(server), settings_form(max_injected_items="35", **reply(key=SECRET)))

    page = client.get(reverse("memory:audit", args=[server.guild_id])).content.decode()
    assert "<li>Maximum injected memory items: 20 → 35</li>" in page
    assert "<li>Reply model API key: set</li>" in page
    assert SECRET not in page


# Who may save (and so be recorded) ------------------------------------------------------------------------------


def test_anonymous_is_sent_to_log_in_and_nothing_is_recorded(client, server):
    assert client.post(settings_url(server), settings_form(max_injected_items="35"), headers=HTMX).status_code == 401
    response = client.post(settings_url(server), settings_form(max_injected_items="35"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize(("user", "status"), [("outsider", 404), ("member", 403), ("moderator", 403)])
def test_no_one_without_configure_saves_or_is_recorded(request, server, owner, user, status):
    client = logged_in_client(request.getfixturevalue(user))
    response = client.post(settings_url(server), settings_form(max_injected_items="35", **reply(key=SECRET)))

    assert response.status_code == status
    assert not AuditEntry.objects.filter(action__in=["ai_settings.update", "model_endpoint.set"]).exists()
