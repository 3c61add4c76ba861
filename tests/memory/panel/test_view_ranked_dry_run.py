"""The Ranked dry run on the type scale: how many facts have an importance score, and which facts would win
or lose a context slot against the current type, for a message that matches nothing and for a sample message."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from memory.configuration.services import ai_settings_update
from memory.models import Exchange, Fact, Kind, MemoryType
from tests.conftest import logged_in_client
from tests.factories import make_fact
from tests.memory.bot.api.helpers import configure

HTMX = {"HX-Request": "true"}


@pytest.fixture
def memory(server):
    """Classic, 2 slots: two chat facts from today, an essential rule from last week, an old birthday (the chat and
    the birthday are events: they age, the rule does not)."""
    configure(server, memory_type=MemoryType.CLASSIC, max_injected_items=2)
    now = timezone.now()
    return {
        "chat_new": make_fact(server, key="chat_new", content="People talked about pizza.",
                              created_at=now - timedelta(hours=1), kind=Kind.EVENT),
        "chat_old": make_fact(server, key="chat_old", content="People talked about the weather.",
                              created_at=now - timedelta(hours=2), kind=Kind.EVENT),
        "rule": make_fact(server, key="rule_spoilers", content="No spoilers outside the spoiler channel.",
                          importance=1.0, created_at=now - timedelta(days=7), kind=Kind.RULE),
        "birthday": make_fact(server, key="paul_birthday", content="Paul's birthday is on 3 May.",
                              importance=0.7, created_at=now - timedelta(days=300), kind=Kind.EVENT),
    }


def sample(client, server, message: str, **headers):
    return client.get(reverse("memory:ranked-dry-run", args=[server.guild_id]), {"message": message},
                      headers=headers)


def table(page: str, caption: str) -> str:
    start = page.index(f"<caption>{caption}</caption>")
    return page[start:page.index("</table>", start)]


def ranked_card(page: str) -> str:
    start = page.index('id="type-ranked"')
    return page[start:page.index("</article>", start)]


def below_the_cards(page: str) -> str:
    """Ranked's tables and sample field, below the six cards at their whole width (in its column they made every
    card about 13,000 px tall at 1280 px)."""
    start = page.index('id="ranked-dry-run"')
    return page[start:page.index("</details>", start)]


def test_the_ranked_card_counts_the_facts_with_an_importance_score(member, server, memory):
    page = html.unescape(logged_in_client(member).get(
        reverse("memory:memory-type", args=[server.guild_id])).content.decode())
    card = ranked_card(page)
    assert "2 of 4 facts in force already have an importance score; the other 2 count as middling (0.5)" in card


def test_for_a_message_that_matches_nothing_the_card_shows_who_wins_and_who_loses_a_slot(member, server, memory):
    page = html.unescape(logged_in_client(member).get(
        reverse("memory:memory-type", args=[server.guild_id])).content.decode())
    card = ranked_card(page)
    assert "For a message that matches no fact" in card
    assert "1 fact would win a slot and 1 would lose one; 1 keeps theirs" in card
    assert "<table" not in card and 'href="#ranked-facts"' in card  # the card says how many; which, below
    tables = below_the_cards(page)
    assert page.index('id="ranked-dry-run"') > page.rindex("</article>")
    assert "rule_spoilers" in table(tables, "Would win a slot")
    assert "chat_old" in table(tables, "Would lose its slot")
    assert "chat_new" not in tables
    assert 'id="ranked-facts"' in tables


def test_below_the_cards_is_a_live_sample_message_field(member, server, memory):
    page = logged_in_client(member).get(reverse("memory:memory-type", args=[server.guild_id]),
                                        headers=HTMX).content.decode()
    tables = below_the_cards(page)
    url = reverse("memory:ranked-dry-run", args=[server.guild_id])
    assert f'hx-get="{url}" hx-trigger="input changed delay:300ms"' in tables
    assert f'action="{url}"' in tables  # and a plain form for a browser without JavaScript
    assert 'id="ranked-sample-slots"' in tables  # the sample's tables take the place of the ones shown first


def test_a_sample_message_about_an_old_fact_shows_it_winning_a_slot(member, server, memory):
    response = sample(logged_in_client(member), server, "When is Paul's birthday?", **HTMX)
    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert "<html" not in page
    assert "For “When is Paul's birthday?”" in page
    winners = table(page, "Would win a slot")
    assert "paul_birthday" in winners and "relevance 1.00" in winners
    assert "rule_spoilers" in winners
    losers = table(page, "Would lose its slot")
    assert "chat_new" in losers and "chat_old" in losers


def test_without_htmx_the_sample_is_a_page_of_its_own(member, server, memory):
    response = sample(logged_in_client(member), server, "When is Paul's birthday?")
    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert "<html" in page
    assert 'value="When is Paul\'s birthday?"' in page
    assert "paul_birthday" in table(page, "Would win a slot")


def test_an_empty_sample_is_the_message_that_matches_nothing(member, server, memory):
    page = html.unescape(sample(logged_in_client(member), server, "  ", **HTMX).content.decode())
    assert "For a message that matches no fact" in page
    assert "paul_birthday" not in page


def test_on_a_server_that_already_ranks_no_slot_would_change(member, server, memory):
    for memory_type in (MemoryType.RANKED, MemoryType.CONSOLIDATED):
        configure(server, memory_type=memory_type)
        page = sample(logged_in_client(member), server, "When is Paul's birthday?", **HTMX).content.decode()
        assert "already gives the context slots to the best-scored facts: no slot would change" in page
        assert "<table" not in page


def test_when_ranking_picks_the_same_facts_it_says_so(member, server, memory):
    configure(server, weight_recency=10.0, weight_importance=0.0, weight_relevance=0.0)
    Fact.objects.filter(kind=Kind.RULE).update(kind=Kind.EVENT)  # every fact ages: recency alone is Classic's order
    page = sample(logged_in_client(member), server, "", **HTMX).content.decode()
    assert "No slot would change hands: the same 2 facts fill the context" in page


def test_a_server_without_facts_has_nothing_to_rank(member, server):
    page = sample(logged_in_client(member), server, "hello", **HTMX).content.decode()
    assert "No fact is in force yet" in page


def test_the_dry_run_changes_nothing_and_records_no_exchange(owner, server, memory):
    before = list(Fact.objects.order_by("pk").values_list("pk", "changed_at", "version", "importance"))
    sample(logged_in_client(owner), server, "When is Paul's birthday?", **HTMX)
    logged_in_client(owner).get(reverse("memory:memory-type", args=[server.guild_id]))
    assert list(Fact.objects.order_by("pk").values_list("pk", "changed_at", "version", "importance")) == before
    assert not Exchange.objects.exists()


@pytest.mark.parametrize("message", ["\x00when\x00 is Paul's birthday", "birthday " * 2000, "#?!", "🎂🎂"])
def test_odd_sample_messages_are_answered(member, server, memory, message):
    assert sample(logged_in_client(member), server, message, **HTMX).status_code == 200


def test_on_a_ranked_server_the_types_before_say_the_newest_facts_come_back(member, server, memory):
    configure(server, memory_type=MemoryType.RANKED)
    page = logged_in_client(member).get(reverse("memory:memory-type", args=[server.guild_id])).content.decode()
    for card in ("type-classic", "type-ledger", "type-archive"):
        start = page.index(f'id="{card}"')
        assert "most recently changed facts fill the context again" in page[start:page.index("</article>", start)]
    assert "This server uses it now." in ranked_card(page)
    assert "<table" not in ranked_card(page)
    assert 'id="ranked-dry-run"' not in page  # nothing to open below the cards


def test_the_memory_types_page_explains_how_ranked_scores_a_fact(member):
    page = html.unescape(logged_in_client(member).get(reverse("memory:types-doc")).content.decode())
    section = page[page.index('id="ranking"'):]
    assert "score = confidence × (w_rec·recency + w_imp·importance + w_rel·relevance)" in section
    assert "halves every half-life of the fact's kind" in section and "An unscored fact counts as 0.5" in section
    assert "rules, lore and profiles never age" in section and "events every 30 days" in section


def test_the_ranked_card_and_its_tables_say_the_half_lives_of_this_server(member, owner, server, memory):
    ai_settings_update(server=server, actor=owner, half_life_event_days=7, half_life_lore_days=365)
    page = html.unescape(logged_in_client(member).get(reverse("memory:memory-type",
                                                              args=[server.guild_id])).content.decode())
    sentence = ("Recency halves by kind (AI settings, half-lives): rules never, lore every 365 days, profiles never, "
                "preferences every 180 days, events every 7 days; “never”: age is no reason to forget.")
    assert sentence in ranked_card(page)
    assert sentence in below_the_cards(page)
    fragment = html.unescape(sample(logged_in_client(member), server, "spoilers", **HTMX).content.decode())
    assert sentence in fragment
    assert 'class="badge badge-kind kind-rule"' in fragment  # each fact says its kind: it decides its recency
