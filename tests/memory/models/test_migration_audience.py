"""Migration 0020: existing bot facts get the channel their exchange tells and that channel's audience; the rest
keep `server`."""

from __future__ import annotations

import importlib

from django.db import connection

from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.configuration.directory import ReportedChannel, channels_report
from memory.facts.services import FactAuthor
from memory.models import Audience, Fact
from tests.factories import make_fact

migration = importlib.import_module("memory.migrations.0020_audience_of_existing_facts")


def learned_in(server, channel_id, thread_parent_id="", key="k"):
    exchange = exchange_open(server=server, message=IncomingMessage(
        channel_id=channel_id, thread_parent_id=thread_parent_id, author_id="2", content="hi")).exchange
    return make_fact(server, key=key, content=f"Learned in {channel_id}.", source_exchange=exchange)


def as_before_the_migration() -> None:
    with connection.cursor() as cursor:
        cursor.execute(migration.BACKWARD)


def migrate_forward() -> None:
    with connection.cursor() as cursor:
        cursor.execute(migration.FORWARD)


def stored(key: str) -> tuple[str, str, str]:
    return Fact.objects.values_list("audience", "source_channel_id", "source_thread_id").get(key=key)


def test_bot_facts_take_their_exchanges_channel_and_its_audience(server, owner):
    channels_report(server=server, channels=[ReportedChannel(channel_id="111", name="general", public=True),
                                             ReportedChannel(channel_id="222", name="mod-chat")])
    learned_in(server, "111", key="public")
    learned_in(server, "222", key="private")
    learned_in(server, "999", key="unreported")
    learned_in(server, "333", thread_parent_id="111", key="thread")
    make_fact(server, key="no_exchange")
    make_fact(server, key="staff", author=FactAuthor.staff(owner))
    as_before_the_migration()

    migrate_forward()

    assert stored("public") == (Audience.SERVER, "111", "")
    assert stored("private") == (Audience.CHANNEL, "222", "")
    assert stored("unreported") == (Audience.CHANNEL, "999", "")
    assert stored("thread") == (Audience.SERVER, "111", "333")
    assert stored("no_exchange") == (Audience.SERVER, "", "")
    assert stored("staff") == (Audience.SERVER, "", "")


def test_running_it_twice_changes_nothing_more(server):
    learned_in(server, "222", key="private")
    as_before_the_migration()
    migrate_forward()
    migrate_forward()

    assert stored("private") == (Audience.CHANNEL, "222", "")
