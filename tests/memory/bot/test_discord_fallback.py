"""What the Discord adapter posts when the bot cannot answer (memory.bot.discord.reply_text): past the reply deadline
or over the reply model's monthly budget the server's fallback text, nothing when that is empty; over budget no
request reaches the model server. Nothing in memory changes either way."""

from __future__ import annotations

import time

import pytest

from memory.bot.discord import reply_text
from memory.configuration.services import ai_settings_update
from memory.models import Exchange, ExchangeStatus, ModelCall, UsagePurpose
from teams.models import Server
from tests.factories import make_fact, record_call
from tests.memory.conftest import facts_snapshot, paul_says, use_memory_type
from tests.model_server import Slow, Status, answer, tool_call

FALLBACK = "I can't answer right now; ask a moderator."


@pytest.fixture
def ledger(server, owner):
    use_memory_type(server, owner, "ledger")
    return make_fact(server, key="server_theme", content="This server is about retro gaming.")


def settings(server, owner, **fields) -> Server:
    """Change AI settings as staff do; the server read again, as the adapter reads it (reply_target_for_guild)."""
    ai_settings_update(server=server, actor=owner, **fields)
    return Server.objects.get(pk=server.pk)


def test_past_the_deadline_it_posts_the_fallback_text_and_memory_is_untouched(server, owner, ledger, model_server):
    server = settings(server, owner, reply_deadline_seconds=5, fallback_text=FALLBACK)
    model_server.script = [Slow(30, answer("Late.", [tool_call("forget_memory", number=1, reason="old")]))]
    before = facts_snapshot(server)
    started = time.monotonic()
    assert reply_text(server=server, message=paul_says(), history=[]) == FALLBACK
    assert time.monotonic() - started < 7
    assert facts_snapshot(server) == before
    assert Exchange.objects.get(server=server).status == ExchangeStatus.TIMED_OUT


def test_over_budget_it_posts_the_fallback_text_and_asks_no_model(server, owner, ledger, model_server):
    server = settings(server, owner, reply_token_budget=100, fallback_text=FALLBACK)
    record_call(server, UsagePurpose.REPLY, 90, 10)
    assert reply_text(server=server, message=paul_says(), history=[]) == FALLBACK
    assert model_server.chat_calls == 0
    assert not Exchange.objects.filter(server=server).exists()


def test_without_a_fallback_text_it_posts_nothing(server, owner, ledger, model_server):
    server = settings(server, owner, reply_token_budget=100)
    record_call(server, UsagePurpose.REPLY, 100)
    assert reply_text(server=server, message=paul_says(), history=[]) == ""
    assert model_server.chat_calls == 0


def test_a_failing_model_posts_nothing_even_with_a_fallback_text(server, owner, ledger, model_server):
    server = settings(server, owner, fallback_text=FALLBACK)
    model_server.script = [Status(500)]
    assert reply_text(server=server, message=paul_says(), history=[]) == ""
    assert Exchange.objects.get(server=server).status == ExchangeStatus.FAILED


def test_under_budget_it_answers(server, owner, ledger, model_server):
    server = settings(server, owner, reply_token_budget=100, fallback_text=FALLBACK)
    model_server.script = [{**answer("Hello Paul."), "usage": {"prompt_tokens": 40, "completion_tokens": 5}}]
    assert reply_text(server=server, message=paul_says(), history=[]) == "Hello Paul."
    assert list(ModelCall.objects.values_list("prompt_tokens", "completion_tokens")) == [(40, 5)]
