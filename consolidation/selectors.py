"""Reads for consolidation: the facts a round pairs, quietness, proposals waiting for an answer, and who would see
the fact a merge leaves."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection
from django.db.models import BooleanField, Case, Max, QuerySet, Value, When
from django.utils.translation import gettext

from memory.configuration.selectors import channel_display_name
from memory.indexing.catchup import semantic_pairs_ready
from memory.models import (
    AISettings,
    Audience,
    AuthorKind,
    Exchange,
    Fact,
    FactEmbedding,
    ModelEndpoint,
    ModelPurpose,
)
from memory.types import DEFAULT_MEMORY_TYPE
from teams.models import Server, ServerUserObjectPermission
from teams.permissions import server_ids_reviewable_by

from .model_review import UNCHECKED_MARK
from .models import ConsolidationRound, DraftStatus, Proposal, ProposalStatus, RoundStatus, SummaryDraft
from .pairs import Audienced, PairingFact, Reach, channel_bound, may_pair, merged_reach, vector_neighbours


def pairing_facts(server: Server) -> list[PairingFact]:
    """Every fact in force of the server, with its audience and source, as plain values (a cursor, not model
    instances: a round reads up to hundreds of thousands of rows)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, number, key, content, scope, member_id, confidence, author_kind = %s, changed_at, version,"
            " audience, source_channel_id, source_thread_id"
            " FROM memory_fact WHERE server_id = %s AND retracted_at IS NULL ORDER BY id",
            [AuthorKind.STAFF, server.pk],
        )
        return [PairingFact(*row) for row in cursor.fetchall()]


def semantic_neighbours(server: Server) -> dict[tuple[int, int], float]:
    """Under Semantic, with the vectors complete: fact pairs the vectors see as close (extra candidates), never two
    facts for two different channels (the pairing rule, consolidation.pairs.may_pair)."""
    provider = semantic_pairs_ready(server)
    if provider is None:
        return {}
    rows = list(FactEmbedding.objects.filter(server=server, model_name=provider.model_name,
                                             fact__retracted_at__isnull=True)
                .values_list("fact_id", "vector", "fact__audience", "fact__source_channel_id"))
    if len(rows) < 2:
        return {}
    ids = [fact_id for fact_id, *_ in rows]
    vectors = np.asarray([vector for _, vector, *_ in rows], dtype=np.float32)
    reach = {fact_id: Reach(audience, channel, "") for fact_id, _, audience, channel in rows}
    return {pair: closeness for pair, closeness in vector_neighbours(ids, vectors).items()
            if may_pair(reach[pair[0]], reach[pair[1]])}



def reach_words(server: Server, reach: Audienced) -> str:
    """Who sees a fact, in words: 'in every channel', 'only in #mod-chat', 'by staff only'."""
    if reach.audience == Audience.CHANNEL:
        return gettext("only in %(channel)s") % {"channel": channel_display_name(server, reach.source_channel_id)}
    return gettext("by staff only") if reach.audience == Audience.STAFF else gettext("in every channel")


def merged_audience_sentence(server: Server, reach: Reach) -> str:
    """What a proposal says of the merged fact's audience ('' when it is for the whole server)."""
    if reach.audience == Audience.CHANNEL:
        return gettext("The merged fact will be visible only in %(channel)s.") % {
            "channel": channel_display_name(server, reach.source_channel_id)}
    if reach.audience == Audience.STAFF:
        return gettext("The merged fact will be staff only: the bot is never handed it.")
    return ""


def unmergeable_sentence(server: Server, first: Fact, second: Fact) -> str:
    """Why two facts for two different channels are never merged ('' when they may be)."""
    if may_pair(first, second):
        return ""
    return gettext("#%(first)s was learned in %(first_channel)s and #%(second)s in %(second_channel)s, and neither "
                   "is for the whole server: one merged fact would reach a channel one of them is not for. Keep "
                   "both, or change an audience on the memory page first.") % {
        "first": first.number, "first_channel": channel_display_name(server, channel_bound(first)),
        "second": second.number, "second_channel": channel_display_name(server, channel_bound(second))}


@dataclass(frozen=True)
class MergeAudience:
    """What a duplicate's proposal says about who would see the merged fact."""

    allowed: bool  # False: the two are for two different channels (a proposal from before audiences)
    sentence: str  # the merged fact's audience, or why the two cannot be merged; '' for the whole server
    widest: str  # when the two differ: who sees the wider of the two today ('' when they are alike)
    keeper_copied: bool  # a plain merge writes the keeper anew with the narrower audience and sets it aside


def merge_audience(server: Server, proposal: Proposal) -> MergeAudience:
    """Who would see the fact a merge leaves: the narrower audience of the two (consolidation.pairs.merged_reach)."""
    keeper, other = proposal.keeper, proposal.other
    refusal = unmergeable_sentence(server, keeper, other)
    if refusal:
        return MergeAudience(allowed=False, sentence=refusal, widest="", keeper_copied=False)
    reach = merged_reach(keeper, other)
    wider = next((fact for fact in (keeper, other) if fact.audience != reach.audience), None)
    widest = (gettext("A merge never widens who sees a fact: #%(number)s is seen %(seen)s today.")
              % {"number": wider.number, "seen": reach_words(server, wider)} if wider is not None else "")
    return MergeAudience(allowed=True, sentence=merged_audience_sentence(server, reach), widest=widest,
                         keeper_copied=not reach.fits(keeper))


