"""A used summary draft names the summary wording it became, and the summary history reads that link."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.apps import apps

from consolidation.models import ConsolidationRound, DraftStatus, RoundStatus, RoundTrigger, SummaryDraft
from consolidation.services import summary_draft_answer
from memory.facts.selectors import summary_versions
from memory.facts.deletes import member_wipe
from memory.facts.services import FactAuthor
from memory.facts.summary import summary_set
from memory.models import Summary

pytestmark = pytest.mark.django_db



def link_used_drafts() -> None:
    """The data migration that links drafts used before the link was stored."""
    importlib.import_module("consolidation.migrations.0004_summarydraft_summary").link_used_drafts(apps, None)


def test_using_a_draft_stores_the_summary_wording_it_became(server, owner):
    summary_set(server=server, content="A retro gaming server.", author=FactAuthor.staff(owner))
    draft = SummaryDraft.objects.create(server=server, content="Retro games and Saturday tournaments.\n")
    answered = summary_draft_answer(draft=draft, actor=owner, use=True)
    current = Summary.objects.get(server=server, retracted_at__isnull=True)
    assert answered.summary_id == current.pk
    assert SummaryDraft.objects.get(pk=draft.pk).summary_id == current.pk
    assert list(current.source_drafts.all()) == [draft]


def test_keeping_the_current_summary_links_the_draft_to_nothing(server, owner):
    summary_set(server=server, content="A retro gaming server.", author=FactAuthor.staff(owner))
    draft = SummaryDraft.objects.create(server=server, content="Retro games.")
    summary_draft_answer(draft=draft, actor=owner, use=False)
    assert SummaryDraft.objects.get(pk=draft.pk).summary_id is None


def used_draft(server, user, summary: Summary, *, answered_after: timedelta, round_=None) -> SummaryDraft:
    return SummaryDraft.objects.create(server=server, round=round_, content=summary.content,
                                       status=DraftStatus.USED, answered_by=user,
                                       answered_at=summary.created_at + answered_after, summary=summary)


def test_the_history_names_the_linked_draft_however_long_after_the_wording_it_was_marked_used(server, owner):
    round_ = ConsolidationRound.objects.create(server=server, trigger=RoundTrigger.QUIET, status=RoundStatus.FINISHED)
    summary = summary_set(server=server, content="Retro games.", author=FactAuthor.staff(owner))
    draft = used_draft(server, owner, summary, answered_after=timedelta(minutes=5), round_=round_)
    [version] = summary_versions(server, limit=10)
    assert version.accepted_draft == draft
    assert version.accepted_draft.round == round_


def test_the_history_names_no_draft_for_a_wording_no_draft_links_to(server, owner):
    linked = summary_set(server=server, content="Retro games.", author=FactAuthor.staff(owner))
    used_draft(server, owner, linked, answered_after=timedelta(0))
    # The same words by the same person a moment later, by hand: an edit of their own, not the round's.
    summary_set(server=server, content="Retro games.", author=FactAuthor.staff(owner))
    newest, oldest = summary_versions(server, limit=10)
    assert newest.accepted_draft is None
    assert oldest.accepted_draft is not None and oldest.pk == linked.pk


def test_a_member_wipe_deletes_earlier_wordings_and_keeps_the_draft_unlinked(server, owner):
    draft = SummaryDraft.objects.create(server=server, content="Retro games.")
    summary_draft_answer(draft=draft, actor=owner, use=True)
    summary_set(server=server, content="Retro games and arcades.", author=FactAuthor.staff(owner))
    member_wipe(server=server, actor=owner, member_id="200000000000000042")
    kept = SummaryDraft.objects.get(pk=draft.pk)
    assert (kept.status, kept.summary_id) == (DraftStatus.USED, None)
    [current] = summary_versions(server, limit=10)
    assert current.accepted_draft is None


def unlinked(draft: SummaryDraft) -> None:
    SummaryDraft.objects.filter(pk=draft.pk).update(summary=None)


def test_the_migration_links_drafts_used_before_the_link_was_stored_by_the_rule_that_found_them(
        server, owner, moderator):
    first = SummaryDraft.objects.create(server=server, content="Retro games.\n")
    summary_draft_answer(draft=first, actor=owner, use=True)
    by_hand = summary_set(server=server, content="Retro games and arcades.", author=FactAuthor.staff(moderator))
    second = SummaryDraft.objects.create(server=server, content="Arcades.")
    summary_draft_answer(draft=second, actor=moderator, use=True)
    kept = SummaryDraft.objects.create(server=server, content="Pinball.")
    summary_draft_answer(draft=kept, actor=owner, use=False)
    expected = {draft.pk: SummaryDraft.objects.get(pk=draft.pk).summary_id for draft in (first, second, kept)}
    for draft in (first, second, kept):
        unlinked(draft)

    link_used_drafts()

    assert {draft.pk: SummaryDraft.objects.get(pk=draft.pk).summary_id for draft in (first, second, kept)} == expected
    assert expected[kept.pk] is None and by_hand.pk not in expected.values()


def test_the_migration_leaves_a_used_draft_unlinked_when_no_wording_matches_the_rule(server, owner, moderator):
    draft = SummaryDraft.objects.create(server=server, content="Retro games.")
    summary_draft_answer(draft=draft, actor=owner, use=True)
    unlinked(draft)
    # Answered by someone else than the wording's author, or long after it: the old rule saw no draft there.
    SummaryDraft.objects.filter(pk=draft.pk).update(answered_by=moderator)
    link_used_drafts()
    assert SummaryDraft.objects.get(pk=draft.pk).summary_id is None
    SummaryDraft.objects.filter(pk=draft.pk).update(answered_by=owner,
                                                    answered_at=draft.created_at + timedelta(minutes=5))
    link_used_drafts()
    assert SummaryDraft.objects.get(pk=draft.pk).summary_id is None
