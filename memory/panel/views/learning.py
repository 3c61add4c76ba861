"""The learning runs of a server (viewers): when each ran, which messages it read, what it proposed and what became
of each proposal, and the model's usage; the exchange log's sibling."""

from __future__ import annotations

import uuid

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from memory.learning.selectors import (learning_run_for_server, learning_runs_for_server, learning_status,
                                       run_messages_shown)
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import can_configure, server_for_viewer

RUN_PAGE_SIZE = 25


@panel_login_required
@require_GET
def learning_run_list(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    server = server_for_viewer(request.user, guild_id)
    return render(request, "memory/learning_runs_page.html", {
        "server": server, "runs": list(learning_runs_for_server(server)[:RUN_PAGE_SIZE]),
        "status": learning_status(server), "can_configure": can_configure(request.user, server)})


@panel_login_required
@require_GET
def learning_run_detail(request: HtmxHttpRequest, guild_id: str, run_id: uuid.UUID) -> HttpResponse:
    server = server_for_viewer(request.user, guild_id)
    run = learning_run_for_server(server, run_id)
    if run is None:
        raise Http404("No such learning run on this server.")
    messages = run_messages_shown(run)
    return render(request, "memory/learning_run_page.html", {
        "server": server, "run": run, "messages": messages,
        "wiped_messages": len(run.message_ids) - len(messages)})
