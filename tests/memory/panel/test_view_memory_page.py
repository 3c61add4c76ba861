"""The memory page: full page or list fragment, search, validity tabs, keyset paging, sorting, per-user actions."""

from __future__ import annotations

import base64
import html
import re

import pytest
from django.urls import reverse

from memory.facts.services import FactAuthor, fact_retract, facts_restore_all
from memory.facts.summary import summary_set
from tests.conftest import logged_in_client
from tests.factories import make_fact

PAGE = reverse("memory:page")
LIST_FRAGMENT = {"HX-Request": "true", "HX-Target": "fact-list"}
HTMX = {"HX-Request": "true"}


def row_numbers(page: str) -> list[int]:
    """Fact numbers of the rows, in the order they are shown."""
    return [int(number) for number in re.findall(r'<li class="fact[^"]*" id="fact-\d+-(\d+)"', page)]


def row_of(page: str, fact) -> str:
    """The markup of one fact's row."""
    start = page.rindex("<li", 0, page.index(f'id="fact-{fact.server_id}-{fact.number}"'))
    return page[start:page.index("</li>", start)]


def pager_link(page: str, rel: str) -> str:
    href = re.search(rf'<a href="([^"]+)" rel="{rel}">', page).group(1)
    return PAGE + html.unescape(href)


def test_without_htmx_the_memory_page_is_a_full_page(member, server):
    make_fact(server)
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id})
    page = response.content.decode()
    assert response.status_code == 200
    assert "<html" in page
    assert "Memory of Retro Arcade" in page
    assert 'id="fact-list"' in page


def test_an_htmx_request_for_the_fact_list_gets_only_the_list(member, server):
    make_fact(server)
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id}, headers=LIST_FRAGMENT)
    page = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in page
    assert page.lstrip().startswith('<section id="fact-list"')
    assert "This server is about retro gaming." in page
    assert "HX-Request" in response["Vary"]


def test_searching_a_prefix_finds_the_word_it_starts(member, server):
    tournament = make_fact(server, key="tournament_day", content="The tournament is on Saturday at 18:00.")
    make_fact(server, key="server_theme", content="This server is about retro gaming.")
    make_fact(server, key="pizza_night", content="Pizza night is every second Friday.")
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id, "q": "tourn"}, headers=LIST_FRAGMENT)
    page = response.content.decode()
    assert row_numbers(page) == [tournament.number]
    assert "1 fact matching “tourn”" in page


@pytest.mark.parametrize("typed", ["gam", "gami", "gamin", "gaming", "the", "them", "theme"])
def test_every_prefix_typed_on_the_way_to_a_word_keeps_finding_it(member, server, typed):
    """The search box searches as you type: a fact must not vanish at "gamin" and come back at "gaming"."""
    fact = make_fact(server, key="server_theme", content="This server is about retro gaming.")
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id, "q": typed}, headers=LIST_FRAGMENT)
    assert row_numbers(response.content.decode()) == [fact.number]


def test_a_search_matching_nothing_says_so(member, server):
    make_fact(server)
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id, "q": "zeppelin"}, headers=LIST_FRAGMENT)
    page = response.content.decode()
    assert row_numbers(page) == []
    assert "No fact matches “zeppelin”." in page


def test_the_exact_key_match_is_listed_first_with_the_exact_key_badge(member, server):
    exact = make_fact(server, key="tournament", content="Tournaments run every month.")
    newer = make_fact(server, key="tournament_day", content="The tournament is on Saturday.")
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id, "q": "tournament"},
                                            headers=LIST_FRAGMENT)
    page = response.content.decode()
    assert row_numbers(page) == [exact.number, newer.number]
    assert "exact key" in row_of(page, exact)
    assert "exact key" not in row_of(page, newer)


def test_the_validity_tabs_appear_only_once_the_server_has_a_retracted_fact(member, server):
    fact = make_fact(server)
    client = logged_in_client(member)
    before = client.get(PAGE, {"server": server.guild_id}).content.decode()
    fact_retract(fact=make_fact(server, key="old_rule", content="No food in the arcade."), reason="rule dropped")
    after = client.get(PAGE, {"server": server.guild_id}).content.decode()
    for tab in (">In force</a>", ">Retracted</a>", ">All</a>"):
        assert tab not in before
        assert tab in after
    assert row_numbers(after) == [fact.number]


