"""The panel in Dutch and Japanese in a real browser: the header's language choice, remembered with the
account; the main pages at 1280 and 390 px with no text clipped or running off the page."""

from __future__ import annotations

import pytest
from django.utils import translation
from playwright.sync_api import expect

from memory.models import AISettings
from tests.factories import TEST_PASSWORD

from .conftest import screenshot
from .test_memory_page import GUILD, arcade, log_in  # noqa: F401 (arcade is a fixture)

pytestmark = pytest.mark.browser

# Everything the page shows that is clipped, or that runs past the window's right edge outside a box that
# scrolls on purpose (the wide tables do, on a phone).
LAID_OUT_BADLY = """() => {
  const found = [];
  const width = window.innerWidth;
  if (document.documentElement.scrollWidth > width + 1) {
    found.push("the page is " + document.documentElement.scrollWidth + " px wide in a " + width + " px window");
  }
  const scrolls = (el) => {
    for (let up = el.parentElement; up; up = up.parentElement) {
      const x = getComputedStyle(up).overflowX;
      if (x === "auto" || x === "scroll") { return true; }
    }
    return false;
  };
  for (const el of document.querySelectorAll("body *")) {
    // Hidden, or kept for screen readers only (a 1 px clipped box, as .visually-hidden and the narrow scale do).
    if (!el.getClientRects().length || el.closest("[hidden], .visually-hidden")
        || el.getBoundingClientRect().width <= 1) { continue; }
    const style = getComputedStyle(el);
    const text = (el.innerText || "").trim().slice(0, 60);
    if ((style.overflowX === "hidden" || style.textOverflow === "ellipsis") && el.scrollWidth > el.clientWidth + 1
        && text) {
      found.push("clipped: <" + el.tagName.toLowerCase() + " class=" + el.className + "> " + text);
    }
    if (el.getBoundingClientRect().right > width + 1 && style.position !== "fixed" && !scrolls(el)) {
      found.push("past the right edge: <" + el.tagName.toLowerCase() + " class=" + el.className + "> " + text);
    }
  }
  return found;
}"""


def _in(language: str, text: str) -> str:
    with translation.override(language):
        return translation.gettext(text)


def choose_language(page, language: str):
    page.select_option("#language-choice", language)
    page.wait_for_selector(f"html[lang={language}]")


def test_the_language_chosen_in_the_header_is_the_panels_and_stays_with_the_account(live_server, arcade, page):
    log_in(page, live_server, "owner")
    choose_language(page, "nl")
    expect(page.locator("h1")).to_have_text(_in("nl", "Your servers"))
    assert _in("nl", "Your servers") != "Your servers"
    page.click(f"text={_in('nl', 'Log out')}")
    # Log in again (the browser still sends Accept-Language en-US): the panel is still Dutch.
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "owner")
    page.fill("#id_password", TEST_PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator("h1")).to_have_text(_in("nl", "Your servers"))
    choose_language(page, "ja")
    expect(page.locator("h1")).to_have_text(_in("ja", "Your servers"))
    expect(page.locator(".nav")).to_contain_text(_in("ja", "Memory"))


PAGES = {
    "memory": f"/memory/?server={GUILD}",
    "fact": f"/servers/{GUILD}/facts/1/",
    "types": "/docs/memory-types/",
    "settings": f"/servers/{GUILD}/settings/",
}


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("language", ["nl", "ja"])
def test_the_main_pages_in_dutch_and_japanese_fit_wide_and_on_a_phone(live_server, arcade, page, language, width):
    AISettings.objects.filter(server=arcade).update(bot_name="Pixel")
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "owner")
    choose_language(page, language)
    for name, path in PAGES.items():
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
        assert page.locator("html").get_attribute("lang") == language
        screenshot(page, f"language-{language}-{name}-{width}")
        assert page.evaluate(LAID_OUT_BADLY) == [], f"{name} in {language} at {width} px"
