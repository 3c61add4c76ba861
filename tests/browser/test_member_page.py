"""A member's page in a real browser (issue 25): from a member badge on the memory page to the member's facts, their
exchanges and, for a configure user, the wipe with its count (desktop and phone widths)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from memory.facts.services import FactAuthor
from memory.models import Exchange
from tests.factories import make_fact

from .conftest import screenshot
from .test_memory_page import GUILD, arcade, log_in  # noqa: F401 (arcade is a fixture)

pytestmark = pytest.mark.browser
NOVA = "200000000000000012"


@pytest.mark.parametrize("width", [1280, 390])
def test_from_a_member_badge_to_their_page_and_the_wipe(live_server, arcade, page, width):  # noqa: F811
    make_fact(arcade, key="nova_pronouns", content="Nova uses they/them.", scope="member", member_id=NOVA,
              author=FactAuthor.staff(get_user_model().objects.get(username="owner")))
    make_fact(arcade, key="nova_game", content="Nova's favourite game is Celeste, and they speedrun it on weekends.",
              scope="member", member_id=NOVA)
    Exchange.objects.create(server=arcade, channel_id="111", author_id=NOVA, author_name="Nova",
                            message="Which pronouns do I use?", memory_type="classic")
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "owner")
    page.goto(f"{live_server.url}/memory/?server={GUILD}")
    page.locator(f"a.badge-member:has-text('member {NOVA}')").first.click()
    expect(page.locator("h1")).to_contain_text(NOVA)
    expect(page.locator("#about-title")).to_contain_text("(2)")
    expect(page.locator(".exchange-message")).to_contain_text("Which pronouns do I use?")
    expect(page.locator("#wipe-title ~ p").first).to_contain_text("2 facts")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"member-page-{width}")
    page.click("a:has-text('Wipe this member')")
    expect(page.locator(".wipe-items")).to_contain_text("2 facts about them or learned from their messages")
    expect(page.locator("#id_confirmation")).to_be_visible()
