"""Kinds of fact and pinned facts, as written: a member fact is a profile unless said otherwise, staff pin and
unpin (audited), a retracted fact cannot be pinned, and the bot can neither retract nor supersede a pinned fact."""

from __future__ import annotations

import importlib

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from memory.bot.actions import Remember, Retract, Supersede, build_remember, exchange_apply_actions
from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.configuration.directory import SeenMember, members_seen
from memory.configuration.selectors import member_names
from memory.configuration.services import memory_type_set
from memory.facts.services import FactAuthor, fact_create, fact_pin_set, fact_retract, fact_update
from memory.models import Fact, Kind, MemoryType, Scope
from teams.models import AuditEntry
from tests.factories import make_fact

migration = importlib.import_module("memory.migrations.0022_kind_of_existing_facts")


def test_a_fact_nobody_gave_a_kind_is_lore_and_a_member_fact_a_profile(server):
    assert make_fact(server).kind == Kind.LORE
    assert make_fact(server, scope=Scope.MEMBER, member_id="222").kind == Kind.PROFILE


def test_a_kind_outside_the_five_is_refused_with_a_sentence(server, owner):
    with pytest.raises(ValidationError, match="'rule', 'lore', 'profile', 'preference' or 'event'"):
        fact_create(server=server, author=FactAuthor.staff(owner), key="k", content="c", kind="opinion")
    assert not Fact.objects.exists()


def test_the_database_refuses_an_unknown_kind(server):
    fact = make_fact(server)
    with pytest.raises(IntegrityError), transaction.atomic():
        Fact.objects.filter(pk=fact.pk).update(kind="opinion")


def test_staff_set_the_kind_when_editing(server, owner):
    fact = make_fact(server, key="rule_support", content="Support only in #help.")

    fact_update(fact=fact, actor=owner, expected_version=fact.version, key=fact.key, content=fact.content,
                confidence=1.0, kind=Kind.RULE)

    assert Fact.objects.get(pk=fact.pk).kind == Kind.RULE


def test_the_migration_makes_existing_member_facts_profiles_and_the_rest_lore(server):
    member_fact = make_fact(server, scope=Scope.MEMBER, member_id="222")
    server_fact = make_fact(server, key="theme")
    Fact.objects.update(kind=Kind.LORE)  # as the column's default left them

    with connection.cursor() as cursor:
        cursor.execute(migration.FORWARD)

    assert Fact.objects.get(pk=member_fact.pk).kind == Kind.PROFILE
    assert Fact.objects.get(pk=server_fact.pk).kind == Kind.LORE


def test_staff_pin_and_unpin_a_fact_and_both_are_audited(server, owner):
    fact = make_fact(server)

    fact_pin_set(fact=fact, pinned=True, actor=owner)
    assert Fact.objects.get(pk=fact.pk).pinned
    fact_pin_set(fact=fact, pinned=False, actor=owner)

    assert not Fact.objects.get(pk=fact.pk).pinned
    assert list(AuditEntry.objects.order_by("id").values_list("action", "target_ids")) == [
        ("fact.pin", [fact.number]), ("fact.unpin", [fact.number])]


def test_a_retracted_fact_cannot_be_pinned(server, owner):
    fact = make_fact(server)
    fact_retract(fact=fact, reason="gone")

    with pytest.raises(ValidationError, match="restore it before pinning"):
        fact_pin_set(fact=fact, pinned=True, actor=owner)
    assert not Fact.objects.get(pk=fact.pk).pinned


@pytest.mark.parametrize("memory_type", [MemoryType.CLASSIC, MemoryType.LEDGER])
def test_the_bot_cannot_retract_or_supersede_a_pinned_fact(server, owner, memory_type):
    memory_type_set(server=server, actor=owner, memory_type=memory_type)
    rule = make_fact(server, key="rule_support", content="No support in public channels.", kind=Kind.RULE)
    fact_pin_set(fact=rule, pinned=True, actor=owner)
    opened = exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id="2", content="hi"))
    opened.exchange.shown_numbers = [rule.number]
    opened.exchange.save(update_fields=["shown_numbers"])
    ops = [Retract(number=rule.number, reason="old")]
    if memory_type == MemoryType.LEDGER:
        ops.append(Supersede(number=rule.number, content="Support anywhere.", reason="new"))

    results = exchange_apply_actions(exchange=opened.exchange, ops=ops)

    assert {(result.status, result.detail) for result in results} == {
        ("ignored", f"fact #{rule.number} is pinned by staff; only staff can change it")}
    stored = Fact.objects.get(pk=rule.pk)
    assert stored.retracted_at is None and stored.content == "No support in public channels."


def test_the_bot_gives_the_kind_when_it_remembers(server):
    opened = exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id="2", content="hi"))

    result = exchange_apply_actions(exchange=opened.exchange, ops=[
        Remember(key="cup_final", content="The cup final is on 12 July.", kind=Kind.EVENT)])[0]

    assert Fact.objects.get(number=result.number).kind == Kind.EVENT


def test_a_remember_with_an_unknown_kind_is_refused_naming_the_field():
    with pytest.raises(ValidationError) as refused:
        build_remember(key="k", content="c", kind="gossip")
    assert "kind" in refused.value.message_dict


def test_members_are_remembered_by_their_latest_display_name(server):
    members_seen(server=server, members=[SeenMember("222", "Paul"), SeenMember("333", "Mira")])
    assert members_seen(server=server, members=[SeenMember("222", "Paul")]) == 0  # unchanged: no write
    members_seen(server=server, members=[SeenMember("222", "Paul R."), SeenMember("not-an-id", "X"),
                                         SeenMember("444", "  ")])

    assert member_names(server, ["222", "333", "444", "555"]) == {"222": "Paul R.", "333": "Mira"}
