"""The wipe page in a real browser: nothing chosen beforehand, what would go shown before the confirmation, an id with
nothing stored told so, and the audit log naming the member as a member (desktop and phone widths)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from django.contrib.auth import get_user_model

from memory.facts.services import FactAuthor
from memory.models import Exchange, Fact
from tests.factories import make_fact

from .conftest import screenshot
from .test_memory_page import GUILD, arcade, log_in  # noqa: F401 (arcade is a fixture)

pytestmark = pytest.mark.browser
NOVA, NOBODY = "200000000000000012", "200000000000000099"


def open_wipe(page, live_server):
    page.goto(f"{live_server.url}/servers/{GUILD}/wipe")
    page.wait_for_selector("h1:has-text('Wipe memory of Retro Arcade')")


@pytest.mark.parametrize("width", [1280, 390])
def test_a_member_wipe_shows_what_goes_before_the_confirmation(live_server, arcade, page, width):  # noqa: F811
    make_fact(arcade, key="nova_pronouns", content="Nova uses they/them.", scope="member", member_id=NOVA,
              author=FactAuthor.staff(get_user_model().objects.get(username="owner")))
    Exchange.objects.create(server=arcade, channel_id="111", author_id=NOVA, message="Which pronouns do I use?",
                            memory_type="classic")
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "owner")
    open_wipe(page, live_server)
    expect(page.locator("input[name=target]:checked")).to_have_count(0)
    expect(page.locator("label", has_text="Everything about this server")).to_contain_text("4 facts")
    assert page.locator("#id_confirmation").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"wipe-choice-{width}")

    page.check("input[name=target][value=member]")
    page.fill("#id_member_id", NOBODY)
    page.click("button:has-text('Continue')")
    expect(page.locator("#id_member_id_errors")).to_contain_text(f"Nothing is stored about member {NOBODY}")
    expect(page.locator("input[name=target][value=member]")).to_be_checked()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"wipe-unknown-member-{width}")

    page.fill("#id_member_id", NOVA)
    page.click("button:has-text('Continue')")
    items = page.locator(".wipe-items")
    expect(items).to_contain_text("1 fact about them or learned from their messages")
    expect(items).to_contain_text("1 exchange of theirs")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"wipe-confirm-member-{width}")

    page.fill("#id_confirmation", NOVA)
    page.click("button:has-text('Wipe now')")
    expect(page.locator(".message-success")).to_have_text(
        f"Wiped 1 fact about or from member {NOVA} and 1 exchange of theirs.")
    assert not Fact.objects.filter(server=arcade, member_id=NOVA).exists()

    page.goto(f"{live_server.url}/servers/{GUILD}/audit/")
    row = page.locator("table.audit tbody tr", has_text="memory.wipe_member")
    expect(row.locator("td[data-label=What]")).to_have_text(f"memory.wipe_member member {NOVA}")


def test_the_server_wipe_is_confirmed_after_its_count(live_server, arcade, page):  # noqa: F811
    log_in(page, live_server, "owner")
    open_wipe(page, live_server)
    page.check("input[name=target][value=server]")
    page.click("button:has-text('Continue')")
    expect(page.locator(".wipe-items")).to_contain_text("3 facts (retracted ones too)")
    expect(page.locator(".wipe-items")).to_contain_text("0 exchanges")
    screenshot(page, "wipe-confirm-server-1280")
    page.fill("#id_confirmation", "Retro Arcade")
    page.click("button:has-text('Wipe now')")
    expect(page.locator(".message-success")).to_have_text("Wiped 3 facts, the summary and 0 exchanges of Retro Arcade.")
    assert not Fact.objects.filter(server=arcade).exists()
