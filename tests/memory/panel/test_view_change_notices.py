"""Each change from the memory page says what it did in the page's status region (out of band for a fragment, as
a message for a whole page), with an Undo that really puts the state back where one exists, and none where the
change is for good."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from memory.configuration.selectors import ai_settings_for_server
from memory.facts.services import fact_retract, fact_retract_by_staff
from memory.models import Audience, Fact, MemoryType
from tests.conftest import logged_in_client
from tests.factories import make_fact

HTMX = {"HX-Request": "true"}
REASON = "Wrong: the bot misread a joke"


def fact_url(fact: Fact, name: str) -> str:
    return reverse(f"memory:{name}", args=[fact.server.guild_id, fact.number])


def status_region(page: str) -> str:
    """The page's status region as the answer carries it (out of band after a fragment)."""
    match = re.search(r'<div id="page-messages"[^>]*>(.*?)</div>', page, flags=re.S)
    assert match, "no status region in the answer"
    return match.group(0)


def undo_form(region: str) -> tuple[str, dict[str, str]]:
    """Where the region's Undo posts and what it sends (the CSRF token left out: the test client needs none)."""
    form = re.search(r'<form class="notice-undo" method="post" action="([^"]+)"(.*?)</form>', region, flags=re.S)
    assert form, "no Undo in the status region"
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(2)))
    fields.pop("csrfmiddlewaretoken", None)
    return html.unescape(form.group(1)), {name: html.unescape(value) for name, value in fields.items()}


