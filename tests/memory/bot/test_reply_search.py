"""The one search of the whole reply (SPEC section 5, Searchable archive): exactly one extra model call,
the results handed back as a tool message, a second search ignored, and found facts correctable."""

from __future__ import annotations

import pytest

from memory.bot.reply import reply_to_message
from memory.configuration.services import ai_settings_update
from memory.models import Exchange, Fact
from tests.factories import make_fact
from tests.memory.conftest import (
    PAUL,
    api_post,
    facts_snapshot,
    paul_says,
    reply_body,
    reply_url,
    set_channel_rules,
    use_memory_type,
)
from tests.model_server import answer, tool_call

SECOND_SEARCH = "a second search in the same exchange is ignored"


@pytest.fixture
def archive(server, owner):
    """Archive server whose context holds one fact, and no slot for facts about the speaker; Paul's birthday is only
    reachable by search."""
    use_memory_type(server, owner, "archive")
    birthday = make_fact(server, key="paul_birthday", content="Paul's birthday is 3 May.", scope="member",
                         member_id=PAUL)
    make_fact(server, key="server_theme", content="This server is about retro gaming.")
    set_channel_rules(server, owner, max_injected_items=1)
    ai_settings_update(server=server, actor=owner, speaker_share=0.0)
    return birthday


def search(query: str, call_id: str = "call_search_1") -> dict:
    return tool_call("search_memory", call_id=call_id, query=query)


def tool_messages(request: dict) -> list[dict]:
    return [message for message in request["body"]["messages"] if message["role"] == "tool"]


def tool_names(request: dict) -> list[str]:
    return [tool["function"]["name"] for tool in request["body"].get("tools", [])]


def test_a_search_then_answer_takes_exactly_two_model_calls(server, model_server, archive):
    model_server.script = [answer("", [search("Paul birthday")]),
                           answer("Your birthday is on 3 May, Paul!")]

    outcome = reply_to_message(server=server, message=paul_says("When is my birthday?"), history=[])

    assert archive.number not in outcome.exchange.shown_numbers
    assert outcome.reply == "Your birthday is on 3 May, Paul!"
    assert outcome.model_calls == 2 and model_server.chat_calls == 2
    exchange = Exchange.objects.get(pk=outcome.exchange.pk)
    assert exchange.model_calls == 2
    assert exchange.search_query == "Paul birthday"
    assert archive.number in exchange.found_numbers


def test_the_second_request_holds_the_search_results_as_a_tool_message(server, model_server, archive):
    model_server.script = [answer("", [search("Paul birthday", call_id="call_lookup")]), answer("3 May!")]

    reply_to_message(server=server, message=paul_says("When is my birthday?"), history=[])

    first, second = model_server.requests
    assert tool_messages(first) == []
    [results] = tool_messages(second)
    assert results["tool_call_id"] == "call_lookup"
    assert (f"[#{archive.number}] ({archive.changed_at.date().isoformat()}) paul_birthday (about Paul ({PAUL})): "
            "Paul's birthday is 3 May.") in results["content"].splitlines()
    assistant_turn = second["body"]["messages"][-2]
    assert assistant_turn["role"] == "assistant"
    assert [call["id"] for call in assistant_turn["tool_calls"]] == ["call_lookup"]
    # The search is spent: the second call offers every tool but search.
    assert "search_memory" in tool_names(first)
    assert "search_memory" not in tool_names(second)
    assert {"forget_memory", "replace_memory", "remember"} <= set(tool_names(second))


def test_a_search_that_finds_nothing_says_so(server, model_server, archive):
    model_server.script = [answer("", [search("xylophone")]), answer("I don't know.")]

    reply_to_message(server=server, message=paul_says(), history=[])

    [results] = tool_messages(model_server.requests[1])
    assert "(nothing found)" in results["content"]


def test_a_fact_found_by_the_search_can_then_be_forgotten(server, model_server, archive):
    model_server.script = [answer("", [search("Paul birthday")]), answer("Forgotten.", [
        tool_call("forget_memory", number=archive.number, reason="Paul asked me to forget it")])]

    outcome = reply_to_message(server=server, message=paul_says("Please forget my birthday."), history=[])

    archive.refresh_from_db()
    assert archive.retracted_at is not None
    assert archive.retraction_reason == "Paul asked me to forget it"
    assert outcome.actions[-1].as_dict() == {"op": "retract", "status": "applied", "number": archive.number}


def test_a_fact_found_by_the_search_can_then_be_replaced(server, model_server, archive):
    model_server.script = [answer("", [search("Paul birthday")]), answer("Updated.", [tool_call(
        "replace_memory", number=archive.number, new_content="Paul's birthday is 4 May.", reason="corrected")])]

    reply_to_message(server=server, message=paul_says("My birthday is 4 May, not 3 May."), history=[])

    archive.refresh_from_db()
    assert archive.superseded_by is not None
    assert archive.superseded_by.content == "Paul's birthday is 4 May."
    assert (archive.superseded_by.scope, archive.superseded_by.member_id) == ("member", PAUL)


def test_a_second_search_in_the_first_answer_is_ignored_and_recorded(server, model_server, archive):
    model_server.script = [
        answer("", [search("Paul birthday", call_id="call_a"), search("retro gaming", call_id="call_b")]),
        answer("3 May!"),
        answer("a third call must never happen"),
    ]

    outcome = reply_to_message(server=server, message=paul_says("When is my birthday?"), history=[])

    assert outcome.model_calls == 2 and model_server.chat_calls == 2
    assert len(model_server.script) == 1
    exchange = Exchange.objects.get(pk=outcome.exchange.pk)
    assert exchange.search_query == "Paul birthday"
    assert {"op": "search", "status": "ignored", "detail": SECOND_SEARCH} in exchange.actions
    # Every tool call of the first answer gets its tool message, but only the first one holds results.
    messages = {message["tool_call_id"]: message["content"] for message in tool_messages(model_server.requests[1])}
    assert f"[#{archive.number}]" in messages["call_a"]
    assert "[#" not in messages["call_b"]


