"""Consolidation rounds: when a server gets one, why a round refuses itself, and running one.

A round reads the server's facts, finds duplicate and contradicting pairs (consolidation.pairs),
lets the consolidation model confirm them and word the merges when one is configured, drafts the
summary (model only; what the model is asked is in consolidation.model_review), and writes proposals.
Without a model every pair is still proposed (SPEC §6); a pair only the vectors found (Semantic) then
says that no model checked it, and the block counts them.
It changes no fact and no summary: people answer the proposals (consolidation.services).

Safety: a round runs in two short transactions, each holding the round row and a per-server advisory
lock, and asks the model between them, outside any transaction. The first refuses the round or reads
the facts and chooses the pairs, and writes nothing else; the second waits for a wipe that may be
running, locks the facts the pairs and the summary draft were drawn from, drops whatever was wiped,
edited or retracted meanwhile, and writes the proposals and marks the round finished, all at once. It
first reads the server's memory type again (the settings row locked): when staff switched away from
Consolidated and Semantic meanwhile, it writes nothing and ends refused with that sentence. So a wipe
never waits for the model (only for a moment of database work), a round never proposes wiped facts nor
proposes under a type without rounds, and a worker killed half-way leaves nothing behind: the round is
still queued and the redelivered task (acks_late) runs it from the start. A finished, refused or failed
round is never run again, so running the task twice changes nothing; two workers that both reach the
model (a redelivery while the first is still asking) write once, since the second finds the round
finished.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import DatabaseError, IntegrityError, OperationalError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from config.queue import enqueue, enqueue_on_commit
from memory.configuration.selectors import ai_settings_for_server
from memory.models import Fact, ModelEndpoint, UsagePurpose
from memory.types import CONSOLIDATING_TYPES, profile_for
from memory.usage.budget import BACKGROUND, over_budget
from memory.usage.recording import model_calls_record
from teams.models import Server
from teams.services import audit_record

from .holds import ADVISORY_LOCK_NAMESPACE, hold_rounds_off
from .model_review import ModelReview, model_review, summary_draft
from .models import (
    ConsolidationRound,
    DraftStatus,
    Proposal,
    ProposalKind,
    ProposalStatus,
    RoundStatus,
    RoundTrigger,
    SummaryDraft,
)
from .pairs import Pair, PairingFact, find_pairs
from .selectors import (
    consolidation_model,
    decided_pairs,
    facts_in_force_count,
    last_activity,
    last_finished_round,
    latest_round,
    memory_mark,
    memory_type_now,
    open_round,
    pairing_facts,
    semantic_neighbours,
)

logger = logging.getLogger(__name__)

MIN_FACTS = 10
MIN_HOURS_BETWEEN_ROUNDS = 24
NEVER_QUIET_DAYS = 7
# A round proposes at most this many of each kind (strongest first); the rest wait for the next round,
# so moderators never face thousands of proposals at once, and contradictions are never crowded out.
MAX_DUPLICATES_PER_ROUND = 100
MAX_CONTRADICTIONS_PER_ROUND = 50
BUDGET_RULES_NOTE = "pairs were classified by rules and a merge keeps the winning fact word for word."


def quiet_after() -> timedelta:
    return timedelta(hours=float(getattr(settings, "LOREKEEPER_CONSOLIDATION_QUIET_HOURS", 2)))


# Scheduling ------------------------------------------------------------------------


def round_trigger_for(server: Server, now: datetime | None = None) -> str | None:
    """Why the server should get a round now (quiet, or a week without one), or None.

    At most one scheduled round a day: a round created in the last 24 hours, whatever became of it,
    means the next check waits (the round's own refusal rules say the rest)."""
    now = now or timezone.now()
    if open_round(server) is not None:
        return None
    latest = latest_round(server)
    if latest is not None and now - latest.created_at < timedelta(hours=MIN_HOURS_BETWEEN_ROUNDS):
        return None
    activity = last_activity(server)
    if activity is None or now - activity >= quiet_after():
        return RoundTrigger.QUIET
    last = last_finished_round(server)
    since = last.created_at if last else server.ai_settings.changed_at
    if now - since >= timedelta(days=NEVER_QUIET_DAYS):
        return RoundTrigger.WEEKLY
    return None


class RoundBusy(Exception):
    """Another connection holds the server's round lock: the task retries later (the round stays queued)."""


class RoundNotQueued(Exception):
    """A round of this server is already waiting or running."""


def round_queue(*, server: Server, trigger: str, actor: AbstractBaseUser | None = None) -> ConsolidationRound:
    """Create a queued round and hand it to the worker once the row is committed. A round a person started
    (`actor`) is audited with who started it; beat's rounds are not (the rounds themselves are their record)."""
    if not profile_for(ai_settings_for_server(server).memory_type).consolidates:
        raise RoundNotQueued(gettext("Rounds run only under Consolidated and Semantic; what an earlier round "
                                     "proposed can still be answered."))
    try:
        with transaction.atomic():
            queued = ConsolidationRound.objects.create(server=server, trigger=trigger)
            if actor is not None:
                audit_record(actor=actor, server=server, action="consolidation.round_start", count=1,
                             result=f"round {queued.pk} queued")
    except IntegrityError:
        raise RoundNotQueued(gettext("A round of this server is already waiting or running.")) from None
    enqueue_on_commit("consolidation.tasks.run_round", queued.pk)
    return queued


def sweep_rounds(stale_after_s: float = 600) -> int:
    """Beat: rounds still queued after a while (the broker was down, or the worker died before taking
    them) are handed to the worker again. A round that already ran is left alone by round_run."""
    stale = timezone.now() - timedelta(seconds=stale_after_s)
    return sum(enqueue("consolidation.tasks.run_round", pk) for pk in ConsolidationRound.objects.filter(
        status__in=[RoundStatus.QUEUED, RoundStatus.RUNNING], created_at__lt=stale).values_list("pk", flat=True))


def servers_to_consolidate() -> list[Server]:
    return list(Server.objects.select_related("ai_settings").filter(ai_settings__memory_type__in=CONSOLIDATING_TYPES))


def schedule_rounds(now: datetime | None = None) -> list[ConsolidationRound]:
    """What beat runs every 15 minutes: queue a round for every consolidating server that is due."""
    queued = []
    for server in servers_to_consolidate():
        trigger = round_trigger_for(server, now)
        if trigger is None:
            continue
        try:
            queued.append(round_queue(server=server, trigger=trigger))
        except RoundNotQueued:
            continue
    return queued


# Refusal ---------------------------------------------------------------------------


def refusal_reason(server: Server, now: datetime) -> str:
    """Why a round would yield nothing now, in one sentence ('' when it should run)."""
    in_force = facts_in_force_count(server)
    if in_force < MIN_FACTS:
        return f"Only {in_force} facts are in force; a round needs at least {MIN_FACTS} to find duplicates."
    waiting = Proposal.objects.filter(server=server, status=ProposalStatus.PENDING).count()
    if waiting:
        return f"{waiting} proposals from an earlier round are still waiting for an answer."
    last = last_finished_round(server)
    if last is not None:
        hours = (now - (last.started_at or last.created_at)).total_seconds() / 3600
        if hours < MIN_HOURS_BETWEEN_ROUNDS:
            return (f"The last round ran {hours:.1f} hours ago; rounds are at least "
                    f"{MIN_HOURS_BETWEEN_ROUNDS} hours apart.")
        mark = memory_mark(server)
        if last.memory_mark is not None and (mark is None or mark <= last.memory_mark):
            return "Nothing in memory changed since the last round."
    return ""


# Running -----------------------------------------------------------------------------


def _fresh_pairs(server: Server, pairs: list[Pair]) -> list[Pair]:
    """Drop pairs already waiting, and pairs answered 'keep both' whose facts were not rewritten since."""
    pending = set(Proposal.objects.filter(server=server, status=ProposalStatus.PENDING)
                  .values_list("pair_low", "pair_high"))
    decided = decided_pairs(server)
    fresh = []
    for pair in pairs:
        low, high = sorted((pair.keeper, pair.other), key=lambda fact: fact.id)
        if (low.id, high.id) in pending:
            continue
        if decided.get((low.id, high.id)) == (low.version, high.version):
            continue
        fresh.append(pair)
    return fresh


def _proposal(round_: ConsolidationRound, pair: Pair, wording: str | None) -> Proposal:
    low, high = sorted((pair.keeper.id, pair.other.id))
    return Proposal(
        server_id=round_.server_id, round=round_, kind=pair.kind, keeper_id=pair.keeper.id, other_id=pair.other.id,
        keeper_version=pair.keeper.version, other_version=pair.other.version, pair_low=low, pair_high=high,
        wording=wording if wording is not None else pair.keeper.content, wording_by_model=wording is not None,
        similarity=round(pair.similarity, 4), why=pair.why[:300],
    )


def _locked_round(round_id: int) -> ConsolidationRound | None:
    """The round row, locked NOWAIT: None when another worker holds it (that worker runs it)."""
    try:
        # of=self: the round row alone, not the server row the join reads (a switch to Semantic locks that one).
        return (ConsolidationRound.objects.select_for_update(nowait=True, of=("self",)).select_related("server")
                .get(pk=round_id))
    except OperationalError:
        return None


def _server_lock(server: Server) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [ADVISORY_LOCK_NAMESPACE, server.pk])
        return bool(cursor.fetchone()[0])


