"""One fact at a time: add, show, edit (with a version check), pin, change who sees it, delete, restore. HTMX
fragments."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget, trigger_client_event

from memory.facts.selectors import fact_by_number
from memory.facts.deletes import fact_delete
from memory.facts.services import (
    FactAuthor,
    FactConflict,
    FactGone,
    UNCHANGED,
    WideningNeedsConfirmation,
    fact_audience_set,
    fact_create,
    fact_pin_set,
    fact_update,
)
from memory.models import Audience, Fact
from memory.text.hints import content_hint
from teams.models import Server
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import can_configure, server_for_configurer, server_for_viewer

from ..audiences import attach_audiences, directory_channels
from ..fact_page import fact_page_context
from ..fact_rows import attach_flags, servers_retracting_in_place
from ..forms import FactAudienceForm, FactCreateForm, FactEditForm, FactPinForm
from ..notices import Undo, notice_add, with_notices
from ..pinned import pinned_facts

# Client event after a fact was added, deleted or restored: the fact list (its count, tabs and rows) reloads
# itself once the answer is on the page (after the swap settles, so the row the user acted on is seen first).
FACTS_CHANGED = "facts-changed"
# Client event after a pin changed from a row: the memory page's pinned block reloads itself.
PINS_CHANGED = "pins-changed"
PINNED_BLOCK = "pinned-facts"  # the block's id: a pin changed from there answers the block itself
# Client event after a fact changed from its row: its page's timeline reloads itself (the new version on top).
HISTORY_CHANGED = "fact-history-changed"


def facts_changed(response: HttpResponse, fact: Fact | None = None) -> HttpResponse:
    return fact_changed(trigger_client_event(response, FACTS_CHANGED, after="settle"), fact)


def fact_changed(response: HttpResponse, fact: Fact | None) -> HttpResponse:
    """The fact changed: its page's timeline reloads; a change to a pinned fact (its wording, audience, deletion or
    return) changes what the pinned block says too."""
    trigger_client_event(response, HISTORY_CHANGED, after="settle")
    if fact is not None and fact.pinned:
        trigger_client_event(response, PINS_CHANGED, after="settle")
    return response


def fact_or_404(server: Server, number: int) -> Fact:
    try:
        return fact_by_number(server, number)
    except Fact.DoesNotExist:
        raise Http404("No such fact.") from None


def fact_row(request: HtmxHttpRequest, fact: Fact, *, can_configure: bool, refocus: bool | str = True,
         status: int = 200) -> HttpResponse:
    """The fact's row; a plain (non-HTMX) request gets the fact's own page instead."""
    # refocus: the row replaces the form or button that had the keyboard focus; its Edit button takes it (or, after
    # an audience change, the audience now chosen).
    attach_audiences([fact])
    attach_flags([fact])
    context = {"fact": fact, "refocus": refocus, **row_permissions(fact.server_id, can_configure=can_configure)}
    if not request.htmx:
        context.update(fact_page_context(fact, can_configure=can_configure))
        return render(request, "memory/fact_page.html", context, status=status)
    return render(request, "memory/_fact_row.html", context, status=status)


def row_permissions(server_id: int, *, can_configure: bool) -> dict:
    """The row's buttons: every change for a configure user, and Retract where the memory type keeps it."""
    if not can_configure:
        return {"configurable_ids": set(), "retractable_ids": set()}
    return {"configurable_ids": {server_id}, "retractable_ids": servers_retracting_in_place({server_id})}


