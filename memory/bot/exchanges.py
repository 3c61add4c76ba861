"""Exchanges: the context the bot gets for one message, its one search, and how the exchange ended.

Every path that lets the bot touch memory comes through here and memory.bot.actions — the API endpoints, the reply
pipeline, the playground and the Discord adapter — so the rules hold everywhere: every read is made for the
exchange's reader (memory.retrieval.audience: the message's channel, or a thread's parent) and hands over only the
facts that channel may see, and the bot can only retract or supersede a fact it was shown in this exchange (handed
in the context or found by its one search), so never one its channel may not see.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.db import connection
from django.utils import timezone

from config.rows import columns, new_instance
from memory.configuration.channels import channel_access
from memory.configuration.selectors import ai_settings_for_server
from memory.configuration.services import ai_settings_ensure
from memory.facts.selectors import summary_text
from memory.models import Exchange, Fact
from memory.retrieval.audience import Reader
from memory.retrieval.context import ContextChoice, context_choice
from memory.retrieval.fusion import hybrid_ids
from memory.retrieval.shown_facts import facts_in_order
from memory.retrieval.words import SEARCH_RESULT_LIMIT, search_words
from memory.text.limits import clean_text
from memory.types import TypeProfile, profile_for
from teams.models import Server

from .prompt import memory_block

MESSAGE_MAX_LENGTH = 4000


class ExchangeRefused(Exception):
    """The call is not allowed in this exchange's state (API: 409); nothing changed."""


# What the bot sends ----------------------------------------------------------------


@dataclass(frozen=True)
class IncomingMessage:
    channel_id: str
    author_id: str
    content: str
    author_name: str = ""
    thread_parent_id: str = ""


# Context ----------------------------------------------------------------------------


@dataclass
class ExchangeContext:
    exchange: Exchange
    facts: list[Fact]
    summary: str


_EXCHANGE_INSERT = columns(Exchange, "e")


def exchange_open(*, server: Server, message: IncomingMessage, source: str = "api") -> ExchangeContext:
    """Record a new exchange with the context the bot gets: the summary and up to N facts in force that the
    message's channel may see, chosen by the server's memory type, where the channel rules allow reading.
    (Reads plus one INSERT: no transaction needed, which saves two round trips on the hottest path.)"""
    started = time.perf_counter()
    reader = Reader.for_message(message.channel_id, message.thread_parent_id)
    # The row, written with the defaults on a server's first message: the context call's one query reads the
    # settings with the token and the server, so a server without a row would cost a second query every time.
    ai_settings = ai_settings_ensure(server=server)
    profile = profile_for(ai_settings.memory_type)
    access = channel_access(ai_settings, message.channel_id, message.thread_parent_id or None)
    chosen = context_choice(server, ai_settings, message.content, reader) if access.read_allowed else ContextChoice([])
    facts = chosen.facts
    summary = summary_text(server) if access.read_allowed else ""
    exchange = new_instance(  # Exchange(...) without Model.__init__'s per-field work (config/rows.py)
        Exchange,
        server=server,
        source=source,
        channel_id=message.channel_id,
        thread_parent_id=message.thread_parent_id or "",
        author_id=message.author_id,
        author_name=message.author_name[:100],
        message=message.content,
        memory_type=ai_settings.memory_type,
        read_allowed=access.read_allowed,
        write_allowed=access.write_allowed,
        can_search=profile.can_search and access.read_allowed,
        access_reason=access.reason,
        shown_numbers=[fact.number for fact in facts],
        relevance_mode=chosen.relevance_mode,
        relevance_fallback_reason=chosen.relevance_fallback_reason[:300],
        memory_block=memory_block(summary, facts, read_allowed=access.read_allowed),
        duration_ms=int((time.perf_counter() - started) * 1000),
    )
    _EXCHANGE_INSERT.insert(exchange)  # Exchange.objects.create() without the ORM's per-call cost
    return ExchangeContext(exchange=exchange, facts=facts, summary=summary)


# The one search ------------------------------------------------------------------


@dataclass
class SearchOutcome:
    facts: list[Fact]
    mode: str
    fallback_reason: str | None = None


def search_unavailable_reason(exchange: Exchange) -> str:
    """Why an exchange with can_search false cannot search, in one sentence."""
    profile = profile_for(exchange.memory_type)
    if not profile.can_search:
        return f"Search is not part of the {profile.label} memory type."
    return "Memory may not be read in this channel, so it cannot be searched either."


ALREADY_SEARCHED = "This exchange already used its one search."
# Exchanges whose model the bot runs itself (POST /context); the others were answered by Lorekeeper's own
# model (the reply endpoint, the panel's playground, the Discord adapter), which made their search and actions.
BOT_RUN_SOURCE = "api"


