"""Errors every API v1 endpoint shares (API.md, Errors): tokens, team scope, malformed and oversized bodies.

Each refused request is JSON matching the schema's Error, and changes nothing in memory.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass

import pytest
from django.test import Client

from teams.models import BotToken
from teams.services import bot_token_revoke

from .helpers import API, KIB_64, MESSAGE, Api, assert_error, assert_valid, component_validator, memory_state


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str
    body: dict | None = None

    def url(self, guild_id: str, exchange_id: object) -> str:
        return self.path.format(guild_id=guild_id, exchange=exchange_id, member_id=MEMBER)

    def __str__(self) -> str:
        return self.name


ENDPOINTS = [
    Endpoint("server", "GET", "/servers/{guild_id}"),
    Endpoint("context", "POST", "/servers/{guild_id}/context", MESSAGE),
    Endpoint("reply", "POST", "/servers/{guild_id}/reply",
             {**MESSAGE, "history": [{"author_name": "Anna", "content": "hi all", "is_bot": False}]}),
    Endpoint("exchange", "GET", "/exchanges/{exchange}"),
    Endpoint("search", "POST", "/exchanges/{exchange}/search", {"query": "retro gaming"}),
    Endpoint("actions", "POST", "/exchanges/{exchange}/actions",
             {"retract": [{"number": 1, "reason": "no longer true"}],
              "remember": [{"key": "paul_birthday", "content": "Paul's birthday is 3 May.", "importance": 0.6}]}),
    Endpoint("channels", "PUT", "/servers/{guild_id}/channels",
             {"channels": [{"id": "111", "name": "general", "public": True, "parent_id": None}]}),
    Endpoint("purge", "POST", "/servers/{guild_id}/purge", {"channel_id": "111"}),
    Endpoint("member-facts", "GET", "/servers/{guild_id}/members/{member_id}/facts"),
    Endpoint("member-forget", "POST", "/servers/{guild_id}/members/{member_id}/forget", {"member_name": "Paul"}),
    Endpoint("messages", "POST", "/servers/{guild_id}/messages",
             {"messages": [{"id": "9001", "channel_id": "111", "author_id": "222", "author_name": "Paul",
                            "content": "I love Tetris.", "sent_at": "2026-05-03T18:30:00Z"}]}),
    Endpoint("messages-deleted", "POST", "/servers/{guild_id}/messages/deleted", {"message_ids": ["9001"]}),
]
# Endpoints that read a JSON body.
POST_ENDPOINTS = [endpoint for endpoint in ENDPOINTS if endpoint.method in ("POST", "PUT")]
MISSING_GUILD = "999999999999999999"
MEMBER = "222"


def send(api: Api, endpoint: Endpoint, exchange, **kwargs):
    """The endpoint's valid request for our exchange (and its server), unless `body` or `raw` replace it."""
    if endpoint.body is not None and "raw" not in kwargs:
        kwargs.setdefault("body", endpoint.body)
    return api.request(endpoint.method, endpoint.url(exchange.server.guild_id, exchange.pk), **kwargs)


# Tokens and team scope --------------------------------------------------------------


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
def test_no_token_answers_401_and_changes_nothing(api, exchange, endpoint):
    before = memory_state()
    body = assert_error(send(api.as_token(None), endpoint, exchange), 401, None)
    assert "Bearer" in body["error"]
    assert memory_state() == before


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
@pytest.mark.parametrize("header", ["Bearer lk_not_a_real_token", "Token abc", "Bearer", "Basic dXNlcjpwdw=="])
def test_a_wrong_token_answers_401_and_changes_nothing(api, exchange, endpoint, header):
    before = memory_state()
    assert_error(send(api.as_token(None), endpoint, exchange, HTTP_AUTHORIZATION=header), 401, None)
    assert memory_state() == before


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
def test_a_revoked_token_answers_401_and_changes_nothing(api, exchange, endpoint):
    bot_token_revoke(token=BotToken.objects.get(team=exchange.server.team))
    before = memory_state()
    body = assert_error(send(api, endpoint, exchange), 401, None)
    assert "revoked" in body["error"]
    assert memory_state() == before


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
def test_another_teams_token_gets_404_worded_like_a_missing_server_or_exchange(
        api, exchange, other_server, other_bot_token, endpoint):
    outsider = api.as_token(other_bot_token)
    before = memory_state()
    ours = assert_error(send(outsider, endpoint, exchange), 404, None)
    missing_id = uuid.uuid4()
    missing_path = endpoint.url(MISSING_GUILD, missing_id)
    missing = assert_error(outsider.request(endpoint.method, missing_path, **(
        {"body": endpoint.body} if endpoint.body is not None else {})), 404, None)
    assert memory_state() == before

    def anonymised(error: str) -> str:
        for known in (exchange.server.guild_id, str(exchange.pk), MISSING_GUILD, str(missing_id)):
            error = error.replace(known, "<id>")
        return error

    assert anonymised(ours["error"]) == anonymised(missing["error"])
    assert exchange.server.name not in ours["error"]


def test_our_own_token_does_not_reach_another_teams_server(api, other_server):
    before = memory_state()
    assert_error(api.post(f"/servers/{other_server.guild_id}/context", MESSAGE), 404, None)
    assert_error(api.get(f"/servers/{other_server.guild_id}"), 404, None)
    assert memory_state() == before


# Bodies ---------------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", POST_ENDPOINTS, ids=str)
@pytest.mark.parametrize("raw", ['{"channel_id": ', "{'query': 'x'}", "query=retro", '{"a": 1}}', b"\xff\xfe\xfa"],
                         ids=["cut", "single-quotes", "form", "trailing", "bytes"])
