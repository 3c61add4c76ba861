"""The summary's earlier wordings: linked from the summary block, listed with when, by whom and what they said.
Who may open the page (anonymous, outsider, viewer, configure) is in test_view_permissions.MATRIX."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from consolidation.models import ConsolidationRound, RoundStatus, RoundTrigger, SummaryDraft
from consolidation.services import summary_draft_answer
from memory.facts.services import FactAuthor
from memory.facts.summary import summary_set
from memory.models import Summary
from tests.conftest import logged_in_client

HTMX = {"HX-Request": "true"}


def history_url(server) -> str:
    return reverse("memory:summary-history", args=[server.guild_id])


def shown(moment) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")


def versions_of(page: str) -> list[str]:
    """Each listed version as one line of text, newest first."""
    items = re.findall(r'<li class="card summary-version[^"]*"[^>]*>(.*?)</li>', page, flags=re.S)
    return [" ".join(re.sub(r"<[^>]+>", "", item).split()) for item in items]


@pytest.fixture
def three_wordings(server, owner, moderator):
    first = summary_set(server=server, content="A retro gaming server.", author=FactAuthor.staff(owner))
    second = summary_set(server=server, content="Retro games and arcade cabinets.", author=FactAuthor.staff(moderator))
    third = summary_set(server=server, content="Retro games, arcade cabinets, Saturday tournaments.",
                        author=FactAuthor.staff(owner))
    return [Summary.objects.get(pk=summary.pk) for summary in (first, second, third)]


def test_the_summary_block_links_to_the_earlier_wordings_with_their_count(member, server, three_wordings):
    block = logged_in_client(member).get(reverse("memory:summary", args=[server.guild_id])).content.decode()
    assert f'<a href="{history_url(server)}">Earlier wordings (2)</a>' in block


def test_the_memory_page_shows_the_same_link(member, server, three_wordings):
    page = logged_in_client(member).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert f'<a href="{history_url(server)}">Earlier wordings (2)</a>' in page


def test_a_summary_never_rewritten_has_no_history_link(member, server, owner):
    summary_set(server=server, content="A retro gaming server.", author=FactAuthor.staff(owner))
    block = logged_in_client(member).get(reverse("memory:summary", args=[server.guild_id])).content.decode()
    assert "Earlier wordings" not in block


def test_a_viewer_reads_every_wording_newest_first_with_when_and_by_whom(member, server, three_wordings):
    first, second, third = three_wordings
    response = logged_in_client(member).get(history_url(server))
    assert response.status_code == 200
    assert "<html" in response.content.decode()
    assert versions_of(response.content.decode()) == [
        f"Current, since {shown(third.created_at)} · written by owner "
        "Retro games, arcade cabinets, Saturday tournaments.",
        f"In use from {shown(second.created_at)} until {shown(second.retracted_at)} · written by moderator "
        "Retro games and arcade cabinets.",
        f"In use from {shown(first.created_at)} until {shown(first.retracted_at)} · written by owner "
        "A retro gaming server.",
    ]


def test_a_wording_taken_from_a_consolidation_draft_names_the_round_and_who_accepted_it(server, owner, member):
    summary_set(server=server, content="A retro gaming server.", author=FactAuthor.staff(owner))
    round_ = ConsolidationRound.objects.create(server=server, trigger=RoundTrigger.QUIET, status=RoundStatus.FINISHED)
    draft = SummaryDraft.objects.create(server=server, round=round_, content="Retro games and Saturday tournaments.\n")
    summary_draft_answer(draft=draft, actor=owner, use=True)
    # The same words saved again by hand later are the owner's own edit, not the round's.
    summary_set(server=server, content="Retro games and Saturday tournaments.", author=FactAuthor.staff(owner))
    versions = versions_of(logged_in_client(member).get(history_url(server)).content.decode())
    assert "written by owner" in versions[0]
    drafted = f"drafted by consolidation round #{round_.pk} of {shown(round_.created_at)}, accepted by owner"
    assert drafted in versions[1]
    assert "written by owner" in versions[2] and "consolidation" not in versions[2]


def test_a_draft_whose_round_is_gone_still_says_it_came_from_consolidation(server, owner, member):
    draft = SummaryDraft.objects.create(server=server, round=None, content="Retro games.")
    summary_draft_answer(draft=draft, actor=owner, use=True)
    versions = versions_of(logged_in_client(member).get(history_url(server)).content.decode())
    assert versions[0].endswith("drafted by a consolidation round, accepted by owner Retro games.")


def test_a_cleared_summary_is_listed_as_empty(member, server, owner):
    summary_set(server=server, content="A retro gaming server.", author=FactAuthor.staff(owner))
    summary_set(server=server, content="", author=FactAuthor.staff(owner))
    versions = versions_of(logged_in_client(member).get(history_url(server)).content.decode())
    assert versions[0].endswith("Empty: the summary was cleared.")
    assert versions[1].endswith("A retro gaming server.")


def test_wordings_by_the_bot_and_by_a_deleted_user_say_so(member, server, owner):
    summary_set(server=server, content="Written by the bot.", author=FactAuthor.bot("200000000000000011"))
    summary_set(server=server, content="Written by someone since deleted.", author=FactAuthor.staff(owner))
    owner.delete()
    versions = versions_of(logged_in_client(member).get(history_url(server)).content.decode())
    assert "written by a former staff member" in versions[0]
    assert "written by the bot" in versions[1]


def test_without_any_summary_the_page_says_so(member, server):
    page = logged_in_client(member).get(history_url(server)).content.decode()
    assert "No summary has been written yet." in page


def test_long_histories_page_by_id_and_htmx_gets_only_the_older_rows(member, server, owner):
    for index in range(25):
        summary_set(server=server, content=f"Wording {index}.", author=FactAuthor.staff(owner))
    client = logged_in_client(member)
    first = client.get(history_url(server)).content.decode()
    assert [version.split()[-1] for version in versions_of(first)] == [f"{index}." for index in range(24, 4, -1)]
    older = re.search(r'<a href="(\?before=\d+)" hx-get', first).group(1)
    response = client.get(history_url(server) + older, headers=HTMX)
    rest = response.content.decode()
    assert response.status_code == 200 and "<html" not in rest
    assert [version.split()[-1] for version in versions_of(rest)] == [f"{index}." for index in range(4, -1, -1)]
    assert "Older wordings" not in rest


@pytest.mark.parametrize("before", ["abc", "²", "99999999999999999999999"])
def test_an_odd_older_link_shows_the_first_page(member, server, owner, before):
    summary_set(server=server, content="A retro gaming server.", author=FactAuthor.staff(owner))
    response = logged_in_client(member).get(history_url(server), {"before": before})
    assert response.status_code == 200
    assert len(versions_of(response.content.decode())) == 1


def test_markup_in_an_earlier_wording_is_shown_as_text(member, server, owner):
    summary_set(server=server, content='Retro <script>alert("x")</script> games.', author=FactAuthor.staff(owner))
    summary_set(server=server, content="Retro games.", author=FactAuthor.staff(owner))
    page = logged_in_client(member).get(history_url(server)).content.decode()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert "<script>alert" not in page


def test_another_servers_wordings_and_drafts_never_show(member, server, other_server, owner, three_wordings):
    """other_server belongs to another team: the page lists this server's wordings only, and its own address
    answers 404 to this team's viewer."""
    summary_set(server=other_server, content="Another team's secret plans.", author=FactAuthor.staff(owner))
    summary_set(server=other_server, content="Another team's newer plans.", author=FactAuthor.staff(owner))
    page = logged_in_client(member).get(history_url(server)).content.decode()
    assert len(versions_of(page)) == 3 and "Another team" not in page
    assert logged_in_client(member).get(history_url(other_server)).status_code == 404
