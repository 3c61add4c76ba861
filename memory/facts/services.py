"""Every write to facts and the summary, and the wipes: the one module that may delete facts (the database refuses
any other delete, migration 0004; tests/memory/facts/test_no_other_fact_deletes.py refuses a new path here)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import connection, models, transaction
from django.template.defaultfilters import pluralize
from django.utils import timezone

from consolidation.holds import discard_results_quoting, discard_server_results, hold_rounds_off
from memory.facts.selectors import facts_concerning_member
from memory.indexing.vectors import queue_fact_embeddings
from memory.models import SUMMARY_MAX_LENGTH, AuthorKind, Exchange, Fact, Scope, Summary
from memory.text.limits import clean_text, validate_content, validate_key, validate_unit_interval
from teams.models import SNOWFLAKE_REGEX, Server
from teams.services import audit_record


def validate_member_id(raw: str | None, field: str = "member_id") -> str:
    member_id = (raw or "").strip()
    if not re.fullmatch(SNOWFLAKE_REGEX, member_id):
        raise ValidationError({field: "A Discord user id is a number of 1–20 digits (a snowflake)."})
    return member_id


# Facts -------------------------------------------------------------------------


def _allocate_fact_numbers(server: Server, count: int) -> range:
    """Reserve `count` consecutive fact numbers on the server; concurrent writers never collide."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO memory_factcounter (server_id, last_number) VALUES (%s, %s)
            ON CONFLICT (server_id) DO UPDATE SET last_number = memory_factcounter.last_number + EXCLUDED.last_number
            RETURNING last_number
            """,
            [server.pk, count],
        )
        last = cursor.fetchone()[0]
    return range(last - count + 1, last + 1)


@dataclass(frozen=True)
class FactAuthor:
    """Who writes a fact: a staff user, or the bot learning from a member's message."""

    kind: str
    user: AbstractBaseUser | None = None
    learned_from_member_id: str = ""

    @classmethod
    def staff(cls, user: AbstractBaseUser) -> FactAuthor:
        return cls(kind=AuthorKind.STAFF, user=user)

    @classmethod
    def bot(cls, learned_from_member_id: str) -> FactAuthor:
        return cls(kind=AuthorKind.BOT, learned_from_member_id=learned_from_member_id)


@transaction.atomic
def fact_create(
    *,
    server: Server,
    author: FactAuthor,
    key: str,
    content: str,
    scope: str = Scope.SERVER,
    member_id: str = "",
    confidence: float = 1.0,
    importance: float | None = None,
    created_at: datetime | None = None,
    source_exchange: Exchange | None = None,
) -> Fact:
    """Validate and store a new fact in force, with the next number of its server."""
    if scope not in Scope.values:
        raise ValidationError({"scope": "The scope must be 'server' or 'member'."})
    fact = Fact(
        server=server,
        key=validate_key(key),
        content=validate_content(content),
        scope=scope,
        member_id=validate_member_id(member_id) if scope == Scope.MEMBER else "",
        confidence=validate_unit_interval(confidence, "confidence"),
        importance=validate_unit_interval(importance, "importance", allow_none=True),
        author_kind=author.kind,
        author_user=author.user,
        learned_from_member_id=author.learned_from_member_id,
        source_exchange=source_exchange,
    )
    moment = created_at or timezone.now()
    fact.created_at = fact.changed_at = fact.valid_from = moment
    fact.number = _allocate_fact_numbers(server, 1)[0]
    fact.save()
    _queue_embedding(fact)
    if author.kind == AuthorKind.STAFF:
        audit_record(actor=author.user, server=server, action="fact.create", target_ids=[fact.number], count=1)
    return fact


def _queue_embedding(fact: Fact) -> None:
    """Under Semantic, the written or rewritten fact is embedded by the worker once this commits."""
    queue_fact_embeddings(fact.server, [fact.pk])


