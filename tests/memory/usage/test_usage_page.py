"""The usage page of a server: who may open it, and that its charts' numbers are the recorded usage — each day's
tokens per purpose, the calls with unknown usage, the budget's daily share — and this month against the budgets."""

from __future__ import annotations

import calendar
import html
from collections import defaultdict
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import timezone

from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.configuration.services import ai_settings_update
from memory.models import ModelCall, UsagePurpose
from memory.panel.usage_chart import DAYS
from tests.conftest import logged_in_client
from tests.factories import UserFactory, record_call

pytestmark = pytest.mark.django_db


class ChartReader(HTMLParser):
    """Every chart's days (their data-* attributes), budget lines and the totals table's rows."""

    def __init__(self):
        super().__init__()
        self.chart = ""
        self.days: dict[str, list[dict]] = defaultdict(list)
        self.budget_lines: dict[str, list[dict]] = defaultdict(list)
        self.totals: dict[str, dict] = {}

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "svg" and "usage-chart" in classes:
            self.chart = attributes["data-chart"]
        elif tag == "g" and "usage-day" in classes:
            self.days[self.chart].append(attributes)
        elif tag == "line" and "usage-budget" in classes:
            self.budget_lines[self.chart].append(attributes)
        elif tag == "tr" and any(name.startswith("usage-total-") for name in classes):
            self.totals[next(name for name in classes if name.startswith("usage-total-"))[12:]] = attributes


def read_page(client, server) -> ChartReader:
    response = client.get(reverse("memory:usage", args=[server.guild_id]))
    assert response.status_code == 200
    reader = ChartReader()
    reader.feed(response.content.decode())
    return reader


def call(server, purpose, tokens, days_ago: float = 0, completion: int | None = 0, **links) -> None:
    record_call(server, purpose, tokens, completion if tokens is not None else None,
                called_at=timezone.now() - timedelta(days=days_ago), **links)


def test_who_may_open_the_usage_page(client, server, owner, member, moderator, outsider):
    url = reverse("memory:usage", args=[server.guild_id])
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    assert logged_in_client(outsider).get(url).status_code == 404  # another team's member: no such server
    for user in (member, moderator, owner):  # viewer, moderator, configure
        assert logged_in_client(user).get(url).status_code == 200
    assert logged_in_client(UserFactory()).get(url).status_code == 404  # in no team at all


