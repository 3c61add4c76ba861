"""The dry run of the server's current memory type: the context a message typed by staff would get (from a member
they name, in a channel), built by the bot's own context code without recording anything — the pinned facts, the
speaker's share, the rest by the type's order, what the character budget cuts — and, on the memory page, how many
characters a reply's memory block takes today."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from memory.configuration.services import ChannelRule, ai_settings_update
from memory.facts.services import FactAuthor, fact_pin_set
from memory.models import Exchange, Kind, MemoryType
from tests.conftest import logged_in_client
from tests.factories import make_fact
from tests.memory.bot.api.helpers import configure

HTMX = {"HX-Request": "true"}
PAUL = "200000000000000011"


@pytest.fixture
def memory(server, owner):
    """Classic, 3 slots, a share of a third: a pinned rule, Paul's birthday (old), and four newer server facts."""
    configure(server, memory_type=MemoryType.CLASSIC, max_injected_items=3)
    ai_settings_update(server=server, actor=owner, speaker_share=0.34)
    now = timezone.now()
    rule = make_fact(server, key="no_public_support", content="Do not give support in public channels.",
                     kind=Kind.RULE, author=FactAuthor.staff(owner), created_at=now - timedelta(days=400))
    fact_pin_set(fact=rule, pinned=True, actor=owner)
    facts = {"rule": rule, "birthday": make_fact(server, key="paul_birthday", content="Paul's birthday is on 3 May.",
                                                 scope="member", member_id=PAUL, created_at=now - timedelta(days=90))}
    for index in range(4):
        facts[f"chat_{index}"] = make_fact(server, key=f"chat_{index}", content=f"People talked about topic {index}.",
                                           created_at=now - timedelta(hours=10 - index))
    return facts


def try_context(client, server, **query):
    return client.get(reverse("memory:context-dry-run", args=[server.guild_id]), query, headers=HTMX)


def text_of(response) -> str:
    """The page's text with every run of white space one space, as a reader sees it."""
    return " ".join(html.unescape(response.content.decode()).split())


def part(page: str, title: str) -> str:
    start = page.index(f"<h4>{title}")
    return page[start:page.index("</section>", start)]


def test_the_context_of_a_message_is_shown_part_by_part_and_nothing_is_recorded(member, server, memory):
    response = try_context(logged_in_client(member), server, message="when is my birthday?", member_id=PAUL,
                           member_name="Paul")
    page = html.unescape(response.content.decode())
    assert response.status_code == 200 and "<html" not in page
    assert "For “when is my birthday?”, from Paul (200000000000000011), in a channel where nothing was learned, " \
           "under Classic:" in text_of(response)
    assert "no_public_support" in part(page, "Pinned, first (1)")
    assert "paul_birthday" in part(page, "About the speaker (1 of 2 reserved slots)")
    rest = part(page, "The rest, newest changes first (2)")
    assert "chat_3" in rest and "chat_2" in rest and "chat_0" not in rest
    assert "Nothing: every fact chosen fits" in part(page, "Cut by the budget (0)")
    assert "You are talking to Paul (member 200000000000000011)." in page  # the block, as the bot gets it
    assert not Exchange.objects.exists()


def test_without_a_member_the_speakers_share_goes_to_the_types_order(member, server, memory):
    response = try_context(logged_in_client(member), server)
    page = html.unescape(response.content.decode())
    assert "For a message that matches no fact, from a member nothing is known about" in text_of(response)
    assert "Give a member id to see their share." in part(page, "About the speaker (0 of 0 reserved slots)")
    assert "paul_birthday" not in part(page, "The rest, newest changes first (3)")
    assert "You are talking to" not in page  # nobody is named: no "member ." line in the block


def test_the_facts_the_budget_cuts_are_listed(member, owner, server, memory):
    make_fact(server, key="long_story", content="x" * 480)  # the newest: first of the type's order
    ai_settings_update(server=server, actor=owner, max_memory_chars=500)
    page = html.unescape(try_context(logged_in_client(member), server).content.decode())
    cut = part(page, "Cut by the budget (3)")
    # the pinned rule fits; the block stops at the first fact that no longer fits, and cuts those after it too
    assert "long_story" in cut and "chat_3" in cut and "chat_2" in cut
    assert "no_public_support" in part(page, "Pinned, first (1)")
    assert "No other fact." in part(page, "The rest, newest changes first (0)")
    assert re.search(r"its fact lines \d+ of the 500 allowed", page)


