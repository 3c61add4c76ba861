"""Members' words are not kept forever: past the server's *Keep exchange logs for* days an exchange loses its text
and keeps what provenance needs; facts are untouched; 0 keeps logs forever; running twice trims nothing more."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from memory.bot.actions import Remember, exchange_apply_actions
from memory.bot.exchanges import IncomingMessage, exchange_finish, exchange_open
from memory.bot.retention import exchange_logs_trim
from memory.configuration.services import ai_settings_ensure
from memory.models import Exchange, Fact
from memory.tasks import trim_exchange_logs


def an_exchange(server, *, days_ago: float, content="my birthday is 3 May"):
    opened = exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id="222",
                                                                  author_name="Paul", content=content))
    exchange_apply_actions(exchange=opened.exchange, ops=[Remember(key="paul_birthday", content=f"{days_ago} days.")])
    exchange_finish(exchange=opened.exchange, status="replied", reply="Noted, Paul!", model_calls=1)
    Exchange.objects.filter(pk=opened.exchange.pk).update(created_at=timezone.now() - timedelta(days=days_ago))
    return Exchange.objects.get(pk=opened.exchange.pk)


def test_old_logs_lose_their_words_and_keep_their_provenance(server):
    old = an_exchange(server, days_ago=91)
    recent = an_exchange(server, days_ago=89)

    assert exchange_logs_trim(now=timezone.now()) == 1

    old.refresh_from_db()
    assert (old.message, old.memory_block, old.reply) == ("", "", "")
    assert old.trimmed_at is not None
    assert (old.author_id, old.channel_id, old.shown_numbers) == ("222", "111", old.shown_numbers)
    assert old.actions[0]["op"] == "remember" and old.actions[0]["status"] == "applied"
    recent.refresh_from_db()
    assert recent.message == "my birthday is 3 May" and recent.trimmed_at is None
    assert Fact.objects.count() == 2  # facts are never touched


def test_trimming_twice_trims_nothing_more(server):
    an_exchange(server, days_ago=200)

    assert trim_exchange_logs() == 1
    assert trim_exchange_logs() == 0


def test_zero_days_keeps_logs_forever(server):
    settings = ai_settings_ensure(server=server)
    settings.exchange_log_days = 0
    settings.save(update_fields=["exchange_log_days"])
    kept = an_exchange(server, days_ago=3000)

    assert exchange_logs_trim(now=timezone.now()) == 0
    kept.refresh_from_db()
    assert kept.message and kept.trimmed_at is None


def test_each_server_keeps_its_own_number_of_days(server, other_server):
    settings = ai_settings_ensure(server=server)
    settings.exchange_log_days = 7
    settings.save(update_fields=["exchange_log_days"])
    ours = an_exchange(server, days_ago=8)
    theirs = an_exchange(other_server, days_ago=8)

    exchange_logs_trim(now=timezone.now())

    ours.refresh_from_db()
    theirs.refresh_from_db()
    assert ours.trimmed_at is not None and theirs.trimmed_at is None
