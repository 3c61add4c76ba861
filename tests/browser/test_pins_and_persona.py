"""Rules that always hold and the bot's persona, in a real browser: staff pin a fact on the memory page and set a
persona on the AI settings page, and the playground's system prompt holds both (the reply model is the local model
server; the prompt shown is the one it received); the memory page with pinned facts at 1280 and 390 px."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from memory.configuration.services import ai_settings_update, model_endpoint_set
from memory.facts.services import FactAuthor, fact_pin_set
from memory.models import Fact, ModelPurpose
from teams.models import AuditEntry
from tests.factories import make_fact
from tests.model_server import FakeModelServer, answer

from .conftest import ARTIFACTS, screenshot
from .test_memory_page import GUILD, arcade, log_in  # noqa: F401 (arcade is a fixture)

pytestmark = pytest.mark.browser
RULE = "Do not give support in public channels; open a ticket in #help."


@pytest.fixture
def model():
    server = FakeModelServer().start()
    yield server
    server.stop()


def fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def open_memory(page, live_server) -> None:
    page.goto(f"{live_server.url}/memory/?server={GUILD}")
    page.wait_for_selector("#fact-list")


def row(page, fact: Fact):
    return page.locator(f"#fact-{fact.server_id}-{fact.number}")


def test_staff_pin_a_fact_set_a_persona_and_see_both_in_the_playgrounds_system_prompt(live_server, arcade, model,
                                                                                        page):
    owner = get_user_model().objects.get(username="owner")
    model_endpoint_set(server=arcade, actor=owner, purpose=ModelPurpose.REPLY, base_url=model.base_url,
                       model_name="fake", api_key="sk-test-0123456789abcdef")
    rule = make_fact(arcade, key="no_public_support", content=RULE, kind="rule", author=FactAuthor.staff(owner))
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    row(page, rule).get_by_role("button", name="Pin", exact=True).click()
    expect(row(page, rule).locator(".badge-pinned")).to_have_text("Pinned")
    expect(page.locator("#pinned-facts")).to_contain_text(RULE)  # the block reloaded itself
    assert Fact.objects.get(pk=rule.pk).pinned

    page.goto(f"{live_server.url}/servers/{GUILD}/settings/")
    page.fill("#id_bot_name", "Pixel")
    page.fill("#id_bot_description", "A cheerful arcade cabinet who loves high scores.")
    page.fill("#id_style_sample", "Woo! Another quarter in the machine, friend!")
    page.click("button:has-text('Save settings')")
    expect(page.locator(".messages")).to_contain_text("AI settings saved.")

    model.script.append(answer("Please open a ticket in #help, friend!"))
    page.goto(f"{live_server.url}/servers/{GUILD}/playground/")
    page.fill("textarea[name=message]", "Can someone help me with my save file?")
    page.click("button:has-text('Send')")
    page.wait_for_selector("#playground-result .reply-text")
    prompt = page.inner_text("#playground-result .system-prompt")
    for text in ("Pixel", "A cheerful arcade cabinet who loves high scores.",
                 "Woo! Another quarter in the machine, friend!", RULE):
        assert text in prompt, text
    sent = [request for request in model.requests if request["path"].endswith("/chat/completions")][-1]
    assert prompt.strip() == sent["body"]["messages"][0]["content"].strip()
    assert AuditEntry.objects.filter(server=arcade, action="fact.pin").exists()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_memory_page_with_pinned_facts(live_server, arcade, page, width):
    owner = get_user_model().objects.get(username="owner")
    staff = FactAuthor.staff(owner)
    for key, content in (("no_public_support", RULE), ("speak_english", "This server speaks English in #general."),
                         ("no_spoilers", "No spoilers for games released this month, anywhere on the server.")):
        fact_pin_set(fact=make_fact(arcade, key=key, content=content, kind="rule", author=staff), pinned=True,
                     actor=owner)
    make_fact(arcade, key="raid_night", content="Raid night is on Thursday at 21:00.", kind="event")
    ai_settings_update(server=arcade, actor=owner, pinned_max_items=2)
    event = Fact.objects.get(server=arcade, key="raid_night")

    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    block = page.locator("#pinned-facts")
    expect(block.locator(".pinned-row")).to_have_count(3)
    expect(block.locator(".hint-warning")).to_contain_text("1 pinned fact does not fit the pinned caps")
    expect(block.locator(".pinned-row.is-cut")).to_have_count(1)
    expect(row(page, event).locator(".badge-kind")).to_have_text("Event")
    fits(page, width)
    screenshot(page, f"memory-pinned-{width}")
    block.screenshot(path=str(ARTIFACTS / f"memory-pinned-block-{width}.png"))  # the block alone, full size
    row(page, event).screenshot(path=str(ARTIFACTS / f"memory-pinned-row-{width}.png"))

    # Unpinning in the block redraws it (the fact past the caps now fits) and the list's row loses its marker.
    first = block.locator(".pinned-row").first
    first.get_by_role("button", name="Unpin").click()
    expect(block.locator(".pinned-row")).to_have_count(2)
    expect(block.locator(".hint-warning")).to_have_count(0)
    expect(page.locator("#fact-rows .badge-pinned")).to_have_count(2)
    fits(page, width)


@pytest.mark.parametrize("width", [1280, 390])
def test_the_current_types_tester_shows_pinned_speaker_and_budget_for_a_message_typed(live_server, arcade, page,
                                                                                     width):
    owner = get_user_model().objects.get(username="owner")
    fact_pin_set(fact=make_fact(arcade, key="no_public_support", content=RULE, kind="rule",
                                author=FactAuthor.staff(owner)), pinned=True, actor=owner)
    make_fact(arcade, key="long_story", content="A very long story about the arcade's history. " * 9)
    ai_settings_update(server=arcade, actor=owner, max_memory_chars=500)
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "viewer")
    open_memory(page, live_server)
    expect(page.locator("#memory-budget")).to_contain_text("A reply's memory block takes")  # loaded after the page
    page.click("button:has-text('Compare the six types')")
    card = page.locator("#type-classic")
    expect(card).to_contain_text("Today a reply's memory block takes")
    card.locator("a:has-text('Which facts')").click()
    tester = page.locator("#context-dry-run")
    tester.locator("input[name=member_id]").fill("200000000000000011")
    tester.locator("input[name=member_name]").fill("Paul")
    tester.locator("#context-message").press_sequentially("when is my birthday?", delay=20)
    preview = page.locator("#context-preview")
    expect(preview).to_contain_text("For “when is my birthday?”, from Paul (200000000000000011)")
    expect(preview.locator("section", has_text="Pinned, first (1)")).to_contain_text("no_public_support")
    expect(preview.locator("section", has_text="About the speaker")).to_contain_text("paul_birthday")
    expect(preview.locator("section.is-cut")).to_contain_text("long_story")
    fits(page, width)
    preview.screenshot(path=str(ARTIFACTS / f"context-dry-run-{width}.png"))
    screenshot(page, f"memory-types-context-{width}")
