"""Who may open which memory URL: every URL of memory/panel/urls.py for anonymous, outsider, member, moderator and
owner."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.urls import reverse

from memory.facts.services import fact_retract, fact_update
from memory.models import Exchange, ForgetRequest, LearningRun
from memory.panel import urls as memory_urls
from tests.conftest import logged_in_client
from tests.factories import UserFactory, make_fact

GUILD = "100000000000000001"  # the `server` fixture of tests/conftest.py
SERVER = {"guild_id": GUILD}
FACT_IN_FORCE = {"guild_id": GUILD, "number": 1}
FACT_RETRACTED = {"guild_id": GUILD, "number": 2}
FACT_EDITED = {"guild_id": GUILD, "number": 3}  # a staff edit made it version 2, which can be undone
EDIT_OF_FACT_EDITED = {**FACT_EDITED, "version": 2}
EXCHANGE_ID = "5f0c6a52-1d2e-4c3b-9a8f-0123456789ab"
EXCHANGE = {"guild_id": GUILD, "exchange_id": EXCHANGE_ID}
FORGET_REQUEST_ID = 7
FORGET_REQUEST = {"guild_id": GUILD, "request_id": FORGET_REQUEST_ID}
LEARNING_RUN_ID = "7a1d3c9e-4b2f-4e6a-8c0d-0123456789ab"
LEARNING_RUN = {"guild_id": GUILD, "run_id": LEARNING_RUN_ID}
SETTINGS_FORM = {
    "max_injected_items": "25", "weight_recency": "1", "weight_importance": "1", "weight_relevance": "1",
    "read_all_channels": "on", "write_all_channels": "on", "exchange_log_days": "90", "forget_me_mode": "request",
    **{f"{purpose}-{name}": "" for purpose in ("reply", "consolidation", "embedding")
       for name in ("base_url", "model_name", "api_key")},
    **{f"learning-{name}": "" for name in ("base_url", "model_name", "api_key")},
}


@dataclass(frozen=True)
class Route:
    name: str  # URL name in the memory namespace
    kwargs: dict
    method: str
    # Needs the configure permission: it changes things, shows the form that changes them (edit, delete
    # confirmation, wipe, purge, a forget-me request's wipe, restore all, summary edit), runs the real reply
    # pipeline, which writes (playground), or names who changed what (audit log).
    changes: bool
    data: dict = field(default_factory=dict)  # query string of a GET, a valid body of a POST
    owner_status: int = 200  # what the owner gets: 200, or 302 after a successful POST that redirects


MATRIX: list[Route] = [
    Route("page", {}, "GET", False, {"server": GUILD}),
    Route("content-hint", {}, "GET", False, {"content": "The tournament is on Saturday."}),
    Route("types-doc", {}, "GET", False),
    Route("facts-bulk", SERVER, "POST", True, {"action": "kind", "kind": "rule", "numbers": ["1"]}, owner_status=302),
    Route("fact-create", SERVER, "POST", True,
          {"key": "tournament_day", "content": "The tournament is on Saturday.", "confidence": "1.0",
           "scope": "server", "member_id": ""}),
    Route("fact", FACT_IN_FORCE, "GET", False),
    Route("fact", FACT_IN_FORCE, "POST", True,
          {"key": "server_theme", "content": "Retro and indie games.", "confidence": "0.9", "version": "1"}),
    Route("fact-edit", FACT_IN_FORCE, "GET", True),
    Route("fact-delete", FACT_IN_FORCE, "GET", True),
    Route("fact-delete", FACT_IN_FORCE, "POST", True, owner_status=302),
    Route("fact-restore", FACT_RETRACTED, "GET", True),
    Route("fact-restore", FACT_RETRACTED, "POST", True),
    # The matrix's server is Classic, which deletes a fact that no longer holds: the owner is told so (422).
    Route("fact-retract", FACT_IN_FORCE, "GET", True, owner_status=422),
    Route("fact-retract", FACT_IN_FORCE, "POST", True, {"reason": "Wrong: the bot misread a joke"}, owner_status=422),
    Route("fact-history", FACT_IN_FORCE, "GET", False),
    Route("fact-version-undo", EDIT_OF_FACT_EDITED, "POST", True),
    Route("fact-audience", FACT_IN_FORCE, "POST", True, {"audience": "staff"}),
    Route("fact-pin", FACT_IN_FORCE, "POST", True, {"pinned": "true"}),
    Route("pinned", SERVER, "GET", False),
    Route("summary", SERVER, "GET", False),
    Route("summary", SERVER, "POST", True, {"content": "A friendly retro gaming server."}),
    Route("summary-edit", SERVER, "GET", True),
    Route("summary-history", SERVER, "GET", False),
    Route("memory-type", SERVER, "GET", False),
    Route("memory-type", SERVER, "POST", True, {"memory_type": "ledger"}, owner_status=302),
    Route("ranked-dry-run", SERVER, "GET", False, {"message": "When is the tournament?"}),
    Route("context-dry-run", SERVER, "GET", False,
          {"message": "When is my birthday?", "member_id": "200000000000000011", "member_name": "Paul"}),
    Route("restore-all", SERVER, "GET", True),
    Route("restore-all", SERVER, "POST", True, owner_status=302),
    Route("wipe", SERVER, "GET", True),
    Route("wipe", SERVER, "POST", True, {"target": "server", "member_id": "", "confirmation": "Retro Arcade"},
          owner_status=302),
    Route("purge", SERVER, "GET", True),
    Route("purge", SERVER, "POST", True, {"source": "channel", "channel": "111"}, owner_status=302),
    # Export and import: the page, the download (staff-only facts too) and the import (no file chosen: told so).
    Route("transfer", SERVER, "GET", True),
    Route("export", SERVER, "POST", True),
    Route("import", SERVER, "POST", True, owner_status=422),
    Route("forget-requests", SERVER, "GET", False),
    Route("forget-request-wipe", FORGET_REQUEST, "GET", True),
    Route("forget-request-wipe", FORGET_REQUEST, "POST", True, owner_status=302),
    Route("forget-request-dismiss", FORGET_REQUEST, "POST", True, owner_status=302),
    Route("audit", SERVER, "GET", True),
    Route("settings", SERVER, "GET", False),
    Route("settings", SERVER, "POST", True, SETTINGS_FORM, owner_status=302),
    Route("exchanges", SERVER, "GET", False),
    Route("exchange", EXCHANGE, "GET", False),
    Route("playground", SERVER, "GET", True),
    Route("glance", SERVER, "GET", False),
    Route("member", {"guild_id": GUILD, "member_id": "222"}, "GET", False),
    Route("learning-runs", SERVER, "GET", False),
    Route("learning-run", LEARNING_RUN, "GET", False),
    Route("usage", SERVER, "GET", False),
    Route("embedding-progress", SERVER, "GET", False),
    Route("semantic-dry-run", SERVER, "GET", False),
    Route("playground", SERVER, "POST", True,
          {"member_id": "200000000000000011", "member_name": "Paul", "channel_id": "111", "thread_parent_id": "",
           "history": "", "message": "When is the tournament?"}),
]

# The forms of one change (each behind a button a viewer does not get), and the pages of their own kept from viewers,
# as README names them.
FORMS_OF_A_CHANGE = {"fact-edit", "fact-delete", "fact-retract", "fact-restore", "summary-edit", "restore-all", "wipe", "purge", "forget-request-wipe"}
PAGES_KEPT_FROM_VIEWERS = {"playground": "Playground", "audit": "Audit log", "transfer": "Export and import"}
README = Path(__file__).resolve().parents[3] / "README.md"

READING = [route for route in MATRIX if not route.changes]
CHANGING = [route for route in MATRIX if route.changes]
SERVER_BOUND = [route for route in MATRIX if "guild_id" in route.kwargs]
NOT_SERVER_BOUND = [route for route in MATRIX if "guild_id" not in route.kwargs]


def route_id(route: Route) -> str:
    return f"{route.method} {route.name}"


def url_of(route: Route) -> str:
    return reverse(f"memory:{route.name}", kwargs=route.kwargs)


def full_path_of(route: Route) -> str:
    query = f"?{urlencode(route.data)}" if route.method == "GET" and route.data else ""
    return url_of(route) + query


def send(client, route: Route, *, htmx: bool = False, headers: dict | None = None):
    headers = {**({"HX-Request": "true"} if htmx else {}), **(headers or {})}
    if route.method == "GET":
        return client.get(url_of(route), route.data, headers=headers)
    return client.post(url_of(route), route.data, headers=headers)


def login_target(url: str) -> tuple[str, str]:
    """(path, next) of a login URL."""
    parts = urlsplit(url)
    return parts.path, parse_qs(parts.query)["next"][0]


@pytest.fixture(autouse=True)
def our_memory(server):
    """Fact #1 in force and fact #2 retracted, as the matrix kwargs expect."""
    assert server.guild_id == GUILD
    in_force = make_fact(server, key="server_theme", content="This server is about retro gaming.")
    retracted = make_fact(server, key="tournament_day", content="The tournament is on Friday.")
    fact_retract(fact=retracted, reason="moved to Saturday")
    edited = make_fact(server, key="raid_night", content="Raids are on Tuesday.")
    edited = fact_update(fact=edited, actor=UserFactory(username="editor"), expected_version=edited.version,
                         key="raid_night", content="Raids are on Wednesday.", confidence=1.0)
    assert (in_force.number, retracted.number, edited.number, edited.version) == (1, 2, 3, 2)
    Exchange.objects.create(id=EXCHANGE_ID, server=server, channel_id="111", author_id="200000000000000011",
                            message="When is the tournament?", memory_type="classic")
    ForgetRequest.objects.create(id=FORGET_REQUEST_ID, server=server, member_id="200000000000000031",
                                 member_name="Mia")
    LearningRun.objects.create(id=LEARNING_RUN_ID, server=server, after_position=0, upto_position=0)


