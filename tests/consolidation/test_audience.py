"""Consolidation obeys who may see a fact: two facts for two different channels are never paired (by the rules or
by the vectors), a merge takes the narrower audience of the two and the proposal says so, and the summary draft is
written from facts for the whole server only."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from consolidation.dry_run import consolidation_dry_run
from consolidation.models import ConsolidationRound, Proposal, ProposalStatus, RoundStatus, SummaryDraft
from consolidation.pairs import PairingFact, Reach, classify, find_pairs, may_pair, merged_reach
from consolidation.rounds import round_run
from consolidation.selectors import semantic_neighbours
from consolidation.services import proposal_answer
from memory.configuration.directory import ReportedChannel, channels_report
from memory.configuration.services import memory_type_set
from memory.facts.services import FactAuthor, fact_audience_set, fact_restore
from memory.models import Audience, Fact, MemoryType, ModelPurpose
from teams.models import AuditEntry
from tests.conftest import FILLER, logged_in_client, long_ago
from tests.factories import make_fact
from tests.model_server import answer, played_model

GENERAL, MODS, TICKETS, BAN_THREAD = "111", "222", "444", "333"
WRITTEN = datetime(2026, 11, 1, tzinfo=timezone.utc)
HTMX = {"HX-Request": "true"}


# The rule, over plain values ---------------------------------------------------------


def plain(fact_id: int, audience: str = Audience.SERVER, channel: str = "", *, content: str = "Raids start at 8 pm.",
          key: str = "raid_time", confidence: float = 0.8, thread: str = "") -> PairingFact:
    return PairingFact(fact_id, fact_id, key, content, "server", "", confidence, False, WRITTEN, 1,
                       audience, channel, thread)


@pytest.mark.parametrize(("left", "right", "paired"), [
    (plain(1, "channel", MODS), plain(2, "channel", TICKETS), False),
    (plain(1, "channel", MODS), plain(2, "channel", MODS), True),
    (plain(1, "channel", MODS), plain(2), True),
    (plain(1, "channel", MODS), plain(2, "server", GENERAL), True),  # a server fact learned in a public channel
    (plain(1, "staff", MODS), plain(2, "channel", TICKETS), False),  # a staff note learned in #mod-chat
    (plain(1, "staff", MODS), plain(2, "staff", TICKETS), False),
    (plain(1, "staff", MODS), plain(2, "channel", MODS), True),
    (plain(1, "staff"), plain(2, "channel", TICKETS), True),  # a staff note learned nowhere
    (plain(1, "staff"), plain(2), True),
])
def test_two_facts_for_two_different_channels_are_never_paired_however_alike(left, right, paired):
    assert may_pair(left, right) is paired and may_pair(right, left) is paired
    assert (classify(left, right) is not None) is paired
    found = find_pairs([left, right], {(1, 2): 0.99})  # the vectors see them as one, too
    assert [(pair.keeper.id, pair.other.id) for pair in found] == ([(2, 1)] if paired else [])


def test_word_for_word_copies_for_two_channels_each_pair_with_the_server_fact_but_not_with_each_other():
    server_fact = plain(1, confidence=0.9)
    for_mods, for_tickets = plain(2, "channel", MODS), plain(3, "channel", TICKETS)
    found = find_pairs([server_fact, for_mods, for_tickets], {(2, 3): 0.99, (1, 2): 0.99, (1, 3): 0.99})
    assert sorted((pair.keeper.id, pair.other.id) for pair in found) == [(1, 2), (1, 3)]


@pytest.mark.parametrize(("survivor", "retired", "reach"), [
    (plain(1), plain(2, "channel", MODS, thread=BAN_THREAD), Reach("channel", MODS, BAN_THREAD)),
    (plain(1, "channel", MODS, thread=BAN_THREAD), plain(2, "server", GENERAL), Reach("channel", MODS, BAN_THREAD)),
    (plain(1, "server", GENERAL), plain(2, "staff"), Reach("staff", GENERAL, "")),
    # Staff-only from a staff note learned nowhere: it keeps the channel the other was learned in.
    (plain(1, "staff"), plain(2, "channel", MODS), Reach("staff", MODS, "")),
    (plain(1, "staff", TICKETS), plain(2, "channel", TICKETS), Reach("staff", TICKETS, "")),
    (plain(1, "server", GENERAL), plain(2), Reach("server", GENERAL, "")),
    (plain(1), plain(2, "server", GENERAL), Reach("server", GENERAL, "")),
])
def test_a_merge_takes_the_narrower_audience_and_that_sides_channel(survivor, retired, reach):
    assert merged_reach(survivor, retired) == reach


# Rounds and the dry run ----------------------------------------------------------------


@pytest.fixture
def channels(consolidated):
    channels_report(server=consolidated, channels=[
        ReportedChannel(channel_id=GENERAL, name="general", public=True),
        ReportedChannel(channel_id=MODS, name="mod-chat"),
        ReportedChannel(channel_id=TICKETS, name="tickets"),
        ReportedChannel(channel_id=BAN_THREAD, name="ban talk", parent_id=MODS, is_thread=True),
    ])
    return consolidated


# The planted filler without its moderators, which the vectors would pair with the moderators below.
QUIET_FILLER = [(key, content) for key, content in FILLER if key != "mod_team"] + [
    ("quiz", "The weekly quiz is on Wednesdays.")]


@pytest.fixture
def quiet(channels):
    """Nine unrelated facts for the whole server, written three hours ago: a round has enough to read."""
    for key, content in QUIET_FILLER:
        make_fact(channels, key=key, content=content, created_at=long_ago(3))
    return channels


def fact_in(server, channel: str, *, key: str = "ban_list", content: str = "Zed the spammer is banned.",
            audience: str = Audience.CHANNEL, thread: str = "", **kwargs) -> Fact:
    return make_fact(server, key=key, content=content, audience=audience, source_channel_id=channel,
                     source_thread_id=thread, created_at=long_ago(3), **kwargs)


def run(server) -> ConsolidationRound:
    return round_run(ConsolidationRound.objects.create(server=server, trigger="manual").pk)


def proposed_pairs(server) -> set[frozenset[int]]:
    return {frozenset({proposal.keeper.number, proposal.other.number})
            for proposal in Proposal.objects.filter(server=server)}


def test_a_round_and_the_dry_run_never_pair_facts_for_two_different_channels(quiet):
    for_mods = fact_in(quiet, MODS)
    for_tickets = fact_in(quiet, TICKETS, content="Zed the spammer is banned")
    staff_note_from_mods = fact_in(quiet, MODS, key="ban", content="Zed the spammer is banned!",
                                   audience=Audience.STAFF)
    for_general = fact_in(quiet, GENERAL, key="signups", content="Tournament sign-ups close on Thursday evening.",
                          audience=Audience.SERVER)
    for_tickets_raid = fact_in(quiet, TICKETS, key="signups", content="Tournament sign-ups close on Thursday evening")
    dry_run = consolidation_dry_run(quiet)
    assert {frozenset({pair.keeper.number, pair.other.number}) for pair in dry_run.examples} == {
        frozenset({for_mods.number, staff_note_from_mods.number}),
        frozenset({for_general.number, for_tickets_raid.number})}
    assert (dry_run.duplicates, dry_run.contradictions) == (2, 0)
    assert run(quiet).status == RoundStatus.FINISHED
    assert proposed_pairs(quiet) == {frozenset({for_mods.number, staff_note_from_mods.number}),
                                     frozenset({for_general.number, for_tickets_raid.number})}
    assert not any(for_tickets.number in pair for pair in proposed_pairs(quiet))


@pytest.fixture
def semantic(quiet, owner, django_capture_on_commit_callbacks):
    """Under Semantic with the built-in local model's vectors: the moderators in other words (0.98 to the vectors,
    no rule pairs them), one for #mod-chat, one for #tickets, and a third for #mod-chat under yet another key."""
    facts = {
        "mods": fact_in(quiet, MODS, key="mod_team", content="Alex and Nova are the moderators."),
        "tickets": fact_in(quiet, TICKETS, key="helpers", content="Nova and Alex are the moderators here."),
    }
    with django_capture_on_commit_callbacks(execute=True):
        memory_type_set(server=quiet, actor=owner, memory_type=MemoryType.SEMANTIC)
    return facts


