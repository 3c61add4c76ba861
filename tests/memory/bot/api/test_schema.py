"""GET /api/v1/schema.json: a valid OpenAPI 3.1 document that describes every endpoint and limit of API.md."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from memory.bot.actions import REASON_MAX_LENGTH
from memory.bot.api import parsing
from memory.bot.api import urls as api_urls
from memory.bot.api.schema import openapi_schema
from memory.bot.exchanges import MENTIONS_MAX, MESSAGE_MAX_LENGTH
from memory.bot.reply import HISTORY_LIMIT
from memory.configuration.directory import NAME_MAX_LENGTH as CHANNEL_NAME_MAX_LENGTH
from memory.models import CONTENT_MAX_LENGTH, KEY_MAX_LENGTH, KEY_REGEX, Audience, Kind

from .helpers import API, MESSAGE, REGISTRY, SCHEMA, SCHEMA_URI, assert_valid, component_validator

SCHEMA_URL = "/api/v1/schema.json"


@pytest.fixture
def served(client):
    response = client.get(SCHEMA_URL)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    return response.json()


def test_the_schema_is_public_openapi_3_1(served):
    assert served["openapi"].startswith("3.1.")
    assert served == openapi_schema("http://testserver/api/v1")
    assert served["servers"] == [{"url": "http://testserver/api/v1"}]


def test_it_validates_as_an_openapi_3_1_document(served):
    try:
        from openapi_spec_validator import validate
    except ImportError:  # not a test dependency: the official 3.1 meta-schema ships with schemathesis
        from schemathesis.specs.openapi.definitions import OPENAPI_31

        Draft202012Validator.check_schema(OPENAPI_31)
        assert_valid(Draft202012Validator(OPENAPI_31), served, "schema.json (OpenAPI 3.1 meta-schema)")
    else:
        validate(served)


def _schemas_in(document: dict):
    """Every JSON Schema in the document: components, parameters, request bodies and responses."""
    yield from document["components"]["schemas"].items()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                yield f"{method} {path} {parameter['name']}", parameter["schema"]
            for media in operation.get("requestBody", {}).get("content", {}).values():
                yield f"{method} {path} body", media["schema"]
            for status, response in operation["responses"].items():
                for media in response.get("content", {}).values():
                    yield f"{method} {path} {status}", media["schema"]


def test_every_schema_in_it_is_valid_json_schema_2020_12(served):
    for name, schema in _schemas_in(served):
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as error:
            pytest.fail(f"{name}: {error.message}")


def _refs(node):
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def test_every_reference_resolves(served):
    resolver = REGISTRY.resolver(base_uri=SCHEMA_URI)
    refs = set(_refs(served))
    assert refs, "the schema uses components"
    for ref in refs:
        assert ref.startswith("#/components/schemas/"), ref
        assert resolver.lookup(ref).contents is not None


def test_it_describes_every_api_endpoint_and_nothing_else(served):
    routed = set()
    for pattern in api_urls.urlpatterns:
        route = str(pattern.pattern)
        if route in ("schema.json", "docs") or pattern.name == "not-found":
            continue
        routed.add("/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route))
    assert routed == set(served["paths"])


def test_every_operation_answers_its_documented_method(client, served):
    """Without a token, the documented method gets the documented 401 (a wrong one would get 405)."""
    for path, operations in served["paths"].items():
        concrete = path.replace("{guild_id}", "100000000000000001").replace(
            "{exchange}", "5f0c3d1e-0000-4000-8000-000000000000").replace("{member_id}", "222")
        for method in operations:
            response = client.generic(method.upper(), API + concrete)
            assert response.status_code == 401, (method, path, response.status_code)


def test_every_operation_documents_the_errors_api_md_promises(served):
    operation_ids = []
    for path, operations in served["paths"].items():
        for method, operation in operations.items():
            operation_ids.append(operation["operationId"])
            success = "202" if path.endswith("/messages") else "200"  # messages are stored to learn from later
            expected = {success, "401", "404"} | ({"400", "413"} if method in ("post", "put") else set())
            expected |= {"409"} if path.endswith("/search") else set()
            expected |= {"503"} if path.endswith("/reply") else set()
            assert expected <= set(operation["responses"]), (method, path)
            for status, response in operation["responses"].items():
                if status != success:
                    assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
            if method in ("post", "put"):
                assert operation["requestBody"]["required"] is True
    assert len(operation_ids) == len(set(operation_ids))
    assert served["security"] == [{"bearerAuth": []}]
    assert served["components"]["securitySchemes"]["bearerAuth"] == {"type": "http", "scheme": "bearer"}


def test_the_limits_in_the_schema_are_the_limits_the_code_enforces():
    schemas = SCHEMA["components"]["schemas"]
    message = schemas["Message"]["properties"]
    assert message["content"]["maxLength"] == MESSAGE_MAX_LENGTH
    assert message["author_name"]["maxLength"] == parsing.NAME_MAX_LENGTH
    reply = schemas["ReplyRequest"]["properties"]["history"]
    assert reply["maxItems"] == HISTORY_LIMIT
    assert reply["items"]["properties"]["content"]["maxLength"] == MESSAGE_MAX_LENGTH
    assert schemas["SearchRequest"]["properties"]["query"]["maxLength"] == parsing.QUERY_MAX_LENGTH
    actions = schemas["ActionsRequest"]["properties"]
    for kind in ("retract", "supersede", "remember"):
        assert actions[kind]["maxItems"] == parsing.MAX_OPS_PER_KIND
    assert actions["retract"]["items"]["properties"]["reason"]["maxLength"] == REASON_MAX_LENGTH
    assert actions["supersede"]["items"]["properties"]["content"]["maxLength"] == CONTENT_MAX_LENGTH
    assert actions["remember"]["items"]["properties"]["key"]["maxLength"] == KEY_MAX_LENGTH
    assert actions["remember"]["items"]["properties"]["content"]["maxLength"] == CONTENT_MAX_LENGTH
    assert schemas["Fact"]["properties"]["key"]["pattern"] == KEY_REGEX
    assert schemas["Fact"]["properties"]["content"]["maxLength"] == CONTENT_MAX_LENGTH
    assert schemas["Audience"]["enum"] == list(Audience.values)
    channels = schemas["ChannelsRequest"]["properties"]["channels"]
    assert channels["maxItems"] == parsing.CHANNELS_MAX
    assert set(channels["items"]["properties"]) == parsing.CHANNEL_FIELDS
    assert channels["items"]["properties"]["name"]["maxLength"] == CHANNEL_NAME_MAX_LENGTH
    assert schemas["ForgetRequest"]["properties"]["member_name"]["maxLength"] == parsing.NAME_MAX_LENGTH
    mentions = schemas["Message"]["properties"]["mentions"]
    assert mentions["maxItems"] == MENTIONS_MAX
    assert mentions["items"]["properties"]["name"]["maxLength"] == parsing.NAME_MAX_LENGTH
    assert schemas["Kind"]["enum"] == list(Kind.values)


def test_the_request_examples_of_api_md_match_the_schema():
    assert_valid(component_validator("Message"), {
        "channel_id": "111", "thread_parent_id": None, "author_id": "222", "author_name": "Paul",
        "mentions": [{"id": "333", "name": "Mira"}], "content": "when is my birthday again? and @Mira's?"},
        "API.md §1 request")
    assert_valid(component_validator("Message"), MESSAGE, "the tests' message")
    assert_valid(component_validator("SearchRequest"), {"query": "Paul's birthday"}, "API.md §2 request")
    assert_valid(component_validator("ActionsRequest"), {
        "retract": [{"number": 12, "reason": "the rule changed"}],
        "supersede": [{"number": 15, "content": "Support happens in #help only.", "reason": "moved"}],
        "remember": [{"key": "paul_birthday", "content": "Paul's birthday is 3 May.", "kind": "profile",
                      "scope": "member", "member_id": "222", "importance": 0.6, "confidence": 0.9}]},
        "API.md §3 request")
    assert_valid(component_validator("ActionsResult"), {"results": [
        {"op": "retract", "number": 12, "status": "applied"},
        {"op": "supersede", "number": 15, "status": "ignored", "detail": "fact #15 was not shown in this exchange"},
        {"op": "remember", "number": 31, "status": "applied"}]}, "API.md §3 answer")
    assert_valid(component_validator("Error"), {"error": "One clear sentence.", "field": None}, "API.md error")
    assert_valid(component_validator("Fact"), {
        "number": 12, "key": "server_theme", "content": "This server is about retro gaming.", "scope": "server",
        "member_id": None, "confidence": 1.0, "audience": "server", "channel_id": "111", "kind": "lore",
        "changed_at": "2025-05-03T14:02:11.204518+00:00"}, "API.md §1 fact")
    assert_valid(component_validator("ChannelsRequest"), {"channels": [
        {"id": "111", "name": "general", "public": True, "parent_id": None},
        {"id": "444", "name": "mod-chat", "public": False},
        {"id": "555", "name": "tournament planning", "public": True, "parent_id": "111"}]}, "API.md §6 request")
    assert_valid(component_validator("ChannelsResult"), {"channels": 3}, "API.md §6 answer")
    for purge in ({"channel_id": "444"}, {"exchange": "5f0c3d1e-0000-4000-8000-000000000000"}):
        assert_valid(component_validator("PurgeRequest"), purge, "API.md §7 request")
    assert_valid(component_validator("PurgeResult"), {"removed": 0}, "API.md §7 answer")
    assert_valid(component_validator("MemberFacts"), {"about": [], "learned_from": []}, "API.md §8 facts")
    for body in ({}, {"member_name": "Paul"}):
        assert_valid(component_validator("ForgetRequest"), body, "API.md §8 forget request")
    for answer in ({"wiped": False, "request": "open"}, {"wiped": True, "facts_removed": 7}):
        assert_valid(component_validator("ForgetResult"), answer, "API.md §8 forget answer")


def test_a_remembers_confidence_may_be_left_out_but_is_never_null_and_its_result_may_be_reinforced():
    actions = component_validator("ActionsRequest")
    assert actions.is_valid({"remember": [{"key": "k", "content": "c"}]})
    assert not actions.is_valid({"remember": [{"key": "k", "content": "c", "confidence": None}]})
    status = SCHEMA["components"]["schemas"]["ActionResult"]["properties"]["status"]
    assert status["enum"] == ["applied", "ignored", "reinforced"] and "reinforced" in status["description"]
    assert_valid(component_validator("ActionResult"), {
        "op": "remember", "status": "reinforced", "number": 31, "detail": "already known as #31: mentioned 2 times"},
        "a reinforced remember")


def test_the_schema_refuses_what_api_md_calls_out_of_range():
    remember = {"key": "k", "content": "c"}
    actions = component_validator("ActionsRequest")
    for bad in ({"importance": 1.5}, {"confidence": -0.1}, {"key": "k" * 65}, {"content": "x" * 1001},
                {"scope": "guild"}, {"unknown": 1}):
        assert not actions.is_valid({"remember": [{**remember, **bad}]}), bad
    assert not component_validator("Message").is_valid({**MESSAGE, "colour": "red"})
    assert not actions.is_valid({"remember": [{**remember, "audience": "everyone"}]})
    channel = {"id": "111", "name": "general", "public": True}
    channels = component_validator("ChannelsRequest")
    for bad in ({"public": "yes"}, {"public": None}, {"id": "#general"}, {"name": ""}, {"name": "  "},
                {"parent_id": "general"}, {"topic": "x"}):
        assert not channels.is_valid({"channels": [{**channel, **bad}]}), bad
    assert not channels.is_valid({"channels": [{"id": "111", "name": "general"}]})
    assert not channels.is_valid({"channels": [channel] * 501})
    purge = component_validator("PurgeRequest")
    for bad in ({}, {"channel_id": "111", "exchange": "5f0c3d1e-0000-4000-8000-000000000000"},
                {"channel_id": "#mods"}, {"exchange": "5f0c"}):
        assert not purge.is_valid(bad), bad


def test_the_schema_refuses_the_text_the_code_refuses_and_accepts_what_the_code_accepts():
    """A bot that checks its requests against the schema must not meet a 400 the schema did not predict
    (schemathesis checks the same with generated bodies in test_schemathesis)."""
    remember = {"key": "k", "content": "c"}
    actions = component_validator("ActionsRequest")
    for bad in ({"content": "   "}, {"content": "\u3000\x85\n"}, {"key": " \t "}, {"key": "paul's birthday!"},
                {"key": "a:b"}, {"key": "\u200b \u00ad"}, {"key": "x\x07"}, {"scope": "member"},
                {"scope": "member", "member_id": None},
                {"scope": "server", "member_id": "333"}):
        assert not actions.is_valid({"remember": [{**remember, **bad}]}), bad
    assert not actions.is_valid({"supersede": [{"number": 1, "content": " \n "}]})
    for bad in ({"content": "  "}, {"content": "hi\x00"}, {"author_name": "Pa\x00ul"}):
        assert not component_validator("Message").is_valid({**MESSAGE, **bad}), bad
    assert not component_validator("SearchRequest").is_valid({"query": "\t"})
    for good in ({"key": "Paul Birthday"}, {"key": "Aniversário do Paulo"}, {"key": "誕生日"},
                 {"content": " Paul's birthday is 3 May. "}, {"member_id": "333"},
                 {"scope": "member", "member_id": "333"}, {"scope": "server"}, {"member_id": None}):
        assert actions.is_valid({"remember": [{**remember, **good}]}), good
    assert actions.is_valid({"retract": [{"number": 2.0}]})


def test_the_docs_page_lists_every_operation(client, served):
    response = client.get("/api/v1/docs")
    assert response.status_code == 200
    page = response.content.decode()
    for path in served["paths"]:
        assert path in page, path


# Characters at the edges of the key rule: kept ASCII, refused ASCII, whitespace, controls, format characters,
# letters of other scripts, "İ" (which lowers to two characters), a lone surrogate and an astral emoji.
KEY_EDGE_CHARACTERS = ("aZ09_.-:#[] !'\x00\x07\x1c\x7f\x85\x9f\xa0\xad\u0130\u00e9\u0301\u0928\u093f\u200b\u200c"
                       "\u2028\u3000\u8a95\ufeff\ud800\U0001f382")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(KEY_EDGE_CHARACTERS), max_size=70)
       | st.text(max_size=70))
def test_a_key_the_schema_accepts_is_a_key_the_code_accepts(key):
    """Both directions, so that the schema can neither promise a key the code refuses (a 400 nobody could
    predict) nor refuse one the code takes. Lengths aside: the code counts after normalising, which only
    shortens, so the schema's 64 on what is sent is the stricter of the two."""
    from django.core.exceptions import ValidationError

    from memory.text.keys import KEY_INPUT_PATTERN
    from memory.text.limits import validate_key

    try:
        validate_key(key)
        accepted = True
    except ValidationError:
        accepted = False
    schema_accepts = re.fullmatch(KEY_INPUT_PATTERN, key) is not None
    if re.search("[\ud800-\udfff]", key):
        # A lone surrogate: refused by the code, left out of the pattern (see memory.text.keys).
        assert not accepted, key
        return
    if schema_accepts and len(key) <= KEY_MAX_LENGTH:
        assert accepted, key
    if accepted:
        assert schema_accepts, key


def test_every_pattern_is_one_schemathesis_obeys(served):
    """schemathesis drops a pattern that Rust's regex engine (jsonschema-rs) cannot compile and then sends
    any string: the fuzzing test would no longer test the rule. A pattern naming lone surrogates was one."""
    from schemathesis.core.jsonschema.patterns import is_valid_jsonschema_rs_regex

    def patterns(node):
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                yield node["pattern"]
            for value in node.values():
                yield from patterns(value)
        elif isinstance(node, list):
            for value in node:
                yield from patterns(value)

    found = list(patterns(served))
    assert len(found) >= 10
    assert [pattern for pattern in found if not is_valid_jsonschema_rs_regex(pattern)] == []