def test_every_memory_url_has_a_row_in_the_matrix():
    url_names = {pattern.name for pattern in memory_urls.urlpatterns}
    assert url_names - {route.name for route in MATRIX} == set()


def test_every_row_of_the_matrix_names_a_memory_url():
    url_names = {pattern.name for pattern in memory_urls.urlpatterns}
    assert {route.name for route in MATRIX} - url_names == set()


@pytest.mark.parametrize("route", MATRIX, ids=route_id)
def test_an_anonymous_visitor_is_sent_to_the_login_page_and_back(client, route):
    response = send(client, route)
    assert response.status_code == 302
    assert login_target(response["Location"]) == (reverse("login"), full_path_of(route))


@pytest.mark.parametrize("route", MATRIX, ids=route_id)
def test_an_anonymous_htmx_request_gets_401_with_hx_redirect_never_a_302(client, route):
    response = send(client, route, htmx=True)
    assert response.status_code == 401
    assert "Location" not in response
    assert login_target(response["HX-Redirect"]) == (reverse("login"), full_path_of(route))


def test_an_anonymous_htmx_request_returns_to_the_page_the_user_was_on(client):
    page = f"/memory/?server={GUILD}&q=tourn"
    memory_page = next(route for route in MATRIX if route.name == "page")
    response = send(client, memory_page, htmx=True, headers={"HX-Current-URL": f"http://testserver{page}"})
    assert response.status_code == 401
    assert login_target(response["HX-Redirect"]) == (reverse("login"), page)


