"""Forget-me requests: viewers see the list, configure users wipe the member (what goes counted first) or dismiss the
request; both audited; the memory page says how many wait."""

from __future__ import annotations

import pytest
from django.urls import reverse

from memory.facts.forget_requests import forget_me, forget_request_dismiss
from memory.facts.services import FactAuthor
from memory.models import Exchange, Fact, ForgetRequest, ForgetRequestStatus, ForgetRequestVia
from teams.models import AuditEntry
from tests.conftest import logged_in_client
from tests.factories import make_fact

HTMX = {"HX-Request": "true"}
PAUL, MIA = "200000000000000011", "200000000000000021"


@pytest.fixture
def asked(server):
    """Paul asked in Discord to be forgotten; the bot knows two facts from him and one exchange of his."""
    make_fact(server, key="paul_birthday", content="Paul's birthday is 3 May.", author=FactAuthor.bot(PAUL))
    make_fact(server, key="paul_city", content="Paul lives in Lyon.", scope="member", member_id=PAUL)
    make_fact(server, key="mia_pet", content="Mia has a cat.", author=FactAuthor.bot(MIA))
    Exchange.objects.create(server=server, channel_id="111", author_id=PAUL, message="Forget me", memory_type="classic")
    return forget_me(server=server, member_id=PAUL, member_name="Paul").request


def list_url(server) -> str:
    return reverse("memory:forget-requests", args=[server.guild_id])


def wipe_url(forget_request) -> str:
    return reverse("memory:forget-request-wipe", args=[forget_request.server.guild_id, forget_request.pk])


def dismiss_url(forget_request) -> str:
    return reverse("memory:forget-request-dismiss", args=[forget_request.server.guild_id, forget_request.pk])


def row_of(page: str, forget_request) -> str:
    start = page.rindex("<li", 0, page.index(f'id="forget-request-{forget_request.pk}"'))
    return page[start:page.index("</li>", start)]


def test_a_viewer_sees_who_asked_when_and_how_without_buttons(member, asked):
    response = logged_in_client(member).get(list_url(asked.server))
    page = response.content.decode()
    assert response.status_code == 200 and "<html" in page
    row = row_of(page, asked)
    assert "<strong>Paul</strong>" in row and f"({PAUL})" in row and "via Discord (/memory forget-me)" in row
    assert "Waiting for staff</span>" in row
    assert "Wipe…" not in row and "Dismiss" not in row
    assert "File a request for staff to act on" in page  # the server's AI setting


def test_a_configure_user_gets_wipe_and_dismiss_with_links_that_work_without_script(owner, asked):
    row = row_of(logged_in_client(owner).get(list_url(asked.server)).content.decode(), asked)
    assert f'href="{wipe_url(asked)}" hx-get="{wipe_url(asked)}"' in row
    assert f'method="post" action="{dismiss_url(asked)}" hx-post="{dismiss_url(asked)}"' in row


def test_the_memory_page_links_the_requests_with_the_number_waiting(member, asked, server):
    forget_me(server=server, member_id=MIA, member_name="Mia", via=ForgetRequestVia.API)
    page = logged_in_client(member).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert f'href="{list_url(server)}">Forget-me requests <span class="badge"' in page
    assert ">2 waiting</span>" in page


def test_the_memory_page_links_the_requests_without_a_count_when_none_waits(member, server):
    page = logged_in_client(member).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert f'href="{list_url(server)}">Forget-me requests</a>' in page


def test_wiping_shows_what_goes_first(owner, asked):
    response = logged_in_client(owner).get(wipe_url(asked), headers=HTMX)
    page = response.content.decode()
    assert response.status_code == 200 and "<html" not in page
    assert page.lstrip().startswith(f'<li class="card forget-request is-confirming" id="forget-request-{asked.pk}"')
    assert "<strong>2 facts</strong> about them or learned from their messages" in page
    assert "<strong>1 exchange</strong> of theirs" in page
    assert "Wipe 2 facts and 1 exchange</button>" in page
    assert Fact.objects.count() == 3


def test_without_htmx_the_count_is_a_page_of_its_own(owner, asked):
    page = logged_in_client(owner).get(wipe_url(asked)).content.decode()
    assert "<html" in page and "Wipe 2 facts and 1 exchange</button>" in page and "hx-post" not in page


