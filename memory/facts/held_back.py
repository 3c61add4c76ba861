"""Which facts the bot is not handed while a contradiction caught at write waits for an answer (Fact.held_back): the
older of the two gives way to the newer. One rule decides it, and every service that changes what it rests on (the
flag answered, either fact retracted, deleted, pinned or seen elsewhere) has it decided again, so no fact stays
held back once nothing holds it."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from consolidation.models import Proposal, ProposalKind, ProposalStatus
from consolidation.pairs import reaches
from memory.models import Fact


def holds_back(newer: Fact, older: Fact) -> bool:
    """The older fact gives way only to a newer one in force that is handed over wherever it was (else the bot would
    be handed neither there), and never when staff pinned it: the bot cannot change a pinned fact."""
    return newer.retracted_at is None and older.retracted_at is None and reaches(newer, older) and not older.pinned


def waiting_flags() -> QuerySet[Proposal]:
    """Contradictions caught at write that wait for an answer: proposals without a round (a round's contradiction
    flags hold nothing back), the newer fact as `keeper`, the older as `other`."""
    return Proposal.objects.filter(kind=ProposalKind.CONTRADICTION, status=ProposalStatus.PENDING,
                                   round__isnull=True)


def facts_held_back_by(facts: Iterable[Fact] | QuerySet[Fact]) -> list[int]:
    """Ids of the facts a waiting flag on `facts` (as the newer side) holds back, or might."""
    return list(waiting_flags().filter(keeper__in=facts).values_list("other_id", flat=True))


def held_back_refresh(fact_ids: Iterable[int]) -> None:
    """Hold back exactly those of these facts that a waiting flag holds back (holds_back); release the others."""
    ids = set(fact_ids)
    if not ids:
        return
    flags = waiting_flags().filter(other_id__in=ids).select_related("keeper", "other")
    held = {flag.other_id for flag in flags if holds_back(flag.keeper, flag.other)}
    Fact.objects.filter(pk__in=ids - held, held_back=True).update(held_back=False)
    Fact.objects.filter(pk__in=held, held_back=False).update(held_back=True)


def held_back_refresh_around(fact: Fact) -> None:
    """`fact` changed (retracted, pinned, seen elsewhere): decide again for it and for what it holds back."""
    held_back_refresh([fact.pk, *facts_held_back_by([fact])])
