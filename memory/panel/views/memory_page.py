"""The memory page: every fact a user can see, filtered, searched, sorted and paged with HTMX."""

from __future__ import annotations

import re

from django.http import HttpResponse, QueryDict
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from memory.configuration.selectors import ai_settings_for_server
from memory.facts.glance import memory_at_a_glance
from memory.facts.listing import SORTS, FactFilter, FactPage, FactState, fact_page_or_nearest
from memory.facts.selectors import servers_with_retracted_facts
from memory.learning.selectors import learning_status
from memory.usage.budget import BACKGROUND, REPLY, over_budget
from memory.text.hints import content_hint
from memory.models import Audience, ForgetRequest, ForgetRequestStatus, Kind
from memory.types import PROFILES, profile_for
from teams.models import SNOWFLAKE_REGEX, Server
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import can_configure, server_for_viewer, server_ids_configurable_by, servers_visible_to

from ..audiences import attach_audiences, directory_channels
from ..fact_rows import attach_flags, attach_urls, servers_retracting_in_place
from ..forms import FactCreateForm
from ..glance import AXIS, CHART_HEIGHT, CHART_WIDTH, weekly_bars
from ..pinned import pinned_facts
from ..search_blocks import MEMBER_BLOCKS, best_matches, member_facts, members_typed
from .server_memory import summary_block_context

SNOWFLAKE = re.compile(SNOWFLAKE_REGEX)


def fact_list_context(request: HtmxHttpRequest) -> dict:
    """What the list fragment needs; shared by the page and by every fragment that re-renders the list."""
    visible = list(servers_visible_to(request.user))  # the page's server selector lists them all anyway
    guild_id = request.GET.get("server", "")
    chosen = next((server for server in visible if server.guild_id == guild_id), None)
    server_ids = (chosen.pk,) if chosen else tuple(server.pk for server in visible)
    has_retracted = servers_with_retracted_facts(server_ids)
    asked_state = request.GET.get("state", FactState.IN_FORCE)
    state = asked_state if asked_state in FactState.CHOICES and has_retracted else FactState.IN_FORCE
    # A page's address belongs to the list it was read from: once the tab asked for is gone (the last retracted
    # fact restored), the list shown instead starts at its first page.
    after, before = (request.GET.get("after", ""), request.GET.get("before", "")) if state == asked_state else ("", "")
    sort = request.GET.get("sort", "changed")
    sort = sort if sort in SORTS else "changed"
    query = request.GET.get("q", "").replace("\x00", "")[:200]  # PostgreSQL text cannot hold NUL
    # Who may see the facts, and where they were learned: an unknown value shows every fact, as an unknown sort does.
    audience = request.GET.get("audience", "")
    audience = audience if audience in Audience.values else ""
    channel = request.GET.get("channel", "")
    channel = channel if SNOWFLAKE.fullmatch(channel) else ""
    page = fact_page_or_nearest(FactFilter(server_ids=server_ids, query=query, state=state, sort=sort,
                                           audience=audience, channel=channel), after=after, before=before)
    configurable_ids = server_ids_configurable_by(request.user, server_ids)
    blocks = _search_blocks(chosen, query, state=state, page=page)
    rows = [*page.exact_key_facts, *page.facts, *blocks["block_facts"]]
    attach_urls(rows)
    attach_audiences(rows)
    attach_flags(rows)
    shown = _shown_list_query(request, state=state, sort=sort, query=query, page=page,
                              filters={"audience": audience, "channel": channel})
    channels = directory_channels(chosen) if chosen else []
    return {
        "list_query": shown,
        # The channel filter's own form sends the rest of the list's address along, as hidden fields.
        "channel_filter_fields": [(name, value) for name, value in shown.items()
                                  if name not in ("channel", "after", "before")],
        "audience_filters": Audience.choices,
        "audience": audience,
        "channel": channel,
        "channel_choices": channels,
        "channel_unlisted": bool(channel) and channel not in {row.channel_id for row in channels},
        "visible_servers": visible,
        "chosen_server": chosen,
        "page": page,
        "query": query,
        "state": state,
        "sort": sort,
        "has_retracted": has_retracted,
        "configurable_ids": configurable_ids,
        "retractable_ids": servers_retracting_in_place(configurable_ids),
        "show_server_column": chosen is None and len(visible) > 1,
        # Many facts at once: one server's list, for a configure user; the rows of this page for "all on this page".
        "bulk": chosen is not None and chosen.pk in configurable_ids,
        "page_numbers": ",".join(str(fact.number) for fact in [*page.exact_key_facts, *page.facts]),
        "kind_choices": Kind.choices,
        **blocks,
    }


