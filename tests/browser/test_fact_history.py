"""A fact's history in a real browser: after a staff edit, a bot supersede and a merge its page shows all three with
their actors; an undo puts the old wording back; restore asks first, with why and by whom it was retracted."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from consolidation.models import Proposal, ProposalKind
from consolidation.services import Answer, proposal_answer
from memory.configuration.services import memory_type_set
from memory.facts.services import FactAuthor, fact_create, fact_retract, fact_retract_by_staff, fact_update
from memory.facts.versions import Actor
from memory.models import Exchange, Fact, MemoryType
from teams.services import configure_grant, membership_add, server_create, team_create
from tests.factories import UserFactory, make_fact

from .conftest import screenshot
from .test_memory_page import GUILD, log_in

pytestmark = pytest.mark.browser
MEMBER = "200000000000000011"


@pytest.fixture
def history(transactional_db):
    """#1 edited by staff (Friday → Saturday), replaced by the bot's #2 (Sunday) in an exchange with Paul, and #3, a
    duplicate of #2, merged into it by the owner: every kind of actor on the pages of #1 and #2."""
    team = team_create(name="Arcade staff")
    server = server_create(team=team, guild_id=GUILD, name="Retro Arcade")
    owner = UserFactory(username="owner")
    membership_add(team=team, user=owner)
    configure_grant(server=server, user=owner)
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.LEDGER)
    exchange = Exchange.objects.create(server=server, channel_id="111", author_id=MEMBER, author_name="Paul",
                                       message="The tournament is on Sunday now.", memory_type="ledger")
    first = make_fact(server, key="tournament_day", content="The tournament is on Friday.")
    first = fact_update(fact=first, actor=owner, expected_version=first.version, key="tournament_day",
                        content="The tournament is on Saturday.", confidence=1.0)
    second = fact_create(server=server, author=FactAuthor.bot(MEMBER), key="tournament_day",
                         content="The tournament is on Sunday.", actor=Actor.bot(exchange))
    fact_retract(fact=first, reason="moved to Sunday", superseded_by=second, by=Actor.bot(exchange))
    third = make_fact(server, key="tournament_when", content="Tournaments happen on Sundays.")
    proposal = Proposal.objects.create(server=server, kind=ProposalKind.DUPLICATE, keeper=second, other=third,
                                       keeper_version=second.version, other_version=third.version,
                                       pair_low=min(second.pk, third.pk), pair_high=max(second.pk, third.pk))
    proposal_answer(proposal=proposal, actor=owner, answer=Answer.MERGE)
    return {"server": server, "owner": owner, "exchange": exchange}


def open_fact(page, live_server, number: int):
    page.goto(f"{live_server.url}/servers/{GUILD}/facts/{number}/")
    page.wait_for_selector("#fact-history")


def test_the_timeline_shows_the_edit_the_supersede_and_the_merge_with_their_actors(live_server, history, page):
    log_in(page, live_server, "owner")
    open_fact(page, live_server, 1)
    timeline = page.locator("#fact-history .timeline")
    edit = timeline.locator("li.change-edit")
    expect(edit.locator(".version-head")).to_contain_text("Edited")
    expect(edit.locator(".version-head")).to_contain_text("by owner")
    expect(edit.locator(".version-changes")).to_contain_text("The tournament is on Friday. → The tournament is on "
                                                             "Saturday.")
    replaced = timeline.locator("li.change-supersede")
    expect(replaced).to_contain_text(f"the bot, exchange {str(history['exchange'].pk)[:8]} with member Paul ({MEMBER})")
    expect(replaced).to_contain_text("Replaced by #2")
    screenshot(page, "fact_history_1280")
    page.set_viewport_size({"width": 390, "height": 844})
    open_fact(page, live_server, 1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "fact_history_390")

    page.set_viewport_size({"width": 1280, "height": 900})
    open_fact(page, live_server, 2)
    merge = page.locator("#fact-history li.change-merge")
    expect(merge).to_contain_text("a consolidation proposal, accepted by owner")
    expect(merge).to_contain_text("With #3")
    expect(page.locator("#fact-history li.change-create")).to_contain_text(f"with member Paul ({MEMBER})")
    expect(page.locator(".validity")).not_to_contain_text("restored")  # keeping #3's merge retracted nothing
    expect(page.locator(".retractions")).to_have_count(0)
    screenshot(page, "fact_history_merged_1280")


def test_an_undo_from_the_timeline_puts_the_old_wording_back(live_server, history, page):
    server, owner = history["server"], history["owner"]
    fact = make_fact(server, key="snack_rule", content="No food near the cabinets.")
    fact_update(fact=fact, actor=owner, expected_version=fact.version, key="snack_rule",
                content="Food is fine near the cabinets.", confidence=1.0)
    log_in(page, live_server, "owner")
    open_fact(page, live_server, fact.number)
    page.click("#fact-history li.change-edit button:has-text('Undo this edit')")
    expect(page.locator("#fact-history [role=status]")).to_contain_text("Undone. The fact says again")
    expect(page.locator("#fact-history [role=status]")).to_contain_text("No food near the cabinets.")
    expect(page.locator("ul.facts .fact-content").first).to_have_text("No food near the cabinets.")  # row reloaded
    expect(page.locator("#fact-history li.change-undo")).to_have_count(1)
    fact.refresh_from_db()
    assert fact.content == "No food near the cabinets."


def test_restore_asks_with_the_reason_and_the_page_keeps_the_retraction(live_server, history, page):
    server, owner = history["server"], history["owner"]
    fact = make_fact(server, key="joke", content="Paul is the arcade's ghost.")
    fact_retract_by_staff(fact=fact, reason="Wrong: the bot misread a joke", actor=owner)
    log_in(page, live_server, "owner")
    open_fact(page, live_server, fact.number)
    page.click("button:has-text('Restore…')")
    question = page.locator("li.is-confirming")
    expect(question).to_contain_text("It was retracted")
    expect(question).to_contain_text("by owner: “Wrong: the bot misread a joke”")
    assert Fact.objects.get(pk=fact.pk).retracted_at is not None  # asking changed nothing
    question.locator("button:has-text('Restore')").first.click()
    expect(page.locator("li.is-confirming")).to_have_count(0)
    expect(page.locator("#fact-history li.change-restore")).to_have_count(1)  # the timeline reloaded itself
    assert Fact.objects.get(pk=fact.pk).retracted_at is None
    page.reload()
    expect(page.locator(".validity")).to_contain_text("restored after a retraction")
    expect(page.locator(".retractions")).to_contain_text("Retracted")
    expect(page.locator(".retractions")).to_contain_text("by owner: “Wrong: the bot misread a joke”; restored")
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    screenshot(page, "fact_restored_390")

    # Retract it again from its row, with a reason; an empty one is refused in words.
    page.click("button:has-text('Retract…')")
    page.fill("input[name=reason]", " ")
    page.locator("input[name=reason]").evaluate("input => input.removeAttribute('required')")
    page.click("button:has-text('Retract')")
    expect(page.locator("li.is-confirming [role=alert]")).to_contain_text("Say why the fact no longer holds")
    page.fill("input[name=reason]", "Still a joke")
    page.click("li.is-confirming button[type=submit]")
    expect(page.locator(".fact-retraction")).to_contain_text("Still a joke")
