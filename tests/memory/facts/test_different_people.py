"""Never merge facts about different people: two members' facts, or two facts naming different people ("Mira uses
she/her pronouns" / "Priya uses she/her pronouns", 0.96 apart for the vectors), are never taken for one statement
at write, never paired by a consolidation round or its dry run, and never shown as "the same" on the Semantic card;
the same statement in other words still is, where the server has vectors."""

from __future__ import annotations

from functools import partial

import pytest

from bench.dedupe_data import MEMBERS, PAIRS
from consolidation.dry_run import consolidation_dry_run
from consolidation.models import ConsolidationRound, Proposal
from consolidation.rounds import round_run
from memory.configuration.services import memory_type_set
from memory.models import Fact, MemoryType
from memory.panel.dry_run import semantic_dry_run
from tests.conftest import FILLER, long_ago
from tests.factories import make_fact
from tests.memory.bot.api.helpers import Api, configure, remember_in_new_exchange

pytestmark = pytest.mark.django_db

GENERAL = "111"
PAUL, MIRA, PRIYA = "200000000000000021", "300000000000000101", "300000000000000102"
MIRA_PRONOUNS = "Mira uses she/her pronouns."
PRIYA_PRONOUNS = "Priya uses she/her pronouns."
TOURNAMENT, TOURNEYS = "The weekly tournament is every Saturday.", "Weekly tourneys happen on Saturdays."


@pytest.fixture
def api(client, bot_token, server) -> Api:
    configure(server, memory_type=MemoryType.SEMANTIC, remember_limit_per_hour=1000)
    return Api(client, bot_token)


remember = partial(remember_in_new_exchange, member=PAUL, channel=GENERAL)  # Paul in #general unless told


def in_force(server) -> list[Fact]:
    return list(Fact.objects.filter(server=server, retracted_at__isnull=True).order_by("number"))


# At write ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("memory_type", [MemoryType.LEDGER, MemoryType.SEMANTIC])
def test_pronouns_of_two_people_under_one_key_are_two_facts_and_no_contradiction(api, server, memory_type):
    configure(server, memory_type=memory_type)
    remember(api, server, key="pronouns", content=MIRA_PRONOUNS)
    priya = remember(api, server, key="pronouns", content=PRIYA_PRONOUNS)

    assert priya == {"op": "remember", "status": "applied", "number": priya["number"]}  # no contradiction either
    assert [fact.content for fact in in_force(server)] == [MIRA_PRONOUNS, PRIYA_PRONOUNS]
    assert not Proposal.objects.filter(server=server).exists()
    assert not any(fact.held_back for fact in in_force(server))


def test_the_same_words_about_two_members_are_two_facts(api, server):
    for member_id in (MIRA, PRIYA):
        assert remember(api, server, key="pronouns", content="Uses she/her pronouns.", scope="member",
                        member_id=member_id)["status"] == "applied"
    assert [fact.member_id for fact in in_force(server)] == [MIRA, PRIYA]


PEOPLE = [pair for pair in PAIRS if pair.kind in ("other_person", "other_member")]


@pytest.mark.parametrize("pair", PEOPLE, ids=[f"{pair.lang}-{pair.kind}-{index}" for index, pair in enumerate(PEOPLE)])
def test_labelled_pairs_about_two_people_never_merge_even_by_their_vectors(api, server, pair):
    for written in (pair.a, pair.b):
        member = {"member_id": MEMBERS[written.member][0]} if written.member else {}
        remember(api, server, key=written.key, content=written.content, scope=written.scope, **member)
    assert len(in_force(server)) == 2


# In a round, its dry run and the Semantic card ---------------------------------------------------


@pytest.fixture
def people_and_tourneys(server, owner, django_capture_on_commit_callbacks):
    """A quiet Semantic server with the built-in model's vectors: nine unrelated facts, the pronouns of Mira and of
    Priya under one key, the same pronouns for two members, and the weekly tournament in two wordings."""
    for key, content in FILLER:
        make_fact(server, key=key, content=content, created_at=long_ago(3))
    facts = {
        "mira": make_fact(server, key="pronouns", content=MIRA_PRONOUNS, created_at=long_ago(3)),
        "priya": make_fact(server, key="pronouns", content=PRIYA_PRONOUNS, created_at=long_ago(3)),
        "member_a": make_fact(server, key="pronouns", content="Uses she/her pronouns.", scope="member",
                              member_id=MIRA, created_at=long_ago(3)),
        "member_b": make_fact(server, key="pronouns", content="Uses she/her pronouns.", scope="member",
                              member_id=PRIYA, created_at=long_ago(3)),
        "tournament": make_fact(server, key="weekly_tournament", content=TOURNAMENT, created_at=long_ago(3)),
        "tourneys": make_fact(server, key="weekly_tournament", content=TOURNEYS, created_at=long_ago(3)),
    }
    with django_capture_on_commit_callbacks(execute=True):
        memory_type_set(server=server, actor=owner, memory_type=MemoryType.SEMANTIC)
    return facts


def pairs(found) -> set[frozenset[str]]:
    return {frozenset({pair.keeper.content, pair.other.content}) for pair in found}


def test_a_round_never_pairs_two_peoples_facts_and_finds_the_tourneys_by_their_vectors(people_and_tourneys):
    server = people_and_tourneys["mira"].server
    finished = round_run(ConsolidationRound.objects.create(server=server, trigger="manual").pk)
    proposed = {frozenset({proposal.keeper.content, proposal.other.content})
                for proposal in Proposal.objects.filter(server=server).select_related("keeper", "other")}

    assert frozenset({MIRA_PRONOUNS, PRIYA_PRONOUNS}) not in proposed
    assert frozenset({"Uses she/her pronouns."}) not in proposed
    assert frozenset({TOURNAMENT, TOURNEYS}) in proposed
    assert finished.facts_considered == 15


def test_the_dry_run_never_pairs_two_peoples_facts_either(people_and_tourneys):
    dry_run = consolidation_dry_run(people_and_tourneys["mira"].server)
    found = pairs(dry_run.examples)

    assert frozenset({MIRA_PRONOUNS, PRIYA_PRONOUNS}) not in found
    assert frozenset({"Uses she/her pronouns."}) not in found
    assert frozenset({TOURNAMENT, TOURNEYS}) in found


def test_the_semantic_card_never_calls_two_peoples_facts_the_same(people_and_tourneys):
    same = {frozenset({left.content, right.content}) for left, right, _ in
            semantic_dry_run(people_and_tourneys["mira"].server).same_pairs}

    assert frozenset({MIRA_PRONOUNS, PRIYA_PRONOUNS}) not in same
    assert frozenset({"Uses she/her pronouns."}) not in same  # two members' facts, word for word alike
    assert frozenset({TOURNAMENT, TOURNEYS}) in same