@panel_login_required
@require_POST
def fact_create_view(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    server = server_for_configurer(request.user, guild_id)
    form = FactCreateForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        audience = data["audience"] or Audience.SERVER
        try:
            fact = fact_create(
                server=server, author=FactAuthor.staff(request.user), key=data["key"], content=data["content"],
                scope=data["scope"], member_id=data["member_id"], confidence=data["confidence"],
                importance=data["importance"], audience=audience, kind=data["kind"] or None,
                # A staff fact records a channel only when it is for that channel.
                source_channel_id=data["channel_id"].strip() if audience == Audience.CHANNEL else "",
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            attach_audiences([fact])
            response = render(request, "memory/_fact_created.html",
                              {"fact": fact, **row_permissions(server.pk, can_configure=True), "server": server,
                               "form": FactCreateForm(), "channels": directory_channels(server)})
            return facts_changed(response)
    response = render(request, "memory/_fact_create_form.html",
                      {"form": form, "server": server, "channels": directory_channels(server)}, status=422)
    return reswap(retarget(response, "#fact-create"), "outerHTML")


@panel_login_required
@require_http_methods(["GET", "POST"])
def fact_detail(request: HtmxHttpRequest, guild_id: str, number: int) -> HttpResponse:
    """GET: the row (e.g. after Cancel). POST: save an edit; a stale version is refused, nothing lost."""
    if request.method == "GET":
        server = server_for_viewer(request.user, guild_id)
        return fact_row(request, fact_or_404(server, number), can_configure=can_configure(request.user, server))
    server = server_for_configurer(request.user, guild_id)
    fact = fact_or_404(server, number)
    form = FactEditForm(request.POST)
    conflict = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            fact = fact_update(fact=fact, actor=request.user, expected_version=data["version"], key=data["key"],
                               content=data["content"], confidence=data["confidence"],
                               importance=data["importance"], kind=data["kind"] or UNCHANGED)
        except FactConflict as stale:
            conflict = stale.current
        except FactGone as gone:
            raise Http404(str(gone)) from None
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return fact_changed(fact_row(request, fact, can_configure=True), fact)
    return render(request, "memory/_fact_edit_row.html",
                  {"fact": conflict or fact, "form": form, "conflict": conflict,
                   "hint": content_hint(request.POST.get("content", ""))}, status=409 if conflict else 422)


@panel_login_required
@require_POST
def fact_audience(request: HtmxHttpRequest, guild_id: str, number: int) -> HttpResponse:
    """Who sees the fact, changed with one click; audited. Widening a fact learned in a private channel answers a
    confirmation naming the channel first; a fact learned nowhere asks which channel a channel audience means."""
    server = server_for_configurer(request.user, guild_id)
    fact = fact_or_404(server, number)
    form = FactAudienceForm(request.POST)
    form.is_valid()  # plain text fields: the service says what is wrong with them
    data = form.cleaned_data
    before = fact.audience
    try:
        fact = fact_audience_set(fact=fact, audience=data.get("audience", ""), actor=request.user,
                                 channel_id=data.get("channel_id", ""), confirm_widening=data.get("confirm", False))
    except FactGone as gone:
        raise Http404(str(gone)) from None
    except WideningNeedsConfirmation as widening:
        return _audience_confirmation(request, fact, data["audience"], widening)
    except ValidationError as error:
        attach_audiences([fact])
        context = {"fact": fact, "errors": error.messages, "channels": directory_channels(server),
                   "asked": data.get("audience", "")}
        template = "memory/_fact_audience_row.html" if request.htmx else "memory/fact_audience_page.html"
        return render(request, template, context, status=422)
    attach_audiences([fact])
    # Undo puts back the audience it had, which was already chosen (and confirmed, if it was wider) before.
    undo = Undo(url=f"{fact.url_base}audience", fields={"audience": before, "confirm": "on"},
                target=f"#fact-{fact.server_id}-{fact.number}") if before != fact.audience else None
    notice_add(request, _audience_said(fact), undo)
    return with_notices(request, fact_changed(fact_row(request, fact, can_configure=True, refocus="audience"), fact))


def _audience_said(fact: Fact) -> str:
    if fact.audience == Audience.STAFF:
        return _("Fact #%(number)s is now for staff only: the bot is not handed it.") % {"number": fact.number}
    if fact.audience == Audience.CHANNEL:
        return _("Fact #%(number)s is now seen only in %(channel)s.") % {"number": fact.number,
                                                                          "channel": fact.source_label}
    return _("Fact #%(number)s is now seen by the whole server.") % {"number": fact.number}


@panel_login_required
@require_POST
def fact_pin(request: HtmxHttpRequest, guild_id: str, number: int) -> HttpResponse:
    """Pin a fact (it goes into every reply, before the others, up to the pinned caps) or unpin it, with one click;
    audited. From a row: the fresh row, and the pinned block reloads; from the pinned block: the block, and the list
    reloads. A retracted fact, or a value that is neither, is refused with a sentence and nothing changes."""
    server = server_for_configurer(request.user, guild_id)
    fact = fact_or_404(server, number)
    form = FactPinForm(request.POST)
    from_block = bool(request.htmx) and request.htmx.target == PINNED_BLOCK
    error = "" if form.is_valid() else " ".join(form.errors["pinned"])
    before = fact.pinned
    if not error:
        try:
            fact = fact_pin_set(fact=fact, pinned=form.cleaned_data["pinned"], actor=request.user)
        except FactGone as gone:
            raise Http404(str(gone)) from None
        except ValidationError as refused:
            error = " ".join(refused.messages)
    if not error and fact.pinned != before:
        said = (_("Fact #%(number)s pinned: the bot gets it in every reply.") if fact.pinned
                else _("Fact #%(number)s unpinned.")) % {"number": fact.number}
        target = f"#{PINNED_BLOCK}" if from_block else f"#fact-{fact.server_id}-{fact.number}"
        notice_add(request, said, Undo(url=f"{fact.url_base}pin", fields={"pinned": str(before).lower()},
                                       target=target))
    if from_block:
        response = render(request, "memory/_pinned_facts.html",
                          {"server": server, "pinned": pinned_facts(server), "can_configure": True, "error": error},
                          status=422 if error else 200)
        return response if error else with_notices(request, facts_changed(response))
    if error:
        attach_audiences([fact])
        context = {"fact": fact, **row_permissions(server.pk, can_configure=True), "refocus": "pin",
                   "pin_error": error}
        if not request.htmx:
            context.update(fact_page_context(fact, can_configure=True))
        template = "memory/_fact_row.html" if request.htmx else "memory/fact_page.html"
        return render(request, template, context, status=422)
    response = with_notices(request, fact_row(request, fact, can_configure=True, refocus="pin"))
    return trigger_client_event(fact_changed(response, None), PINS_CHANGED, after="settle")


def _audience_confirmation(request: HtmxHttpRequest, fact: Fact, audience: str,
                           widening: WideningNeedsConfirmation) -> HttpResponse:
    """The fact would reach people who cannot read the private channel it was learned in: ask first (409: nothing
    changed yet), in the row, or as a page without JavaScript."""
    attach_audiences([fact])
    context = {"fact": fact, "audience": audience, "channel_label": widening.channel_label, "confirming": True}
    template = "memory/_fact_audience_row.html" if request.htmx else "memory/fact_audience_page.html"
    return render(request, template, context, status=409)


@panel_login_required
@require_GET
def fact_edit(request: HtmxHttpRequest, guild_id: str, number: int) -> HttpResponse:
    server = server_for_configurer(request.user, guild_id)
    fact = fact_or_404(server, number)
    form = FactEditForm(initial={"key": fact.key, "content": fact.content, "confidence": fact.confidence,
                                 "importance": fact.importance, "kind": fact.kind, "version": fact.version})
    # The length hint is there at once, not only after the first keystroke.
    return render(request, "memory/_fact_edit_row.html",
                  {"fact": fact, "form": form, "conflict": None, "hint": content_hint(fact.content)})


@panel_login_required
@require_http_methods(["GET", "POST"])
def fact_delete_view(request: HtmxHttpRequest, guild_id: str, number: int) -> HttpResponse:
    """GET asks for confirmation (in the row, or as a page without JavaScript); POST deletes for good."""
    server = server_for_configurer(request.user, guild_id)
    fact = fact_or_404(server, number)
    if request.method == "GET":
        template = "memory/_fact_delete_confirm.html" if request.htmx else "memory/fact_delete_page.html"
        return render(request, template, {"fact": fact})
    fact_delete(fact=fact, actor=request.user)
    # No Undo: a delete removes the fact and its history for good (the confirmation says so).
    notice_add(request, _("Fact #%(number)s deleted for good.") % {"number": fact.number})
    if not request.htmx:
        return redirect(f"{reverse('memory:page')}?server={server.guild_id}")
    return with_notices(request, facts_changed(HttpResponse(""), fact))
