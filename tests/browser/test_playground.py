"""Playground round trip in a browser against the local fake model server."""

from __future__ import annotations

import re

import pytest

from memory.configuration.services import model_endpoint_set
from memory.models import ModelPurpose
from teams.services import configure_grant, membership_add, server_create, team_create
from tests.factories import TEST_PASSWORD, UserFactory, make_fact
from tests.model_server import FakeModelServer, answer

from .conftest import screenshot

pytestmark = pytest.mark.browser
GUILD = "100000000000000001"


@pytest.fixture
def model():
    server = FakeModelServer().start()
    yield server
    server.stop()


@pytest.fixture
def arcade(transactional_db, model):
    team = team_create(name="Arcade staff")
    server = server_create(team=team, guild_id=GUILD, name="Retro Arcade")
    owner = UserFactory(username="owner")
    membership_add(team=team, user=owner)
    configure_grant(server=server, user=owner)
    make_fact(server, key="tournament_day", content="Tournaments are every Saturday at 20:00 CET.")
    model_endpoint_set(server=server, actor=owner, purpose=ModelPurpose.REPLY, base_url=model.base_url,
                       model_name="fake", api_key="sk-test-0123456789abcdef")
    return server


@pytest.mark.parametrize("width", [1280, 390])
def test_playground_shows_the_reply_and_the_system_prompt_with_the_memory_block(live_server, arcade, model, page,
                                                                                width):
    model.script.append(answer("Saturday at 20:00 CET — bring snacks!"))
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "owner")
    page.fill("#id_password", TEST_PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Your servers')")
    page.goto(f"{live_server.url}/servers/{GUILD}/playground/")
    page.fill("textarea[name=message]", "When is the tournament?")
    page.click("button:has-text('Send')")
    page.wait_for_selector("#playground-result .reply-text")
    assert "bring snacks" in page.inner_text("#playground-result .reply-text")
    prompt = page.inner_text(".system-prompt")  # the whole system prompt, the memory block in it
    assert prompt.startswith("You are the community bot of the Discord server “Retro Arcade”.")
    assert re.search(r"\[#1\] \(\d{4}-\d{2}-\d{2}\) tournament_day: Tournaments are every Saturday at 20:00 CET\.",
                     prompt)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"playground-{width}")
