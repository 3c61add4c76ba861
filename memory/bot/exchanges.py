"""Exchanges: the context the bot gets for one message, its one search, and how the exchange ended.

Every path that lets the bot touch memory comes through here and memory.bot.actions — the API endpoints, the reply
pipeline, the playground and the Discord adapter — so the rules hold everywhere: every read is made for the
exchange's reader (memory.retrieval.audience: the message's channel, or a thread's parent) and hands over only the
facts that channel may see, and the bot can only retract or supersede a fact it was shown in this exchange (handed
in the context or found by its one search), so never one its channel may not see.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property

from django.db import connection
from django.utils import timezone

from config.rows import columns, new_instance
from memory.configuration.channels import ChannelAccess, channel_access
from memory.configuration.directory import MEMBERS_SEEN_WITH_SQL, SeenMember, members_seen_params, seen_names
from memory.configuration.selectors import ai_settings_for_server
from memory.configuration.services import ai_settings_ensure
from memory.facts.selectors import summary_text
from memory.learning.notes import channel_note
from memory.models import AISettings, Exchange, Fact
from memory.retrieval.audience import Reader
from memory.retrieval.context import MEMBERS_MAX, ContextChoice, ContextFor, context_choice, speaking_members
from memory.retrieval.fusion import hybrid_ids, search_words
from memory.retrieval.shown_facts import facts_in_order
from memory.retrieval.words import SEARCH_RESULT_LIMIT
from memory.text.limits import clean_text
from memory.types import TypeProfile, profile_for
from teams.models import Server

from .prompt import MemoryBlock, Persona, Person, memory_block

MESSAGE_MAX_LENGTH = 4000


class ExchangeRefused(Exception):
    """The call is not allowed in this exchange's state (API: 409); nothing changed."""


# What the bot sends ----------------------------------------------------------------

MENTIONS_MAX = MEMBERS_MAX - 1  # the context reads the author and at most this many members mentioned


@dataclass(frozen=True)
class IncomingMessage:
    channel_id: str
    author_id: str
    content: str
    author_name: str = ""
    thread_parent_id: str = ""
    mentions: tuple[SeenMember, ...] = ()  # the members the message mentions (their ids and display names)
    message_id: str = ""  # the Discord message, when the bot says which: deleting it withdraws what it taught

    @cached_property
    def members(self) -> tuple[str, ...]:
        """The members the message is about: its author, then those it mentions."""
        return speaking_members(self.author_id, (member.member_id for member in self.mentions))

    @cached_property
    def mentioned_ids(self) -> tuple[str, ...]:
        """The members mentioned, each once, the author left out."""
        return tuple(member for member in self.members if member != self.author_id)

    @property
    def context_for(self) -> ContextFor:
        return ContextFor(Reader.for_message(self.channel_id, self.thread_parent_id), self.members)


# Context ----------------------------------------------------------------------------


@dataclass
class ExchangeContext:
    exchange: Exchange
    facts: list[Fact]  # as the block lists them: pinned first, then the others oldest first
    summary: str
    persona: Persona = field(default_factory=Persona)
    names: dict[str, str] = field(default_factory=dict)  # member id → display name, for the search's lines


@dataclass(frozen=True)
class BuiltContext:
    """A message's context before it is recorded: what the type chose, the block, and what the rules allow."""

    ai_settings: AISettings
    access: ChannelAccess
    choice: ContextChoice
    block: MemoryBlock
    summary: str
    names: dict[str, str]


def _names(message: IncomingMessage, directory: dict[str, str]) -> dict[str, str]:
    """Display names by member id: the directory's, and those the message gives (fresher) over them."""
    given = {message.author_id: message.author_name.strip(),
             **{member.member_id: member.display_name.strip() for member in message.mentions}}
    return {**directory, **{member_id: name[:100] for member_id, name in given.items() if name}}


def _channel_note(server: Server, channel_id: str) -> str:
    """The channel's running note: read with the token and the server by the context call (memory.bot.selectors),
    asked for otherwise (the reply, the playground)."""
    read = getattr(server, "current_channel_note", None)
    if read is not None and read[0] == channel_id:
        return read[1]
    return channel_note(server, channel_id) if channel_id else ""


