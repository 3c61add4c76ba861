"""The whole reply (memory.bot.reply and POST /api/v1/servers/{guild}/reply): the model's forget, replace and
remember tool calls, played by a real scripted model server, change memory only as SPEC section 5 says."""

from __future__ import annotations

import pytest

from memory.bot.reply import reply_to_message
from memory.models import AuthorKind, Exchange, ExchangeStatus, Fact, Scope
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


@pytest.fixture
def rules_fact(server):
    return make_fact(server, key="important_rule", content="No spoilers in #general.")


# Forget a fact that was shown -------------------------------------------------------------------


def test_under_classic_forgetting_a_shown_fact_deletes_it(server, model_server, rules_fact):
    model_server.script = [answer("Noted, that rule is gone.", [
        tool_call("forget_memory", number=rules_fact.number, reason="the rule was dropped")])]

    outcome = reply_to_message(server=server, message=paul_says("We dropped the spoiler rule."), history=[])

    assert outcome.reply == "Noted, that rule is gone."
    assert outcome.model_calls == 1 and model_server.chat_calls == 1
    assert not Fact.objects.filter(pk=rules_fact.pk).exists()
    exchange = Exchange.objects.get(pk=outcome.exchange.pk)
    assert exchange.status == ExchangeStatus.REPLIED
    assert exchange.actions == [{"op": "retract", "status": "applied", "number": rules_fact.number}]


def test_under_ledger_forgetting_a_shown_fact_retracts_it_with_the_reason(server, owner, model_server, rules_fact):
    use_memory_type(server, owner, "ledger")
    model_server.script = [answer("Noted.", [
        tool_call("forget_memory", number=rules_fact.number, reason="the rule was dropped")])]

    outcome = reply_to_message(server=server, message=paul_says("We dropped the spoiler rule."), history=[])

    rules_fact.refresh_from_db()
    assert rules_fact.retracted_at is not None
    assert rules_fact.retraction_reason == "the rule was dropped"
    assert rules_fact.superseded_by is None
    assert rules_fact.content == "No spoilers in #general."
    assert outcome.actions[0].as_dict() == {"op": "retract", "status": "applied", "number": rules_fact.number}


@pytest.mark.parametrize("memory_type", ["classic", "ledger", "archive"])
def test_forgetting_a_number_that_was_not_shown_changes_nothing(server, other_server, owner, model_server,
                                                                 memory_type):
    use_memory_type(server, owner, memory_type)
    hidden = make_fact(server, key="old_rule", content="An old rule that is not in the context.")
    for index in range(3):
        make_fact(server, key=f"newer_{index}", content=f"A newer fact {index}.")
    set_channel_rules(server, owner, max_injected_items=3)
    foreign = make_fact(other_server, key="their_rule", content="A fact of another server.")
    before = facts_snapshot(server, other_server)
    model_server.script = [answer("Done.", [
        tool_call("forget_memory", number=hidden.number, reason="outdated"),
        tool_call("forget_memory", number=foreign.number + 100, reason="outdated")])]

    outcome = reply_to_message(server=server, message=paul_says("Forget the old rule."), history=[])

    assert hidden.number not in outcome.exchange.shown_numbers
    assert [result.as_dict() for result in outcome.actions] == [
        {"op": "retract", "status": "ignored", "number": hidden.number,
         "detail": f"fact #{hidden.number} was not shown in this exchange"},
        {"op": "retract", "status": "ignored", "number": foreign.number + 100,
         "detail": f"fact #{foreign.number + 100} was not shown in this exchange"},
    ]
    assert facts_snapshot(server, other_server) == before
    assert outcome.exchange.status == ExchangeStatus.REPLIED


def test_a_number_shown_on_this_server_never_reaches_the_same_number_on_another_server(
        server, other_server, owner, model_server, rules_fact):
    use_memory_type(server, owner, "ledger")
    twin = make_fact(other_server, key="their_rule", content="A fact of another server with the same number.")
    assert twin.number == rules_fact.number
    model_server.script = [answer("Noted.", [tool_call("forget_memory", number=rules_fact.number, reason="gone")])]

    reply_to_message(server=server, message=paul_says(), history=[])

    twin.refresh_from_db()
    rules_fact.refresh_from_db()
    assert twin.retracted_at is None and rules_fact.retracted_at is not None


# Replace ------------------------------------------------------------------------------------------


def test_under_ledger_replace_retracts_the_old_fact_pointing_at_a_new_bot_written_fact(
        server, owner, model_server, rules_fact):
    use_memory_type(server, owner, "ledger")
    model_server.script = [answer("Updated.", [tool_call(
        "replace_memory", number=rules_fact.number, new_content="No spoilers anywhere on the server.",
        reason="the rule now covers every channel")])]

    outcome = reply_to_message(server=server, message=paul_says("Spoilers are banned everywhere now."), history=[])

    rules_fact.refresh_from_db()
    replacement = rules_fact.superseded_by
    assert replacement is not None
    assert rules_fact.retracted_at is not None
    assert rules_fact.retraction_reason == "the rule now covers every channel"
    assert rules_fact.content == "No spoilers in #general."  # the old wording is kept
    assert replacement.retracted_at is None
    assert (replacement.key, replacement.content) == ("important_rule", "No spoilers anywhere on the server.")
    assert replacement.author_kind == AuthorKind.BOT
    assert replacement.learned_from_member_id == PAUL
    assert replacement.source_exchange_id == outcome.exchange.pk
    assert outcome.actions[0].as_dict() == {"op": "supersede", "status": "applied", "number": rules_fact.number,
                                            "new_number": replacement.number}


