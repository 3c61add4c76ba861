"""The memory page's search in a real browser: a member's name typed into the box brings up their facts, wide and
on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from memory.configuration.directory import SeenMember, members_seen
from memory.facts.services import FactAuthor
from teams.services import membership_add, server_create, team_create
from tests.factories import UserFactory, make_fact

from .conftest import screenshot
from .test_memory_page import log_in, open_memory

pytestmark = pytest.mark.browser
GUILD = "100000000000000001"
PAUL, SOMEONE = "222000000000000222", "444000000000000444"


@pytest.fixture
def arcade(transactional_db):
    team = team_create(name="Arcade staff")
    server = server_create(team=team, guild_id=GUILD, name="Retro Arcade")
    membership_add(team=team, user=UserFactory(username="viewer"))
    members_seen(server=server, members=[SeenMember(PAUL, "Paul")])
    make_fact(server, key="tournament_day", content="Tournaments are every Saturday at 20:00 CET.",
              author=FactAuthor.bot(SOMEONE))
    make_fact(server, key="pet", content="Has a cat called Miso, who sits on the arcade cabinets.", scope="member",
              member_id=PAUL, author=FactAuthor.bot(SOMEONE))
    make_fact(server, key="raid_day", content="Raids are on Thursdays.", author=FactAuthor.bot(PAUL))
    return server


@pytest.mark.parametrize("width", [1280, 390])
def test_typing_a_member_s_name_shows_the_facts_about_them_wide_and_on_a_phone(live_server, arcade, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "viewer")
    open_memory(page, live_server)
    expect(page.locator(".member-facts")).to_have_count(0)
    page.locator("#id_q").press_sequentially("pau", delay=40)
    block = page.locator("#fact-list .member-facts")
    expect(block.locator("h2")).to_have_text(f"Facts about Paul ({PAUL})")
    expect(block.locator(".fact-key")).to_have_text(["raid_day", "pet"])  # newest first: taught by Paul, about him
    expect(page.locator("#fact-rows .fact")).to_have_count(0)  # the list below is still the words typed: none
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert block.bounding_box()["width"] <= width
    screenshot(page, f"memory-search-member-{width}")
    page.fill("#id_q", "")
    page.locator("#id_q").dispatch_event("input")
    expect(page.locator(".member-facts")).to_have_count(0)
    expect(page.locator("#fact-rows .fact")).to_have_count(3)
