"""Talk to API v1 the way a bot does, and hold every answer to the OpenAPI schema the app serves.

`Api` is the only way the API tests send requests: each response is checked against the schema of the
operation and status code it came from (an undocumented status fails the test), so no test can forget.
`memory_state()` is the snapshot that proves a refused request changed nothing.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

from django.http import HttpResponse
from django.test import Client
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from memory.bot.api.schema import openapi_schema
from memory.configuration.selectors import ai_settings_for_server
from memory.models import (AISettings, Channel, ChannelMessage, Exchange, Fact, ForgetRequest, LearningRun, Member,
                           Summary)
from teams.models import Server

API = "/api/v1"
SCHEMA_URI = "urn:lorekeeper:api-v1"
SCHEMA = openapi_schema("http://testserver/api/v1")
REGISTRY = Registry().with_resource(SCHEMA_URI, Resource.from_contents(SCHEMA, default_specification=DRAFT202012))
KIB_64 = 64 * 1024

MESSAGE = {"channel_id": "111", "thread_parent_id": None, "author_id": "222", "author_name": "Paul",
           "content": "when is my birthday again?"}


def message(**overrides: Any) -> dict:
    """A valid context body (API.md §1); keyword arguments replace or add fields."""
    return {**MESSAGE, **overrides}


# Schema validation -----------------------------------------------------------------


def _pointer(*segments: str) -> str:
    return "".join("/" + segment.replace("~", "~0").replace("/", "~1") for segment in segments)


def validator_for(pointer: str) -> Draft202012Validator:
    """A validator for the schema at `pointer` in the OpenAPI document; "$ref"s resolve inside the document."""
    return Draft202012Validator({"$ref": f"{SCHEMA_URI}#{pointer}"}, registry=REGISTRY,
                                format_checker=Draft202012Validator.FORMAT_CHECKER)


def component_validator(name: str) -> Draft202012Validator:
    return validator_for(_pointer("components", "schemas", name))


def assert_valid(validator: Draft202012Validator, instance: Any, what: str) -> None:
    errors = sorted(validator.iter_errors(instance), key=lambda error: list(error.absolute_path))
    assert not errors, f"{what} does not match the schema:\n" + "\n".join(
        f"  at {'/'.join(map(str, error.absolute_path)) or '(root)'}: {error.message}" for error in errors
    ) + f"\nbody: {json.dumps(instance)[:2000]}"


def operation_template(path: str) -> str | None:
    """The schema path template ("/servers/{guild_id}/context") that a request path falls under."""
    relative = urlsplit(path).path.removeprefix(API)
    for template in SCHEMA["paths"]:
        pattern = "^" + re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, relative):
            return template
    return None


def assert_conforms(method: str, path: str, response: HttpResponse) -> None:
    """The response is JSON and matches the schema of its operation and status code."""
    assert_answer_conforms(method, path, response.status_code, response["Content-Type"], response.content)


def assert_answer_conforms(method: str, path: str, status_code: int, content_type: str | None,
                           content: bytes) -> None:
    template = operation_template(path)
    assert template is not None, f"{path} is not an operation of the schema"
    operation = SCHEMA["paths"][template].get(method.lower())
    assert operation is not None, f"the schema has no {method} {template}"
    status = str(status_code)
    assert status in operation["responses"], (
        f"{method} {template} answered {status}, which the schema does not document "
        f"(documented: {', '.join(operation['responses'])}); body: {content[:300]!r}"
    )
    assert content_type == "application/json", f"{method} {template} → {status} is {content_type}"
    pointer = _pointer("paths", template, method.lower(), "responses", status, "content", "application/json",
                       "schema")
    assert_valid(validator_for(pointer), json.loads(content), f"{method} {template} → {status}")


# Requests ---------------------------------------------------------------------------

_UNSET = object()


class Api:
    """A bot's view of the API: every request goes through here and every answer is schema-checked."""

    def __init__(self, client: Client, token: str | None):
        self.client, self.token = client, token

    def as_token(self, token: str | None) -> Api:
        return Api(self.client, token)

    def _headers(self, extra: dict) -> dict:
        headers = {"HTTP_AUTHORIZATION": f"Bearer {self.token}"} if self.token else {}
        return {**headers, **extra}

    def request(self, method: str, path: str, body: Any = _UNSET, *, raw: bytes | str | None = None,
                **extra: Any) -> HttpResponse:
        """`body` is sent as JSON; `raw` is sent as it is (malformed JSON, oversized bodies)."""
        data = raw if raw is not None else (b"" if body is _UNSET else json.dumps(body))
        response = self.client.generic(method, API + path, data=data, content_type="application/json",
                                       **self._headers(extra))
        assert_conforms(method, API + path, response)
        return response

    def get(self, path: str, **extra: Any) -> HttpResponse:
        return self.request("GET", path, **extra)

    def post(self, path: str, body: Any = _UNSET, **extra: Any) -> HttpResponse:
        return self.request("POST", path, body, **extra)

    def put(self, path: str, body: Any = _UNSET, **extra: Any) -> HttpResponse:
        return self.request("PUT", path, body, **extra)

    # The calls of API.md, asserting success -------------------------------------

    def context(self, server: Server, **overrides: Any) -> dict:
        response = self.post(f"/servers/{server.guild_id}/context", message(**overrides))
        assert response.status_code == 200, response.content
        return response.json()

    def search(self, exchange: str, query: str) -> dict:
        response = self.post(f"/exchanges/{exchange}/search", {"query": query})
        assert response.status_code == 200, response.content
        return response.json()

    def actions(self, exchange: str, **ops: list) -> list[dict]:
        response = self.post(f"/exchanges/{exchange}/actions", ops)
        assert response.status_code == 200, response.content
        return response.json()["results"]

    def exchange(self, exchange: str) -> dict:
        response = self.get(f"/exchanges/{exchange}")
        assert response.status_code == 200, response.content
        return response.json()

    def report_channels(self, server: Server, channels: list[dict]) -> int:
        response = self.put(f"/servers/{server.guild_id}/channels", {"channels": channels})
        assert response.status_code == 200, response.content
        return response.json()["channels"]

    def purge(self, server: Server, **source: str) -> int:
        response = self.post(f"/servers/{server.guild_id}/purge", source)
        assert response.status_code == 200, response.content
        return response.json()["removed"]

    def send_messages(self, server: Server, messages: list[dict]) -> dict:
        response = self.post(f"/servers/{server.guild_id}/messages", {"messages": messages})
        assert response.status_code == 202, response.content
        return response.json()

    def member_facts(self, server: Server, member_id: str) -> dict:
        response = self.get(f"/servers/{server.guild_id}/members/{member_id}/facts")
        assert response.status_code == 200, response.content
        return response.json()

    def forget(self, server: Server, member_id: str, body: dict | None = None) -> dict:
        response = self.post(f"/servers/{server.guild_id}/members/{member_id}/forget", body or {})
        assert response.status_code == 200, response.content
        return response.json()