def context_build(*, server: Server, message: IncomingMessage) -> BuiltContext:
    """The context of a message as the bot gets it (exchange_open records it; the panel's dry runs show it): the
    pinned facts, the speaker's share and the rest by the server's memory type (memory.retrieval.context), those
    the character budget keeps in the block, and the summary, where the channel rules allow reading. Only reads."""
    # The row, written with the defaults on a server's first message: the context call's one query reads the
    # settings with the token and the server, so a server without a row would cost a second query every time.
    ai_settings = ai_settings_ensure(server=server)
    access = channel_access(ai_settings, message.channel_id, message.thread_parent_id or None)
    chosen = (context_choice(server, ai_settings, message.content, message.context_for) if access.read_allowed
              else ContextChoice())
    names = _names(message, chosen.names)
    # A message with no author (the playground, speaking as nobody) names no speaker rather than "member ".
    speaker = Person(message.author_id, names.get(message.author_id, "")) if message.author_id else None
    mentioned = [Person(member_id, names.get(member_id, "")) for member_id in message.mentioned_ids]
    summary = summary_text(server) if access.read_allowed else ""
    note = _channel_note(server, message.channel_id) if access.read_allowed else ""
    block = memory_block(summary, chosen.pinned, [*chosen.speaker, *chosen.general], read_allowed=access.read_allowed,
                         names=names, speaker=speaker, mentioned=mentioned, max_chars=ai_settings.max_memory_chars,
                         channel_note=note)
    return BuiltContext(ai_settings, access, chosen, block, summary, names)


_EXCHANGE_INSERT = columns(Exchange, "e")


def exchange_open(*, server: Server, message: IncomingMessage, source: str = "api") -> ExchangeContext:
    """Record a new exchange with the context the bot gets (context_build), and the display names of the author
    and the members mentioned in the member directory, in the same statement.
    (Reads plus one INSERT: no transaction needed, which saves two round trips on the hottest path.)"""
    started = time.perf_counter()
    built = context_build(server=server, message=message)
    ai_settings, access, block = built.ai_settings, built.access, built.block
    shown = set(map(id, block.shown))
    exchange = new_instance(  # Exchange(...) without Model.__init__'s per-field work (config/rows.py)
        Exchange,
        server=server,
        source=source,
        channel_id=message.channel_id,
        thread_parent_id=message.thread_parent_id or "",
        author_id=message.author_id,
        author_name=message.author_name[:100],
        message_id=message.message_id,
        message=message.content,
        memory_type=ai_settings.memory_type,
        read_allowed=access.read_allowed,
        write_allowed=access.write_allowed,
        can_search=profile_for(ai_settings.memory_type).can_search and access.read_allowed,
        access_reason=access.reason,
        shown_numbers=[fact.number for fact in block.shown],
        pinned_numbers=[fact.number for fact in block.pinned],
        speaker_numbers=[fact.number for fact in built.choice.speaker if id(fact) in shown],
        budget_cut_numbers=[fact.number for fact in block.cut],
        mentioned_ids=list(message.mentioned_ids),
        relevance_mode=built.choice.relevance_mode,
        relevance_fallback_reason=built.choice.relevance_fallback_reason[:300],
        memory_block=block.text,
        duration_ms=int((time.perf_counter() - started) * 1000),
    )
    # The names the directory does not hold as the message gives them: the context read the directory's names of the
    # message's members (ContextChoice.names), so a name already stored as it is needs no upsert (MEMBERS_SEEN_WITH_SQL
    # would leave it out itself), and most messages need no WITH clause at all.
    directory = built.choice.names
    seen = {member_id: name for member_id, name in
            seen_names([SeenMember(message.author_id, message.author_name), *message.mentions]).items()
            if directory.get(member_id) != name}
    # Exchange.objects.create() without the ORM's per-call cost, and the names in the same round trip
    _EXCHANGE_INSERT.insert(exchange, with_sql=MEMBERS_SEEN_WITH_SQL if seen else "",
                            with_params=members_seen_params(server, seen) if seen else ())
    return ExchangeContext(exchange=exchange, facts=block.shown, summary=built.summary,
                           persona=Persona.of(ai_settings), names=built.names)


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
