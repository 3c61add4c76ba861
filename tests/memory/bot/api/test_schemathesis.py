"""Schemathesis fuzzes API v1 from the schema it serves, in process through the Django WSGI app.

For every operation it sends schema-valid and schema-invalid requests with a valid bot token, to the
real server / exchange and to random ids: no answer may be a 5xx (except /reply's documented 503, as
no reply model is configured), and every answer must be JSON that matches the schema for its status.
A schema-valid request to the real server or exchange must also be accepted (2xx): what the code refuses,
the schema says (whitespace-only text, NUL, a member fact without a member), so a bot that validates
against the schema is never surprised by a 400. Every 2xx is sent again without the token and with a
wrong one (schemathesis' ignored_auth check), which must be refused. 25 examples per case in `make test`;
SCHEMATHESIS_EXAMPLES=300 digs deeper (how the underflow of 1e-300 confidences was found).
"""

from __future__ import annotations

import os
import uuid
from urllib.parse import urlsplit

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings

from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.facts.services import FactAuthor
from memory.facts.summary import summary_set
from memory.models import MemoryType
from tests.factories import make_fact

from .helpers import SCHEMA, assert_answer_conforms, configure

MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "25"))
OPERATIONS = [(path, method.upper(), operation["operationId"])
              for path, operations in SCHEMA["paths"].items() for method, operation in operations.items()]
# ignored_auth: after a 2xx with the bot token, the same request is sent again without it and with an
# invalid one, and must then be refused (every operation but the schema itself declares bearerAuth).
SCHEMA_CHECKS = [schemathesis.checks.status_code_conformance, schemathesis.checks.content_type_conformance,
                 schemathesis.checks.response_schema_conformance, schemathesis.checks.ignored_auth]


@pytest.fixture
def same_connection_for_wsgi_requests():
    """The WSGI handler closes the database connection around each request (CONN_MAX_AGE=0), which would
    end the test's transaction; Django's own test client switches this off the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def open_exchange(server):
    return exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id="222",
                                                                content="when is my birthday?")).exchange


@pytest.fixture
def fuzzed_server(server):
    """An archive server with a summary, facts in both scopes and one open exchange."""
    configure(server, memory_type=MemoryType.ARCHIVE, max_injected_items=2)
    summary_set(server=server, content="Retro gaming server.", author=FactAuthor.bot("222"))
    make_fact(server, key="server_theme", content="This server is about retro gaming.")
    make_fact(server, key="paul_birthday", content="Paul's birthday is 3 May.", scope="member", member_id="222")
    make_fact(server, key="support_channel", content="Support happens in #help.")
    return server, open_exchange(server)


def _names_an_exchange_elsewhere(operation_id: str, body, exchange) -> bool:
    """A purge of a generated exchange id: a valid body, but no exchange of this server (404, as documented)."""
    return (operation_id == "purgeBySource" and isinstance(body, dict) and "exchange" in body
            and str(body["exchange"]).lower() != str(exchange.pk))


@pytest.fixture
def api_schema(db, same_connection_for_wsgi_requests):
    return schemathesis.openapi.from_wsgi("/api/v1/schema.json", WSGIHandler())


@pytest.mark.parametrize(("path", "method", "operation_id"), OPERATIONS, ids=[op_id for _, _, op_id in OPERATIONS])
@pytest.mark.parametrize("mode", [schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE],
                         ids=["valid", "invalid"])
@pytest.mark.parametrize("ids", ["real", "random"])
def test_schemathesis_finds_no_server_error_and_every_answer_matches_the_schema(
        api_schema, fuzzed_server, bot_token, path, method, operation_id, mode, ids):
    server, exchange = fuzzed_server
    operation = api_schema[path][method]
    real_ids = {"guild_id": server.guild_id, "exchange": str(exchange.pk), "member_id": "222"}
    path_parameters = {name: value for name, value in real_ids.items() if ids == "real" and f"{{{name}}}" in path}
    strategy = operation.as_strategy(generation_mode=mode, path_parameters=path_parameters)
    headers = {"Authorization": f"Bearer {bot_token}"}
    allowed_5xx = {503} if operation_id == "reply" else set()
    # 413: the 64 KiB body limit, which JSON Schema cannot say (50 remembers of 1,000 characters exceed it).
    must_accept = mode == schemathesis.GenerationMode.POSITIVE and ids == "real"

    @given(case=strategy)
    @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def fuzz(case):
        if ids == "real" and "{exchange}" in path:
            # A fresh exchange each time, so that not only the first example gets past its one search.
            case.path_parameters = {**case.path_parameters, "exchange": str(open_exchange(server).pk)}
        if case.headers and "Idempotency-Key" in case.headers and mode == schemathesis.GenerationMode.POSITIVE:
            # Hypothesis sends a few keys again and again, each time with another body: a new request must have a
            # new key (else 409, test_idempotency.py), so each example gets one of its own, as a bot would.
            case.headers["Idempotency-Key"] = uuid.uuid4().hex
        response = case.call(headers=headers)
        assert response.status_code < 500 or response.status_code in allowed_5xx, (
            f"{method} {case.formatted_path} answered {response.status_code} for body {case.body!r}")
        if must_accept and not _names_an_exchange_elsewhere(operation_id, case.body, exchange):
            assert response.status_code < 300 or response.status_code in allowed_5xx | {413}, (
                f"{method} {case.formatted_path} refused a schema-valid body {case.body!r}: "
                f"{response.status_code} {response.content[:300]!r}")
        case.validate_response(response, checks=SCHEMA_CHECKS, headers=headers)
        content_type = (response.headers.get("content-type") or [None])[0]
        assert_answer_conforms(method, urlsplit(response.request.url).path, response.status_code, content_type,
                               response.content)

    fuzz()
