"""Purge by source: every fact learned in one channel (its threads too) or in one exchange, counted before anyone
confirms it. Beside the wipe on the memory page; the exchange page links here with its id."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from memory.facts.deletes import facts_purge
from memory.facts.selectors import PurgeSource, facts_learned_in
from memory.text.numbers import grouped
from teams.models import Server
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import server_for_configurer

from ..audiences import directory_channels
from ..forms import PurgeForm

PREVIEW = 5


def _asked(query: QueryDict) -> dict | None:
    """The source named in the address (None: nothing chosen yet). ?exchange=… (the exchange page's link) and
    ?channel=… choose their kind of source by themselves."""
    if not any(name in query for name in ("source", "channel", "exchange")):
        return None
    data = {name: query.get(name, "") for name in ("source", "channel", "exchange")}
    if "source" not in query:
        data["source"] = PurgeForm.EXCHANGE if data["exchange"] else PurgeForm.CHANNEL
    return data


@panel_login_required
@require_http_methods(["GET", "POST"])
def purge(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """Two steps. Choose the source (nothing chosen beforehand), then see how many facts were learned there and
    confirm; POST deletes them (in force or retracted), audited, also when none matched."""
    server = server_for_configurer(request.user, guild_id)
    data = request.POST if request.method == "POST" else _asked(request.GET)
    form = PurgeForm(data, server=server)
    if data is None or not form.is_valid():
        return _page(request, server, form, status=200 if data is None else 422)
    source = form.cleaned_data["purge_source"]
    if request.method == "POST":
        removed = facts_purge(server=server, source=source, actor=request.user)
        messages.success(request, ngettext("Purged %(count)s fact learned in %(where)s.",
                                           "Purged %(count)s facts learned in %(where)s.", removed)
                         % {"count": grouped(removed), "where": _where(source)})
        memory_url = f"{reverse('memory:page')}?server={server.guild_id}"
        return HttpResponseClientRedirect(memory_url) if request.htmx else redirect(memory_url)
    return _page(request, server, form, source=source)


def _page(request: HtmxHttpRequest, server: Server, form: PurgeForm, *, source: PurgeSource | None = None,
          status: int = 200) -> HttpResponse:
    """The choice (source None) or the count to confirm; the card alone for HTMX."""
    context = {"server": server, "form": form, "channels": directory_channels(server, threads=True)}
    if source is not None:
        learned = facts_learned_in(server, source)
        counts = learned.aggregate(total=Count("id"), in_force=Count("id", filter=Q(retracted_at__isnull=True)))
        context.update(source=source, where=_where(source), total=counts["total"],
                       in_force=counts["in_force"], retracted=counts["total"] - counts["in_force"],
                       preview=list(learned.order_by("-changed_at", "-id")[:PREVIEW]))
    template = "memory/_purge.html" if request.htmx else "memory/purge_page.html"
    return render(request, template, context, status=status)


def _where(source: PurgeSource) -> str:
    """The channel or exchange, as the page says it (the audit row keeps PurgeSource.describe, in English)."""
    if source.exchange_id is not None:
        return gettext("exchange %(id)s") % {"id": source.exchange_id}
    return f"#{source.channel_name}" if source.channel_name else gettext("channel %(id)s") % {"id": source.channel_id}
