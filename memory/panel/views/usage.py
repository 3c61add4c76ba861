"""A server's usage page: the tokens its model calls used per day, the monthly budgets and where this month stands.
Viewers read it."""

from __future__ import annotations

from datetime import timezone as dt_timezone

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from memory.configuration.selectors import ai_settings_for_server
from memory.models import UsagePurpose
from memory.usage.budget import BACKGROUND, REPLY, budget_state, period_start, tokens_used
from memory.usage.selectors import daily_usage
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import can_configure, server_for_viewer

from ..usage_chart import DAYS, chart_since, usage_charts


@panel_login_required
@require_GET
def usage_page(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    server = server_for_viewer(request.user, guild_id)
    ai_settings = ai_settings_for_server(server)
    now = timezone.now()
    today = now.astimezone(dt_timezone.utc).date()
    charts = usage_charts(daily_usage(server.pk, chart_since(today)), today, ai_settings.reply_token_budget,
                          ai_settings.background_token_budget)
    embedding_used, embedding_unknown = tokens_used(server.pk, (UsagePurpose.EMBEDDING,), now)
    return render(request, "memory/usage_page.html", {
        "server": server,
        "charts": charts,
        "days": DAYS,
        "states": [budget_state(ai_settings, REPLY, now), budget_state(ai_settings, BACKGROUND, now)],
        "embedding_used": embedding_used,
        "embedding_unknown": embedding_unknown,
        "period_start": period_start(now),
        "can_configure": can_configure(request.user, server),
    })
