"""Export and import in the panel (configure): download a server's memory as JSON lines, and fill a server without
memory from such a file, checked first (its counts, or every bad line) and imported only when confirmed."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from memory.facts.selectors import server_has_memory, server_wipe_counts
from memory.facts.transfer import ImportPlan, ImportRefused, export_download, import_check, import_lines
from teams.models import Server
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import server_for_configurer

from ..transfer_forms import IMPORT_MAX_BYTES, ImportForm, file_fingerprint


@panel_login_required
@require_GET
def transfer_page(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """Download memory, and Import memory when the server holds none yet."""
    server = server_for_configurer(request.user, guild_id)
    return _page(request, server, ImportForm())


@panel_login_required
@require_POST
def export_view(request: HtmxHttpRequest, guild_id: str) -> StreamingHttpResponse:
    """The server's memory as a .jsonl download, streamed line by line; the audit log records who took it."""
    server = server_for_configurer(request.user, guild_id)
    lines = export_download(server=server, actor=request.user)
    response = StreamingHttpResponse((line + "\n" for line in lines), content_type="application/jsonl; charset=utf-8")
    filename = f"lorekeeper-{server.guild_id}-{timezone.now():%Y-%m-%d}.jsonl"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@panel_login_required
@require_POST
def import_view(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """Without `confirm`: check the file and show what it holds, or every bad line; nothing is written. With the
    check's fingerprint of this same file: check it again and import it, all or nothing."""
    server = server_for_configurer(request.user, guild_id)
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _result(request, server, form, status=422)
    upload = form.cleaned_data["file"]
    fingerprint = file_fingerprint(upload)
    changed = bool(form.cleaned_data["confirm"]) and form.cleaned_data["confirm"] != fingerprint
    if form.cleaned_data["confirm"] and not changed:
        try:
            counts = import_lines(server, upload, actor=request.user)
        except ImportRefused as refused:
            return _result(request, server, form, errors=refused.messages, status=422)
        imported = ngettext("Imported %(facts)s fact into %(server)s.", "Imported %(facts)s facts into %(server)s.",
                            counts["facts"]) % {"facts": counts["facts"], "server": server.name}
        if counts["summaries"]:
            imported += " " + _("Summary wordings imported: %(summaries)s.") % {"summaries": counts["summaries"]}
        messages.success(request, imported)
        memory_url = f"{reverse('memory:page')}?server={server.guild_id}"
        return HttpResponseClientRedirect(memory_url) if request.htmx else redirect(memory_url)
    plan = import_check(server, upload)
    return _result(request, server, form, plan=plan, fingerprint=fingerprint, changed=changed,
                   status=422 if plan.errors else 200)


def _result(request: HtmxHttpRequest, server: Server, form: ImportForm, *, plan: ImportPlan | None = None,
            errors: list[str] | None = None, fingerprint: str = "", changed: bool = False,
            status: int = 200) -> HttpResponse:
    """The check's answer: the fragment under the form for HTMX, the whole page otherwise."""
    context = {"server": server, "form": form, "plan": plan, "fingerprint": fingerprint, "changed": changed,
               "errors": errors if errors is not None else (plan.error_sentences() if plan else [])}
    if request.htmx:
        return render(request, "memory/_import_result.html", context, status=status)
    return _page(request, server, form, context, status=status)


def _page(request: HtmxHttpRequest, server: Server, form: ImportForm, result: dict | None = None, *,
          status: int = 200) -> HttpResponse:
    context = {"server": server, "form": form, "facts": server_wipe_counts(server).facts,
               "has_memory": server_has_memory(server), "limit": IMPORT_MAX_BYTES, **(result or {})}
    return render(request, "memory/transfer_page.html", context, status=status)