@transaction.atomic
def fact_retract(*, fact: Fact, reason: str, superseded_by: Fact | None = None, at: datetime | None = None) -> Fact:
    """Close the fact's validity window (Ledger sense); it stays on the page and can be restored."""
    locked = _locked_fact(fact)
    if locked.retracted_at is not None:
        raise ValidationError(f"Fact #{locked.number} is already retracted.")
    if superseded_by is not None and superseded_by.server_id != locked.server_id:
        raise ValidationError("A fact can only be replaced by a fact of the same server.")
    if superseded_by is not None and superseded_by.pk == locked.pk:
        raise ValidationError("A fact cannot replace itself.")
    locked.retracted_at = at or timezone.now()
    locked.retraction_reason = clean_text(reason).strip()
    locked.superseded_by = superseded_by
    locked.version += 1
    locked.save(update_fields=["retracted_at", "retraction_reason", "superseded_by", "version"])
    return locked


class FactGone(Exception):
    """The fact was deleted since the caller read it (the panel answers 404)."""


class FactConflict(Exception):
    """Someone else changed the fact since the editor loaded it; `current` is what is stored now."""

    def __init__(self, current: Fact):
        super().__init__(f"Fact #{current.number} was changed by someone else.")
        self.current = current


@contextmanager
def _permit_fact_deletes(reason: str) -> Iterator[None]:
    """Tell the database guard (migration 0004) why facts are deleted, for the block only: a later
    delete in the same outer transaction is refused again."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('lorekeeper.fact_delete', %s, true)", [reason])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('lorekeeper.fact_delete', '', true)")


def _locked_fact(fact: Fact) -> Fact:
    """The fact, locked; FactGone when someone deleted it since the caller read it."""
    locked = Fact.objects.select_for_update().filter(pk=fact.pk).first()
    if locked is None:
        raise FactGone(f"Fact #{fact.number} was deleted meanwhile.")
    return locked


class _Unchanged:
    """fact_update's default for importance: callers that do not edit it leave it as it is."""


UNCHANGED = _Unchanged()


@transaction.atomic
def fact_update(
    *,
    fact: Fact,
    actor: AbstractBaseUser,
    expected_version: int,
    key: str,
    content: str,
    confidence: float,
    importance: float | None | _Unchanged = UNCHANGED,
) -> Fact:
    """Save an edit made from `expected_version`; raises FactConflict if the fact moved on meanwhile.
    Importance None makes the fact unscored (it ranks as middling)."""
    locked = _locked_fact(fact)
    if locked.version != expected_version:
        raise FactConflict(locked)
    locked.key = validate_key(key)
    locked.content = validate_content(content)
    locked.confidence = validate_unit_interval(confidence, "confidence")
    if not isinstance(importance, _Unchanged):
        locked.importance = validate_unit_interval(importance, "importance", allow_none=True)
    locked.changed_at = timezone.now()
    locked.version += 1
    locked.save(update_fields=["key", "content", "confidence", "importance", "changed_at", "version"])
    _queue_embedding(locked)  # a wording already embedded is skipped by its hash
    audit_record(actor=actor, server=locked.server, action="fact.edit", target_ids=[locked.number], count=1)
    return locked


@transaction.atomic
def fact_delete(
    *, fact: Fact, actor: AbstractBaseUser | None, reason: str = "deleted by staff", actor_label: str = ""
) -> bool:
    """Delete one fact for good (retracted or not). Facts it replaced keep their history, unlinked.
    Returns False when the fact was already gone."""
    number, server = fact.number, fact.server
    with _permit_fact_deletes(reason):
        # The fact's row first, then its vector: the ORM deletes the vector before the fact, the reverse of the
        # order in which a catch-up batch holds them (memory.indexing.vectors.embed_facts_now), which could deadlock.
        list(Fact.objects.select_for_update().filter(pk=fact.pk).values_list("pk", flat=True))
        deleted, _ = Fact.objects.filter(pk=fact.pk).delete()
    if deleted:
        audit_record(actor=actor, server=server, action="fact.delete", target_ids=[number], count=1, result=reason,
                     actor_label=actor_label)
    return bool(deleted)


