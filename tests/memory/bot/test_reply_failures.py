"""When the reply model fails (unreachable, an HTTP error, a body that is not JSON, too slow, or no model at
all) the API answers 503 with one sentence, the exchange is recorded as failed with the error, and memory
is exactly as it was."""

from __future__ import annotations

import time

import pytest

from memory.bot.reply import NO_REPLY_MODEL, ReplyFailed, reply_to_message
from memory.configuration.services import model_endpoint_remove, model_endpoint_set
from memory.models import Exchange, ExchangeStatus, Fact, ModelPurpose
from tests.factories import make_fact
from tests.memory.conftest import (
    MODEL_API_KEY,
    api_post,
    facts_snapshot,
    paul_says,
    reply_body,
    reply_url,
    set_channel_rules,
    use_memory_type,
)
from tests.model_server import Raw, Slow, Status, answer, tool_call


@pytest.fixture
def ledger_facts(server, owner):
    """A Ledger server with two facts in its context."""
    use_memory_type(server, owner, "ledger")
    return [make_fact(server, key="server_theme", content="This server is about retro gaming."),
            make_fact(server, key="important_rule", content="No spoilers in #general.")]


def forget_everything(facts) -> dict:
    return answer("Done.", [tool_call("forget_memory", number=fact.number, reason="gone") for fact in facts]
                  + [tool_call("remember", key="new_fact", content="Something new.", importance=0.5)])


def assert_503_and_nothing_changed(response, server, before, error_part: str) -> Exchange:
    assert response.status_code == 503, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"error", "field"} and body["field"] is None
    assert body["error"].startswith("The reply model failed and nothing was changed")
    assert error_part in body["error"]
    assert facts_snapshot(server) == before
    exchange = Exchange.objects.get(server=server)
    assert exchange.status == ExchangeStatus.FAILED
    assert error_part in exchange.error
    assert exchange.reply == ""
    assert exchange.actions == []
    return exchange


def test_an_unreachable_endpoint_answers_503_and_changes_nothing(client, server, owner, bot_token, ledger_facts,
                                                                closed_port):
    model_endpoint_set(server=server, actor=owner, purpose=ModelPurpose.REPLY,
                       base_url=f"http://127.0.0.1:{closed_port}/v1", model_name="nothing", api_key=MODEL_API_KEY)
    before = facts_snapshot(server)

    response = api_post(client, reply_url(server), bot_token, reply_body())

    exchange = assert_503_and_nothing_changed(response, server, before, "could not be reached")
    assert exchange.model_calls == 1  # one call attempted (with its one retry on the connection)


def test_an_http_500_answers_503_and_changes_nothing(client, server, bot_token, model_server, ledger_facts):
    model_server.script = [Status(500), forget_everything(ledger_facts)]
    before = facts_snapshot(server)

    response = api_post(client, reply_url(server), bot_token, reply_body())

    assert_503_and_nothing_changed(response, server, before, "HTTP 500")
    assert model_server.chat_calls == 1  # no retry on an error answer


@pytest.mark.parametrize("body", [
    b"{this is not json",
    b"\xff\xfe not utf-8",
    b"[]",
    b'{"choices": []}',
    b'{"choices": [{"message": "text"}]}',
    b'{"choices": [{"message": {"content": 42}}]}',
])
def test_a_malformed_body_answers_503_and_changes_nothing(client, server, bot_token, model_server, ledger_facts,
                                                          body):
    model_server.script = [Raw(body)]
    before = facts_snapshot(server)

    response = api_post(client, reply_url(server), bot_token, reply_body())

    assert_503_and_nothing_changed(response, server, before, "The model endpoint answered")


def test_a_model_slower_than_the_timeout_answers_503_and_changes_nothing(client, server, bot_token, model_server,
                                                                         ledger_facts, settings):
    settings.LOREKEEPER_MODEL_TIMEOUT_S = 0.5
    model_server.script = [Slow(3, forget_everything(ledger_facts))]
    before = facts_snapshot(server)
    started = time.monotonic()

    response = api_post(client, reply_url(server), bot_token, reply_body())

    assert time.monotonic() - started < 2.5
    assert_503_and_nothing_changed(response, server, before, "did not answer within 0.5 seconds")


