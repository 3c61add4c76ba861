"""Who may open which consolidation URL, and what the block shows: anonymous, another team's member,
a viewer, a moderator (review_proposals only) and a configure user."""

from __future__ import annotations

import pytest
from django.urls import reverse

from consolidation import urls as consolidation_urls
from consolidation.models import ConsolidationRound, Proposal, ProposalStatus, SummaryDraft
from consolidation.rounds import round_run
from memory.models import Fact
from tests.conftest import logged_in_client
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def proposed(planted):
    server = planted["language"].server
    round_run(ConsolidationRound.objects.create(server=server, trigger="manual").pk)
    draft = SummaryDraft.objects.create(server=server, content="A retro server that speaks French.")
    duplicate = Proposal.objects.get(server=server, kind="duplicate")
    return server, duplicate, draft


def urls(server, proposal, draft) -> dict[str, tuple[str, str, dict, str]]:
    """name → (method, url, data, who may: 'viewer' | 'reviewer' | 'configure')."""
    guild = server.guild_id
    return {
        "review": ("GET", reverse("consolidation:review", args=[guild]), {}, "viewer"),
        "dry-run": ("GET", reverse("consolidation:dry-run", args=[guild]), {}, "viewer"),
        "answer": ("POST", reverse("consolidation:answer", args=[guild, proposal.pk]), {"answer": "keep_both"}, "reviewer"),
        "draft-answer": ("POST", reverse("consolidation:draft-answer", args=[guild, draft.pk]), {"answer": "keep"},
                         "reviewer"),
        "round-start": ("POST", reverse("consolidation:round-start", args=[guild]), {}, "configure"),
        "moderators": ("GET", reverse("consolidation:moderators", args=[guild]), {}, "configure"),
    }


def send(client, method: str, url: str, data: dict, htmx: bool = True):
    headers = HTMX if htmx else {}
    return client.get(url, data, headers=headers) if method == "GET" else client.post(url, data, headers=headers)


def test_every_consolidation_url_is_covered(proposed):
    assert {pattern.name for pattern in consolidation_urls.urlpatterns} == set(urls(*proposed))


@pytest.mark.parametrize("name", ["review", "dry-run", "answer", "draft-answer", "round-start", "moderators"])
def test_anonymous_gets_401_on_htmx_and_the_login_page_otherwise(client, proposed, name):
    method, url, data, _ = urls(*proposed)[name]
    assert send(client, method, url, data).status_code == 401
    response = send(client, method, url, data, htmx=False)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name", ["review", "dry-run", "answer", "draft-answer", "round-start", "moderators"])
def test_another_teams_member_gets_404(outsider, proposed, name):
    method, url, data, _ = urls(*proposed)[name]
    assert send(logged_in_client(outsider), method, url, data).status_code == 404


@pytest.mark.parametrize("name", ["review", "dry-run", "answer", "draft-answer", "round-start", "moderators"])
def test_a_viewer_reads_but_answers_nothing(member, proposed, name):
    method, url, data, needs = urls(*proposed)[name]
    response = send(logged_in_client(member), method, url, data)
    assert response.status_code == (200 if needs == "viewer" else 403)
    assert Proposal.objects.filter(status=ProposalStatus.PENDING).count() == 2


@pytest.mark.parametrize("name", ["review", "dry-run", "answer", "draft-answer", "round-start", "moderators"])
def test_a_moderator_answers_but_configures_nothing(moderator, proposed, name):
    method, url, data, needs = urls(*proposed)[name]
    response = send(logged_in_client(moderator), method, url, data)
    assert response.status_code == (403 if needs == "configure" else 200)


@pytest.mark.parametrize("name", ["review", "dry-run", "answer", "draft-answer", "round-start", "moderators"])
def test_a_configure_user_may_do_everything(owner, proposed, name):
    method, url, data, _ = urls(*proposed)[name]
    assert send(logged_in_client(owner), method, url, data).status_code == 200


def test_the_viewer_sees_that_proposals_wait_but_not_the_answer_buttons(member, proposed):
    server, _, _ = proposed
    page = logged_in_client(member).get(reverse("consolidation:review", args=[server.guild_id]), headers=HTMX)
    html = page.content.decode()
    assert "2 proposals are waiting for a moderator" in html and "Merge the other way" not in html


def test_the_moderator_sees_one_proposal_side_by_side_with_three_answers(moderator, proposed):
    server, duplicate, _ = proposed
    html = logged_in_client(moderator).get(reverse("consolidation:review", args=[server.guild_id]),
                                           headers=HTMX).content.decode()
    for text in ("Stays", "Would be replaced", "Proposed wording", ">Merge<", "Merge the other way", "Keep both",
                 duplicate.keeper.content.replace("'", "&#x27;"), "Use draft", "Keep current"):
        assert text in html