def test_malformed_json_answers_400_and_changes_nothing(api, exchange, endpoint, raw):
    before = memory_state()
    body = assert_error(send(api, endpoint, exchange, raw=raw), 400, None)
    assert "JSON" in body["error"]
    assert memory_state() == before


@pytest.mark.parametrize("endpoint", POST_ENDPOINTS, ids=str)
@pytest.mark.parametrize("raw", ["[]", '[{"query": "retro"}]', '"retro"', "42", "true", "null", ""],
                         ids=["list", "list-of-object", "string", "number", "bool", "null", "empty"])
def test_a_body_that_is_not_an_object_answers_400_and_changes_nothing(api, exchange, endpoint, raw):
    before = memory_state()
    body = assert_error(send(api, endpoint, exchange, raw=raw), 400, None)
    assert "JSON object" in body["error"]
    assert memory_state() == before


@pytest.mark.parametrize("endpoint", POST_ENDPOINTS, ids=str)
def test_deeply_nested_json_answers_400_not_500(exchange, bot_token, endpoint):
    """Within 64 KiB, but deeper than Python's json module can decode (it raises RecursionError)."""
    api = Api(Client(raise_request_exception=False), bot_token)
    before = memory_state()
    assert_error(send(api, endpoint, exchange, raw="[" * 20000 + "]" * 20000), 400, None)
    assert memory_state() == before


UNKNOWN_FIELDS = [
    ("context", {**MESSAGE, "colour": "red"}, "colour"),
    ("context", {**MESSAGE, "history": []}, "history"),
    ("reply", {**MESSAGE, "temperature": 0.2}, "temperature"),
    ("reply", {**MESSAGE, "history": [{"content": "hi", "role": "user"}]}, "history[0].role"),
    ("search", {"query": "retro", "limit": 3}, "limit"),
    ("actions", {"forget": [{"number": 1}]}, "forget"),
    ("actions", {"retract": [{"number": 1, "why": "moved"}]}, "retract[0].why"),
    ("actions", {"supersede": [{"number": 1, "content": "New.", "new_content": "New."}]}, "supersede[0].new_content"),
    ("actions", {"remember": [{"key": "k", "content": "c", "about_member_id": "222"}]}, "remember[0].about_member_id"),
    ("channels", {"channels": [], "guild": "1"}, "guild"),
    ("channels", {"channels": [{"id": "111", "name": "general", "public": True, "nsfw": False}]}, "channels[0].nsfw"),
    ("purge", {"channel_id": "111", "thread_id": "333"}, "thread_id"),
    ("member-forget", {"member_name": "Paul", "reason": "moving on"}, "reason"),
]


@pytest.mark.parametrize(("name", "body", "field"), UNKNOWN_FIELDS, ids=[field for _, _, field in UNKNOWN_FIELDS])
def test_an_unknown_field_answers_400_naming_it_and_changes_nothing(api, exchange, name, body, field):
    endpoint = next(endpoint for endpoint in POST_ENDPOINTS if endpoint.name == name)
    before = memory_state()
    error = assert_error(send(api, endpoint, exchange, body=body), 400, field)
    assert f"'{field}'" in error["error"] and "allowed" in error["error"]
    assert memory_state() == before


# POST …/messages takes up to 3 MiB (100 messages of 4,000 characters): tests/memory/bot/api/test_messages.py.
@pytest.mark.parametrize("endpoint", [endpoint for endpoint in ENDPOINTS if endpoint.name != "messages"], ids=str)
def test_a_body_over_64_kib_answers_413_and_changes_nothing(api, exchange, endpoint):
    padded = json.dumps({**(endpoint.body or {}), "padding": "x" * KIB_64})
    before = memory_state()
    body = assert_error(send(api, endpoint, exchange, raw=padded), 413, None)
    assert "64 KiB" in body["error"]
    assert memory_state() == before


def test_a_body_over_64_kib_answers_413_even_without_a_token(api, exchange):
    padded = json.dumps({**MESSAGE, "content": "x" * (KIB_64 + 1)})
    assert_error(api.as_token(None).post(f"/servers/{exchange.server.guild_id}/context", raw=padded), 413, None)


def test_a_body_of_exactly_64_kib_is_read_and_judged_on_its_fields(api, exchange):
    body = {**MESSAGE, "content": ""}
    body["content"] = "x" * (KIB_64 - len(json.dumps(body)))
    raw = json.dumps(body)
    assert len(raw.encode()) == KIB_64
    before = memory_state()
    assert_error(api.post(f"/servers/{exchange.server.guild_id}/context", raw=raw), 400, "content")
    assert memory_state() == before


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
def test_a_wrong_method_answers_405_json_with_allow(client, bot_token, exchange, endpoint):
    """405 is not in the schema (no operation for the method), so its body is checked against Error."""
    wrong = "GET" if endpoint.method == "POST" else "DELETE"
    response = client.generic(wrong, API + endpoint.url(exchange.server.guild_id, exchange.pk),
                              HTTP_AUTHORIZATION=f"Bearer {bot_token}")
    assert response.status_code == 405
    assert response["Allow"] == endpoint.method
    assert_valid(component_validator("Error"), response.json(), "405 body")


def test_an_exchange_address_that_is_not_a_uuid_answers_json_404(api):
    assert_error(api.post("/exchanges/not-a-uuid/search", {"query": "retro"}), 404, None)
    assert_error(api.get("/exchanges/12345"), 404, None)