def test_asking_for_retracted_facts_before_any_exist_shows_the_facts_in_force(member, server):
    fact = make_fact(server)
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id, "state": "retracted"})
    assert response.context["state"] == "in_force"
    assert row_numbers(response.content.decode()) == [fact.number]


def test_a_retracted_row_shows_the_reason_and_links_to_its_replacement(member, server):
    old = make_fact(server, key="tournament_day", content="The tournament is on Friday.")
    replacement = make_fact(server, key="tournament_day", content="The tournament is on Saturday.")
    fact_retract(fact=old, reason="moved to Saturday", superseded_by=replacement)
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id, "state": "retracted"})
    page = response.content.decode()
    assert row_numbers(page) == [old.number]
    row = row_of(page, old)
    assert "is-retracted" in row
    assert "moved to Saturday" in row
    replacement_url = reverse("memory:fact", args=[server.guild_id, replacement.number])
    assert f'replaced by <a href="{replacement_url}">#{replacement.number}</a>' in row


@pytest.fixture
def hundred_and_twenty_facts(server):
    return [make_fact(server, key=f"fact_{index:03d}", content=f"Fact number {index}.") for index in range(120)]


def test_keyset_paging_walks_120_facts_in_pages_of_50_without_overlap(member, server, hundred_and_twenty_facts):
    client = logged_in_client(member)
    first = client.get(PAGE, {"server": server.guild_id}).content.decode()
    second = client.get(pager_link(first, "next"), headers=LIST_FRAGMENT).content.decode()
    third = client.get(pager_link(second, "next"), headers=LIST_FRAGMENT).content.decode()
    pages = [row_numbers(first), row_numbers(second), row_numbers(third)]
    assert [len(numbers) for numbers in pages] == [50, 50, 20]
    assert set(pages[0]).isdisjoint(pages[1])
    assert sorted(pages[0] + pages[1] + pages[2]) == sorted(fact.number for fact in hundred_and_twenty_facts)
    assert 'rel="next"' not in third


def test_previous_from_page_two_returns_page_one(member, server, hundred_and_twenty_facts):
    client = logged_in_client(member)
    first = client.get(PAGE, {"server": server.guild_id}).content.decode()
    second = client.get(pager_link(first, "next"), headers=LIST_FRAGMENT).content.decode()
    back = client.get(pager_link(second, "prev"), headers=LIST_FRAGMENT).content.decode()
    assert row_numbers(back) == row_numbers(first)
    assert row_numbers(first)[0] == hundred_and_twenty_facts[-1].number  # newest change first


@pytest.mark.parametrize("sort, raw_cursor", [
    ("changed", b'["2020-01-01T00:00:00+00:00", 1e400]'),  # JSON reads 1e400 as infinity
    ("number", b'[1e400, 1]'),
], ids=["changed", "number"])
def test_a_tampered_paging_cursor_shows_the_first_page_instead_of_failing(member, server, sort, raw_cursor):
    fact = make_fact(server)
    cursor = base64.urlsafe_b64encode(raw_cursor).decode()
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id, "sort": sort, "after": cursor},
                                            headers=LIST_FRAGMENT)
    assert response.status_code == 200
    assert row_numbers(response.content.decode()) == [fact.number]


@pytest.mark.parametrize("param", ["q", "server"])
def test_a_nul_character_in_the_address_is_not_a_server_error(member, server, param):
    make_fact(server)
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id, param: "tourn\x00"})
    assert response.status_code in (200, 400)


@pytest.mark.parametrize("sort, expected", [
    ("confidence", [0.9, 0.6, 0.3]),
    ("confidence_asc", [0.3, 0.6, 0.9]),
])
def test_sorting_by_confidence_orders_the_rows(member, server, sort, expected):
    by_confidence = {confidence: make_fact(server, key=f"fact_{index}", content=f"Fact {index}.",
                                           confidence=confidence)
                     for index, confidence in enumerate([0.6, 0.3, 0.9])}
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id, "sort": sort}, headers=LIST_FRAGMENT)
    assert row_numbers(response.content.decode()) == [by_confidence[confidence].number for confidence in expected]


