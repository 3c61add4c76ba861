"""POST /api/v1/servers/{guild_id}/reply under the server's reply deadline and the reply model's monthly budget
(API.md §4): past the deadline 503 with the reason, the exchange timed out and memory untouched; over budget 429
with Retry-After (the next calendar month, UTC) and no request reaching the model server."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.utils import timezone

from memory.models import Exchange, ExchangeStatus, MemoryType, ModelCall, UsagePurpose
from memory.usage.budget import next_period_start, period_start, seconds_to_next_period
from tests.factories import make_fact, record_call
from tests.model_server import Slow, answer, tool_call

from .helpers import assert_error, configure, memory_state, message


def reply_body():
    return {**message(), "history": []}


@pytest.fixture
def ledger(server):
    configure(server, memory_type=MemoryType.LEDGER)
    return [make_fact(server, key="server_theme", content="This server is about retro gaming."),
            make_fact(server, key="raid_night", content="Raids are on Fridays.")]


def used(server, tokens: int, purpose: str = UsagePurpose.REPLY, **fields) -> None:
    record_call(server, purpose, tokens, 0, **fields)


def test_a_model_that_never_answers_ends_at_the_deadline_timed_out_and_nothing_changes(api, server, ledger, model):
    configure(server, reply_deadline_seconds=5)  # the smallest deadline the setting allows
    # It would answer after 30 s with memory actions; the reply must not wait for it, nor apply anything.
    model.script = [Slow(30, answer("Too late.", [tool_call("forget_memory", number=1, reason="old"),
                                                  tool_call("remember", key="late", content="Too late.")]))]
    before = memory_state()
    started = time.monotonic()
    body = assert_error(api.post(f"/servers/{server.guild_id}/reply", reply_body()), 503, None)
    took = time.monotonic() - started
    assert 4.9 <= took < 7, took
    assert body["error"].startswith("The reply was given up and nothing was changed")
    assert "reply deadline of 5 seconds" in body["error"]
    after = memory_state()
    assert after["facts"] == before["facts"] and after["summaries"] == before["summaries"]
    exchange = Exchange.objects.get(server=server)
    assert exchange.status == ExchangeStatus.TIMED_OUT
    assert "reply deadline of 5 seconds" in exchange.error
    assert (exchange.reply, exchange.actions, exchange.model_calls) == ("", [], 1)
    assert api.exchange(str(exchange.pk))["status"] == "timed_out"
    # The call was made and its endpoint reported nothing: recorded, as unknown.
    call = ModelCall.objects.get(exchange=exchange)
    assert (call.purpose, call.prompt_tokens, call.completion_tokens) == ("reply", None, None)


def test_a_reply_records_the_usage_its_endpoint_reports_and_unknown_where_it_reports_none(api, server, ledger,
                                                                                           model):
    configure(server, memory_type=MemoryType.ARCHIVE)
    model.script = [{**answer("", [tool_call("search_memory", query="raids")]),
                     "usage": {"prompt_tokens": 812, "completion_tokens": 17, "total_tokens": 829}},
                    answer("Raids are on Fridays.")]  # no usage at all
    response = api.post(f"/servers/{server.guild_id}/reply", reply_body())
    assert response.status_code == 200, response.content
    exchange = Exchange.objects.get(pk=response.json()["exchange"])
    calls = list(ModelCall.objects.filter(exchange=exchange).order_by("id").values_list(
        "purpose", "model_name", "prompt_tokens", "completion_tokens"))
    assert calls == [("reply", "fake", 812, 17), ("reply", "fake", None, None)]


def test_over_the_reply_budget_it_answers_429_with_retry_after_and_asks_no_model(api, server, ledger, model):
    configure(server, reply_token_budget=1000)
    used(server, 600)
    used(server, 400)  # 1000 this month: used up
    used(server, 5000, called_at=timezone.now() - timedelta(days=40))  # last month's: not counted
    before = memory_state()
    response = api.post(f"/servers/{server.guild_id}/reply", reply_body())
    body = assert_error(response, 429, None)
    assert "monthly budget of 1,000 tokens is used up (1,000 tokens recorded this month)" in body["error"]
    expected = (next_period_start() - timezone.now()).total_seconds()
    assert abs(int(response["Retry-After"]) - expected) <= 5
    assert model.chat_calls == 0  # no request reached the model server
    assert memory_state() == before  # no exchange recorded either
    assert not Exchange.objects.filter(server=server).exists()


def test_under_the_budget_and_with_unknown_usage_counted_as_nothing_it_answers(api, server, ledger, model):
    configure(server, reply_token_budget=1000)
    used(server, 999)
    record_call(server, UsagePurpose.REPLY)  # unknown: 0
    used(server, 50_000, purpose=UsagePurpose.CONSOLIDATION)  # another budget's
    response = api.post(f"/servers/{server.guild_id}/reply", reply_body())
    assert response.status_code == 200, response.content
    assert model.chat_calls == 1


def test_retry_after_counts_to_the_first_of_next_month_utc():
    moment = datetime(2026, 12, 31, 23, 59, 30, tzinfo=dt_timezone.utc)
    assert period_start(moment) == datetime(2026, 12, 1, tzinfo=dt_timezone.utc)
    assert next_period_start(moment) == datetime(2027, 1, 1, tzinfo=dt_timezone.utc)
    assert seconds_to_next_period(moment) == 30


def test_another_teams_token_and_no_token_are_refused_before_any_budget_is_read(api, server, ledger, model,
                                                                                  other_bot_token):
    configure(server, reply_token_budget=1)
    used(server, 5)
    assert_error(api.as_token(None).post(f"/servers/{server.guild_id}/reply", reply_body()), 401)
    assert_error(api.as_token(other_bot_token).post(f"/servers/{server.guild_id}/reply", reply_body()), 404)
    assert_error(api.post(f"/servers/{server.guild_id}/reply", {"channel_id": "x"}), 400)
    assert model.chat_calls == 0
