"""Memory at a glance (issue 25): the memory page's strip of numbers, each linking to its list, and the new facts per
week of the last 26 weeks as a server-rendered SVG chart whose bars hold the counts; viewers may see it."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from consolidation.models import Proposal, ProposalKind
from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.facts import glance
from memory.facts.services import fact_retract
from memory.models import Fact
from tests.conftest import logged_in_client
from tests.factories import make_fact, make_facts_in_bulk


@pytest.fixture
def glance_url(server):
    now = timezone.now()
    make_facts_in_bulk(server, 5, newest=now - timedelta(days=1), step=timedelta(hours=1))  # this week
    make_facts_in_bulk(server, 3, newest=now - timedelta(weeks=10), step=timedelta(hours=1))
    make_facts_in_bulk(server, 2, newest=now - timedelta(weeks=40), step=timedelta(hours=1))  # before the chart
    pinned = make_fact(server, key="be_kind", content="Be kind.")
    Fact.objects.filter(pk=pinned.pk).update(pinned=True)
    fact_retract(fact=make_fact(server, key="old_rule", content="No memes."), reason="dropped")
    older, newer = make_fact(server, key="raid_day", content="Raids on Tuesday."), make_fact(
        server, key="raid_day", content="Raids on Thursday.")
    Proposal.objects.create(server=server, kind=ProposalKind.CONTRADICTION, keeper=newer, other=older,
                            keeper_version=1, other_version=1, pair_low=older.pk, pair_high=newer.pk)
    exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id="222", content="hi"))
    return reverse("memory:glance", args=[server.guild_id])


def test_a_viewer_sees_the_numbers_each_linking_to_its_list(member, server, glance_url):
    page = logged_in_client(member).get(glance_url).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    # 10 bulk facts + pinned + 2 raid facts in force; 1 retracted.
    assert "13 in force" in text and "1 retracted" in text and "1 pinned" in text
    assert "1 proposal waiting" in text and "1 contradiction" in text
    assert "1 exchange this week , 1 used memory" in text  # Classic handed it the newest facts
    memory = reverse("memory:page")
    assert f'href="{memory}?server={server.guild_id}&amp;state=retracted"' in page
    assert f'href="{reverse("memory:exchanges", args=[server.guild_id])}"' in page


def test_the_chart_has_26_weekly_bars_holding_the_recorded_counts(member, glance_url):
    page = logged_in_client(member).get(glance_url).content.decode()
    counts = [int(count) for count in re.findall(r'data-count="(\d+)"', page)]
    assert len(counts) == 26 and "<svg" in page and "<script" not in page
    # This week: the 5 facts of yesterday and the 4 written today (pinned, retracted, the two raid facts).
    assert counts[-1] == 9 and counts[-11] == 3 and sum(counts) == 12  # the 2 of 40 weeks ago are outside the chart


def test_the_memory_page_loads_the_strip_after_itself(member, server, glance_url):
    page = logged_in_client(member).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert f'hx-get="{glance_url}"' in page and "Counting this server" in page


def test_anonymous_goes_to_log_in_and_another_team_sees_nothing(client, outsider, glance_url):
    assert client.get(glance_url).status_code == 302
    assert logged_in_client(outsider).get(glance_url).status_code == 404


def test_past_the_counted_limit_the_numbers_are_estimates_and_the_weeks_are_counted_once_a_while(
        member, server, glance_url, monkeypatch):
    """A million-fact server is never counted whole: its facts in force and retracted read "about …" or "more
    than …", and its weeks come from the cache for WEEKS_CACHED_FOR (a fact written meanwhile waits for the next
    count); a small server's weeks are counted on every visit (the fixture's tests above)."""
    monkeypatch.setattr(glance, "COUNTED_UP_TO", 3)
    cache.clear()
    client = logged_in_client(member)
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get(glance_url).content.decode()))
    assert re.search(r"(about|more than) [\d,]+ in force", page) and "1 retracted" in page
    make_fact(server, key="late_news", content="Written after the weeks were counted.")
    counts = [int(count) for count in re.findall(r'data-count="(\d+)"', client.get(glance_url).content.decode())]
    assert len(counts) == 26 and counts[-1] == 9  # still the count of the first visit
    cache.clear()
    counts = [int(count) for count in re.findall(r'data-count="(\d+)"', client.get(glance_url).content.decode())]
    assert counts[-1] == 10


def test_past_the_counted_limit_the_estimate_is_worded_in_the_pages_language(member, glance_url, monkeypatch):
    monkeypatch.setattr(glance, "COUNTED_UP_TO", 3)
    cache.clear()
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", logged_in_client(member).get(
        glance_url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()))
    assert re.search(r"(ongeveer|meer dan) [\d.]+ geldig", page), page[:500]
    assert "about" not in page and "more than" not in page
