"""A fact's kind on the memory page: on every row, chosen when staff add a fact and changed when they edit one; a kind
outside the five is told beside the field and nothing is saved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from memory.models import Fact, Kind
from teams.models import AuditEntry
from tests.conftest import logged_in_client
from tests.factories import make_fact

HTMX = {"HX-Request": "true"}
NEW_FACT = {"key": "no_public_support", "content": "Do not give support in public channels.", "confidence": "1",
            "scope": "server", "member_id": ""}
KIND_ERROR = "The kind must be &#x27;rule&#x27;, &#x27;lore&#x27;, &#x27;profile&#x27;, &#x27;preference&#x27; or " \
             "&#x27;event&#x27;."


def create(client, server, **change):
    return client.post(reverse("memory:fact-create", args=[server.guild_id]), {**NEW_FACT, **change}, headers=HTMX)


def edit(client, fact, **change):
    data = {"key": fact.key, "content": fact.content, "confidence": "1", "version": str(fact.version), **change}
    return client.post(reverse("memory:fact", args=[fact.server.guild_id, fact.number]), data, headers=HTMX)


def test_every_row_names_its_kind(member, server):
    make_fact(server, key="raid_night", content="Raid night is Thursday.", kind="event")
    make_fact(server, key="paul_birthday", content="Paul's birthday is May 3.", scope="member",
              member_id="200000000000000011")
    page = logged_in_client(member).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert 'class="badge badge-kind kind-event"' in page and ">Event</span>" in page
    assert 'class="badge badge-kind kind-profile"' in page and ">Profile</span>" in page


@pytest.mark.parametrize("kind", Kind.values)
def test_staff_choose_the_kind_when_they_add_a_fact(owner, server, kind):
    response = create(logged_in_client(owner), server, kind=kind)
    assert response.status_code == 200
    assert Fact.objects.get(server=server).kind == kind


@pytest.mark.parametrize("scope, member_id, expected", [("server", "", "lore"),
                                                         ("member", "200000000000000021", "profile")])
def test_a_fact_added_without_a_kind_takes_what_it_is_about(owner, server, scope, member_id, expected):
    response = create(logged_in_client(owner), server, scope=scope, member_id=member_id, kind="")
    assert response.status_code == 200
    assert Fact.objects.get(server=server).kind == expected


def test_the_add_form_offers_the_five_kinds_and_the_default(owner, server):
    page = logged_in_client(owner).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    form = page[page.index('<form id="fact-create"'):]
    form = form[:form.index("</form>")]
    for kind in Kind.values:
        assert f'<option value="{kind}">' in form
    assert '<option value="" selected>by what it is about' in form
    assert "never age" in form  # what the kinds mean, beside the field


def test_an_unknown_kind_in_the_add_form_is_told_beside_the_field_and_nothing_is_saved(owner, server):
    response = create(logged_in_client(owner), server, kind="gossip")
    page = response.content.decode()
    assert response.status_code == 422
    assert KIND_ERROR in page
    assert page.index('name="kind"') < page.index(KIND_ERROR)
    assert not Fact.objects.filter(server=server).exists()
    assert not AuditEntry.objects.filter(server=server, action="fact.create").exists()


def test_the_edit_form_holds_the_facts_kind(owner, server):
    fact = make_fact(server, kind="preference")
    page = logged_in_client(owner).get(reverse("memory:fact-edit", args=[server.guild_id, fact.number]),
                                       headers=HTMX).content.decode()
    assert '<option value="preference" selected>' in page
    assert '<option value="">' not in page  # an edit has no "default": the fact has a kind


def test_editing_changes_the_kind(owner, server):
    fact = make_fact(server, kind="lore")
    response = edit(logged_in_client(owner), fact, kind="rule")
    assert response.status_code == 200
    assert ">Rule</span>" in response.content.decode()
    assert Fact.objects.get(pk=fact.pk).kind == "rule"


def test_an_edit_that_does_not_send_the_kind_leaves_it_as_it_is(owner, server):
    fact = make_fact(server, kind="event")
    assert edit(logged_in_client(owner), fact).status_code == 200
    assert Fact.objects.get(pk=fact.pk).kind == "event"


def test_an_unknown_kind_in_an_edit_is_told_and_nothing_is_saved(owner, server):
    fact = make_fact(server, kind="event")
    response = edit(logged_in_client(owner), fact, kind="gossip", content="Changed.")
    assert response.status_code == 422
    assert KIND_ERROR in response.content.decode()
    stored = Fact.objects.get(pk=fact.pk)
    assert (stored.kind, stored.content, stored.version) == ("event", fact.content, 1)
