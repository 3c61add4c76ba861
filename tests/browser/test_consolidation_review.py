"""The consolidation block of the memory page in a real browser: a moderator answers proposals, staff run a round."""

from __future__ import annotations

import pytest

from consolidation.models import ConsolidationRound, Proposal, ProposalKind, ProposalStatus, RoundStatus
from consolidation.rounds import round_run
from memory.configuration.services import memory_type_set
from memory.facts.services import FactAuthor
from memory.models import Fact, MemoryType
from tests.conftest import FILLER
from tests.factories import make_fact

from .conftest import ARTIFACTS
from .test_memory_page import log_in

pytestmark = pytest.mark.browser

# Three pairs saying the same thing in other words; the first of each pair is the stronger one
# (higher confidence), so a round proposes to keep it.
DUPLICATES = [
    (("language", "The server's language is French.", 0.9), ("lang", "Server language: French", 0.7)),
    (("timezone", "The server runs on CET time.", 0.9), ("tz", "Server time is CET.", 0.6)),
    (("favourite_game", "The community's favourite game is Tetris.", 0.8),
     ("fav_game", "Favourite game of the community: Tetris", 0.5)),
]


@pytest.fixture
def consolidated(server, owner):
    """Retro Arcade under Consolidated, nine unrelated facts and three duplicate pairs."""
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.CONSOLIDATED)
    for key, content in FILLER:
        make_fact(server, key=key, content=content)
    for stronger, weaker in DUPLICATES:
        for key, content, confidence in (stronger, weaker):
            make_fact(server, key=key, content=content, confidence=confidence, author=FactAuthor.staff(owner))
    return server


@pytest.fixture
def proposed(consolidated):
    """A finished round over `consolidated`: three duplicate proposals waiting, nothing else."""
    finished = round_run(ConsolidationRound.objects.create(server=consolidated, trigger="manual").pk)
    assert finished.status == RoundStatus.FINISHED, finished.refusal or finished.error
    assert (finished.duplicates, finished.contradictions) == (3, 0)
    return consolidated


def open_consolidation(page, live_server, server):
    page.goto(f"{live_server.url}/memory/?server={server.guild_id}")
    page.wait_for_selector("#fact-list")
    page.wait_for_selector("#consolidation h2:has-text('Consolidation')")  # swapped in by HTMX after the page


def shown_proposal(page) -> Proposal:
    """The proposal the block shows, read back from the database by the id in its label."""
    label = page.locator("#consolidation article.proposal").get_attribute("aria-label")
    return Proposal.objects.select_related("keeper", "other").get(pk=int(label.removeprefix("Proposal ")))


def fact_row(page, fact: Fact):
    return page.locator(f"#fact-rows #fact-{fact.server_id}-{fact.number}")


def answer(page, button: str, answered: Proposal, message: str) -> None:
    """Click one of the three answers and wait for the block to say what happened."""
    page.locator("#consolidation .answer-buttons").get_by_role("button", name=button, exact=True).click()
    page.wait_for_selector(f"#consolidation .message:has-text({message!r})")
    assert page.locator(f"#consolidation article[aria-label='Proposal {answered.pk}']").count() == 0


