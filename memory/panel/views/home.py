"""The home page: the servers a user can see, by name, with their facts in force and memory type; a filter box
narrows the list as you type."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from memory.facts.listing import facts_in_force_counts
from memory.facts.selectors import servers_with_memory_overview
from memory.types import DEFAULT_MEMORY_TYPE, profile_for
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import servers_configurable_by, servers_visible_to

FILTER_MAX_LENGTH = 100


@panel_login_required
@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The whole page, or (HTMX, the filter box) the list alone."""
    query = request.GET.get("q", "").strip()[:FILTER_MAX_LENGTH]
    visible = servers_visible_to(request.user)
    servers = list(servers_with_memory_overview(visible, matching=query))
    configurable_ids = set(servers_configurable_by(request.user).values_list("pk", flat=True))
    facts_in_force = facts_in_force_counts([server.pk for server in servers])
    server_rows = [
        {
            "server": server,
            "can_configure": server.pk in configurable_ids,
            "facts_in_force": facts_in_force[server.pk],
            "memory_type_label": profile_for(
                server.ai_settings.memory_type if hasattr(server, "ai_settings") else DEFAULT_MEMORY_TYPE
            ).label,
        }
        for server in servers
    ]
    context = {"server_rows": server_rows, "query": query,
               "visible_count": len(server_rows) if not query else visible.count()}
    template = "memory/_server_list.html" if request.htmx and request.htmx.target == "server-list" \
        else "memory/home.html"
    return render(request, template, context)