def ensure_run_by_bot(exchange: Exchange) -> None:
    """Refuse the bot's search and actions on an exchange Lorekeeper's own model answered (API: 409): its
    record says what that model did, and it must not gain a search or actions it never made."""
    if exchange.source != BOT_RUN_SOURCE:
        raise ExchangeRefused("This exchange was answered by Lorekeeper's own model (the reply endpoint, the panel "
                              "or the Discord adapter), which made its search and memory actions; open a context "
                              "(POST /api/v1/servers/{guild_id}/context) to run your own.")


def _ensure_search_allowed_now(exchange: Exchange) -> None:
    """The rules when the search arrives, as for actions (rules_now): staff may have switched to a type
    without search, or closed the channel to reading, since the context was given."""
    rules = rules_now(exchange)
    if not rules.profile.can_search:
        raise ExchangeRefused(f"Search is not part of the {rules.profile.label} memory type the server uses now.")
    if not rules.read_allowed:
        raise ExchangeRefused("Memory may no longer be read in this channel, so it cannot be searched either.")


def exchange_search(*, exchange: Exchange, query: str) -> SearchOutcome:
    """Run the exchange's one full-text search, over the facts its channel may see; refused (ExchangeRefused)
    where it is not allowed.

    The search only reads, so it runs before the exchange claims its one search with a conditional
    UPDATE: of two simultaneous calls exactly one records its results, the other is refused, and no
    row lock or transaction is held while the search runs."""
    if not exchange.can_search:
        raise ExchangeRefused(search_unavailable_reason(exchange))
    if exchange.searched_at is not None:
        raise ExchangeRefused(ALREADY_SEARCHED)
    _ensure_search_allowed_now(exchange)
    query = clean_text(query)
    outcome = _search(exchange, query)
    facts = outcome.facts
    recorded = {"search_query": query, "searched_at": timezone.now(), "search_mode": outcome.mode,
                "search_fallback_reason": outcome.fallback_reason or "",
                "found_numbers": [fact.number for fact in facts]}
    with connection.cursor() as cursor:  # hand-written: the bot's hot path (config/rows.py)
        cursor.execute(
            "UPDATE memory_exchange SET search_query = %s, searched_at = %s, search_mode = %s,"
            " search_fallback_reason = %s, found_numbers = %s WHERE id = %s AND searched_at IS NULL",
            [*recorded.values(), exchange.pk],
        )
        claimed = cursor.rowcount == 1
    if not claimed:
        raise ExchangeRefused(ALREADY_SEARCHED)
    for name, value in recorded.items():
        setattr(exchange, name, value)
    return outcome


def _search(exchange: Exchange, query: str) -> SearchOutcome:
    """Words; under Semantic words and meaning fused, or words with the reason meaning was not used. For the
    reader the exchange was opened for, whatever channel the search call comes from."""
    reader = Reader.for_exchange(exchange)
    if not profile_for(exchange.memory_type).embeds:
        return SearchOutcome(facts=search_words(exchange.server, query, reader=reader), mode="words")
    ranked = hybrid_ids(exchange.server, ai_settings_for_server(exchange.server), query, SEARCH_RESULT_LIMIT,
                        reader=reader)
    return SearchOutcome(facts=facts_in_order(exchange.server_id, ranked.ids, reader), mode=ranked.mode,
                         fallback_reason=ranked.fallback_reason)


@dataclass(frozen=True)
class Rules:
    """What applies when the search or the actions arrive: the server's type and channel rules now, not at
    context time (staff may have switched to Ledger, or closed the channel to reading or writing, since)."""

    profile: TypeProfile
    read_allowed: bool
    write_allowed: bool
    remember_limit: int  # facts the bot may remember per member and hour


def rules_now(exchange: Exchange) -> Rules:
    ai_settings = ai_settings_for_server(exchange.server)
    access = channel_access(ai_settings, exchange.channel_id, exchange.thread_parent_id or None)
    return Rules(profile=profile_for(ai_settings.memory_type), read_allowed=access.read_allowed,
                 write_allowed=exchange.write_allowed and access.write_allowed,
                 remember_limit=ai_settings.remember_limit_per_hour)


def exchange_finish(*, exchange: Exchange, status: str, reply: str = "", error: str = "", model_calls: int = 0,
                    duration_ms: int | None = None) -> Exchange:
    """Record how the exchange ended (replied or failed)."""
    exchange.status = status
    exchange.reply = reply
    exchange.error = error
    exchange.model_calls = model_calls
    if duration_ms is not None:
        exchange.duration_ms = duration_ms
    exchange.save(update_fields=["status", "reply", "error", "model_calls", "duration_ms"])
    return exchange