def test_an_answer_over_htmx_returns_the_next_proposal_and_tells_the_page_to_reload(moderator, proposed):
    server, duplicate, _ = proposed
    response = logged_in_client(moderator).post(reverse("consolidation:answer", args=[server.guild_id, duplicate.pk]),
                                                {"answer": "merge"}, headers=HTMX)
    assert response.status_code == 200 and "memory-changed" in response["HX-Trigger"]
    assert "Contradiction" in response.content.decode()
    assert Fact.objects.get(pk=duplicate.other_id).superseded_by_id == duplicate.keeper_id


def test_a_merge_in_the_models_wording_is_shown_and_answered_as_a_new_fact_replacing_both(moderator, proposed):
    server, duplicate, _ = proposed
    Proposal.objects.filter(pk=duplicate.pk).update(wording="The server speaks French.", wording_by_model=True)
    client = logged_in_client(moderator)
    html = client.get(reverse("consolidation:review", args=[server.guild_id]), headers=HTMX).content.decode()
    assert "Set aside for the new wording" in html and "a merge writes it as a new fact" in html
    assert ">Stays<" not in html
    response = client.post(reverse("consolidation:answer", args=[server.guild_id, duplicate.pk]),
                           {"answer": "merge"}, headers=HTMX)
    merged = Fact.objects.get(server=server, content="The server speaks French.")
    keeper, other = Fact.objects.get(pk=duplicate.keeper_id), Fact.objects.get(pk=duplicate.other_id)
    assert response.status_code == 200 and "memory-changed" in response["HX-Trigger"]
    assert (f"Merged: #{keeper.number} and #{other.number} now point to the new #{merged.number}"
            in response.content.decode())
    assert keeper.superseded_by_id == other.superseded_by_id == merged.pk


def test_merging_a_contradiction_over_htmx_is_409_and_changes_nothing(owner, proposed):
    server, _, _ = proposed
    contradiction = Proposal.objects.get(server=server, kind="contradiction")
    response = logged_in_client(owner).post(
        reverse("consolidation:answer", args=[server.guild_id, contradiction.pk]), {"answer": "merge"}, headers=HTMX)
    assert response.status_code == 409 and "never merged" in response.content.decode()
    assert not Fact.objects.filter(retracted_at__isnull=False).exists()


def test_a_bad_answer_is_400_with_a_sentence(owner, proposed):
    server, duplicate, _ = proposed
    response = logged_in_client(owner).post(
        reverse("consolidation:answer", args=[server.guild_id, duplicate.pk]), {"answer": "burn"}, headers=HTMX)
    assert response.status_code == 400 and "Answer with merge" in response.content.decode()
    assert Proposal.objects.get(pk=duplicate.pk).status == ProposalStatus.PENDING


def test_a_proposal_of_another_server_is_404(owner, proposed, other_server):
    _, duplicate, _ = proposed
    response = logged_in_client(owner).post(reverse("consolidation:answer", args=[other_server.guild_id, duplicate.pk]),
                                            {"answer": "merge"}, headers=HTMX)
    assert response.status_code == 404


def test_the_configure_user_names_a_moderator_who_may_then_answer(owner, team, proposed):
    from teams.services import membership_add

    server, duplicate, _ = proposed
    helper = UserFactory(username="helper")
    membership_add(team=team, user=helper)
    url = reverse("consolidation:answer", args=[server.guild_id, duplicate.pk])
    assert logged_in_client(helper).post(url, {"answer": "keep_both"}, headers=HTMX).status_code == 403
    granted = logged_in_client(owner).post(reverse("consolidation:moderators", args=[server.guild_id]),
                                           {"user": helper.pk, "allowed": "1"}, headers=HTMX)
    assert granted.status_code == 200 and "helper may now answer proposals" in granted.content.decode()
    assert logged_in_client(helper).post(url, {"answer": "keep_both"}, headers=HTMX).status_code == 200


def test_only_team_members_can_be_named_moderators(owner, outsider, proposed):
    server, _, _ = proposed
    response = logged_in_client(owner).post(reverse("consolidation:moderators", args=[server.guild_id]),
                                            {"user": outsider.pk, "allowed": "1"}, headers=HTMX)
    assert response.status_code == 403
    assert not outsider.has_perm("teams.review_proposals", server)


def test_the_navigation_badge_counts_waiting_proposals_for_reviewers_only(owner, member, moderator, proposed):
    server, _, _ = proposed
    for user, shown in ((owner, True), (moderator, True), (member, False)):
        html = logged_in_client(user).get(reverse("home")).content.decode()
        assert ('Proposals <span class="badge">2</span>' in html) is shown


