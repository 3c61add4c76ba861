"""Many facts at once (configure): the memory page's selected rows retracted, restored, deleted (confirmed first, with
the count), or given one confidence, importance, kind or audience — one service call, all or nothing."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, ngettext_lazy

from memory.facts.bulk import (ACTIONS, AUDIENCE, CONFIDENCE, DELETE, IMPORTANCE, KIND, RESTORE, RETRACT,
                               facts_bulk_change)
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import server_for_configurer

# Which posted field holds the new value of each field change.
_VALUE_FIELD = {CONFIDENCE: "confidence", IMPORTANCE: "importance", KIND: "kind", AUDIENCE: "audience"}
# What the page says was done, by action (the audit row keeps memory.facts.bulk.ACTIONS, in English).
_DONE = {
    RETRACT: ngettext_lazy("%(count)s fact retracted", "%(count)s facts retracted", "count"),
    RESTORE: ngettext_lazy("%(count)s fact restored", "%(count)s facts restored", "count"),
    DELETE: ngettext_lazy("%(count)s fact deleted", "%(count)s facts deleted", "count"),
    CONFIDENCE: ngettext_lazy("%(count)s fact given confidence", "%(count)s facts given confidence", "count"),
    IMPORTANCE: ngettext_lazy("%(count)s fact given importance", "%(count)s facts given importance", "count"),
    KIND: ngettext_lazy("%(count)s fact given the kind", "%(count)s facts given the kind", "count"),
    AUDIENCE: ngettext_lazy("%(count)s fact given the audience", "%(count)s facts given the audience", "count"),
}


def _selected(request: HtmxHttpRequest) -> list[int]:
    """The selected numbers (each row's checkbox, or every row of the page), without what is not a number."""
    raw = request.POST.getlist("numbers")
    if request.POST.get("all_on_page"):
        raw = request.POST.get("page_numbers", "").split(",")
    return sorted({int(value) for value in raw if value.strip().isdigit() and 0 < int(value) < 2**31})


def _back(request: HtmxHttpRequest, guild_id: str) -> str:
    """Where the memory page was (its filters and page), else the server's memory page."""
    back = request.POST.get("back", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return back
    return f"{reverse('memory:page')}?server={guild_id}"


@panel_login_required
@require_POST
def facts_bulk(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    server = server_for_configurer(request.user, guild_id)
    numbers, action = _selected(request), request.POST.get("action", "")
    back = _back(request, guild_id)
    if action == DELETE and request.POST.get("confirm") != "yes" and numbers:
        return render(request, "memory/facts_bulk_delete_page.html",
                      {"server": server, "numbers": numbers, "back": back})
    try:
        count = facts_bulk_change(server=server, numbers=numbers, action=action, actor=request.user,
                                  value=request.POST.get(_VALUE_FIELD.get(action, ""), ""),
                                  reason=request.POST.get("reason", ""))
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
        return redirect(back)
    if action in ACTIONS:
        done = _DONE[action] % {"count": count}
        messages.success(request, gettext("%(done)s.") % {"done": done} if count == len(numbers) else
                         gettext("%(done)s (%(already)s already were).") % {"done": done,
                                                                             "already": len(numbers) - count})
    return redirect(back)
