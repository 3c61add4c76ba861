"""People answering what a round proposed: merges, keep-both, contradiction flags, the summary draft,
and configure users naming moderators. Every change to memory goes through memory.facts.services."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from guardian.shortcuts import assign_perm, remove_perm

from memory.facts.held_back import held_back_refresh
from memory.facts.services import FactAuthor, fact_create, fact_retract
from memory.facts.summary import summary_set
from memory.facts.versions import Actor, version_record
from memory.models import Audience, AuthorKind, Fact, VersionChange
from memory.text.sentence_case import in_sentence
from teams.models import Membership, Server
from teams.services import audit_record

from .models import DraftStatus, Proposal, ProposalKind, ProposalStatus, SummaryDraft
from .pairs import Reach, merged_reach
from .selectors import reach_words, unmergeable_sentence


class Answer:
    MERGE = "merge"
    MERGE_OTHER_WAY = "merge_other_way"
    KEEP_BOTH = "keep_both"
    RETRACT_KEEPER = "retract_keeper"  # contradictions: the flagged fact that is wrong
    RETRACT_OTHER = "retract_other"
    ALL = (MERGE, MERGE_OTHER_WAY, KEEP_BOTH, RETRACT_KEEPER, RETRACT_OTHER)


@dataclass(frozen=True)
class AnswerOutcome:
    proposal: Proposal
    message: str  # one sentence for the person who answered
    survivor: Fact | None = None  # the fact in force after a merge (new in the model's wording or a narrower audience)
    retired: Fact | None = None
    rewritten: Fact | None = None  # a merge into a new fact: the kept fact as it was, set aside too


def _changed_facts(proposal: Proposal, keeper: Fact, other: Fact) -> list[Fact]:
    return [fact for fact, version in ((keeper, proposal.keeper_version), (other, proposal.other_version))
            if fact.retracted_at is not None or fact.version != version]


@transaction.atomic
def proposal_answer(*, proposal: Proposal, actor: AbstractBaseUser, answer: str) -> AnswerOutcome:
    """Apply one answer. A proposal whose facts changed since the round is marked out of date and
    nothing else happens; a contradiction is never merged (only 'keep both' settles its flag). A merge
    only supersedes: no fact loses its wording, so every fact it sets aside can be restored as it was. A merge
    never widens who sees a fact: what it leaves has the narrower audience of the two, and two facts for two
    different channels are never merged. A merge's changes are kept as versions by the round (and who accepted
    it); once answered, a contradiction caught at write holds neither fact back any more (memory.facts.held_back)."""
    if answer not in Answer.ALL:
        raise ValidationError({"answer": _("Answer with merge, merge_other_way, keep_both, retract_keeper or "
                                           "retract_other.")})
    locked = Proposal.objects.select_for_update().get(pk=proposal.pk)
    if locked.status != ProposalStatus.PENDING:
        raise ValidationError(_("This proposal was already answered (%(status)s).")
                              % {"status": in_sentence(locked.get_status_display())})
    pair = [locked.keeper_id, locked.other_id]
    facts = {fact.pk: fact for fact in Fact.objects.select_for_update().filter(pk__in=pair)}
    keeper, other = facts[locked.keeper_id], facts[locked.other_id]
    now = timezone.now()
    changed = _changed_facts(locked, keeper, other)
    if changed:
        locked.status, locked.answered_at, locked.answered_by = ProposalStatus.OUT_OF_DATE, now, actor
        locked.save(update_fields=["status", "answered_at", "answered_by"])
        held_back_refresh(pair)  # the flag no longer stands: neither fact is held back by it
        numbers = (_("#%(first)s and #%(second)s") % {"first": changed[0].number, "second": changed[1].number}
                   if len(changed) == 2 else f"#{changed[0].number}")
        return AnswerOutcome(locked, _("Nothing merged: %(numbers)s changed since the round proposed this.")
                             % {"numbers": numbers})
    if locked.kind == ProposalKind.CONTRADICTION and answer in (Answer.MERGE, Answer.MERGE_OTHER_WAY):
        raise ValidationError(_("A contradiction is never merged: edit or retract one of the two facts, "
                                "or keep both to settle the flag."))
    if answer in (Answer.RETRACT_KEEPER, Answer.RETRACT_OTHER):
        if locked.kind != ProposalKind.CONTRADICTION:
            raise ValidationError(_("Retracting one fact settles a contradiction; answer a duplicate with a merge."))
        wrong, right = (keeper, other) if answer == Answer.RETRACT_KEEPER else (other, keeper)
        fact_retract(fact=wrong, reason=f"contradicted #{right.number}; settled by {actor.get_username()}",
                     by=Actor.staff(actor))
        locked.status, locked.answered_at, locked.answered_by = ProposalStatus.SETTLED, now, actor
        locked.save(update_fields=["status", "answered_at", "answered_by"])
        held_back_refresh(pair)  # the one kept is handed over again (unless another flag still holds it back)
        audit_record(actor=actor, server=locked.server, action="proposal.settle", target_ids=[wrong.number], count=1,
                     result=f"#{wrong.number} retracted, #{right.number} stays")
        return AnswerOutcome(locked, _("Retracted #%(wrong)s; #%(right)s stays. Restore it from the Retracted tab if "
                                       "this was wrong.") % {"wrong": wrong.number, "right": right.number},
                             survivor=right, retired=wrong)
    if answer == Answer.KEEP_BOTH:
        locked.status, locked.answered_at, locked.answered_by = ProposalStatus.KEPT_BOTH, now, actor
        locked.save(update_fields=["status", "answered_at", "answered_by"])
        held_back_refresh(pair)  # both are handed over again (unless another flag still holds one back)
        audit_record(actor=actor, server=locked.server, action="proposal.keep_both",
                     target_ids=[keeper.number, other.number], count=2)
        return AnswerOutcome(locked, _("Kept both #%(keeper)s and #%(other)s; this pair is not asked again unless one "
                                       "of them is rewritten.") % {"keeper": keeper.number, "other": other.number})
    refusal = unmergeable_sentence(locked.server, keeper, other)
    if refusal:  # a proposal from before facts had audiences: rounds no longer pair such facts
        raise ValidationError(refusal)
    survivor, retired = (keeper, other) if answer == Answer.MERGE else (other, keeper)
    reach = merged_reach(survivor, retired)
    reworded = bool(locked.wording_by_model and locked.wording and locked.wording != survivor.content)
    if reworded or not reach.fits(survivor):
        return _merge_into_new_fact(locked, actor, answer, survivor, retired, now, reach,
                                    wording=locked.wording if reworded else survivor.content)
    by = Actor.round(locked.round_id, actor)
    retired = fact_retract(fact=retired, reason=f"merged into #{survivor.number}", superseded_by=survivor, by=by,
                           change=VersionChange.MERGE)
    # The survivor's wording and audience stay (its version too), but its history says what joined it.
    version_record(survivor, VersionChange.MERGE, by, related_number=retired.number,
                   reason=f"#{retired.number} merged into it")
    _close_merge(locked, actor, answer, now)
    with translation.override("en"):  # the append-only log is written once, in English
        seen = "" if reach.audience == Audience.SERVER else f", seen {reach_words(locked.server, reach)}"
    audit_record(actor=actor, server=locked.server, action="proposal.merge",
                 target_ids=[survivor.number, retired.number], count=1,
                 result=f"#{retired.number} merged into #{survivor.number}{seen}")
    if reach.audience == Audience.SERVER:
        said = _("Merged: #%(retired)s now points to #%(survivor)s (restore it from the Retracted tab if this was "
                 "wrong).")
    else:
        said = _("Merged: #%(retired)s now points to #%(survivor)s, seen %(seen)s (restore it from the Retracted tab "
                 "if this was wrong).")
    return AnswerOutcome(locked, said % {"retired": retired.number, "survivor": survivor.number,
                                         "seen": reach_words(locked.server, reach)},
                         survivor=survivor, retired=retired)


def _close_merge(locked: Proposal, actor: AbstractBaseUser, answer: str, now: datetime) -> None:
    locked.status = ProposalStatus.MERGED if answer == Answer.MERGE else ProposalStatus.MERGED_OTHER_WAY
    locked.answered_at, locked.answered_by = now, actor
    locked.save(update_fields=["status", "answered_at", "answered_by"])
    held_back_refresh([locked.keeper_id, locked.other_id])  # what the merge keeps is handed over (unless held)


def _merged_author(actor: AbstractBaseUser, *originals: Fact) -> FactAuthor:
    """Who the merged wording counts as written by: the bot and the member it learned from when either
    original was learned from a member, so the new fact stays quoted data for the model (memory.bot.prompt) and
    goes with that member's wipe; the moderator only when both were staff notes (the audit row names them)."""
    learned = next((fact for fact in originals if fact.author_kind == AuthorKind.BOT), None)
    return FactAuthor.bot(learned.learned_from_member_id) if learned else FactAuthor.staff(actor)


