"""The bot's memory actions in one exchange: retract, supersede and remember, validated and applied in one
transaction under the rules that hold when they arrive; anything the rules do not allow is 'ignored' with a reason."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone

from memory.configuration.selectors import LearnedWhere, learned_where, learned_where_among
from memory.facts.deletes import fact_delete
from memory.facts.selectors import REMEMBER_WINDOW, remembered_last_hour
from memory.facts.remembering import Remembered, fact_remember
from memory.facts.services import (
    FactAuthor,
    fact_create,
    fact_retract,
    validate_audience,
    validate_kind,
    validate_member_id,
)
from memory.facts.versions import Actor
from memory.models import AUDIENCE_BREADTH, Audience, Exchange, Fact, Scope
from memory.text.limits import clean_text, validate_content, validate_key, validate_unit_interval
from memory.text.statements import rests_on

from .exchanges import Rules, rules_now
from .selectors import LockedExchange, exchange_locked

REASON_MAX_LENGTH = 500


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
    confidence: float | None = None  # None: what the source allows (memory.facts.confidence); more is capped to it
    audience: str | None = None  # None: what the channel gives; a value may only narrow it
    kind: str | None = None  # None: profile for a member fact, lore otherwise
    op: str = "remember"
    # False: the reply model's fact does not rest on what a member said in the conversation (held_to_members_words):
    # kept for staff to confirm (the staff audience), never handed to the model, as the learning run would refuse it.
    rests_on_members: bool = True


MemoryOp = Retract | Supersede | Remember

NOT_SAID_BY_A_MEMBER = ("stored for staff only: it does not rest on what a member said in this conversation, so "
                        "staff confirm it before the bot is handed it")


def held_to_members_words(ops: list[MemoryOp], said: list[str], names: list[str]) -> list[MemoryOp]:
    """The reply model's ops, each `remember` marked when its content does not rest on the members' messages of the
    conversation (`said`; `names`: the members', which say whom a fact is about, not what): the learning run's rule
    (issue 23), so that nothing the bot said or made up reaches memory with a member's name on it unconfirmed."""
    return [replace(op, rests_on_members=rests_on(op.content, said, names)) if isinstance(op, Remember) else op
            for op in ops]


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
                   importance: object = None, confidence: object = None, audience: object = None,
                   kind: object = None) -> Remember:
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
        confidence=None if confidence is None else validate_unit_interval(confidence, "confidence"),
        audience=None if audience is None else validate_audience(audience),
        kind=None if kind is None else validate_kind(kind),
    )


# Memory actions -------------------------------------------------------------------


def _ignored(op: str, number: int | None, detail: str) -> ActionResult:
    return ActionResult(op=op, status="ignored", number=number, detail=detail)


def _locked_exchange(exchange: Exchange, ops: Iterable[MemoryOp]) -> LockedExchange:
    """The exchange row alone is locked (of=self): locking its server too would block every write that checks a
    foreign key to the server at commit (a fact's version) while this waits for that write's fact: a deadlock. The
    server's AI settings come in the same read (rules_now needs them), and for a call that remembers what its first
    remember reads (memory.bot.selectors.exchange_locked): two round trips fewer on every remember."""
    remembers = any(isinstance(op, Remember) for op in ops)
    return exchange_locked(exchange.pk, since=timezone.now() - REMEMBER_WINDOW if remembers else None)


@dataclass
class _ReadAhead:
    """What the lock's statement read for the remembers: the member's count of the last hour holds until an op
    changes something (an applied op may have written or deleted one of those facts: then it is counted again);
    which channels are public, for the whole call (no op changes channels)."""

    remembered_last_hour: int | None
    public_channels: frozenset[str] | None

    def remembered(self, exchange: Exchange) -> int:
        if self.remembered_last_hour is None:
            self.remembered_last_hour = remembered_last_hour(exchange.server_id, exchange.author_id)
        return self.remembered_last_hour

    def learned_where(self, exchange: Exchange) -> LearnedWhere:
        if self.public_channels is None:
            return learned_where(exchange.server, exchange.channel_id, exchange.thread_parent_id)
        return learned_where_among(self.public_channels, exchange.channel_id, exchange.thread_parent_id)

    def after(self, result: ActionResult) -> ActionResult:
        if result.status != "ignored":
            self.remembered_last_hour = None
        return result


def _reachable_fact(exchange: Exchange, op: Retract | Supersede, reachable: set[int],
                    rules: Rules) -> Fact | ActionResult:
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
    if fact.pinned:
        return _ignored(op.op, op.number, f"fact #{op.number} is pinned by staff; only staff can change it")
    return fact