@dataclass
class _RoundPlan:
    """What the first, short transaction of a round found: the pairs to propose, before the model is asked."""

    round_id: int
    server: Server
    started: float  # perf_counter, for duration_ms
    started_at: datetime
    memory_mark: datetime | None
    facts: list[PairingFact]
    candidate_pairs: int
    chosen: list[Pair]
    endpoint: ModelEndpoint | None
    over_budget: str = ""  # why the model was not asked though one is set: the background models' budget is used up


def round_run(round_id: int) -> ConsolidationRound | None:
    """Run a queued round to its end (finished or refused). Safe to call twice or concurrently."""
    try:
        with transaction.atomic():
            plan = _round_plan(round_id)
        if not isinstance(plan, _RoundPlan):
            return plan
        # The model is asked outside any transaction and without the server's round lock: a wipe clicked
        # now goes ahead at once instead of waiting for up to 21 slow model calls. A switch away from
        # consolidating stops the asking too (no more calls on a model staff no longer use for this).
        def keep_asking() -> bool:
            return profile_for(memory_type_now(plan.server)).consolidates

        review = model_review(plan.endpoint, plan.chosen, keep_asking)
        if keep_asking():
            draft, draft_sources, draft_note = summary_draft(plan.endpoint, plan.server, plan.facts, review.calls)
        else:
            draft, draft_sources = "", []
            draft_note = " No summary draft: the server left Consolidated and Semantic meanwhile."
        if plan.over_budget:
            review.note = f"{plan.over_budget} This round ran without the model: {BUDGET_RULES_NOTE}"
            draft_note = " No summary draft either: it needs the model."
        # Recorded whatever the round then writes: the tokens were used.
        model_calls_record(server_id=plan.server.pk, purpose=UsagePurpose.CONSOLIDATION, calls=review.calls,
                           consolidation_round_id=plan.round_id)
        with transaction.atomic():
            return _round_write(plan, review, draft, draft_sources, draft_note)
    except ConsolidationRound.DoesNotExist:
        return None  # the server was deleted meanwhile
    except (DatabaseError, RoundBusy):
        raise  # the transaction rolled back: the round stays queued and the retried task runs it again
    except Exception as error:  # noqa: BLE001 - record what went wrong instead of retrying forever
        logger.exception("consolidation round %s failed", round_id)
        ConsolidationRound.objects.filter(pk=round_id, status__in=[RoundStatus.QUEUED, RoundStatus.RUNNING]).update(
            status=RoundStatus.FAILED, error=f"{error.__class__.__name__}: {error}"[:2000], finished_at=timezone.now())
        return ConsolidationRound.objects.filter(pk=round_id).first()


