"""People answering proposals: merge, merge the other way, keep both, contradictions, the summary draft."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from consolidation.models import ConsolidationRound, DraftStatus, Proposal, ProposalStatus, SummaryDraft
from consolidation.rounds import round_run
from consolidation.services import proposal_answer, summary_draft_answer
from memory.facts.remembering import fact_remember
from memory.facts.services import FactAuthor, fact_restore, fact_update
from memory.facts.summary import summary_set
from memory.models import ActorKind, Fact, FactVersion, Summary, VersionChange
from teams.models import AuditEntry
from tests.factories import make_fact

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


# Contradictions caught at write, and the history answers leave ------------------------------------------------

PAUL, MIRA = "200000000000000021", "200000000000000022"


def remembered(server, content: str, *, member: str = PAUL, key: str = "raid_day") -> Fact:
    """The bot remembers a server fact from `member`'s message, as memory.bot.actions does from Ledger up."""
    return fact_remember(server=server, exchange=None, member_id_of_author=member, key=key, content=content,
                         scope="server", member_id="", importance=None, confidence=None, kind=None,
                         audience="server", source_channel_id="", source_thread_id="",
                         flag_contradictions=True).fact


@pytest.fixture
def flagged(consolidated):
    """Friday (older, held back) and Saturday (newer), flagged as a contradiction when Saturday was remembered."""
    older = remembered(consolidated, "Raids are on Friday.")
    newer = remembered(consolidated, "Raids are on Saturday.", member=MIRA)
    flag = Proposal.objects.get(server=consolidated, kind="contradiction", round__isnull=True)
    assert (flag.keeper_id, flag.other_id, fresh(older).held_back) == (newer.pk, older.pk, True)
    return flag, older, newer


def held_back(*facts: Fact) -> list[bool]:
    return [fresh(fact).held_back for fact in facts]


def test_keeping_both_sides_of_a_contradiction_caught_at_write_hands_both_over_again(flagged, owner):
    flag, older, newer = flagged
    proposal_answer(proposal=flag, actor=owner, answer="keep_both")

    assert held_back(older, newer) == [False, False]
    assert fresh(older).retracted_at is None and fresh(newer).retracted_at is None


@pytest.mark.parametrize(("answer", "kept"), [("retract_keeper", "older"), ("retract_other", "newer")])
def test_keeping_one_side_hands_it_over_and_retracts_the_other_by_the_person_who_answered(
        flagged, owner, answer, kept):
    flag, older, newer = flagged
    proposal_answer(proposal=flag, actor=owner, answer=answer)

    survivor, wrong = (older, newer) if kept == "older" else (newer, older)
    assert fresh(survivor).retracted_at is None and fresh(wrong).retracted_at is not None
    assert held_back(older, newer) == [False, False]
    version = FactVersion.objects.filter(fact_id=wrong.pk).order_by("-at", "-id").first()
    assert (version.change, version.actor_kind, version.actor_user) == (VersionChange.RETRACT, ActorKind.STAFF,
                                                                        owner)


def test_a_contradiction_caught_at_write_is_never_merged_and_stays_held_back(flagged, owner):
    flag, older, newer = flagged
    with pytest.raises(ValidationError, match="never merged"):
        proposal_answer(proposal=flag, actor=owner, answer="merge")

    assert held_back(older, newer) == [True, False]


def test_a_flag_gone_out_of_date_holds_nothing_back(flagged, owner):
    flag, older, newer = flagged
    fact_update(fact=newer, actor=owner, expected_version=newer.version, key=newer.key,
                content="Raids are on Sunday.", confidence=newer.confidence)

    outcome = proposal_answer(proposal=flag, actor=owner, answer="keep_both")

    assert "changed since" in outcome.message and held_back(older, newer) == [False, False]


def test_a_statement_said_again_leaves_its_flag_answerable(flagged, owner):
    """A reinforcement changes neither the wording nor the audience: the fact's version stays."""
    flag, older, newer = flagged
    remembered(older.server, "Raids are on Friday.", member=MIRA)

    outcome = proposal_answer(proposal=flag, actor=owner, answer="keep_both")

    assert Proposal.objects.get(pk=flag.pk).status == ProposalStatus.KEPT_BOTH, outcome.message
    assert fresh(older).mention_count == 2 and held_back(older) == [False]


def test_a_fact_two_flags_hold_back_is_handed_over_only_when_both_are_answered(flagged, owner):
    flag, older, newer = flagged
    newest = remembered(older.server, "Raids are on Sunday.", member="200000000000000023")
    second = Proposal.objects.get(keeper=newest, other=older)

    proposal_answer(proposal=flag, actor=owner, answer="keep_both")
    assert held_back(older) == [True]

    proposal_answer(proposal=second, actor=owner, answer="keep_both")
    assert held_back(older) == [False]


def test_a_merge_keeps_the_round_as_the_actor_of_the_fact_it_sets_aside_and_of_the_one_it_keeps(
        planted, proposals, owner):
    duplicate = proposals["duplicate"]
    proposal_answer(proposal=duplicate, actor=owner, answer="merge")

    language, lang = fresh(planted["language"]), fresh(planted["lang"])
    merged = FactVersion.objects.get(fact_id=lang.pk, change=VersionChange.MERGE)
    assert (merged.actor_kind, merged.round_id, merged.actor_user) == (ActorKind.ROUND, duplicate.round_id, owner)
    assert merged.actor_label == f"consolidation round {duplicate.round_id}, accepted by owner"
    assert (merged.related_number, merged.reason) == (language.number, f"merged into #{language.number}")
    joined = FactVersion.objects.get(fact_id=language.pk, change=VersionChange.MERGE)
    assert (joined.actor_kind, joined.round_id, joined.related_number) == (ActorKind.ROUND, duplicate.round_id,
                                                                           lang.number)
    assert language.version == planted["language"].version, "the kept fact's wording did not change"


def test_a_merge_into_a_new_wording_is_written_and_set_aside_by_the_round(planted, proposals, owner):
    proposal = worded_by_model(proposals["duplicate"], "The server speaks French.")
    outcome = proposal_answer(proposal=proposal, actor=owner, answer="merge")

    created = FactVersion.objects.get(fact_id=outcome.survivor.pk)
    assert (created.change, created.actor_kind, created.round_id) == (VersionChange.CREATE, ActorKind.ROUND,
                                                                      proposal.round_id)
    for original in (planted["language"], planted["lang"]):
        version = FactVersion.objects.get(fact_id=original.pk, change=VersionChange.MERGE)
        assert (version.actor_kind, version.related_number) == (ActorKind.ROUND, outcome.survivor.number)


def test_a_merge_hands_over_what_it_keeps_unless_a_flag_still_holds_it_back(flagged, owner):
    """A duplicate of the held-back fact merged into it: the contradiction still waits, so it stays held back."""
    flag, older, newer = flagged
    twin = make_fact(older.server, key="raids", content="Raids: Fridays.")
    duplicate = Proposal.objects.create(server=older.server, kind="duplicate", keeper=older, other=twin,
                                        keeper_version=fresh(older).version, other_version=twin.version,
                                        pair_low=min(older.pk, twin.pk), pair_high=max(older.pk, twin.pk))

    proposal_answer(proposal=duplicate, actor=owner, answer="merge")
    assert held_back(older, twin) == [True, False]

    proposal_answer(proposal=flag, actor=owner, answer="keep_both")
    assert held_back(older) == [False]
