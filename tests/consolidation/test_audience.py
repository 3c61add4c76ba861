"""Consolidation obeys who may see a fact: two facts for two different channels are never paired (by the rules or
by the vectors), a merge takes the narrower audience of the two, and the summary draft is written from facts for
the whole server only."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from consolidation.dry_run import consolidation_dry_run
from consolidation.models import ConsolidationRound, Proposal, RoundStatus, SummaryDraft
from consolidation.pairs import PairingFact, Reach, classify, find_pairs, may_pair, merged_reach
from consolidation.rounds import round_run
from consolidation.selectors import semantic_neighbours
from memory.configuration.directory import ReportedChannel, channels_report
from memory.configuration.services import memory_type_set
from memory.facts.services import FactAuthor, fact_audience_set
from memory.models import Audience, Fact, MemoryType, ModelPurpose
from tests.conftest import FILLER, long_ago
from tests.factories import make_fact
from tests.model_server import answer, played_model

GENERAL, MODS, TICKETS, BAN_THREAD = "111", "222", "444", "333"
WRITTEN = datetime(2026, 11, 1, tzinfo=timezone.utc)


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
