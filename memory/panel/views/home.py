"""The home page: the servers a user can see, with their facts in force and memory type."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from memory.facts.selectors import servers_with_memory_overview
from memory.types import DEFAULT_MEMORY_TYPE, profile_for
from teams.permissions import servers_configurable_by, servers_visible_to


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    servers = servers_with_memory_overview(servers_visible_to(request.user))
    configurable_ids = set(servers_configurable_by(request.user).values_list("pk", flat=True))
    server_rows = [
        {
            "server": server,
            "can_configure": server.pk in configurable_ids,
            "facts_in_force": server.facts_in_force,
            "memory_type_label": profile_for(
                server.ai_settings.memory_type if hasattr(server, "ai_settings") else DEFAULT_MEMORY_TYPE
            ).label,
        }
        for server in servers
    ]
    return render(request, "memory/home.html", {"server_rows": server_rows})
