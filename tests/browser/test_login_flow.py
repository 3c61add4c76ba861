"""A viewer logs in, sees Retro Arcade on the home page, and logs out (desktop and phone widths)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from .conftest import screenshot

pytestmark = pytest.mark.browser


@pytest.fixture
def demo(transactional_db, settings):
    settings.DEBUG = True
    call_command("load_demo", stdout=io.StringIO())
    settings.DEBUG = False


@pytest.mark.parametrize("width", [1280, 390])
def test_viewer_logs_in_sees_retro_arcade_and_logs_out(live_server, demo, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/")
    assert "/login/" in page.url
    page.fill("#id_username", "viewer")
    page.fill("#id_password", "viewer")
    page.click("button[type=submit]")

    page.wait_for_selector("h1:has-text('Your servers')")
    card = page.locator(".server-card", has_text="Retro Arcade")
    assert card.is_visible()
    assert card.locator(".badge").inner_text() == "view"
    assert page.locator(".server-card", has_text="Synth Lab").count() == 0
    assert page.evaluate("typeof window.htmx") == "object"  # served from static/, not a CDN
    # Nothing may overflow sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"home-{width}")

    page.click("text=Log out")
    page.wait_for_selector("h1:has-text('Log in')")
    page.goto(f"{live_server.url}/")
    assert "/login/" in page.url
