"""What the bot remembers, written so that memory stays clean: a statement already known is reinforced (its
mention count and, from another member, its confidence rise) instead of stored twice; a new fact's confidence
starts from how it is known; and from Ledger up a same-key fact that says something else is flagged as a
contradiction, with only the newer one handed to the bot until someone answers."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from consolidation.models import Proposal, ProposalKind, ProposalStatus
from consolidation.pairs import Reach
from memory.indexing.vectors import fact_vector_store, statement_vector
from memory.models import Exchange, Fact, FactVersion, VersionChange
from teams.models import Server

from .confidence import SAME_MEMBER_WINDOW, reinforced_confidence, source_confidence
from .held_back import held_back_refresh, holds_back
from .sameness import Meaning, same_key_other_statements, statement_already_known
from .services import FactAuthor, fact_create, locked_fact
from .versions import Actor, version_record


@dataclass(frozen=True)
class Remembered:
    """What a remember did: the fact it wrote or reinforced, and anything the bot should be told."""

    fact: Fact
    reinforced: bool = False
    same_by: str = ""  # how the fact reinforced says the same: the same words, nearly the same words, the same meaning
    confidence_capped_at: float | None = None  # the bot asked for more than the source allows
    contradicts: tuple[int, ...] = ()  # numbers of same-key facts flagged as contradicting it
    held_back: tuple[int, ...] = ()  # those of them the bot is no longer handed until someone answers


@transaction.atomic
def fact_reinforce(*, fact: Fact, by: Actor, source_weight: float) -> Fact:
    """The statement was made again: one more mention, its changed_at refreshed; its confidence rises when the
    member saying it has not done so within a day (another member, or the same one on another day). Kept as a
    version of its history, but the fact's `version` stays: its wording and audience did not change, so an edit
    begun before it and a proposal about the fact still apply."""
    locked = locked_fact(fact)
    now = timezone.now()
    heard_recently = bool(by.member_id) and FactVersion.objects.filter(
        fact=locked, member_id=by.member_id, change__in=(VersionChange.CREATE, VersionChange.REINFORCE),
        at__gte=now - SAME_MEMBER_WINDOW).exists()
    before = {"mention_count": locked.mention_count, "confidence": locked.confidence}
    locked.mention_count += 1
    if not heard_recently:
        locked.confidence = reinforced_confidence(locked.confidence, source_weight)
    locked.changed_at = now
    locked.save(update_fields=["mention_count", "confidence", "changed_at"])
    after = {"mention_count": locked.mention_count, "confidence": locked.confidence}
    version_record(locked, VersionChange.REINFORCE, by, before=before, after=after, at=now)
    return locked


def _flag_contradictions(fact: Fact, older: list[Fact]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each same-key fact that says something else becomes a contradiction flag for staff (a proposal without a
    round), and is held back from the bot (the newer one is handed over) until someone answers it
    (memory.facts.held_back). The numbers flagged, and those held back."""
    flags = []
    for other in older:
        low, high = sorted((fact.pk, other.pk))
        until = (f"until someone answers, the bot is handed only the newer, #{fact.number}" if holds_back(fact, other)
                 else "both are handed over until someone answers")
        flags.append(Proposal(
            server_id=fact.server_id, kind=ProposalKind.CONTRADICTION, keeper=fact, other=other, pair_low=low,
            pair_high=high, status=ProposalStatus.PENDING, keeper_version=fact.version, other_version=other.version,
            why=(f"#{fact.number} was remembered with the key of #{other.number} and says something else; "
                 f"{until}.")[:300]))
    # One statement for all of them; a pair already waiting keeps its flag (one pending proposal per pair).
    Proposal.objects.bulk_create(flags, ignore_conflicts=True)
    held_back_refresh(other.pk for other in older)
    held = set(Fact.objects.filter(pk__in=[other.pk for other in older], held_back=True).values_list("pk", flat=True))
    return tuple(other.number for other in older), tuple(other.number for other in older if other.pk in held)


@transaction.atomic
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
    known = statement_already_known(server, key=key, content=content, scope=scope, member_id=member_id, reach=reach,
                                    meaning=meaning)
    if known is not None:
        fact, how = known
        return Remembered(fact=fact_reinforce(fact=fact, by=by, source_weight=cap), reinforced=True, same_by=how)
    wanted = cap if confidence is None else min(confidence, cap)
    fact = fact_create(server=server, author=author, key=key, content=content, scope=scope, member_id=member_id,
                       confidence=wanted, importance=importance, source_exchange=exchange, audience=audience,
                       source_channel_id=source_channel_id, source_thread_id=source_thread_id, kind=kind, actor=by)
    if embedded:
        fact_vector_store(server, fact, *embedded)
    contradicts: tuple[int, ...] = ()
    held_back: tuple[int, ...] = ()
    older = same_key_other_statements(fact) if flag_contradictions else []
    if older:
        contradicts, held_back = _flag_contradictions(fact, older)
    capped = cap if confidence is not None and confidence > cap else None
    return Remembered(fact=fact, confidence_capped_at=capped, contradicts=contradicts, held_back=held_back)
