"""Tool calls the model gets wrong (unknown numbers, wrong types, huge strings, unknown tools, unreadable
arguments) never fail the reply: each is recorded on the exchange as ignored, and memory is unchanged."""

from __future__ import annotations

import json

import pytest

from memory.bot.reply import reply_to_message
from memory.models import Exchange, ExchangeStatus, Fact
from tests.factories import make_fact
from tests.memory.conftest import api_post, facts_snapshot, paul_says, reply_body, reply_url, use_memory_type
from tests.model_server import answer, tool_call

SHOWN = "shown"  # stands for the number of the fact in the context


@pytest.fixture
def shown_fact(server, owner):
    use_memory_type(server, owner, "ledger")
    return make_fact(server, key="important_rule", content="No spoilers in #general.")


def raw_tool_call(name: str, arguments: object, call_id: str = "call_raw") -> dict:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _with_number(arguments: dict, number: int) -> dict:
    return {key: number if value == SHOWN else value for key, value in arguments.items()}


BAD_CALLS = {
    "unknown number": ("forget_memory", {"number": 987654, "reason": "gone"}, "was not shown in this exchange"),
    "largest number": ("forget_memory", {"number": 2**31 - 1, "reason": "gone"}, "was not shown in this exchange"),
    "number as text": ("forget_memory", {"number": "1", "reason": "gone"}, "must be a whole number"),
    "number as float": ("forget_memory", {"number": 1.5, "reason": "gone"}, "must be a whole number"),
    "number as bool": ("forget_memory", {"number": True, "reason": "gone"}, "must be a whole number"),
    "number zero": ("forget_memory", {"number": 0, "reason": "gone"}, "must be a whole number"),
    "negative number": ("forget_memory", {"number": -1, "reason": "gone"}, "must be a whole number"),
    "number too large": ("forget_memory", {"number": 2**64, "reason": "gone"}, "must be a whole number"),
    "number missing": ("forget_memory", {"reason": "gone"}, "must be a whole number"),
    "reason as number": ("forget_memory", {"number": SHOWN, "reason": 42}, "reason must be text"),
    "reason as null": ("forget_memory", {"number": SHOWN, "reason": None}, "reason must be text"),
    "huge reason": ("forget_memory", {"number": SHOWN, "reason": "x" * 5000}, "at most 500 characters"),
    "replace with huge content": ("replace_memory", {"number": SHOWN, "new_content": "y" * 20000, "reason": "r"},
                                  "keep it to 1–1000 characters"),
    "replace with content as list": ("replace_memory", {"number": SHOWN, "new_content": ["a"], "reason": "r"},
                                     "Enter the content"),
    "replace with empty content": ("replace_memory", {"number": SHOWN, "new_content": "   ", "reason": "r"},
                                   "Enter the content"),
    "remember with huge content": ("remember", {"key": "k", "content": "z" * 50000, "importance": 0.5},
                                   "keep it to 1–1000 characters"),
    "remember with huge key": ("remember", {"key": "k" * 300, "content": "c", "importance": 0.5}, "1–64"),
    "remember with a key of symbols": ("remember", {"key": "<script>", "content": "c", "importance": 0.5},
                                       "A key may only hold"),
    "remember with key as number": ("remember", {"key": 7, "content": "c", "importance": 0.5}, "key must be text"),
    "remember without content": ("remember", {"key": "k", "importance": 0.5}, "content must be text"),
    "importance as text": ("remember", {"key": "k", "content": "c", "importance": "high"}, "importance must be"),
    "importance above one": ("remember", {"key": "k", "content": "c", "importance": 7}, "importance must be"),
    "importance not a number": ("remember", {"key": "k", "content": "c", "importance": float("nan")},
                                "importance must be"),
    "member id not a snowflake": ("remember", {"key": "k", "content": "c", "importance": 0.5,
                                               "about_member_id": "Paul"}, "Discord user id"),
    "member id as number": ("remember", {"key": "k", "content": "c", "importance": 0.5,
                                         "about_member_id": 222}, "Discord user id"),
}


@pytest.mark.parametrize("case", BAD_CALLS.values(), ids=BAD_CALLS.keys())
def test_a_tool_call_with_bad_arguments_is_ignored_and_the_reply_still_succeeds(server, model_server, shown_fact,
                                                                                case):
    name, arguments, detail = case
    before = facts_snapshot(server)
    model_server.script = [answer("Here you go.", [tool_call(name, **_with_number(arguments, shown_fact.number))])]

    outcome = reply_to_message(server=server, message=paul_says(), history=[])

    assert outcome.reply == "Here you go."
    [result] = outcome.actions
    assert result.status == "ignored"
    assert detail in result.detail
    exchange = Exchange.objects.get(pk=outcome.exchange.pk)
    assert exchange.status == ExchangeStatus.REPLIED
    assert exchange.actions == [result.as_dict()]
    assert facts_snapshot(server) == before


@pytest.mark.parametrize(("call", "detail"), [
    (raw_tool_call("forget_memory", "{this is not json"), "unreadable arguments for forget_memory"),
    (raw_tool_call("forget_memory", "[1, 2]"), "unreadable arguments for forget_memory"),
    (raw_tool_call("remember", "null"), "unreadable arguments for remember"),
    (raw_tool_call("replace_memory", '"just a string"'), "unreadable arguments for replace_memory"),
    (raw_tool_call("delete_everything", "{}"), "unknown tool 'delete_everything'"),
    (raw_tool_call("drop_table", '{"number": 1}'), "unknown tool 'drop_table'"),
], ids=["not json", "json list", "json null", "json string", "unknown tool", "unknown tool with number"])
def test_unreadable_arguments_and_unknown_tools_are_ignored(server, model_server, shown_fact, call, detail):
    before = facts_snapshot(server)
    model_server.script = [answer("Fine.", [call])]

    outcome = reply_to_message(server=server, message=paul_says(), history=[])

    [result] = outcome.actions
    assert result.status == "ignored" and detail in result.detail
    assert outcome.exchange.status == ExchangeStatus.REPLIED
    assert facts_snapshot(server) == before