def test_semantic_neighbours_never_pair_facts_for_two_different_channels(semantic, owner):
    mods, tickets = semantic["mods"], semantic["tickets"]
    server = mods.server
    assert (mods.pk, tickets.pk) not in semantic_neighbours(server)
    run(server)
    assert proposed_pairs(server) == set()
    # The same two, once both are for #mod-chat: the vectors pair them again.
    Proposal.objects.all().delete()
    ConsolidationRound.objects.all().delete()
    staff_chosen = fact_audience_set(fact=Fact.objects.get(pk=tickets.pk), audience=Audience.STAFF, actor=owner)
    assert staff_chosen.source_channel_id == TICKETS  # still learned in #tickets: still not paired
    assert (mods.pk, tickets.pk) not in semantic_neighbours(server)
    Fact.objects.filter(pk=tickets.pk).update(source_channel_id=MODS)  # as if it had been learned in #mod-chat
    assert semantic_neighbours(server).get((mods.pk, tickets.pk), 0) >= 0.92
    run(server)
    assert proposed_pairs(server) == {frozenset({mods.number, tickets.number})}


# Merges ----------------------------------------------------------------------------


def proposal_of(server) -> Proposal:
    run(server)
    return Proposal.objects.select_related("keeper", "other").get(server=server, status=ProposalStatus.PENDING)