def _search_blocks(chosen: Server | None, query: str, *, state: str, page: FactPage) -> dict:
    """The blocks above the list for a search of one server's facts in force, on the list's first page (like the
    exact-key facts): the facts of each member the query names, and the bot's own search (Best matches). The
    all-servers list has neither: the bot searches one server, and a member id means something on one server."""
    if chosen is None or not query.strip() or state != FactState.IN_FORCE or page.after or page.before:
        return {"member_blocks": [], "more_members": False, "best_matches": None, "block_facts": []}
    named = members_typed(chosen, query)
    member_blocks = [block for member_id, name in named[:MEMBER_BLOCKS]
                     if (block := member_facts(chosen, member_id, name)) is not None]
    found = best_matches(chosen, query)
    return {"member_blocks": member_blocks, "more_members": len(named) > MEMBER_BLOCKS, "best_matches": found,
            "block_facts": [fact for block in member_blocks for fact in block.facts] + (found.facts if found else [])}


def _shown_list_query(request: HtmxHttpRequest, *, state: str, sort: str, query: str, page: FactPage,
                      filters: dict[str, str]) -> QueryDict:
    """The address of the list actually shown, which is not always the one asked for (a page emptied since it was
    opened falls back to the nearest one; a tab that is gone falls back to the facts in force). Links are built on
    it: built on the address asked for, Next would carry the emptied page's state or cursor and lead back to it."""
    shown = request.GET.copy()
    for name, value, default in (("state", state, FactState.IN_FORCE), ("sort", sort, "changed"), ("q", query, "")):
        if name in shown or value != default:
            shown[name] = value
    for name, value in filters.items():  # a filter the list ignored (not an audience, not a channel id) is dropped
        if value:
            shown[name] = value
        else:
            shown.pop(name, None)
    for name in ("after", "before"):
        shown.pop(name, None)
        if getattr(page, name):
            shown[name] = getattr(page, name)
    return shown


def _address_of_list_shown(request: HtmxHttpRequest, response: HttpResponse, shown: QueryDict) -> HttpResponse:
    """Tell htmx the address of the list shown when it differs from the one asked for, so the address bar (and a
    later reload of the browser page) names the page on screen. The list's own reload is no step the user took:
    it replaces the history entry; a link, tab or search the user followed pushes (as its hx-push-url would)."""
    if dict(shown.lists()) != dict(request.GET.lists()):
        header = "HX-Replace-Url" if request.htmx.trigger == "fact-list-reload" else "HX-Push-Url"
        response[header] = f"{request.path}?{shown.urlencode()}"
    return response


@panel_login_required
@require_GET
def memory_page(request: HtmxHttpRequest) -> HttpResponse:
    context = fact_list_context(request)
    if request.htmx and request.htmx.target == "fact-list":
        response = render(request, "memory/_fact_list.html", context)
        return _address_of_list_shown(request, response, context["list_query"])
    chosen = context["chosen_server"]
    if chosen is not None:
        ai_settings = ai_settings_for_server(chosen)
        context.update(
            **summary_block_context(chosen, can_configure=chosen.pk in context["configurable_ids"]),
            ai_settings=ai_settings,
            active_profile=profile_for(ai_settings.memory_type),
            profiles=PROFILES,
            create_form=FactCreateForm(),
            pinned=pinned_facts(chosen),
            forget_requests_waiting=ForgetRequest.objects.filter(server=chosen,
                                                                 status=ForgetRequestStatus.OPEN).count(),
            learning=learning_status(chosen),
            budgets_used_up=[state for which in (REPLY, BACKGROUND)
                             if (state := over_budget(ai_settings, which)) is not None],
        )
    return render(request, "memory/memory_page.html", context)


@panel_login_required
@require_GET
def pinned_block(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """The server's pinned facts, in the order every reply takes them, and which ones the pinned caps leave out; the
    memory page's block reloads from here after a pin changed."""
    server = server_for_viewer(request.user, guild_id)
    context = {"server": server, "pinned": pinned_facts(server), "can_configure": can_configure(request.user, server)}
    template = "memory/_pinned_facts.html" if request.htmx else "memory/pinned_page.html"
    return render(request, template, context)


@panel_login_required
@require_GET
def content_hint_fragment(request: HtmxHttpRequest) -> HttpResponse:
    """Length hint and secret warning for the content being typed (any logged-in user; reads nothing)."""
    return render(request, "memory/_content_hint.html", {"hint": content_hint(request.GET.get("content", ""))})


@panel_login_required
@require_GET
def memory_glance(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """The strip *Memory at a glance* (viewers); the memory page loads it after itself, so a million facts never
    slow the page."""
    server = server_for_viewer(request.user, guild_id)
    glance = memory_at_a_glance(server, now=timezone.now())
    bars, top = weekly_bars(glance)
    return render(request, "memory/_glance.html", {
        "server": server, "glance": glance, "bars": bars, "top": top, "chart_width": CHART_WIDTH,
        "chart_height": CHART_HEIGHT, "axis_y": CHART_HEIGHT - AXIS,
        "weeks_total": sum(count for _, count in glance.weekly_new)})
