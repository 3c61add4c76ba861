"""Every fact item of the API says who may see the fact (audience, channel_id), whichever read produced it."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from memory.bot.selectors import exchange_facts_in_force
from memory.bot.api.serializers import facts_as_json
from memory.models import Audience, Exchange, MemoryType
from tests.factories import make_fact

from .helpers import configure


def test_a_ranked_context_says_each_facts_audience_and_channel(api, server):
    configure(server, memory_type=MemoryType.RANKED)
    make_fact(server, key="theme", content="This server is about retro gaming.")
    make_fact(server, key="ban_plan", content="Mods ban X on Friday.", audience=Audience.CHANNEL,
              source_channel_id="111")
    facts = api.context(server, channel_id="111")["facts"]
    assert {(fact["key"], fact["audience"], fact["channel_id"]) for fact in facts} == {
        ("theme", "server", None), ("ban_plan", "channel", "111")}


def test_an_exchanges_facts_are_read_in_one_query_with_their_audiences(api, server):
    configure(server, memory_type=MemoryType.ARCHIVE)
    for index in range(5):
        make_fact(server, key=f"k{index}", content=f"Fact {index}.", audience=Audience.CHANNEL,
                  source_channel_id="111")
    exchange = Exchange.objects.get(pk=api.context(server, channel_id="111")["exchange"])
    with CaptureQueriesContext(connection) as queries:
        items = facts_as_json(exchange_facts_in_force(exchange))
    assert len(queries) == 1
    assert [(item["audience"], item["channel_id"]) for item in items] == [("channel", "111")] * 5
