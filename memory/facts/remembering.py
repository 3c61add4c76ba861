"""What the bot remembers, written so that memory stays clean: a statement already known is reinforced (its
mention count and, from another member, its confidence rise) instead of stored twice; a new fact's confidence
starts from how it is known; and from Ledger up a same-key fact that says something else is flagged as a
contradiction, with only the newer one handed to the bot until someone answers."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connection, transaction
from django.utils import timezone

from consolidation.models import Proposal, ProposalKind, ProposalStatus
from consolidation.pairs import Reach
from memory.indexing.vectors import fact_vector_store, statement_vector
from memory.models import Exchange, Fact, FactVersion, VersionChange
from teams.models import Server

from .confidence import SAME_MEMBER_WINDOW, reinforced_confidence, source_confidence
from .held_back import holds_back
from .inserting import rows_sql, rows_unnest_sql
from .sameness import Meaning, same_key_other_statements, statement_lookup
from .services import FactAuthor, FactGone, fact_create
from .versions import Actor, version_new


@dataclass(frozen=True)
class Remembered:
    """What a remember did: the fact it wrote or reinforced, and anything the bot should be told."""

    fact: Fact
    reinforced: bool = False
    same_by: str = ""  # how the fact reinforced says the same: the same words, nearly the same words, the same meaning
    confidence_capped_at: float | None = None  # the bot asked for more than the source allows
    contradicts: tuple[int, ...] = ()  # numbers of same-key facts flagged as contradicting it
    held_back: tuple[int, ...] = ()  # those of them the bot is no longer handed until someone answers


# Every column but the search vector, which nothing on this path reads.
REINFORCE_COLUMNS = ", ".join(f"f.{field.column}" for field in Fact._meta.concrete_fields if not field.generated)
# The fact, locked, with whether this member said it within SAME_MEMBER_WINDOW (its versions, along
# fact_version_timeline): one round trip.
REINFORCE_LOCK_SQL = f"""
    SELECT {REINFORCE_COLUMNS}, %(member)s <> '' AND EXISTS (
        SELECT 1 FROM memory_factversion v
        WHERE v.fact_id = f.id AND v.member_id = %(member)s AND v.change = ANY(%(changes)s) AND v.at >= %(since)s
    ) AS heard_recently
    FROM memory_fact f WHERE f.id = %(fact)s FOR UPDATE OF f
"""


def _reinforce_write(fact: Fact, version: FactVersion) -> None:
    """The new mention count, confidence and changed_at, and the version saying so, in one statement."""
    columns, values, params = rows_sql([version])
    sql = f"""
        WITH updated AS (
            UPDATE memory_fact SET mention_count = %s, confidence = %s, changed_at = %s WHERE id = %s
        )
        INSERT INTO memory_factversion ({columns}) VALUES ({values[0]})
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [fact.mention_count, fact.confidence, fact.changed_at, fact.pk, *params])


@transaction.atomic(savepoint=False)  # nothing on the write path catches its errors: a savepoint would buy nothing
def fact_reinforce(*, fact: Fact, by: Actor, source_weight: float) -> Fact:
    """The statement was made again: one more mention, its changed_at refreshed; its confidence rises when the
    member saying it has not done so within a day (another member, or the same one on another day). Kept as a
    version of its history, but the fact's `version` stays: its wording and audience did not change, so an edit
    begun before it and a proposal about the fact still apply."""
    now = timezone.now()
    found = list(Fact.objects.raw(REINFORCE_LOCK_SQL, {
        "fact": fact.pk, "member": by.member_id, "since": now - SAME_MEMBER_WINDOW,
        "changes": [VersionChange.CREATE, VersionChange.REINFORCE]}))
    if not found:
        raise FactGone(f"Fact #{fact.number} was deleted meanwhile.")
    locked = found[0]
    before = {"mention_count": locked.mention_count, "confidence": locked.confidence}
    locked.mention_count += 1
    if not locked.heard_recently:
        locked.confidence = reinforced_confidence(locked.confidence, source_weight)
    locked.changed_at = now
    after = {"mention_count": locked.mention_count, "confidence": locked.confidence}
    _reinforce_write(locked, version_new(locked, VersionChange.REINFORCE, by, before, after, at=now))
    return locked


