"""Authorization guard: every URL the project serves is covered by a permission test. A new URL fails
this test until a permission test (anonymous, another team's member, viewer, configure) covers it."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, get_resolver

from tests.api.test_errors import ENDPOINTS
from tests.consolidation.test_views import urls as consolidation_urls
from tests.memory.test_view_permissions import MATRIX

# URLs that are not panel or bot views, with the reason they need no permission matrix.
OUTSIDE_THE_MATRIX = {
    "login": "the login form itself (axes throttles it; tests/teams)",
    "logout": "POST-only logout (tests/teams)",
    "api:schema": "the public OpenAPI document (no data; tests/api/test_schema.py)",
    "api:docs": "the public API docs page (no data; tests/api/test_schema.py)",
    "api:not-found": "the JSON 404 for unknown API paths",
    "teams:home": "every logged-in user's list of their own servers (tests/teams/test_home.py, all four roles)",
}
API_NAMES = {"server": "api:server-detail", "context": "api:context", "reply": "api:reply",
             "exchange": "api:exchange", "search": "api:search", "actions": "api:actions"}


def served_url_names() -> set[str]:
    names: set[str] = set()

    def walk(patterns, namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.app_name == "admin":
                    continue  # Django admin guards itself (staff only), tested in tests/test_admin.py
                walk(pattern.url_patterns, f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace)
            elif isinstance(pattern, URLPattern) and pattern.name:
                names.add(f"{namespace}{pattern.name}")

    walk(get_resolver().url_patterns, "")
    return names


def covered_url_names() -> set[str]:
    covered = {f"memory:{route.name}" for route in MATRIX}
    covered |= {f"consolidation:{name}" for name in consolidation_urls(*[_Stub()] * 3)}
    covered |= {API_NAMES[endpoint.name] for endpoint in ENDPOINTS}
    return covered | set(OUTSIDE_THE_MATRIX)


class _Stub:
    """Enough of a server, proposal and draft for consolidation's url table to list its names."""

    guild_id = "100000000000000001"
    pk = 1


def test_every_url_is_covered_by_a_permission_test():
    assert served_url_names() - covered_url_names() == set()


def test_the_guard_lists_no_url_that_does_not_exist():
    assert covered_url_names() - served_url_names() == set()
