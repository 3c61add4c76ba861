"""A page per member (viewers): who they are, what the bot knows about them and learned from their messages (in force
and retracted, with audiences), their recent exchanges, and for configure users the way to wipe them, counted first.
Every member id on the panel links here."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from memory.bot.selectors import exchanges_for_server
from memory.configuration.selectors import channel_names, member_names
from memory.facts.selectors import member_memory, member_wipe_counts
from memory.facts.validation import validate_member_id
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import can_configure, server_for_viewer

from ..audiences import attach_audiences
from ..exchange_context import attach_fact_keys, injected_facts
from ..fact_rows import attach_flags, attach_urls
from .facts import row_permissions

# The newest few, each summarised (about a millisecond to render apiece); the exchange log filtered by the member has
# them all.
MEMBER_EXCHANGES = 5


@panel_login_required
@require_GET
def member_page(request: HtmxHttpRequest, guild_id: str, member_id: str) -> HttpResponse:
    server = server_for_viewer(request.user, guild_id)
    try:
        member_id = validate_member_id(member_id)
    except ValidationError:
        raise Http404("A member is named by their Discord user id (1–20 digits).") from None
    memory = member_memory(server, member_id, about_after=request.GET.get("about_after", ""),
                           learned_after=request.GET.get("learned_after", ""))
    facts = [*memory.about, *memory.learned_from]
    attach_urls(facts)
    attach_audiences(facts)
    attach_flags(facts)
    exchanges = list(exchanges_for_server(server).filter(author_id=member_id)[:MEMBER_EXCHANGES])
    for exchange in exchanges:
        exchange.injected = injected_facts(exchange, server)
    attach_fact_keys(exchanges, server)
    configure = can_configure(request.user, server)
    name = member_names(server, {member_id}).get(member_id, "")
    if not name and exchanges:
        name = exchanges[0].author_name
    return render(request, "memory/member_page.html", {
        "server": server, "member_id": member_id, "member_name": name, "memory": memory, "exchanges": exchanges,
        "about_after": request.GET.get("about_after", ""), "learned_after": request.GET.get("learned_after", ""),
        "channels": channel_names(server), "can_configure": configure,
        "wipe_counts": member_wipe_counts(server, member_id, memory=memory) if configure else None,
        **row_permissions(server.pk, can_configure=configure)})
