"""The audit log in a real browser: a table on a desktop, a card per entry on a phone, never wider than the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from teams.services import (
    audit_change,
    audit_change_said,
    audit_record,
    configure_grant,
    membership_add,
    server_create,
    team_create,
)
from tests.factories import UserFactory

from .conftest import screenshot
from .test_memory_page import GUILD, log_in

pytestmark = pytest.mark.browser
MEMBER = "200000000000000011"


@pytest.fixture
def logged(transactional_db):
    """A server whose log holds the long rows real use writes: many targets, long results, a long name."""
    team = team_create(name="Arcade staff")
    server = server_create(team=team, guild_id=GUILD, name="Retro Arcade")
    owner = UserFactory(username="owner")
    membership_add(team=team, user=owner)
    configure_grant(server=server, user=owner)
    audit_record(actor=owner, server=server, action="memory.wipe_member", target_ids=[int(MEMBER)], count=51,
                 result=f"39 facts about or from member {MEMBER} and 12 exchanges of theirs deleted, "
                        "3 consolidation proposals and drafts deleted, 2 earlier summary wordings deleted")
    audit_record(actor=owner, server=server, action="proposal.keep_both", target_ids=range(1, 40), count=2)
    audit_record(actor=None, server=server, action="summary.set", count=1, actor_label="bot")
    audit_record(actor=owner, server=server, action="ai_settings.update",
                 result="max_injected_items 20→25; read_channel_ids 111000000000000111,111000000000000222,"
                        "111000000000000333; include_threads off→on",
                 actor_label="community-manager-with-a-rather-long-name@retro-arcade.example")
    audit_record(actor=owner, server=server, action="ai_settings.update", count=3, changes=[
        audit_change("Maximum injected memory items", "20", "25"),
        audit_change("Read channels", "none", "111000000000000111, 111000000000000222, 111000000000000333"),
        audit_change("When a member asks to be forgotten", "File a request for staff to act on",
                     "Wipe the member's memory at once")])
    audit_record(actor=owner, server=server, action="fact.edit", target_ids=[12], count=1, fact_version=3,
                 changes=[audit_change_said("Wording", "changed"), audit_change("Confidence", "1", "0.8")])
    return server


def open_audit_log(page, live_server):
    page.goto(f"{live_server.url}/servers/{GUILD}/audit/")
    page.wait_for_selector("table.audit tbody tr")


def test_on_a_phone_every_entry_reads_top_to_bottom_without_scrolling_sideways(live_server, logged, page):
    page.set_viewport_size({"width": 390, "height": 900})
    log_in(page, live_server, "owner")
    open_audit_log(page, live_server)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # Not the page, and not the table inside a box of its own either: nothing in the log needs a sideways scroll.
    table_box = page.locator(".table-scroll")
    assert table_box.evaluate("box => box.scrollWidth <= box.clientWidth")
    cells = page.locator("table.audit tbody td")
    assert cells.evaluate_all("tds => tds.every(td => td.scrollWidth <= td.clientWidth + 1 "
                              "&& td.getBoundingClientRect().right <= 390)")
    # Each value keeps its label beside it; the header row is out of sight (left for screen readers).
    result = page.locator("table.audit tbody tr", has_text="memory.wipe_member").locator("td[data-label=Result]")
    assert result.is_visible()
    assert result.evaluate("td => getComputedStyle(td, '::before').content") == '"Result"'
    assert page.locator("table.audit thead").bounding_box()["width"] <= 1
    # A value that is empty leaves no dangling label.
    expect(page.locator("table.audit tbody tr", has_text="summary.set").locator("td[data-label=Result]")).to_be_hidden()
    # A fact's change links its version on the fact's page; the changes of a save read one per line.
    expect(page.locator("table.audit tbody tr", has_text="fact.edit").get_by_role("link", name="version 3")
           ).to_have_attribute("href", f"/servers/{GUILD}/facts/12/#version-3")
    expect(page.locator("ul.audit-changes li", has_text="Read channels: none →")).to_be_visible()
    screenshot(page, "audit-log-390")


def test_on_a_desktop_the_log_is_a_table_with_its_header(live_server, logged, page):
    log_in(page, live_server, "owner")
    open_audit_log(page, live_server)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    for header in ("When", "Who", "What", "Items", "Result"):
        expect(page.locator("table.audit thead th", has_text=header)).to_be_visible()
    row = page.locator("table.audit tbody tr", has_text="memory.wipe_member")
    expect(row.locator("td[data-label=What]")).to_have_text(f"memory.wipe_member member {MEMBER}")  # not #2000…
    assert row.evaluate("tr => getComputedStyle(tr).display") == "table-row"
    cells = row.locator("td")
    tops = {round(cells.nth(index).bounding_box()["y"]) for index in range(5)}
    assert len(tops) == 1  # the five values side by side on one line
    screenshot(page, "audit-log-1280")