@pytest.fixture
def page_with_everything(server, owner):
    """A fact in force, a retracted fact and a summary: every action the page can offer has a target."""
    make_fact(server)
    fact_retract(fact=make_fact(server, key="old_rule", content="No food in the arcade."), reason="rule dropped")
    summary_set(server=server, content="A friendly retro gaming server.", author=FactAuthor.staff(owner))
    return {"server": server.guild_id, "state": "all"}


ACTIONS = [">Edit</button>", ">Delete</button>", ">Restore…</button>", "Add a fact", "Wipe memory",
           "Restore all retracted facts", "Audit log"]


def test_a_viewer_sees_no_button_that_changes_anything(member, page_with_everything):
    page = logged_in_client(member).get(PAGE, page_with_everything).content.decode()
    assert "No food in the arcade." in page
    for action in ACTIONS:
        assert action not in page


def test_the_owner_sees_every_action(owner, page_with_everything):
    page = logged_in_client(owner).get(PAGE, page_with_everything).content.decode()
    for action in ACTIONS:
        assert action in page


def test_an_outsider_filtering_by_our_guild_id_sees_nothing_of_ours(outsider, server, other_server):
    make_fact(server, key="tournament_day", content="The tournament is on Saturday.")
    theirs = make_fact(other_server, key="synth_day", content="Synth jam on Sunday.")
    client = logged_in_client(outsider)
    for query in ({"server": server.guild_id}, {"server": server.guild_id, "q": "tournament"}):
        response = client.get(PAGE, query)
        page = response.content.decode()
        assert response.status_code == 200
        assert response.context["chosen_server"] is None
        assert "Retro Arcade" not in page
        assert "The tournament is on Saturday." not in page
    assert row_numbers(client.get(PAGE, {"server": server.guild_id}).content.decode()) == [theirs.number]


def test_a_search_with_many_matches_pages_through_all_of_them_newest_first(member, server):
    """Enough matches that the page is found by walking the newest facts (the dense-word path)."""
    matching = [make_fact(server, key=f"tournament_{index}", content=f"Tournament round {index}.")
                for index in range(70)]
    for index in range(30):
        make_fact(server, key=f"other_{index}", content=f"Something else {index}.")
    client = logged_in_client(member)
    first = client.get(PAGE, {"server": server.guild_id, "q": "tourn"}, headers=LIST_FRAGMENT)
    page_one = row_numbers(first.content.decode())
    assert page_one == [fact.number for fact in reversed(matching)][:50]
    assert "70 facts" in first.content.decode()
    second = client.get(PAGE, {"server": server.guild_id, "q": "tourn", "after": first.context["page"].next_cursor},
                        headers=LIST_FRAGMENT)
    assert row_numbers(second.content.decode()) == [fact.number for fact in reversed(matching)][50:]


@pytest.mark.parametrize("typed", ["#", "?", "'", "-"])
def test_a_search_without_letters_shows_nothing_instead_of_failing(member, server, typed):
    make_fact(server)
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id, "q": typed}, headers=LIST_FRAGMENT)
    assert response.status_code == 200
    assert row_numbers(response.content.decode()) == []


@pytest.mark.parametrize("cursor_json", ['["2020-01-01T00:00:00", 5]', "[" * 1000])
def test_an_odd_cursor_falls_back_to_page_one(member, server, cursor_json):
    import base64

    fact = make_fact(server, key="gaming", content="Retro gaming.")
    cursor = base64.urlsafe_b64encode(cursor_json.encode()).decode().rstrip("=")
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id, "q": "gaming", "after": cursor},
                                            headers=LIST_FRAGMENT)
    assert response.status_code == 200
    assert fact.number in row_numbers(response.content.decode())