def test_confirming_wipes_the_member_records_the_answer_and_audits_it(owner, asked):
    response = logged_in_client(owner).post(wipe_url(asked), headers=HTMX)
    page = response.content.decode()
    assert response.status_code == 200
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#forget-requests", "outerHTML")
    assert page.lstrip().startswith('<section id="forget-requests">')
    assert f'<p class="message" role="status">Wiped member {PAUL}: 2 facts removed.</p>' in page
    answered = page[page.index('id="forget-requests-answered"'):]
    assert f'id="forget-request-{asked.pk}"' in answered and "Wiped by owner" in answered
    assert "No request is waiting." in page
    assert list(Fact.objects.values_list("key", flat=True)) == ["mia_pet"]
    asked.refresh_from_db()
    assert (asked.status, asked.handled_by, asked.facts_removed) == (ForgetRequestStatus.WIPED, owner, 2)
    assert AuditEntry.objects.get(action="memory.wipe_member").actor == owner


def test_dismissing_deletes_nothing_and_is_audited(owner, asked):
    response = logged_in_client(owner).post(dismiss_url(asked), headers=HTMX)
    assert response.status_code == 200
    assert "Dismissed by owner" in response.content.decode()
    assert Fact.objects.count() == 3
    asked.refresh_from_db()
    assert asked.status == ForgetRequestStatus.DISMISSED
    assert AuditEntry.objects.get(action="memory.forget_request_dismiss").result == \
        f"request of member {PAUL} (Paul) dismissed"


def test_without_htmx_an_answer_goes_back_to_the_list_saying_what_was_done(owner, asked):
    client = logged_in_client(owner)
    response = client.post(wipe_url(asked))
    assert response.status_code == 302 and response["Location"] == list_url(asked.server)
    page = client.get(list_url(asked.server)).content.decode()
    assert f"Wiped member {PAUL}: 2 facts removed." in page
    assert 'id="forget-requests-answered"' in page and "No request is waiting." in page


def test_a_request_someone_answered_meanwhile_is_not_answered_twice(owner, asked):
    forget_request_dismiss(request=asked, actor=owner)
    client = logged_in_client(owner)
    wiped = client.post(wipe_url(asked), headers=HTMX)
    assert wiped.status_code == 409
    assert "This request was already answered (Dismissed)." in wiped.content.decode()
    assert Fact.objects.count() == 3
    assert client.get(wipe_url(asked), headers=HTMX).status_code == 409
    assert client.post(dismiss_url(asked), headers=HTMX).status_code == 409


def test_a_request_of_another_server_is_404(owner, other_server):
    theirs = forget_me(server=other_server, member_id=PAUL).request
    client = logged_in_client(owner)
    url = reverse("memory:forget-request-wipe", args=["100000000000000001", theirs.pk])
    assert client.post(url, headers=HTMX).status_code == 404
    assert ForgetRequest.objects.get(pk=theirs.pk).status == ForgetRequestStatus.OPEN


def test_the_list_as_an_htmx_fragment(member, asked):
    page = logged_in_client(member).get(list_url(asked.server), headers=HTMX).content.decode()
    assert page.lstrip().startswith('<section id="forget-requests">') and "<html" not in page


@pytest.mark.parametrize("user", ["member", "moderator"])
def test_viewers_and_moderators_read_the_list_but_answer_nothing(request, asked, user):
    client = logged_in_client(request.getfixturevalue(user))
    assert client.get(list_url(asked.server)).status_code == 200
    assert client.get(wipe_url(asked)).status_code == 403
    assert client.post(wipe_url(asked), headers=HTMX).status_code == 403
    assert client.post(dismiss_url(asked), headers=HTMX).status_code == 403
    asked.refresh_from_db()
    assert asked.status == ForgetRequestStatus.OPEN and Fact.objects.count() == 3


def test_an_outsider_gets_404_and_an_anonymous_visitor_the_login_page(client, outsider, asked):
    outsider_client = logged_in_client(outsider)
    for url in (list_url(asked.server), wipe_url(asked)):
        assert outsider_client.get(url).status_code == 404
    assert outsider_client.post(dismiss_url(asked)).status_code == 404
    assert client.get(list_url(asked.server))["Location"].startswith(reverse("login"))
    assert client.post(wipe_url(asked), headers=HTMX).status_code == 401
    asked.refresh_from_db()
    assert asked.status == ForgetRequestStatus.OPEN


def test_wrong_methods_are_405(owner, asked):
    client = logged_in_client(owner)
    assert client.post(list_url(asked.server)).status_code == 405
    assert client.get(dismiss_url(asked)).status_code == 405
    assert client.put(wipe_url(asked)).status_code == 405