def remember_in_new_exchange(api: Api, server: Server, *, member: str, channel: str = MESSAGE["channel_id"],
                             **fields: Any) -> dict:
    """One remember in a new exchange of `member`'s message in `channel`; its result."""
    exchange = api.context(server, author_id=member, channel_id=channel)["exchange"]
    return api.actions(exchange, remember=[fields])[0]


def assert_error(response: HttpResponse, status: int, field: str | None = _UNSET) -> dict:
    """A JSON error of API.md: one sentence and the field (already schema-checked by Api)."""
    assert response.status_code == status, (response.status_code, response.content)
    body = response.json()
    assert set(body) == {"error", "field"}
    assert body["error"].strip() and body["error"].endswith("."), body["error"]
    if field is not _UNSET:
        assert body["field"] == field, body
    return body


# Server state ----------------------------------------------------------------------


def configure(server: Server, **fields: Any) -> AISettings:
    """Set AI settings fields directly (memory type, channels, max injected items) for a test."""
    ai_settings = ai_settings_for_server(server)
    for name, value in fields.items():
        setattr(ai_settings, name, value)
    ai_settings.save()
    return ai_settings


def memory_state() -> dict:
    """Everything a request could change in memory: facts (with their windows, versions and audiences),
    summaries, the recorded exchanges (search and actions included), the channels reported, the
    members' requests to be forgotten and the member directory's names."""
    return {
        "facts": list(Fact.objects.order_by("pk").values_list(
            "pk", "server_id", "number", "key", "content", "scope", "member_id", "confidence", "importance",
            "author_kind", "retracted_at", "retraction_reason", "superseded_by_id", "version", "changed_at",
            "audience", "source_channel_id", "source_thread_id")),
        "channels": list(Channel.objects.order_by("pk").values_list(
            "pk", "server_id", "channel_id", "name", "parent_id", "is_thread", "public", "reported_at")),
        "forget_requests": list(ForgetRequest.objects.order_by("pk").values_list("pk", "member_id", "status")),
        "members": list(Member.objects.order_by("pk").values_list("pk", "member_id", "display_name", "seen_at")),
        "summaries": list(Summary.objects.order_by("pk").values_list("pk", "content", "retracted_at")),
        "exchanges": list(Exchange.objects.order_by("pk").values_list(
            "pk", "searched_at", "search_query", "found_numbers", "actions", "status", "model_calls")),
        "messages": list(ChannelMessage.objects.order_by("pk").values_list("pk", "message_id", "content")),
        "learning_runs": list(LearningRun.objects.order_by("pk").values_list("pk", "status")),
    }
