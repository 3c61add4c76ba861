"""Actions arriving later follow the server's memory type and channel rules as they are now."""

from __future__ import annotations

from memory.bot.actions import Remember, Retract, exchange_apply_actions
from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.configuration.services import ChannelRule, ai_settings_update, memory_type_set
from memory.models import Fact
from tests.factories import make_fact


def test_a_retract_after_switching_to_ledger_retracts_instead_of_deleting(server, owner):
    fact = make_fact(server)
    opened = exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id="2", content="hi"))
    memory_type_set(server=server, actor=owner, memory_type="ledger")

    results = exchange_apply_actions(exchange=opened.exchange, ops=[Retract(number=fact.number, reason="gone")])

    assert results[0].status == "applied"
    assert Fact.objects.get(pk=fact.pk).retracted_at is not None


def test_nothing_is_written_once_the_channel_is_closed_to_writing(server, owner):
    opened = exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id="2", content="hi"))
    ai_settings_update(server=server, actor=owner, max_injected_items=20, weight_recency=1, weight_importance=1,
                       weight_relevance=1, read=ChannelRule(True), write=ChannelRule(False, ("999",)),
                       include_threads=False)

    results = exchange_apply_actions(exchange=opened.exchange, ops=[Remember(key="k", content="Late fact.")])

    assert (results[0].status, results[0].detail) == ("ignored", "memory may not be written in this channel")
    assert not Fact.objects.exists()
