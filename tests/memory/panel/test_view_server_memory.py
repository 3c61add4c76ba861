"""Whole-server pages: summary, memory type with its dry run, restore all, wipe, audit log."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from memory.configuration.selectors import ai_settings_for_server
from memory.facts.selectors import summary_current
from memory.facts.services import FactAuthor, fact_retract, summary_set
from memory.models import Fact, Summary
from teams.models import AuditEntry
from teams.services import audit_record
from tests.conftest import logged_in_client
from tests.factories import make_fact

HTMX = {"HX-Request": "true"}


def memory_page_of(server) -> str:
    return f"{reverse('memory:page')}?server={server.guild_id}"


# Summary -------------------------------------------------------------------------


def test_the_summary_editor_holds_the_current_wording(owner, server):
    summary_set(server=server, content="Old wording.", author=FactAuthor.staff(owner))
    response = logged_in_client(owner).get(reverse("memory:summary-edit", args=[server.guild_id]), headers=HTMX)
    assert response.status_code == 200
    assert ">Old wording.</textarea>" in response.content.decode()


def test_saving_the_summary_shows_it_and_retracts_the_old_wording(owner, server):
    old = summary_set(server=server, content="Old wording.", author=FactAuthor.staff(owner))
    response = logged_in_client(owner).post(reverse("memory:summary", args=[server.guild_id]),
                                            {"content": "A friendly retro gaming server."}, headers=HTMX)
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<section id="summary"')
    assert "A friendly retro gaming server." in page
    assert summary_current(server).content == "A friendly retro gaming server."
    assert Summary.objects.get(pk=old.pk).retracted_at is not None


def test_a_summary_over_4000_characters_answers_422_and_keeps_the_old_one(owner, server):
    summary_set(server=server, content="Old wording.", author=FactAuthor.staff(owner))
    response = logged_in_client(owner).post(reverse("memory:summary", args=[server.guild_id]),
                                            {"content": "x" * 4001}, headers=HTMX)
    assert response.status_code == 422
    assert "at most 4000 characters" in response.content.decode()
    assert summary_current(server).content == "Old wording."


# Memory type ---------------------------------------------------------------------


def test_choosing_ledger_saves_it_and_returns_to_the_memory_page(owner, server):
    response = logged_in_client(owner).post(reverse("memory:memory-type", args=[server.guild_id]),
                                            {"memory_type": "ledger"})
    assert response.status_code == 302
    assert response["Location"] == memory_page_of(server)
    assert ai_settings_for_server(server).memory_type == "ledger"


def test_choosing_ledger_with_htmx_redraws_the_memory_page_in_place_at_the_type(owner, server):
    import json

    on_memory_page = {**HTMX, "HX-Current-URL": "http://testserver" + memory_page_of(server)}
    response = logged_in_client(owner).post(reverse("memory:memory-type", args=[server.guild_id]),
                                            {"memory_type": "ledger"}, headers=on_memory_page)
    assert response.status_code == 200
    assert json.loads(response["HX-Location"]) == {
        "path": memory_page_of(server), "target": "#memory-page", "select": "#memory-page",
        "swap": "outerHTML show:#memory-type:top"}
    assert ai_settings_for_server(server).memory_type == "ledger"
    assert "Memory type: Ledger" in logged_in_client(owner).get(memory_page_of(server)).content.decode()


@pytest.fixture
def semantic_not_ready(monkeypatch):
    """All six types are built; a type whose machinery is missing must still be refused by the view."""
    import dataclasses

    from memory import types as memory_types
    from memory.models import MemoryType

    monkeypatch.setitem(memory_types._BY_VALUE, MemoryType.SEMANTIC,
                        dataclasses.replace(memory_types.profile_for(MemoryType.SEMANTIC), ready=False))


@pytest.mark.parametrize("htmx", [False, True], ids=["full page", "htmx"])
def test_choosing_a_type_that_is_not_ready_answers_422_and_changes_nothing(owner, server, htmx, semantic_not_ready):
    response = logged_in_client(owner).post(reverse("memory:memory-type", args=[server.guild_id]),
                                            {"memory_type": "semantic"}, headers=HTMX if htmx else {})
    assert response.status_code == 422
    assert "not ready" in response.content.decode()
    assert ai_settings_for_server(server).memory_type == "classic"
    assert not AuditEntry.objects.filter(server=server, action="memory_type.set").exists()


def test_an_unknown_memory_type_is_refused(owner, server):
    response = logged_in_client(owner).post(reverse("memory:memory-type", args=[server.guild_id]),
                                            {"memory_type": "magic"})
    assert response.status_code == 422
    assert "Choose one of the six memory types." in response.content.decode()
    assert ai_settings_for_server(server).memory_type == "classic"


def test_the_memory_type_page_shows_six_cards_with_a_dry_run_in_numbers(member, server):
    for index in range(4):
        make_fact(server, key=f"tournament_{index}", content=f"Tournament round {index}.")
    fact_retract(fact=Fact.objects.filter(server=server).first(), reason="cancelled")
    response = logged_in_client(member).get(reverse("memory:memory-type", args=[server.guild_id]))
    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert page.count('<article class="type-card') == 6
    assert "This server uses it now." in page
    assert "Moves nothing: 3 facts keep counting as in force" in page
    assert "3 facts in force would be searchable" in page
    assert re.search(r"just took \d+\.\d ms", page)
    assert "Choose Ledger" not in page  # a viewer gets the comparison, not the buttons


def type_card(page: str, memory_type: str) -> str:
    start = page.index(f'id="type-{memory_type}"')
    return page[start:page.index("</article>", start)]


@pytest.mark.parametrize("retracted", [1, 2])
def test_a_classic_card_says_what_happens_to_facts_retracted_earlier(member, server, retracted):
    """Classic deletes what the bot retracts, but facts retracted while the server was another type stay retracted
    (the memory page shows them in its Retracted tab): the card must not leave "the fact is deleted" alone."""
    make_fact(server, key="still_true", content="This server is about retro gaming.")
    for index in range(retracted):
        fact_retract(fact=make_fact(server, key=f"old_{index}", content=f"Old rule {index}."), reason="outdated")
    page = html.unescape(logged_in_client(member).get(
        reverse("memory:memory-type", args=[server.guild_id])).content.decode())
    card = type_card(page, "classic")
    assert "This server uses it now." in card
    said = {1: "1 fact retracted earlier, under another type, stays retracted, not deleted",
            2: "2 facts retracted earlier, under another type, stay retracted, not deleted"}[retracted]
    assert f"{said}: the bot does not see {'it' if retracted == 1 else 'them'}, the memory page lists" in card
    assert "Retracted tab" in card and "Only what the bot retracts under Classic is deleted." in card


def test_a_classic_card_without_retracted_facts_says_nothing_of_them(member, server):
    make_fact(server, key="still_true", content="This server is about retro gaming.")
    page = logged_in_client(member).get(reverse("memory:memory-type", args=[server.guild_id])).content.decode()
    assert "retracted earlier" not in type_card(page, "classic")


def test_with_all_six_ready_the_owner_may_choose_any_type_but_the_current_one(owner, server):
    page = logged_in_client(owner).get(reverse("memory:memory-type", args=[server.guild_id]),
                                       headers=HTMX).content.decode()
    assert "<html" not in page
    assert re.findall(r"Choose ([\w ]+)</button>", page) == ["Ledger", "Searchable archive", "Ranked", "Consolidated",
                                                             "Semantic"]


# Restore all ---------------------------------------------------------------------


@pytest.fixture
def two_retracted_facts(server):
    make_fact(server, key="still_true", content="This server is about retro gaming.")
    retracted = [make_fact(server, key=f"old_{index}", content=f"Old rule {index}.") for index in range(2)]
    for fact in retracted:
        fact_retract(fact=fact, reason="outdated")
    return retracted


def test_restore_all_asks_with_the_count(owner, server, two_retracted_facts):
    response = logged_in_client(owner).get(reverse("memory:restore-all", args=[server.guild_id]))
    page = response.content.decode()
    assert response.status_code == 200
    assert "<strong>2</strong> retracted facts" in page
    assert "Restore 2 facts" in page


def test_restore_all_reopens_every_retracted_fact_with_one_audit_row(owner, server, two_retracted_facts):
    client = logged_in_client(owner)
    response = client.post(reverse("memory:restore-all", args=[server.guild_id]))
    assert response.status_code == 302
    assert response["Location"] == memory_page_of(server)
    assert not Fact.objects.filter(server=server, retracted_at__isnull=False).exists()
    entries = AuditEntry.objects.filter(server=server, action="facts.restore_all")
    assert [entry.count for entry in entries] == [2]
    assert "Restored 2 retracted facts." in client.get(response["Location"]).content.decode()


# Wipe ----------------------------------------------------------------------------


@pytest.fixture
def remembered(server, owner, other_server):
    make_fact(server, key="server_theme", content="This server is about retro gaming.")
    make_fact(server, key="paul_birthday", content="Paul's birthday is 3 May.")
    summary_set(server=server, content="A friendly retro gaming server.", author=FactAuthor.staff(owner))
    make_fact(other_server, key="synth_day", content="Synth jam on Sunday.")


@pytest.mark.parametrize("confirmation", ["retro arcade", "Retro", "100000000000000001"])
def test_wiping_the_server_with_the_wrong_name_answers_422_and_deletes_nothing(owner, server, remembered,
                                                                              confirmation):
    response = logged_in_client(owner).post(reverse("memory:wipe", args=[server.guild_id]),
                                            {"target": "server", "member_id": "", "confirmation": confirmation})
    page = html.unescape(response.content.decode())
    assert response.status_code == 422
    assert "Type the server name “Retro Arcade” exactly to confirm; nothing was deleted." in page
    assert Fact.objects.filter(server=server).count() == 2
    assert summary_current(server) is not None
    assert not AuditEntry.objects.filter(server=server, action="memory.wipe_server").exists()


def test_wiping_the_server_with_its_exact_name_deletes_its_memory_only(owner, server, other_server, remembered):
    response = logged_in_client(owner).post(reverse("memory:wipe", args=[server.guild_id]),
                                            {"target": "server", "member_id": "", "confirmation": "Retro Arcade"})
    assert response.status_code == 302
    assert response["Location"] == memory_page_of(server)
    assert not Fact.objects.filter(server=server).exists()
    assert not Summary.objects.filter(server=server).exists()
    assert Fact.objects.filter(server=other_server).count() == 1
    assert AuditEntry.objects.filter(server=server, action="memory.wipe_server").count() == 1


MEMBER_A, MEMBER_B, MEMBER_C = "200000000000000021", "200000000000000022", "200000000000000023"


@pytest.fixture
def member_facts(server):
    """Two facts concerning member A (about them, learned from them) and two that do not."""
    return {
        "about_a": make_fact(server, key="a_birthday", content="A's birthday is 3 May.", scope="member",
                             member_id=MEMBER_A, author=FactAuthor.bot(MEMBER_C)),
        "from_a": make_fact(server, key="pizza_night", content="Pizza night is Friday.",
                            author=FactAuthor.bot(MEMBER_A)),
        "about_b": make_fact(server, key="b_birthday", content="B's birthday is 4 June.", scope="member",
                             member_id=MEMBER_B, author=FactAuthor.bot(MEMBER_C)),
        "server": make_fact(server, key="server_theme", content="Retro gaming.", author=FactAuthor.bot(MEMBER_B)),
    }


def test_wiping_one_member_by_id_leaves_other_members_facts(owner, server, member_facts):
    response = logged_in_client(owner).post(reverse("memory:wipe", args=[server.guild_id]),
                                            {"target": "member", "member_id": MEMBER_A, "confirmation": MEMBER_A})
    assert response.status_code == 302
    remaining = set(Fact.objects.filter(server=server).values_list("pk", flat=True))
    assert remaining == {member_facts["about_b"].pk, member_facts["server"].pk}
    assert AuditEntry.objects.get(server=server, action="memory.wipe_member").count == 2


def test_wiping_a_member_needs_the_id_typed_again(owner, server, member_facts):
    response = logged_in_client(owner).post(reverse("memory:wipe", args=[server.guild_id]),
                                            {"target": "member", "member_id": MEMBER_A,
                                             "confirmation": "Retro Arcade"})
    assert response.status_code == 422
    assert "Type the member id exactly to confirm; nothing was deleted." in response.content.decode()
    assert Fact.objects.filter(server=server).count() == 4


def test_wiping_a_member_without_an_id_is_refused(owner, server, member_facts):
    response = logged_in_client(owner).post(reverse("memory:wipe", args=[server.guild_id]),
                                            {"target": "member", "member_id": "", "confirmation": ""})
    assert response.status_code == 422
    assert Fact.objects.filter(server=server).count() == 4


# Audit log -----------------------------------------------------------------------


@pytest.fixture
def sixty_audit_entries(server, owner):
    return [audit_record(actor=owner, server=server, action=f"test.step_{index:02d}") for index in range(60)]


def test_the_audit_log_lists_newest_first_and_pages_with_before(owner, server, sixty_audit_entries):
    client = logged_in_client(owner)
    url = reverse("memory:audit", args=[server.guild_id])
    first = client.get(url).content.decode()
    first_actions = re.findall(r"<code>(test\.step_\d\d)</code>", first)
    assert first_actions == [f"test.step_{index:02d}" for index in range(59, 9, -1)]
    older = html.unescape(re.search(r'<a href="(\?before=\d+)"', first).group(1))
    second = client.get(url + older, headers=HTMX)
    second_page = second.content.decode()
    assert second.status_code == 200
    assert "<html" not in second_page
    assert re.findall(r"<code>(test\.step_\d\d)</code>", second_page) == [
        f"test.step_{index:02d}" for index in range(9, -1, -1)
    ]
    assert "Older entries" not in second_page


def test_an_empty_audit_log_says_nothing_is_recorded(other_server, outsider):
    page = logged_in_client(outsider).get(reverse("memory:audit", args=[other_server.guild_id])).content.decode()
    assert "Nothing recorded yet." in page


def test_choosing_a_type_from_the_comparison_page_sends_the_browser_to_the_memory_page(owner, server):
    response = logged_in_client(owner).post(
        reverse("memory:memory-type", args=[server.guild_id]), {"memory_type": "ledger"},
        headers={**HTMX, "HX-Current-URL": "http://testserver" + reverse("memory:memory-type", args=[server.guild_id])})
    assert response.status_code == 200
    assert response["HX-Redirect"] == memory_page_of(server)
    assert ai_settings_for_server(server).memory_type == "ledger"


@pytest.mark.parametrize("before", ["²", "99999999999999999999999", "abc"])
def test_an_odd_older_link_in_the_audit_log_shows_the_first_page(owner, server, sixty_audit_entries, before):
    response = logged_in_client(owner).get(reverse("memory:audit", args=[server.guild_id]), {"before": before})
    assert response.status_code == 200
    assert len(re.findall(r"<code>(test\.step_\d\d)</code>", response.content.decode())) == 50