@pytest.mark.parametrize("htmx", [False, True], ids=["full page", "htmx"])
@pytest.mark.parametrize("route", SERVER_BOUND, ids=route_id)
def test_an_outsider_gets_404_on_every_url_of_our_server(outsider, route, htmx):
    assert send(logged_in_client(outsider), route, htmx=htmx).status_code == 404


@pytest.mark.parametrize("route", NOT_SERVER_BOUND, ids=route_id)
def test_an_outsider_opens_pages_of_no_server_without_seeing_ours(outsider, route):
    response = send(logged_in_client(outsider), route)
    assert response.status_code == 200
    assert "Retro Arcade" not in response.content.decode()
    assert "retro gaming" not in response.content.decode()


@pytest.mark.parametrize("route", READING, ids=route_id)
def test_a_member_may_read(member, route):
    assert send(logged_in_client(member), route).status_code == 200


@pytest.mark.parametrize("htmx", [False, True], ids=["full page", "htmx"])
@pytest.mark.parametrize("route", CHANGING, ids=route_id)
def test_a_member_gets_403_on_every_changing_view(member, route, htmx):
    assert send(logged_in_client(member), route, htmx=htmx).status_code == 403


@pytest.mark.parametrize("route", READING, ids=route_id)
def test_a_moderator_may_read(moderator, route):
    assert send(logged_in_client(moderator), route).status_code == 200


