"""The usage page in a real browser at desktop and phone widths: ninety days of recorded usage drawn as one chart per
budget, each day's numbers the recorded ones, the budget's daily share drawn, nothing wider than the screen."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.utils import timezone

from memory.configuration.services import ai_settings_update
from memory.models import ModelCall
from memory.usage.recording import CallUsage, model_calls_record
from teams.services import membership_add, server_create, team_create
from tests.factories import UserFactory

from .conftest import screenshot
from .test_memory_page import log_in

pytestmark = pytest.mark.browser
GUILD = "100000000000000001"


@pytest.fixture
def ninety_days(transactional_db):
    """A server with a reply budget of 300,000 and a background budget of 90,000 tokens a month, and ninety days of
    calls: replies every day (more at weekends), a consolidation round every few days, learning on most days, a
    few embedding calls and some calls whose endpoint reported nothing."""
    team = team_create(name="Arcade staff")
    viewer = UserFactory(username="viewer")
    owner = UserFactory(username="owner")
    membership_add(team=team, user=viewer)
    membership_add(team=team, user=owner)
    server = server_create(team=team, guild_id=GUILD, name="Retro Arcade")
    ai_settings_update(server=server, actor=owner, reply_token_budget=300_000, background_token_budget=90_000)
    chance = random.Random(24)
    today = timezone.now().astimezone(dt_timezone.utc).replace(hour=12, minute=0, second=0, microsecond=0)
    calls: dict[str, list[CallUsage]] = defaultdict(list)
    for days_ago in range(90):
        moment = today - timedelta(days=days_ago)
        replies = chance.randint(4, 12) + (8 if moment.weekday() >= 5 else 0)
        calls["reply"] += [CallUsage("gpt-4o-mini", chance.randint(600, 1100), chance.randint(20, 120), moment)
                           for _ in range(replies)]
        if days_ago % 9 == 0:
            calls["reply"].append(CallUsage("gpt-4o-mini", None, None, moment))  # unknown usage
        if days_ago % 4 == 0:
            calls["consolidation"] += [CallUsage("llama3", chance.randint(150, 300), 30, moment)
                                       for _ in range(chance.randint(5, 21))]
        if days_ago % 3:
            calls["learning"].append(CallUsage("llama3", chance.randint(1200, 2400), chance.randint(100, 300), moment))
        if days_ago % 7 == 2:
            calls["embedding"].append(CallUsage("text-embedding-3-small", chance.randint(200, 900), None, moment))
    for purpose, usages in calls.items():
        model_calls_record(server_id=server.pk, purpose=purpose, calls=usages)
    return server


def recorded_by_day(server) -> dict[tuple[str, str], int]:
    totals: dict[tuple[str, str], int] = defaultdict(int)
    for call in ModelCall.objects.filter(server=server):
        totals[(call.called_at.astimezone(dt_timezone.utc).date().isoformat(), call.purpose)] += call.tokens
    return totals


CHART_DATA = """() => [...document.querySelectorAll('svg.usage-chart')].map(svg => ({
    chart: svg.dataset.chart,
    days: [...svg.querySelectorAll('g.usage-day')].map(g => ({...g.dataset})),
    bars: [...svg.querySelectorAll('rect.usage-bar')].filter(r => r.getBoundingClientRect().height > 0).length,
    budget: [...svg.querySelectorAll('line.usage-budget')].map(l => l.getBoundingClientRect().width),
    width: svg.getBoundingClientRect().width,
}))"""


@pytest.mark.parametrize("width", [1280, 390])
def test_ninety_days_of_usage_drawn_as_recorded(live_server, ninety_days, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "viewer")
    page.goto(f"{live_server.url}/servers/{GUILD}/usage/")
    page.wait_for_selector("svg.usage-chart")
    charts = {chart["chart"]: chart for chart in page.evaluate(CHART_DATA)}
    assert set(charts) == {"reply", "background", "embedding"}
    recorded = recorded_by_day(ninety_days)
    for name, purposes in (("reply", ["reply"]), ("background", ["consolidation", "learning"]),
                           ("embedding", ["embedding"])):
        chart = charts[name]
        assert len(chart["days"]) == 90
        for day in chart["days"]:
            for purpose in purposes:
                assert int(day[purpose]) == recorded.get((day["day"], purpose), 0), (name, day)
        assert chart["bars"] > 0  # drawn, at this width too
        assert chart["width"] <= width
    assert all(line > 0 for line in charts["reply"]["budget"]) and len(charts["reply"]["budget"]) >= 3
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing wider than the screen
    # A day's numbers on hover: its title.
    title = page.locator("svg[data-chart=reply] g.usage-day").last.locator("title").text_content()
    assert title.startswith(datetime.now(dt_timezone.utc).date().isoformat()) and "reply" in title
    screenshot(page, f"usage-page-{width}")