def block(user, server) -> str:
    response = logged_in_client(user).get(reverse("consolidation:review", args=[server.guild_id]), headers=HTMX)
    assert response.status_code == 200
    return response.content.decode()


def fresh(fact: Fact) -> Fact:
    return Fact.objects.get(pk=fact.pk)


def test_merging_a_channel_fact_with_a_server_fact_leaves_a_channel_fact_and_the_proposal_says_so(quiet, owner):
    for_general = fact_in(quiet, GENERAL, audience=Audience.SERVER, confidence=0.9)
    for_mods = fact_in(quiet, MODS, content="Zed the spammer is banned", thread=BAN_THREAD, confidence=0.7)
    proposal = proposal_of(quiet)
    assert (proposal.keeper_id, proposal.other_id) == (for_general.pk, for_mods.pk)
    shown = block(owner, quiet)
    assert "The merged fact will be visible only in #mod-chat." in shown
    assert f"A merge never widens who sees a fact: #{for_general.number} is seen in every channel today." in shown
    assert "Set aside for a narrower copy" in shown

    outcome = proposal_answer(proposal=proposal, actor=owner, answer="merge")

    merged = outcome.survivor
    assert (merged.audience, merged.source_channel_id, merged.source_thread_id) == (
        Audience.CHANNEL, MODS, BAN_THREAD)
    assert merged.content == for_general.content and merged.key == for_general.key and merged.retracted_at is None
    for original in (for_general, for_mods):
        now = fresh(original)
        assert now.retracted_at is not None and now.superseded_by_id == merged.pk
        assert (now.audience, now.source_channel_id) == (original.audience, original.source_channel_id)
    assert "seen only in #mod-chat" in outcome.message and f"#{merged.number}" in outcome.message
    assert AuditEntry.objects.get(action="proposal.merge").result == (
        f"#{for_general.number} and #{for_mods.number} merged into new #{merged.number} "
        f"(#{for_general.number} word for word; seen only in #mod-chat, the narrower audience of the two)")
    # Both originals come back as they were, audiences and all.
    fact_restore(fact=fresh(for_general), actor=owner)
    assert (fresh(for_general).audience, fresh(for_general).retracted_at) == (Audience.SERVER, None)


def test_merging_the_other_way_keeps_the_channel_fact_as_it_is(quiet, owner):
    for_general = fact_in(quiet, GENERAL, audience=Audience.SERVER, confidence=0.9)
    for_mods = fact_in(quiet, MODS, content="Zed the spammer is banned", confidence=0.7)
    facts_before = Fact.objects.count()

    outcome = proposal_answer(proposal=proposal_of(quiet), actor=owner, answer="merge_other_way")

    assert outcome.survivor.pk == for_mods.pk and Fact.objects.count() == facts_before
    assert (fresh(for_mods).audience, fresh(for_mods).retracted_at) == (Audience.CHANNEL, None)
    assert fresh(for_general).superseded_by_id == for_mods.pk
    assert "seen only in #mod-chat" in outcome.message