def _round_plan(round_id: int) -> ConsolidationRound | _RoundPlan | None:
    """First transaction: refuse, or read the facts and choose the pairs. It writes nothing unless it refuses."""
    round_ = _locked_round(round_id)
    if round_ is None or round_.status not in (RoundStatus.QUEUED, RoundStatus.RUNNING):
        return round_  # another worker runs it, or it already ran: nothing to do twice
    server = round_.server
    if not _server_lock(server):
        raise RoundBusy(f"Another round of {server} holds its lock; the task retries this one later.")
    started = time.perf_counter()
    now = timezone.now()
    switched_to = _switched_away_to(server)
    if switched_to:
        return _refuse(round_, now, f"The server switched to {switched_to} after this round was queued; rounds run "
                                    "only under Consolidated and Semantic.")
    refusal = refusal_reason(server, now)
    if refusal:
        return _refuse(round_, now, refusal)
    mark = memory_mark(server)
    facts = pairing_facts(server)
    endpoint = consolidation_model(server)
    spent = over_budget(ai_settings_for_server(server), BACKGROUND) if endpoint is not None else None
    if spent is not None:
        endpoint = None  # rules only, until the next period
    pairs = _fresh_pairs(server, find_pairs(facts, semantic_neighbours(server)))
    chosen = ([pair for pair in pairs if pair.kind == ProposalKind.DUPLICATE][:MAX_DUPLICATES_PER_ROUND]
              + [pair for pair in pairs if pair.kind == ProposalKind.CONTRADICTION][:MAX_CONTRADICTIONS_PER_ROUND])
    return _RoundPlan(round_id=round_.pk, server=server, started=started, started_at=now, memory_mark=mark,
                      facts=facts, candidate_pairs=len(pairs), chosen=chosen, endpoint=endpoint,
                      over_budget=spent.sentence() if spent is not None else "")


def _switched_away_to(server: Server, *, lock: bool = False) -> str:
    """The name of the type the server now has when rounds no longer run under it ('' while they do)."""
    profile = profile_for(memory_type_now(server, lock=lock))
    return "" if profile.consolidates else profile.label


