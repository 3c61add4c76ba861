"""What the bot learns takes the audience of where it learned it: a public channel's facts are for the server, a
private channel's (or one nobody reported) for that channel, a thread's for its parent's audience; a remember may
only narrow that, and a supersede keeps the audience of the fact it replaces."""

from __future__ import annotations

import pytest

from memory.bot.actions import Remember, Supersede, build_remember, exchange_apply_actions
from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.configuration.services import ChannelRule, ai_settings_update, memory_type_set
from memory.models import Audience, Fact, MemoryType
from tests.factories import make_fact
from tests.memory.conftest import GENERAL, MODS
from tests.memory.conftest import MODS_THREAD as THREAD


def remember_in(server, channel_id, *, thread_parent_id="", **remember):
    opened = exchange_open(server=server, message=IncomingMessage(
        channel_id=channel_id, thread_parent_id=thread_parent_id, author_id="200000000000000011", content="hi"))
    op = Remember(key=remember.pop("key", "k"), content=remember.pop("content", "A fact."), **remember)
    return exchange_apply_actions(exchange=opened.exchange, ops=[op])[0]


@pytest.mark.parametrize(("channel_id", "audience"), [(GENERAL, Audience.SERVER), (MODS, Audience.CHANNEL),
                                                       ("999", Audience.CHANNEL)])
def test_a_remembered_fact_takes_the_audience_of_its_channel(server, channels, channel_id, audience):
    result = remember_in(server, channel_id)

    fact = Fact.objects.get(number=result.number)
    assert (result.status, fact.audience, fact.source_channel_id, fact.source_thread_id) == (
        "applied", audience, channel_id, "")


def test_a_fact_learned_in_a_thread_records_the_thread_and_takes_its_channels_audience(server, owner, channels):
    ai_settings_update(server=server, actor=owner, max_injected_items=20, weight_recency=1, weight_importance=1,
                       weight_relevance=1, read=ChannelRule(True), write=ChannelRule(True), include_threads=True)

    result = remember_in(server, THREAD, thread_parent_id=MODS)

    fact = Fact.objects.get(number=result.number)
    assert (fact.audience, fact.source_channel_id, fact.source_thread_id) == (Audience.CHANNEL, MODS, THREAD)


def test_a_remember_may_narrow_its_audience(server, channels):
    result = remember_in(server, GENERAL, audience=Audience.STAFF)

    assert Fact.objects.get(number=result.number).audience == Audience.STAFF


def test_a_remember_that_would_widen_its_audience_is_ignored_with_the_reason(server, channels):
    result = remember_in(server, MODS, audience=Audience.SERVER)

    assert result.status == "ignored"
    assert result.detail == ("a remember may only narrow the audience it inherits (channel in this channel), "
                             "not widen it to server")
    assert not Fact.objects.exists()


def test_an_unknown_audience_in_a_remember_is_refused_naming_the_field():
    with pytest.raises(Exception) as refused:
        build_remember(key="k", content="c", audience="everyone")
    assert "audience" in refused.value.message_dict


def test_a_supersession_keeps_the_audience_and_source_of_the_fact_it_replaces(server, owner, channels):
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.LEDGER)
    old = make_fact(server, audience=Audience.CHANNEL, source_channel_id=MODS, source_thread_id=THREAD)
    opened = exchange_open(server=server, message=IncomingMessage(channel_id=MODS, author_id="2", content="ban?"))
    opened.exchange.shown_numbers = [old.number]
    opened.exchange.save(update_fields=["shown_numbers"])

    result = exchange_apply_actions(exchange=opened.exchange,
                                    ops=[Supersede(number=old.number, content="Ban X on Saturday.", reason="moved")])[0]

    new = Fact.objects.get(number=result.new_number)
    assert (new.audience, new.source_channel_id, new.source_thread_id) == (Audience.CHANNEL, MODS, THREAD)