@pytest.mark.parametrize("route", CHANGING, ids=route_id)
def test_a_moderator_answers_proposals_but_gets_403_on_every_changing_view_of_memory(moderator, route):
    assert send(logged_in_client(moderator), route, htmx=True).status_code == 403


@pytest.mark.parametrize("route", MATRIX, ids=route_id)
def test_the_owner_may_do_everything(owner, route):
    response = send(logged_in_client(owner), route)
    assert response.status_code == route.owner_status
    if route.owner_status == 302:
        assert not response["Location"].startswith(reverse("login"))


def test_every_page_a_viewer_may_not_open_is_the_form_of_a_change_or_one_readme_names():
    kept_from_viewers = {route.name for route in CHANGING if route.method == "GET"}
    assert kept_from_viewers == FORMS_OF_A_CHANGE | set(PAGES_KEPT_FROM_VIEWERS)


def test_readme_tells_viewers_which_pages_need_configure():
    """README once said viewers see everything but the buttons that change something, while the matrix keeps the
    playground and the audit log from them."""
    viewers = re.search(r"^Viewers see .*?(?=\n\n)", README.read_text(), re.MULTILINE | re.DOTALL).group(0)
    for label in PAGES_KEPT_FROM_VIEWERS.values():
        assert f"**{label}**" in viewers, label


@pytest.mark.parametrize("name", list(PAGES_KEPT_FROM_VIEWERS))
def test_the_memory_page_links_the_pages_kept_from_viewers_for_the_owner_only(owner, member, name):
    link = f'href="{reverse(f"memory:{name}", kwargs=SERVER)}"'
    assert link in logged_in_client(owner).get(reverse("memory:page"), {"server": GUILD}).content.decode()
    assert link not in logged_in_client(member).get(reverse("memory:page"), {"server": GUILD}).content.decode()


def test_a_guild_id_holding_a_nul_character_is_404_not_a_server_error(owner):
    response = logged_in_client(owner).get(reverse("memory:summary", kwargs={"guild_id": f"{GUILD}\x00"}))
    assert response.status_code == 404


def _wrong_method_cases() -> list[tuple[str, dict, str]]:
    allowed: dict[str, set[str]] = {}
    kwargs: dict[str, dict] = {}
    for route in MATRIX:
        allowed.setdefault(route.name, set()).add(route.method)
        kwargs.setdefault(route.name, route.kwargs)
    wrong = {frozenset({"GET"}): "POST", frozenset({"POST"}): "GET", frozenset({"GET", "POST"}): "PUT"}
    return [(name, kwargs[name], wrong[frozenset(methods)]) for name, methods in allowed.items()]


@pytest.mark.parametrize("name, kwargs, method", _wrong_method_cases(),
                         ids=[f"{method} {name}" for name, _, method in _wrong_method_cases()])
def test_every_view_answers_405_to_the_wrong_method(owner, name, kwargs, method):
    response = logged_in_client(owner).generic(method, reverse(f"memory:{name}", kwargs=kwargs))
    assert response.status_code == 405