def test_a_ranked_server_says_its_rest_comes_by_score(member, server, memory):
    configure(server, memory_type=MemoryType.RANKED)
    page = html.unescape(try_context(logged_in_client(member), server, message="topic", member_id=PAUL).content
                         .decode())
    assert "under Ranked" in page and "<h4>The rest, by score, best first" in page
    assert "no_public_support" in part(page, "Pinned, first (1)")


def test_a_channel_where_memory_may_not_be_read_says_so(member, owner, server, memory):
    ai_settings_update(server=server, actor=owner, read=ChannelRule(False, ("300000000000000001",)))
    page = try_context(logged_in_client(member), server, channel_id="300000000000000009").content.decode()
    assert "Memory may be written here but not read (read channels). The bot gets no facts there." in page


def test_without_a_channel_the_first_read_channel_stands_for_where_the_bot_reads(member, owner, server, memory):
    ai_settings_update(server=server, actor=owner, read=ChannelRule(False, ("300000000000000001",)))
    page = html.unescape(try_context(logged_in_client(member), server).content.decode())
    assert "in channel 300000000000000001" in page and "no_public_support" in part(page, "Pinned, first (1)")


@pytest.mark.parametrize("query, sentence", [
    ({"member_id": "paul"}, "A Discord user id is a number of 1–20 digits."),
    ({"channel_id": "#general"}, "A channel id is a number of 1–20 digits."),
    ({"message": "m" * 501}, "Keep the sample message to at most 500 characters."),
    ({"member_name": "Paul"}, "Give the member&#x27;s id too: the speaker&#x27;s share is found by id."),
], ids=["member id", "channel id", "long message", "name without id"])
def test_bad_input_is_told_in_a_sentence_and_nothing_is_tried(member, server, memory, query, sentence):
    response = try_context(logged_in_client(member), server, **query)
    assert response.status_code == 422
    assert sentence in response.content.decode() and "Nothing was tried" in response.content.decode()
    assert not Exchange.objects.exists()


def test_without_script_it_is_a_page_with_its_form(member, server, memory):
    response = logged_in_client(member).get(reverse("memory:context-dry-run", args=[server.guild_id]),
                                            {"message": "hello", "member_id": PAUL})
    page = response.content.decode()
    assert "<html" in page and 'name="member_id"' in page and f'value="{PAUL}"' in page
    assert "Pinned, first (1)" in page


def test_the_memory_page_asks_how_big_a_replys_memory_block_is_today(member, server, memory):
    page = logged_in_client(member).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert 'id="memory-budget"' in page and reverse("memory:context-dry-run", args=[server.guild_id]) in page
    answer = logged_in_client(member).get(reverse("memory:context-dry-run", args=[server.guild_id]),
                                          headers={**HTMX, "HX-Target": "memory-budget"}).content.decode()
    assert re.search(r"A reply's memory block takes \d+ characters today: its fact lines \d+ of the 6000 allowed "
                     r"\(Maximum memory characters\), with 1 pinned fact and 3 others\.", html.unescape(answer))


def test_the_current_types_card_keeps_a_tester_below_the_cards(member, server, memory):
    for memory_type in (MemoryType.CLASSIC, MemoryType.RANKED):
        configure(server, memory_type=memory_type)
        page = html.unescape(logged_in_client(member).get(reverse("memory:memory-type", args=[server.guild_id]))
                             .content.decode())
        card = page[page.index('id="type-' + memory_type + '"'):]
        card = card[:card.index("</article>")]
        assert "Today a reply's memory block takes" in card and 'href="#context-facts"' in card
        below = page[page.index('id="context-dry-run"'):]
        assert 'name="member_id"' in below and "Pinned, first (1)" in below
