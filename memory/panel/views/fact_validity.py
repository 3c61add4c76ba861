"""A fact's validity window from its row: staff retract a fact in force with a reason (where the memory type keeps
it: Ledger and up), and restore a retracted one after one line saying why it was retracted and by whom."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from memory.facts.selectors import fact_last_retraction
from memory.facts.services import FactGone, fact_restore, fact_retract_by_staff
from memory.models import Fact
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import server_for_configurer

from ..fact_rows import servers_retracting_in_place
from ..history_forms import FactRetractForm
from ..notices import Undo, notice_add, with_notices
from .facts import fact_or_404, fact_row, facts_changed

DELETES_INSTEAD = gettext_lazy("Under this memory type a fact that no longer holds is deleted, not retracted: use "
                               "Delete, or choose Ledger or a later type to keep retracted facts with their reason.")


def _retract_form(request: HtmxHttpRequest, fact: Fact, form: FactRetractForm, *, error: str = "",
                  status: int = 200, refused: bool = False) -> HttpResponse:
    template = "memory/_fact_retract_form.html" if request.htmx else "memory/fact_retract_page.html"
    return render(request, template, {"fact": fact, "form": form, "error": error, "refused": refused}, status=status)


@panel_login_required
@require_http_methods(["GET", "POST"])
def fact_retract_view(request: HtmxHttpRequest, guild_id: str, number: int) -> HttpResponse:
    """GET: the reason's form, in the row (or as a page without JavaScript). POST: retract, kept as a version with
    the reason; an empty reason, a retracted fact or a type that deletes instead changes nothing and says why."""
    server = server_for_configurer(request.user, guild_id)
    fact = fact_or_404(server, number)
    if server.pk not in servers_retracting_in_place({server.pk}):
        return _retract_form(request, fact, FactRetractForm(), error=DELETES_INSTEAD, status=422,
                             refused=True)
    if request.method == "GET":
        return _retract_form(request, fact, FactRetractForm())
    form = FactRetractForm(request.POST)
    if not form.is_valid():
        return _retract_form(request, fact, form, status=422)
    try:
        fact = fact_retract_by_staff(fact=fact, reason=form.cleaned_data["reason"], actor=request.user)
    except FactGone as gone:
        raise Http404(str(gone)) from None
    except ValidationError as refused:
        return _retract_form(request, fact, form, error=" ".join(refused.messages), status=422)
    # The row leaves a list of facts in force when it reloads, so Undo swaps nothing itself: its notice and the
    # list's reload show the fact back.
    notice_add(request, _("Fact #%(number)s retracted: the bot no longer sees it.") % {"number": number},
               Undo(url=f"{fact.url_base}restore", fields={}, target="this", swap="none"))
    return with_notices(request, facts_changed(fact_row(request, fact_or_404(server, number), can_configure=True),
                                               fact))


@panel_login_required
@require_http_methods(["GET", "POST"])
def fact_restore_view(request: HtmxHttpRequest, guild_id: str, number: int) -> HttpResponse:
    """GET asks first, in one line: why the fact was retracted and by whom (in the row, or as a page). POST puts it
    back in force; its version keeps the retraction, so its page still says so."""
    server = server_for_configurer(request.user, guild_id)
    fact = fact_or_404(server, number)
    if request.method == "GET":
        if fact.retracted_at is None:  # restored by someone else meanwhile: show it as it is
            return fact_row(request, fact, can_configure=True)
        template = "memory/_fact_restore_confirm.html" if request.htmx else "memory/fact_restore_page.html"
        return render(request, template, {"fact": fact, "retraction": fact_last_retraction(fact)})
    reason = fact.retraction_reason
    try:
        fact_restore(fact=fact, actor=request.user)
    except FactGone as gone:
        raise Http404(str(gone)) from None
    except ValidationError:  # already in force (restored by someone else): show it as it is
        notice_add(request, _("Fact #%(number)s was already in force: nothing changed.") % {"number": number})
    else:
        notice_add(request, _("Fact #%(number)s restored: the bot sees it again.") % {"number": number},
                   _retract_again(fact, reason))
    restored = fact_or_404(server, number)
    return with_notices(request, facts_changed(fact_row(request, restored, can_configure=True), restored))


def _retract_again(fact: Fact, reason: str) -> Undo | None:
    """Undo of a restore: retracted again with the reason it had, where the memory type keeps retracted facts (a
    Classic retract would delete it, which is no undo). A fact another one replaced gets no Undo: a retract cannot
    put back which fact replaced it."""
    if not reason or fact.superseded_by_id or fact.server_id not in servers_retracting_in_place({fact.server_id}):
        return None
    return Undo(url=f"{fact.url_base}retract", fields={"reason": reason}, target="this", swap="none")
