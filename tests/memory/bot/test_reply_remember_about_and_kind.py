"""The remember tool (issue 20): a fact about the person talking is stored about them ("about": "speaker") without
the model knowing their id, another member's with about_member_id; the model gives the fact's kind, and the API's
remember takes one too."""

from __future__ import annotations

import pytest

from memory.bot.reply import reply_to_message
from memory.models import Fact, Kind, MemoryType, Scope
from tests.memory.bot.api.helpers import Api, assert_error, configure, memory_state
from tests.memory.conftest import PAUL, paul_says
from tests.model_server import answer, tool_call


def remembered(server, model_server, **arguments):
    model_server.script = [answer("Got it!", [tool_call("remember", **arguments)])]
    outcome = reply_to_message(server=server, message=paul_says("remember that my birthday is 2 August"),
                               history=[])
    return outcome.actions[0], Fact.objects.filter(server=server).order_by("-number").first()


def test_a_fact_about_the_speaker_is_stored_about_the_author(server, model_server):
    result, fact = remembered(server, model_server, key="paul_birthday", content="Paul's birthday is 2 August.",
                              about="speaker", kind="profile", importance=0.8)
    assert result.status == "applied"
    assert (fact.scope, fact.member_id, fact.kind) == (Scope.MEMBER, PAUL, Kind.PROFILE)


def test_about_member_id_names_another_member(server, model_server):
    _, fact = remembered(server, model_server, key="mira_birthday", content="Mira's birthday is 19 February.",
                         about_member_id="333000000000000333", kind="profile", importance=0.6)
    assert (fact.scope, fact.member_id) == (Scope.MEMBER, "333000000000000333")


@pytest.mark.parametrize("about", [None, "server"])
def test_without_about_or_about_the_server_it_is_a_server_fact(server, model_server, about):
    arguments = {"about": about} if about else {}
    _, fact = remembered(server, model_server, key="raid_day", content="Raids are on Thursdays.", kind="event",
                         importance=0.5, **arguments)
    assert (fact.scope, fact.member_id, fact.kind) == (Scope.SERVER, "", Kind.EVENT)


def test_without_a_kind_the_fact_gets_the_default_of_its_scope(server, model_server):
    _, fact = remembered(server, model_server, key="paul_city", content="Paul lives in Ghent.", about="speaker",
                         importance=0.5)
    assert fact.kind == Kind.PROFILE


@pytest.mark.parametrize(("arguments", "said"), [
    ({"about": "everyone"}, "about must be 'speaker'"),
    ({"kind": "gossip"}, "The kind must be"),
])
def test_a_bad_about_or_kind_is_ignored_with_the_reason_and_stores_nothing(server, model_server, arguments, said):
    result, fact = remembered(server, model_server, key="x", content="Something.", importance=0.5, **arguments)
    assert result.status == "ignored" and said in result.detail and fact is None


def test_the_tool_asks_for_the_kind_and_says_how_to_store_a_fact_about_the_speaker(server, model_server):
    reply_to_message(server=server, message=paul_says("hi"), history=[])
    [remember] = [tool["function"] for tool in model_server.requests[0]["body"]["tools"]
                  if tool["function"]["name"] == "remember"]
    assert "speaker" in remember["description"] and "remember that I" in remember["description"]
    properties = remember["parameters"]["properties"]
    assert properties["about"]["enum"] == ["speaker", "server"]
    assert properties["kind"]["enum"] == list(Kind.values) and "kind" in remember["parameters"]["required"]


# The API's remember -----------------------------------------------------------------------------


def test_the_apis_remember_takes_a_kind(client, server, bot_token):
    configure(server, memory_type=MemoryType.LEDGER)
    api = Api(client, bot_token)
    exchange = api.context(server)["exchange"]
    [result] = api.actions(exchange, remember=[{"key": "rule_kind", "content": "Be kind.", "kind": "rule"}])
    assert Fact.objects.get(server=server, number=result["number"]).kind == Kind.RULE


def test_the_apis_remember_refuses_an_unknown_kind_naming_the_field_and_changes_nothing(client, server, bot_token):
    api = Api(client, bot_token)
    exchange = api.context(server)["exchange"]
    before = memory_state()
    response = api.post(f"/exchanges/{exchange}/actions", {"remember": [
        {"key": "ok", "content": "Fine."}, {"key": "rule_kind", "content": "Be kind.", "kind": "law"}]})
    body = assert_error(response, 400, "remember[1].kind")
    assert "The kind must be 'rule', 'lore', 'profile', 'preference' or 'event'." in body["error"]
    assert memory_state() == before
