"""Exchanges: the context the bot gets for one message, its one search, and its memory actions.

Every path that lets the bot touch memory comes through here — the API endpoints, the reply pipeline,
the playground and the Discord adapter — so the rule holds everywhere: the bot can only retract or
supersede a fact it was shown in this exchange (handed in the context or found by its one search).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone

from config.rows import columns, new_instance
from teams.models import Server

from memory.configuration.channels import channel_access
from .types import TypeProfile, profile_for
from .models import AuthorKind, Exchange, Fact, Scope
from .prompt import memory_block
from memory.retrieval.context import ContextChoice, context_choice
from memory.retrieval.shown_facts import facts_in_order
from memory.retrieval.words import SEARCH_RESULT_LIMIT, search_words
from memory.configuration.selectors import ai_settings_for_server
from memory.configuration.services import ai_settings_ensure
from memory.facts.selectors import summary_text
from memory.facts.services import FactAuthor, fact_create, fact_delete, fact_retract, validate_member_id
from memory.text.limits import clean_text, validate_content, validate_key, validate_unit_interval

REASON_MAX_LENGTH = 500
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


@dataclass(frozen=True)
class Retract:
    number: int
    reason: str
    op: str = "retract"


@dataclass(frozen=True)
class Supersede:
    number: int
    content: str
    reason: str
    op: str = "supersede"


@dataclass(frozen=True)
class Remember:
    key: str
    content: str
    scope: str = Scope.SERVER
    member_id: str = ""
    importance: float | None = None
    confidence: float = 1.0
    op: str = "remember"


MemoryOp = Retract | Supersede | Remember


@dataclass
class ActionResult:
    op: str
    status: str  # applied | ignored
    number: int | None = None
    detail: str | None = None
    new_number: int | None = None

    def as_dict(self) -> dict:
        return {key: value for key, value in asdict(self).items() if value is not None}


def validate_reason(raw: object, field_name: str = "reason") -> str:
    if not isinstance(raw, str) or len(clean_text(raw).strip()) > REASON_MAX_LENGTH:
        raise ValidationError({field_name: f"The {field_name} must be text of at most {REASON_MAX_LENGTH} characters."})
    return clean_text(raw).strip()


def validate_number(raw: object, field_name: str = "number") -> int:
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)  # JSON has one number type: 12.0 is the whole number 12 (and valid for the schema's integer)
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= 2**31 - 1:
        raise ValidationError({field_name: f"The {field_name} must be a whole number from 1 to 2147483647."})
    return raw


def build_remember(*, key: object, content: object, scope: object = Scope.SERVER, member_id: object = None,
                   importance: object = None, confidence: object = 1.0) -> Remember:
    """A validated Remember; raises ValidationError naming the field (used by API and tool calls)."""
    if not isinstance(key, str):
        raise ValidationError({"key": "The key must be text of 1–64 characters."})
    if not isinstance(content, str):
        raise ValidationError({"content": "The content must be text of 1–1000 characters."})
    if scope not in Scope.values:
        raise ValidationError({"scope": "The scope must be 'server' or 'member'."})
    if scope == Scope.SERVER and member_id not in (None, ""):
        # Dropping it would turn a member's private detail into a fact for the whole server.
        raise ValidationError({"member_id": "A server fact is about no member: leave member_id out, or set scope "
                                            "to 'member'."})
    member = validate_member_id(member_id if isinstance(member_id, str) else "") if scope == Scope.MEMBER else ""
    return Remember(
        key=validate_key(key), content=validate_content(content), scope=scope, member_id=member,
        importance=validate_unit_interval(importance, "importance", allow_none=True),
        confidence=validate_unit_interval(confidence, "confidence"),
    )


# Context ----------------------------------------------------------------------------


@dataclass
class ExchangeContext:
    exchange: Exchange
    facts: list[Fact]
    summary: str


_EXCHANGE_INSERT = columns(Exchange, "e")


def exchange_open(*, server: Server, message: IncomingMessage, source: str = "api") -> ExchangeContext:
    """Record a new exchange with the context the bot gets: the summary and up to N facts in force,
    chosen by the server's memory type, where the channel rules allow reading. (Reads plus one INSERT:
    no transaction needed, which saves two round trips on the hottest path.)"""
    started = time.perf_counter()
    # The row, written with the defaults on a server's first message: the context call's one query reads the
    # settings with the token and the server, so a server without a row would cost a second query every time.
    ai_settings = ai_settings_ensure(server=server)
    profile = profile_for(ai_settings.memory_type)
    access = channel_access(ai_settings, message.channel_id, message.thread_parent_id or None)
    chosen = context_choice(server, ai_settings, message.content) if access.read_allowed else ContextChoice([])
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


def _locked_exchange(exchange: Exchange) -> Exchange:
    return Exchange.objects.select_for_update().select_related("server").get(pk=exchange.pk)


def _ensure_search_allowed_now(exchange: Exchange) -> None:
    """The rules when the search arrives, as for actions (_rules_now): staff may have switched to a type
    without search, or closed the channel to reading, since the context was given."""
    rules = _rules_now(exchange)
    if not rules.profile.can_search:
        raise ExchangeRefused(f"Search is not part of the {rules.profile.label} memory type the server uses now.")
    if not rules.read_allowed:
        raise ExchangeRefused("Memory may no longer be read in this channel, so it cannot be searched either.")


def exchange_search(*, exchange: Exchange, query: str) -> SearchOutcome:
    """Run the exchange's one full-text search; refused (ExchangeRefused) where it is not allowed.

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
    """Words; under Semantic words and meaning fused, or words with the reason meaning was not used."""
    if not profile_for(exchange.memory_type).embeds:
        return SearchOutcome(facts=search_words(exchange.server, query), mode="words")
    from memory.retrieval.fusion import hybrid_ids

    ranked = hybrid_ids(exchange.server, ai_settings_for_server(exchange.server), query, SEARCH_RESULT_LIMIT)
    return SearchOutcome(facts=facts_in_order(ranked.ids), mode=ranked.mode, fallback_reason=ranked.fallback_reason)