def test_the_pinned_exact_key_fact_is_back_after_next_then_previous(member, server):
    pinned = make_fact(server, key="gaming", content="Gaming is what we do.")
    for index in range(60):
        make_fact(server, key=f"game_{index}", content=f"Retro gaming night {index}.")
    client = logged_in_client(member)
    first = client.get(PAGE, {"server": server.guild_id, "q": "gaming"}, headers=LIST_FRAGMENT)
    second = client.get(PAGE, {"server": server.guild_id, "q": "gaming", "after": first.context["page"].next_cursor},
                        headers=LIST_FRAGMENT)
    back = client.get(PAGE, {"server": server.guild_id, "q": "gaming",
                             "before": second.context["page"].previous_cursor}, headers=LIST_FRAGMENT)
    assert row_numbers(back.content.decode())[0] == pinned.number
    assert row_numbers(back.content.decode()) == row_numbers(first.content.decode())


# The list reloading itself after a change (facts-changed, memory-changed) --------------------------------------


def reload_query(fragment: str) -> dict[str, str]:
    """What htmx sends when the list reloads itself: the hidden inputs of the elements its reload trigger includes
    (those the fragment holds; the server filter and search box around it are added by the caller)."""
    trigger = re.search(r'<div hidden hx-get="[^"]*" hx-trigger="[^"]*facts-changed[^"]*"\s+hx-include="([^"]+)"',
                        fragment)
    query: dict[str, str] = {}
    for selector in trigger.group(1).split(","):
        block = re.search(rf'<div id="{selector.strip().removeprefix("#")}">(.*?)</div>', fragment, flags=re.S)
        if block:
            query.update(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', block.group(1)))
    return {name: html.unescape(value) for name, value in query.items()}


def reload_of(client, server, fragment: str, *, q: str = ""):
    return client.get(PAGE, {"server": server.guild_id, "q": q, **reload_query(fragment)}, headers=LIST_FRAGMENT)


def three_pages(client, server) -> tuple[str, str, str]:
    """The list's fragments of pages one, two and three, each reached by the page before's Next link."""
    first = client.get(PAGE, {"server": server.guild_id}, headers=LIST_FRAGMENT).content.decode()
    second = client.get(pager_link(first, "next"), headers=LIST_FRAGMENT).content.decode()
    return first, second, client.get(pager_link(second, "next"), headers=LIST_FRAGMENT).content.decode()


def delete_on_page(client, server, number: int) -> None:
    response = client.post(reverse("memory:fact-delete", args=[server.guild_id, number]), headers=HTMX)
    assert "facts-changed" in response["HX-Trigger-After-Settle"]


@pytest.mark.parametrize("sort, q", [("changed", ""), ("confidence_asc", ""), ("number", ""), ("changed", "fact")],
                         ids=["newest", "confidence ascending", "number", "newest, searching"])
def test_after_a_delete_on_page_two_the_list_reloads_at_page_two(owner, server, hundred_and_twenty_facts, sort, q):
    client = logged_in_client(owner)
    first = client.get(PAGE, {"server": server.guild_id, "sort": sort, "q": q}, headers=LIST_FRAGMENT)
    second = client.get(pager_link(first.content.decode(), "next"), headers=LIST_FRAGMENT).content.decode()
    third = client.get(pager_link(second, "next"), headers=LIST_FRAGMENT).content.decode()
    on_page_two = row_numbers(second)
    delete_on_page(client, server, on_page_two[0])
    reloaded = reload_of(client, server, second, q=q)
    assert reloaded.context["sort"] == sort and reloaded.context["query"] == q
    # Page two without the deleted fact, topped up from page three: not page one again.
    assert row_numbers(reloaded.content.decode()) == on_page_two[1:] + row_numbers(third)[:1]


def test_after_a_restore_in_the_retracted_tab_the_list_stays_at_its_page(owner, server):
    for index in range(60):
        fact_retract(fact=make_fact(server, key=f"old_{index:02d}", content=f"Old rule {index}."), reason="stale")
    client = logged_in_client(owner)
    first = client.get(PAGE, {"server": server.guild_id, "state": "retracted"}, headers=LIST_FRAGMENT)
    second = client.get(pager_link(first.content.decode(), "next"), headers=LIST_FRAGMENT).content.decode()
    restored = row_numbers(second)[0]
    client.post(reverse("memory:fact-restore", args=[server.guild_id, restored]), headers=HTMX)
    reloaded = reload_of(client, server, second)
    assert reloaded.context["state"] == "retracted"
    assert row_numbers(reloaded.content.decode()) == row_numbers(second)[1:]


def test_when_a_page_loses_its_last_facts_the_list_shows_the_nearest_page_that_has_some(
        owner, server, hundred_and_twenty_facts):
    client = logged_in_client(owner)
    first, second, third = three_pages(client, server)
    for number in row_numbers(third):
        delete_on_page(client, server, number)
    reloaded = reload_of(client, server, third).content.decode()
    assert row_numbers(reloaded) == row_numbers(second)  # page two, whole, is now the last page
    assert 'rel="prev"' in reloaded and 'rel="next"' not in reloaded
    # Reloading again (the next change) stays there too.
    again = reload_of(client, server, reloaded).content.decode()
    assert row_numbers(again) == row_numbers(second)


def test_a_list_emptied_at_a_later_page_says_no_facts_instead_of_pointing_elsewhere(owner, server):
    facts = [make_fact(server, key=f"fact_{index:02d}", content=f"Fact number {index}.") for index in range(51)]
    client = logged_in_client(owner)
    first = client.get(PAGE, {"server": server.guild_id}, headers=LIST_FRAGMENT).content.decode()
    second = client.get(pager_link(first, "next"), headers=LIST_FRAGMENT).content.decode()
    for fact in facts:
        delete_on_page(client, server, fact.number)
    reloaded = reload_of(client, server, second)
    assert row_numbers(reloaded.content.decode()) == []
    assert "No facts yet." in reloaded.content.decode()
    assert reload_query(reloaded.content.decode()) == {"state": "in_force", "sort": "changed"}


def test_back_on_page_one_by_previous_the_list_reloads_as_page_one(owner, server, hundred_and_twenty_facts):
    client = logged_in_client(owner)
    first = client.get(PAGE, {"server": server.guild_id}, headers=LIST_FRAGMENT).content.decode()
    second = client.get(pager_link(first, "next"), headers=LIST_FRAGMENT).content.decode()
    back = client.get(pager_link(second, "prev"), headers=LIST_FRAGMENT).content.decode()
    assert "after" not in reload_query(back) and "before" not in reload_query(back)
    added = make_fact(server, key="newest_rule", content="A fact added meanwhile.")
    assert row_numbers(reload_of(client, server, back).content.decode())[0] == added.number


def test_a_new_search_starts_at_page_one_even_from_a_later_page(member, server, hundred_and_twenty_facts):
    """The page's address stays out of what the search box and the tabs send (only the reload sends it)."""
    client = logged_in_client(member)
    first = client.get(PAGE, {"server": server.guild_id}, headers=LIST_FRAGMENT).content.decode()
    second = client.get(pager_link(first, "next"), headers=LIST_FRAGMENT).content.decode()
    page = client.get(pager_link(first, "next")).content.decode()  # the full page at page two
    search_box = re.search(r'<input type="search" id="id_q"[^>]*>', page, flags=re.S).group(0)
    assert "#fact-list-page" not in re.search(r'hx-include="([^"]+)"', search_box).group(1)
    assert 'name="after"' not in re.search(r'<div id="fact-list-state">(.*?)</div>', second, flags=re.S).group(1)
    assert 'name="after"' in re.search(r'<div id="fact-list-page">(.*?)</div>', second, flags=re.S).group(1)


def test_when_the_retracted_tab_goes_away_the_reload_starts_the_facts_in_force_at_page_one(owner, server):
    for index in range(60):
        make_fact(server, key=f"rule_{index:02d}", content=f"Rule {index}.")
        fact_retract(fact=make_fact(server, key=f"old_{index:02d}", content=f"Old rule {index}."), reason="stale")
    client = logged_in_client(owner)
    first = client.get(PAGE, {"server": server.guild_id, "state": "retracted"}, headers=LIST_FRAGMENT)
    second = client.get(pager_link(first.content.decode(), "next"), headers=LIST_FRAGMENT).content.decode()
    facts_restore_all(server=server, actor=owner)  # nothing retracted any more: no tabs
    reloaded = reload_of(client, server, second)
    assert reloaded.context["state"] == "in_force"
    page_one = client.get(PAGE, {"server": server.guild_id}, headers=LIST_FRAGMENT).content.decode()
    assert row_numbers(reloaded.content.decode()) == row_numbers(page_one)
    assert len(row_numbers(page_one)) == 50


def test_a_page_reached_by_previous_that_lost_every_fact_before_it_shows_page_one(owner, server):
    facts = [make_fact(server, key=f"fact_{index:03d}", content=f"Fact number {index}.") for index in range(60)]
    client = logged_in_client(owner)
    first = client.get(PAGE, {"server": server.guild_id}, headers=LIST_FRAGMENT).content.decode()
    second = client.get(pager_link(first, "next"), headers=LIST_FRAGMENT).content.decode()
    back = client.get(pager_link(second, "prev"), headers=LIST_FRAGMENT).content.decode()
    assert row_numbers(back) == row_numbers(first)
    for number in row_numbers(first):
        delete_on_page(client, server, number)
    emptied = client.get(pager_link(second, "prev"), headers=LIST_FRAGMENT).content.decode()
    assert row_numbers(emptied) == [fact.number for fact in reversed(facts[:10])]  # what is left: page one


def test_after_the_nearest_page_is_shown_its_next_link_never_leads_back_to_the_emptied_page(
        owner, server, hundred_and_twenty_facts):
    client = logged_in_client(owner)
    first, second, third = three_pages(client, server)
    for number in row_numbers(third):
        delete_on_page(client, server, number)
    reloaded = reload_of(client, server, third).content.decode()
    # The next change reloads the list from the address the fallback page gave itself: still no Next.
    again = reload_of(client, server, reloaded).content.decode()
    assert row_numbers(again) == row_numbers(second)
    assert 'rel="next"' not in again
    assert row_numbers(client.get(pager_link(again, "prev"), headers=LIST_FRAGMENT).content.decode()) == \
        row_numbers(first)


def test_a_page_reached_by_previous_offers_no_next_once_the_page_after_it_is_empty(
        owner, server, hundred_and_twenty_facts):
    client = logged_in_client(owner)
    first, second, third = three_pages(client, server)
    back = client.get(pager_link(third, "prev"), headers=LIST_FRAGMENT).content.decode()
    assert 'rel="next"' in back
    for number in row_numbers(third):
        delete_on_page(client, server, number)
    reloaded = reload_of(client, server, back).content.decode()
    assert row_numbers(reloaded) == row_numbers(second) and 'rel="next"' not in reloaded


def test_once_the_retracted_tab_is_gone_next_leads_to_page_two_of_the_facts_in_force(owner, server):
    for index in range(60):
        make_fact(server, key=f"rule_{index:02d}", content=f"Rule {index}.")
        fact_retract(fact=make_fact(server, key=f"old_{index:02d}", content=f"Old rule {index}."), reason="stale")
    client = logged_in_client(owner)
    first = client.get(PAGE, {"server": server.guild_id, "state": "retracted"}, headers=LIST_FRAGMENT)
    second = client.get(pager_link(first.content.decode(), "next"), headers=LIST_FRAGMENT).content.decode()
    facts_restore_all(server=server, actor=owner)
    reloaded = reload_of(client, server, second).content.decode()
    assert "state=retracted" not in pager_link(reloaded, "next")
    page_two = client.get(pager_link(reloaded, "next"), headers=LIST_FRAGMENT).content.decode()
    assert len(row_numbers(page_two)) == 50 and set(row_numbers(page_two)).isdisjoint(row_numbers(reloaded))


def reload_headers(fragment: str) -> dict[str, str]:
    """The headers of the list's reload: htmx names the element that triggered it by its id."""
    reload_id = re.search(r'<div hidden hx-get="[^"]*" hx-trigger="[^"]*facts-changed[^>]*\sid="([^"]+)"', fragment)
    return {**LIST_FRAGMENT, "HX-Trigger": reload_id.group(1)}


def test_a_reload_that_falls_back_to_the_nearest_page_replaces_the_address_with_that_page(
        owner, server, hundred_and_twenty_facts):
    client = logged_in_client(owner)
    first, second, third = three_pages(client, server)
    for number in row_numbers(third):
        delete_on_page(client, server, number)
    asked = {"server": server.guild_id, "q": "", **reload_query(third)}
    reloaded = client.get(PAGE, asked, headers=reload_headers(third))
    assert "HX-Push-Url" not in reloaded  # the reload is no step the user took: no new history entry
    address = reloaded["HX-Replace-Url"]
    assert reload_query(third)["after"] not in address
    # The address opens the page on screen, and reloading it (browser reload) keeps showing it.
    shown = client.get(address, headers=LIST_FRAGMENT)
    assert row_numbers(shown.content.decode()) == row_numbers(second)
    assert "HX-Replace-Url" not in shown and "HX-Push-Url" not in shown


def test_a_reload_that_shows_the_page_asked_for_leaves_the_address_alone(owner, server, hundred_and_twenty_facts):
    client = logged_in_client(owner)
    first = client.get(PAGE, {"server": server.guild_id}, headers=LIST_FRAGMENT).content.decode()
    second = client.get(pager_link(first, "next"), headers=LIST_FRAGMENT).content.decode()
    delete_on_page(client, server, row_numbers(second)[0])
    reloaded = client.get(PAGE, {"server": server.guild_id, "q": "", **reload_query(second)},
                          headers=reload_headers(second))
    assert "HX-Replace-Url" not in reloaded and "HX-Push-Url" not in reloaded


def test_a_stale_next_link_followed_after_its_page_emptied_pushes_the_address_of_the_page_shown(
        owner, server, hundred_and_twenty_facts):
    client = logged_in_client(owner)
    first = client.get(PAGE, {"server": server.guild_id}, headers=LIST_FRAGMENT).content.decode()
    second = client.get(pager_link(first, "next"), headers=LIST_FRAGMENT).content.decode()
    stale_next = pager_link(second, "next")
    for number in row_numbers(client.get(stale_next, headers=LIST_FRAGMENT).content.decode()):
        delete_on_page(client, server, number)
    followed = client.get(stale_next, headers={**LIST_FRAGMENT, "HX-Boosted": "true"})
    assert "HX-Replace-Url" not in followed  # a link the user followed pushes, as its hx-push-url does
    assert row_numbers(client.get(followed["HX-Push-Url"], headers=LIST_FRAGMENT).content.decode()) == \
        row_numbers(second)


def test_a_search_from_page_two_starts_at_the_first_page_of_its_results(member, server):
    for index in range(60):
        make_fact(server, key=f"misc_{index:02d}", content=f"Unrelated note {index}.")
    for index in range(70):
        make_fact(server, key=f"game_{index:02d}", content=f"Gaming night number {index}.")
    client = logged_in_client(member)
    first = client.get(PAGE, {"server": server.guild_id}, headers=LIST_FRAGMENT).content.decode()
    second = client.get(pager_link(first, "next"), headers=LIST_FRAGMENT).content.decode()
    # What the search box sends: the filters and the list's state, never the page's address (#fact-list-page).
    state = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">',
                            re.search(r'<div id="fact-list-state">(.*?)</div>', second, flags=re.S).group(1)))
    searched = client.get(PAGE, {"server": server.guild_id, **state, "q": "gaming"},
                          headers={**LIST_FRAGMENT, "HX-Trigger": "id_q"}).content.decode()
    page_one = client.get(PAGE, {"server": server.guild_id, "q": "gaming"}, headers=LIST_FRAGMENT).content.decode()
    assert row_numbers(searched) == row_numbers(page_one) and len(row_numbers(searched)) == 50
    assert 'rel="prev"' not in searched
    next_link = pager_link(searched, "next")
    assert "q=gaming" in next_link
    rest = client.get(next_link, headers=LIST_FRAGMENT).content.decode()
    assert len(row_numbers(rest)) == 20 and set(row_numbers(rest)).isdisjoint(row_numbers(searched))
    assert "q=gaming" in pager_link(rest, "prev") and 'rel="next"' not in rest
