"""Importance on the memory page: staff see it on every row and configure users set or clear it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from memory.models import Fact
from teams.models import AuditEntry
from tests.conftest import logged_in_client
from tests.factories import make_fact

HTMX = {"HX-Request": "true"}
UNSCORED_MESSAGE = "The importance must be a number from 0 to 1, or empty for unscored."


@pytest.fixture
def fact(server):
    return make_fact(server, key="server_rules", content="Be kind to newcomers.", confidence=0.9, importance=0.4)


def edit(client, fact, **changes):
    data = {"key": fact.key, "content": fact.content, "confidence": str(fact.confidence),
            "importance": "" if fact.importance is None else str(fact.importance), "version": str(fact.version),
            **changes}
    return client.post(reverse("memory:fact", args=[fact.server.guild_id, fact.number]), data, headers=HTMX)


def stored(fact) -> tuple:
    row = Fact.objects.get(pk=fact.pk)
    return row.key, row.content, row.confidence, row.importance, row.version


def test_every_row_shows_the_importance_or_that_it_is_unscored(member, server, fact):
    make_fact(server, key="server_theme", content="Retro gaming.")
    page = logged_in_client(member).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert "importance 0.40" in page
    assert "importance unscored" in page


def test_the_edit_form_holds_the_stored_importance(owner, fact):
    page = logged_in_client(owner).get(reverse("memory:fact-edit", args=[fact.server.guild_id, fact.number]),
                                       headers=HTMX).content.decode()
    assert 'name="importance" value="0.4"' in page


def test_a_configure_user_sets_the_importance(owner, fact):
    response = edit(logged_in_client(owner), fact, importance="0.85")
    assert response.status_code == 200
    assert "importance 0.85" in response.content.decode()
    assert stored(fact)[3:] == (0.85, 2)
    assert AuditEntry.objects.filter(server=fact.server, action="fact.edit", target_ids=[fact.number]).exists()


def test_an_empty_importance_makes_the_fact_unscored(owner, fact):
    response = edit(logged_in_client(owner), fact, importance="")
    assert response.status_code == 200
    assert "importance unscored" in response.content.decode()
    assert stored(fact)[3] is None


@pytest.mark.parametrize("importance", ["1.5", "-0.1", "high", "nan", "inf", "1e309"])
def test_an_importance_outside_0_to_1_is_refused_with_a_sentence_and_nothing_changes(owner, fact, importance):
    before = stored(fact)
    response = edit(logged_in_client(owner), fact, content="A new wording.", importance=importance)
    assert response.status_code == 422
    assert UNSCORED_MESSAGE in response.content.decode()
    assert stored(fact) == before
    assert not AuditEntry.objects.filter(server=fact.server, action="fact.edit").exists()


def test_a_viewer_may_not_change_the_importance(member, fact):
    before = stored(fact)
    assert edit(logged_in_client(member), fact, importance="1").status_code == 403
    assert stored(fact) == before


def test_another_teams_user_gets_404_and_changes_nothing(outsider, fact):
    before = stored(fact)
    assert edit(logged_in_client(outsider), fact, importance="1").status_code == 404
    assert stored(fact) == before


def test_an_anonymous_visitor_changes_nothing(client, fact):
    before = stored(fact)
    response = edit(client, fact, importance="1")
    assert response.status_code == 401  # an HTMX request: no login page swapped into the row
    assert stored(fact) == before


def test_a_new_fact_may_carry_an_importance(owner, server):
    response = logged_in_client(owner).post(
        reverse("memory:fact-create", args=[server.guild_id]),
        {"key": "server_rules", "content": "Be kind.", "confidence": "1", "importance": "0.9", "scope": "server",
         "member_id": ""}, headers=HTMX)
    assert response.status_code == 200
    assert Fact.objects.get(server=server).importance == 0.9


def test_a_new_fact_with_a_bad_importance_is_refused(owner, server):
    response = logged_in_client(owner).post(
        reverse("memory:fact-create", args=[server.guild_id]),
        {"key": "server_rules", "content": "Be kind.", "confidence": "1", "importance": "2", "scope": "server",
         "member_id": ""}, headers=HTMX)
    assert response.status_code == 422
    assert UNSCORED_MESSAGE in response.content.decode()
    assert not Fact.objects.filter(server=server).exists()
