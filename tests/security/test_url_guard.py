"""Authorization guard: every URL the project serves is covered by a permission test. A new URL fails
this test until a permission test (anonymous, another team's member, viewer, configure) covers it.

A URL counts as covered only when the permission tests really run against it: the guard reads the
parametrize lists of the permission modules' tests for each kind of user, so a name listed in a table
but left out of (say) the outsider's test does not count. An unnamed URL can never be covered."""

from __future__ import annotations

import inspect
from types import ModuleType

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, path

import tests.consolidation.test_views as consolidation_permission_tests
import tests.memory.bot.api.test_errors as api_permission_tests
import tests.memory.panel.test_view_permissions as memory_permission_tests

# URLs that are not panel or bot views, with the reason they need no permission matrix.
OUTSIDE_THE_MATRIX = {
    "login": "the login form itself (axes throttles it; tests/teams)",
    "logout": "POST-only logout (tests/teams)",
    "api:schema": "the public OpenAPI document (no data; tests/memory/bot/api/test_schema.py)",
    "api:docs": "the public API docs page (no data; tests/memory/bot/api/test_schema.py)",
    "api:not-found": "the JSON 404 for unknown API paths",
    "home": "every logged-in user's list of their own servers (tests/teams/test_home.py, all four roles)",
    "language": "the header's language choice, the user's own and no server's (tests/i18n/test_language_choice.py: "
                "anonymous, two users, bad language, foreign next, GET)",
}
API_NAMES = {"server": "api:server-detail", "context": "api:context", "reply": "api:reply",
             "exchange": "api:exchange", "search": "api:search", "actions": "api:actions",
             "channels": "api:channels", "purge": "api:purge", "member-facts": "api:member-facts",
             "member-forget": "api:member-forget", "messages": "api:messages",
             "messages-deleted": "api:messages-deleted"}
# The fixture each panel permission test takes names the user it runs as; `client` is the anonymous one.
PANEL_USERS = ("client", "outsider", "member", "owner")


def served_url_names(patterns=None) -> set[str]:
    """Every URL outside Django admin, by namespaced name; an unnamed one as `<unnamed: route>`, which
    no permission test can name, so it fails the guard until it gets a name and a test."""
    names: set[str] = set()

    def walk(patterns, namespace: str, prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.app_name == "admin":
                    continue  # Django admin guards itself (staff only), tested in tests/test_admin.py
                walk(pattern.url_patterns, f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace,
                     prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                names.add(f"{namespace}{pattern.name}" if pattern.name
                          else f"{namespace}<unnamed: {prefix}{pattern.pattern}>")

    walk(get_resolver().url_patterns if patterns is None else patterns, "", "")
    return names


def parametrized(test, argname: str) -> list:
    """The values a test is run with for one of its parametrize arguments."""
    values = []
    for mark in getattr(test, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        argnames = [name.strip() for name in mark.args[0].split(",")] if isinstance(mark.args[0], str) \
            else list(mark.args[0])
        if argname not in argnames:
            continue
        for value in mark.args[1]:
            row = value.values if isinstance(value, pytest.ParameterSet) else (
                (value,) if len(argnames) == 1 else tuple(value))
            values.append(row[argnames.index(argname)])
    return values


def permission_tests_in(module: ModuleType) -> list:
    return [test for name, test in vars(module).items() if name.startswith("test_") and inspect.isfunction(test)]


def names_run_as(module: ModuleType, user_fixture: str, argname: str, name_of) -> set[str]:
    """URL names that the module's tests taking `user_fixture` really run against."""
    return {name_of(value) for test in permission_tests_in(module) if user_fixture in inspect.signature(test).parameters
            for value in parametrized(test, argname)}


def memory_coverage(module: ModuleType = memory_permission_tests) -> dict[str, set[str]]:
    return {user: {f"memory:{name}" for name in names_run_as(module, user, "route", lambda route: route.name)}
            for user in PANEL_USERS}


def consolidation_coverage(module: ModuleType = consolidation_permission_tests) -> dict[str, set[str]]:
    return {user: {f"consolidation:{name}" for name in names_run_as(module, user, "name", str)}
            for user in (*PANEL_USERS, "moderator")}


def api_coverage(module: ModuleType = api_permission_tests) -> dict[str, set[str]]:
    """The bot API has tokens, not users: every test about a token (none, wrong, revoked, another team's)
    that runs per endpoint must run on every endpoint."""
    return {test.__name__: {API_NAMES[endpoint.name] for endpoint in parametrized(test, "endpoint")}
            for test in permission_tests_in(module) if "token" in test.__name__ and parametrized(test, "endpoint")}


def covered_url_names() -> set[str]:
    """A URL is covered when every kind of user's tests run against it (the intersection)."""
    covered = set(OUTSIDE_THE_MATRIX)
    for coverage in (memory_coverage(), consolidation_coverage(), api_coverage()):
        assert coverage and all(coverage.values()), f"a permission module lost its tests: {coverage}"
        covered |= set.intersection(*coverage.values())
    return covered


def test_every_url_is_covered_by_a_permission_test():
    assert served_url_names() - covered_url_names() == set()


def test_the_guard_lists_no_url_that_does_not_exist():
    assert covered_url_names() - served_url_names() == set()


def test_the_api_token_tests_are_all_counted():
    assert {"test_no_token_answers_401_and_changes_nothing", "test_a_wrong_token_answers_401_and_changes_nothing",
            "test_a_revoked_token_answers_401_and_changes_nothing"} <= set(api_coverage())
    assert any("another_team" in name for name in api_coverage())


# The guard's own parts can fail -------------------------------------------------------------------


def _view(request):
    raise AssertionError("never called")


def test_an_unnamed_url_is_served_but_never_covered():
    patterns = [path("named/", _view, name="named"), path("anonymous/", _view)]
    assert served_url_names(patterns) == {"named", "<unnamed: anonymous/>"}


def test_a_name_left_out_of_one_users_test_is_not_covered():
    """A module like tests/consolidation/test_views.py whose outsider test forgot one URL."""
    module = ModuleType("fake_permission_tests")
    every = ["review", "dry-run", "moderators"]

    @pytest.mark.parametrize("name", every)
    def test_anonymous(client, name): ...

    @pytest.mark.parametrize("name", every[:-1])
    def test_outsider(outsider, name): ...

    @pytest.mark.parametrize(("htmx", "name"), [(False, name) for name in every])
    def test_member(member, htmx, name): ...

    @pytest.mark.parametrize("name", [pytest.param(name, id=name) for name in every])
    def test_moderator(moderator, name): ...

    @pytest.mark.parametrize("name", every)
    def test_owner(owner, name): ...

    for test in (test_anonymous, test_outsider, test_member, test_moderator, test_owner):
        setattr(module, test.__name__, test)
    coverage = consolidation_coverage(module)
    assert coverage["member"] == coverage["moderator"] == {f"consolidation:{name}" for name in every}
    assert set.intersection(*coverage.values()) == {"consolidation:review", "consolidation:dry-run"}