def _refuse(round_: ConsolidationRound, started_at: datetime, reason: str, duration_ms: int | None = None,
            review: ModelReview | None = None) -> ConsolidationRound:
    """End the round proposing nothing, with why in one sentence (the consolidation block shows it). With
    `review`, what the model was asked before the refusal stays on record (admin), though nothing of it is
    written."""
    round_.status, round_.refusal = RoundStatus.REFUSED, reason[:300]
    round_.started_at, round_.finished_at, round_.duration_ms = started_at, timezone.now(), duration_ms
    fields = ["status", "refusal", "started_at", "finished_at", "duration_ms"]
    if review is not None:
        round_.model_used, round_.model_note = review.used, review.note[:300]
        fields += ["model_used", "model_note"]
    round_.save(update_fields=fields)
    return round_


def _unchanged(facts: list[PairingFact]) -> set[int]:
    """Of these facts, the ids still in force at the version the round read. Locked until the round's
    transaction ends, so none is edited, retracted or deleted between this check and the proposals."""
    versions = dict(Fact.objects.select_for_update(no_key=True).filter(
        pk__in=sorted({fact.id for fact in facts}), retracted_at__isnull=True).order_by("pk")
        .values_list("pk", "version"))
    return {fact.id for fact in facts if versions.get(fact.id) == fact.version}


def _round_write(plan: _RoundPlan, review: ModelReview, draft: str, draft_sources: list[PairingFact],
                 note_on_draft: str) -> ConsolidationRound | None:
    """Second transaction: write what still holds. A pair whose fact was wiped, edited or retracted while
    the model was asked is left for the next round, and so is a draft drawn from such a fact."""
    server = plan.server
    hold_rounds_off(server)  # a wipe running now is short: wait for it, then see what it left
    # Staff may have switched the server away from consolidating while the model was asked. Read locked: a
    # switch being saved now is waited for and seen; one clicked after this waits until the round has
    # written, and its proposals then wait on the page like those of any round before the switch. The
    # settings row is locked before the round row, and the server row not at all: a switch to Semantic
    # holds the settings row and then locks the server row (its catch-up), so the other order deadlocked.
    switched_to = _switched_away_to(server, lock=True)
    # Waited for, not NOWAIT: another worker can only hold it for a moment (its first transaction then
    # finds the server's lock taken and gives up with RoundBusy).
    round_ = (ConsolidationRound.objects.select_for_update(of=("self",)).select_related("server")
              .filter(pk=plan.round_id).first())
    if round_ is None or round_.status not in (RoundStatus.QUEUED, RoundStatus.RUNNING):
        return round_  # another worker finished it meanwhile (a redelivered task): its proposals stand
    if switched_to:
        return _refuse(round_, plan.started_at, f"The server switched to {switched_to} while this round ran; "
                                                "nothing was proposed.",
                       duration_ms=int((time.perf_counter() - plan.started) * 1000), review=review)
    unchanged = _unchanged([fact for pair in review.pairs for fact in (pair.keeper, pair.other)] + draft_sources)
    still = _fresh_pairs(server, [pair for pair in review.pairs
                                  if pair.keeper.id in unchanged and pair.other.id in unchanged])
    Proposal.objects.bulk_create(
        [_proposal(round_, pair, review.wordings.get((pair.keeper.id, pair.other.id))) for pair in still]
    )
    note = review.note
    dropped = len(review.pairs) - len(still)
    if dropped:
        pairs = "1 pair was" if dropped == 1 else f"{dropped} pairs were"
        note += f" {pairs} left for the next round: a fact changed while the model was asked."
    if draft and all(fact.id in unchanged for fact in draft_sources):
        SummaryDraft.objects.filter(server=server, status=DraftStatus.PENDING).update(status=DraftStatus.OUT_OF_DATE)
        SummaryDraft.objects.create(server=server, round=round_, content=draft)
    elif draft:
        note_on_draft = " No summary draft: facts it was drawn from changed while the model wrote it."
    note += note_on_draft
    round_.status = RoundStatus.FINISHED
    round_.started_at = plan.started_at
    round_.finished_at = timezone.now()
    round_.memory_mark = plan.memory_mark
    round_.facts_considered = len(plan.facts)
    round_.candidate_pairs = plan.candidate_pairs
    round_.unjudged_pairs = sum(pair.by_meaning for pair in still)  # a pair the model judged is rebuilt unmarked
    round_.duplicates = sum(pair.kind == ProposalKind.DUPLICATE for pair in still)
    round_.contradictions = sum(pair.kind == ProposalKind.CONTRADICTION for pair in still)
    round_.model_used = review.used
    round_.model_note = note.strip()[:300]
    round_.duration_ms = int((time.perf_counter() - plan.started) * 1000)
    round_.save()
    return round_