def test_a_merge_with_a_staff_only_fact_is_staff_only_and_the_proposal_says_so(quiet, owner):
    for_general = fact_in(quiet, GENERAL, audience=Audience.SERVER, confidence=0.9)
    staff_only = make_fact(quiet, key="ban_list", content="Zed the spammer is banned", confidence=0.7,
                           audience=Audience.STAFF, author=FactAuthor.staff(owner), created_at=long_ago(3))
    proposal = proposal_of(quiet)
    assert "The merged fact will be staff only: the bot is never handed it." in block(owner, quiet)

    merged = proposal_answer(proposal=proposal, actor=owner, answer="merge").survivor

    assert merged.pk not in (for_general.pk, staff_only.pk)
    # Staff only, and still counted as learned in #general (its purge removes it).
    assert (merged.audience, merged.source_channel_id) == (Audience.STAFF, GENERAL)


def test_a_merge_in_the_models_wording_of_a_channel_and_a_server_fact_is_for_the_channel(quiet, owner):
    for_general = fact_in(quiet, GENERAL, audience=Audience.SERVER, confidence=0.7)
    for_mods = fact_in(quiet, MODS, content="Zed the spammer is banned", thread=BAN_THREAD, confidence=0.9)
    proposal = proposal_of(quiet)
    assert proposal.keeper_id == for_mods.pk
    Proposal.objects.filter(pk=proposal.pk).update(wording="Zed is banned for spam.", wording_by_model=True)

    merged = proposal_answer(proposal=Proposal.objects.get(pk=proposal.pk), actor=owner,
                             answer="merge_other_way").survivor

    assert (merged.content, merged.audience, merged.source_channel_id, merged.source_thread_id) == (
        "Zed is banned for spam.", Audience.CHANNEL, MODS, BAN_THREAD)
    assert AuditEntry.objects.get(action="proposal.merge").result.endswith(
        "(the consolidation model's wording; seen only in #mod-chat, the narrower audience of the two)")
    assert not Fact.objects.filter(retracted_at__isnull=True, pk__in=[for_general.pk, for_mods.pk]).exists()


def test_a_merge_of_two_facts_for_one_channel_stays_in_place_and_says_where_it_is_seen(quiet, owner):
    first = fact_in(quiet, MODS, confidence=0.9)
    second = fact_in(quiet, MODS, content="Zed the spammer is banned", confidence=0.7, thread=BAN_THREAD)
    proposal = proposal_of(quiet)
    shown = block(owner, quiet)
    assert "The merged fact will be visible only in #mod-chat." in shown and "A merge never widens" not in shown
    facts_before = Fact.objects.count()

    outcome = proposal_answer(proposal=proposal, actor=owner, answer="merge")

    assert outcome.survivor.pk == first.pk and Fact.objects.count() == facts_before
    assert fresh(second).superseded_by_id == first.pk
    assert AuditEntry.objects.get(action="proposal.merge").result == (
        f"#{second.number} merged into #{first.number}, seen only in #mod-chat")


def test_a_merge_of_two_server_facts_says_nothing_about_audiences(planted, owner):
    round_run(ConsolidationRound.objects.create(server=planted["language"].server, trigger="manual").pk)
    shown = block(owner, planted["language"].server)
    assert "The merged fact will be" not in shown and "A merge never widens" not in shown


@pytest.fixture
def pending_across_channels(quiet):
    """A proposal waiting from before facts had audiences, whose two facts are now for two different channels."""
    for_mods = fact_in(quiet, MODS)
    for_tickets = fact_in(quiet, TICKETS, content="Zed the spammer is banned")
    low, high = sorted((for_mods.pk, for_tickets.pk))
    proposal = Proposal.objects.create(server=quiet, kind="duplicate", keeper=for_mods, other=for_tickets,
                                       keeper_version=for_mods.version, other_version=for_tickets.version,
                                       pair_low=low, pair_high=high, wording=for_mods.content, similarity=0.9,
                                       why="Same subject (ban list) and the same content.")
    return proposal


