"""Model API keys are encrypted at rest, never shown in full, and survive key rotation."""

from __future__ import annotations

import io

import pytest
from cryptography.fernet import Fernet
from django.core.management import call_command
from django.db import connection

from config.crypto import decrypt_secret
from memory.configuration.services import model_endpoint_set
from memory.models import ModelEndpoint, ModelPurpose

SECRET = "sk-test-abcdefghijklmnop1234"


@pytest.fixture
def endpoint(server, owner):
    return model_endpoint_set(
        server=server, actor=owner, purpose=ModelPurpose.REPLY, base_url="http://127.0.0.1:9/v1",
        model_name="llama3", api_key=SECRET,
    )


def _raw_row(endpoint) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT memory_modelendpoint::text FROM memory_modelendpoint WHERE id = %s", [endpoint.pk])
        return cursor.fetchone()[0]


def test_the_key_is_not_stored_in_plaintext(endpoint):
    assert SECRET not in _raw_row(endpoint)
    assert decrypt_secret(ModelEndpoint.objects.get(pk=endpoint.pk).api_key_encrypted) == SECRET


def test_the_masked_key_shows_only_the_last_four_characters(endpoint):
    assert endpoint.masked_key == "••••1234"


def test_saving_without_a_key_keeps_the_stored_key(endpoint, server, owner):
    model_endpoint_set(server=server, actor=owner, purpose=ModelPurpose.REPLY, base_url="http://127.0.0.1:9/v1",
                       model_name="llama3.1", api_key=None)
    stored = ModelEndpoint.objects.get(pk=endpoint.pk)
    assert (stored.model_name, decrypt_secret(stored.api_key_encrypted)) == ("llama3.1", SECRET)


def test_a_key_made_with_the_old_key_is_readable_after_rotation(endpoint, settings):
    old_keys = list(settings.LOREKEEPER_FERNET_KEYS)
    settings.LOREKEEPER_FERNET_KEYS = [Fernet.generate_key().decode(), *old_keys]
    assert decrypt_secret(ModelEndpoint.objects.get(pk=endpoint.pk).api_key_encrypted) == SECRET


def test_rotate_keys_reencrypts_so_the_old_key_can_be_dropped(endpoint, settings):
    new_key = Fernet.generate_key().decode()
    settings.LOREKEEPER_FERNET_KEYS = [new_key, *settings.LOREKEEPER_FERNET_KEYS]
    before = ModelEndpoint.objects.get(pk=endpoint.pk).api_key_encrypted
    call_command("rotate_keys", stdout=io.StringIO())
    after = ModelEndpoint.objects.get(pk=endpoint.pk).api_key_encrypted
    assert after != before
    settings.LOREKEEPER_FERNET_KEYS = [new_key]
    assert decrypt_secret(after) == SECRET


def test_the_key_is_never_rendered_in_the_admin(endpoint, client, django_user_model):
    admin_user = django_user_model.objects.create_superuser("root", "root@example.invalid", "pw-root-123")
    client.force_login(admin_user)
    changelist = client.get("/admin/memory/modelendpoint/").content.decode()
    change = client.get(f"/admin/memory/modelendpoint/{endpoint.pk}/change/").content.decode()
    assert "••••1234" in changelist
    for page in (changelist, change):
        assert SECRET not in page
        assert endpoint.api_key_encrypted not in page


def test_pointing_the_endpoint_elsewhere_drops_the_stored_key(endpoint, server, owner):
    model_endpoint_set(server=server, actor=owner, purpose=ModelPurpose.REPLY, base_url="http://203.0.113.9/v1",
                       model_name="llama3", api_key=None)
    stored = ModelEndpoint.objects.get(pk=endpoint.pk)
    assert (stored.api_key_encrypted, stored.masked_key) == ("", "")


def test_a_new_key_given_with_a_new_address_is_kept(endpoint, server, owner):
    model_endpoint_set(server=server, actor=owner, purpose=ModelPurpose.REPLY, base_url="http://203.0.113.9/v1",
                       model_name="llama3", api_key="sk-new-key-0123456789")
    assert decrypt_secret(ModelEndpoint.objects.get(pk=endpoint.pk).api_key_encrypted) == "sk-new-key-0123456789"
