"""POST /api/v1/servers/{guild_id}/reply (API.md §4): the whole reply, against a scripted model on 127.0.0.1."""

from __future__ import annotations

import pytest
from django.test import Client

from memory.models import Exchange, Fact, MemoryType
from tests.factories import make_fact
from tests.model_server import Status, answer, tool_call

from .helpers import Api, assert_error, configure, memory_state, message


def reply_body(**overrides):
    return {**message(), "history": [{"author_name": "Anna", "content": "Hi Paul!", "is_bot": False},
                                     {"author_name": "Lorekeeper", "content": "Hello both.", "is_bot": True}],
            **overrides}


@pytest.fixture
def birthday(server):
    configure(server, memory_type=MemoryType.ARCHIVE, max_injected_items=1)
    fact = make_fact(server, key="paul_birthday", content="Paul's birthday is 3 May.", scope="member",
                     member_id="222")
    make_fact(server, key="server_theme", content="This server is about retro gaming.")
    return fact


def test_without_a_reply_model_it_answers_503_and_memory_is_unchanged(api, server, birthday):
    facts_before = memory_state()["facts"]
    body = assert_error(api.post(f"/servers/{server.guild_id}/reply", reply_body()), 503, None)
    assert "No reply model" in body["error"]
    assert memory_state()["facts"] == facts_before
    exchange = Exchange.objects.get(server=server)
    assert (exchange.status, exchange.model_calls) == ("failed", 0)
    assert api.exchange(str(exchange.pk))["error"] == exchange.error


def test_when_the_model_fails_it_answers_503_and_memory_is_unchanged(api, server, birthday, model):
    model.script = [Status(500)]
    facts_before = memory_state()["facts"]
    body = assert_error(api.post(f"/servers/{server.guild_id}/reply", reply_body()), 503, None)
    assert "HTTP 500" in body["error"]
    assert memory_state()["facts"] == facts_before


def test_a_reply_that_remembers_takes_one_model_call(api, server, birthday, model):
    model.script = [answer("Noted, Paul!", [tool_call("remember", key="paul_likes_cake", content="Paul likes cake.",
                                                      importance=0.5, about_member_id="222")])]
    response = api.post(f"/servers/{server.guild_id}/reply", reply_body())
    assert response.status_code == 200, response.content
    body = response.json()
    learned = Fact.objects.get(server=server, key="paul_likes_cake")
    assert (body["reply"], body["model_calls"]) == ("Noted, Paul!", 1)
    assert body["memory"]["learned"] == [learned.number] and body["memory"]["searched"] is None
    assert (learned.member_id, learned.learned_from_member_id, str(learned.source_exchange_id)) == (
        "222", "222", body["exchange"])
    assert (learned.author_kind, learned.importance) == ("bot", 0.5)
    detail = api.exchange(body["exchange"])
    assert (detail["status"], detail["model_calls"], detail["reply"]) == ("replied", 1, "Noted, Paul!")
    assert detail["memory"] == body["memory"]


def test_a_reply_with_one_search_reports_the_search_as_the_exchange_records_it(api, server, birthday, model):
    model.script = [
        answer("", [tool_call("search_memory", query="birthday")]),
        answer("Your birthday is 3 May!"),
    ]
    response = api.post(f"/servers/{server.guild_id}/reply", reply_body())
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["reply"], body["model_calls"]) == ("Your birthday is 3 May!", 2)
    assert body["memory"]["searched"] == {"query": "birthday", "mode": "words", "fallback_reason": None,
                                          "found": [birthday.number]}
    assert api.exchange(body["exchange"])["memory"] == body["memory"]


def test_a_tool_the_api_does_not_know_is_reported_within_the_schema(api, server, birthday, model):
    """The model may call any tool name; the reply must still match the schema (ActionResult.op is an enum)."""
    model.script = [answer("Done.", [tool_call("delete_everything", confirm=True)])]
    response = api.post(f"/servers/{server.guild_id}/reply", reply_body())
    assert response.status_code == 200
    assert response.json()["memory"]["actions"][0]["status"] == "ignored"