@transaction.atomic
def fact_restore(*, fact: Fact, actor: AbstractBaseUser) -> Fact:
    """Re-open a retracted fact; the fact that replaced it is deliberately left alone."""
    locked = _locked_fact(fact)
    if locked.retracted_at is None:
        raise ValidationError(f"Fact #{locked.number} is already in force.")
    now = timezone.now()
    locked.retracted_at, locked.retraction_reason, locked.superseded_by = None, "", None
    locked.valid_from = locked.changed_at = now
    locked.version += 1
    locked.save(update_fields=["retracted_at", "retraction_reason", "superseded_by", "valid_from", "changed_at",
                               "version"])
    audit_record(actor=actor, server=locked.server, action="fact.restore", target_ids=[locked.number], count=1)
    return locked


@transaction.atomic
def facts_restore_all(*, server: Server, actor: AbstractBaseUser) -> int:
    """Re-open every retracted fact of the server; one audit row with the count."""
    now = timezone.now()
    restored = Fact.objects.filter(server=server, retracted_at__isnull=False).update(
        retracted_at=None, retraction_reason="", superseded_by=None, valid_from=now, changed_at=now,
        version=models.F("version") + 1,
    )
    audit_record(actor=actor, server=server, action="facts.restore_all", count=restored,
                 result=f"{restored} retracted facts restored")
    return restored


@dataclass(frozen=True)
class WipeResult:
    facts: int
    summaries: int = 0
    exchanges: int = 0


def _delete_exchanges(exchanges: models.QuerySet[Exchange]) -> int:
    """Delete stored exchanges; facts they taught stay, with the link to the exchange cleared."""
    Fact.objects.filter(source_exchange__in=exchanges).update(source_exchange=None)
    deleted, _ = exchanges.delete()
    return deleted


@transaction.atomic
def server_wipe(*, server: Server, actor: AbstractBaseUser) -> WipeResult:
    """Delete everything remembered about the server, now and irreversibly; one audit row.

    A consolidation round writing its results now is waited for (a moment of database work: its model calls
    hold no lock), and its proposals and summary draft go with the rest (they quote the facts); a round
    asking its model meanwhile drops what the wipe removed when it writes."""
    hold_rounds_off(server)
    proposals_and_drafts = discard_server_results(server)
    # Plain SQL: the ORM's delete() would first load every fact (a million rows) to emulate SET NULL.
    with _permit_fact_deletes("server wipe"), connection.cursor() as cursor:
        cursor.execute("DELETE FROM memory_fact WHERE server_id = %s", [server.pk])
        facts = cursor.rowcount
    summaries, _ = Summary.objects.filter(server=server).delete()
    exchanges = _delete_exchanges(Exchange.objects.filter(server=server))
    audit_record(actor=actor, server=server, action="memory.wipe_server", count=facts + summaries + exchanges,
                 result=f"{facts} fact{pluralize(facts)}, {summaries} summar{pluralize(summaries, 'y,ies')} and "
                        f"{exchanges} exchange{pluralize(exchanges)} deleted"
                        + (f", with {proposals_and_drafts} consolidation proposals and drafts" if proposals_and_drafts
                           else ""))
    return WipeResult(facts=facts, summaries=summaries, exchanges=exchanges)


def _redact_wiped_facts_in_exchanges(server: Server, numbers: list[int]) -> int:
    """Other members' exchanges keep, as text, the memory block they were shown: the lines of facts a member
    wipe deleted are replaced by a note, so the wiped facts' words remain nowhere. Every fact is one line that
    starts with its number (memory.bot.prompt); 'n' makes ^ and . work line by line. Returns how many changed."""
    if not numbers:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            r"""
            UPDATE memory_exchange
            SET memory_block = regexp_replace(
                memory_block,
                '^\[#(' || array_to_string(ARRAY(SELECT unnest(shown_numbers) INTERSECT SELECT unnest(%s::int[])),
                                            '|') || ')\] .*',
                '[#\1] (deleted by a member wipe)', 'gn')
            WHERE server_id = %s AND shown_numbers && %s::int[]
            """,
            [numbers, server.pk, numbers],
        )
        return cursor.rowcount