def test_the_charts_numbers_are_the_recorded_usage(server, owner, member):
    ai_settings_update(server=server, actor=owner, reply_token_budget=310_000, background_token_budget=62_000)
    call(server, UsagePurpose.REPLY, 800, completion=40)
    call(server, UsagePurpose.REPLY, 200, completion=None)  # a prompt count alone still counts
    call(server, UsagePurpose.REPLY, None)  # unknown
    call(server, UsagePurpose.REPLY, 5000, days_ago=12)
    call(server, UsagePurpose.CONSOLIDATION, 1200, days_ago=12, completion=300)
    call(server, UsagePurpose.LEARNING, 700, days_ago=12, completion=100)
    call(server, UsagePurpose.LEARNING, None, days_ago=30)
    call(server, UsagePurpose.EMBEDDING, 64, days_ago=3, completion=None)
    call(server, UsagePurpose.REPLY, 999_999, days_ago=DAYS + 1)  # before the chart's first day
    page = read_page(logged_in_client(member), server)

    today = timezone.now().astimezone(dt_timezone.utc).date()
    first = today - timedelta(days=DAYS - 1)
    expected: dict[tuple[str, str], int] = defaultdict(int)
    unknown: dict[str, int] = defaultdict(int)
    for row in ModelCall.objects.filter(server=server):
        day = row.called_at.astimezone(dt_timezone.utc).date()
        if day >= first:
            expected[(day.isoformat(), row.purpose)] += row.tokens
            unknown[day.isoformat()] += not row.known
    charts = {"reply": ["reply"], "background": ["consolidation", "learning"], "embedding": ["embedding"]}
    for chart, purposes in charts.items():
        days = page.days[chart]
        assert [day["data-day"] for day in days] == [(first + timedelta(days=n)).isoformat() for n in range(DAYS)]
        for day in days:
            for purpose in purposes:
                assert int(day[f"data-{purpose}"]) == expected[(day["data-day"], purpose)], (chart, day)
        assert sum(int(day["data-unknown"]) for day in days) == sum(
            unknown_count for (day_, purpose), unknown_count in _unknown_by(server, first).items()
            if purpose in purposes)
    assert int(page.days["reply"][-1]["data-reply"]) == 1040
    assert int(page.days["background"][-13]["data-consolidation"]) == 1500
    # The budget's daily share, per month shown: the monthly budget over that month's days.
    for chart, budget in (("reply", 310_000), ("background", 62_000)):
        for line in page.budget_lines[chart]:
            month = datetime.strptime(line["data-month"], "%B %Y")
            assert int(line["data-daily"]) == round(budget / calendar.monthrange(month.year, month.month)[1])
        assert {line["data-month"] for line in page.budget_lines[chart]} == {
            f"{first + timedelta(days=n):%B %Y}" for n in range(DAYS)}
    assert not page.budget_lines["embedding"]
    # This month against the budgets: what is recorded since the 1st (UTC), unknown calls counted apart.
    month_start = today.replace(day=1)
    this_month = [row for row in ModelCall.objects.filter(server=server)
                  if row.called_at.astimezone(dt_timezone.utc).date() >= month_start]
    reply_used = sum(row.tokens for row in this_month if row.purpose == "reply")
    assert int(page.totals["reply"]["data-used"]) == reply_used
    assert int(page.totals["reply"]["data-unknown"]) == sum(
        1 for row in this_month if row.purpose == "reply" and not row.known)
    assert page.totals["reply"]["data-budget"] == "310000"
    assert int(page.totals["background"]["data-used"]) == sum(
        row.tokens for row in this_month if row.purpose in ("consolidation", "learning"))


def _unknown_by(server, first) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for row in ModelCall.objects.filter(server=server, prompt_tokens__isnull=True, completion_tokens__isnull=True):
        day = row.called_at.astimezone(dt_timezone.utc).date()
        if day >= first:
            counts[(day.isoformat(), row.purpose)] += 1
    return counts


def test_over_budget_the_page_says_what_waits(server, owner, member):
    ai_settings_update(server=server, actor=owner, reply_token_budget=100, background_token_budget=100)
    call(server, UsagePurpose.REPLY, 100)
    call(server, UsagePurpose.LEARNING, 150)
    page = html.unescape(logged_in_client(member).get(reverse("memory:usage", args=[server.guild_id])).content.decode())
    assert "The reply model's monthly budget of 100 tokens is used up" in page
    assert "the API's reply answers 429" in page
    assert "consolidation rounds run by rules only and learning waits" in page
    assert "costs nothing and records nothing" in page  # the built-in local embedder


def test_another_servers_usage_is_not_counted(server, other_server, member):
    call(other_server, UsagePurpose.REPLY, 777)
    page = read_page(logged_in_client(member), server)
    assert all(int(day["data-reply"]) == 0 for day in page.days["reply"])


def test_the_exchange_page_shows_each_calls_usage(server, member):
    exchange = exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id="222",
                                                                    author_name="Paul", content="hi")).exchange
    call(server, UsagePurpose.REPLY, 812, completion=17, exchange=exchange)
    call(server, UsagePurpose.REPLY, None, exchange=exchange)
    page = logged_in_client(member).get(reverse("memory:exchange", args=[server.guild_id, exchange.pk]))
    text = page.content.decode()
    assert 'data-prompt="812" data-completion="17"' in text
    assert 'data-prompt="" data-completion=""' in text and "unknown" in text
    assert "cost nothing: they are not recorded" in text