def _contradiction_note(remembered: Remembered) -> str:
    """What the bot is told of a contradiction caught at write: which facts, and which of them give way."""
    numbers = ", ".join(f"#{number}" for number in remembered.contradicts)
    if remembered.held_back == remembered.contradicts:
        until = "only the newer is handed over"
    elif not remembered.held_back:
        until = "both are handed over"
    else:
        until = "it is handed over instead of " + ", ".join(f"#{number}" for number in remembered.held_back)
    return f"it contradicts {numbers} (same key); staff will settle it, and until then {until}"


def _remembered_result(op: Remember, remembered: Remembered) -> ActionResult:
    """`applied` with the new number, or `reinforced` with the number of the fact it confirmed; the detail says
    what the bot should know (its confidence was capped; the fact contradicts others, which staff will settle)."""
    notes = []
    if remembered.confidence_capped_at is not None:
        notes.append(f"confidence capped at {remembered.confidence_capped_at:g}, what this source allows")
    if remembered.contradicts:
        notes.append(_contradiction_note(remembered))
    if remembered.reinforced:
        notes.append(f"already known as #{remembered.fact.number}: mentioned {remembered.fact.mention_count} times")
    return ActionResult(op=op.op, status="reinforced" if remembered.reinforced else "applied",
                        number=remembered.fact.number, detail="; ".join(notes) or None)


def _apply(exchange: Exchange, op: MemoryOp, reachable: set[int], rules: Rules, ahead: _ReadAhead) -> ActionResult:
    profile = rules.profile
    bot = FactAuthor.bot(exchange.author_id)
    if isinstance(op, Remember):
        if not rules.write_allowed:
            return _ignored(op.op, None, "memory may not be written in this channel")
        if ahead.remembered(exchange) >= rules.remember_limit:
            return _ignored(op.op, None, f"member {exchange.author_id} reached this server's limit of "
                                         f"{rules.remember_limit} remembered facts per hour")
        where = ahead.learned_where(exchange)
        audience = where.audience if op.audience is None else op.audience
        if not op.rests_on_members:
            audience = Audience.STAFF
        if AUDIENCE_BREADTH[audience] > AUDIENCE_BREADTH[where.audience]:
            return _ignored(op.op, None, f"a remember may only narrow the audience it inherits ({where.audience} "
                                         f"in this channel), not widen it to {audience}")
        remembered = fact_remember(
            server=exchange.server, exchange=exchange, member_id_of_author=exchange.author_id, key=op.key,
            content=op.content, scope=op.scope, member_id=op.member_id, importance=op.importance,
            confidence=op.confidence, kind=op.kind, audience=audience, source_channel_id=where.source_channel_id,
            source_thread_id=where.source_thread_id, flag_contradictions=profile.flags_contradictions,
            by_meaning=profile.embeds)
        result = _remembered_result(op, remembered)
        if not op.rests_on_members and not remembered.reinforced:  # a reinforcement confirms a fact already known
            result.detail = "; ".join(filter(None, [NOT_SAID_BY_A_MEMBER, result.detail]))
        return result
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
            fact_retract(fact=target, reason=op.reason, by=Actor.bot(exchange))
        return ActionResult(op=op.op, status="applied", number=op.number)
    # The new wording replaces the old one where the old one was seen: it keeps its audience and source.
    replacement = fact_create(server=exchange.server, author=bot, key=target.key, content=op.content,
                              scope=target.scope, member_id=target.member_id, confidence=target.confidence,
                              importance=target.importance, source_exchange=exchange, audience=target.audience,
                              source_channel_id=target.source_channel_id, source_thread_id=target.source_thread_id,
                              kind=target.kind, actor=Actor.bot(exchange), replaces=target)
    fact_retract(fact=target, reason=op.reason, superseded_by=replacement, by=Actor.bot(exchange))
    return ActionResult(op=op.op, status="applied", number=op.number, new_number=replacement.number)


# No savepoint: nothing that calls this catches its errors and goes on in the same transaction (the view, the reply,
# an Idempotency-Key's transaction around it all end with the error), so a savepoint inside a caller's transaction
# would only cost two round trips (SAVEPOINT, RELEASE).
@transaction.atomic(savepoint=False)
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
    read = _locked_exchange(exchange, [*shown_only_ops, *ops])
    locked = read.exchange
    ahead = _ReadAhead(read.remembered_since, read.public_channels)
    rules = rules_now(locked)
    results = list(already_ignored)
    for op in shown_only_ops:
        results.append(ahead.after(_apply(locked, op, set(locked.shown_numbers), rules, ahead)))
    for op in ops:
        results.append(ahead.after(_apply(locked, op, locked.reachable_numbers, rules, ahead)))
    locked.actions = [*locked.actions, *(result.as_dict() for result in results)]
    with connection.cursor() as cursor:  # save(update_fields=["actions"]) without its query building (~0.3 ms)
        cursor.execute("UPDATE memory_exchange SET actions = %s WHERE id = %s", [json.dumps(locked.actions), locked.pk])
    exchange.actions = locked.actions
    return results
