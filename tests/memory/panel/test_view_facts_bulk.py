"""Many facts at once (issue 25, configure): the memory page's selected rows retracted, restored, deleted (asked
first, with the count), or given one confidence, importance, kind or audience; one audit row with the count; a fact
that cannot take the change refuses all of it, with a sentence, and nothing changes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from memory.models import Audience, Fact, FactVersion, MemoryType
from teams.models import AuditEntry
from tests.conftest import logged_in_client
from tests.factories import make_fact
from tests.memory.bot.api.helpers import configure, memory_state


@pytest.fixture
def ledger_facts(server):
    configure(server, memory_type=MemoryType.LEDGER)
    return [make_fact(server, key=f"rule_{n}", content=f"Rule number {n} holds.", importance=0.5)
            for n in range(1, 6)]


def bulk(client, server, **data):
    return client.post(reverse("memory:facts-bulk", args=[server.guild_id]), data, follow=True)


def numbers(facts):
    return [str(fact.number) for fact in facts]


def test_retracting_three_selected_facts_is_one_audit_row_and_a_version_each(owner, server, ledger_facts):
    client = logged_in_client(owner)
    page = bulk(client, server, action="retract", numbers=numbers(ledger_facts[:3]), reason="rules rewritten")
    assert "3 facts retracted." in page.content.decode()
    retracted = Fact.objects.filter(server=server, retracted_at__isnull=False)
    assert sorted(retracted.values_list("number", flat=True)) == [fact.number for fact in ledger_facts[:3]]
    assert set(retracted.values_list("retraction_reason", flat=True)) == {"rules rewritten"}
    audit = AuditEntry.objects.get(action="facts.bulk_retract")
    assert audit.count == 3 and audit.result == "3 facts retracted: rules rewritten"
    assert FactVersion.objects.filter(fact__in=retracted, change="retract").count() == 3
    page = bulk(client, server, action="restore", numbers=numbers(ledger_facts[:3]))
    assert "3 facts restored." in page.content.decode()
    assert not Fact.objects.filter(server=server, retracted_at__isnull=False).exists()


def test_all_on_this_page_takes_every_row_of_the_page(owner, server, ledger_facts):
    bulk(logged_in_client(owner), server, action="confidence", confidence="0.4", all_on_page="1",
         page_numbers=",".join(numbers(ledger_facts)))
    assert set(Fact.objects.filter(server=server).values_list("confidence", flat=True)) == {0.4}


@pytest.mark.parametrize("action, data, field, expected", [
    ("importance", {"importance": "0.9"}, "importance", 0.9),
    ("importance", {"importance": ""}, "importance", None),
    ("kind", {"kind": "rule"}, "kind", "rule"),
    ("audience", {"audience": "staff"}, "audience", Audience.STAFF),
])
def test_one_field_set_on_every_selected_fact(owner, server, ledger_facts, action, data, field, expected):
    bulk(logged_in_client(owner), server, action=action, numbers=numbers(ledger_facts[:2]), **data)
    assert [getattr(fact, field) for fact in Fact.objects.filter(pk__in=[f.pk for f in ledger_facts[:2]])] == [
        expected, expected]
    assert AuditEntry.objects.get(action=f"facts.bulk_{action}").count == 2


def test_delete_asks_first_with_the_count_and_then_deletes(owner, server, ledger_facts):
    client = logged_in_client(owner)
    question = bulk(client, server, action="delete", numbers=numbers(ledger_facts[:2])).content.decode()
    assert "Delete 2 facts of" in question and Fact.objects.filter(server=server).count() == 5
    page = bulk(client, server, action="delete", confirm="yes", numbers=numbers(ledger_facts[:2]))
    assert "2 facts deleted." in page.content.decode()
    assert Fact.objects.filter(server=server).count() == 3
    assert AuditEntry.objects.get(action="facts.bulk_delete").count == 2


@pytest.mark.parametrize("data, sentence", [
    ({"action": "retract", "reason": ""}, "Say why these facts no longer hold"),
    ({"action": "restore"}, "in force, not retracted; nothing was restored"),
    ({"action": "confidence", "confidence": "7"}, "confidence"),
    ({"action": "confidence", "confidence": "lots"}, "a number from 0 to 1"),
    ({"action": "kind", "kind": "gossip"}, "kind"),
    ({"action": "audience", "audience": "channel"}, "learned in no channel"),
    ({"action": "shout"}, "Choose what to do with the selected facts."),
])
def test_a_change_one_fact_cannot_take_changes_nothing_and_says_why(owner, server, ledger_facts, data, sentence):
    state = memory_state()
    page = bulk(logged_in_client(owner), server, numbers=numbers(ledger_facts[:3]), **data).content.decode()
    assert sentence in page
    assert memory_state() == state and not AuditEntry.objects.filter(action__startswith="facts.bulk").exists()


def test_a_fact_deleted_meanwhile_refuses_the_whole_change(owner, server, ledger_facts):
    state = memory_state()
    page = bulk(logged_in_client(owner), server, action="kind", kind="rule",
                numbers=[*numbers(ledger_facts[:2]), "999"]).content.decode()
    assert "#999 is no longer on this server" in page and memory_state() == state


def test_nothing_selected_is_told_so(owner, server, ledger_facts):
    page = bulk(logged_in_client(owner), server, action="kind", kind="rule").content.decode()
    assert "Select at least one fact." in page


def test_classic_cannot_retract_in_bulk(owner, server):
    facts = [make_fact(server, key=f"rule_{n}", content=f"Rule {n}.") for n in range(2)]
    page = bulk(logged_in_client(owner), server, action="retract", reason="x", numbers=numbers(facts)).content.decode()
    assert "keeps no retracted facts: delete them instead" in page


def test_the_memory_page_offers_it_to_configure_users_only(owner, member, moderator, server, ledger_facts):
    url = reverse("memory:page")
    assert 'id="bulk-form"' in logged_in_client(owner).get(url, {"server": server.guild_id}).content.decode()
    for user in (member, moderator):
        page = logged_in_client(user).get(url, {"server": server.guild_id}).content.decode()
        assert 'id="bulk-form"' not in page and 'class="bulk-select"' not in page


def test_viewers_moderators_another_team_and_anonymous_cannot(client, member, moderator, outsider, server,
                                                             ledger_facts):
    state = memory_state()
    url = reverse("memory:facts-bulk", args=[server.guild_id])
    data = {"action": "delete", "confirm": "yes", "numbers": numbers(ledger_facts)}
    assert client.post(url, data).status_code == 302  # to log in
    assert logged_in_client(member).post(url, data).status_code == 403
    assert logged_in_client(moderator).post(url, data).status_code == 403
    assert logged_in_client(outsider).post(url, data).status_code == 404
    assert memory_state() == state
