"""The exchange log of a server and the playground: what the bot saw and did, and a place to try it."""

from __future__ import annotations

from datetime import datetime
from datetime import timezone as dt_timezone

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_http_methods

from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.bot.prompt import Persona, system_prompt
from memory.bot.reply import ReplyFailed, ReplyOverBudget, reply_to_message
from memory.bot.selectors import exchanges_for_server
from memory.configuration.selectors import ai_settings_for_server, channel_names, model_endpoints_for_server
from memory.models import Exchange, ExchangeStatus, ModelPurpose
from memory.types import profile_for
from memory.usage.selectors import exchange_model_calls
from teams.models import Server
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import can_configure, server_for_configurer, server_for_viewer

from ..exchange_context import ExchangeFilters, attach_fact_keys, injected_facts
from ..forms import PlaygroundForm

EXCHANGE_PAGE_SIZE = 25


@panel_login_required
@require_GET
def exchange_list(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """Newest first, filtered by member, channel, status and whether memory was used; 'Older exchanges' loads the
    next page in place, with the same filters."""
    server = server_for_viewer(request.user, guild_id)
    filters = ExchangeFilters.from_query(request.GET)
    exchanges = filters.apply(exchanges_for_server(server))
    before = request.GET.get("before", "")
    try:
        moment = datetime.fromisoformat(before) if before else None
        if moment is not None and moment.tzinfo is not None:
            exchanges = exchanges.filter(created_at__lt=moment.astimezone(dt_timezone.utc))
        else:
            before = ""
    except (ValueError, OverflowError):
        before = ""
    rows = list(exchanges[: EXCHANGE_PAGE_SIZE + 1])
    shown = rows[:EXCHANGE_PAGE_SIZE]
    for exchange in shown:
        exchange.injected = injected_facts(exchange, server)
    attach_fact_keys(shown, server)
    context = {
        "server": server,
        "exchanges": shown,
        "next_before": rows[EXCHANGE_PAGE_SIZE - 1].created_at.isoformat() if len(rows) > EXCHANGE_PAGE_SIZE else "",
        "more_query": filters.query_prefix(),
        "filters": filters,
        "statuses": ExchangeStatus.choices,
        "is_first_page": not before,
        "channels": channel_names(server),
        "can_configure": can_configure(request.user, server),
    }
    template = "memory/_exchange_rows.html" if request.htmx else "memory/exchanges_page.html"
    return render(request, template, context)


@panel_login_required
@require_GET
def exchange_detail(request: HtmxHttpRequest, guild_id: str, exchange_id) -> HttpResponse:
    server = server_for_viewer(request.user, guild_id)
    exchange = exchanges_for_server(server).filter(pk=exchange_id).first()
    if exchange is None:
        raise Http404("No such exchange.")
    # How long its words were kept, when they were removed (AISettings.exchange_log_days, memory.bot.retention).
    kept_days = (exchange.trimmed_at - exchange.created_at).days if exchange.trimmed_at else None
    exchange.injected = injected_facts(exchange, server)
    attach_fact_keys([exchange], server)
    return render(request, "memory/exchange_page.html",
                  {"server": server, "exchange": exchange, "channels": channel_names(server), "kept_days": kept_days,
                   "model_calls": exchange_model_calls(exchange.pk), "can_configure": can_configure(request.user, server)})


@panel_login_required
@require_http_methods(["GET", "POST"])
def playground(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """Talk to the bot as a member in a channel, through the real reply pipeline. Configure users only, GET too: a
    message records an exchange, calls the server's reply model and applies the model's memory actions."""
    server = server_for_configurer(request.user, guild_id)
    has_reply_model = ModelPurpose.REPLY in model_endpoints_for_server(server)
    form = PlaygroundForm(request.POST or None)
    context = {"server": server, "form": form, "has_reply_model": has_reply_model, "over_budget": ""}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        message = IncomingMessage(channel_id=data["channel_id"], thread_parent_id=data["thread_parent_id"],
                                  author_id=data["member_id"], author_name=data["member_name"],
                                  content=data["message"])
        if has_reply_model:
            try:
                outcome = reply_to_message(server=server, message=message, history=form.history_messages(),
                                           source="playground")
                context.update(exchange=outcome.exchange, reply=outcome.reply)
            except ReplyFailed as failed:
                context.update(exchange=failed.exchange, failure=failed.reason)
            except ReplyOverBudget as spent:
                context["over_budget"] = spent.reason
        else:
            context["exchange"] = exchange_open(server=server, message=message, source="playground").exchange
    if "exchange" in context:
        context["exchange"].injected = injected_facts(context["exchange"], server)
        attach_fact_keys([context["exchange"]], server)
        context["system_prompt"] = playground_system_prompt(server, context["exchange"])
    template = "memory/_playground_result.html" if request.htmx else "memory/playground_page.html"
    return render(request, template, context, status=422 if form.errors else 200)


def playground_system_prompt(server: Server, exchange: Exchange) -> str:
    """The system prompt the reply model got for this exchange (or would get, without a reply model): the reply
    pipeline's own prompt (memory.bot.prompt) with the server's persona, around the memory block the exchange
    recorded. Built again right after the reply from what the pipeline used (ReplyOutcome does not carry it)."""
    return system_prompt(server.name, profile_for(exchange.memory_type), exchange.memory_block,
                         can_search=exchange.can_search, persona=Persona.of(ai_settings_for_server(server)))