# Memory actions -------------------------------------------------------------------


def _ignored(op: str, number: int | None, detail: str) -> ActionResult:
    return ActionResult(op=op, status="ignored", number=number, detail=detail)


@dataclass(frozen=True)
class _Rules:
    """What applies when the search or the actions arrive: the server's type and channel rules now, not at
    context time (staff may have switched to Ledger, or closed the channel to reading or writing, since)."""

    profile: TypeProfile
    read_allowed: bool
    write_allowed: bool
    remember_limit: int  # facts the bot may remember per member and hour


def _rules_now(exchange: Exchange) -> _Rules:
    ai_settings = ai_settings_for_server(exchange.server)
    access = channel_access(ai_settings, exchange.channel_id, exchange.thread_parent_id or None)
    return _Rules(profile=profile_for(ai_settings.memory_type), read_allowed=access.read_allowed,
                  write_allowed=exchange.write_allowed and access.write_allowed,
                  remember_limit=ai_settings.remember_limit_per_hour)


def _remembered_last_hour(exchange: Exchange) -> int:
    """Facts the bot wrote from this member's messages in the last hour (a poisoning brake: one member
    cannot flood the server's memory through the bot)."""
    since = timezone.now() - timedelta(hours=1)
    return Fact.objects.filter(server_id=exchange.server_id, author_kind=AuthorKind.BOT,
                               learned_from_member_id=exchange.author_id, created_at__gte=since).count()


def _reachable_fact(exchange: Exchange, op: Retract | Supersede, reachable: set[int],
                    rules: _Rules) -> Fact | ActionResult:
    """The fact the op may touch, or the reason it may not."""
    if not rules.write_allowed:
        return _ignored(op.op, op.number, "memory may not be written in this channel")
    if op.number not in reachable:
        return _ignored(op.op, op.number, f"fact #{op.number} was not shown in this exchange")
    fact = Fact.objects.select_for_update().filter(server=exchange.server, number=op.number).first()
    if fact is None:
        return _ignored(op.op, op.number, f"fact #{op.number} no longer exists")
    if fact.retracted_at is not None:
        return _ignored(op.op, op.number, f"fact #{op.number} is already retracted")
    return fact


def _apply(exchange: Exchange, op: MemoryOp, reachable: set[int], rules: _Rules) -> ActionResult:
    profile = rules.profile
    bot = FactAuthor.bot(exchange.author_id)
    if isinstance(op, Remember):
        if not rules.write_allowed:
            return _ignored(op.op, None, "memory may not be written in this channel")
        if _remembered_last_hour(exchange) >= rules.remember_limit:
            return _ignored(op.op, None, f"member {exchange.author_id} reached this server's limit of "
                                         f"{rules.remember_limit} remembered facts per hour")
        fact = fact_create(server=exchange.server, author=bot, key=op.key, content=op.content, scope=op.scope,
                           member_id=op.member_id, confidence=op.confidence, importance=op.importance,
                           source_exchange=exchange)
        return ActionResult(op=op.op, status="applied", number=fact.number)
    if isinstance(op, Supersede) and not profile.can_supersede:
        return _ignored(op.op, op.number, f"supersede exists from Ledger up; this server uses {profile.label}")
    target = _reachable_fact(exchange, op, reachable, rules)
    if isinstance(target, ActionResult):
        return target
    if isinstance(op, Retract):
        if profile.retract_deletes:
            fact_delete(fact=target, actor=None, actor_label="bot",
                        reason=f"retracted by the bot (Classic deletes): {op.reason}"[:500])
        else:
            fact_retract(fact=target, reason=op.reason)
        return ActionResult(op=op.op, status="applied", number=op.number)
    replacement = fact_create(server=exchange.server, author=bot, key=target.key, content=op.content,
                              scope=target.scope, member_id=target.member_id, confidence=target.confidence,
                              importance=target.importance, source_exchange=exchange)
    fact_retract(fact=target, reason=op.reason, superseded_by=replacement)
    return ActionResult(op=op.op, status="applied", number=op.number, new_number=replacement.number)


@transaction.atomic
def exchange_apply_actions(
    *,
    exchange: Exchange,
    ops: list[MemoryOp],
    shown_only_ops: list[MemoryOp] = (),
    already_ignored: list[ActionResult] = (),
) -> list[ActionResult]:
    """Apply validated memory ops in order, all in one transaction, and record every result on the
    exchange. An op the rules do not allow is 'ignored' with a sentence and changes nothing.

    `ops` may touch facts shown or found by the search; `shown_only_ops` (what the model asked for
    before it saw the search results) only facts handed in the context."""
    locked = _locked_exchange(exchange)
    rules = _rules_now(locked)
    results = list(already_ignored)
    for op in shown_only_ops:
        results.append(_apply(locked, op, set(locked.shown_numbers), rules))
    for op in ops:
        results.append(_apply(locked, op, locked.reachable_numbers, rules))
    locked.actions = [*locked.actions, *(result.as_dict() for result in results)]
    locked.save(update_fields=["actions"])
    exchange.actions = locked.actions
    return results


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