def test_a_failure_in_the_second_call_changes_nothing_from_the_first_answer(client, server, owner, bot_token,
                                                                          model_server):
    use_memory_type(server, owner, "archive")
    shown = make_fact(server, key="important_rule", content="No spoilers in #general.")
    model_server.script = [
        answer("", [tool_call("search_memory", query="spoilers"),
                    tool_call("forget_memory", number=shown.number, reason="gone"),
                    tool_call("remember", key="new_fact", content="Something new.", importance=0.5)]),
        Status(502),
    ]
    before = facts_snapshot(server)

    response = api_post(client, reply_url(server), bot_token, reply_body())

    assert_503_and_nothing_changed(response, server, before, "HTTP 502")
    assert model_server.chat_calls == 2


def test_the_pipeline_raises_reply_failed_with_the_failed_exchange(server, model_server, ledger_facts):
    model_server.script = [Status(503)]
    before = facts_snapshot(server)

    with pytest.raises(ReplyFailed) as failed:
        reply_to_message(server=server, message=paul_says(), history=[])

    assert failed.value.exchange.status == ExchangeStatus.FAILED
    assert "HTTP 503" in failed.value.reason
    assert Exchange.objects.get(pk=failed.value.exchange.pk).error == failed.value.reason
    assert facts_snapshot(server) == before


def test_without_a_reply_model_the_reply_answers_503_with_a_clear_sentence(client, server, bot_token, ledger_facts):
    before = facts_snapshot(server)

    response = api_post(client, reply_url(server), bot_token, reply_body())

    exchange = assert_503_and_nothing_changed(response, server, before, NO_REPLY_MODEL)
    assert "No reply model is configured for this server" in response.json()["error"]
    assert exchange.model_calls == 0


def test_a_removed_reply_model_is_no_reply_model(client, server, owner, bot_token, model_server):
    model_endpoint_remove(server=server, actor=owner, purpose=ModelPurpose.REPLY)

    response = api_post(client, reply_url(server), bot_token, reply_body())

    assert response.status_code == 503
    assert model_server.chat_calls == 0
    assert Exchange.objects.get(server=server).error == NO_REPLY_MODEL


def test_a_failed_reply_leaves_the_facts_in_the_next_context(client, server, bot_token, model_server, ledger_facts):
    model_server.script = [Status(500), answer("Hello again.")]
    api_post(client, reply_url(server), bot_token, reply_body())

    response = api_post(client, reply_url(server), bot_token, reply_body())

    assert response.status_code == 200
    assert sorted(response.json()["memory"]["injected"]) == sorted(fact.number for fact in ledger_facts)
    assert Fact.objects.filter(server=server, retracted_at__isnull=True).count() == 2


def test_a_failure_where_memory_may_not_be_written_is_still_recorded(client, server, owner, bot_token,
                                                                    model_server):
    set_channel_rules(server, owner, write=["999"])
    model_server.script = [Status(500)]

    response = api_post(client, reply_url(server), bot_token, reply_body())

    assert response.status_code == 503
    exchange = Exchange.objects.get(server=server)
    assert (exchange.status, exchange.write_allowed) == (ExchangeStatus.FAILED, False)


def test_a_nul_or_lone_surrogate_in_the_reply_is_dropped_not_a_500(server, model_server):
    from memory.bot.exchanges import IncomingMessage
    from memory.bot.reply import reply_to_message
    from tests.model_server import Raw

    model_server.script = [Raw(b'{"choices": [{"message": {"role": "assistant", "content": "hel\\u0000lo \\udc00!"}}]}')]
    outcome = reply_to_message(server=server, message=IncomingMessage(channel_id="111", author_id="2", content="hi"),
                               history=[])
    assert outcome.reply.startswith("hello ")
    outcome.exchange.refresh_from_db()
    assert outcome.exchange.reply == outcome.reply
