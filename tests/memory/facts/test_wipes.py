"""Wiping memory: everything about a server, or everything about one member; immediate and audited."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from memory.configuration.services import memory_type_set
from memory.facts.deletes import member_wipe, server_wipe
from memory.facts.remembering import fact_reinforce, fact_remember
from memory.facts.services import FactAuthor, fact_retract, fact_update
from memory.facts.summary import summary_set
from memory.facts.versions import Actor
from memory.models import Fact, FactVersion, MemoryType, Scope, Summary, VersionChange
from teams.models import AuditEntry
from tests.factories import make_fact
from tests.model_server import answer

PAUL = "200000000000000021"
ANNA = "200000000000000022"


def about(server, member_id: str, *, taught_by: str, key: str = "likes", content: str = "Likes arcade games."):
    return make_fact(server, key=key, content=content, scope=Scope.MEMBER, member_id=member_id,
                     author=FactAuthor.bot(taught_by))


# server_wipe ---------------------------------------------------------------------


@pytest.fixture
def full_server(server, owner):
    """Server facts, member facts, a retracted and superseded fact, and two summary wordings."""
    theme = make_fact(server, content="Retro gaming.")
    new_theme = make_fact(server, content="Retro and indie gaming.")
    fact_retract(fact=theme, reason="theme widened", superseded_by=new_theme)
    about(server, PAUL, taught_by=PAUL)
    about(server, ANNA, taught_by=PAUL)
    summary_set(server=server, content="First summary.", author=FactAuthor.staff(owner))
    summary_set(server=server, content="Second summary.", author=FactAuthor.bot(PAUL))
    return server


def test_server_wipe_deletes_every_fact_and_summary_of_the_server(full_server, owner):
    result = server_wipe(server=full_server, actor=owner)

    assert not Fact.objects.filter(server=full_server).exists()
    assert not Summary.objects.filter(server=full_server).exists()
    assert (result.facts, result.summaries) == (4, 2)
    connection.check_constraints()


def test_server_wipe_leaves_other_servers_untouched(full_server, other_server, owner, outsider):
    theirs = [make_fact(other_server, key=f"fact_{n}") for n in range(3)]
    fact_retract(fact=theirs[0], reason="old", superseded_by=theirs[1])
    about(other_server, PAUL, taught_by=PAUL)
    their_summary = summary_set(server=other_server, content="Synth talk.", author=FactAuthor.staff(outsider))

    server_wipe(server=full_server, actor=owner)

    assert Fact.objects.filter(server=other_server).count() == 4
    assert Fact.objects.get(pk=theirs[0].pk).superseded_by_id == theirs[1].pk
    assert Summary.objects.get(server=other_server) == their_summary
    assert not AuditEntry.objects.filter(server=other_server, action__startswith="memory.wipe").exists()


def test_server_wipe_writes_one_audit_row_with_who_did_it_and_how_many_items_went(full_server, owner):
    result = server_wipe(server=full_server, actor=owner)

    row = AuditEntry.objects.get(server=full_server, action="memory.wipe_server")
    assert row.actor == owner and row.actor_label == "owner"
    assert row.count == result.facts + result.summaries == 6
    assert "4 facts" in row.result and "2 summaries" in row.result


def test_after_a_server_wipe_fact_numbers_are_still_never_reused(full_server, owner):
    server_wipe(server=full_server, actor=owner)

    assert make_fact(full_server).number == 5


# member_wipe ---------------------------------------------------------------------


def test_member_wipe_deletes_facts_about_the_member_and_facts_learned_from_their_messages(server, owner):
    about_paul = about(server, PAUL, taught_by=ANNA, content="Paul likes pinball.")
    taught_by_paul = make_fact(server, key="server_rule", content="No spoilers.", author=FactAuthor.bot(PAUL))
    about_anna_from_paul = about(server, ANNA, taught_by=PAUL, content="Anna collects cartridges.")
    staff_fact_about_paul = make_fact(server, key="birthday", content="3 May.", scope=Scope.MEMBER,
                                      member_id=PAUL, author=FactAuthor.staff(owner))

    result = member_wipe(server=server, actor=owner, member_id=PAUL)

    gone = [about_paul, taught_by_paul, about_anna_from_paul, staff_fact_about_paul]
    assert not Fact.objects.filter(pk__in=[fact.pk for fact in gone]).exists()
    assert result.facts == 4


def test_member_wipe_leaves_other_members_and_server_facts_untouched(server, owner):
    about(server, PAUL, taught_by=PAUL)
    about_anna = about(server, ANNA, taught_by=ANNA, content="Anna collects cartridges.")
    from_anna = make_fact(server, key="server_rule", content="No spoilers.", author=FactAuthor.bot(ANNA))
    by_staff = make_fact(server, key="bot_tone", content="Friendly.", author=FactAuthor.staff(owner))

    member_wipe(server=server, actor=owner, member_id=PAUL)

    assert set(Fact.objects.filter(server=server)) == {about_anna, from_anna, by_staff}


def test_member_wipe_only_touches_the_chosen_server(server, other_server, owner):
    theirs = about(other_server, PAUL, taught_by=PAUL)

    member_wipe(server=server, actor=owner, member_id=PAUL)

    assert Fact.objects.filter(pk=theirs.pk).exists()


def test_a_fact_of_another_member_replaced_by_a_wiped_fact_stays_retracted_and_unlinked(server, owner):
    anna_old = about(server, ANNA, taught_by=ANNA, content="Anna plays on a SNES.")
    from_paul = about(server, ANNA, taught_by=PAUL, content="Anna plays on a Mega Drive now.")
    fact_retract(fact=anna_old, reason="Paul says she switched", superseded_by=from_paul)

    member_wipe(server=server, actor=owner, member_id=PAUL)

    stored = Fact.objects.get(pk=anna_old.pk)
    assert stored.superseded_by is None
    assert stored.retracted_at is not None and stored.retraction_reason == "Paul says she switched"
    assert not Fact.objects.filter(pk=from_paul.pk).exists()
    connection.check_constraints()


def test_member_wipe_writes_one_audit_row_with_who_did_it_and_how_many_facts_went(server, owner):
    about(server, PAUL, taught_by=PAUL)
    make_fact(server, author=FactAuthor.bot(PAUL))
    about(server, ANNA, taught_by=ANNA)

    member_wipe(server=server, actor=owner, member_id=PAUL)

    row = AuditEntry.objects.get(server=server, action="memory.wipe_member")
    assert row.actor == owner and row.actor_label == "owner"
    assert row.count == 2
    assert PAUL in row.result


@pytest.mark.parametrize("bad_member_id", ["", "   ", "paul", "<@200000000000000021>", "1" * 21, "-1"])
def test_member_wipe_refuses_a_member_id_that_is_not_a_snowflake_and_deletes_nothing(server, owner, bad_member_id):
    # Staff facts have no learned-from member and server facts no member: an empty id must not match them.
    make_fact(server, author=FactAuthor.staff(owner))
    make_fact(server, key="bot_tone", author=FactAuthor.bot(PAUL))
    about(server, PAUL, taught_by=PAUL)

    with pytest.raises(ValidationError):
        member_wipe(server=server, actor=owner, member_id=bad_member_id)

    assert Fact.objects.filter(server=server).count() == 3
    assert not AuditEntry.objects.filter(action="memory.wipe_member").exists()


def test_member_wipe_removes_their_exchanges_and_keeps_everyone_elses(server, owner):
    from memory.bot.exchanges import IncomingMessage, exchange_open
    from memory.models import Exchange

    paul, mira = "200000000000000011", "200000000000000012"
    for author in (paul, paul, mira):
        exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id=author, content="hi"))

    result = member_wipe(server=server, actor=owner, member_id=paul)

    assert result.exchanges == 2
    assert list(Exchange.objects.filter(server=server).values_list("author_id", flat=True)) == [mira]


def test_server_wipe_removes_the_exchange_log_and_unlinks_nothing_else(server, other_server, owner):
    from memory.bot.exchanges import IncomingMessage, exchange_open
    from memory.models import Exchange

    exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id="1", content="hi"))
    exchange_open(server=other_server, message=IncomingMessage(channel_id="111", author_id="1", content="hi"))

    assert server_wipe(server=server, actor=owner).exchanges == 1
    assert Exchange.objects.filter(server=other_server).count() == 1


def test_server_wipe_also_deletes_the_consolidation_proposals_and_summary_draft_that_quote_its_facts(
        planted, consolidation_model, owner):
    from consolidation.models import ConsolidationRound, Proposal, SummaryDraft
    from consolidation.rounds import round_run

    server = planted["language"].server
    consolidation_model.script = [answer('{"class": "duplicate", "wording": "French."}'),
                                  answer('{"class": "contradiction"}'), answer("A French server.")]
    round_run(ConsolidationRound.objects.create(server=server, trigger="manual").pk)
    assert Proposal.objects.filter(server=server).count() == 2 and SummaryDraft.objects.filter(server=server).exists()

    wiped = server_wipe(server=server, actor=owner)
    assert wiped.facts == len(planted)
    assert not Proposal.objects.filter(server=server).exists()
    assert not SummaryDraft.objects.filter(server=server).exists()
    entry = AuditEntry.objects.filter(server=server, action="memory.wipe_server").get()
    assert "with 3 consolidation proposals and drafts" in entry.result


def _proposal(keeper: Fact, other: Fact, status: str = "kept_both"):
    from consolidation.models import Proposal

    low, high = sorted((keeper.pk, other.pk))
    return Proposal.objects.create(server=keeper.server, kind="duplicate", keeper=keeper, other=other,
                                   keeper_version=keeper.version, other_version=other.version,
                                   pair_low=low, pair_high=high, status=status)


@pytest.mark.parametrize("status", ["pending", "kept_both", "out_of_date"])
def test_member_wipe_succeeds_when_a_consolidation_proposal_quotes_one_of_their_facts(server, owner, status):
    from consolidation.models import Proposal, ProposalStatus

    assert status in ProposalStatus.values
    pauls = about(server, PAUL, taught_by=PAUL, key="address", content="Paul lives at 12 Elm Street.")
    annas = about(server, ANNA, taught_by=ANNA, key="address", content="Anna lives at 3 Oak Lane.")
    server_fact = make_fact(server, key="language", content="French.")
    _proposal(pauls, annas, status)
    untouched = _proposal(annas, server_fact, "pending")

    result = member_wipe(server=server, actor=owner, member_id=PAUL)

    connection.check_constraints()  # the deferred foreign keys hold at commit
    assert result.facts == 1
    assert list(Proposal.objects.filter(server=server)) == [untouched]
    assert "1 consolidation proposals and drafts deleted" in AuditEntry.objects.get(action="memory.wipe_member").result


def test_member_wipe_discards_a_summary_draft_not_yet_answered(server, owner):
    from consolidation.models import DraftStatus, SummaryDraft

    about(server, PAUL, taught_by=PAUL)
    SummaryDraft.objects.create(server=server, content="Paul likes arcade games.")
    answered = SummaryDraft.objects.create(server=server, content="Older.", status=DraftStatus.KEPT_CURRENT)

    member_wipe(server=server, actor=owner, member_id=PAUL)

    assert list(SummaryDraft.objects.filter(server=server)) == [answered]


def test_member_wipe_deletes_the_summarys_earlier_wordings_that_may_name_them_and_keeps_the_current_one(
        server, other_server, owner, member):
    """The summary history page shows earlier wordings to every viewer; one may name the member (found in
    review: a wiped member's address stayed readable there). They go; the current wording stays for staff."""
    from django.urls import reverse

    from tests.conftest import logged_in_client

    staff = FactAuthor.staff(owner)
    summary_set(server=server, content="Paul (12 Elm Street) runs the arcade nights.", author=staff)
    summary_set(server=server, content="A retro gaming server.", author=staff)
    summary_set(server=other_server, content="Paul hosts here too.", author=staff)
    summary_set(server=other_server, content="Another server.", author=staff)

    member_wipe(server=server, actor=owner, member_id=PAUL)

    assert list(Summary.objects.filter(server=server).values_list("content", "retracted_at")) == [
        ("A retro gaming server.", None)]
    assert Summary.objects.filter(server=other_server).count() == 2
    history = logged_in_client(member).get(reverse("memory:summary-history", args=[server.guild_id]))
    assert history.status_code == 200 and "Elm Street" not in history.content.decode()
    assert "1 earlier summary wording deleted" in AuditEntry.objects.get(action="memory.wipe_member").result


def test_member_wipe_removes_their_facts_from_the_memory_blocks_other_members_were_shown(server, owner):
    from memory.bot.exchanges import IncomingMessage, exchange_open
    from memory.models import Exchange

    pauls = about(server, PAUL, taught_by=ANNA, key="address", content="Paul lives at 12 Elm Street.")
    rule = make_fact(server, key="rule", content="Be kind.")
    opened = exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id=ANNA, content="hi"))
    exchange = Exchange.objects.get(pk=opened.exchange.pk)
    assert "12 Elm Street" in exchange.memory_block and pauls.number in exchange.shown_numbers

    member_wipe(server=server, actor=owner, member_id=PAUL)

    block = Exchange.objects.get(pk=exchange.pk).memory_block
    assert "Elm Street" not in block and "address" not in block
    assert f"[#{pauls.number}] (deleted by a member wipe)" in block.splitlines()
    assert f"[#{rule.number}] ({rule.changed_at:%Y-%m-%d}) rule: Be kind." in block.splitlines()
    assert "1 other exchange redacted" in AuditEntry.objects.get(action="memory.wipe_member").result


