"""Members' requests to be forgotten (/memory forget-me, or a bot through the API) when the server's AI settings
leave the decision to staff: viewers see the list, configure users wipe the member (the count shown first) or
dismiss the request. Both are audited (memory.facts.forget_requests)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from memory.configuration.selectors import ai_settings_for_server
from memory.facts.forget_requests import RequestAlreadyAnswered, forget_request_dismiss, forget_request_wipe
from memory.facts.selectors import member_wipe_counts
from memory.models import ForgetRequest, ForgetRequestStatus
from teams.models import Server
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import can_configure, server_for_configurer, server_for_viewer

SHOWN_OPEN = 100
SHOWN_ANSWERED = 50


def _request_or_404(server: Server, request_id: int) -> ForgetRequest:
    found = ForgetRequest.objects.filter(server=server, pk=request_id).select_related("handled_by").first()
    if found is None:
        raise Http404("No such request.")
    return found


def _list_url(server: Server) -> str:
    return reverse("memory:forget-requests", args=[server.guild_id])


@panel_login_required
@require_GET
def forget_request_list(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """Waiting requests, oldest first (the longest wait on top), then the latest answered ones."""
    server = server_for_viewer(request.user, guild_id)
    context = _list_context(server, can_configure=can_configure(request.user, server))
    template = "memory/_forget_requests.html" if request.htmx else "memory/forget_requests_page.html"
    return render(request, template, context)


def _list_context(server: Server, *, can_configure: bool, note: str = "") -> dict:
    requests = ForgetRequest.objects.filter(server=server).select_related("handled_by")
    waiting = requests.filter(status=ForgetRequestStatus.OPEN).order_by("requested_at", "id")
    return {
        "server": server,
        "waiting": list(waiting[:SHOWN_OPEN]),
        "waiting_count": waiting.count(),
        "answered": list(requests.exclude(status=ForgetRequestStatus.OPEN).order_by("-handled_at", "-id")
                         [:SHOWN_ANSWERED]),
        "mode": ai_settings_for_server(server).get_forget_me_mode_display(),
        "can_configure": can_configure,
        "note": note,
    }


@panel_login_required
@require_http_methods(["GET", "POST"])
def forget_request_wipe_view(request: HtmxHttpRequest, guild_id: str, request_id: int) -> HttpResponse:
    """GET shows what the wipe would delete (in the row, or as a page without JavaScript); POST wipes the member."""
    server = server_for_configurer(request.user, guild_id)
    forget_request = _request_or_404(server, request_id)
    if request.method == "GET":
        if forget_request.status != ForgetRequestStatus.OPEN:
            return _answered(request, server, gettext("This request was already answered (%(status)s).")
                             % {"status": forget_request.get_status_display()})
        counts = member_wipe_counts(server, forget_request.member_id)
        context = {"server": server, "forget_request": forget_request, "counts": counts}
        template = "memory/_forget_request_confirm.html" if request.htmx else "memory/forget_request_wipe_page.html"
        return render(request, template, context)
    try:
        forget_request = forget_request_wipe(request=forget_request, actor=request.user)
    except RequestAlreadyAnswered as answered:
        return _answered(request, server, str(answered))
    return _answered(request, server, ngettext("Wiped member %(member)s: %(count)s fact removed.",
                                               "Wiped member %(member)s: %(count)s facts removed.",
                                               forget_request.facts_removed)
                     % {"member": forget_request.member_id, "count": forget_request.facts_removed}, status=200)


@panel_login_required
@require_POST
def forget_request_dismiss_view(request: HtmxHttpRequest, guild_id: str, request_id: int) -> HttpResponse:
    """Close the request without wiping (e.g. someone else asked in the member's name); audited."""
    server = server_for_configurer(request.user, guild_id)
    forget_request = _request_or_404(server, request_id)
    try:
        forget_request = forget_request_dismiss(request=forget_request, actor=request.user)
    except RequestAlreadyAnswered as answered:
        return _answered(request, server, str(answered))
    return _answered(request, server, gettext("Dismissed the request of member %(member)s; nothing was deleted.")
                     % {"member": forget_request.member_id}, status=200)


def _answered(request: HtmxHttpRequest, server: Server, note: str, *, status: int = 409) -> HttpResponse:
    """The list as it stands now (the request moved to the answered ones), saying what was done, or that someone
    answered it first (409); without JavaScript the list page, with the same sentence."""
    if not request.htmx:
        (messages.success if status == 200 else messages.warning)(request, note)
        return redirect(_list_url(server))
    response = render(request, "memory/_forget_requests.html", _list_context(server, can_configure=True, note=note),
                      status=status)
    return reswap(retarget(response, "#forget-requests"), "outerHTML")
