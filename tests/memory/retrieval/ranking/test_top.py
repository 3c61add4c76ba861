"""The fast top N of memory/retrieval/ranking gives exactly what scoring every fact the reader may see gives, on every
branch, whichever channel reads, whatever the kinds' half-lives, for the facts about some members or the facts not
already chosen."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from config.rows import columns
from memory.models import Audience, Fact, Kind, Scope
from memory.retrieval.audience import Reader
from memory.retrieval.ranking import HalfLives, Weights, microseconds, rank_top, relevance_by_position, top
from tests.factories import make_fact

from .ranking_reference import rank_every_fact

WEIGHT_COMBINATIONS = [
    Weights(1, 1, 1), Weights(0, 1, 1), Weights(1, 0, 1), Weights(1, 1, 0), Weights(0, 0, 1), Weights(0, 1, 0),
    Weights(1, 0, 0), Weights(10, 0.5, 3), Weights(0.1, 10, 0), Weights(3, 7, 0.25), Weights(10, 10, 10),
    Weights(0.5, 2, 9),
]
NUMBER_AND_KEY = columns(Fact, "fact", ("number", "key"))  # read with the ranking, for the caller
LIMITS = [1, 3, 20, 60, 400]  # 400: more slots than facts, the walk reaches the end
MODS, LOUNGE = "333000000000000001", "333000000000000002"  # the channels random_memory's channel facts come from
READERS = [Reader.for_message(MODS), Reader.for_message(LOUNGE), Reader.any_channel()]
ANYWHERE = Reader.any_channel()
DEFAULT_HALF_LIVES = HalfLives()  # rules, lore and profiles never age; preferences 180 days, events 30
HALF_LIFE_COMBINATIONS = [
    DEFAULT_HALF_LIVES, HalfLives(30, 30, 30, 30, 30), HalfLives(0, 0, 0, 0, 0), HalfLives(0, 365, 0, 7, 1),
    HalfLives(3650, 0, 90, 0, 2),
]
MEMBERS = [f"22200000000000000{index}" for index in range(4)]  # the members random_memory's member facts are about


@pytest.fixture(autouse=True)
def no_hints(monkeypatch):
    """Each test starts without hints left by rankings of earlier tests."""
    monkeypatch.setattr(top, "_HINTS", {})


@pytest.fixture
def small_walks(monkeypatch):
    """Walks and caps a few facts long, so a few hundred facts take every branch: the recency bound,
    the weight index with and without hitting its cap, deeper walks, walking to the end, ties."""
    for name, value in {"WALK_PER_SLOT": 1, "MIN_WALK": 4, "CAP_PER_SLOT": 1, "MIN_CAP": 3,
                        "HEAVY_PER_SLOT": 1, "MIN_HEAVY": 2}.items():
        monkeypatch.setattr(top, name, value)


def random_memory(server, rng: random.Random, count: int, now, *, audiences: bool = True) -> list[Fact]:
    """Facts with values drawn so that ties happen: shared timestamps, confidences and importances
    (including unscored), some changed in the future, some retracted, of every kind, a third about one of a few
    members; with `audiences`, a quarter learned in one of two channels and limited to it, a few for staff only."""
    for index in range(count):
        make_fact(server, key=f"fact_{index}", content=f"Fact number {index}.")
    facts = list(Fact.objects.filter(server=server).order_by("id"))
    shared_moments = [now - timedelta(days=rng.uniform(0, 200)) for _ in range(8)]
    for fact in facts:
        roll = rng.random()
        if roll < 0.15:
            fact.changed_at = rng.choice(shared_moments)
        elif roll < 0.18:
            fact.changed_at = now + timedelta(hours=rng.uniform(0, 5))
        else:
            fact.changed_at = now - timedelta(days=rng.expovariate(1 / 60))
        fact.confidence = rng.choice([1.0, 1.0, 0.5, 0.0, round(rng.random(), 2), rng.random()])
        fact.importance = rng.choice([None, None, 0.5, 1.0, 0.0, round(rng.random(), 1), rng.random()])
        fact.kind = rng.choice(Kind.values)
        if rng.random() < 0.33:
            fact.scope, fact.member_id = Scope.MEMBER, rng.choice(MEMBERS)
        if rng.random() < 0.05:
            fact.retracted_at = now
        audience_roll = rng.random() if audiences else 1.0
        if audience_roll < 0.25:
            fact.audience, fact.source_channel_id = Audience.CHANNEL, rng.choice([MODS, LOUNGE])
        elif audience_roll < 0.3:
            fact.audience = Audience.STAFF
    Fact.objects.bulk_update(facts, ["changed_at", "confidence", "importance", "retracted_at", "audience",
                                     "source_channel_id", "kind", "scope", "member_id"])
    return [fact for fact in facts if fact.retracted_at is None]


def random_relevance(rng: random.Random, facts: list[Fact]) -> dict[int, float]:
    matched = rng.sample(facts, rng.choice([0, 1, 5, 30, 50]))
    return relevance_by_position([fact.id for fact in matched])


def random_filters(rng: random.Random, in_force: list[Fact]) -> dict:
    """Mostly none; else only the facts about some members (the speaker's share), or none of some facts already
    chosen (the rest of the slots), or both."""
    filters = {}
    roll = rng.random()
    if roll < 0.2:
        filters["only_members"] = tuple(rng.sample(MEMBERS, rng.choice([0, 1, 2])))
    if 0.1 < roll < 0.35:
        filters["exclude_ids"] = [fact.pk for fact in rng.sample(in_force, rng.choice([1, 5, 20]))]
    return filters


def test_the_fast_path_ranks_exactly_like_scoring_every_fact(server, small_walks):
    rng = random.Random(20261130)
    now = timezone.now()
    in_force = random_memory(server, rng, 300, now)
    numbers_and_keys = {fact.pk: (fact.number, fact.key) for fact in in_force}
    steps = Counter()
    for weights in WEIGHT_COMBINATIONS:
        for limit in LIMITS:
            for _ in range(3):
                relevance = random_relevance(rng, in_force)  # may match facts the reader may not see
                reader = rng.choice(READERS)
                half_lives = rng.choice(HALF_LIFE_COMBINATIONS)
                filters = random_filters(rng, in_force)
                fast = rank_top(server.pk, weights, limit, relevance, now, columns=NUMBER_AND_KEY, reader=reader,
                                half_lives=half_lives, **filters)
                expected = rank_every_fact(server, weights, limit, relevance, now, reader, half_lives=half_lives,
                                           **filters)
                assert [fact.id for fact in fast.facts] == [fact.id for fact in expected], (weights, limit)
                assert [fact.score for fact in fast.facts] == [fact.score for fact in expected]
                assert [fast.columns[fact.id] for fact in fast.facts] == [
                    numbers_and_keys[fact.id] for fact in expected]
                steps.update(fast.steps)
    assert set(steps) >= {"recency bound", "weight index", "weight index, capped", "deeper", "exhausted",
                          "weight bound", "weight tie", "hinted"}, steps


def test_ties_go_to_the_newer_change_then_the_higher_id(server, small_walks):
    now = timezone.now()
    moment = now - timedelta(days=3)
    for index in range(40):
        make_fact(server, key=f"same_{index}", content="Same weight, same moment.")
    Fact.objects.filter(server=server).update(changed_at=moment, confidence=1.0, importance=None)
    for weights in WEIGHT_COMBINATIONS:
        fast = rank_top(server.pk, weights, 7, {}, now, reader=ANYWHERE, half_lives=DEFAULT_HALF_LIVES)
        expected = rank_every_fact(server, weights, 7, {}, now)
        assert [fact.id for fact in fast.facts] == [fact.id for fact in expected]
        assert [fact.id for fact in fast.facts] == sorted((fact.id for fact in fast.facts), reverse=True)


def test_a_server_with_fewer_facts_than_slots_gets_them_all(server):
    facts = [make_fact(server, key=f"fact_{index}", content=f"Fact {index}.") for index in range(3)]
    fast = rank_top(server.pk, Weights(1, 1, 1), 20, {}, timezone.now(), reader=ANYWHERE, half_lives=DEFAULT_HALF_LIVES)
    assert {fact.id for fact in fast.facts} == {fact.pk for fact in facts}
    assert fast.exhausted


def test_a_server_without_facts_ranks_nothing(server):
    assert rank_top(server.pk, Weights(1, 1, 1), 20, {}, timezone.now(), reader=ANYWHERE,
                    half_lives=DEFAULT_HALF_LIVES).facts == []


def test_facts_of_other_servers_and_retracted_facts_never_rank(server, other_server):
    ours = make_fact(server, key="ours", content="Ours.")
    theirs = make_fact(other_server, key="theirs", content="Theirs.", importance=1.0)
    gone = make_fact(server, key="gone", content="Retracted.", importance=1.0)
    Fact.objects.filter(pk=gone.pk).update(retracted_at=timezone.now())
    relevance = {theirs.pk: 1.0, gone.pk: 1.0}
    fast = rank_top(server.pk, Weights(1, 1, 1), 20, relevance, timezone.now(), reader=ANYWHERE,
                    half_lives=DEFAULT_HALF_LIVES)
    assert [fact.id for fact in fast.facts] == [ours.pk]


def test_facts_the_reader_may_not_see_never_rank_even_when_the_search_matched_them(server):
    ours = make_fact(server, key="ours", content="Ours.")
    mods_only = make_fact(server, key="mods_only", content="Learned in the mods' channel.", importance=1.0,
                          audience=Audience.CHANNEL, source_channel_id=MODS)
    staff_only = make_fact(server, key="staff_only", content="For staff.", importance=1.0, audience=Audience.STAFF)
    relevance = {mods_only.pk: 1.0, staff_only.pk: 1.0}
    for weights in (Weights(1, 1, 1), Weights(0, 1, 1)):  # the walk by recency and the walk by weight
        in_lounge = rank_top(server.pk, weights, 20, relevance, timezone.now(), reader=Reader.for_message(LOUNGE),
                             half_lives=DEFAULT_HALF_LIVES)
        assert [fact.id for fact in in_lounge.facts] == [ours.pk]
        in_mods = rank_top(server.pk, weights, 20, relevance, timezone.now(), reader=Reader.for_message(MODS),
                             half_lives=DEFAULT_HALF_LIVES)
        assert [fact.id for fact in in_mods.facts] == [mods_only.pk, ours.pk]


def test_a_hint_left_in_one_channel_is_never_taken_in_another(server, small_walks):
    rng = random.Random(5)
    now = timezone.now()
    random_memory(server, rng, 120, now)
    weights = Weights(1, 1, 1)
    rank_top(server.pk, weights, 10, {}, now, reader=Reader.for_message(MODS),
                             half_lives=DEFAULT_HALF_LIVES)
    assert set(top._HINTS) == {(server.pk, Reader.for_message(MODS), weights, DEFAULT_HALF_LIVES)}
    in_lounge = rank_top(server.pk, weights, 10, {}, now, reader=Reader.for_message(LOUNGE),
                             half_lives=DEFAULT_HALF_LIVES)
    assert "hinted" not in in_lounge.steps
    assert [fact.id for fact in in_lounge.facts] == [fact.id for fact in rank_every_fact(
        server, weights, 10, {}, now, Reader.for_message(LOUNGE))]
    assert "hinted" in rank_top(server.pk, weights, 10, {}, now, reader=Reader.for_message(LOUNGE),
                             half_lives=DEFAULT_HALF_LIVES).steps


@pytest.mark.parametrize("hint", [0.99, 0.4], ids=["too high", "too low"])
def test_a_wrong_hint_costs_a_round_trip_never_a_fact(server, small_walks, hint):
    rng = random.Random(7)
    now = timezone.now()
    in_force = random_memory(server, rng, 200, now, audiences=False)  # the hints below are for these facts
    weights = Weights(1, 1, 1)
    half_lives = HalfLives(30, 30, 30, 30, 30)  # every kind ages: the walk alone could not settle it
    for limit in (3, 20):
        relevance = random_relevance(rng, in_force)
        top._HINTS[(server.pk, ANYWHERE, weights, half_lives)] = ((hint,) * limit, microseconds(now))
        fast = rank_top(server.pk, weights, limit, relevance, now, reader=ANYWHERE, half_lives=half_lives)
        assert [fact.id for fact in fast.facts] == [fact.id for fact in rank_every_fact(
            server, weights, limit, relevance, now, half_lives=half_lives)]
        assert "hinted" in fast.steps
        assert ("hint refused" in fast.steps) == (hint == 0.99)


def test_each_ranking_leaves_a_hint_no_higher_than_any_messages_nth_best(server):
    rng = random.Random(11)
    now = timezone.now()
    in_force = random_memory(server, rng, 150, now, audiences=False)
    weights = Weights(2, 1, 1)
    rank_top(server.pk, weights, 10, random_relevance(rng, in_force), now, reader=ANYWHERE,
             half_lives=DEFAULT_HALF_LIVES)
    lower_bound = top._HINTS[(server.pk, ANYWHERE, weights, DEFAULT_HALF_LIVES)][0][9]  # the 10th best
    for _ in range(10):
        relevance = random_relevance(rng, in_force)
        assert lower_bound <= rank_every_fact(server, weights, 10, relevance, now)[-1].score
