"""GET /api/v1/servers/{guild_id}: token authentication and team scope, as in API.md."""

from __future__ import annotations

import pytest

from teams.models import BotToken
from teams.services import bot_token_revoke

URL = "/api/v1/servers/{}"


def get(client, guild_id, token=None, **extra):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.get(URL.format(guild_id), **headers, **extra)


def assert_json_error(response, status):
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"error", "field"} and body["error"].endswith(".")
    return body


def test_a_valid_token_reaches_its_teams_server(client, server, bot_token):
    response = get(client, server.guild_id, bot_token)
    assert response.status_code == 200
    assert response.json() == {"guild_id": server.guild_id, "name": "Retro Arcade", "memory_type": "classic"}


def test_no_token_answers_401(client, server):
    assert_json_error(get(client, server.guild_id), 401)


@pytest.mark.parametrize("header", ["Bearer", "Bearer lk_wrong", "Token abc", "bearer  "])
def test_a_wrong_or_malformed_token_answers_401(client, server, bot_token, header):
    assert_json_error(client.get(URL.format(server.guild_id), HTTP_AUTHORIZATION=header), 401)


def test_a_revoked_token_answers_401(client, server, bot_token):
    bot_token_revoke(token=BotToken.objects.get(team=server.team))
    assert "revoked" in assert_json_error(get(client, server.guild_id, bot_token), 401)["error"]


def test_another_teams_token_gets_404_like_a_missing_server(client, server, other_server, other_bot_token):
    cross_team = assert_json_error(get(client, server.guild_id, other_bot_token), 404)
    missing = assert_json_error(get(client, "999999999999999999", other_bot_token), 404)
    assert cross_team["error"].replace(server.guild_id, "X") == missing["error"].replace("999999999999999999", "X")


def test_token_use_is_recorded(client, server, bot_token):
    get(client, server.guild_id, bot_token)
    assert BotToken.objects.get(team=server.team).last_used_at is not None


def test_a_wrong_method_answers_405_json(client, server, bot_token):
    response = client.post(URL.format(server.guild_id), HTTP_AUTHORIZATION=f"Bearer {bot_token}")
    assert_json_error(response, 405)
    assert response["Allow"] == "GET"


def test_a_body_over_64_kib_answers_413(client, server, bot_token):
    response = client.generic("GET", URL.format(server.guild_id), data=b"x" * (64 * 1024 + 1),
                              HTTP_AUTHORIZATION=f"Bearer {bot_token}")
    assert_json_error(response, 413)


def test_an_unknown_api_address_answers_json_404(client, bot_token):
    assert_json_error(client.post("/api/v1/nothing/here", HTTP_AUTHORIZATION=f"Bearer {bot_token}"), 404)
    assert_json_error(client.get("/api/v2/servers"), 404)


def test_a_guild_id_that_is_not_a_snowflake_answers_404_and_a_bad_token_still_401(client, server, bot_token):
    """The token is checked before the guild, whatever the guild id looks like."""
    body = assert_json_error(get(client, "retro-arcade", bot_token), 404)
    assert body["error"] == "No server with guild id retro-arcade is reachable with this token."
    bot_token_revoke(token=BotToken.objects.get(team=server.team))
    assert "revoked" in assert_json_error(get(client, "retro-arcade", bot_token), 401)["error"]
