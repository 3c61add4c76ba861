"""Purge by source: every fact learned in one channel (its threads too) or one exchange goes, counted first, with
an audit row either way; facts learned elsewhere stay."""

from __future__ import annotations

import pytest

from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.facts.deletes import facts_purge
from memory.facts.selectors import PurgeSource, facts_learned_in
from memory.models import Audience, Fact
from teams.models import AuditEntry
from tests.factories import make_fact
from tests.memory.conftest import GENERAL, MODS
from tests.memory.conftest import MODS_THREAD as THREAD


def test_purging_a_channel_removes_what_was_learned_there_and_in_its_threads(server, owner, learned):
    source = PurgeSource(channel_id=MODS, channel_name="mod-chat")
    assert facts_learned_in(server, source).count() == 2  # what the page shows before the confirmation

    removed = facts_purge(server=server, source=source, actor=owner)

    assert removed == 2
    assert set(Fact.objects.values_list("key", flat=True)) == {"theme", "rules"}
    entry = AuditEntry.objects.get(action="memory.purge")
    assert (entry.actor, entry.count, entry.result) == (owner, 2, "2 facts learned in #mod-chat deleted")


def test_purging_a_thread_removes_only_what_was_learned_in_it(server, owner, learned):
    assert facts_purge(server=server, source=PurgeSource(channel_id=THREAD), actor=owner) == 1
    assert not Fact.objects.filter(key="ban_reason").exists()
    assert Fact.objects.filter(key="ban_plan").exists()


def test_purging_an_exchange_removes_the_facts_learned_in_it(server, owner):
    exchange = exchange_open(server=server, message=IncomingMessage(channel_id=GENERAL, author_id="2",
                                                                    content="hi")).exchange
    make_fact(server, key="from_it", content="Learned here.", source_exchange=exchange, source_channel_id=GENERAL)
    make_fact(server, key="elsewhere", content="Learned elsewhere.", source_channel_id=GENERAL)

    removed = facts_purge(server=server, source=PurgeSource(exchange_id=exchange.pk), actor=owner)

    assert removed == 1
    assert list(Fact.objects.values_list("key", flat=True)) == ["elsewhere"]


def test_a_purge_that_matches_nothing_removes_nothing_and_is_still_audited(server, owner, learned):
    assert facts_purge(server=server, source=PurgeSource(channel_id="999"), actor=owner) == 0
    assert Fact.objects.count() == 4
    assert AuditEntry.objects.get(action="memory.purge").result == "0 facts learned in channel 999 deleted"


def test_a_purge_never_reaches_another_servers_facts(server, other_server, owner):
    theirs = make_fact(other_server, key="theirs", content="Theirs.", audience=Audience.CHANNEL,
                       source_channel_id=MODS)

    facts_purge(server=server, source=PurgeSource(channel_id=MODS), actor=owner)

    assert Fact.objects.filter(pk=theirs.pk).exists()


def test_exchanges_that_showed_a_purged_fact_keep_no_trace_of_its_words(server, owner, learned):
    exchange = exchange_open(server=server, message=IncomingMessage(channel_id=MODS, author_id="2",
                                                                    content="ban?")).exchange
    assert "We ban X on Friday." in exchange.memory_block

    facts_purge(server=server, source=PurgeSource(channel_id=MODS), actor=owner)

    exchange.refresh_from_db()
    assert "We ban X on Friday." not in exchange.memory_block
    assert f"[#{learned['mods'].number}] (deleted by a purge)" in exchange.memory_block
