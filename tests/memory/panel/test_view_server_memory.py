"""Whole-server pages: summary, memory type with its dry run, restore all, wipe, audit log."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from memory.configuration.selectors import ai_settings_for_server
from memory.facts.selectors import summary_current
from memory.facts.services import FactAuthor, fact_retract
from memory.facts.summary import summary_set
from memory.models import Exchange, Fact, Summary
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


def wipe_url(server) -> str:
    return reverse("memory:wipe", args=[server.guild_id])


def checked_targets(page: str) -> list[str]:
    return re.findall(r'<input type="radio" name="target" value="(\w+)"[^>]*\bchecked\b', page)


def exchange_of(server, author_id: str) -> Exchange:
    return Exchange.objects.create(server=server, channel_id="111", author_id=author_id, message="Hello there.",
                                   memory_type="classic")


def test_the_wipe_page_chooses_nothing_beforehand(owner, server, remembered):
    page = logged_in_client(owner).get(wipe_url(server)).content.decode()
    assert checked_targets(page) == []
    assert 'name="confirmation"' not in page  # the confirmation comes after what would go is shown


def test_a_link_naming_a_member_fills_in_the_id_and_still_chooses_nothing(owner, server, member_facts):
    page = logged_in_client(owner).get(wipe_url(server), {"member": MEMBER_A}).content.decode()
    assert checked_targets(page) == []
    assert f'value="{MEMBER_A}"' in page


def test_continuing_without_a_choice_asks_for_one(owner, server, remembered):
    response = logged_in_client(owner).get(wipe_url(server), {"target": "", "member_id": ""})
    assert response.status_code == 422
    assert "Choose what to wipe" in html.unescape(response.content.decode())


def test_the_servers_choice_says_how_much_it_holds_and_its_confirmation_repeats_it(owner, server, remembered):
    exchange_of(server, MEMBER_A)
    client = logged_in_client(owner)
    assert "its <strong>2 facts</strong> (retracted ones too)" in client.get(wipe_url(server)).content.decode()
    confirm = client.get(wipe_url(server), {"target": "server", "member_id": ""})
    page = html.unescape(confirm.content.decode())
    assert confirm.status_code == 200
    assert "<strong>2 facts</strong> (retracted ones too)" in page and "<strong>1 exchange</strong>" in page
    assert 'name="confirmation"' in page and "Type the server name <strong>Retro Arcade</strong> to confirm" in page
    assert Fact.objects.filter(server=server).count() == 2  # showing the count deletes nothing


def test_a_members_counts_are_shown_before_the_confirmation(owner, server, member_facts):
    exchange_of(server, MEMBER_A)
    exchange_of(server, MEMBER_B)
    confirm = logged_in_client(owner).get(wipe_url(server), {"target": "member", "member_id": f" {MEMBER_A} "})
    page = html.unescape(confirm.content.decode())
    assert confirm.status_code == 200
    assert "<strong>2 facts</strong> about them or learned from their messages" in page
    assert "<strong>1 exchange</strong> of theirs" in page
    assert f'<input type="hidden" name="member_id" value="{MEMBER_A}">' in page
    assert f"Type the member id <strong>{MEMBER_A}</strong> to confirm" in page


UNKNOWN, MEMBER_D = "200000000000000099", "200000000000000024"


def test_a_member_id_with_nothing_stored_is_told_so_before_the_confirmation(owner, server, member_facts):
    response = logged_in_client(owner).get(wipe_url(server), {"target": "member", "member_id": UNKNOWN})
    page = html.unescape(response.content.decode())
    assert response.status_code == 422
    assert f"Nothing is stored about member {UNKNOWN} on Retro Arcade" in page
    assert 'name="confirmation"' not in page
    assert checked_targets(page) == ["member"]  # what the user chose stays chosen


def test_wiping_a_member_id_with_nothing_stored_is_refused_and_deletes_nothing(owner, server, member_facts):
    summary_set(server=server, content="First wording.", author=FactAuthor.staff(owner))
    summary_set(server=server, content="Second wording.", author=FactAuthor.staff(owner))
    client = logged_in_client(owner)
    response = client.post(wipe_url(server), {"target": "member", "member_id": UNKNOWN, "confirmation": UNKNOWN})
    page = html.unescape(response.content.decode())
    assert response.status_code == 422
    assert f"Nothing is stored about member {UNKNOWN} on Retro Arcade" in page and "Wiped" not in page
    assert Fact.objects.filter(server=server).count() == 4
    assert Summary.objects.filter(server=server).count() == 2  # the earlier wording too
    assert not AuditEntry.objects.filter(server=server, action="memory.wipe_member").exists()
    assert "Wiped" not in client.get(memory_page_of(server)).content.decode()


def test_a_member_with_one_fact_and_one_exchange_is_wiped_in_the_singular(owner, server):
    make_fact(server, key="d_birthday", content="D's birthday is 5 July.", scope="member", member_id=MEMBER_D,
              author=FactAuthor.staff(owner))
    exchange_of(server, MEMBER_D)
    client = logged_in_client(owner)
    response = client.post(wipe_url(server), {"target": "member", "member_id": MEMBER_D, "confirmation": MEMBER_D})
    assert response.status_code == 302
    page = html.unescape(client.get(response["Location"]).content.decode())
    assert f"Wiped 1 fact about or from member {MEMBER_D} and 1 exchange of theirs." in page
    entry = AuditEntry.objects.get(server=server, action="memory.wipe_member")
    assert entry.result == f"1 fact about or from member {MEMBER_D} and 1 exchange of theirs deleted"


def test_a_server_of_one_fact_is_wiped_in_the_singular(owner, server):
    make_fact(server, key="server_theme", content="Retro gaming.")
    exchange_of(server, MEMBER_A)
    client = logged_in_client(owner)
    response = client.post(wipe_url(server), {"target": "server", "member_id": "", "confirmation": "Retro Arcade"})
    page = html.unescape(client.get(response["Location"]).content.decode())
    assert "Wiped 1 fact, the summary and 1 exchange of Retro Arcade." in page
    entry = AuditEntry.objects.get(server=server, action="memory.wipe_server")
    assert entry.result == "1 fact, 0 summaries and 1 exchange deleted"


def test_the_audit_log_writes_a_wiped_member_as_a_member_not_as_a_fact_number(owner, server, member_facts):
    logged_in_client(owner).post(wipe_url(server), {"target": "member", "member_id": MEMBER_A,
                                                    "confirmation": MEMBER_A})
    page = logged_in_client(owner).get(reverse("memory:audit", args=[server.guild_id])).content.decode()
    assert f"<code>memory.wipe_member</code> <span class=\"muted\">member {MEMBER_A}</span>" in page
    assert f"#{MEMBER_A}" not in page


def test_the_audit_log_still_writes_fact_numbers_as_numbers(owner, server):
    audit_record(actor=owner, server=server, action="proposal.merge", target_ids=[3, 7], count=1)
    audit_record(actor=owner, server=server, action="proposal.keep_both", target_ids=list(range(1, 8)), count=2)
    page = logged_in_client(owner).get(reverse("memory:audit", args=[server.guild_id])).content.decode()
    assert '<code>proposal.merge</code> <span class="muted">#3 #7</span>' in page
    assert '<code>proposal.keep_both</code> <span class="muted">#1 #2 #3 #4 #5 …</span>' in page


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
