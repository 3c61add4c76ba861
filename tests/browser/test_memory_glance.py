"""Memory at a glance in a real browser (issue 25): the strip loads after the memory page, its chart fits a phone's
width, and a number leads to its list (desktop and phone widths)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.factories import make_facts_in_bulk

from .conftest import screenshot
from .test_memory_page import GUILD, arcade, log_in  # noqa: F401 (arcade is a fixture)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", [1280, 390])
def test_the_strip_loads_fits_and_links_to_the_retracted_list(live_server, arcade, page, width):  # noqa: F811
    now = timezone.now()
    for weeks_ago, count in ((0, 6), (3, 2), (9, 4), (20, 1)):
        make_facts_in_bulk(arcade, count, newest=now - timedelta(weeks=weeks_ago, hours=1), step=timedelta(hours=2))
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "viewer")
    page.goto(f"{live_server.url}/memory/?server={GUILD}")
    strip = page.locator("#memory-glance")
    expect(strip.locator("#glance-title")).to_have_text("Memory at a glance")
    expect(strip.locator("rect.glance-bar")).to_have_count(26)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = strip.locator("svg").bounding_box()
    assert box["width"] <= width and box["height"] > 50
    screenshot(page, f"memory-glance-{width}")
    strip.screenshot(path=str(screenshot(page, f"memory-glance-{width}").with_name(f"memory-glance-strip-{width}.png")))
    strip.locator("a", has_text="in force").click()
    expect(page).to_have_url(f"{live_server.url}/memory/?server={GUILD}&state=in_force")
