"""Whole-server actions on the memory page: summary (and its earlier wordings), memory type, restore all, wipe,
audit log."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRedirect, HttpResponseLocation

from memory.configuration.selectors import ai_settings_for_server
from memory.configuration.services import memory_type_set
from memory.facts.deletes import member_wipe, server_wipe
from memory.facts.selectors import (
    WipeCounts,
    member_wipe_counts,
    server_wipe_counts,
    summary_current,
    summary_earlier_count,
    summary_versions,
)
from memory.facts.services import FactAuthor, facts_restore_all, validate_member_id
from memory.facts.summary import summary_set
from memory.models import Fact
from memory.text.numbers import grouped
from memory.types import PROFILES, profile_for
from teams.models import Server
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import can_configure, server_for_configurer, server_for_viewer
from teams.selectors import audit_entries_page

from ..context_preview import context_preview
from ..dry_run import clean_sample_message, ranked_slot_changes, type_cards
from ..forms import ContextTryForm, SummaryForm, WipeChoiceForm, WipeForm
from ..notices import Undo, notice_add

AUDIT_PAGE_SIZE = 50
SUMMARY_HISTORY_PAGE_SIZE = 20


def _memory_url(guild_id: str) -> str:
    return f"{reverse('memory:page')}?server={guild_id}"


@panel_login_required
@require_http_methods(["GET", "POST"])
def summary_view(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """GET: the summary block. POST (configure): save a new wording; the old one is retracted, not deleted."""
    if request.method == "GET":
        server = server_for_viewer(request.user, guild_id)
        block = summary_block_context(server, can_configure=can_configure(request.user, server))
        return render(request, "memory/_summary.html", {"server": server, **block})
    server = server_for_configurer(request.user, guild_id)
    form = SummaryForm(request.POST)
    if form.is_valid():
        try:
            summary_set(server=server, content=form.cleaned_data["content"], author=FactAuthor.staff(request.user))
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return render(request, "memory/_summary.html",
                          {"server": server, **summary_block_context(server, can_configure=True)})
    return render(request, "memory/_summary_form.html", {"server": server, "form": form}, status=422)


def summary_block_context(server: Server, *, can_configure: bool) -> dict:
    """What memory/_summary.html needs besides its server; the memory page includes the block too."""
    return {"summary": summary_current(server), "earlier_summaries": summary_earlier_count(server),
            "can_configure": can_configure}


@panel_login_required
@require_GET
def summary_history(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """Every wording the summary has had, newest first, paged by id: whoever may read the summary may read them."""
    server = server_for_viewer(request.user, guild_id)
    before = _id_or_none(request.GET.get("before", ""))
    versions, next_before = _keyset_page(summary_versions(server, before_id=before,
                                                          limit=SUMMARY_HISTORY_PAGE_SIZE + 1),
                                         SUMMARY_HISTORY_PAGE_SIZE)
    context = {"server": server, "versions": versions, "next_before": next_before, "is_first_page": before is None}
    template = "memory/_summary_versions.html" if request.htmx else "memory/summary_history_page.html"
    return render(request, template, context)


def _keyset_page(rows: list, size: int) -> tuple[list, int | None]:
    """Rows fetched with one extra: the page to show, and the id the next page starts before (None: last page)."""
    return rows[:size], (rows[size - 1].pk if len(rows) > size else None)


def _id_or_none(raw: str) -> int | None:
    """A row id from our own "older" link; anything else ("²", a number past bigint) means the first page."""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else None


@panel_login_required
@require_GET
def summary_edit(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    server = server_for_configurer(request.user, guild_id)
    summary = summary_current(server)
    form = SummaryForm(initial={"content": summary.content if summary else ""})
    return render(request, "memory/_summary_form.html", {"server": server, "form": form})


def _on_memory_page(request: HtmxHttpRequest) -> bool:
    current = urlsplit(request.htmx.current_url or "")
    return current.path == reverse("memory:page")


@panel_login_required
@require_http_methods(["GET", "POST"])
def memory_type_view(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """GET: the six cards with this server's dry run. POST (configure): choose a type, saved at once."""
    if request.method == "GET":
        server = server_for_viewer(request.user, guild_id)
        error = ""
    else:
        server = server_for_configurer(request.user, guild_id)
        error = ""
        before = ai_settings_for_server(server).memory_type
        try:
            chosen = memory_type_set(server=server, actor=request.user,
                                     memory_type=request.POST.get("memory_type", "")).memory_type
        except ValidationError as refused:
            error = " ".join(refused.messages)
        else:
            _memory_type_noticed(request, server, before, chosen)
        if not error and request.htmx:
            # The type decides more of the page than its own block (the embedding progress, the consolidation
            # block): the memory page is drawn again in place, scrolled back to the type; from the comparison
            # page (no #memory-page to draw into) the browser goes to the memory page.
            if _on_memory_page(request):
                return HttpResponseLocation(_memory_url(server.guild_id), target="#memory-page",
                                            select="#memory-page", swap="outerHTML show:#memory-type:top")
            return HttpResponseClientRedirect(_memory_url(server.guild_id))
        if not error:
            return redirect(_memory_url(server.guild_id))
    current = ai_settings_for_server(server).memory_type
    context = {
        "server": server,
        "profiles": PROFILES,
        "active_profile": profile_for(current),
        "cards": type_cards(server, current),
        "can_configure": can_configure(request.user, server),
        "error": error,
    }
    template = "memory/_memory_type.html" if request.htmx else "memory/memory_type_page.html"
    return render(request, template, context, status=422 if error else 200)


