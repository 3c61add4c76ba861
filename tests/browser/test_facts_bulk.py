"""Many facts at once in a real browser (issue 25): tick rows (or all on the page), choose what to do, see what
happened; a delete asks first with the count (desktop and phone widths)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from django.contrib.auth.models import User

from memory.configuration.services import memory_type_set
from memory.models import Fact, MemoryType
from tests.factories import make_fact

from .conftest import screenshot
from .test_memory_page import GUILD, arcade, log_in  # noqa: F401 (arcade is a fixture)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", [1280, 390])
def test_select_rows_set_their_kind_then_delete_all_on_the_page(live_server, arcade, page, width):  # noqa: F811
    for n in range(4):
        make_fact(arcade, key=f"house_rule_{n}", content=f"House rule {n}: be kind in voice chat.")
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "owner")
    page.goto(f"{live_server.url}/memory/?server={GUILD}")
    rows = page.locator("input.bulk-select")
    rows.nth(0).check()
    rows.nth(1).check()
    page.select_option("#id_bulk_action", "kind")
    page.select_option("#bulk-form select[name=kind]", "rule")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"bulk-bar-{width}")
    page.click("#bulk-form button:has-text('Apply to the selected')")
    expect(page.locator(".message-success")).to_have_text("2 facts given the kind.")
    assert Fact.objects.filter(server=arcade, kind="rule").count() == 2

    total = Fact.objects.filter(server=arcade).count()
    page.check("#bulk-form input[name=all_on_page]")
    expect(page.locator("input.bulk-select:checked")).to_have_count(total)
    page.select_option("#id_bulk_action", "delete")
    page.click("#bulk-form button:has-text('Apply to the selected')")
    expect(page.locator("h1")).to_contain_text(f"Delete {total} facts of Retro Arcade?")
    page.click(f"button:has-text('Delete {total} facts')")
    expect(page.locator(".message-success")).to_have_text(f"{total} facts deleted.")
    assert not Fact.objects.filter(server=arcade).exists()


def test_a_bulk_retract_of_25_facts_then_restore_all(live_server, arcade, page):  # noqa: F811
    """After a rule change staff retract 25 old rules at once (with one reason), then change their mind."""
    memory_type_set(server=arcade, actor=User.objects.get(username="owner"), memory_type=MemoryType.LEDGER)
    for n in range(25):
        make_fact(arcade, key=f"old_rule_{n}", content=f"Old rule {n}: spoilers only in the spoiler channel.")
    log_in(page, live_server, "owner")
    page.goto(f"{live_server.url}/memory/?server={GUILD}")
    old_rules = page.locator("#fact-rows li", has=page.locator("code.fact-key", has_text="old_rule_"))
    expect(old_rules).to_have_count(25)
    for row in range(25):
        old_rules.nth(row).locator("input.bulk-select").check()
    page.select_option("#id_bulk_action", "retract")
    page.fill("#bulk-form input[name=reason]", "The rules changed on 1 December.")
    page.click("#bulk-form button:has-text('Apply to the selected')")
    expect(page.locator(".message-success")).to_contain_text("25")
    retracted = Fact.objects.filter(server=arcade, retracted_at__isnull=False)
    assert retracted.count() == 25 and set(retracted.values_list("retraction_reason", flat=True)) == {
        "The rules changed on 1 December."}
    assert Fact.objects.filter(server=arcade, retracted_at__isnull=True).count() == 3

    page.goto(f"{live_server.url}/memory/?server={GUILD}&state=retracted")
    page.click("text=Restore all retracted facts…")
    expect(page.locator("h1")).to_have_text("Restore all retracted facts?")
    page.click("button:has-text('Restore 25 facts')")
    expect(page.locator("#page-messages")).to_contain_text("Restored 25 retracted facts.")
    screenshot(page, "bulk-retract-25-restored")
    assert not Fact.objects.filter(server=arcade, retracted_at__isnull=False).exists()
    assert Fact.objects.filter(server=arcade).count() == 28