def test_a_search_in_the_second_answer_is_ignored_and_never_makes_a_third_call(server, model_server, archive):
    model_server.script = [answer("", [search("Paul birthday")]),
                           answer("3 May!", [search("something else", call_id="call_again")]),
                           answer("a third call must never happen")]

    outcome = reply_to_message(server=server, message=paul_says("When is my birthday?"), history=[])

    assert outcome.reply == "3 May!"
    assert outcome.model_calls == 2 and model_server.chat_calls == 2
    exchange = Exchange.objects.get(pk=outcome.exchange.pk)
    assert exchange.search_query == "Paul birthday"
    assert exchange.actions == [{"op": "search", "status": "ignored", "detail": SECOND_SEARCH}]


def test_an_exchange_without_a_search_makes_exactly_one_model_call(server, model_server, archive):
    model_server.script = [answer("Hi Paul!"), answer("a second call must never happen")]

    outcome = reply_to_message(server=server, message=paul_says(), history=[])

    assert outcome.model_calls == 1 and model_server.chat_calls == 1
    exchange = Exchange.objects.get(pk=outcome.exchange.pk)
    assert exchange.model_calls == 1 and exchange.searched_at is None


def test_actions_from_the_first_answer_are_applied_alongside_the_search(server, model_server, archive):
    model_server.script = [answer("", [search("Paul birthday"),
                                       tool_call("remember", key="paul_mood", content="Paul is happy today.",
                                                 about_member_id=PAUL, importance=0.1)]),
                           answer("3 May!")]

    outcome = reply_to_message(server=server, message=paul_says("When is my birthday? I'm happy!"), history=[])

    assert outcome.model_calls == 2
    assert [result.op for result in outcome.actions] == ["remember"]
    assert Fact.objects.filter(server=server, key="paul_mood", source_exchange=outcome.exchange).exists()


@pytest.mark.parametrize("memory_type", ["classic", "ledger"])
def test_below_the_archive_a_search_call_is_ignored_and_costs_no_second_call(server, owner, model_server,
                                                                             memory_type):
    use_memory_type(server, owner, memory_type)
    make_fact(server, key="paul_birthday", content="Paul's birthday is 3 May.")
    model_server.script = [answer("I can't look that up.", [search("Paul birthday")]), answer("never")]

    outcome = reply_to_message(server=server, message=paul_says(), history=[])

    assert outcome.model_calls == 1 and model_server.chat_calls == 1
    assert outcome.exchange.searched_at is None
    assert outcome.actions[0].op == "search" and outcome.actions[0].status == "ignored"


def test_where_memory_may_not_be_read_a_search_call_is_ignored(server, owner, model_server, archive):
    set_channel_rules(server, owner, read=["999"], max_injected_items=1)
    before = facts_snapshot(server)
    model_server.script = [answer("Sorry.", [search("Paul birthday")]), answer("never")]

    outcome = reply_to_message(server=server, message=paul_says(), history=[])

    assert outcome.model_calls == 1 and model_server.chat_calls == 1
    assert outcome.exchange.found_numbers == []
    assert outcome.actions[0].as_dict() == {
        "op": "search", "status": "ignored",
        "detail": "Memory may not be read in this channel, so it cannot be searched either."}
    assert facts_snapshot(server) == before


def test_the_reply_endpoint_reports_the_search_and_two_model_calls(client, server, bot_token, model_server, archive):
    model_server.script = [answer("", [search("Paul birthday")]), answer("Your birthday is 3 May.", [
        tool_call("forget_memory", number=archive.number, reason="asked to forget")])]

    response = api_post(client, reply_url(server), bot_token, reply_body("When is my birthday? Then forget it."))

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["model_calls"] == 2 and model_server.chat_calls == 2
    assert body["reply"] == "Your birthday is 3 May."
    assert body["memory"]["searched"]["query"] == "Paul birthday"
    assert archive.number in body["memory"]["searched"]["found"]
    assert body["memory"]["retracted"] == [archive.number]


def test_a_forget_sent_with_the_search_cannot_touch_a_fact_only_the_search_found(server, model_server, archive):
    """The model had not seen the search results when it asked, so the found fact is out of its reach."""
    model_server.script = [
        answer("", [search("Paul birthday"), tool_call("forget_memory", number=archive.number, reason="guess")]),
        answer("Your birthday is 3 May."),
    ]

    outcome = reply_to_message(server=server, message=paul_says(), history=[])

    assert archive.number in outcome.exchange.found_numbers
    assert archive.number not in outcome.exchange.shown_numbers
    forget = next(result for result in outcome.actions if result.op == "retract")
    assert (forget.status, forget.detail) == ("ignored", f"fact #{archive.number} was not shown in this exchange")
    assert Fact.objects.get(pk=archive.pk).retracted_at is None


def test_an_empty_search_query_still_lets_the_model_answer(server, model_server, archive):
    model_server.script = [answer("", [search("   ")]), answer("I could not look that up, sorry.")]

    outcome = reply_to_message(server=server, message=paul_says(), history=[])

    assert outcome.model_calls == 2 and outcome.reply == "I could not look that up, sorry."
    assert "The search was not run" in tool_messages(model_server.requests[1])[0]["content"]
    assert outcome.exchange.searched_at is None