def test_answering_a_proposal_redraws_the_navigation_badge_with_what_still_waits(owner, proposed):
    server, duplicate, _ = proposed
    response = logged_in_client(owner).post(reverse("consolidation:answer", args=[server.guild_id, duplicate.pk]),
                                            {"answer": "keep_both"}, headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    badge = html[html.index('<span id="proposals-nav"'):]
    assert 'hx-swap-oob="true"' in badge[:120] and 'Proposals <span class="badge">1</span>' in badge


def test_the_dry_run_counts_pairs_with_real_examples(member, planted):
    server = planted["language"].server
    html = logged_in_client(member).get(reverse("consolidation:dry-run", args=[server.guild_id]),
                                        headers=HTMX).content.decode()
    assert "propose 1 duplicate merges and 1 contradiction flags" in html
    assert "Server language: French" in html and "12 July" in html


# After switching away from Consolidated ------------------------------------------------


def memory_page(client, server) -> str:
    return client.get(reverse("memory:page"), {"server": server.guild_id}).content.decode()


def switch(server, owner, memory_type: str) -> None:
    from memory.configuration.services import memory_type_set

    memory_type_set(server=server, actor=owner, memory_type=memory_type)


@pytest.mark.parametrize("memory_type", ["ranked", "classic"])
def test_after_a_switch_away_waiting_proposals_stay_on_the_memory_page_where_the_badge_links(
        owner, moderator, proposed, memory_type):
    server, duplicate, _ = proposed
    switch(server, owner, memory_type)
    client = logged_in_client(moderator)
    html = memory_page(client, server)
    review_url = reverse("consolidation:review", args=[server.guild_id])
    assert 'Proposals <span class="badge">2</span>' in html
    assert f'href="{reverse("memory:page")}?server={server.guild_id}#consolidation"' in html
    assert 'id="consolidation"' in html and f'hx-get="{review_url}"' in html
    block = client.get(review_url, headers=HTMX).content.decode()
    assert "no longer Consolidated or Semantic" in block and "Run a round now" not in block
    assert "Merge the other way" in block and "Use draft" in block
    response = client.post(reverse("consolidation:answer", args=[server.guild_id, duplicate.pk]),
                           {"answer": "merge"}, headers=HTMX)
    assert response.status_code == 200  # a merge is a supersession, fine under any type
    assert Fact.objects.get(pk=duplicate.other_id).superseded_by_id == duplicate.keeper_id
    assert 'Proposals <span class="badge">1</span>' in memory_page(client, server)


def test_a_waiting_summary_draft_alone_keeps_the_block_until_it_is_answered(owner, proposed):
    server, _, draft = proposed
    client = logged_in_client(owner)
    for proposal in Proposal.objects.filter(server=server, status=ProposalStatus.PENDING):
        client.post(reverse("consolidation:answer", args=[server.guild_id, proposal.pk]), {"answer": "keep_both"},
                    headers=HTMX)
    switch(server, owner, "ledger")
    html = memory_page(client, server)
    assert 'id="consolidation"' in html and "Proposals <span" not in html
    client.post(reverse("consolidation:draft-answer", args=[server.guild_id, draft.pk]), {"answer": "keep"},
                headers=HTMX)
    assert 'id="consolidation"' not in memory_page(client, server)


def test_under_another_type_a_round_cannot_be_started(owner, proposed):
    server, _, _ = proposed
    switch(server, owner, "ranked")
    response = logged_in_client(owner).post(reverse("consolidation:round-start", args=[server.guild_id]),
                                            headers=HTMX)
    assert response.status_code == 409 and "Rounds run only under Consolidated and Semantic" in \
        response.content.decode()
    assert ConsolidationRound.objects.filter(server=server).count() == 1


def test_retracting_one_side_offers_a_restore_that_puts_it_back(owner, proposed):
    server, _, _ = proposed
    contradiction = Proposal.objects.get(server=server, kind="contradiction")
    client = logged_in_client(owner)
    page = client.post(reverse("consolidation:answer", args=[server.guild_id, contradiction.pk]),
                       {"answer": "retract_keeper"}, headers=HTMX).content.decode()
    keeper = Fact.objects.get(pk=contradiction.keeper_id)
    assert keeper.retracted_at is not None
    restore_url = reverse("memory:fact-restore", args=[server.guild_id, keeper.number])
    assert f'hx-post="{restore_url}"' in page and f"Restore #{keeper.number}</button>" in page
    answer = client.post(restore_url, headers=HTMX).content.decode()
    assert Fact.objects.get(pk=keeper.pk).retracted_at is None
    assert f"Fact #{keeper.number} restored" in answer


def test_a_moderator_who_may_not_restore_gets_no_restore_button(moderator, proposed):
    server, _, _ = proposed
    contradiction = Proposal.objects.get(server=server, kind="contradiction")
    page = logged_in_client(moderator).post(reverse("consolidation:answer", args=[server.guild_id, contradiction.pk]),
                                            {"answer": "retract_other"}, headers=HTMX).content.decode()
    assert "Retracted #" in page
    assert "memory:fact-restore" not in page and "/restore" not in page