@dataclass
class _Flagging:
    """The contradiction flags of a new fact, written by its own insert (memory.facts.services.fact_create's `also`):
    each same-key fact that says something else becomes a contradiction flag for staff (a proposal without a round),
    and is held back from the bot (the newer one is handed over) until someone answers it (memory.facts.held_back).

    held_back_refresh is not needed: the fact is new, so every flag is new, and a flag only ever adds a reason to
    hold back; the older facts' held_back, kept exact by every service that changes what it rests on, already
    answers for every other flag."""

    same_key: list[Fact]  # the subject's newest facts under the key (memory.facts.sameness.statement_lookup)
    older: list[Fact] = field(default_factory=list)  # those the new fact contradicts
    holding: list[int] = field(default_factory=list)  # ids of those it holds back

    def writes(self, fact: Fact) -> list[tuple[str, list]]:
        """The flags and what they hold back, as two CTEs of the fact's insert (which knows its id and number)."""
        self.older = same_key_other_statements(fact, self.same_key)
        if not self.older:
            return []
        whys = []
        for other in self.older:
            holds = holds_back(fact, other)
            self.holding += [other.pk] if holds else []
            until = ("until someone answers, the bot is handed only the newer, #%1$s" if holds
                     else "both are handed over until someone answers")
            # format() puts the new fact's number in (%1$s); left() keeps the field's 300 characters.
            whys.append(f"#%1$s was remembered with the key of #{other.number} and says something else; {until}.")
        # What every flag shares comes from one proposal, the rest from arrays and from `written`, so that the
        # statement's text is the same for any number of flags (memory.facts.inserting.rows_unnest_sql).
        shared = Proposal(server_id=fact.server_id, kind=ProposalKind.CONTRADICTION, status=ProposalStatus.PENDING,
                          keeper_version=fact.version)
        flags, params = rows_unnest_sql(shared, {
            "other_id": [other.pk for other in self.older], "other_version": [other.version for other in self.older],
            "why": whys}, computed={
            "keeper_id": "written.id", "pair_low": "least(written.id, v.other_id)",
            "pair_high": "greatest(written.id, v.other_id)", "why": "left(format(v.why, written.number), 300)"},
            joined="written")
        # A pair already waiting keeps its flag (one pending proposal per pair), as bulk_create(ignore_conflicts=True).
        return [(f"{flags} ON CONFLICT DO NOTHING", params),
                ("UPDATE memory_fact SET held_back = true WHERE id = ANY(%s) AND NOT held_back", [self.holding])]

    def numbers(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The numbers flagged, and those held back (by this flag or already)."""
        held = set(self.holding) | {other.pk for other in self.older if other.held_back}
        return tuple(other.number for other in self.older), tuple(other.number for other in self.older
                                                                  if other.pk in held)


@transaction.atomic(savepoint=False)  # as fact_reinforce
def fact_remember(*, server: Server, exchange: Exchange | None, member_id_of_author: str, key: str, content: str,
                  scope: str, member_id: str, importance: float | None, confidence: float | None, kind: str | None,
                  audience: str, source_channel_id: str, source_thread_id: str, flag_contradictions: bool,
                  by_meaning: bool = False) -> Remembered:
    """The bot's remember: reinforce the statement when it is already known (by its words; with `by_meaning`, under a
    type that embeds, by its vector too, which the new fact then keeps), else write it with the confidence its
    source allows (a higher one asked for is capped), flagging same-key contradictions when `flag_contradictions`."""
    author = FactAuthor.bot(member_id_of_author)
    cap = source_confidence(author_kind=author.kind, learned_from_member_id=member_id_of_author, scope=scope,
                            member_id=member_id)
    by = Actor.bot(exchange, member_id_of_author)
    reach = Reach(audience, source_channel_id, source_thread_id)
    embedded = statement_vector(server, key, content) if by_meaning else None
    meaning = Meaning(embedded[0].model_name, embedded[1]) if embedded else None
    known, same_key = statement_lookup(server, key=key, content=content, scope=scope, member_id=member_id,
                                       reach=reach, meaning=meaning, under_key=flag_contradictions)
    if known is not None:
        fact, how = known
        return Remembered(fact=fact_reinforce(fact=fact, by=by, source_weight=cap), reinforced=True, same_by=how)
    wanted = cap if confidence is None else min(confidence, cap)
    flagging = _Flagging(same_key)
    fact = fact_create(server=server, author=author, key=key, content=content, scope=scope, member_id=member_id,
                       confidence=wanted, importance=importance, source_exchange=exchange, audience=audience,
                       source_channel_id=source_channel_id, source_thread_id=source_thread_id, kind=kind, actor=by,
                       also=flagging.writes if flag_contradictions else None)
    if embedded:
        fact_vector_store(server, fact, *embedded)
    contradicts, held_back = flagging.numbers()
    capped = cap if confidence is not None and confidence > cap else None
    return Remembered(fact=fact, confidence_capped_at=capped, contradicts=contradicts, held_back=held_back)
