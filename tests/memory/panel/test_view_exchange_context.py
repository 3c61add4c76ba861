"""The exchange page and log say why each fact came into the context, as the exchange recorded it: pinned, about the
speaker (or a member mentioned), by the memory type's own order, and which facts the character budget cut."""

from __future__ import annotations

import re

from django.urls import reverse

from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.configuration.directory import SeenMember, members_seen
from memory.facts.services import FactAuthor, fact_pin_set
from memory.models import Exchange
from tests.conftest import logged_in_client
from tests.factories import make_fact

PAUL, MIA = "200000000000000011", "200000000000000031"


def recorded(server, **fields) -> Exchange:
    values = {"channel_id": "111", "author_id": PAUL, "author_name": "Paul", "message": "When is my birthday?",
              "memory_type": "classic", "read_allowed": True, **fields}
    return Exchange.objects.create(server=server, **values)


def injected_of(page: str) -> str:
    return re.search(r"<dt>Injected</dt><dd>(.*?)</dd>", page, re.S).group(1)


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_exchange_page_groups_pinned_speaker_and_the_types_order(member, server):
    exchange = recorded(server, shown_numbers=[1, 2, 5, 7, 9], pinned_numbers=[1, 2], speaker_numbers=[5])
    page = logged_in_client(member).get(reverse("memory:exchange", args=[server.guild_id, exchange.pk])).content
    injected = text_of(injected_of(page.decode()))
    assert injected == "Pinned #1 #2 About Paul #5 The rest, newest changes #7 #9"


def test_a_ranked_exchange_says_the_rest_came_by_score(member, server):
    exchange = recorded(server, memory_type="ranked", shown_numbers=[3, 4], speaker_numbers=[3])
    page = logged_in_client(member).get(reverse("memory:exchange", args=[server.guild_id, exchange.pk])).content
    assert text_of(injected_of(page.decode())) == "About Paul #3 The rest, by score #4"


def test_without_pinned_or_speaker_facts_the_order_alone_is_named(member, server):
    exchange = recorded(server, shown_numbers=[3, 4])
    page = logged_in_client(member).get(reverse("memory:exchange", args=[server.guild_id, exchange.pk])).content
    assert text_of(injected_of(page.decode())) == "Newest changes #3 #4"


def test_the_facts_the_budget_cut_are_listed_apart(member, server):
    exchange = recorded(server, shown_numbers=[1], budget_cut_numbers=[8, 6])
    page = logged_in_client(member).get(reverse("memory:exchange", args=[server.guild_id, exchange.pk])).content
    cut = re.search(r"<dt>Cut by the budget</dt><dd>(.*?)</dd>", page.decode(), re.S).group(1)
    assert text_of(cut).startswith("#8 #6 chosen, but past Maximum memory characters")
    assert reverse("memory:fact", args=[server.guild_id, 8]) in cut


def test_no_cut_says_nothing_about_the_budget(member, server):
    exchange = recorded(server, shown_numbers=[1])
    page = logged_in_client(member).get(reverse("memory:exchange", args=[server.guild_id, exchange.pk])).content
    assert "Cut by the budget" not in page.decode()


def test_members_mentioned_are_named_from_the_directory(member, server):
    members_seen(server=server, members=[SeenMember(MIA, "Mia")])
    exchange = recorded(server, shown_numbers=[4], speaker_numbers=[4], mentioned_ids=[MIA, "200000000000000099"])
    page = logged_in_client(member).get(reverse("memory:exchange", args=[server.guild_id, exchange.pk])).content
    page = page.decode()
    assert "About Paul or a member mentioned" in text_of(injected_of(page))
    mentioned = re.search(r"<dt>Members mentioned</dt><dd>(.*?)</dd>", page, re.S).group(1)
    assert text_of(mentioned) == f"Mia ({MIA}) , member 200000000000000099"  # a tag reads as a space


def test_an_exchange_that_showed_nothing_says_so(member, server):
    exchange = recorded(server)
    page = logged_in_client(member).get(reverse("memory:exchange", args=[server.guild_id, exchange.pk])).content
    assert text_of(injected_of(page.decode())) == "nothing"


def test_the_log_rows_say_the_same(member, server):
    recorded(server, shown_numbers=[1, 5], pinned_numbers=[1], speaker_numbers=[5], budget_cut_numbers=[9])
    page = logged_in_client(member).get(reverse("memory:exchanges", args=[server.guild_id])).content.decode()
    assert text_of(injected_of(page)) == "Pinned #1 About Paul #5"
    assert "Cut by the budget" in page


def test_a_real_exchange_shows_the_pinned_rule_and_the_speakers_fact_as_the_context_chose_them(member, owner, server):
    rule = fact_pin_set(fact=make_fact(server, key="no_public_support", content="No support in public.",
                                       kind="rule", author=FactAuthor.staff(owner)), pinned=True, actor=owner)
    birthday = make_fact(server, key="paul_birthday", content="Paul's birthday is on 3 May.", scope="member",
                         member_id=PAUL)
    other = make_fact(server, key="theme", content="Retro games.")
    message = IncomingMessage(channel_id="111", author_id=PAUL, author_name="Paul", content="my birthday?")
    exchange = exchange_open(server=server, message=message).exchange
    page = logged_in_client(member).get(reverse("memory:exchange", args=[server.guild_id, exchange.pk])).content
    assert text_of(injected_of(page.decode())) == \
        f"Pinned #{rule.number} {rule.key} About Paul #{birthday.number} {birthday.key} " \
        f"The rest, newest changes #{other.number} {other.key}"  # each number with its key
