"""Retract a fact from its row with a reason (Ledger and up), and restore it after one line saying why it was
retracted and by whom; the fact's page keeps saying both."""

from __future__ import annotations

import pytest
from django.urls import reverse

from consolidation.models import Proposal, ProposalKind
from memory.configuration.services import memory_type_set
from memory.facts.services import fact_retract_by_staff
from memory.models import Fact, FactVersion, MemoryType, VersionChange
from memory.panel.fact_rows import attach_flags
from tests.conftest import logged_in_client
from tests.factories import make_fact

HTMX = {"HX-Request": "true"}
REASON = "Wrong: the bot misread a joke"


def fact_url(fact: Fact, name: str = "fact") -> str:
    return reverse(f"memory:{name}", args=[fact.server.guild_id, fact.number])


def test_the_row_offers_retract_under_ledger_and_not_under_classic(owner, server):
    fact = make_fact(server)
    page = logged_in_client(owner).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert f'hx-get="{fact_url(fact)}retract"' not in page
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.LEDGER)
    page = logged_in_client(owner).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert f'hx-get="{fact_url(fact)}retract"' in page
    assert f'hx-get="{fact_url(fact)}retract"' in logged_in_client(owner).get(fact_url(fact)).content.decode()


def test_a_viewer_gets_no_retract_button(member, ledger):
    fact = make_fact(ledger)
    assert "Retract…" not in logged_in_client(member).get(fact_url(fact)).content.decode()
    page = logged_in_client(member).get(reverse("memory:page"), {"server": ledger.guild_id}).content.decode()
    assert "Retract…" not in page


def test_retracting_from_the_row_keeps_the_reason_as_a_version(owner, ledger):
    fact = make_fact(ledger)
    client = logged_in_client(owner)
    form = client.get(f"{fact_url(fact)}retract", headers=HTMX).content.decode()
    assert 'name="reason"' in form and "<html" not in form
    response = client.post(f"{fact_url(fact)}retract", {"reason": REASON}, headers=HTMX)
    fact.refresh_from_db()
    assert response.status_code == 200 and fact.retracted_at is not None and fact.retraction_reason == REASON
    assert REASON in response.content.decode() and "facts-changed" in response["HX-Trigger-After-Settle"]
    assert FactVersion.objects.get(fact=fact, change=VersionChange.RETRACT).actor_user == owner


@pytest.mark.parametrize("reason", ["", "   ", "x" * 501], ids=["empty", "blank", "too long"])
def test_a_retract_without_a_usable_reason_says_so_and_changes_nothing(owner, ledger, reason):
    fact = make_fact(ledger)
    response = logged_in_client(owner).post(f"{fact_url(fact)}retract", {"reason": reason}, headers=HTMX)
    fact.refresh_from_db()
    assert response.status_code == 422 and fact.retracted_at is None
    page = response.content.decode()
    assert ("Say why the fact no longer holds" in page) or ("500 characters" in page)
    assert not FactVersion.objects.filter(fact=fact, change=VersionChange.RETRACT).exists()


def test_retracting_a_retracted_fact_or_under_classic_is_refused_with_a_sentence(owner, server):
    fact = make_fact(server)
    response = logged_in_client(owner).post(f"{fact_url(fact)}retract", {"reason": REASON}, headers=HTMX)
    fact.refresh_from_db()
    assert response.status_code == 422 and fact.retracted_at is None and "use Delete" in response.content.decode()
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.LEDGER)
    fact_retract_by_staff(fact=fact, reason=REASON, actor=owner)
    again = logged_in_client(owner).post(f"{fact_url(fact)}retract", {"reason": "again"}, headers=HTMX)
    assert again.status_code == 422 and "already retracted" in again.content.decode()


def test_restore_asks_first_with_the_reason_and_who_retracted_it(owner, ledger):
    fact = fact_retract_by_staff(fact=make_fact(ledger), reason=REASON, actor=owner)
    client = logged_in_client(owner)
    question = client.get(f"{fact_url(fact)}restore", headers=HTMX)
    fact.refresh_from_db()
    assert question.status_code == 200 and fact.retracted_at is not None  # asking changed nothing
    assert f"by owner: “{REASON}”" in question.content.decode()
    assert 'hx-post="' + f'{fact_url(fact)}restore"' in question.content.decode()
    client.post(f"{fact_url(fact)}restore", headers=HTMX)
    fact.refresh_from_db()
    assert fact.retracted_at is None
    page = client.get(fact_url(fact)).content.decode()
    assert "In force since" in page and "restored after a retraction" in page
    assert f"by owner: “{REASON}”; restored" in page


def test_restore_without_script_asks_on_a_page_of_its_own(owner, ledger):
    fact = fact_retract_by_staff(fact=make_fact(ledger), reason=REASON, actor=owner)
    page = logged_in_client(owner).get(f"{fact_url(fact)}restore").content.decode()
    assert "<html" in page and "Restore #" in page and REASON in page and "csrfmiddlewaretoken" in page


def test_a_contradiction_flags_both_rows_and_the_held_back_one_says_so(owner, ledger):
    older = make_fact(ledger, key="raid_day", content="Raids are on Tuesday.")
    newer = make_fact(ledger, key="raid_day", content="Raids are on Thursday.")
    Proposal.objects.create(server=ledger, kind=ProposalKind.CONTRADICTION, keeper=newer, other=older,
                            keeper_version=newer.version, other_version=older.version,
                            pair_low=min(older.pk, newer.pk), pair_high=max(older.pk, newer.pk))
    Fact.objects.filter(pk=older.pk).update(held_back=True)
    page = logged_in_client(owner).get(reverse("memory:page"), {"server": ledger.guild_id}).content.decode()
    review = reverse("consolidation:review", args=[ledger.guild_id])
    assert f"contradicts #{older.number}" in page and f"contradicts #{newer.number}" in page
    assert page.count(f'href="{review}"') >= 2 and page.count("held back from the bot until answered") == 1
    fact_page = logged_in_client(owner).get(fact_url(older)).content.decode()
    assert f"contradicts #{newer.number}" in fact_page and "held back from the bot until answered" in fact_page


def test_the_flags_of_a_page_are_one_query(owner, ledger, django_assert_num_queries):
    facts = [make_fact(ledger, key=f"k{n}", content=f"Fact {n}.") for n in range(5)]
    with django_assert_num_queries(1):
        attach_flags(facts)


def test_the_mention_count_shows_on_the_row_and_the_page(owner, server):
    fact = make_fact(server)
    Fact.objects.filter(pk=fact.pk).update(mention_count=10)
    page = logged_in_client(owner).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert '<span class="badge badge-muted" title="mentioned 10 times">×10</span>' in page
    assert "mentioned 10 times" in logged_in_client(owner).get(fact_url(fact)).content.decode()
