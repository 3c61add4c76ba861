"""Everyday polish of the memory page in a real browser (issue 25): an edit's text box fits its text and Esc leaves
it, each change says what happened (with Undo where it can be undone), Add a fact lays out at both widths."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from django.contrib.auth import get_user_model

from memory.configuration.services import memory_type_set
from memory.models import AISettings, Fact
from tests.factories import make_fact

from .conftest import ARTIFACTS, screenshot
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


def test_each_change_says_what_happened_and_undo_puts_it_back(live_server, arcade, page):
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    status = page.locator("#page-messages[role=status]")
    theme = Fact.objects.get(server=arcade, key="server_theme")

    row = page.locator("#fact-rows .fact", has_text="server_theme")
    row.locator("button:has-text('Staff only')").click()
    expect(status).to_contain_text(f"Fact #{theme.number} is now for staff only")
    assert Fact.objects.get(pk=theme.pk).audience == "staff"
    screenshot(page, "memory-notice-audience-1280")
    status.locator("button:has-text('Undo')").click()
    expect(status).to_contain_text(f"Fact #{theme.number} is now seen by the whole server")
    expect(row.locator("button[value=server]")).to_have_attribute("aria-pressed", "true")
    assert Fact.objects.get(pk=theme.pk).audience == "server"

    page.click("button:has-text('Compare the six types')")
    page.click("#type-ledger button:has-text('Choose Ledger')")
    expect(status).to_contain_text("Memory type is now Ledger.")
    expect(page.locator(".scale-step.is-current")).to_contain_text("Ledger")
    status.locator("button:has-text('Undo')").click()
    expect(status).to_contain_text("Memory type is now Classic.")
    expect(page.locator(".scale-step.is-current")).to_contain_text("Classic")
    assert AISettings.objects.get(server=arcade).memory_type == "classic"

    day = Fact.objects.get(server=arcade, key="tournament_day")
    page.locator("#fact-rows .fact", has_text="tournament_day").locator("button:has-text('Delete')").click()
    expect(page.locator("#fact-rows .fact.is-confirming")).to_contain_text("cannot be undone")
    page.locator("#fact-rows .fact.is-confirming button:has-text('Delete')").click()
    expect(status).to_contain_text(f"Fact #{day.number} deleted for good.")
    expect(status.locator("button:has-text('Undo')")).to_have_count(0)  # a delete is for good: no Undo offered
    expect(page.locator("#fact-rows .fact", has_text="tournament_day")).to_have_count(0)
    assert not Fact.objects.filter(pk=day.pk).exists()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_retract_is_undone_from_its_notice_at_both_widths(live_server, arcade, page, width):
    memory_type_set(server=arcade, actor=get_user_model().objects.get(username="owner"), memory_type="ledger")
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    status = page.locator("#page-messages[role=status]")
    day = Fact.objects.get(server=arcade, key="tournament_day")
    page.locator("#fact-rows .fact", has_text="tournament_day").locator("button:has-text('Retract')").click()
    page.fill("#fact-rows .fact.is-confirming input[name=reason]", "Moved to Sundays")
    page.locator("#fact-rows .fact.is-confirming button:has-text('Retract')").click()
    expect(status).to_contain_text(f"Fact #{day.number} retracted")
    expect(page.locator("#fact-rows .fact", has_text="tournament_day")).to_have_count(0)  # gone from in force
    page.mouse.wheel(0, 2000)  # the notice stays in view while the page scrolls
    expect(status).to_be_in_viewport()
    screenshot(page, f"memory-notice-retract-{width}")
    status.locator("button:has-text('Undo')").click()
    expect(status).to_contain_text(f"Fact #{day.number} restored")
    expect(page.locator("#fact-rows .fact", has_text="tournament_day")).to_have_count(1)  # back in the list
    assert Fact.objects.get(pk=day.pk).retracted_at is None


def near(a: float, b: float, within: float = 2) -> bool:
    return abs(a - b) <= within


@pytest.mark.parametrize("width", [1280, 390])
def test_add_a_fact_is_a_tidy_grid_on_a_desktop_and_one_column_on_a_phone(live_server, arcade, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    page.click("summary:has-text('Add a fact')")
    form = page.locator("#fact-create")
    expect(form.locator("input[name=member_id]")).to_be_disabled()  # a server fact has no member (app.js)
    outer = form.bounding_box()
    key, confidence, importance, kind, content = (form.locator(selector).bounding_box() for selector in (
        "input[name=key]", "input[name=confidence]", "input[name=importance]", "select[name=kind]",
        "textarea[name=content]"))
    about, audience = (form.locator("fieldset.scope").nth(index).bounding_box() for index in (0, 1))
    labels = [form.locator("label", has=page.locator(f"input[name={name}]")).bounding_box()
              for name in ("key", "confidence", "importance")]
    for box in (key, confidence, importance, kind, content, about, audience):  # nothing sticks out of the form
        assert box["x"] >= outer["x"] - 1 and box["x"] + box["width"] <= outer["x"] + outer["width"] + 1
    assert outer["x"] + outer["width"] <= width
    if width == 1280:
        # Key, confidence and importance side by side, their labels on one line above them.
        assert near(key["y"], confidence["y"]) and near(key["y"], importance["y"])
        assert near(labels[0]["y"], labels[1]["y"]) and near(labels[0]["y"], labels[2]["y"])
        assert key["x"] < confidence["x"] < importance["x"] and near(confidence["width"], importance["width"])
        assert key["width"] > 2 * confidence["width"]
        assert near(about["y"], audience["y"]) and about["x"] < audience["x"]  # the two choices side by side
        assert content["width"] > 0.9 * outer["width"]
    else:
        # One column: every field starts at the same left edge and takes the width, one under the other.
        for box in (confidence, importance, content):
            assert near(box["x"], key["x"]) and near(box["width"], key["width"])
        assert key["y"] < confidence["y"] < importance["y"] < kind["y"] < content["y"] < about["y"] < audience["y"]
    form.screenshot(path=str(ARTIFACTS / f"memory-add-fact-{width}.png"))
