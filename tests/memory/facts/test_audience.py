"""Who may see a fact, as written: staff choose it, widening a fact learned in a private channel is confirmed
first, and every change is in the audit log with its old and new audience."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from memory.configuration.directory import ReportedChannel, channels_report
from memory.configuration.selectors import learned_where
from memory.facts.services import FactAuthor, WideningNeedsConfirmation, fact_audience_set, fact_create
from memory.models import Audience, Fact
from teams.models import AuditEntry
from tests.factories import make_fact
from tests.memory.conftest import GENERAL, MODS
from tests.memory.conftest import MODS_THREAD as THREAD


def test_a_staff_fact_is_for_the_whole_server_unless_staff_choose(server, owner):
    fact = fact_create(server=server, author=FactAuthor.staff(owner), key="theme", content="Retro gaming.")

    assert (fact.audience, fact.source_channel_id) == (Audience.SERVER, "")


def test_a_fact_for_one_channel_needs_that_channel(server, owner):
    with pytest.raises(ValidationError, match="needs that channel"):
        fact_create(server=server, author=FactAuthor.staff(owner), key="k", content="c", audience=Audience.CHANNEL)
    assert not Fact.objects.exists()


@pytest.mark.parametrize("audience", ["everyone", "", None, "SERVER"])
def test_an_audience_outside_the_three_is_refused_with_a_sentence(server, owner, audience):
    with pytest.raises(ValidationError, match="'server', 'channel' or 'staff'"):
        fact_create(server=server, author=FactAuthor.staff(owner), key="k", content="c", audience=audience)


def test_a_channel_id_that_is_not_a_snowflake_is_refused(server, owner):
    with pytest.raises(ValidationError, match="snowflake"):
        fact_create(server=server, author=FactAuthor.staff(owner), key="k", content="c",
                    audience=Audience.CHANNEL, source_channel_id="general")


def test_the_database_refuses_a_channel_audience_without_its_channel(server):
    fact = make_fact(server)
    with pytest.raises(IntegrityError), transaction.atomic():
        Fact.objects.filter(pk=fact.pk).update(audience=Audience.CHANNEL, source_channel_id="")


def test_the_database_refuses_an_unknown_audience(server):
    fact = make_fact(server)
    with pytest.raises(IntegrityError), transaction.atomic():
        Fact.objects.filter(pk=fact.pk).update(audience="public")


def test_public_channels_give_server_private_and_unreported_give_channel(server, channels):
    assert learned_where(server, GENERAL).audience == Audience.SERVER
    assert learned_where(server, MODS).audience == Audience.CHANNEL
    assert learned_where(server, "999").audience == Audience.CHANNEL  # nobody reported it: private


def test_a_thread_counts_as_the_channel_it_was_started_in(server, channels):
    where = learned_where(server, THREAD, thread_parent_id=MODS)

    assert (where.audience, where.source_channel_id, where.source_thread_id) == (Audience.CHANNEL, MODS, THREAD)


def test_a_private_thread_of_a_public_channel_is_a_channel_of_its_own(server, channels):
    channels_report(server=server, channels=[
        ReportedChannel(channel_id="334", name="ticket-7", parent_id=GENERAL, is_thread=True, public=False),
        ReportedChannel(channel_id="335", name="planning", parent_id=GENERAL, is_thread=True, public=True)])

    private, public, unreported = (learned_where(server, thread, thread_parent_id=GENERAL)
                                   for thread in ("334", "335", "336"))

    assert (private.audience, private.source_channel_id, private.source_thread_id) == (Audience.CHANNEL, "334", "334")
    assert (public.audience, public.source_channel_id, public.source_thread_id) == (Audience.SERVER, GENERAL, "335")
    assert (unreported.audience, unreported.source_channel_id) == (Audience.CHANNEL, "336")  # nobody said it is public


def test_narrowing_a_fact_to_its_channel_is_one_call_and_audited(server, owner, channels):
    fact = make_fact(server, source_channel_id=GENERAL)

    fact_audience_set(fact=fact, audience=Audience.CHANNEL, actor=owner)

    fact.refresh_from_db()
    assert (fact.audience, fact.source_channel_id) == (Audience.CHANNEL, GENERAL)
    entry = AuditEntry.objects.get(action="fact.audience")
    assert (entry.actor, entry.target_ids, entry.result) == (owner, [fact.number], "server → #general")


def test_widening_a_fact_learned_in_a_private_channel_asks_first_and_names_it(server, owner, channels):
    fact = make_fact(server, audience=Audience.CHANNEL, source_channel_id=MODS)

    with pytest.raises(WideningNeedsConfirmation) as asked:
        fact_audience_set(fact=fact, audience=Audience.SERVER, actor=owner)

    assert asked.value.channel_label == "#mod-chat"
    fact.refresh_from_db()
    assert fact.audience == Audience.CHANNEL
    assert not AuditEntry.objects.filter(action="fact.audience").exists()

    fact_audience_set(fact=fact, audience=Audience.SERVER, actor=owner, confirm_widening=True)

    fact.refresh_from_db()
    assert fact.audience == Audience.SERVER
    assert AuditEntry.objects.get(action="fact.audience").result == "#mod-chat → server"


def test_widening_a_fact_learned_in_a_public_channel_needs_no_confirmation(server, owner, channels):
    fact = make_fact(server, audience=Audience.STAFF, source_channel_id=GENERAL)

    fact_audience_set(fact=fact, audience=Audience.SERVER, actor=owner)

    assert Fact.objects.get(pk=fact.pk).audience == Audience.SERVER


def test_a_fact_learned_in_one_channel_cannot_be_moved_to_another(server, owner, channels):
    fact = make_fact(server, audience=Audience.CHANNEL, source_channel_id=MODS)

    with pytest.raises(ValidationError, match="learned in another channel"):
        fact_audience_set(fact=fact, audience=Audience.CHANNEL, actor=owner, channel_id=GENERAL)


def test_staff_give_their_own_fact_a_channel(server, owner, channels):
    fact = fact_create(server=server, author=FactAuthor.staff(owner), key="ban_plan", content="Ban X on Friday.")

    fact_audience_set(fact=fact, audience=Audience.CHANNEL, actor=owner, channel_id=MODS)

    fact.refresh_from_db()
    assert (fact.audience, fact.source_channel_id) == (Audience.CHANNEL, MODS)


def test_narrowing_a_fact_learned_nowhere_to_a_channel_needs_one(server, owner):
    fact = fact_create(server=server, author=FactAuthor.staff(owner), key="k", content="c")

    with pytest.raises(ValidationError, match="Choose the channel"):
        fact_audience_set(fact=fact, audience=Audience.CHANNEL, actor=owner)
