"""Semantic memory on the panel: the catch-up round's progress and the Semantic card's dry run."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from memory.indexing.catchup import catchup_progress
from memory.panel.dry_run import semantic_dry_run
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import server_for_viewer


@panel_login_required
@require_GET
def embedding_progress(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """The catch-up progress bar; it polls itself every 2 s while the round runs."""
    server = server_for_viewer(request.user, guild_id)
    return render(request, "memory/_embedding_progress.html", {"server": server, "progress": catchup_progress(server)})


@panel_login_required
@require_GET
def semantic_dry_run_view(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    server = server_for_viewer(request.user, guild_id)
    return render(request, "memory/_semantic_dry_run.html", {"server": server, "dry_run": semantic_dry_run(server)})