def test_moderator_answers_three_proposals_with_the_three_buttons_and_sees_memory_follow(
        live_server, proposed, moderator, page):
    log_in(page, live_server, "moderator")
    assert page.locator("nav.nav a:has-text('Proposals') .badge").inner_text() == "3"
    open_consolidation(page, live_server, proposed)
    block = page.locator("#consolidation")
    assert block.get_by_text("Run a round now").count() == 0 and block.get_by_text("Moderators").count() == 0
    assert page.locator(".list-bar .count").inner_text() == "15 facts"

    # 1. Merge: the fact that stays keeps its wording, the other leaves the list and points to it.
    first = shown_proposal(page)
    assert block.locator("h3").inner_text() == "Duplicate · 1 of 3"
    assert block.locator(".pair-fact", has_text="Stays").locator(".fact-content").inner_text() == first.keeper.content
    assert block.locator(".pair-fact", has_text="Would be replaced").locator(".fact-content").inner_text() \
        == first.other.content
    assert fact_row(page, first.other).count() == 1
    answer(page, "Merge", first, f"Merged: #{first.other.number} now points to #{first.keeper.number}")
    fact_row(page, first.other).wait_for(state="detached")  # the list reloaded on memory-changed
    assert fact_row(page, first.keeper).count() == 1
    assert page.locator(".list-bar .count").inner_text() == "14 facts"
    assert page.locator(".tabs a:has-text('Retracted')").count() == 1

    # 2. Merge the other way: the proposed keeper is the one that goes.
    second = shown_proposal(page)
    assert second.pk != first.pk and block.locator("h3").inner_text() == "Duplicate · 1 of 2"
    answer(page, "Merge the other way", second,
           f"Merged: #{second.keeper.number} now points to #{second.other.number}")
    fact_row(page, second.keeper).wait_for(state="detached")
    assert fact_row(page, second.other).count() == 1
    assert page.locator(".list-bar .count").inner_text() == "13 facts"

    # 3. Keep both: nothing leaves the list, and nothing is waiting any more.
    third = shown_proposal(page)
    assert third.pk not in (first.pk, second.pk) and block.locator("h3").inner_text() == "Duplicate · 1 of 1"
    answer(page, "Keep both", third, f"Kept both #{third.keeper.number} and #{third.other.number}; this pair is "
                                     "not asked again unless one of them is rewritten.")
    page.wait_for_selector("#consolidation :text('No proposal is waiting.')")
    assert block.locator("article.proposal").count() == 0 and block.locator("h2 .badge").count() == 0
    assert fact_row(page, third.keeper).count() == 1 and fact_row(page, third.other).count() == 1
    assert page.locator(".list-bar .count").inner_text() == "13 facts"

    # The database agrees with what the page said.
    answered = {proposal.pk: proposal for proposal in Proposal.objects.filter(server=proposed)}
    assert [answered[p.pk].status for p in (first, second, third)] == [
        ProposalStatus.MERGED, ProposalStatus.MERGED_OTHER_WAY, ProposalStatus.KEPT_BOTH]
    assert {proposal.answered_by_id for proposal in answered.values()} == {moderator.pk}
    for retired, survivor in ((first.other, first.keeper), (second.keeper, second.other)):
        wording = survivor.content  # without a consolidation model a merge keeps the survivor word for word
        retired.refresh_from_db()
        survivor.refresh_from_db()
        assert retired.retracted_at is not None and retired.superseded_by_id == survivor.pk
        assert survivor.retracted_at is None and survivor.content == wording
    assert Fact.objects.filter(pk__in=[third.keeper_id, third.other_id], retracted_at__isnull=True).count() == 2
    assert not Proposal.objects.filter(server=proposed, status=ProposalStatus.PENDING).exists()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_proposal_fits_desktop_and_phone(live_server, proposed, moderator, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "moderator")
    open_consolidation(page, live_server, proposed)
    block = page.locator("#consolidation")
    block.locator("article.proposal").wait_for()
    for button in ("Merge", "Merge the other way", "Keep both"):
        assert block.get_by_role("button", name=button, exact=True).is_visible()
    # Nothing may overflow sideways: neither the page nor anything inside the block.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert block.evaluate("b => [...b.querySelectorAll('*')].every(e => e.scrollWidth <= e.clientWidth + 1 "
                          "|| getComputedStyle(e).overflowX !== 'visible' || e.clientWidth === 0)")
    right_edge = block.evaluate(
        "b => Math.max(...[...b.querySelectorAll('*')].map(e => e.getBoundingClientRect().right))")
    assert right_edge <= width
    ARTIFACTS.mkdir(exist_ok=True)
    block.screenshot(path=str(ARTIFACTS / f"consolidation-review-{width}.png"))


def test_owner_runs_a_round_and_sees_its_result_in_the_block(live_server, consolidated, page):
    log_in(page, live_server, "owner")
    open_consolidation(page, live_server, consolidated)
    block = page.locator("#consolidation")
    assert block.get_by_text("No round yet.").count() == 1
    block.get_by_role("button", name="Run a round now").click()
    # Celery runs tasks eagerly in tests: the round has finished by the time the block comes back.
    page.wait_for_selector("#consolidation .message:has-text('The round finished; its proposals are below.')")
    page.wait_for_selector("#consolidation .fact-meta:has-text('Last round')")
    assert block.locator(".progress").count() == 0
    assert "(started by staff): 15 facts, 3 duplicates and 0 contradictions proposed in" in \
        block.locator(".fact-meta", has_text="Last round").inner_text()
    assert block.locator("h3").inner_text() == "Duplicate · 1 of 3"  # the owner may answer too
    assert block.get_by_role("button", name="Run a round now").is_enabled()
    ran = ConsolidationRound.objects.get(server=consolidated)
    assert (ran.status, ran.trigger, ran.duplicates) == (RoundStatus.FINISHED, "manual", 3)
    assert Proposal.objects.filter(server=consolidated, kind=ProposalKind.DUPLICATE,
                                   status=ProposalStatus.PENDING).count() == 3


def test_a_waiting_round_shows_progress_and_the_block_updates_when_it_finishes(live_server, consolidated, page):
    # A round queued while the worker is busy elsewhere (no worker picks it up before the page loads).
    waiting = ConsolidationRound.objects.create(server=consolidated, trigger="manual")
    log_in(page, live_server, "owner")
    open_consolidation(page, live_server, consolidated)
    block = page.locator("#consolidation")
    assert "A consolidation round is running" in block.locator(".progress").inner_text()
    assert block.get_by_role("button", name="Run a round now").is_disabled()

    assert round_run(waiting.pk).status == RoundStatus.FINISHED  # the worker gets to it
    # The block polls every 2 s while a round is open, and stops once it shows the result.
    page.wait_for_selector("#consolidation .fact-meta:has-text('3 duplicates and 0 contradictions')")
    assert block.locator(".progress").count() == 0
    assert block.locator("[hx-trigger='every 2s']").count() == 0
    assert block.locator("h3").inner_text() == "Duplicate · 1 of 3"
    assert block.get_by_role("button", name="Run a round now").is_enabled()
