"""A fact's history on its page: the timeline, older changes a page at a time, and the undo of a staff edit."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from memory.facts.selectors import fact_edit_version
from memory.facts.services import FactGone, VersionNoLongerApplies, fact_version_undo
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import can_configure, server_for_configurer, server_for_viewer

from ..fact_page import timeline_context
from ..history_forms import TimelinePageForm
from .facts import PINS_CHANGED, fact_or_404

HISTORY_SECTION = "fact-history"  # the section's id: its own reload asks for all of it, "show older" for rows
# Client event after an undo: the fact's row on its page reloads itself (the wording put back).
ROW_CHANGED = "fact-row-changed"


@panel_login_required
@require_GET
def fact_history(request: HtmxHttpRequest, guild_id: str, number: int) -> HttpResponse:
    """Newest first, TIMELINE_PAGE at a time: `before` (a version id) asks for the older ones after it. HTMX: the
    rows and the next "show older" (or the whole section when it reloads itself); otherwise a page of its own."""
    server = server_for_viewer(request.user, guild_id)
    fact = fact_or_404(server, number)
    form = TimelinePageForm(request.GET)
    before = form.cleaned_data["before"] if form.is_valid() else None
    context = timeline_context(fact, can_configure=can_configure(request.user, server), before_id=before)
    if not request.htmx:
        return render(request, "memory/fact_history_page.html", context)
    if request.htmx.target == HISTORY_SECTION:
        return render(request, "memory/_fact_history.html", context)
    return render(request, "memory/_fact_timeline_rows.html", context)


@panel_login_required
@require_POST
def fact_version_undo_view(request: HtmxHttpRequest, guild_id: str, number: int, version: int) -> HttpResponse:
    """Put back what a staff edit replaced (a version of its own, audited by the service). When the fact changed
    since, 409 with what it says now; the history section answers either way."""
    server = server_for_configurer(request.user, guild_id)
    fact = fact_or_404(server, number)
    edit = fact_edit_version(fact, version)
    if edit is None:
        raise Http404("No staff edit of this fact has that version.")
    status, message, current = 200, "", None
    try:
        fact = fact_version_undo(version=edit, actor=request.user)
    except FactGone as gone:
        raise Http404(str(gone)) from None
    except VersionNoLongerApplies as moved_on:
        status, current = 409, moved_on.current
    except ValidationError as refused:
        status, message = 422, " ".join(refused.messages)
    context = {**timeline_context(fact_or_404(server, number), can_configure=True), "undone": edit,
               "current": current, "message": message, "status": status}
    template = "memory/_fact_history.html" if request.htmx else "memory/fact_history_page.html"
    response = render(request, template, context, status=status)
    if status == 200:
        trigger_client_event(response, ROW_CHANGED, after="settle")
        if fact.pinned:  # the pinned block quotes its wording (not fact_changed: this section is already fresh)
            trigger_client_event(response, PINS_CHANGED, after="settle")
    return response
