"""People answering proposals: merge, merge the other way, keep both, contradictions, the summary draft."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from consolidation.models import ConsolidationRound, DraftStatus, Proposal, ProposalStatus, SummaryDraft
from consolidation.rounds import round_run
from consolidation.services import proposal_answer, summary_draft_answer
from memory.facts.services import FactAuthor, fact_restore, fact_update
from memory.facts.summary import summary_set
from memory.models import Fact, Summary
from teams.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def proposals(planted):
    server = planted["language"].server
    round_run(ConsolidationRound.objects.create(server=server, trigger="manual").pk)
    return {proposal.kind: proposal for proposal in Proposal.objects.filter(server=server)}


def fresh(fact: Fact) -> Fact:
    return Fact.objects.get(pk=fact.pk)


def test_merge_keeps_the_keeper_and_retracts_the_other_pointing_at_it(planted, proposals, owner):
    outcome = proposal_answer(proposal=proposals["duplicate"], actor=owner, answer="merge")
    language, lang = fresh(planted["language"]), fresh(planted["lang"])
    assert language.retracted_at is None and language.content == "The server's language is French."
    assert lang.retracted_at is not None and lang.superseded_by_id == language.pk
    assert f"#{lang.number}" in outcome.message and f"#{language.number}" in outcome.message
    assert Proposal.objects.get(pk=proposals["duplicate"].pk).status == ProposalStatus.MERGED
    assert AuditEntry.objects.filter(action="proposal.merge").count() == 1


def test_merge_the_other_way_keeps_the_other_fact_word_for_word(planted, proposals, owner):
    proposal_answer(proposal=proposals["duplicate"], actor=owner, answer="merge_other_way")
    language, lang = fresh(planted["language"]), fresh(planted["lang"])
    assert lang.retracted_at is None and lang.content == "Server language: French"
    assert language.superseded_by_id == lang.pk


def worded_by_model(proposal: Proposal, wording: str) -> Proposal:
    Proposal.objects.filter(pk=proposal.pk).update(wording=wording, wording_by_model=True)
    return Proposal.objects.get(pk=proposal.pk)


def test_a_merge_in_the_models_wording_writes_a_new_fact_and_sets_both_originals_aside_word_for_word(
        planted, proposals, owner):
    language, lang = planted["language"], planted["lang"]
    Fact.objects.filter(pk=lang.pk).update(scope="member", member_id="200000000000000042", importance=0.8)
    proposal = worded_by_model(proposals["duplicate"], "The server speaks French.")
    outcome = proposal_answer(proposal=proposal, actor=owner, answer="merge_other_way")
    merged = Fact.objects.get(server=language.server, content="The server speaks French.")
    # The new fact takes the survivor's (lang's) key, scope, member, confidence and importance.
    assert (merged.key, merged.scope, merged.member_id, merged.confidence, merged.importance) == (
        "lang", "member", "200000000000000042", 0.7, 0.8)
    assert merged.retracted_at is None and merged.number not in (language.number, lang.number)
    # lang was learned from a member: the merged wording stays theirs (quoted for the model, gone with their wipe).
    assert (merged.author_kind, merged.learned_from_member_id) == ("bot", lang.learned_from_member_id)
    for original, wording in ((fresh(language), "The server's language is French."),
                              (fresh(lang), "Server language: French")):
        assert original.content == wording, "an original lost its wording"
        assert original.retracted_at is not None and original.superseded_by_id == merged.pk
    assert outcome.survivor.pk == merged.pk
    assert f"#{merged.number}" in outcome.message and f"#{language.number}" in outcome.message
    assert Proposal.objects.get(pk=proposal.pk).status == ProposalStatus.MERGED_OTHER_WAY
    merge_row = AuditEntry.objects.get(action="proposal.merge")
    assert sorted(merge_row.target_ids) == sorted([merged.number, language.number, lang.number])
    assert merge_row.result == (f"#{lang.number} and #{language.number} merged into new #{merged.number} "
                                "(the consolidation model's wording)")


def test_both_originals_of_a_merge_in_the_models_wording_can_be_restored_from_the_memory_page(
        planted, proposals, owner):
    from django.urls import reverse

    from tests.conftest import logged_in_client

    language, lang = planted["language"], planted["lang"]
    proposal_answer(proposal=worded_by_model(proposals["duplicate"], "The server speaks French."), actor=owner,
                    answer="merge")
    client = logged_in_client(owner)
    for original in (language, lang):
        response = client.post(reverse("memory:fact-restore", args=[language.server.guild_id, original.number]),
                               headers={"HX-Request": "true"})
        assert response.status_code == 200
    assert set(Fact.objects.filter(server=language.server, retracted_at__isnull=True,
                                   pk__in=[language.pk, lang.pk]).values_list("content", flat=True)) == {
        "The server's language is French.", "Server language: French"}
    # The merged fact is left alone, as with any restored supersession.
    assert Fact.objects.get(content="The server speaks French.").retracted_at is None


def test_a_model_wording_equal_to_the_survivors_keeps_the_survivor_and_writes_no_new_fact(planted, proposals, owner):
    facts_before = Fact.objects.count()
    proposal = worded_by_model(proposals["duplicate"], "The server's language is French.")
    proposal_answer(proposal=proposal, actor=owner, answer="merge")
    language, lang = fresh(planted["language"]), fresh(planted["lang"])
    assert Fact.objects.count() == facts_before
    assert language.retracted_at is None and lang.superseded_by_id == language.pk


@pytest.mark.parametrize("changed", ["language", "lang"])
def test_a_merge_in_the_models_wording_is_refused_when_either_fact_changed_since(planted, proposals, owner, changed):
    fact = planted[changed]
    fact_update(fact=fact, actor=owner, expected_version=fact.version, key=fact.key, content=fact.content + " Yes.",
                confidence=fact.confidence)
    facts_before = Fact.objects.count()
    outcome = proposal_answer(proposal=worded_by_model(proposals["duplicate"], "The server speaks French."),
                              actor=owner, answer="merge")
    assert "changed since" in outcome.message and outcome.retired is None
    assert Fact.objects.count() == facts_before and not Fact.objects.filter(retracted_at__isnull=False).exists()
    assert Proposal.objects.get(pk=proposals["duplicate"].pk).status == ProposalStatus.OUT_OF_DATE


def test_restore_brings_the_merged_fact_back(planted, proposals, owner):
    proposal_answer(proposal=proposals["duplicate"], actor=owner, answer="merge")
    restored = fact_restore(fact=fresh(planted["lang"]), actor=owner)
    assert restored.retracted_at is None and restored.superseded_by_id is None


def test_keep_both_changes_no_fact(planted, proposals, owner):
    before = list(Fact.objects.order_by("pk").values_list("pk", "content", "version", "retracted_at"))
    proposal_answer(proposal=proposals["duplicate"], actor=owner, answer="keep_both")
    assert list(Fact.objects.order_by("pk").values_list("pk", "content", "version", "retracted_at")) == before
    assert Proposal.objects.get(pk=proposals["duplicate"].pk).status == ProposalStatus.KEPT_BOTH


@pytest.mark.parametrize("answer", ["merge", "merge_other_way"])
def test_a_contradiction_is_never_merged(planted, proposals, owner, answer):
    before = list(Fact.objects.order_by("pk").values_list("pk", "content", "version", "retracted_at"))
    with pytest.raises(ValidationError, match="never merged"):
        proposal_answer(proposal=proposals["contradiction"], actor=owner, answer=answer)
    assert list(Fact.objects.order_by("pk").values_list("pk", "content", "version", "retracted_at")) == before
    assert Proposal.objects.get(pk=proposals["contradiction"].pk).status == ProposalStatus.PENDING


def test_retracting_one_side_settles_a_contradiction(planted, proposals, owner):
    contradiction = proposals["contradiction"]
    proposal_answer(proposal=contradiction, actor=owner, answer="retract_other")
    assert Fact.objects.get(pk=contradiction.other_id).retracted_at is not None
    assert Fact.objects.get(pk=contradiction.keeper_id).retracted_at is None
    assert Proposal.objects.get(pk=contradiction.pk).status == ProposalStatus.SETTLED


def test_a_duplicate_cannot_be_settled_by_retracting(proposals, owner):
    with pytest.raises(ValidationError):
        proposal_answer(proposal=proposals["duplicate"], actor=owner, answer="retract_keeper")


def test_a_proposal_whose_fact_was_rewritten_is_out_of_date_and_merges_nothing(planted, proposals, owner):
    lang = planted["lang"]
    fact_update(fact=lang, actor=owner, expected_version=lang.version, key="lang", content="Server language: English",
                confidence=0.7)
    outcome = proposal_answer(proposal=proposals["duplicate"], actor=owner, answer="merge")
    assert "changed since" in outcome.message
    assert fresh(planted["language"]).retracted_at is None and fresh(lang).retracted_at is None
    assert Proposal.objects.get(pk=proposals["duplicate"].pk).status == ProposalStatus.OUT_OF_DATE


def test_an_answered_proposal_cannot_be_answered_again(proposals, owner):
    proposal_answer(proposal=proposals["duplicate"], actor=owner, answer="keep_both")
    with pytest.raises(ValidationError, match="already answered"):
        proposal_answer(proposal=proposals["duplicate"], actor=owner, answer="merge")


def test_an_unknown_answer_is_refused(proposals, owner):
    with pytest.raises(ValidationError):
        proposal_answer(proposal=proposals["duplicate"], actor=owner, answer="delete_everything")


def test_using_the_draft_retracts_the_old_summary_and_keeping_changes_nothing(consolidated, owner):
    summary_set(server=consolidated, content="Old wording.", author=FactAuthor.staff(owner))
    draft = SummaryDraft.objects.create(server=consolidated, content="New wording from the round.")
    summary_draft_answer(draft=draft, actor=owner, use=True)
    assert list(Summary.objects.filter(server=consolidated).order_by("created_at")
                .values_list("content", flat=True)) == ["Old wording.", "New wording from the round."]
    assert Summary.objects.get(server=consolidated, retracted_at__isnull=True).content == "New wording from the round."
    assert SummaryDraft.objects.get(pk=draft.pk).status == DraftStatus.USED
    second = SummaryDraft.objects.create(server=consolidated, content="Another draft.")
    summary_draft_answer(draft=second, actor=owner, use=False)
    assert Summary.objects.get(server=consolidated, retracted_at__isnull=True).content == "New wording from the round."
    assert SummaryDraft.objects.get(pk=second.pk).status == DraftStatus.KEPT_CURRENT