def _memory_type_noticed(request: HtmxHttpRequest, server: Server, before: str, chosen: str) -> None:
    """Say which type the server has now; Undo chooses the one it had (switching moves no fact, so that is all)."""
    url = reverse("memory:memory-type", args=[server.guild_id])
    undo = Undo(url=url, fields={"memory_type": before}, target="#memory-type") if before != chosen else None
    notice_add(request, _("Memory type is now %(type)s.") % {"type": profile_for(chosen).label}, undo)


@panel_login_required
@require_GET
def ranked_dry_run(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """Which facts Ranked would give a context slot, and which would lose theirs, for a sample message."""
    server = server_for_viewer(request.user, guild_id)
    changes = ranked_slot_changes(server, clean_sample_message(request.GET.get("message", "")))
    template = "memory/_ranked_slots.html" if request.htmx else "memory/ranked_dry_run_page.html"
    return render(request, template, {"server": server, "changes": changes})


@panel_login_required
@require_GET
def context_dry_run(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """The context the server's current type would give a message typed here, from a member, in a channel: the pinned
    facts, the speaker's share, the rest by the type's order, what the character budget cuts (nothing is recorded).
    The memory page asks it for the size of a reply's memory block today (its target: memory-budget)."""
    server = server_for_viewer(request.user, guild_id)
    form = ContextTryForm(request.GET)
    if not form.is_valid():
        template = "memory/_context_preview.html" if request.htmx else "memory/context_dry_run_page.html"
        return render(request, template, {"server": server, "form": form}, status=422)
    preview = context_preview(server, **form.cleaned_data)
    if request.htmx and request.htmx.target == "memory-budget":
        template = "memory/_memory_budget.html"
    else:
        template = "memory/_context_preview.html" if request.htmx else "memory/context_dry_run_page.html"
    return render(request, template, {"server": server, "form": form, "preview": preview})


@panel_login_required
@require_http_methods(["GET", "POST"])
def restore_all(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """GET asks for confirmation with the count; POST re-opens every retracted fact of the server."""
    server = server_for_configurer(request.user, guild_id)
    if request.method == "POST":
        restored = facts_restore_all(server=server, actor=request.user)
        # No Undo: which facts were retracted, and why, is in each fact's history, not in one step to take back.
        notice_add(request, ngettext("Restored %(count)s retracted fact.", "Restored %(count)s retracted facts.",
                                     restored) % {"count": restored})
        return redirect(_memory_url(server.guild_id))
    retracted = Fact.objects.filter(server=server, retracted_at__isnull=False).count()
    return render(request, "memory/restore_all_page.html", {"server": server, "retracted": retracted})


@panel_login_required
@require_http_methods(["GET", "POST"])
def wipe(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """Two steps. Choose the server or one member (nothing chosen beforehand; the server's choice says how much it
    holds), then see what would go and confirm by typing the name (or the id); POST wipes. An id with nothing stored
    is told so and goes no further."""
    server = server_for_configurer(request.user, guild_id)
    posted = request.method == "POST"
    choosing = not posted and "target" not in request.GET
    linked_member = {"member_id": request.GET.get("member", "")}  # ?member=… fills in the id, chooses nothing
    form = WipeForm(request.POST) if posted else WipeChoiceForm(None if choosing else request.GET,
                                                                initial=linked_member)
    if choosing or not form.is_valid():
        return _wipe_choice_page(request, server, form)
    target, member_id = form.cleaned_data["target"], form.cleaned_data["member_id"].strip()
    counts, refusal = _what_a_wipe_deletes(server, target, member_id)
    if refusal:
        form.add_error("member_id", refusal)
        return _wipe_choice_page(request, server, form)
    if posted:
        expected = member_id if target == WipeForm.MEMBER else server.name
        if form.cleaned_data["confirmation"].strip() == expected:
            messages.success(request, _wiped(server, target, member_id, actor=request.user))
            return redirect(_memory_url(server.guild_id))
        form.add_error("confirmation", _("Type the member id exactly to confirm; nothing was deleted.")
                       if target == WipeForm.MEMBER else
                       _("Type the server name “%(server)s” exactly to confirm; nothing was deleted.")
                       % {"server": server.name})
    context = {"server": server, "form": form, "target": target, "member_id": member_id,
               "facts_text": _facts_counted(counts.facts), "exchanges_text": _exchanges_counted(counts.exchanges)}
    return render(request, "memory/wipe_confirm_page.html", context, status=422 if form.errors else 200)


def _facts_counted(number: int) -> str:
    return ngettext("%(count)s fact", "%(count)s facts", number) % {"count": grouped(number)}


def _exchanges_counted(number: int) -> str:
    return ngettext("%(count)s exchange", "%(count)s exchanges", number) % {"count": grouped(number)}


def _wipe_choice_page(request: HtmxHttpRequest, server: Server, form: WipeChoiceForm) -> HttpResponse:
    counts = server_wipe_counts(server)
    context = {"server": server, "form": form, "server_facts_text": _facts_counted(counts.facts),
               "server_exchanges_text": _exchanges_counted(counts.exchanges)}
    return render(request, "memory/wipe_page.html", context, status=422 if form.errors else 200)


def _what_a_wipe_deletes(server: Server, target: str, member_id: str) -> tuple[WipeCounts | None, str]:
    """The counts of what the wipe would delete, or why it cannot go on (no id, not an id, nothing stored)."""
    if target == WipeForm.SERVER:
        return server_wipe_counts(server), ""
    if not member_id:
        return None, _("Enter the Discord user id of the member to wipe.")
    try:
        member_id = validate_member_id(member_id)
    except ValidationError as invalid:
        return None, " ".join(invalid.messages)
    counts = member_wipe_counts(server, member_id)
    if counts.nothing_stored:
        return None, _("Nothing is stored about member %(member)s on %(server)s: no facts about them or learned "
                       "from them, and no exchanges of theirs. Check the id; nothing was deleted.") % {
            "member": member_id, "server": server.name}
    return counts, ""


def _wiped(server: Server, target: str, member_id: str, *, actor: AbstractBaseUser) -> str:
    """Wipe now; the sentence that tells what went."""
    if target == WipeForm.MEMBER:
        result = member_wipe(server=server, actor=actor, member_id=member_id)
        return _("Wiped %(facts)s about or from member %(member)s and %(exchanges)s of theirs.") % {
            "facts": _facts_counted(result.facts), "member": member_id,
            "exchanges": _exchanges_counted(result.exchanges)}
    result = server_wipe(server=server, actor=actor)
    return _("Wiped %(facts)s, the summary and %(exchanges)s of %(server)s.") % {
        "facts": _facts_counted(result.facts), "exchanges": _exchanges_counted(result.exchanges),
        "server": server.name}


@panel_login_required
@require_GET
def audit_log(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """Newest first, paged by id (configure users only: it names who did what)."""
    server = server_for_configurer(request.user, guild_id)
    before = _id_or_none(request.GET.get("before", ""))
    entries, next_before = _keyset_page(audit_entries_page(server, before_id=before, limit=AUDIT_PAGE_SIZE + 1),
                                        AUDIT_PAGE_SIZE)
    context = {"server": server, "entries": entries, "next_before": next_before, "is_first_page": before is None}
    template = "memory/_audit_rows.html" if request.htmx else "memory/audit_page.html"
    return render(request, template, context)