def test_a_number_out_of_range_from_the_model_is_reported_within_the_schema(api, server, birthday, model):
    """forget_memory with number 0 is ignored; the ignored result must still match the schema (number ≥ 1)."""
    model.script = [answer("Done.", [tool_call("forget_memory", number=0, reason="x")])]
    facts_before = memory_state()["facts"]
    response = api.post(f"/servers/{server.guild_id}/reply", reply_body())
    assert response.status_code == 200
    assert response.json()["memory"]["actions"][0]["status"] == "ignored"
    assert memory_state()["facts"] == facts_before


BAD_FIELDS = [
    ({"history": "Paul: hi"}, "history", "at most 30"),
    ({"history": [{"content": "hi"}] * 31}, "history", "at most 30"),
    ({"history": ["hi"]}, "history[0]", "author_name, content and is_bot"),
    ({"history": [{"author_name": "Anna"}]}, "history[0].content", "0–4000"),
    ({"history": [{"content": 5}]}, "history[0].content", "0–4000"),
    ({"history": [{"content": "x" * 4001}]}, "history[0].content", "0–4000"),
    ({"history": [{"content": "hi", "author_name": "A" * 101}]}, "history[0].author_name", "0–100"),
    ({"history": [{"content": "hi"}, {"content": "hi", "is_bot": "yes"}]}, "history[1].is_bot", "true or false"),
    ({"channel_id": "general"}, "channel_id", "1–20 digits"),
    ({"content": ""}, "content", "1–4000"),
]


@pytest.mark.parametrize(("overrides", "field", "limits"), BAD_FIELDS, ids=[field for _, field, _ in BAD_FIELDS])
def test_a_field_out_of_range_answers_400_naming_the_field_and_its_range(api, server, birthday, model, overrides,
                                                                        field, limits):
    before = memory_state()
    body = assert_error(api.post(f"/servers/{server.guild_id}/reply", reply_body(**overrides)), 400, field)
    assert field in body["error"] and limits in body["error"]
    assert memory_state() == before
    assert model.chat_calls == 0


def test_a_nul_character_in_the_message_is_refused_never_a_500(server, bot_token, birthday, model):
    api = Api(Client(raise_request_exception=False), bot_token)
    before = memory_state()
    response = api.post(f"/servers/{server.guild_id}/reply", reply_body(content="hi\x00"))
    assert response.status_code in (200, 400), response.content
    if response.status_code == 400:
        assert memory_state() == before


@pytest.mark.parametrize("outcome", ["replied", "failed"])
def test_an_exchange_the_reply_endpoint_answered_refuses_a_later_search_and_actions(api, server, birthday, model,
                                                                                   outcome):
    model.script = [answer("Hi!")] if outcome == "replied" else [Status(500)]
    response = api.post(f"/servers/{server.guild_id}/reply", reply_body())
    exchange = Exchange.objects.get(server=server)
    assert (response.status_code, exchange.status) == ((200, "replied") if outcome == "replied" else (503, "failed"))
    state_before, record_before = memory_state(), api.exchange(str(exchange.pk))

    body = assert_error(api.post(f"/exchanges/{exchange.pk}/search", {"query": "birthday"}), 409, None)
    assert "reply endpoint" in body["error"]
    assert_error(api.post(f"/exchanges/{exchange.pk}/actions", {"retract": [{"number": birthday.number}]}), 409, None)

    assert memory_state() == state_before
    assert api.exchange(str(exchange.pk)) == record_before


def test_history_messages_without_text_are_accepted_and_left_out_of_the_conversation(api, server, birthday, model):
    model.script = [answer("Nice picture!")]
    history = [{"author_name": "Anna", "content": "", "is_bot": False},  # an image only
               {"author_name": "Anna", "content": "Look at this!", "is_bot": False}]
    response = api.post(f"/servers/{server.guild_id}/reply", reply_body(history=history))

    assert response.status_code == 200, response.content
    sent = model.requests[-1]["body"]["messages"]
    assert [message["content"] for message in sent[1:-1]] == ["Anna: Look at this!"]
