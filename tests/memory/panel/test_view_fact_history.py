"""A fact's history on its page: every version with its actor, paged; a staff edit undone, or 409 with what the fact
says now. Who may open and change what is in test_view_permissions.py; here, what each answer holds."""

from __future__ import annotations

import pytest
from django.urls import reverse

from consolidation.models import Proposal, ProposalKind
from consolidation.services import Answer, proposal_answer
from memory.facts.services import FactAuthor, fact_create, fact_retract, fact_update
from memory.facts.versions import Actor
from memory.models import Exchange, Fact, FactVersion, VersionChange
from teams.models import AuditEntry
from tests.conftest import logged_in_client
from tests.factories import make_fact

HTMX = {"HX-Request": "true"}
MEMBER = "200000000000000011"


def fact_url(fact: Fact, name: str = "fact", **extra) -> str:
    return reverse(f"memory:{name}", kwargs={"guild_id": fact.server.guild_id, "number": fact.number, **extra})


def edited(fact: Fact, user, content: str) -> Fact:
    return fact_update(fact=fact, actor=user, expected_version=fact.version, key=fact.key, content=content,
                       confidence=fact.confidence)


def test_the_timeline_shows_a_staff_edit_a_bot_supersede_and_a_merge_with_their_actors(ledger, owner):
    exchange = Exchange.objects.create(server=ledger, channel_id="111", author_id=MEMBER, author_name="Paul",
                                       message="The tournament moved.", memory_type="ledger")
    fact = make_fact(ledger, key="tournament_day", content="The tournament is on Friday.")
    fact = edited(fact, owner, "The tournament is on Saturday.")
    newer = fact_create(server=ledger, author=FactAuthor.bot(MEMBER), key="tournament_day",
                        content="The tournament is on Sunday.", actor=Actor.bot(exchange))
    fact_retract(fact=fact, reason="moved again", superseded_by=newer, by=Actor.bot(exchange))
    twin = make_fact(ledger, key="tournament_when", content="Tournaments happen on Sundays.")
    proposal = Proposal.objects.create(server=ledger, kind=ProposalKind.DUPLICATE, keeper=newer, other=twin,
                                       keeper_version=newer.version, other_version=twin.version,
                                       pair_low=min(newer.pk, twin.pk), pair_high=max(newer.pk, twin.pk))
    proposal_answer(proposal=proposal, actor=owner, answer=Answer.MERGE)

    old_page = logged_in_client(owner).get(fact_url(fact)).content.decode()
    history = old_page[old_page.index('id="fact-history"'):]
    assert "Edited" in history and "by owner" in history
    assert "The tournament is on Friday." in history and "The tournament is on Saturday." in history
    assert "Replaced" in history and f"with member Paul ({MEMBER})" in history
    assert reverse("memory:exchange", args=[ledger.guild_id, exchange.pk]) in history
    assert history.index("Replaced") < history.index("Edited") < history.index("Written")  # newest first
    new_page = logged_in_client(owner).get(fact_url(newer)).content.decode()
    merged = new_page[new_page.index('id="fact-history"'):]
    assert "Merged" in merged and "a consolidation proposal, accepted by owner" in merged
    assert f'href="{fact_url(twin)}">#{twin.number}</a>' in merged


def test_a_viewer_sees_the_timeline_without_an_undo(member, owner, server):
    fact = edited(make_fact(server), owner, "Retro and indie games.")
    page = logged_in_client(member).get(fact_url(fact)).content.decode()
    assert "Edited" in page and "Undo this edit" not in page
    assert "Undo this edit" in logged_in_client(owner).get(fact_url(fact)).content.decode()


def test_a_fact_said_a_thousand_times_shows_its_newest_changes_and_loads_older_ones_on_request(owner, server):
    fact = make_fact(server)
    FactVersion.objects.bulk_create([
        FactVersion(fact=fact, server=server, version=1, change=VersionChange.REINFORCE, actor_kind="bot",
                    member_id=MEMBER, before={"mention_count": n + 1}, after={"mention_count": n + 2})
        for n in range(1000)])
    page = logged_in_client(owner).get(fact_url(fact)).content.decode()
    assert page.count('class="version ') == 20 and "Show older changes" in page
    older = page.split('class="timeline-more"', 1)[1].split('hx-get="', 1)[1].split('"', 1)[0]
    more = logged_in_client(owner).get(older.replace("&amp;", "&"), headers=HTMX).content.decode()
    assert more.count('class="version ') == 20 and "<html" not in more and "Show older changes" in more
    # A staff change is anchored by the version it made (the audit log links it); the bot's, by the change itself.
    shown = set(page.split('id="change-')[1:]) | set(more.split('id="change-')[1:])
    assert len({row.split('"', 1)[0] for row in shown}) == 40  # the second page continues the first


@pytest.mark.parametrize("before", ["x", "-1", "99999999"])
def test_a_cursor_that_names_no_version_of_the_fact_answers_without_error(member, server, before):
    fact = make_fact(server)
    response = logged_in_client(member).get(fact_url(fact, "fact-history"), {"before": before}, headers=HTMX)
    assert response.status_code == 200


def test_an_undo_puts_the_old_wording_back_as_a_version_of_its_own_and_is_audited(owner, server):
    fact = edited(make_fact(server, content="Retro games."), owner, "Indie games.")
    response = logged_in_client(owner).post(fact_url(fact, "fact-version-undo", version=fact.version), headers=HTMX)
    page = response.content.decode()
    fact.refresh_from_db()
    assert response.status_code == 200 and fact.content == "Retro games."
    assert "Undone. The fact says again" in page and "“Retro games.”" in page
    assert "fact-row-changed" in response["HX-Trigger-After-Settle"]
    assert FactVersion.objects.filter(fact=fact, change=VersionChange.UNDO).count() == 1
    assert AuditEntry.objects.filter(action="fact.undo").count() == 1


def test_an_undo_of_an_edit_the_fact_moved_on_from_answers_409_with_the_current_text(owner, server):
    fact = edited(make_fact(server, content="Retro games."), owner, "Indie games.")
    edit_version = fact.version
    edited(fact, owner, "Arcade cabinets only.")
    response = logged_in_client(owner).post(fact_url(fact, "fact-version-undo", version=edit_version), headers=HTMX)
    fact.refresh_from_db()
    assert response.status_code == 409
    page = response.content.decode()
    assert "no longer applies" in page and "“Arcade cabinets only.”" in page
    assert fact.content == "Arcade cabinets only."
    assert not FactVersion.objects.filter(fact=fact, change=VersionChange.UNDO).exists()


@pytest.mark.parametrize("version", [1, 99])
def test_an_undo_of_what_is_no_staff_edit_is_404_and_changes_nothing(owner, server, version):
    fact = make_fact(server)  # version 1 is its creation
    response = logged_in_client(owner).post(fact_url(fact, "fact-version-undo", version=version), headers=HTMX)
    assert response.status_code == 404
    assert FactVersion.objects.filter(fact=fact).count() == 1


def test_an_undo_without_script_answers_the_history_page(owner, server):
    fact = edited(make_fact(server, content="Retro games."), owner, "Indie games.")
    response = logged_in_client(owner).post(fact_url(fact, "fact-version-undo", version=fact.version))
    assert response.status_code == 200 and "<html" in response.content.decode()
    assert "History of fact" in response.content.decode()