def test_under_classic_a_replace_the_model_was_not_offered_is_ignored(server, model_server, rules_fact):
    before = facts_snapshot(server)
    model_server.script = [answer("Updated.", [tool_call(
        "replace_memory", number=rules_fact.number, new_content="Something else.", reason="changed")])]

    outcome = reply_to_message(server=server, message=paul_says(), history=[])

    assert outcome.actions[0].status == "ignored"
    assert "Ledger" in outcome.actions[0].detail
    assert facts_snapshot(server) == before


# Remember -----------------------------------------------------------------------------------------


def test_remember_stores_a_bot_written_server_fact_with_its_importance(server, model_server):
    model_server.script = [answer("I'll remember that.", [tool_call(
        "remember", key="Server Theme", content="This server is about retro gaming.", importance=0.7)])]

    outcome = reply_to_message(server=server, message=paul_says("This server is about retro gaming."), history=[])

    learned = Fact.objects.get(server=server, number=outcome.actions[0].number)
    assert outcome.actions[0].status == "applied"
    assert (learned.key, learned.content, learned.scope, learned.member_id) == (
        "server_theme", "This server is about retro gaming.", Scope.SERVER, "")
    assert learned.importance == 0.7
    assert learned.author_kind == AuthorKind.BOT and learned.author_user is None
    assert learned.learned_from_member_id == PAUL
    assert learned.source_exchange_id == outcome.exchange.pk
    assert learned.retracted_at is None


def test_remember_about_a_member_stores_a_member_fact(server, model_server):
    anna = "333000000000000333"
    model_server.script = [answer("Happy early birthday to Anna!", [tool_call(
        "remember", key="anna_birthday", content="Anna's birthday is 3 May.", about_member_id=anna,
        importance=0.4)])]

    outcome = reply_to_message(server=server, message=paul_says("Anna's birthday is 3 May."), history=[])

    learned = Fact.objects.get(server=server, number=outcome.actions[0].number)
    assert (learned.scope, learned.member_id, learned.importance) == (Scope.MEMBER, anna, 0.4)
    assert learned.learned_from_member_id == PAUL


def test_remember_is_ignored_where_memory_may_not_be_written(server, owner, model_server):
    set_channel_rules(server, owner, write=["999"])
    model_server.script = [answer("OK.", [tool_call("remember", key="x", content="Something.", importance=0.5)])]

    outcome = reply_to_message(server=server, message=paul_says(), history=[])

    assert outcome.actions[0].as_dict() == {"op": "remember", "status": "ignored",
                                            "detail": "memory may not be written in this channel"}
    assert not Fact.objects.filter(server=server).exists()


# Through the API ----------------------------------------------------------------------------------


def test_the_reply_endpoint_applies_the_tool_calls_and_reports_them(client, server, owner, bot_token, model_server,
                                                                    rules_fact):
    use_memory_type(server, owner, "ledger")
    old_theme = make_fact(server, key="server_theme", content="This server is about chess.")
    model_server.script = [answer("Got it!", [
        tool_call("forget_memory", number=rules_fact.number, reason="dropped"),
        tool_call("replace_memory", number=old_theme.number, new_content="This server is about retro gaming.",
                  reason="the theme changed"),
        tool_call("remember", key="paul_console", content="Paul plays on a SNES.", about_member_id=PAUL,
                  importance=0.3),
    ])]

    response = api_post(client, reply_url(server), bot_token, reply_body("We're about retro gaming now."))

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["reply"] == "Got it!" and body["model_calls"] == 1
    exchange = Exchange.objects.get(pk=body["exchange"])
    old_theme.refresh_from_db()
    rules_fact.refresh_from_db()
    replacement = old_theme.superseded_by
    learned = Fact.objects.get(server=server, key="paul_console")
    assert body["memory"]["retracted"] == [rules_fact.number]
    assert body["memory"]["superseded"] == [{"number": old_theme.number, "replaced_by": replacement.number}]
    assert body["memory"]["learned"] == [learned.number]
    assert sorted(body["memory"]["injected"]) == sorted([rules_fact.number, old_theme.number])
    assert rules_fact.retracted_at is not None and old_theme.retracted_at is not None
    assert replacement.source_exchange_id == exchange.pk == learned.source_exchange_id
    assert learned.learned_from_member_id == PAUL and learned.importance == 0.3

    detail = client.get(f"/api/v1/exchanges/{exchange.pk}", HTTP_AUTHORIZATION=f"Bearer {bot_token}").json()
    assert detail["status"] == "replied" and detail["model_calls"] == 1 and detail["reply"] == "Got it!"
    assert detail["memory"]["retracted"] == [rules_fact.number]


def test_the_reply_endpoint_ignores_an_unshown_number(client, server, owner, bot_token, model_server, rules_fact):
    use_memory_type(server, owner, "ledger")
    make_fact(server, key="newer", content="A newer fact.")
    set_channel_rules(server, owner, max_injected_items=1)
    before = facts_snapshot(server)
    model_server.script = [answer("Done.", [tool_call("forget_memory", number=rules_fact.number, reason="gone")])]

    response = api_post(client, reply_url(server), bot_token, reply_body())

    assert response.status_code == 200
    memory = response.json()["memory"]
    assert memory["retracted"] == []
    assert memory["actions"] == [{"op": "retract", "status": "ignored", "number": rules_fact.number,
                                  "detail": f"fact #{rules_fact.number} was not shown in this exchange"}]
    assert facts_snapshot(server) == before
