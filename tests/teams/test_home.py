"""The home page lists exactly the servers a user can see, by name, with a filter box and their facts counted
as the memory page counts them."""

from __future__ import annotations

import re

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from memory.demo.data import DEMO_FACTS
from memory.facts import listing
from teams.services import membership_add
from tests.conftest import logged_in_client
from tests.factories import make_fact, make_server, make_team

LIST_ONLY = {"HX-Request": "true", "HX-Target": "server-list"}


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
    assert response.context["server_rows"][0]["facts_in_force"] == "1"
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


def test_an_anonymous_filter_request_gets_401_with_hx_redirect_never_a_302(client, server):
    response = client.get(reverse("home"), {"q": "retro"}, headers=LIST_ONLY)
    assert response.status_code == 401
    assert response["HX-Redirect"].startswith(reverse("login"))


def server_names(page: str) -> list[str]:
    return re.findall(r'<h2 class="server-name"><a [^>]*>([^<]+)</a>', page)


def test_servers_are_listed_by_name_whatever_their_case_or_the_order_they_were_added(member, team, server):
    for name in ("zine club", "Arcade Annex", "Mod Room"):
        make_server(team, name=name)
    page = logged_in_client(member).get(reverse("home")).content.decode()
    assert server_names(page) == ["Arcade Annex", "Mod Room", "Retro Arcade", "zine club"]


def test_the_filter_keeps_servers_whose_name_team_or_guild_id_matches_and_keeps_what_was_typed(member, team, server):
    make_server(team, name="Mod Room", guild_id="555000000000000001")
    make_server(team, name="Speedrun Hub", guild_id="555000000000000002")
    elsewhere = make_team("Pinball crew")
    membership_add(team=elsewhere, user=member)
    make_server(elsewhere, name="Flipper Lounge")
    client = logged_in_client(member)
    assert server_names(client.get(reverse("home"), {"q": "ROOM"}).content.decode()) == ["Mod Room"]
    assert server_names(client.get(reverse("home"), {"q": "pinball"}).content.decode()) == ["Flipper Lounge"]
    assert server_names(client.get(reverse("home"), {"q": "555"}).content.decode()) == ["Mod Room", "Speedrun Hub"]
    assert server_names(client.get(reverse("home"), {"q": "arcade staff"}).content.decode()) == [
        "Mod Room", "Retro Arcade", "Speedrun Hub"]
    page = client.get(reverse("home"), {"q": "  retro "}).content.decode()
    assert server_names(page) == ["Retro Arcade"]
    assert 'name="q" value="retro"' in page  # a reload or a shared address shows the box as it was
    assert "1 of 4 servers" in page


def test_the_filter_box_as_you_type_gets_the_list_alone(member, team, server):
    make_server(team, name="Mod Room")
    response = logged_in_client(member).get(reverse("home"), {"q": "mod"}, headers=LIST_ONLY)
    page = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in page and 'id="id_server_filter"' not in page
    assert page.lstrip().startswith('<div id="server-list">')
    assert server_names(page) == ["Mod Room"]


def test_the_filter_box_falls_back_to_a_plain_form_without_script(member, server):
    page = logged_in_client(member).get(reverse("home")).content.decode()
    form = re.search(r"<form [^>]*server-filter[^>]*>", page).group(0)
    assert 'method="get"' in form and f'action="{reverse("home")}"' in form
    assert f'hx-get="{reverse("home")}"' in form


def test_a_filter_that_matches_nothing_says_so_and_keeps_the_box(member, server):
    page = logged_in_client(member).get(reverse("home"), {"q": "zzz"}).content.decode()
    assert "No server, team or guild id matches “zzz”." in page
    assert 'id="id_server_filter"' in page
    assert "adds you to a team" not in page


def test_a_large_server_shows_the_planners_estimate_and_its_facts_are_never_counted(member, server, monkeypatch):
    """Above EXACT_COUNT_LIMIT the memory page shows the planner's estimate; so does the home page, where counting a
    million facts took 300 ms. The limit is lowered here so that four facts are "many"."""
    monkeypatch.setattr(listing, "EXACT_COUNT_LIMIT", 2)
    for index in range(4):
        make_fact(server, key=f"fact_{index}", content=f"Fact number {index}.")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_fact")
    with CaptureQueriesContext(connection) as queries:
        response = logged_in_client(member).get(reverse("home"))
    assert response.context["server_rows"][0]["facts_in_force"] == "about 4"
    assert "about 4" in response.content.decode()
    whole_counts = [query["sql"] for query in queries if "memory_fact" in query["sql"]
                    and "COUNT(" in query["sql"].upper() and "LIMIT" not in query["sql"].upper()]
    assert whole_counts == []


def test_a_small_server_is_counted_exactly_up_to_the_limit(member, server, monkeypatch):
    monkeypatch.setattr(listing, "EXACT_COUNT_LIMIT", 2)
    make_fact(server, key="one", content="One fact.")
    make_fact(server, key="two", content="Two facts.")
    response = logged_in_client(member).get(reverse("home"))
    assert response.context["server_rows"][0]["facts_in_force"] == "2"
