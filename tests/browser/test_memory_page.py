"""The memory page in a real browser: search as you type, curate facts, tabs and restore, the scale."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from memory.facts.services import fact_retract
from memory.models import AISettings, Fact
from teams.services import configure_grant, membership_add, server_create, team_create
from tests.factories import TEST_PASSWORD, UserFactory, make_fact

from .conftest import screenshot

pytestmark = pytest.mark.browser
GUILD = "100000000000000001"


@pytest.fixture
def arcade(transactional_db):
    team = team_create(name="Arcade staff")
    server = server_create(team=team, guild_id=GUILD, name="Retro Arcade")
    owner, viewer = UserFactory(username="owner"), UserFactory(username="viewer")
    membership_add(team=team, user=owner)
    membership_add(team=team, user=viewer)
    configure_grant(server=server, user=owner)
    make_fact(server, key="tournament_day", content="Tournaments are every Saturday at 20:00 CET.")
    make_fact(server, key="server_theme", content="Retro Arcade is about retro gaming and arcade cabinets.")
    make_fact(server, key="paul_birthday", content="Paul's birthday is on 3 May.", scope="member",
              member_id="200000000000000011")
    return server


def log_in(page, live_server, username):
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", TEST_PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Your servers')")


def open_memory(page, live_server):
    page.goto(f"{live_server.url}/memory/?server={GUILD}")
    page.wait_for_selector("#fact-list")


def visible_keys(page) -> list[str]:
    return page.locator("#fact-rows .fact-key").all_inner_texts()


def test_search_narrows_the_list_as_you_type(live_server, arcade, page):
    log_in(page, live_server, "viewer")
    open_memory(page, live_server)
    assert len(visible_keys(page)) == 3
    page.locator("#id_q").press_sequentially("tourn", delay=40)
    expect(page.locator("#fact-rows .fact")).to_have_count(1)  # locators, not eval: the CSP forbids it
    assert visible_keys(page) == ["tournament_day"]
    assert "q=tourn" in page.url  # the URL follows, so the search can be shared and reloaded
    page.fill("#id_q", "")
    page.locator("#id_q").dispatch_event("input")
    expect(page.locator("#fact-rows .fact")).to_have_count(3)


@pytest.mark.parametrize("width", [1280, 390])
def test_back_and_forward_put_the_search_of_the_address_in_the_box(live_server, arcade, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "viewer")
    open_memory(page, live_server)
    search = page.locator("#id_q")
    search.press_sequentially("tourn", delay=40)
    expect(page).to_have_url(re.compile(r"[?&]q=tourn(&|$)"))
    search.fill("")
    search.press_sequentially("paul", delay=40)
    expect(page).to_have_url(re.compile(r"[?&]q=paul(&|$)"))
    expect(page.locator("#fact-rows .fact")).to_have_count(1)
    # Back: the address and the list are the earlier search's, and so is the box (it stayed empty: it was drawn as
    # the page first came, and htmx restores the page as it was drawn, not as it was typed into).
    page.go_back()
    expect(page).to_have_url(re.compile(r"[?&]q=tourn(&|$)"))
    expect(page.locator("#fact-rows .fact")).to_have_count(1)
    assert visible_keys(page) == ["tournament_day"]
    expect(search).to_have_value("tourn")
    screenshot(page, f"memory-back-to-search-{width}")
    page.go_back()
    expect(page).not_to_have_url(re.compile(r"[?&]q="))
    expect(page.locator("#fact-rows .fact")).to_have_count(3)
    expect(search).to_have_value("")
    page.go_forward()
    expect(page).to_have_url(re.compile(r"[?&]q=tourn(&|$)"))
    expect(search).to_have_value("tourn")
    # Forward again to the later search, box and list alike.
    page.go_forward()
    expect(search).to_have_value("paul")
    assert visible_keys(page) == ["paul_birthday"]


def test_owner_adds_edits_and_deletes_a_fact(live_server, arcade, page):
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    facts_before = Fact.objects.filter(server=arcade, retracted_at__isnull=True).count()
    expect(page.locator(".list-bar .count")).to_contain_text(f"{facts_before} facts")
    page.click("summary:has-text('Add a fact')")
    page.fill("#fact-create input[name=key]", "Meetup City")
    page.fill("#fact-create textarea[name=content]", "The yearly meetup is in Utrecht.")
    page.wait_for_selector("#fact-create .content-hint:has-text('characters')")
    page.click("#fact-create button[type=submit]")
    row = page.locator("#fact-rows .fact", has_text="meetup_city")
    row.wait_for()
    assert row.locator(".fact-content").inner_text() == "The yearly meetup is in Utrecht."
    assert page.locator("#fact-create input[name=key]").input_value() == ""  # the form is ready for the next one
    expect(page.locator(".list-bar .count")).to_contain_text(f"{facts_before + 1} facts")  # the count follows

    row.locator("button:has-text('Edit')").click()
    editing = page.locator("#fact-rows .fact.is-editing")
    editing.locator("textarea[name=content]").fill("The yearly meetup is in Utrecht, in June.")
    editing.locator("input[name=confidence]").fill("0.8")
    editing.locator("button:has-text('Save')").click()
    page.wait_for_selector("#fact-rows .fact:has-text('in June')")
    fact = Fact.objects.get(server=arcade, key="meetup_city")
    assert (fact.content, fact.confidence, fact.version) == ("The yearly meetup is in Utrecht, in June.", 0.8, 2)

    page.locator("#fact-rows .fact", has_text="meetup_city").locator("button:has-text('Delete')").click()
    page.locator("#fact-rows .fact.is-confirming button:has-text('Delete')").click()
    expect(page.locator("#fact-rows .fact", has_text="in June")).to_have_count(0)
    assert not Fact.objects.filter(server=arcade, key="meetup_city").exists()
    expect(page.locator(".list-bar .count")).to_contain_text(f"{facts_before} facts")


def test_the_member_id_is_off_for_a_server_fact_and_on_for_a_member_fact(live_server, arcade, page):
    log_in(page, live_server, "owner")
    page.goto(f"{live_server.url}/memory/?server={GUILD}")
    page.click("summary:has-text('Add a fact')")
    member = page.locator("#fact-create input[name=member_id]")
    expect(member).to_be_disabled()
    page.check("#fact-create input[name=scope][value=member]")
    expect(member).to_be_enabled()
    expect(member).to_be_focused()
    page.check("#fact-create input[name=scope][value=server]")
    expect(member).to_be_disabled()


def test_a_secret_looking_content_shows_a_warning_while_typing(live_server, arcade, page):
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    page.click("summary:has-text('Add a fact')")
    page.locator("#fact-create textarea[name=content]").press_sequentially("the admin password is hunter2", delay=10)
    page.wait_for_selector("#fact-create .hint-warning:has-text('password')")


def test_retracted_fact_appears_in_its_tab_and_restores_after_one_question(live_server, arcade, page):
    old = Fact.objects.get(server=arcade, key="tournament_day")
    new = make_fact(arcade, key="tournament_day_new", content="Tournaments are every Sunday at 19:00 CET.")
    fact_retract(fact=old, reason="moved to Sunday", superseded_by=new)
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    assert "tournament_day" not in visible_keys(page)
    page.click(".tabs a:has-text('Retracted')")
    page.wait_for_selector(".tabs a[aria-current=page]:has-text('Retracted')")
    row = page.locator("#fact-rows .fact.is-retracted", has_text="tournament_day")
    assert "moved to Sunday" in row.inner_text() and f"#{new.number}" in row.inner_text()
    screenshot(page, "memory-retracted-1280")
    row.locator("button:has-text('Restore…')").click()
    question = page.locator("#fact-rows li.is-confirming")
    expect(question).to_contain_text("moved to Sunday")  # why it was retracted, asked before anything changes
    question.locator("button:has-text('Restore')").first.click()
    # Back in force with nothing else retracted: the list shows the facts in force again, counted, without tabs.
    page.wait_for_selector("#fact-rows .fact:not(.is-retracted):has-text('tournament_day')")
    in_force = Fact.objects.filter(server=arcade, retracted_at__isnull=True).count()
    expect(page.locator(".list-bar .count")).to_contain_text(f"{in_force} facts")
    expect(page.locator(".tabs")).to_have_count(0)
    old.refresh_from_db()
    new.refresh_from_db()
    assert old.retracted_at is None and new.retracted_at is None


def test_choosing_ledger_on_the_scale_saves_and_moves_the_marker(live_server, arcade, page):
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    assert page.locator(".scale-step.is-current").inner_text().strip().endswith("Classic")
    page.click("button:has-text('Compare the six types')")
    page.wait_for_selector(".type-card")
    assert page.locator(".type-card").count() == 6
    assert "keep counting as in force" in page.locator("#type-ledger").inner_text()
    assert page.locator("#type-semantic button:has-text('Choose Semantic')").count() == 1  # all six are ready
    assert re.search(r"took \d+\.\d ms", page.locator("#type-archive").inner_text())
    screenshot(page, "memory-scale-1280")
    page.click("#type-ledger button:has-text('Choose Ledger')")
    page.wait_for_selector(".scale-step.is-current:has-text('Ledger')")
    assert AISettings.objects.get(server=arcade).memory_type == "ledger"
    page.reload()
    assert page.locator(".scale-step.is-current").inner_text().strip().endswith("Ledger")


@pytest.mark.parametrize("width", [1280, 390])
def test_viewer_sees_no_change_buttons_and_no_wipe(live_server, arcade, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "viewer")
    open_memory(page, live_server)
    assert len(visible_keys(page)) == 3
    for label in ("Edit", "Delete", "Restore", "Add a fact", "Wipe memory", "Choose"):
        assert page.get_by_text(label, exact=False).count() == 0, label
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"memory-viewer-{width}")


@pytest.mark.parametrize("width", [1280, 390])
def test_owner_memory_page_fits_desktop_and_phone(live_server, arcade, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    assert page.get_by_text("Wipe memory").count() == 1
    page.click("button:has-text('Compare the six types')")
    page.wait_for_selector(".type-card")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"memory-owner-{width}")


def test_a_refused_fact_shows_the_reason_beside_the_form(live_server, arcade, page):
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    page.click("summary:has-text('Add a fact')")
    page.fill("#fact-create input[name=key]", "too_long")
    page.fill("#fact-create textarea[name=content]", "x" * 1001)
    page.click("#fact-create button[type=submit]")
    page.wait_for_selector("#fact-create .errorlist:has-text('1–1000 characters')")
    assert not Fact.objects.filter(server=arcade, key="too_long").exists()


def test_the_ranked_dry_run_follows_a_sample_message_as_it_is_typed(live_server, arcade, page):
    AISettings.objects.update_or_create(server=arcade, defaults={"max_injected_items": 1})
    log_in(page, live_server, "viewer")
    open_memory(page, live_server)
    page.click("button:has-text('Compare the six types')")
    card = page.locator("#type-ranked")
    expect(card).to_contain_text("0 of 3 facts in force already have an importance score")
    card.locator("a:has-text('Which facts')").click()  # the field is below the cards, with the tables
    page.locator("#ranked-sample-message").press_sequentially("tournament", delay=30)
    expect(page.locator("#ranked-sample-slots")).to_contain_text("For “tournament”")
    expect(page.locator("#ranked-sample-slots table", has_text="Would win a slot")).to_contain_text("tournament_day")
    expect(page.locator("#ranked-sample-slots table", has_text="Would lose its slot")).to_contain_text("paul_birthday")
    screenshot(page, "memory-ranked-dry-run-1280")


def test_the_keyboard_focus_follows_an_edit_from_button_to_field_and_back(live_server, arcade, page):
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    row = page.locator("#fact-rows .fact", has_text="tournament_day")
    row.locator("button:has-text('Edit')").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#fact-rows .fact.is-editing textarea[name=content]")).to_be_focused()
    page.locator("#fact-rows .fact.is-editing button:has-text('Cancel')").focus()
    page.keyboard.press("Enter")
    row = page.locator("#fact-rows .fact", has_text="tournament_day")
    expect(row.locator("button:has-text('Edit')")).to_be_focused()


def test_choosing_consolidated_shows_its_block_without_a_reload(live_server, arcade, page):
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    assert page.locator("#consolidation").count() == 0
    page.click("button:has-text('Compare the six types')")
    page.wait_for_selector(".type-card")
    page.click("#type-consolidated button:has-text('Choose Consolidated')")
    page.wait_for_selector(".scale-step.is-current:has-text('Consolidated')")
    expect(page.locator("#consolidation")).to_have_count(1)  # the page was drawn again around the new type
    expect(page.locator(".type-card")).to_have_count(0)  # the comparison closed, the type is in view


def test_deleting_a_fact_on_page_two_keeps_the_list_on_page_two(live_server, arcade, page):
    for index in range(60):
        make_fact(arcade, key=f"note_{index:02d}", content=f"Note number {index}.")
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    page.click(".pager a[rel=next]")
    expect(page.locator(".pager a[rel=prev]")).to_have_count(1)
    expect(page).to_have_url(re.compile(r"[?&]after="))  # the link pushed page two's address
    on_page_two = visible_keys(page)
    assert len(on_page_two) == 13  # 63 facts: 50 on page one
    page.locator("#fact-rows .fact", has_text=on_page_two[0]).locator("button:has-text('Delete')").click()
    page.locator("#fact-rows .fact.is-confirming button:has-text('Delete')").click()
    expect(page.locator(".list-bar .count")).to_contain_text("62 facts")  # the list reloaded after the delete
    assert visible_keys(page) == on_page_two[1:]  # still page two, without the deleted fact
    expect(page.locator(".pager a[rel=prev]")).to_have_count(1)
    # Deleting the rest of page two leaves nothing there: the list shows page one, the nearest with facts.
    for left, key in enumerate(on_page_two[1:], start=1):
        page.locator("#fact-rows .fact", has_text=key).locator("button:has-text('Delete')").click()
        page.locator("#fact-rows .fact.is-confirming button:has-text('Delete')").click()
        expect(page.locator(".list-bar .count")).to_contain_text(f"{62 - left} facts")  # reloaded before the next
    expect(page.locator("#fact-rows .fact")).to_have_count(50)  # page one, whole
    assert not set(visible_keys(page)) & set(on_page_two)
    expect(page.locator(".pager a[rel=prev]")).to_have_count(0)
    expect(page.locator("#fact-rows .fact")).to_have_count(50)
    # Page one is all there is: no Next back to the emptied page two, and the address bar names page one, so a
    # reload of the browser page (or a shared link) shows what is on screen.
    expect(page.locator(".pager a[rel=next]")).to_have_count(0)
    expect(page).not_to_have_url(re.compile(r"[?&](after|before)="))
    page.reload()
    expect(page.locator("#fact-rows .fact")).to_have_count(50)
    expect(page.locator(".pager a[rel=next]")).to_have_count(0)
    page.go_back()  # the fallback replaced page two's history entry instead of adding one: back is page one
    expect(page).not_to_have_url(re.compile(r"[?&](after|before)="))


WORDS = ("amber birch cedar delta ember fjord grove heron iris juniper kestrel lotus maple nectar onyx pebble quartz "
         "raven sage tundra").split()


@pytest.fixture
def slots_change_hands(arcade):
    """Classic's 20 slots go to the newest facts; Ranked would give 17 of them to old essential rules instead (the
    three facts of `arcade`, unscored and new, keep theirs): 17 winners and 17 losers, each a line of text long
    enough to break in a narrow column. Each fact is about a member of its own, so no two make a pair for
    Consolidated's card: the cards' heights are the Ranked dry run's doing alone. All are events, the kind that ages
    (a month's half-life): as member facts they would be profiles, which never age, and the old rules would then
    take the three new facts' slots too."""
    now = timezone.now()
    for index, word in enumerate(WORDS):
        make_fact(arcade, key=f"chat_{word}", importance=0.0, created_at=now - timedelta(minutes=index + 1),
                  scope="member", kind="event", member_id=f"2000000000000001{index:02d}",
                  content=f"Chat {word}: members chatted about {word} screensavers in #{word} for a while.")
        make_fact(arcade, key=f"rule_{word}", importance=1.0, created_at=now - timedelta(days=90 + index),
                  scope="member", kind="event", member_id=f"2000000000000002{index:02d}",
                  content=f"Rule {word}: announcements from the {word} moderators belong in #{word} only.")
    return arcade


def box(locator) -> dict:
    """Where the element is on the page (a bounding box is where it is in the viewport, which scrolls)."""
    found = locator.bounding_box()
    return {**found, "y": found["y"] + locator.page.evaluate("window.scrollY")}


@pytest.mark.parametrize("width", [1280, 390])
def test_the_ranked_tables_open_below_the_six_cards_at_full_width(live_server, slots_change_hands, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "viewer")
    open_memory(page, live_server)
    page.click("button:has-text('Compare the six types')")
    expect(page.locator(".type-card")).to_have_count(6)
    expect(page.locator("#type-ranked")).to_contain_text("17 facts would win a slot and 17 would lose one")
    expect(page.locator(".lazy-dry-run .progress")).to_have_count(0)  # Consolidated and Semantic measured too
    cards = [box(page.locator(".type-card").nth(index)) for index in range(6)]
    grid, comparison = box(page.locator(".type-cards")), box(page.locator("#memory-type"))
    screenshot(page, f"memory-compare-{width}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if width == 1280:
        # Side by side in one row. Ranked's tables squeezed into its ~175 px column made it, the row and so every
        # other card 12,800 px tall (the page 17,700); its card's own text is about 1,200 px now.
        assert {round(card["y"]) for card in cards} == {round(cards[0]["y"])}
        assert max(card["height"] for card in cards) <= 1_500, [card["height"] for card in cards]
        assert comparison["height"] <= 1_900, comparison["height"]
    else:
        # One column on a phone, Ranked's card about 650 px (7,300 with its tables).
        assert all(card["width"] >= grid["width"] - 1 for card in cards)
        assert max(card["height"] for card in cards) <= 1_000, [card["height"] for card in cards]
    # Which facts: the card's link opens the tables below the six cards, as wide as the cards together.
    page.locator("#type-ranked a:has-text('Which facts')").click()
    winners = page.locator("#ranked-sample-slots table", has_text="Would win a slot")
    expect(winners).to_be_visible()
    expect(winners).to_contain_text("rule_amber")
    cards_bottom = max(card["y"] + card["height"] for card in cards)
    assert box(winners)["y"] > cards_bottom
    assert box(winners)["width"] >= grid["width"] - 40, (box(winners)["width"], grid["width"])
    # A sample message's tables take their place there, just as wide.
    page.locator("#ranked-sample-message").press_sequentially("announcements", delay=30)
    expect(page.locator("#ranked-sample-slots")).to_contain_text("For “announcements”")
    expect(winners).to_contain_text("relevance")
    assert box(winners)["width"] >= grid["width"] - 40
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"memory-compare-ranked-open-{width}")