def test_member_wipe_leaves_no_version_of_any_fact_that_names_them(server, owner):
    """Versions of their facts go with the facts; what they said again of someone else's fact goes from that
    fact's history (its mention count stays, a number about no one)."""
    annas = make_fact(server, key="raid_day", content="Raids are on Friday.", author=FactAuthor.bot(ANNA))
    fact_reinforce(fact=annas, by=Actor.bot(None, PAUL), source_weight=0.7)
    pauls = about(server, PAUL, taught_by=PAUL)
    fact_update(fact=pauls, actor=owner, expected_version=pauls.version, key=pauls.key, content="Likes pinball.",
                confidence=pauls.confidence)
    assert FactVersion.objects.filter(server=server).count() == 4

    member_wipe(server=server, actor=owner, member_id=PAUL)

    left = list(FactVersion.objects.filter(server=server).values())
    assert [(version["fact_id"], version["change"]) for version in left] == [(annas.pk, VersionChange.CREATE)]
    assert PAUL not in json.dumps(left, default=str)
    assert Fact.objects.get(pk=annas.pk).mention_count == 2


def test_member_wipe_hands_over_again_a_fact_their_contradicting_fact_held_back(server, owner):
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.LEDGER)
    annas = make_fact(server, key="raid_day", content="Raids are on Friday.", author=FactAuthor.bot(ANNA))
    fact_remember(server=server, exchange=None, member_id_of_author=PAUL, key="raid_day",
                  content="Raids are on Saturday.", scope=Scope.SERVER, member_id="", importance=None,
                  confidence=None, kind=None, audience=annas.audience, source_channel_id="", source_thread_id="",
                  flag_contradictions=True)
    assert Fact.objects.get(pk=annas.pk).held_back

    member_wipe(server=server, actor=owner, member_id=PAUL)

    assert not Fact.objects.get(pk=annas.pk).held_back