def said(region: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", region))).strip()


def test_a_delete_says_which_fact_went_for_good_and_offers_no_undo(owner, server):
    fact = make_fact(server)
    response = logged_in_client(owner).post(fact_url(fact, "fact-delete"), headers=HTMX)
    region = status_region(response.content.decode())
    assert 'hx-swap-oob="innerHTML"' in region and 'role="status"' in region
    assert said(region) == f"Fact #{fact.number} deleted for good."
    assert "notice-undo" not in region
    assert not Fact.objects.filter(pk=fact.pk).exists()
    confirm = logged_in_client(owner).get(fact_url(make_fact(server), "fact-delete"), headers=HTMX)
    assert "cannot be undone" in confirm.content.decode()  # the confirmation says so before


def test_a_delete_without_javascript_says_it_on_the_memory_page(owner, server):
    fact = make_fact(server)
    client = logged_in_client(owner)
    response = client.post(fact_url(fact, "fact-delete"), follow=True)
    assert f"Fact #{fact.number} deleted for good." in said(status_region(response.content.decode()))


def test_a_retract_is_undone_by_restoring_and_the_restore_by_retracting_again(owner, ledger):
    fact = make_fact(ledger)
    client = logged_in_client(owner)
    region = status_region(client.post(fact_url(fact, "fact-retract"), {"reason": REASON},
                                       headers=HTMX).content.decode())
    assert said(region).startswith(f"Fact #{fact.number} retracted: the bot no longer sees it.")
    url, fields = undo_form(region)
    assert url == fact_url(fact, "fact-restore")

    region = status_region(client.post(url, fields, headers=HTMX).content.decode())
    fact.refresh_from_db()
    assert fact.retracted_at is None  # the undo put it back in force
    assert said(region).startswith(f"Fact #{fact.number} restored: the bot sees it again.")

    url, fields = undo_form(region)
    assert (url, fields) == (fact_url(fact, "fact-retract"), {"reason": REASON})
    client.post(url, fields, headers=HTMX)
    fact.refresh_from_db()
    assert fact.retracted_at is not None and fact.retraction_reason == REASON


def test_restoring_a_fact_already_in_force_says_nothing_changed(owner, ledger):
    fact = make_fact(ledger)
    region = status_region(logged_in_client(owner).post(fact_url(fact, "fact-restore"),
                                                        headers=HTMX).content.decode())
    assert said(region) == f"Fact #{fact.number} was already in force: nothing changed."


def test_an_audience_change_names_the_audience_and_undo_puts_the_old_one_back(owner, server):
    fact = make_fact(server)
    client = logged_in_client(owner)
    region = status_region(client.post(fact_url(fact, "fact-audience"), {"audience": "staff"},
                                       headers=HTMX).content.decode())
    assert said(region).startswith(f"Fact #{fact.number} is now for staff only: the bot is not handed it.")
    assert Fact.objects.get(pk=fact.pk).audience == Audience.STAFF
    url, fields = undo_form(region)
    assert f'hx-target="#fact-{server.pk}-{fact.number}"' in region  # the row answers in its place
    region = status_region(client.post(url, fields, headers=HTMX).content.decode())
    assert Fact.objects.get(pk=fact.pk).audience == Audience.SERVER
    assert said(region).startswith(f"Fact #{fact.number} is now seen by the whole server.")


def test_an_audience_the_service_refuses_says_why_and_changes_nothing(owner, server):
    fact = make_fact(server)
    response = logged_in_client(owner).post(fact_url(fact, "fact-audience"), {"audience": "everyone"}, headers=HTMX)
    assert response.status_code == 422
    assert "page-messages" not in response.content.decode()
    assert Fact.objects.get(pk=fact.pk).audience == Audience.SERVER


def test_a_pin_says_so_and_undo_unpins(owner, server):
    fact = make_fact(server)
    client = logged_in_client(owner)
    region = status_region(client.post(fact_url(fact, "fact-pin"), {"pinned": "true"},
                                       headers=HTMX).content.decode())
    assert said(region).startswith(f"Fact #{fact.number} pinned: the bot gets it in every reply.")
    assert Fact.objects.get(pk=fact.pk).pinned
    url, fields = undo_form(region)
    assert fields == {"pinned": "false"}
    region = status_region(client.post(url, fields, headers=HTMX).content.decode())
    assert not Fact.objects.get(pk=fact.pk).pinned
    assert said(region).startswith(f"Fact #{fact.number} unpinned.")


def test_a_refused_pin_says_why_without_a_notice(owner, server):
    fact = make_fact(server)
    response = logged_in_client(owner).post(fact_url(fact, "fact-pin"), {"pinned": "maybe"}, headers=HTMX)
    assert response.status_code == 422
    assert "page-messages" not in response.content.decode()
    assert not Fact.objects.get(pk=fact.pk).pinned


def test_choosing_a_type_says_the_new_one_and_undo_chooses_the_old_one(owner, server):
    client = logged_in_client(owner)
    memory_page = f"{reverse('memory:page')}?server={server.guild_id}"
    on_memory_page = {**HTMX, "HX-Current-URL": "http://testserver" + memory_page}
    type_url = reverse("memory:memory-type", args=[server.guild_id])
    response = client.post(type_url, {"memory_type": "ranked"}, headers=on_memory_page)
    assert "HX-Location" in response  # the page is drawn again: the sentence comes with it
    region = status_region(client.get(memory_page, headers=HTMX).content.decode())
    assert 'hx-swap-oob="innerHTML"' in region  # htmx swaps it in beside the part of the page it selects
    assert said(region).startswith("Memory type is now Ranked.")
    url, fields = undo_form(region)
    assert (url, fields) == (type_url, {"memory_type": "classic"})
    client.post(url, fields, headers=on_memory_page)
    assert ai_settings_for_server(server).memory_type == MemoryType.CLASSIC
    assert said(status_region(client.get(memory_page).content.decode())).startswith("Memory type is now Classic.")


def test_an_unknown_type_says_so_and_no_notice_claims_a_change(owner, server):
    response = logged_in_client(owner).post(reverse("memory:memory-type", args=[server.guild_id]),
                                            {"memory_type": "best"}, headers=HTMX)
    assert response.status_code == 422
    assert "Choose one of the six memory types." in response.content.decode()
    assert "Memory type is now" not in response.content.decode()
    assert ai_settings_for_server(server).memory_type == MemoryType.CLASSIC


def test_restore_all_says_how_many_came_back(owner, ledger):
    for number in range(2):
        fact_retract_by_staff(fact=make_fact(ledger, key=f"note_{number}"), reason=REASON, actor=owner)
    client = logged_in_client(owner)
    assert "no undo" in client.get(reverse("memory:restore-all", args=[ledger.guild_id])).content.decode()
    response = client.post(reverse("memory:restore-all", args=[ledger.guild_id]), follow=True)
    assert said(status_region(response.content.decode())) == "Restored 2 retracted facts."
    assert not Fact.objects.filter(server=ledger, retracted_at__isnull=False).exists()


def test_restoring_a_replaced_fact_offers_no_undo_that_would_lose_what_replaced_it(owner, ledger):
    old = make_fact(ledger, key="raid_day", content="Raids are on Tuesday.")
    new = make_fact(ledger, key="raid_day", content="Raids are on Wednesday.")
    fact_retract(fact=old, reason="moved to Wednesday", superseded_by=new)
    region = status_region(logged_in_client(owner).post(fact_url(old, "fact-restore"), headers=HTMX).content.decode())
    assert said(region).startswith(f"Fact #{old.number} restored")
    assert 'class="notice-undo"' not in region