@transaction.atomic
def member_wipe(*, server: Server, actor: AbstractBaseUser, member_id: str) -> WipeResult:
    """Delete facts about the member, facts learned from their messages and their exchanges; other members'
    facts are untouched, and their exchanges keep what they were shown without the wiped facts' words.

    Consolidation proposals that quote a wiped fact go too, and so do a summary draft not yet answered and the
    summary's earlier wordings (drafted from facts that may include theirs); rounds are held off as for a server
    wipe."""
    member_id = validate_member_id(member_id)
    hold_rounds_off(server)
    about_member = facts_concerning_member(server, member_id)
    # Facts of other members that these replaced stay, with the link to the deleted replacement cleared.
    Fact.objects.filter(superseded_by__in=about_member).exclude(pk__in=about_member).update(superseded_by=None)
    proposals_and_drafts = discard_results_quoting(server, about_member)
    with _permit_fact_deletes("member wipe"), connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM memory_fact WHERE server_id = %s AND (member_id = %s OR learned_from_member_id = %s)"
            " RETURNING number",
            [server.pk, member_id, member_id],
        )
        numbers = [row[0] for row in cursor.fetchall()]
    exchanges = _delete_exchanges(Exchange.objects.filter(server=server, author_id=member_id))
    redacted = _redact_wiped_facts_in_exchanges(server, numbers)
    # The summary's earlier wordings (its history page) may name the member: drafts were written from their
    # facts too, which is why a waiting draft goes. They are free text, so they go whole. The current wording
    # stays for staff to edit (the wipe page says so): deleting it would leave the bot without any summary.
    earlier_summaries, _ = Summary.objects.filter(server=server, retracted_at__isnull=False).delete()
    facts = len(numbers)
    extra = [f"{count} {what}" for count, what in (
        (redacted, f"other exchange{pluralize(redacted)} redacted"),
        (proposals_and_drafts, "consolidation proposals and drafts deleted"),
        (earlier_summaries, f"earlier summary wording{pluralize(earlier_summaries)} deleted")) if count]
    # target_ids holds the member's id; the audit page writes it as a member (memory_extras.audit_targets).
    audit_record(actor=actor, server=server, action="memory.wipe_member", target_ids=[int(member_id)],
                 count=facts + exchanges,
                 result=f"{facts} fact{pluralize(facts)} about or from member {member_id} and {exchanges} "
                        f"exchange{pluralize(exchanges)} of theirs deleted" + "".join(f", {part}" for part in extra))
    return WipeResult(facts=facts, exchanges=exchanges)


# Summary -----------------------------------------------------------------------


@transaction.atomic
def summary_set(*, server: Server, content: str, author: FactAuthor) -> Summary:
    """Make `content` the server's summary; the previous wording is retracted, never deleted."""
    content = clean_text(content).strip()
    if len(content) > SUMMARY_MAX_LENGTH:
        raise ValidationError(
            {"content": f"The summary is {len(content)} characters long; keep it to at most {SUMMARY_MAX_LENGTH}."}
        )
    # Serialise summary writes per server: two saves at once would both insert a "current" summary. The clock
    # is read after the lock, so a wording's end is never before its start (the history page shows both).
    Server.objects.select_for_update().filter(pk=server.pk).values_list("pk").first()
    now = timezone.now()
    Summary.objects.filter(server=server, retracted_at__isnull=True).update(retracted_at=now)
    summary = Summary.objects.create(
        server=server, content=content, author_kind=author.kind, author_user=author.user, created_at=now
    )
    audit_record(actor=author.user, server=server, action="summary.set", count=1,
                 actor_label="" if author.user else "bot")
    return summary
