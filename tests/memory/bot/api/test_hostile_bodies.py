"""Bodies and addresses that once made the API answer 500: each is a clear 4xx and changes nothing."""

from __future__ import annotations

import json

import pytest

from memory.models import Exchange, Fact

CONTEXT = {"channel_id": "111", "author_id": "200000000000000011", "author_name": "Paul", "content": "hi"}


def post(client, url, raw: bytes, token):
    return client.generic("POST", url, raw, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}")


@pytest.mark.parametrize("raw", [
    b'{"channel_id": "111", "author_id": "200000000000000011", "content": "hi \\udc00"}',
    b'{"channel_id": "111", "author_id": "2", "content": "x", "number": ' + b"1" * 5000 + b"}",
], ids=["lone surrogate", "5000-digit integer"])
def test_undecodable_json_answers_400_and_records_nothing(client, server, bot_token, raw):
    response = post(client, f"/api/v1/servers/{server.guild_id}/context", raw, bot_token)
    assert response.status_code == 400
    assert "not valid JSON" in response.json()["error"]
    assert not Exchange.objects.exists()


def test_a_guild_id_with_a_nul_character_is_404(client, server, bot_token):
    response = client.get("/api/v1/servers/1%00", HTTP_AUTHORIZATION=f"Bearer {bot_token}")
    assert response.status_code == 404
    assert response.json()["field"] is None


def test_a_surrogate_in_remember_content_changes_nothing(client, server, bot_token):
    opened = post(client, f"/api/v1/servers/{server.guild_id}/context", json.dumps(CONTEXT).encode(), bot_token)
    exchange = opened.json()["exchange"]
    raw = b'{"remember": [{"key": "k", "content": "bad \\ud800 text"}]}'
    response = post(client, f"/api/v1/exchanges/{exchange}/actions", raw, bot_token)
    assert response.status_code == 400
    assert not Fact.objects.exists()