@pytest.mark.parametrize("answer_given", ["merge", "merge_other_way"])
def test_a_waiting_proposal_across_two_channels_is_never_merged_and_says_why(pending_across_channels, owner,
                                                                             answer_given):
    proposal = pending_across_channels
    before = list(Fact.objects.order_by("pk").values_list("pk", "version", "retracted_at", "audience"))
    with pytest.raises(ValidationError) as refused:
        proposal_answer(proposal=proposal, actor=owner, answer=answer_given)
    assert refused.value.messages == [
        f"#{proposal.keeper.number} was learned in #mod-chat and #{proposal.other.number} in #tickets, and neither "
        "is for the whole server: one merged fact would reach a channel one of them is not for. Keep both, or "
        "change an audience on the memory page first."]
    assert list(Fact.objects.order_by("pk").values_list("pk", "version", "retracted_at", "audience")) == before
    assert Proposal.objects.get(pk=proposal.pk).status == ProposalStatus.PENDING
    response = logged_in_client(owner).post(
        reverse("consolidation:answer", args=[proposal.server.guild_id, proposal.pk]), {"answer": answer_given},
        headers=HTMX)
    assert response.status_code == 409 and "neither is for the whole server" in response.content.decode()


def test_a_waiting_proposal_across_two_channels_offers_keep_both_only(pending_across_channels, owner):
    proposal = pending_across_channels
    shown = block(owner, proposal.server)
    assert "neither is for the whole server" in shown
    assert 'value="merge"' not in shown and 'value="merge_other_way"' not in shown and 'value="keep_both"' in shown
    outcome = proposal_answer(proposal=proposal, actor=owner, answer="keep_both")
    assert outcome.proposal.status == ProposalStatus.KEPT_BOTH


# The summary draft ---------------------------------------------------------------------


def test_the_summary_draft_is_written_from_facts_for_the_whole_server_only(quiet, owner):
    make_fact(quiet, key="mascot", content="The mascot is Quillbert the heron.", created_at=long_ago(3))
    fact_in(quiet, MODS, key="ban_plan", content="Moderators plan to ban Zorvath tonight.")
    make_fact(quiet, key="note", content="Staff note: Velmorrow asked for a refund.", audience=Audience.STAFF,
              author=FactAuthor.staff(owner), created_at=long_ago(3))
    with played_model(quiet, owner, ModelPurpose.CONSOLIDATION, model_name="fake-consolidation",
                      api_key="sk-consolidation-0123456789") as model:
        model.script = [answer("A retro gaming server whose mascot is Quillbert.")]
        finished = run(quiet)
    assert finished.status == RoundStatus.FINISHED
    bodies = [json.dumps(request["body"]) for request in model.requests]
    assert len(bodies) == 1 and "Quillbert" in bodies[0]  # no pair to ask about: the one call is the draft
    assert not any(word in body for body in bodies for word in ("Zorvath", "Velmorrow"))
    draft = SummaryDraft.objects.get(server=quiet)
    assert "Zorvath" not in draft.content and "Velmorrow" not in draft.content


def test_a_pair_with_a_staff_only_fact_is_proposed_without_showing_it_to_the_model(quiet, owner):
    """Staff only means never handed to a model: the consolidation model's pair review included."""
    make_fact(quiet, key="refund_note", content="Velmorrow's refund was approved on Friday.",
              audience=Audience.STAFF, author=FactAuthor.staff(owner), created_at=long_ago(3))
    make_fact(quiet, key="refund_note", content="Velmorrow's refund was approved on Friday!",
              created_at=long_ago(3))
    with played_model(quiet, owner, ModelPurpose.CONSOLIDATION, model_name="fake-consolidation",
                      api_key="sk-consolidation-0123456789") as model:
        model.script = [answer("A retro gaming server.")]
        finished = run(quiet)
    assert finished.status == RoundStatus.FINISHED
    pair_questions = [request for request in model.requests
                      if "You compare two facts" in json.dumps(request["body"])]
    assert pair_questions == []
    proposal = Proposal.objects.get(server=quiet)
    assert Audience.STAFF in (proposal.keeper.audience, proposal.other.audience)
    assert "were not shown to it" in finished.model_note