def test_arguments_sent_as_an_object_instead_of_a_string_are_accepted(server, model_server, shown_fact):
    model_server.script = [answer("Fine.", [raw_tool_call("forget_memory",
                                                          {"number": shown_fact.number, "reason": "gone"})])]

    outcome = reply_to_message(server=server, message=paul_says(), history=[])

    assert outcome.actions[0].status == "applied"
    shown_fact.refresh_from_db()
    assert shown_fact.retracted_at is not None


def test_a_bad_call_does_not_stop_the_good_calls_beside_it(server, model_server, shown_fact):
    model_server.script = [answer("Fine.", [
        raw_tool_call("forget_memory", "{broken", call_id="call_1"),
        tool_call("forget_memory", number="nope", reason="r"),
        tool_call("forget_memory", number=shown_fact.number, reason="the rule is gone"),
        tool_call("remember", key="paul_pet", content="Paul has a cat.", importance=0.2),
        tool_call("forget_memory", number=shown_fact.number, reason="twice"),
    ])]

    outcome = reply_to_message(server=server, message=paul_says(), history=[])

    assert [(result.op, result.status) for result in outcome.actions] == [
        ("retract", "ignored"), ("retract", "ignored"), ("retract", "applied"), ("remember", "applied"),
        ("retract", "ignored")]
    assert outcome.actions[-1].detail == f"fact #{shown_fact.number} is already retracted"
    shown_fact.refresh_from_db()
    assert shown_fact.retraction_reason == "the rule is gone"
    assert Fact.objects.filter(server=server, key="paul_pet").count() == 1


def test_tool_calls_without_a_function_do_not_fail_the_reply(server, model_server, shown_fact):
    before = facts_snapshot(server)
    model_server.script = [answer("Fine.", [{"id": "x", "type": "function"}, {"function": {"name": 5}}, "junk"])]

    outcome = reply_to_message(server=server, message=paul_says(), history=[])

    assert outcome.reply == "Fine." and outcome.exchange.status == ExchangeStatus.REPLIED
    assert facts_snapshot(server) == before


@pytest.mark.parametrize("call", [
    tool_call("remember", key="paul_note", content="Paul\u0000likes tea.", importance=0.5),
    tool_call("forget_memory", number=1, reason="gone\u0000for good"),
    tool_call("replace_memory", number=1, new_content="No\u0000spoilers.", reason="r"),
], ids=["remember content", "forget reason", "replace content"])
def test_a_nul_character_in_tool_arguments_does_not_fail_the_reply(client, server, bot_token, model_server,
                                                                   shown_fact, call):
    """JSON allows \\u0000 and models do emit it; PostgreSQL text cannot store it. The reply must still
    answer (the call stored without the character, or ignored), never a 500."""
    assert shown_fact.number == 1
    client.raise_request_exception = False  # see the answer the bot would get
    model_server.script = [answer("Fine.", [call])]

    response = api_post(client, reply_url(server), bot_token, reply_body())

    assert response.status_code == 200, response.content
    exchange = Exchange.objects.get(pk=response.json()["exchange"])
    assert exchange.status == ExchangeStatus.REPLIED
    # (PostgreSQL cannot even be asked about NUL, so check in Python.)
    assert all("\x00" not in fact.content + fact.retraction_reason for fact in Fact.objects.filter(server=server))


def test_a_nul_character_in_the_search_query_does_not_fail_the_reply(client, server, owner, bot_token,
                                                                     model_server, shown_fact):
    use_memory_type(server, owner, "archive")
    client.raise_request_exception = False
    model_server.script = [answer("", [tool_call("search_memory", query="spoilers\u0000rule")]), answer("Fine.")]

    response = api_post(client, reply_url(server), bot_token, reply_body())

    assert response.status_code == 200, response.content
    assert Exchange.objects.get(pk=response.json()["exchange"]).status == ExchangeStatus.REPLIED


@pytest.mark.parametrize("field", ["content", "author_name"])
def test_a_nul_character_in_the_message_is_refused_or_answered_never_a_500(client, server, bot_token, model_server,
                                                                           field):
    client.raise_request_exception = False
    body = reply_body()
    body[field] = "Hello\u0000bot"

    response = api_post(client, reply_url(server), bot_token, body)

    assert response.status_code in (200, 400), response.content


def test_a_huge_bad_call_through_the_api_is_ignored(client, server, bot_token, model_server, shown_fact):
    before = facts_snapshot(server)
    model_server.script = [answer("Fine.", [
        tool_call("remember", key="k" * 10000, content="c" * 100000, importance=0.5),
        raw_tool_call("forget_memory", json.dumps({"number": shown_fact.number, "reason": "r" * 100000})),
    ])]

    response = api_post(client, reply_url(server), bot_token, reply_body())

    assert response.status_code == 200
    actions = response.json()["memory"]["actions"]
    assert [action["status"] for action in actions] == ["ignored", "ignored"]
    assert all(len(action["detail"]) < 300 for action in actions)
    assert facts_snapshot(server) == before