def _merge_into_new_fact(locked: Proposal, actor: AbstractBaseUser, answer: str, survivor: Fact, retired: Fact,
                         now: datetime, reach: Reach, wording: str) -> AnswerOutcome:
    """The merged fact is written anew and both originals are superseded by it, word for word: with the model's
    wording, or with the survivor's when the survivor is seen more widely than the narrower audience the merge
    takes (`reach`). Rewriting or narrowing the survivor in place would lose its wording or its audience for good
    once the other fact is restored."""
    by = Actor.round(locked.round_id, actor)
    merged = fact_create(server=locked.server, author=_merged_author(actor, survivor, retired), key=survivor.key,
                         content=wording, scope=survivor.scope, member_id=survivor.member_id,
                         confidence=survivor.confidence, importance=survivor.importance, audience=reach.audience,
                         source_channel_id=reach.source_channel_id, source_thread_id=reach.source_thread_id,
                         actor=by)
    survivor = fact_retract(fact=survivor, reason=f"merged with #{retired.number} into #{merged.number}",
                            superseded_by=merged, by=by, change=VersionChange.MERGE)
    retired = fact_retract(fact=retired, reason=f"merged with #{survivor.number} into #{merged.number}",
                           superseded_by=merged, by=by, change=VersionChange.MERGE)
    _close_merge(locked, actor, answer, now)
    reworded = wording != survivor.content
    how = ["the consolidation model's wording" if reworded else f"#{survivor.number} word for word"]
    if reach.audience != Audience.SERVER:
        with translation.override("en"):  # the append-only log is written once, in English
            how.append(f"seen {reach_words(locked.server, reach)}, the narrower audience of the two")
    audit_record(actor=actor, server=locked.server, action="proposal.merge",
                 target_ids=[merged.number, survivor.number, retired.number], count=2,
                 result=f"#{survivor.number} and #{retired.number} merged into new #{merged.number} "
                        f"({'; '.join(how)})")
    return AnswerOutcome(locked, _merged_anew_sentence(locked.server, survivor, retired, merged, reach, reworded),
                         survivor=merged, retired=retired, rewritten=survivor)


