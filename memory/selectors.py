"""Every read of memory: facts, the summary and AI settings."""

from __future__ import annotations

import base64
import json
import math
import re
from dataclasses import dataclass
from datetime import datetime

from django.contrib.postgres.search import SearchQuery
from django.db import connection
from django.db.models import QuerySet

from teams.models import Server

from .models import PREFIX_CONFIG, AISettings, Channel, Exchange, Fact, ModelEndpoint, Summary


def ai_settings_for_server(server: Server) -> AISettings:
    """The server's AI settings; a server nobody has configured yet has the defaults."""
    ai_settings, _ = AISettings.objects.get_or_create(server=server)
    return ai_settings


def summary_current(server: Server) -> Summary | None:
    return Summary.objects.filter(server=server, retracted_at__isnull=True).first()


def facts_in_force(server: Server) -> QuerySet[Fact]:
    return Fact.objects.filter(server=server, retracted_at__isnull=True)


def model_endpoints_for_server(server: Server) -> dict[str, ModelEndpoint]:
    return {endpoint.purpose: endpoint for endpoint in ModelEndpoint.objects.filter(server=server)}


# The memory page -----------------------------------------------------------------

PAGE_SIZE = 50
EXACT_COUNT_LIMIT = 1000


class FactState:
    IN_FORCE = "in_force"
    RETRACTED = "retracted"
    ALL = "all"
    CHOICES = (IN_FORCE, RETRACTED, ALL)


# Each sort names the column pair used for keyset pagination and its direction.
SORTS: dict[str, tuple[str, bool]] = {
    "changed": ("changed_at", True),
    "confidence": ("confidence", True),
    "confidence_asc": ("confidence", False),
    "number": ("number", True),
}


@dataclass(frozen=True)
class FactFilter:
    servers: QuerySet[Server]
    query: str = ""
    state: str = FactState.IN_FORCE
    sort: str = "changed"


@dataclass
class FactPage:
    facts: list[Fact]
    exact_key_facts: list[Fact]
    next_cursor: str | None
    previous_cursor: str | None
    count_label: str


def search_query_for(text: str) -> SearchQuery | None:
    """Prefix full-text query: every word typed must start a word of the key or content, as written
    (no stemming, no stop words: "the" finds "theme", "gamin" finds "gaming")."""
    words = re.findall(r"\w+", text.lower(), flags=re.UNICODE)[:8]
    if not words:
        return None
    return SearchQuery(" & ".join(f"{word}:*" for word in words), search_type="raw", config=PREFIX_CONFIG)


def _filtered_facts(fact_filter: FactFilter) -> QuerySet[Fact]:
    facts = Fact.objects.filter(server__in=fact_filter.servers)
    if fact_filter.state == FactState.IN_FORCE:
        facts = facts.filter(retracted_at__isnull=True)
    elif fact_filter.state == FactState.RETRACTED:
        facts = facts.filter(retracted_at__isnull=False)
    search = search_query_for(fact_filter.query)
    if fact_filter.query.strip() and search is None:
        return facts.none()
    if search is not None:
        facts = facts.filter(search_vector=search)
    return facts


def _encode_cursor(value: object, pk: int) -> str:
    raw = json.dumps([value.isoformat() if isinstance(value, datetime) else value, pk])
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _decode_cursor(cursor: str, column: str) -> tuple[object, int] | None:
    """A cursor from our own links; anything else (edited, truncated, absurd numbers) means page 1."""
    try:
        value, pk = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if column == "changed_at":
            value = datetime.fromisoformat(value)
        elif column == "confidence":
            value = float(value)
            if not math.isfinite(value):
                return None
        else:
            value = int(value)
        pk = int(pk)
    except (ValueError, TypeError, OverflowError, json.JSONDecodeError):
        return None
    if not (0 <= pk < 2**63) or (column == "number" and not 0 <= value < 2**31):
        return None
    return value, pk


def _count_label(facts: QuerySet[Fact]) -> str:
    """Exact up to 1,000; above that the planner's estimate, so no keystroke counts a million rows."""
    exact = facts[: EXACT_COUNT_LIMIT + 1].count()
    if exact <= EXACT_COUNT_LIMIT:
        return f"{exact} fact{'s' if exact != 1 else ''}"
    sql, params = facts.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
        plan = cursor.fetchone()[0]
    plan = json.loads(plan) if isinstance(plan, str) else plan
    estimate = max(int(plan[0]["Plan"]["Plan Rows"]), EXACT_COUNT_LIMIT + 1)
    return f"about {estimate:,} facts"


def fact_page(fact_filter: FactFilter, *, after: str = "", before: str = "", page_size: int = PAGE_SIZE) -> FactPage:
    """One page of the memory list, by keyset (no OFFSET): fast on page 1 and page 5,000 alike."""
    column, descending = SORTS.get(fact_filter.sort, SORTS["changed"])
    facts = _filtered_facts(fact_filter).select_related("server", "author_user", "superseded_by")
    exact_key_facts: list[Fact] = []
    key = re.sub(r"\s+", "_", fact_filter.query.strip().lower())
    if key and not after and not before:
        exact_key_facts = list(
            _filtered_facts(FactFilter(fact_filter.servers, "", fact_filter.state))
            .filter(key=key)
            .select_related("server", "author_user", "superseded_by")[:page_size]
        )
    if key:
        facts = facts.exclude(key=key)

    cursor = _decode_cursor(before or after, column) if (before or after) else None
    backwards = bool(before) and cursor is not None
    if cursor is not None:
        # Row comparison lets PostgreSQL walk the (server, column, id) index from the cursor on.
        goes_down = descending != backwards
        operator = "<" if goes_down else ">"
        facts = facts.extra(where=[f"(memory_fact.{column}, memory_fact.id) {operator} (%s, %s)"], params=list(cursor))
    newest_first = descending != backwards
    order = [f"-{column}", "-id"] if newest_first else [column, "id"]
    rows = list(facts.order_by(*order)[: page_size + 1])
    has_more = len(rows) > page_size
    rows = rows[:page_size]
    if backwards:
        rows.reverse()
    on_later_page = cursor is not None
    next_cursor = _encode_cursor(getattr(rows[-1], column), rows[-1].pk) if rows and (has_more or backwards) else None
    previous_cursor = (
        _encode_cursor(getattr(rows[0], column), rows[0].pk)
        if rows and on_later_page and (has_more or not backwards) else None
    )
    return FactPage(
        facts=rows,
        exact_key_facts=exact_key_facts,
        next_cursor=next_cursor,
        previous_cursor=previous_cursor,
        count_label=_count_label(_filtered_facts(fact_filter)),
    )


def servers_with_retracted_facts(servers: QuerySet[Server]) -> bool:
    return Fact.objects.filter(server__in=servers, retracted_at__isnull=False).exists()


def fact_by_number(server: Server, number: int) -> Fact:
    return Fact.objects.select_related("server", "author_user", "superseded_by").get(server=server, number=number)



def exchanges_for_server(server: Server) -> QuerySet[Exchange]:
    return Exchange.objects.filter(server=server).order_by("-created_at")


def channel_names(server: Server) -> dict[str, str]:
    """Channel id → name, as last reported by the Discord adapter (empty until it has run)."""
    return dict(Channel.objects.filter(server=server).values_list("channel_id", "name"))
