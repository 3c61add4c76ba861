"""The home page lists exactly the servers a user can see."""

from __future__ import annotations

from django.urls import reverse

from memory.demo.data import DEMO_FACTS
from tests.conftest import logged_in_client
from tests.factories import make_fact


def test_anonymous_visitor_is_sent_to_the_login_page(client, server):
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_outsider_does_not_see_another_teams_server(outsider, server):
    response = logged_in_client(outsider).get(reverse("home"))
    assert response.status_code == 200
    assert "Retro Arcade" not in response.content.decode()
    assert "Synth Lab" in response.content.decode()


def test_viewer_sees_the_teams_server_without_configure(member, server):
    make_fact(server, key=DEMO_FACTS[0]["key"], content=DEMO_FACTS[0]["content"])
    response = logged_in_client(member).get(reverse("home"))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Retro Arcade" in page
    assert response.context["server_rows"][0]["facts_in_force"] == 1
    assert response.context["server_rows"][0]["can_configure"] is False


def test_configure_user_sees_the_server_marked_configurable(owner, server):
    response = logged_in_client(owner).get(reverse("home"))
    assert response.context["server_rows"][0]["server"] == server
    assert response.context["server_rows"][0]["can_configure"] is True
    assert "configure" in response.content.decode()


def test_user_without_team_is_told_how_to_get_access(db):
    from tests.factories import UserFactory

    response = logged_in_client(UserFactory()).get(reverse("home"))
    assert "adds you to a team" in response.content.decode()


def test_home_refuses_post(member):
    response = logged_in_client(member).post(reverse("home"))
    assert response.status_code == 405