def memory_type_now(server: Server, *, lock: bool = False) -> str:
    """The server's memory type as committed now, not the copy a server object may carry since it was read.

    With `lock`, inside a transaction: a switch being saved is waited for and seen, and one saved later waits
    until the transaction ends, so what the caller writes next was decided under the type it read."""
    rows = AISettings.objects.filter(server_id=server.pk)
    if lock:
        rows = rows.select_for_update(no_key=True)
    return rows.values_list("memory_type", flat=True).first() or DEFAULT_MEMORY_TYPE


def consolidation_model(server: Server) -> ModelEndpoint | None:
    """The server's own consolidation model (AI settings); a round never borrows the reply model."""
    return ModelEndpoint.objects.filter(server=server, purpose=ModelPurpose.CONSOLIDATION).first()


def facts_in_force_count(server: Server) -> int:
    return Fact.objects.filter(server=server, retracted_at__isnull=True).count()


def memory_mark(server: Server) -> datetime | None:
    """The newest change to the server's memory: a fact written, rewritten, restored or retracted."""
    marks = Fact.objects.filter(server=server).aggregate(changed=Max("changed_at"), retracted=Max("retracted_at"))
    present = [mark for mark in marks.values() if mark is not None]
    return max(present) if present else None


def last_activity(server: Server) -> datetime | None:
    """The newest exchange or memory change: a server is quiet when this is old enough."""
    newest_exchange = (Exchange.objects.filter(server=server).order_by("-created_at")
                       .values_list("created_at", flat=True).first())
    present = [mark for mark in (newest_exchange, memory_mark(server)) if mark is not None]
    return max(present) if present else None


def last_finished_round(server: Server) -> ConsolidationRound | None:
    return (ConsolidationRound.objects.filter(server=server, status=RoundStatus.FINISHED)
            .order_by("-created_at").first())


def open_round(server: Server) -> ConsolidationRound | None:
    return (ConsolidationRound.objects.filter(server=server, status__in=[RoundStatus.QUEUED, RoundStatus.RUNNING])
            .first())


def latest_round(server: Server) -> ConsolidationRound | None:
    return ConsolidationRound.objects.filter(server=server).order_by("-created_at").first()


def pending_proposals(server: Server) -> QuerySet[Proposal]:
    """Proposals a model checked or the rules found first, then those of pairs only the vectors found that no
    model checked: their cosine similarity (0.92-1.0) runs higher than the rules' word-overlap scores, so they
    would lead otherwise. Within each group duplicates first ("duplicate" sorts after "contradiction"), the most
    similar pair first."""
    unchecked = Case(When(why__contains=UNCHECKED_MARK, then=Value(True)), default=Value(False),
                     output_field=BooleanField())
    return (Proposal.objects.filter(server=server, status=ProposalStatus.PENDING)
            .select_related("keeper", "other").alias(unchecked=unchecked)
            .order_by("unchecked", "-kind", "-similarity", "id"))


def pending_draft(server: Server) -> SummaryDraft | None:
    return SummaryDraft.objects.filter(server=server, status=DraftStatus.PENDING).first()


def answers_waiting(server: Server) -> bool:
    """A proposal or a summary draft of the server waits for an answer (whatever its memory type now)."""
    return pending_proposals(server).exists() or pending_draft(server) is not None


def decided_pairs(server: Server) -> dict[tuple[int, int], tuple[int, int]]:
    """Pairs people answered 'keep both' for, with both facts' versions at the time (low, high):
    such a pair is not proposed again unless one of the two facts was rewritten since."""
    decided: dict[tuple[int, int], tuple[int, int]] = {}
    rows = (Proposal.objects.filter(server=server, status=ProposalStatus.KEPT_BOTH)
            .values_list("pair_low", "pair_high", "keeper_id", "keeper_version", "other_version").order_by("id"))
    for low, high, keeper_id, keeper_version, other_version in rows:
        versions = (keeper_version, other_version) if keeper_id == low else (other_version, keeper_version)
        decided[(low, high)] = versions
    return decided


@dataclass(frozen=True)
class TeamMember:
    user: AbstractBaseUser
    can_configure: bool
    can_review: bool


def team_members_with_review(server: Server) -> list[TeamMember]:
    """The server's team members with what they may do about proposals (the moderators page)."""
    users = get_user_model().objects.filter(team_memberships__team_id=server.team_id).order_by("username")
    granted = set(ServerUserObjectPermission.objects.filter(
        content_object=server, permission__codename__in=["review_proposals", "configure_server"]
    ).values_list("user_id", "permission__codename"))
    return [TeamMember(user=user, can_configure=(user.pk, "configure_server") in granted or user.is_superuser,
                       can_review=(user.pk, "review_proposals") in granted) for user in users]


def pending_summary_for(user: AbstractBaseUser | AnonymousUser) -> dict:
    """How many proposals wait for the user, and the first server they wait on (the badge's link)."""
    reviewable = server_ids_reviewable_by(user)
    if reviewable is not None and not reviewable:
        return {"count": 0, "guild_id": None}  # a viewer's every page: no proposal to count
    waiting = Proposal.objects.filter(status=ProposalStatus.PENDING)
    if reviewable is not None:
        waiting = waiting.filter(server_id__in=reviewable)
    count = waiting.count()
    first = waiting.order_by("created_at").values_list("server__guild_id", flat=True).first() if count else None
    return {"count": count, "guild_id": first}