def _merged_anew_sentence(server: Server, survivor: Fact, retired: Fact, merged: Fact, reach: Reach,
                          reworded: bool) -> str:
    """What the page says after a merge into a new fact: in whose words, and who sees it when not everyone."""
    numbers = {"survivor": survivor.number, "retired": retired.number, "merged": merged.number}
    if reach.audience == Audience.SERVER:
        said = (_("Merged: #%(survivor)s and #%(retired)s now point to the new #%(merged)s in the proposed wording "
                  "(restore either from the Retracted tab if this was wrong).") if reworded else
                _("Merged: #%(survivor)s and #%(retired)s now point to the new #%(merged)s in #%(survivor)s's words "
                  "(restore either from the Retracted tab if this was wrong)."))
        return said % numbers
    said = (_("Merged: #%(survivor)s and #%(retired)s now point to the new #%(merged)s in the proposed wording, seen "
              "%(seen)s (restore either from the Retracted tab if this was wrong).") if reworded else
            _("Merged: #%(survivor)s and #%(retired)s now point to the new #%(merged)s in #%(survivor)s's words, "
              "seen %(seen)s (restore either from the Retracted tab if this was wrong)."))
    return said % {**numbers, "seen": reach_words(server, reach)}


@transaction.atomic
def summary_draft_answer(*, draft: SummaryDraft, actor: AbstractBaseUser, use: bool) -> SummaryDraft:
    """Use the draft (the current summary is retracted, not deleted; the draft names the wording it became)
    or keep the current one."""
    locked = SummaryDraft.objects.select_for_update().get(pk=draft.pk)
    if locked.status != DraftStatus.PENDING:
        raise ValidationError(_("This draft was already answered (%(status)s).")
                              % {"status": in_sentence(locked.get_status_display())})
    if use:
        locked.summary = summary_set(server=locked.server, content=locked.content, author=FactAuthor.staff(actor))
    locked.status = DraftStatus.USED if use else DraftStatus.KEPT_CURRENT
    locked.answered_at, locked.answered_by = timezone.now(), actor
    locked.save(update_fields=["status", "answered_at", "answered_by", "summary"])
    return locked


@transaction.atomic
def reviewer_set(*, server: Server, user: AbstractBaseUser, actor: AbstractBaseUser, allowed: bool) -> None:
    """Grant or take back review_proposals on one server, for a member of the server's team."""
    if not Membership.objects.filter(team_id=server.team_id, user=user).exists():
        raise PermissionDenied(_("Only members of the server's team can review its proposals."))
    if allowed:
        assign_perm("review_proposals", user, server)
    else:
        remove_perm("review_proposals", user, server)
    audit_record(actor=actor, server=server, action="reviewer.grant" if allowed else "reviewer.revoke",
                 result=user.get_username())
