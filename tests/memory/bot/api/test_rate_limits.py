"""Per-token request limit (429 with Retry-After) and the per-member remember limit."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from memory.configuration.selectors import ai_settings_for_server
from memory.configuration.services import ai_settings_ensure
from memory.facts.services import FactAuthor
from memory.models import AISettings, Fact
from tests.conftest import logged_in_client
from tests.factories import make_fact
from tests.memory.panel.test_view_settings import settings_form

from .helpers import MESSAGE, message

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def same_minute():
    """The budget counts in fixed one-minute windows: start the test well inside one, so that all of its
    requests fall in the same window (a test that straddled a minute would see a fresh budget)."""
    if time.time() % 60 > 50:
        time.sleep(61 - time.time() % 60)


def test_past_the_per_minute_budget_a_token_gets_429_with_retry_after_and_nothing_happens(api, server, settings,
                                                                                          same_minute):
    settings.LOREKEEPER_API_REQUESTS_PER_MINUTE = 3
    for _ in range(3):
        assert api.post(f"/servers/{server.guild_id}/context", message()).status_code == 200
    refused = api.post(f"/servers/{server.guild_id}/context", message())
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "more than 3 requests this minute" in refused.json()["error"]
    assert server.exchanges.count() == 3


def test_a_token_past_its_budget_gets_429_before_the_guild_is_looked_at(api, server, settings, same_minute):
    """The budget counts every call of the token: an unknown guild is refused as over budget (429), not 404."""
    settings.LOREKEEPER_API_REQUESTS_PER_MINUTE = 1
    assert api.post("/servers/999999999999999999/context", message()).status_code == 404
    assert api.post("/servers/999999999999999999/context", message()).status_code == 429
    assert api.post(f"/servers/{server.guild_id}/context", message()).status_code == 429
    assert server.exchanges.count() == 0


def test_the_budget_is_per_token(api, server, settings, team, same_minute):
    from teams.services import bot_token_issue

    settings.LOREKEEPER_API_REQUESTS_PER_MINUTE = 1
    second = bot_token_issue(team=team, name="second")[1]
    assert api.post(f"/servers/{server.guild_id}/context", message()).status_code == 200
    assert api.as_token(second).post(f"/servers/{server.guild_id}/context", message()).status_code == 200
    assert api.post(f"/servers/{server.guild_id}/context", message()).status_code == 429


def test_a_cache_that_is_down_lets_requests_through(api, server, settings):
    settings.LOREKEEPER_API_REQUESTS_PER_MINUTE = 1
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:9/0"}}  # nothing listens on port 9
    from django.core.cache import caches

    caches._settings = None  # re-read CACHES
    try:
        caches.__init__()
        for _ in range(3):
            assert api.post(f"/servers/{server.guild_id}/context", message()).status_code == 200
    finally:
        caches.__init__()


def test_one_member_may_have_the_bot_remember_at_most_the_limit_per_hour(api, server):
    AISettings.objects.filter(pk=ai_settings_ensure(server=server).pk).update(remember_limit_per_hour=2)
    exchange = api.context(server)["exchange"]
    notes = [{"key": f"note_{index}", "content": f"Note number {index}."} for index in range(3)]
    results = api.actions(exchange, remember=notes)
    assert [result["status"] for result in results] == ["applied", "applied", "ignored"]
    assert "limit of 2 remembered facts per hour" in results[2]["detail"]
    assert Fact.objects.filter(server=server).count() == 2
    other_member = api.context(server, author_id="200000000000000077")["exchange"]
    assert api.actions(other_member, remember=[{"key": "note_9", "content": "Note number 9."}])[0]["status"] == \
        "applied"


def test_by_default_a_member_may_have_the_bot_remember_20_facts_an_hour(api, server):
    assert ai_settings_for_server(server).remember_limit_per_hour == 20
    exchange = api.context(server)["exchange"]
    results = api.actions(exchange, remember=[{"key": f"note_{index}", "content": f"Note number {index}."}
                                              for index in range(21)])
    assert [result["status"] for result in results] == ["applied"] * 20 + ["ignored"]
    assert "limit of 20 remembered facts per hour" in results[20]["detail"]
    assert Fact.objects.filter(server=server).count() == 20


@pytest.mark.parametrize(("minutes_ago", "status"), [(59, "ignored"), (61, "applied")])
def test_what_a_member_had_remembered_more_than_an_hour_ago_no_longer_counts(api, server, minutes_ago, status):
    AISettings.objects.filter(pk=ai_settings_ensure(server=server).pk).update(remember_limit_per_hour=2)
    for index in range(2):  # learned from the member the helpers' messages come from
        make_fact(server, key=f"old_{index}", author=FactAuthor.bot(MESSAGE["author_id"]),
                  created_at=timezone.now() - timedelta(minutes=minutes_ago))
    exchange = api.context(server)["exchange"]
    assert api.actions(exchange, remember=[{"key": "new", "content": "New."}])[0]["status"] == status


def test_staff_set_the_limit_on_the_ai_settings_page_and_the_bot_meets_it(api, server, owner):
    page = logged_in_client(owner)
    saved = page.post(reverse("memory:settings", args=[server.guild_id]), settings_form(remember_limit_per_hour="1"))
    assert saved.status_code == 302 and ai_settings_for_server(server).remember_limit_per_hour == 1
    refused = page.post(reverse("memory:settings", args=[server.guild_id]),
                        settings_form(remember_limit_per_hour="-1"))
    assert refused.status_code == 422 and ai_settings_for_server(server).remember_limit_per_hour == 1
    exchange = api.context(server)["exchange"]
    results = api.actions(exchange, remember=[{"key": "one", "content": "One."}, {"key": "two", "content": "Two."}])
    assert [result["status"] for result in results] == ["applied", "ignored"]
    assert "limit of 1 remembered facts per hour" in results[1]["detail"]
