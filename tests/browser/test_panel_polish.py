"""Everyday polish of the memory page in a real browser (issue 25): an edit's text box fits its text and Esc leaves
it, each change says what happened (with Undo where it can be undone), Add a fact lays out at both widths."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from memory.models import Fact
from tests.factories import make_fact

from .conftest import screenshot
from .test_memory_page import arcade, log_in, open_memory  # noqa: F401 (arcade is a fixture)

pytestmark = pytest.mark.browser
RULES = ("Tournaments are every Saturday at 20:00 CET. Sign up in #tournaments before 19:00; late entries wait "
         "for the next round. Bring your own controller if you want one you know. ") * 3


def test_an_edit_fits_its_text_counts_it_at_once_and_esc_leaves_it(live_server, arcade, page):
    fact = make_fact(arcade, key="tournament_rules", content=RULES.strip())
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    short_row = page.locator("#fact-rows .fact", has_text="server_theme")
    short_row.locator("button:has-text('Edit')").click()
    short_box = page.locator("#fact-rows .fact.is-editing textarea[name=content]")
    expect(short_box).to_have_attribute("rows", "2")
    short_height = short_box.bounding_box()["height"]
    page.keyboard.press("Escape")
    expect(page.locator("#fact-rows .fact.is-editing")).to_have_count(0)

    row = page.locator("#fact-rows .fact", has_text="tournament_rules")
    row.locator("button:has-text('Edit')").click()
    editing = page.locator("#fact-rows .fact.is-editing")
    box = editing.locator("textarea[name=content]")
    length = len(fact.content)
    # The hint is there before any key is pressed, with the limit written as people read it.
    expect(editing.locator(".content-hint")).to_contain_text(f"{length} / 1,000 characters")
    expect(box).not_to_have_attribute("rows", "2")
    rows_at_first = int(box.get_attribute("rows"))
    assert box.bounding_box()["height"] > short_height * 1.5  # the whole text is in view, not two lines of it
    screenshot(page, "memory-edit-long-fact-1280")

    box.press("End")
    box.press_sequentially(" One more line." * 12, delay=5)
    expect(editing.locator(".content-hint")).to_contain_text(f"{length + 15 * 12} / 1,000 characters")
    assert int(box.get_attribute("rows")) > rows_at_first  # it grew while typing

    page.keyboard.press("Escape")
    expect(page.locator("#fact-rows .fact.is-editing")).to_have_count(0)
    row = page.locator("#fact-rows .fact", has_text="tournament_rules")
    expect(row.locator(".fact-content")).to_have_text(fact.content)  # unchanged on the page
    expect(row.locator("button:has-text('Edit')")).to_be_focused()
    fact.refresh_from_db()
    assert (fact.content, fact.version) == (RULES.strip(), 1)  # and in the database
