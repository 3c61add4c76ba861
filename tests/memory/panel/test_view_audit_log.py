"""The audit page says what changed: a fact change links the version it made on the fact's page
(`facts/<number>/#version-<n>`), an edit lists its fields without the fact's words (the log outlives a member
wipe), and only configure users read it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from memory.facts.services import FactAuthor, fact_pin_set, fact_retract_by_staff, fact_update, fact_version_undo
from memory.models import Fact, FactVersion, VersionChange
from teams.models import AuditEntry
from teams.services import audit_record
from tests.conftest import logged_in_client
from tests.factories import make_fact

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def audit_url(server) -> str:
    return reverse("memory:audit", args=[server.guild_id])


def version_link(server, fact: Fact, version: int) -> str:
    return f'<a href="{reverse("memory:fact", args=[server.guild_id, fact.number])}#version-{version}">' \
           f"version {version}</a>"


@pytest.fixture
def raid_day(server, owner):
    return make_fact(server, key="raid_day", content="Raids are on Friday.", author=FactAuthor.staff(owner))


def edited(fact: Fact, owner, **fields) -> Fact:
    current = Fact.objects.get(pk=fact.pk)
    values = {"key": current.key, "content": current.content, "confidence": current.confidence, **fields}
    return fact_update(fact=current, actor=owner, expected_version=current.version, **values)


def test_an_edit_links_the_version_it_made_on_the_facts_page(owner, server, raid_day):
    edited(raid_day, owner, content="Raids are on Saturday.", confidence=0.8)

    entry = AuditEntry.objects.get(action="fact.edit")
    assert (entry.target_ids, entry.fact_version) == ([raid_day.number], 2)
    page = logged_in_client(owner).get(audit_url(server)).content.decode()
    assert version_link(server, raid_day, 2) in page
    assert FactVersion.objects.filter(fact_id=raid_day.pk, version=2, change=VersionChange.EDIT).exists()


def test_an_edit_lists_what_it_changed_but_never_the_facts_words(owner, server, raid_day):
    edited(raid_day, owner, key="raid_weekday", content="Raids are on Saturday.", confidence=0.8)

    assert AuditEntry.objects.get(action="fact.edit").changes == [
        {"field": "Key", "said": "changed"},
        {"field": "Wording", "said": "changed"},
        {"field": "Confidence", "old": "1", "new": "0.8"},
    ]
    page = logged_in_client(owner).get(audit_url(server)).content.decode()
    assert "<li>Confidence: 1 → 0.8</li>" in page and "<li>Wording: changed</li>" in page
    assert "Saturday" not in page and "Friday" not in page


def test_every_change_of_one_fact_links_its_own_version(owner, server, raid_day):
    edited(raid_day, owner, content="Raids are on Saturday.")
    fact_version_undo(version=FactVersion.objects.get(fact_id=raid_day.pk, version=2), actor=owner)
    fact_pin_set(fact=Fact.objects.get(pk=raid_day.pk), pinned=True, actor=owner)
    fact_pin_set(fact=Fact.objects.get(pk=raid_day.pk), pinned=False, actor=owner)
    fact_retract_by_staff(fact=Fact.objects.get(pk=raid_day.pk), reason="Raids ended.", actor=owner)

    linked = dict(AuditEntry.objects.filter(target_ids=[raid_day.number]).values_list("action", "fact_version"))
    assert linked == {"fact.create": 1, "fact.edit": 2, "fact.undo": 3, "fact.pin": 4, "fact.unpin": 5,
                      "fact.retract": 6}
    page = logged_in_client(owner).get(audit_url(server)).content.decode()
    for version in range(1, 7):
        assert version_link(server, raid_day, version) in page


def test_an_entry_without_a_version_links_none(owner, server):
    audit_record(actor=owner, server=server, action="proposal.merge", target_ids=[3, 7], count=1)
    assert "#version-" not in logged_in_client(owner).get(audit_url(server)).content.decode()


def test_the_htmx_page_of_older_entries_links_versions_too(owner, server, raid_day):
    edited(raid_day, owner, content="Raids are on Saturday.")
    response = logged_in_client(owner).get(audit_url(server), headers=HTMX)
    assert "<html" not in response.content.decode()
    assert version_link(server, raid_day, 2) in response.content.decode()


# Who reads it ---------------------------------------------------------------------------------------------------


def test_anonymous_is_sent_to_log_in(client, server):
    assert client.get(audit_url(server), headers=HTMX).status_code == 401
    response = client.get(audit_url(server))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(("user", "status"), [("outsider", 404), ("member", 403), ("moderator", 403),
                                              ("owner", 200)])
def test_only_a_configure_user_reads_the_audit_log(request, server, raid_day, user, status):
    assert logged_in_client(request.getfixturevalue(user)).get(audit_url(server)).status_code == status
